"""The Jupyter widget: a thin adapter between the engine and the browser.

Python owns the game. The browser (``js/``, bundled into ``static/``) draws what it is
given and sends *intents* (``{"kind": "play", "card": "3*", "queue": 1}``); every intent is
checked against the protocol (:mod:`.protocol`) and then with the engine by the session
(:mod:`.session`), and an illegal or forged one is answered with a visible message and
changes nothing.

What reaches the browser is only ever a seat view (``docs/view.md``) or the teacher's
omniscient view when explicitly chosen, the odds of that view, and words made from public
events. The game itself, its history (undo, replay) and other seats' knowledge stay in
Python.

Modules: :mod:`.protocol` (the typed state and intents; ``js/protocol.ts`` is generated from it),
:mod:`.session` (the pure state machine), :mod:`.modes` (play / hot-seat / replay
policies), :mod:`.offers` (what may be clicked), :mod:`.narration` (turns in words),
:mod:`.config` (the one argument check),
:mod:`.table` (the traitlets), :mod:`.bot_runner`, :mod:`.panels` (the odds panels'
data, drawn by ``js/panels/``), :mod:`.words` (errors in plain words for the table),
:mod:`.controller` (:class:`TenLeaveWidget`) and :mod:`.entry` (``play``, ``hotseat``,
``replay_widget``).

>>> from tenleave_widget.widget import play
>>> w = play(players=3, human=0, bots=["greedy", "random"], seed=1, bot_delay=0)
>>> w.handle_intent({"kind": "play", "card": "2", "queue": 0})
>>> w.handle_intent({"kind": "end"})
>>> w.game.turns_applied, w.game.to_move          # both bots answered at once
(3, 0)
>>> w.send_intent({"kind": "play", "card": "9", "queue": 0})
False
>>> w.table.message["level"]
'error'
"""


from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from ..table.protocol import TableState, WidgetMessageError
from ..table.session.machine import Session, public_view
from ..table.words.narration import describe_turn

if TYPE_CHECKING:
    from .class_positions import Practice, open_position
    from .controller import TenLeaveWidget
    from .entry import hotseat, play, replay_widget
    from .table_widget import STATIC, TableWidget

# The Jupyter half (anywidget, ipywidgets, traitlets) is imported on first use, so
# that the pure half (protocol, session, narration) can be used and tested without it.
_JUPYTER = {
    "STATIC": "table_widget", "TableWidget": "table_widget", "TenLeaveWidget": "controller",
    "hotseat": "entry", "play": "entry", "replay_widget": "entry",
    "Practice": "class_positions", "open_position": "class_positions",
}


def __getattr__(name: str) -> Any:
    module = _JUPYTER.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f".{module}", __name__), name)


__all__ = [
    "STATIC",
    "Practice",
    "Session",
    "TableState",
    "TableWidget",
    "TenLeaveWidget",
    "WidgetMessageError",
    "describe_turn",
    "hotseat",
    "open_position",
    "play",
    "public_view",
    "replay_widget",
]
