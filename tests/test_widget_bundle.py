"""The front-end bundle: built by the package build, small, self-contained (no CDN)."""

from __future__ import annotations

import re
from pathlib import Path

import tenleave_widget
from tenleave_widget.widget import STATIC, TableWidget

JS = STATIC / "widget.js"
CSS = STATIC / "widget.css"


def test_the_bundle_is_built_and_small() -> None:
    assert JS.exists() and CSS.exists(), "run `pip install -e .` (or `npm run build`)"
    assert JS.stat().st_size < 1_400 * 1024  # plotly.js-basic-dist-min (1.19 MB) and ours


def test_the_bundle_is_an_esm_module_that_loads_nothing_from_the_network() -> None:
    js = JS.read_text()
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
    assert urls and not {u for u in urls if not u.startswith(known)}
    assert "@import" not in CSS.read_text() and "url(http" not in CSS.read_text()


def test_the_widget_ships_the_built_files() -> None:
    w = TableWidget()
    assert w._esm == JS.read_text()
    assert w._css == CSS.read_text()
    # the bundle is where the wheel's build puts it (pyproject's artifacts)
    package = Path(tenleave_widget.__file__).parent
    assert STATIC == package / "static"
    pyproject = (package.parent / "pyproject.toml").read_text()
    artifacts = re.findall(r"^artifacts = (.*)$", pyproject, re.M)[0]
    for built in (JS, CSS):
        assert f'"{built.relative_to(package.parent).as_posix()}"' in artifacts
