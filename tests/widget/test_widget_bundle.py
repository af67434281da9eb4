"""The front-end bundle: built by the package build, small, self-contained (no CDN)."""

from __future__ import annotations

import importlib
import re
import sys
from pathlib import Path

import pytest

import tenleave_widget
from tenleave_widget.widget.plotly_runtime import PlotlyRuntime, plotly_runtime
from tenleave_widget.widget.table_widget import STATIC, TableWidget

JS = STATIC / "widget.js"  # the table and plotly.js in one ESM (marimo, static pages)
TABLE = STATIC / "table-widget.js"  # the table's own ESM: no plotly.js in it
RUNTIME = STATIC / "plotly-runtime.js"  # plotly.js, once per notebook
CSS = STATIC / "widget.css"


def test_the_bundle_is_built_and_small() -> None:
    assert JS.exists() and CSS.exists(), "run `pip install -e .` (or `npm run build`)"
    assert JS.stat().st_size < 1_400 * 1024  # plotly.js-basic-dist-min (1.19 MB) and ours
    # what every table saves in a notebook: the table alone; plotly.js is the runtime's
    assert TABLE.stat().st_size < 80 * 1024
    assert RUNTIME.stat().st_size < 1_300 * 1024
    table, runtime = TABLE.read_text(), RUNTIME.read_text()
    assert "plotly_afterplot" in runtime and "plotly_afterplot" not in table  # plotly.js's own
    assert "__tenleave_plotly__" in table and "__tenleave_plotly__" in runtime


@pytest.mark.parametrize("bundle", [JS, TABLE, RUNTIME], ids=lambda p: p.name)
def test_the_bundle_asks_the_browser_to_compile_it_as_it_loads(bundle: Path) -> None:
    # V8's compile hint (package.json's esbuild banner): the first line of the file, else
    # ignored. Every function is compiled while the file loads, so a table's first charts
    # do not wait for plotly.js's code to be compiled function by function as it is run
    # (bench_widget.py's first draw)
    assert bundle.read_text().split("\n", 1)[0] == "//# allFunctionsCalledOnLoad"


@pytest.mark.parametrize("bundle", [JS, TABLE, RUNTIME], ids=lambda p: p.name)
def test_the_bundle_is_an_esm_module_that_loads_nothing_from_the_network(bundle: Path) -> None:
    js = bundle.read_text()
    assert re.search(r"export\s*\{", js), "esbuild must output --format=esm"
    assert not re.search(r"""(import\s*\(|from\s*)["'](https?:)?//""", js)
    # XML namespaces are names, not addresses; plotly.js also names a few pages that
    # nothing here opens: its logo's link and "edit in chart studio" (the modebar shows
    # only the PNG download, displaylogo false), the geo maps' topojson folder (no geo
    # trace in the basic bundle), docs and licence links in messages and comments. The
    # pages drawn are checked to make no request at all (tests/browser/test_export_page.py,
    # test_marimo.py); any other URL fails here.
    known = ("http://www.w3.org/", "https://plotly.com/", "https://cloud.plotly.com/newchart",
             "https://cdn.plot.ly/un/", "https://github.com/", "http://syntheti.cc",
             "http://getify.mit-license.org")
    urls = set(re.findall(r"https?://[^\s\"'`)]*", js))
    assert not {u for u in urls if not u.startswith(known)}
    assert "@import" not in CSS.read_text() and "url(http" not in CSS.read_text()


def test_the_widget_ships_the_built_files() -> None:
    w = TableWidget()
    assert w._esm == TABLE.read_text()
    assert w._css == ""  # the stylesheet is the one runtime's, saved once per notebook
    assert plotly_runtime()._esm == RUNTIME.read_text()
    assert plotly_runtime()._css == CSS.read_text()
    # the bundle is where the wheel's build puts it (pyproject's artifacts)
    package = Path(tenleave_widget.__file__).parent
    assert STATIC == package / "static"
    pyproject = (package.parent / "pyproject.toml").read_text()
    artifacts = re.findall(r"^artifacts = (.*)$", pyproject, re.M)[0]
    for built in (JS, TABLE, RUNTIME, CSS):
        assert f'"{built.relative_to(package.parent).as_posix()}"' in artifacts


def test_every_table_references_the_one_plotly_runtime() -> None:
    """plotly.js is saved once per notebook: the tables share one runtime model, which
    each one's state names (the front end creates it first) and nothing else copies."""
    a, b = TableWidget(), TableWidget()
    assert isinstance(a._plotly, PlotlyRuntime) and a._plotly is b._plotly is plotly_runtime()
    state = a.get_state()
    assert state["_plotly"] == f"IPY_MODEL_{plotly_runtime().model_id}"
    assert len(str(state)) < 200 * 1024  # the table's state, its ESM included: no plotly.js
    plotly_runtime().close()  # a closed runtime (Widget.close_all) is replaced
    assert TableWidget()._plotly is plotly_runtime() and plotly_runtime().comm is not None


class _Shell:
    """IPython's shell as ``get_ipython()`` returns it: with a kernel, or without one."""

    def __init__(self, kernel: object) -> None:
        self.kernel = kernel


@pytest.mark.parametrize("kernel, marimo, made", [
    (object(), False, True),  # a Jupyter kernel: the page is to load plotly.js now
    (None, False, False),  # IPython in a terminal: no page
    (object(), True, False),  # marimo: the table brings its own plotly.js
])
def test_in_a_kernel_plotly_js_is_sent_before_any_table(
    monkeypatch: pytest.MonkeyPatch, kernel: object, marimo: bool, made: bool,
) -> None:
    """The runtime's model (plotly.js) is made when the widget package is imported in a
    Jupyter kernel, before any table: the page loads plotly.js while Python goes on."""
    from types import SimpleNamespace

    from tenleave_widget.widget import plotly_runtime as runtime

    monkeypatch.setitem(sys.modules, "IPython",
                        SimpleNamespace(get_ipython=lambda: _Shell(kernel)))
    monkeypatch.setitem(sys.modules, "marimo",
                        SimpleNamespace(running_in_notebook=lambda: marimo))
    monkeypatch.setattr(runtime, "_RUNTIME", [])
    monkeypatch.setattr(tenleave_widget, "widget", tenleave_widget.widget)
    monkeypatch.delitem(sys.modules, "tenleave_widget.widget")
    importlib.import_module("tenleave_widget.widget")
    assert bool(runtime._RUNTIME) is made
    if made:
        assert runtime._RUNTIME[0] is plotly_runtime() and plotly_runtime().comm is not None


def test_in_marimo_a_table_brings_its_own_plotly_and_stylesheet(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """marimo creates no referenced model, so there the table's ESM is the whole bundle
    and its CSS the stylesheet; elsewhere both come once, with the kernel's runtime."""
    from tenleave_widget.widget import table_widget

    monkeypatch.setattr(table_widget, "_in_marimo", lambda: True)
    w = TableWidget()
    assert w._esm == JS.read_text() and w._css == CSS.read_text()
    assert w._plotly is None
