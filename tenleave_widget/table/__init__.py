"""The table's presentation model: what a table shows, with no Jupyter import.

The widget (:mod:`tenleave_widget.widget`) and the HTML export
(:mod:`tenleave_widget.programs.export`) both draw from it. Four rooms and two modules:

- :mod:`.protocol`: the typed state and intents, the contract with ``js/protocol.ts``;
- :mod:`.tasks`: background work, with or without threads;
- :mod:`.session`: the state machine (:class:`~.session.machine.Session`) and its parts;
- :mod:`.panels`: the odds panels' data and figures, and the feeds that fill them;
- :mod:`.coach`: the coach's verdicts, its "Are you sure?" and what the table shows of them;
- :mod:`.words`: turns and swats narrated, errors in plain words, a review in sentences.

The seat view's types are the engine's (:mod:`tenleave_widget.engine.view`).
"""
