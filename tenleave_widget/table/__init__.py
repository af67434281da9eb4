"""The table's presentation model: what a table shows, with no Jupyter import.

The widget (:mod:`tenleave_widget.widget`) and the HTML export
(:mod:`tenleave_widget.programs.export`) both draw from it. Its rooms:

- :mod:`.protocol`: the typed state and intents, the contract with ``js/protocol.ts``;
  :mod:`.tasks`: background work, with or without threads;
- :mod:`.session`: the state machine (:mod:`.session.machine`) and its parts: the
  attributes (:mod:`.session.state`), the line of play, the turn in progress, the bot
  seats, the preferences, what the table shows; the modes (play / hot-seat / replay),
  what may be clicked (:mod:`.session.offers`), the one check of a set-up
  (:mod:`.session.config`), a game's positions (:mod:`.session.history`), a review and a
  lesson on the table;
- :mod:`.panels.charts`, :mod:`.panels.feed`, :mod:`.panels.plain`, :mod:`.panels.suggest`,
  :mod:`.panels.suggest_chart` and :mod:`.panels.lookahead`: the odds panels;
- :mod:`.coach.verdicts`, :mod:`.coach.check` and :mod:`.coach.table`: the coach;
- :mod:`.narration`, :mod:`.words` and :mod:`.review_breakdown`: the table in words.

The seat view's types are the engine's (:mod:`tenleave_widget.engine.view`).
"""
