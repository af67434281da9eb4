"""The JupyterLite site (issue 25): ``make lite``'s static site, served on 127.0.0.1 by a
plain static server, opened in Chromium — JupyterLab and the Python kernel (Pyodide) run in
the browser. ``play.ipynb`` is run from the top (its first cell installs the package from
the site), a turn is played by clicking, the bots answer, the table and the odds panels
follow; then, in the same kernel (a cell typed into the notebook), a replay of a sample game
is stepped with its buttons and the table and panels follow it; no request leaves 127.0.0.1.

The site is built once and kept in ``build/lite-test/<key>/`` (gitignored), the key a hash
of everything the build reads (the build script, the Makefile, the package with its built
bundle, the examples): a later run of the suite reuses it, a change rebuilds it, a clean
clone has none. The build runs ``make lite`` with ``SKIP_JUPYTER_BUILDER=1``: the bundle
under test is the one already built in ``tenleave_widget/static``.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import subprocess
import sys
import time
import urllib.request
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .conftest import artifact
from .driver import wait_idle
from .harness import free_port
from .test_browser import TABLE_JS, table_of
from .test_marimo import PANELS_JS as PANELS_OF_JS
from .test_notebook7 import PANELS_JS

ROOT = Path(__file__).resolve().parents[2]
CACHE = ROOT / "build" / "lite-test"
INPUTS = ["tools/lite", "Makefile", "pyproject.toml", "tenleave_widget", "examples"]
PLUGIN = "@jupyterlite/pyodide-kernel-extension:kernel"
KERNEL_TIMEOUT = 300_000  # Pyodide's start on a loaded 2-core machine (~15 s when quiet)
TIMEOUT = 120_000


def inputs_key() -> str:
    """A hash of every file the site is built from."""
    h = hashlib.sha256()
    for rel in INPUTS:
        top = ROOT / rel
        files = [top] if top.is_file() else sorted(
            f for f in top.rglob("*")
            if f.is_file() and not {"__pycache__", ".ipynb_checkpoints"} & set(f.parts)
        )
        for f in files:
            h.update(f"{f.relative_to(ROOT)}\0".encode())
            h.update(hashlib.sha256(f.read_bytes()).digest())
    return h.hexdigest()[:20]


def built_site() -> Path:
    """The site of the current inputs: built now, or the cached build of the same key."""
    site = CACHE / inputs_key() / "site"
    if not (site / "jupyter-lite.json").exists():
        shutil.rmtree(CACHE, ignore_errors=True)  # an older key's site
        site.parent.mkdir(parents=True)
        subprocess.run(
            ["make", "--no-print-directory", "lite", f"LITE_OUT={site}",
             f"PYTHON={sys.executable}"],
            cwd=ROOT, check=True, timeout=1200, env={**os.environ, "SKIP_JUPYTER_BUILDER": "1"},
        )
    return site


@contextlib.contextmanager
def serve(site: Path) -> Iterator[str]:
    """``site`` served by ``python3 -m http.server`` on 127.0.0.1: its base URL."""
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "http.server", "--bind", "127.0.0.1", "--directory", str(site),
         str(port)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
    )
    url = f"http://127.0.0.1:{port}/"
    try:
        for _ in range(100):
            try:
                urllib.request.urlopen(url + "jupyter-lite.json", timeout=2).close()
                break
            except OSError:
                time.sleep(0.1)
        yield url
    finally:
        server.terminate()
        server.wait(timeout=10)


@pytest.fixture(scope="module")
def lite() -> Iterator[str]:
    """The site's base URL."""
    with serve(built_site()) as url:
        yield url


def open_and_run(page: Any, url: str, notebook: str) -> tuple[Any, float, float]:
    """Open ``notebook`` of the site at ``url``, run all its cells: (the table's root, the
    seconds from the navigation to a ready kernel, and to the table drawn)."""
    start = time.monotonic()
    page.goto(f"{url}lab/index.html?path={notebook}", timeout=TIMEOUT)
    page.wait_for_selector(".jp-Notebook .jp-CodeCell", timeout=TIMEOUT)
    page.wait_for_function(
        "() => (document.querySelector('#jp-main-statusbar')?.textContent || '')"
        ".includes('| Idle')",
        timeout=KERNEL_TIMEOUT,
    )
    ready = time.monotonic() - start
    page.click("#jp-MainMenu >> text=Run")
    page.click('.lm-Menu-item[data-command="runmenu:run-all"]')
    root = page.locator(".jp-OutputArea-output .tl-root").first
    root.wait_for(timeout=TIMEOUT)
    table = time.monotonic() - start
    # the cells after the table's run first (the kernel answers the table's hello after
    # them: until then the table may say "not connected")
    page.wait_for_function(
        "() => (document.querySelector('#jp-main-statusbar')?.textContent || '')"
        ".includes('| Idle') && document.querySelector('.tl-root').dataset.connected === '1'",
        timeout=TIMEOUT,
    )
    return root, ready, table


def run_cell(page: Any, code: str) -> Any:
    """Type ``code`` into a new cell at the end of the open notebook and run it: the cell."""
    cells = page.locator(".jp-Notebook .jp-Cell")
    count = cells.count()
    cells.last.locator(".jp-InputPrompt").click()
    page.keyboard.press("Escape")
    page.keyboard.press("b")
    page.wait_for_function(
        f"() => document.querySelectorAll('.jp-Notebook .jp-Cell').length === {count + 1}")
    cell = cells.nth(count)  # (Shift+Enter adds one more below it)
    editor = cell.locator(".cm-content")
    editor.click()  # its editor focused (a loaded machine makes it late: wait, never type early)
    cell.locator(".cm-editor.cm-focused").wait_for(timeout=TIMEOUT)
    page.keyboard.insert_text(code)
    page.wait_for_function("el => el.textContent.length > 0", arg=editor.element_handle())
    page.keyboard.press("Shift+Enter")
    return cell


REPLAY = """\
import json
from tenleave_widget import Game, replay
GAME = "games/game-2-seats.json"
print("VIEWS", json.dumps([Game.from_record(GAME, turns=t).view(None) for t in range(4)]))
r = replay(GAME, seat=None)
r"""
"""A replay in the same kernel, and the views the engine gives for its first turns."""


def step_a_replay(page: Any) -> None:
    """The replay cell run; its next and previous buttons step the table and its panels
    through the sample game, each position the engine's (``table_of`` its view); then a
    review is started and the table answers a click while it runs."""
    cell = run_cell(page, REPLAY)
    printed = cell.locator(".jp-OutputArea-output", has_text="VIEWS").first
    printed.wait_for(timeout=TIMEOUT)
    views = json.loads(printed.inner_text().split("VIEWS", 1)[1])
    root = cell.locator(".tl-root")
    root.wait_for(timeout=TIMEOUT)
    drawn: list[str] = []

    def at(turn: int) -> None:
        page.wait_for_function(
            f"el => el.dataset.connected === '1' && el.dataset.turns === '{turn}'",
            arg=root.element_handle(), timeout=TIMEOUT,
        )
        assert root.evaluate(TABLE_JS) == table_of(views[turn]), turn
        cell.locator(".tl-panels-title", has_text=f"after {turn} turns").wait_for(
            timeout=TIMEOUT)
        panels = cell.locator(".tl-panels").evaluate(PANELS_OF_JS)
        assert panels["drawnBars"] > 0, f"the replay's panels are blank at turn {turn}"
        drawn.append(panels["data"])

    at(0)
    for turn in (1, 2, 3):
        root.locator("[data-testid=next]").click()
        at(turn)
    root.locator("[data-testid=prev]").click()
    at(2)
    # the panels followed each step (the moves panel's whole-game values may still be
    # filling in, so a position seen twice need not be drawn the same)
    assert all(a != b for a, b in zip(drawn, drawn[1:], strict=False))
    assert "undefined" not in root.inner_text()

    # No threads in Pyodide: the review runs a chunk of worlds per slice of the kernel's
    # loop, so the table answers a click while it works (the button stays disabled until
    # its end; test_lite_review.py measures how soon)
    start = cell.locator(".tl-review-start")
    start.click()
    page.wait_for_function("el => el.disabled", arg=start.element_handle(), timeout=TIMEOUT)
    root.locator("[data-testid=next]").click()
    page.wait_for_function("el => el.dataset.turns === '3'", arg=root.element_handle(),
                           timeout=TIMEOUT)
    assert start.is_disabled(), "the click was answered only once the review had ended"


def test_the_built_config_never_falls_back_to_a_package_index() -> None:
    site = built_site()
    config = json.loads((site / "jupyter-lite.json").read_text())
    kernel = config["jupyter-config-data"]["litePluginSettings"][PLUGIN]
    assert kernel["disablePyPIFallback"] is True
    assert kernel["pyodideUrl"] == "./static/pyodide/pyodide.mjs"
    lock = json.loads((site / "static" / "pyodide" / "pyodide-lock.json").read_text())
    for entry in lock["packages"].values():  # every lock package is in the site, hash right
        wheel = site / "static" / "pyodide" / entry["file_name"]
        assert hashlib.sha256(wheel.read_bytes()).hexdigest() == entry["sha256"]
    assert list((site / "pypi").glob("tenleave_widget-*.whl"))
    for name in ("play", "classroom", "review", "odds"):
        assert (site / "files" / f"{name}.ipynb").exists()


def test_the_site_leaves_out_what_the_browser_never_reads() -> None:
    """The cuts of ``tools/lite/build.py`` (``SLIM``, ``OLD_FONTS``) are in the site: the
    wheels as the kernel installs them, and JupyterLab's build."""
    site = built_site()
    with zipfile.ZipFile(next((site / "pypi").glob("plotly-*.whl"))) as z:
        names = z.namelist()
        assert not [n for n in names if "labextension" in n or ".data/" in n]
        for stub in ("plotly.min.js", "widgetbundle.js"):
            assert z.getinfo(f"plotly/package_data/{stub}").file_size < 1000
            assert b"not in this classroom site" in z.read(f"plotly/package_data/{stub}")
    with zipfile.ZipFile(next((site / "pypi").glob("tenleave_widget-*.whl"))) as z:
        static = {n.rsplit("/", 1)[1] for n in z.namelist() if "/static/" in n}
        assert "widget.js" not in static and {"table-widget.js", "plotly-runtime.js"} <= static
    fonts = {f.suffix for f in (site / "build").glob("fa-*")}
    assert fonts == {".woff", ".woff2"}


def test_play_a_turn_and_step_a_replay_in_the_browser_kernel_offline(
    page: Any, lite: str,
) -> None:
    outside: list[str] = []

    def seen(request: Any) -> None:
        if not request.url.startswith((lite, "data:", "blob:")):
            outside.append(request.url)

    page.context.on("request", seen)
    root, ready, table = open_and_run(page, lite, "play.ipynb")
    print(f"lite: kernel idle {ready:.1f} s, first table {table:.1f} s after navigation")
    wait_idle(page, root, 0)
    page.wait_for_function(
        "() => (document.querySelector('.jp-OutputArea-output .tl-panels-title')"
        "?.textContent || '').includes('after 0 turns')",
        timeout=TIMEOUT,
    )
    before = page.evaluate(PANELS_JS)
    assert before["drawnBars"] > 0, "the odds panels are blank"

    card = root.locator("[data-testid^='hand-card-']").first.get_attribute("data-testid")
    assert card is not None and card.startswith("hand-card-")
    page.click(f"[data-testid='{card}']")
    page.click("[data-testid='play-0']")
    page.wait_for_function("() => document.querySelector('.tl-root').dataset.pending === '1'")
    page.click("[data-testid='end']")
    wait_idle(page, root, 3)  # both bots answered, in the browser's Python
    assert page.locator("[data-testid=last-event]").count() >= 3
    page.wait_for_function(
        "() => (document.querySelector('.jp-OutputArea-output .tl-panels-title')"
        "?.textContent || '').includes('after 3 turns')",
        timeout=TIMEOUT,
    )
    after = page.evaluate(PANELS_JS)
    assert after["data"] != before["data"] and after["drawnBars"] > 0
    # a None of the state arrived as null: no "undefined" drawn, no error in the page
    text = root.inner_text()
    assert "undefined" not in text and "NaN" not in text
    page.screenshot(path=str(artifact("lite-play.png")), full_page=True)
    step_a_replay(page)
    page.screenshot(path=str(artifact("lite-replay.png")), full_page=True)
    assert page.errors == []
    assert outside == [], f"requests left 127.0.0.1: {outside[:5]}"
