"""The widget in Jupyter Notebook 7 (`jupyter notebook`), driven through Debian's Chromium.

The project's own examples/play.ipynb, run from the top as a student would: the table and
the odds panels appear, a turn played by clicking is applied by Python, the bots answer,
and the table and the panels (their drawn SVG, not only their data) follow.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from .conftest import artifact
from .driver import Kernel, wait_idle
from .harness import FIRST_WORDS, PLAY_FIGURES, LabServer, lab_server, wait_play_plots
from .hosts import EXAMPLES, open_and_run_notebook7
from .test_browser import TABLE_JS, table_of

# Notebook 7 logs this one harmless error on load (shared/notes/jupyter-browser-testing.md).
KNOWN_PAGE_ERROR = "reading 'schema'"

PANELS_JS = """() => {
    const panels = document.querySelector('.jp-OutputArea-output .tl-panels');
    // the panels' extent: the union of their sections (beside the table, then under it,
    // the panels' own box takes no room of its own there)
    const boxes = [...panels.querySelectorAll('.tl-panel')].map(p => p.getBoundingClientRect());
    const box = boxes.length === 0 ? {width: 0, height: 0} : {
        width: Math.max(...boxes.map(b => b.right)) - Math.min(...boxes.map(b => b.left)),
        height: Math.max(...boxes.map(b => b.bottom)) - Math.min(...boxes.map(b => b.top))};
    const plots = [...panels.querySelectorAll('.js-plotly-plot')];
    const bars = [...panels.querySelectorAll(
        '.js-plotly-plot .barlayer .point path, .js-plotly-plot .scatterlayer .js-line')]
        .filter(p => { const r = p.getBoundingClientRect(); return r.width > 0 || r.height > 0; });
    return {
        data: JSON.stringify(plots.map(p => p.data)), plots: plots.length,
        words: panels.querySelectorAll('.tl-plot-words:not([hidden])').length,
        title: panels.querySelector('.tl-panels-title')?.textContent ?? '',
        width: box.width, height: box.height, drawnBars: bars.length,
    };
}"""


@pytest.fixture(scope="module")
def notebook7(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LabServer]:
    with lab_server(
        tmp_path_factory.mktemp("nb7"), [EXAMPLES / "play.ipynb"], app="notebook"
    ) as server:
        yield server


def test_play_a_turn_in_notebook7(page: Any, notebook7: LabServer) -> None:
    root = open_and_run_notebook7(page, notebook7, "play.ipynb")
    kernel = Kernel(notebook7, "play.ipynb")
    try:
        wait_idle(page, root, 0)
        assert root.evaluate(TABLE_JS) == table_of(kernel.eval("w.table.view"))
        page.wait_for_function(
            "() => (document.querySelector('.jp-OutputArea-output .tl-panels-title')"
            "?.textContent || '').includes('after 0 turns')",
            timeout=20_000,
        )
        wait_play_plots(page, ".jp-OutputArea-output")
        before = page.evaluate(PANELS_JS)
        # no card on the table, no turn played: those panels show their words
        assert before["plots"] == len(PLAY_FIGURES) - len(FIRST_WORDS)
        assert before["words"] == len(FIRST_WORDS)
        assert before["width"] > 250 and before["height"] > 300, before
        assert before["drawnBars"] > 0, "the odds panels are blank in Notebook 7"

        offers = kernel.eval("w.table.offers")
        card, queue = offers["play_cards"][0], offers["play_queues"][-1]
        page.click(f"[data-testid='hand-card-{card}']")
        page.click(f"[data-testid='play-{queue}']")
        page.wait_for_function("() => document.querySelector('.tl-root').dataset.pending === '1'")
        page.click("[data-testid='end']")
        wait_idle(page, root, 3)  # both bots answered

        game = kernel.eval("w.game.to_record()")
        assert [t["seat"] for t in game["turns"]] == [0, 1, 2]
        assert game["turns"][0]["play"] == [card, queue]
        assert root.evaluate(TABLE_JS) == table_of(kernel.eval("w.table.view"))
        assert page.locator("[data-testid=last-event]").count() >= 3
        page.wait_for_function(
            "() => (document.querySelector('.jp-OutputArea-output .tl-panels-title')"
            "?.textContent || '').includes('after 3 turns')",
            timeout=20_000,
        )
        after = page.evaluate(PANELS_JS)
        assert after["data"] != before["data"]
        assert after["drawnBars"] > 0
        # the timeline (a Plotly chart) now has a point per turn (0 to 3) for every seat
        assert page.evaluate(
            "() => document.querySelector('.jp-OutputArea-output .tl-panel-timeline"
            " .js-plotly-plot').data.filter(t => t.mode === 'lines+markers'"
            " && t.x.length === 4).length"
        ) == 3
        assert after["plots"] == len(PLAY_FIGURES) and after["words"] == 0
        page.screenshot(path=str(artifact("notebook7-play.png")), full_page=True)
        assert [e for e in page.errors if KNOWN_PAGE_ERROR not in e] == []
    finally:
        kernel.close()
