"""The Jupyter widget: a thin adapter between the engine and the browser.

Python owns the game. The browser (``js/``, bundled into ``static/``) draws what it is
given and sends *intents* (``{"kind": "play", "card": "3*", "queue": 1}``); every intent is
checked against the protocol (:mod:`tenleave_widget.table.protocol`) and then with the
engine by the session (:mod:`tenleave_widget.table.session`), and an illegal or forged one
is answered with a visible message and changes nothing.

What reaches the browser is only ever a seat view (``docs/view.md``) or the teacher's
omniscient view when explicitly chosen, the odds of that view, and words made from public
events. The game itself, its history (undo, replay) and other seats' knowledge stay in
Python.

Modules: :mod:`.entry` (``play``, ``hotseat``, ``replay``), :mod:`.remote` (``join``: a
seat at a dealer's table), :mod:`.classroom` (``classroom``: the teacher's view of it),
:mod:`.controller`
(:class:`~.controller.TenLeaveWidget`: wires the session, the table and the bots, with
:mod:`.lesson_controls`), :mod:`.table_widget` (the traitlets), :mod:`.bot_runner` (bots
paced on the event loop), :mod:`.review_panel` (a replay's review), :mod:`.branch_view`
(a branch's replay above its original's), :mod:`.class_positions` (a class review's
positions on the table), :mod:`.owned` (the kernel owns every synced trait) and
:mod:`.plotly_runtime` (plotly.js once per kernel).

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
import sys
from typing import TYPE_CHECKING, Any

from ..table.protocol import WidgetMessageError as WidgetMessageError

if TYPE_CHECKING:
    from .class_positions import Practice as Practice
    from .class_positions import open_position as open_position
    from .classroom import classroom as classroom
    from .controller import TenLeaveWidget as TenLeaveWidget
    from .entry import hotseat as hotseat
    from .entry import play as play
    from .entry import replay as replay
    from .remote import join as join

# The Jupyter half (anywidget, ipywidgets, traitlets) is imported on first use, so that
# ``WidgetMessageError`` (pure) can be caught without it.
_JUPYTER = {
    "TenLeaveWidget": "controller", "hotseat": "entry", "play": "entry", "replay": "entry",
    "Practice": "class_positions", "open_position": "class_positions", "join": "remote",
    "classroom": "classroom",
}


def __getattr__(name: str) -> Any:
    module = _JUPYTER.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f".{module}", __name__), name)


__all__ = sorted(["WidgetMessageError", *_JUPYTER])

if "IPython" in sys.modules:  # perhaps in a kernel: the page loads plotly.js meanwhile
    importlib.import_module(".plotly_runtime", __name__).preload()
