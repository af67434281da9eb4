"""Issue 22, "Fits the screen", in the real browser: at 1280x720 in JupyterLab the default
(medium) size shows the queues, the hand, the last event, the scores and the first odds
panel without scrolling, for the example play table (examples/play.ipynb), in the light
and dark themes."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from .conftest import artifact
from .driver import open_and_run
from .harness import LabServer
from .test_browser import choose_theme

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

PARTS = (("queues", ".tl-queues"), ("hand", ".tl-hand"),
         ("last event", ".tl-events .tl-lastevent"), ("scores", "[data-testid=seats]"),
         ("first panel", ".tl-panels .tl-panel"))


VISIBLE_JS = """() => { const r = document.querySelector(
    '.jp-WindowedPanel-outer, .jp-NotebookPanel-notebook').getBoundingClientRect();
    return [r.top, Math.min(r.bottom, window.innerHeight)]; }"""


def boxes(page: Any) -> dict[str, tuple[float, float]]:
    """The five parts' top and bottom (px, in the viewport) once the table is scrolled to
    the top of the notebook's area, as Run All and a click on the table leave it."""
    root = page.locator(".jp-OutputArea-output .tl-root").first
    root.evaluate("el => el.scrollIntoView({block: 'start'})")
    page.wait_for_function("() => document.querySelector('.tl-root').dataset.busy === '0'")
    found = {}
    for name, sel in PARTS:
        box = page.locator(f".tl-root {sel}").first.bounding_box()
        assert box is not None, name
        found[name] = (round(box["y"]), round(box["y"] + box["height"]))
    return found


def live_turn(page: Any) -> None:
    """Wait until the table is live (not a saved copy), Ana is to move and a chart is drawn."""
    page.wait_for_function(
        "() => { const r = document.querySelector('.jp-OutputArea-output .tl-root');"
        " return r && r.dataset.connected !== '0' && r.dataset.toMove === '0'"
        " && r.dataset.busy === '0' && r.querySelector('.tl-hand .tl-handbtn') !== null"
        " && r.querySelector('.tl-panels .tl-panel .js-plotly-plot') !== null; }",
        timeout=60_000)


def check_fits(page: Any, shot: str) -> dict[str, tuple[float, float]]:
    visible = page.evaluate(VISIBLE_JS)
    found = boxes(page)
    size = page.locator(".tl-root [data-testid=size]").input_value()
    page.screenshot(path=str(artifact(shot)))
    print(shot, "visible", visible, found)
    assert size == "medium"
    for name, (top, bottom) in found.items():
        assert visible[0] - 1 <= top and bottom <= visible[1] + 1, (name, top, bottom, visible)
    return found


def test_a_play_table_fits_1280x720_at_the_default_size(browser: Any, lab: LabServer) -> None:
    shutil.copy(EXAMPLES / "play.ipynb", lab.root / "fit-play.ipynb")
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    page = context.new_page()
    try:
        open_and_run(page, lab, "fit-play.ipynb")
        live_turn(page)
        check_fits(page, "fit-play-light-1280x720.png")
        choose_theme(page, "JupyterLab Dark", light=False)  # reloads the page: run it again
        open_and_run(page, lab, "fit-play.ipynb")
        live_turn(page)
        check_fits(page, "fit-play-dark-1280x720.png")
    finally:
        context.close()
