"""The widget in marimo: examples/marimo_play.py served by `marimo run` (loopback, a free
port, headless) and played in Debian's Chromium.

The table and the odds panels are wrapped with `mo.ui.anywidget`; a turn played by clicking
reaches Python (the browser holds no rules: the turn count, the narration and the panels
all come back from Python), the bots answer, and the panels are redrawn.

A reviewed replay (a record with its review saved, shown by a small marimo app written
here) draws the review's evaluation graph as a Plotly panel of the table, and a click on
a point moves the table to that decision (the ``goto`` intent, through marimo).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from .conftest import artifact
from .driver import TIMEOUT, wait_idle
from .harness import FIRST_WORDS, PLAY_FIGURES, wait_play_plots
from .hosts import EXAMPLES, MarimoServer, marimo_server
from .notebooks import GAME

# marimo draws each widget in a shadow root: Playwright's locators pierce it,
# document.querySelector does not.
# The panels are Plotly charts (.js-plotly-plot): the bars and lines they drew, and the
# data plotly.js holds (el.data), which follows every move.
PANELS_JS = """(panels) => {
    const plots = [...panels.querySelectorAll('.js-plotly-plot')];
    const bars = [...panels.querySelectorAll(
        '.js-plotly-plot .barlayer .point path, .js-plotly-plot .scatterlayer .js-line')]
        .filter(p => { const r = p.getBoundingClientRect(); return r.width > 0 || r.height > 0; });
    return {
        data: JSON.stringify(plots.map(p => p.data)),
        plots: plots.length,
        words: panels.querySelectorAll('.tl-plot-words:not([hidden])').length,
        title: panels.querySelector('.tl-panels-title')?.textContent ?? '',
        drawnBars: bars.length,
    };
}"""


def wait_title(page: Any, text: str) -> None:
    page.locator(".tl-panels-title", has_text=text).first.wait_for(timeout=20_000)


@pytest.fixture(scope="module")
def marimo(tmp_path_factory: pytest.TempPathFactory) -> Iterator[MarimoServer]:
    with marimo_server(tmp_path_factory.mktemp("marimo"), EXAMPLES / "marimo_play.py") as s:
        yield s


def test_play_a_turn_in_marimo(page: Any, marimo: MarimoServer) -> None:
    outside: list[str] = []
    page.on(
        "request",
        lambda r: None if r.url.startswith(marimo.url) or r.url.startswith("data:")
        else outside.append(r.url),
    )
    console_errors: list[str] = []
    page.on("console", lambda m: console_errors.append(m.text) if m.type == "error" else None)
    page.goto(marimo.url, timeout=TIMEOUT)
    root = page.locator(".tl-root").first
    root.wait_for(timeout=TIMEOUT)
    wait_idle(page, root, 0)
    wait_title(page, "Ana's view, after 0 turns")
    wait_play_plots(page)
    before = page.locator(".tl-panels").first.evaluate(PANELS_JS)
    # no card on the table, no turn played: those panels show their words
    assert before["plots"] == len(PLAY_FIGURES) - len(FIRST_WORDS) and before["drawnBars"] > 0, (
        "the odds panels are blank in marimo")
    assert before["words"] == len(FIRST_WORDS)
    hand = page.locator("[data-testid^='hand-card-']")
    assert hand.count() == 10

    card = (hand.first.get_attribute("data-testid") or "").removeprefix("hand-card-")
    hand.first.click()
    play = page.locator("button[data-testid^='play-']").first
    queue = int((play.get_attribute("data-testid") or "").removeprefix("play-"))
    play.click()
    page.locator(".tl-root[data-pending='1']").wait_for(timeout=20_000)
    page.click("[data-testid='end']")
    wait_idle(page, root, 3)  # Python applied the turn and both bots answered

    events = page.locator("[data-testid=events]").inner_text()
    back = "marked" if card.endswith("*") else "plain"
    assert f"You played a {back} card on queue {queue + 1}." in events
    assert "Ben played" in events and "Cy" in events
    assert page.locator("[data-testid^='hand-card-']").count() == 9
    assert [
        page.locator(f"[data-testid='seat-{s}']").get_attribute("data-hand") for s in range(3)
    ] == ["9", "9", "9"]
    wait_title(page, "Ana's view, after 3 turns")
    after = page.locator(".tl-panels").first.evaluate(PANELS_JS)
    assert after["data"] != before["data"] and after["drawnBars"] > 0
    assert after["plots"] == len(PLAY_FIGURES) and after["words"] == 0  # every panel a chart
    page.screenshot(path=str(artifact("marimo-play.png")), full_page=True)
    assert page.errors == []
    assert console_errors == []
    assert outside == [], "the marimo page loaded something from outside the local server"


REVIEW_APP = """import marimo

app = marimo.App(width="full")


@app.cell
def _():
    import marimo as mo

    from tenleave_widget.widget import replay

    return mo, replay


@app.cell
def _(mo, replay):
    r = replay("reviewed.json", seat=None)  # its review is saved in the record
    mo.ui.anywidget(r.table)  # the review graph is a panel of the table
    return (r,)
"""

GRAPH = ".tl-panel-review .js-plotly-plot"


@pytest.fixture(scope="module")
def marimo_review(tmp_path_factory: pytest.TempPathFactory) -> Iterator[MarimoServer]:
    """`marimo run` of a replay whose record carries its review (computed here, 4 worlds a
    decision: the graph, not the review's precision, is under test)."""
    from tenleave_widget.analysis.review import attach_review, review
    from tenleave_widget.engine.record import load_record

    tmp = tmp_path_factory.mktemp("marimo-review")
    record = load_record(GAME)
    (tmp / "reviewed.json").write_text(json.dumps(attach_review(record, review(record, samples=4))))
    app = tmp / "src" / "marimo_review.py"
    app.parent.mkdir()
    app.write_text(REVIEW_APP)
    with marimo_server(tmp, app) as s:
        yield s


def test_review_graph_in_marimo(page: Any, marimo_review: MarimoServer) -> None:
    page.goto(marimo_review.url, timeout=TIMEOUT)
    root = page.locator(".tl-root").first
    root.wait_for(timeout=TIMEOUT)
    graph = page.locator(GRAPH).first
    graph.wait_for(timeout=TIMEOUT)
    # three seats' lines (then the markers' key), every decision a point, drawn by plotly.js
    page.wait_for_function(
        "(el) => !!el.data && el.data.filter(t => t.meta !== 'key').length === 3"
        " && el.querySelectorAll('.scatterlayer .points path').length >= 30",
        arg=graph.element_handle(), timeout=60_000)
    assert root.get_attribute("data-turns") != "7"
    # Ben's third decision (turn index 7): a click on its point moves the table there
    point = graph.locator(".scatterlayer .trace").nth(1).locator(".points path").nth(2)
    point.click(force=True)
    page.locator(".tl-root[data-turns='7']").wait_for(timeout=30_000)
    page.screenshot(path=str(artifact("marimo-review.png")), full_page=True)
    assert page.errors == []
