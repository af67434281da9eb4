"""A 900 px wide window in JupyterLab (its file browser open, as it starts): nothing of the
widget reaches more than 3 px past the notebook's output area, and the output area does not
scroll sideways — for the example play table (its odds panels drawn) and a replay of the
4-seat sample in a seat's view."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import nbformat

from .conftest import artifact
from .driver import open_and_run
from .harness import LabServer
from .notebooks import _notebook

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

# How far the widget's elements reach past the right edge of its output area (px), the
# farthest few, and how far the output area scrolls sideways.
PAST_THE_OUTPUT = """() => {
    const root = document.querySelector('.jp-OutputArea-output .tl-root');
    const out = root.closest('.jp-OutputArea-output');
    const edge = out.getBoundingClientRect().right;
    let most = 0; const far = [];
    for (const el of [root, ...root.querySelectorAll('*')]) {
        const b = el.getBoundingClientRect();
        if (b.width === 0 || b.height === 0) continue;
        if (b.right - edge > 3) far.push(`${el.tagName.toLowerCase()}.${el.getAttribute('class')}`
                                         + ` +${Math.round(b.right - edge)}`);
        most = Math.max(most, b.right - edge);
    }
    const area = out.closest('.jp-OutputArea') ?? out;
    return {most: Math.round(most), far: far.slice(0, 6),
            scrolls: area.scrollWidth - area.clientWidth};
}"""


@contextmanager
def window(browser: Any, width: int, height: int = 720) -> Iterator[Any]:
    """A page in a fresh browser context of `width` x `height` px (closed after)."""
    context = browser.new_context(viewport={"width": width, "height": height})
    try:
        yield context.new_page()
    finally:
        context.close()


def play_and_replay(lab: LabServer, prefix: str, seats: int, seat: int, turn: int
                    ) -> tuple[str, str]:
    """Two notebooks in the lab's folder: the example play table, and a replay of the
    `seats`-seat sample game in `seat`'s view after `turn` turns; their names."""
    shutil.copy(EXAMPLES / "play.ipynb", lab.root / f"{prefix}-play.ipynb")
    shutil.copy(EXAMPLES / "games" / f"game-{seats}-seats.json", lab.root / f"{prefix}.json")
    nbformat.write(_notebook([
        "import tenleave_widget.widget as tw",
        f"rp = tw.replay('{prefix}.json', seat={seat}, turn={turn})\nrp"]),
        lab.root / f"{prefix}-replay.ipynb")
    return f"{prefix}-play.ipynb", f"{prefix}-replay.ipynb"


def test_at_900px_the_widget_stays_inside_its_output_area(browser: Any, lab: LabServer
                                                          ) -> None:
    with window(browser, 900) as page:
        for name in play_and_replay(lab, "narrow", 4, 2, 30):
            open_and_run(page, lab, name)
            page.wait_for_function(
                "() => { const r = document.querySelector('.jp-OutputArea-output .tl-root');"
                " return r && r.dataset.busy === '0'"
                " && r.querySelector('.tl-panels .tl-panel .js-plotly-plot') !== null; }",
                timeout=120_000)
            page.wait_for_selector(".jp-OutputArea-output .tl-panels[data-revision]",
                                   state="attached", timeout=120_000)
            found = page.evaluate(PAST_THE_OUTPUT)
            page.screenshot(path=str(artifact(f"{name.removesuffix('.ipynb')}-900.png")))
            assert found["most"] <= 3 and found["far"] == [], (name, found)
            assert found["scrolls"] <= 3, (name, found)
