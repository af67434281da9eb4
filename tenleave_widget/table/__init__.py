"""The table's presentation model: what a table shows, with no Jupyter import.

The widget (:mod:`tenleave_widget.widget`) and the HTML export
(:mod:`tenleave_widget.programs.export`) both draw from it. :mod:`.protocol` (the typed
state and intents, the contract with ``js/protocol.ts``), :mod:`.session` (the state
machine, composed of :mod:`.session_state`, :mod:`.game_line`, :mod:`.turn_in_progress`,
:mod:`.bot_seats`, :mod:`.preferences` and :mod:`.table_view`), :mod:`.modes` (play /
hot-seat / replay), :mod:`.offers` (what may be clicked), :mod:`.narration` and
:mod:`.words` (turns, swats and errors in words), :mod:`.config` (the one check of a
set-up), :mod:`.history` (a game's positions), :mod:`.charts` and :mod:`.panels` (the
odds panels' data), :mod:`.lookahead_panel` (the moves' whole-game values, computed in
the background) and :mod:`.review_state` (what a table shows of a review). The seat
view's types are the engine's (:mod:`tenleave_widget.engine.view`).
"""
