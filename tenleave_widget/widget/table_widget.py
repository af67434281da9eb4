"""The card table as an anywidget: synced traitlets only, no logic.

Its traitlets are the keys of :class:`~.protocol.TableState` (a test checks it), filled by
:meth:`TableWidget.show`; the front end (``js/``, bundled into ``static/``) draws them and
sends intents back as custom messages.
"""

from __future__ import annotations

import sys
from typing import Any

import anywidget
import ipywidgets
import traitlets

from ..table.protocol import TableState
from .owned import KernelOwned
from .plotly_runtime import STATIC, PlotlyRuntime, plotly_runtime
from .plotly_runtime import in_marimo as _in_marimo

__all__ = ["JSNULL", "STATIC", "TableWidget", "to_wire"]

JSNULL: Any = None
"""What a ``None`` of the table state is sent as. Under Pyodide, ``pyodide.ffi.jsnull``:
its kernel turns a Python ``None`` into JavaScript's ``undefined``, so a dict key whose
value is ``None`` would vanish on the way and the bundle would read ``undefined`` where
the contract says ``null``; sent as ``jsnull`` it arrives as ``null``, as from any other
kernel. Elsewhere ``None`` itself (JSON's ``null``): nothing is changed."""
if sys.platform == "emscripten":  # pragma: no cover - Pyodide only (tests/browser/test_lite.py)
    import pyodide.ffi

    JSNULL = pyodide.ffi.jsnull


def to_wire(value: Any, null: Any) -> Any:
    """``value`` with every ``None`` in it, at any depth, replaced by ``null``.

    Args:
        value: a JSON-ready value.
        null: what stands for ``None``.

    Returns:
        The value, ``None`` replaced.

    Example:
        >>> to_wire({"a": None, "b": [1, None, {"c": None}], "d": "x"}, "NULL")
        {'a': 'NULL', 'b': [1, 'NULL', {'c': 'NULL'}], 'd': 'x'}
    """
    if value is None:
        return null
    if isinstance(value, dict):
        return {k: to_wire(v, null) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [to_wire(v, null) for v in value]
    return value


def _to_json(value: Any, _widget: Any) -> Any:
    """The synced traitlets' serializer: ``None`` sent as :data:`JSNULL`."""
    return value if JSNULL is None else to_wire(value, JSNULL)


def _synced(trait: Any) -> Any:
    """``trait`` synced to the browser through :func:`_to_json`."""
    return trait.tag(sync=True, to_json=_to_json)


class TableWidget(KernelOwned, anywidget.AnyWidget):
    """The card table: draws a :class:`~.protocol.TableState` and sends intents. State
    only: the controller (:class:`~.controller.TenLeaveWidget`) fills these traitlets; a
    front end's update of one is refused (:class:`~.owned.KernelOwned`).

    Args:
        **kwargs: initial trait values, as anywidget takes them.

    Raises:
        RuntimeError: the front end's bundle is not built (``pip install -e .`` builds it).
    """

    # the table without plotly.js (39 KB): the kernel's one PlotlyRuntime brings plotly.js
    # and the table's stylesheet, saved once per notebook however many tables it holds
    # (plotly_runtime.py); the table's own _css is empty but in marimo (below)
    _esm = STATIC / "table-widget.js"
    _css = ""
    _plotly = traitlets.Instance(PlotlyRuntime, allow_none=True).tag(
        sync=True, **ipywidgets.widget_serialization
    )

    view = _synced(traitlets.Dict())
    mode = _synced(traitlets.Unicode("play"))
    perspective = _synced(traitlets.Int(None, allow_none=True))
    offers = _synced(traitlets.Dict())
    pending = _synced(traitlets.List(traitlets.Unicode()))
    message = _synced(traitlets.Dict({"id": 0, "level": "", "text": ""}))
    narration = _synced(traitlets.Dict({"turns": list[Any]()}))
    replay = _synced(traitlets.Dict({"turn": 0, "total": 0, "note": "", "note_turn": None}))
    cover = _synced(traitlets.Dict({"shown": False, "seat": None, "text": ""}))
    busy = _synced(traitlets.Bool(False))
    show_odds = _synced(traitlets.Bool(True))
    status = _synced(traitlets.Unicode(""))
    panels = _synced(traitlets.Dict())
    size = _synced(traitlets.Unicode("medium"))
    best = _synced(traitlets.Dict(None, allow_none=True))
    coach = _synced(traitlets.Dict())
    lesson = _synced(traitlets.Dict(None, allow_none=True))

    def __init__(self, **kwargs: Any) -> None:
        if not (STATIC / "table-widget.js").exists():
            raise RuntimeError(
                "the widget's front end is not built: run `pip install -e .` "
                "(or `npm install && npm run build`) in the repository"
            )
        if _in_marimo():
            # marimo saves a notebook as code (no widget state to keep small) and creates
            # no referenced model: the table brings its own plotly.js (static/widget.js)
            kwargs.setdefault("_esm", (STATIC / "widget.js").read_text())
            kwargs.setdefault("_css", (STATIC / "widget.css").read_text())
        else:
            kwargs.setdefault("_plotly", plotly_runtime())
        super().__init__(**kwargs)

    def show(self, state: TableState) -> None:
        """Sync ``state`` to the browser, in one message (unchanged keys are not sent).

        Args:
            state: the table's state (:class:`~.protocol.TableState`).
        """
        with self.hold_sync():
            for name, value in state.items():
                setattr(self, name, value)
