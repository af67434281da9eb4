"""The card table as an anywidget: synced traitlets only, no logic.

Its traitlets are the keys of :class:`~.protocol.TableState` (a test checks it), filled by
:meth:`TableWidget.show`; the front end (``js/``, bundled into ``static/``) draws them and
sends intents back as custom messages.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anywidget
import traitlets

from ..table.protocol import TableState

__all__ = ["STATIC", "TableWidget"]

STATIC = Path(__file__).resolve().parents[1] / "static"


class TableWidget(anywidget.AnyWidget):
    """The card table: draws a :class:`~.protocol.TableState` and sends intents. State
    only: the controller (:class:`~.controller.TenLeaveWidget`) fills these traitlets."""

    _esm = STATIC / "widget.js"
    _css = STATIC / "widget.css"

    view = traitlets.Dict().tag(sync=True)
    mode = traitlets.Unicode("play").tag(sync=True)
    perspective = traitlets.Int(None, allow_none=True).tag(sync=True)
    offers = traitlets.Dict().tag(sync=True)
    pending = traitlets.List(traitlets.Unicode()).tag(sync=True)
    message = traitlets.Dict({"id": 0, "level": "", "text": ""}).tag(sync=True)
    narration = traitlets.Dict({"turns": list[Any]()}).tag(sync=True)
    replay = traitlets.Dict({"turn": 0, "total": 0, "note": "", "note_turn": None}).tag(sync=True)
    cover = traitlets.Dict({"shown": False, "seat": None, "text": ""}).tag(sync=True)
    busy = traitlets.Bool(False).tag(sync=True)
    show_odds = traitlets.Bool(True).tag(sync=True)
    status = traitlets.Unicode("").tag(sync=True)
    panels = traitlets.Dict().tag(sync=True)
    size = traitlets.Unicode("medium").tag(sync=True)
    best = traitlets.Dict(None, allow_none=True).tag(sync=True)

    def __init__(self, **kwargs: Any) -> None:
        if not (STATIC / "widget.js").exists():
            raise RuntimeError(
                "the widget's front end is not built: run `pip install -e .` "
                "(or `npm install && npm run build`) in the repository"
            )
        super().__init__(**kwargs)

    def show(self, state: TableState) -> None:
        """Sync ``state`` to the browser, in one message (unchanged keys are not sent)."""
        with self.hold_sync():
            for name, value in state.items():
                setattr(self, name, value)
