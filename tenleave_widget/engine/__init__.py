"""The engine: the rules of *10 to Leave* and nothing else (no odds, no Jupyter).

:mod:`.errors` (the typed errors), :mod:`.cards` (card notation, parsed only here),
:mod:`.rules` (variant options and rule constants), :mod:`.turn` (a turn and the one step
grammar), :mod:`.record` (the ``tenleave-record/1`` file format), :mod:`.legal` (the
legal turns as arithmetic), :mod:`.view` (the seat view's types and the projection of a
game onto them) and :mod:`.game` (the state, the executor, swats, daybreak).
"""
