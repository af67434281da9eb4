"""plotly.js once per kernel: a tiny anywidget that every table references.

anywidget saves each widget's ``_esm`` in the notebook's widget state, so a plotly.js
bundled into the table's own ESM would be saved once *per table* (2.66 MB for
``play.ipynb`` after two runs, ~5.2 MB for ``classroom.ipynb``'s four tables). Instead the
table's ESM is small (``static/table-widget.js``) and plotly.js (the 1.2 MB partial bundle
``plotly.js-basic-dist-min``) is the ESM of :class:`PlotlyRuntime`, of which a kernel
holds one (:func:`plotly_runtime`). Each table references it through a trait with
``widget_serialization``, so the front end creates the runtime's model (whose ESM
publishes Plotly when it loads) with or before the table, and a saved notebook stores
it once, however many tables it holds. In a running Jupyter kernel the runtime is made
as soon as :mod:`tenleave_widget.widget` is imported (:func:`preload`), before the rest of
the Jupyter half, so the page loads plotly.js while Python imports and builds the first
table. The table's stylesheet (``static/widget.css``,
25 KB) travels the same way: it is the runtime's ``_css``, which anywidget puts in the
page's head when the model is created, for every table of the page (in marimo, which
creates no referenced model, each table carries its own).

>>> plotly_runtime() is plotly_runtime()
True
>>> "table-widget" not in plotly_runtime()._esm and len(plotly_runtime()._esm) > 1_000_000
True
"""

from __future__ import annotations

import sys
from pathlib import Path

import anywidget

from .owned import KernelOwned

__all__ = ["STATIC", "PlotlyRuntime", "in_marimo", "plotly_runtime", "preload"]

STATIC = Path(__file__).resolve().parents[1] / "static"
"""The built front end (``js/``, bundled by esbuild at install)."""


class PlotlyRuntime(KernelOwned, anywidget.AnyWidget):
    """The model whose ESM brings plotly.js to the page (``js/plotly-runtime.ts``): loading
    it publishes Plotly for every table's panels, and its CSS is the tables' stylesheet.
    It shows nothing."""

    _esm = STATIC / "plotly-runtime.js"
    _css = STATIC / "widget.css"


_RUNTIME: list[PlotlyRuntime] = []


def plotly_runtime() -> PlotlyRuntime:
    """The kernel's one :class:`PlotlyRuntime` (a new one if it was closed, e.g. by
    ``ipywidgets.Widget.close_all()``)."""
    if not _RUNTIME or _RUNTIME[0].comm is None:
        _RUNTIME[:] = [PlotlyRuntime()]
    return _RUNTIME[0]


def preload() -> bool:
    """Make the kernel's :class:`PlotlyRuntime` now if this runs in a Jupyter kernel (not
    marimo, which makes none, nor plain Python, where no page would load it), so that the
    page starts loading plotly.js (1.2 MB, 0.2-1 s of the browser's time) before the first
    table is made and shown: its charts then need not wait for it.

    Returns:
        Whether the runtime exists now.
    """
    ipython = sys.modules.get("IPython")
    shell = ipython.get_ipython() if ipython is not None else None
    if getattr(shell, "kernel", None) is None:
        return False
    if in_marimo():
        return False
    plotly_runtime()
    return True


def in_marimo() -> bool:
    """Whether this runs in a marimo notebook (never imports marimo itself).

    >>> in_marimo()
    False
    """
    marimo = sys.modules.get("marimo")
    return bool(marimo is not None and marimo.running_in_notebook())
