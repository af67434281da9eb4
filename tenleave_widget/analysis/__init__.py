"""Analysis: pure functions of a seat's view, built on the engine (no Jupyter).

:mod:`.odds` (the exact swat-risk odds and one-swat move evaluation), :mod:`.position`
(a record's position and its odds), :mod:`.bots` (bots that decide from a view),
:mod:`.lookahead` (whole-game move values on sampled worlds) and :mod:`.review` (the
judgement of a finished game).
"""
