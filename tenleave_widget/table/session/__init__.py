"""The session: one table's state machine, pure (no Jupyter, no traitlets, no threads).

:mod:`.machine` (:class:`~.machine.Session`: routes the intents) is composed of parts, one
concept each, over :mod:`.state` (every attribute): :mod:`.game_line` (the line of play),
:mod:`.turn_in_progress`, :mod:`.bot_seats`, :mod:`.preferences`, :mod:`.table_view` (what
the table shows) and :mod:`.review_state`. Beside them: :mod:`.modes` (play / hot-seat /
replay), :mod:`.offers` (what may be clicked), :mod:`.config` (the one check of a set-up),
:mod:`.history` (a game's positions), :mod:`.redeal`, :mod:`.lesson` and
:mod:`.default_size`.
"""
