"""Charts and words a student can trust, on plain pages drawn by the bundle (no kernel):
the console stays free of warnings, the whole-game values' error bars are drawn in a colour
that is not black, no two labels of a chart overlap (the timeline's end labels one point
apart, the moves' "… and N more" inside its chart), and a compact swat account does not
make its words wait for the flips of cards it does not show."""

from __future__ import annotations

import copy
import json
import shutil
from pathlib import Path
from typing import Any

import nbformat

from tenleave_widget import Game
from tenleave_widget.table.panels import figures as charts
from tenleave_widget.table.panels.figures import with_figures
from tenleave_widget.table.panels.plain import plain_figures
from tenleave_widget.table.session.config import check_config
from tenleave_widget.table.session.machine import Session

from .conftest import artifact
from .driver import open_and_run
from .harness import LabServer
from .notebooks import _notebook
from .test_browser import choose_theme
from .test_panels_page import _data, show
from .test_static_page import serve

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

# Every pair of a chart's words (titles, ticks, annotations, legend, bar texts) whose boxes
# intersect by more than a pixel each way.
LABELS_OVERLAP = """() => [...document.querySelectorAll('.js-plotly-plot')].flatMap(plot => {
    const boxes = [...plot.querySelectorAll('.annotation-text, .legendtext, .gtitle, .xtitle,'
        + ' .ytitle, .xtick text, .ytick text, .textpoint text, .bartext')]
        .map(t => [t.textContent, t.getBoundingClientRect()]).filter(([, b]) => b.width > 0);
    const out = [];
    for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
        const [ta, a] = boxes[i], [tb, b] = boxes[j];
        if (Math.min(a.right, b.right) - Math.max(a.left, b.left) > 1
            && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 1)
            out.push(`${plot.dataset.figure}: ${ta} / ${tb}`);
    }
    return out;
})"""

# Words of a chart outside its SVG (cut at the chart's edge).
WORDS_CUT = """() => [...document.querySelectorAll('.js-plotly-plot')].flatMap(plot => {
    const s = plot.querySelector('svg.main-svg').getBoundingClientRect();
    return [...plot.querySelectorAll('.annotation-text')].filter(t => {
        const b = t.getBoundingClientRect();
        return b.left < s.left - 0.5 || b.right > s.right + 0.5;
    }).map(t => `${plot.dataset.figure}: ${t.textContent}`);
})"""

# The moves chart's "… and N more." under its plot: how far its top is below the bottom of
# the axis title above it (px; the words at rest, clear of the title, are more than 0 px
# below it).
NOTE_BELOW_TITLE = """() => {
    const plot = document.querySelector('.tl-panel-moves .js-plotly-plot');
    const note = [...plot.querySelectorAll('.annotation-text')]
        .find(t => t.textContent.includes('more'));
    const title = plot.querySelector('.xtitle');
    return note.getBoundingClientRect().top - title.getBoundingClientRect().bottom;
}"""


def details_data() -> dict[str, Any]:
    """The panels with Details on: the moves by their whole-game value (nine moves, so
    "… and N more" is drawn) and a timeline whose seats end one point apart."""
    data = copy.deepcopy(_data())
    moves = data["moves"]
    row = moves["moves"][0]
    moves["moves"] = [{**row, "label": f"{v} on queue {q + 1}", "best": i == 0,
                       "margin": i - 2.0, "margin_ci95": [i - 2.6, i - 1.3],
                       "final": 5.0 + i, "final_ci95": [4.0 + i, 6.0 + i],
                       "worse": float(i),  # points behind the best, its paired interval
                       "worse_ci95": [0.0, 0.0] if i == 0 else [i - 0.6, i + 0.7]}
                      for i, (v, q) in enumerate((v, q) for v in (1, 2, 3) for q in range(3))]
    moves["measure"], moves["worlds"], moves["target"] = "game", 192, 1024
    moves["done"], moves["star"] = True, True
    data["timeline"] = {"turns": [0, 1, 2, 3], "penalty": [[0, 4, 9, 13], [0, 5, 9, 14],
                                                            [0, 0, 2, 2]],
                        "expected": [], "viewer": None}
    data["figures"]["moves"] = charts.moves_figure(moves, data["players"])
    data["figures"]["timeline"] = charts.timeline_figure(data["timeline"], data["players"],
                                                         data["colours"])
    data["details"] = True
    return data


def plain_data() -> dict[str, Any]:
    """The same panels in plain words (Details off), the moves by one swat: "… and N
    more." under the plot, above the axis title "points from the next swat"."""
    data = details_data()
    data["details"] = False
    data["moves"]["measure"], data["moves"]["target"] = "swat", 0
    data["figures"] = plain_figures(with_figures(data))
    return data


def test_details_charts_draw_without_warnings_black_bars_or_overlaps(page: Any) -> None:
    said: list[str] = []
    page.on("console", lambda m: said.append(f"{m.type}: {m.text}")
            if m.type in ("warning", "error", "trace") or "WARN" in m.text else None)
    # the large and projector sizes' fonts too: "… and N more" below the plot, its offset
    # scaled with them, stays clear of the axis title
    for width, dark, scale in ((900, False, 1.0), (900, True, 1.0), (380, True, 1.0),
                               (900, False, 1.25), (1280, True, 1.3), (640, False, 1.25)):
        where = f"{width} px, {'dark' if dark else 'light'}, font x{scale}"
        if scale != 1.0:  # the plain figures too (a large table's default)
            show(page, plain_data(), width, dark, scale)
            assert page.evaluate(LABELS_OVERLAP) == [], f"{where}, plain"
            assert page.evaluate(NOTE_BELOW_TITLE) > 0, f"{where}, plain"
        show(page, details_data(), width, dark, scale)
        bars = page.evaluate("() => [...document.querySelectorAll('.tl-panel-moves .errorbar"
                             " path')].map(p => getComputedStyle(p).stroke)")
        assert bars and all(b not in ("rgb(0, 0, 0)", "none") for b in bars), (where, bars)
        assert page.evaluate(LABELS_OVERLAP) == [], where
        assert page.evaluate(WORDS_CUT) == [], where
        page.screenshot(path=str(artifact(
            f"details-{width}-{'dark' if dark else 'light'}-x{scale}.png")), full_page=True)
    assert said == []  # plotly.js: "Invalid color specifier: Array(9)" for the bars
    assert page.errors == []


def test_a_compact_swat_account_waits_for_no_hidden_card(page: Any) -> None:
    # the 3-seat sample game, after turn 14 (every queue full: a swat on three queues),
    # a replay at medium size, where the swat's cards are not shown
    game = Game.from_record(str(EXAMPLES / "games" / "game-3-seats.json"))
    session = Session(game, check_config(game, mode="replay", perspective=None, turn=14))
    session.size = "medium"
    serve(page, dict(session.state()))
    page.locator("#table .tl-root [data-testid=swat]").first.wait_for()
    delays = page.evaluate("() => [...document.querySelectorAll('.tl-swat .tl-swatrow')]"
                           ".map(r => [getComputedStyle(r.querySelector('.tl-card') ?? r).display,"
                           " getComputedStyle(r.querySelector('.tl-explain')).animationDelay])")
    assert len(delays) >= 2, delays
    for row, (card, delay) in enumerate(delays):
        assert card in ("none", "block"), delays  # no card on show
        assert float(delay.removesuffix("s")) <= 0.35 * row + 1e-6, delays
    assert page.errors == []


# Every element of the table (its panels aside: at projector size they are below it, by
# design; what a scrolling box holds: the box is checked) that reaches past the bottom or
# the right of the window, once the table is scrolled to the top of the notebook's area.
PAST_THE_SCREEN = """() => {
    const root = document.querySelector('.jp-OutputArea-output .tl-root');
    root.scrollIntoView({block: 'start'});
    const side = root.querySelector('.tl-side'), out = [];
    for (const el of root.querySelectorAll('*')) {
        if (side && (side.contains(el) || el.contains(side))) continue;
        // inside a box that scrolls: that box is checked, not what it scrolls
        let up = el.parentElement, clipped = false;
        while (up && up !== root && !clipped) {
            clipped = ['auto', 'scroll', 'hidden'].includes(getComputedStyle(up).overflowY);
            up = up.parentElement;
        }
        if (clipped) continue;
        const b = el.getBoundingClientRect();
        if (b.width === 0 || b.height === 0) continue;
        if (b.bottom > window.innerHeight + 1 || b.right > window.innerWidth + 1)
            out.push(`${el.tagName.toLowerCase()}.${el.className} ${Math.round(b.right)}`
                     + `x${Math.round(b.bottom)}`);
    }
    return out.slice(0, 8);
}"""


def longest_note() -> tuple[int, int]:
    """The sample game (its seats) and the turn (after it) of the longest teacher's note."""
    found = []
    for n in (2, 3, 4, 5):
        record = json.loads((EXAMPLES / "games" / f"game-{n}-seats.json").read_text())
        found += [(len(text), n, int(k) + 1) for k, text in record.get("notes", {}).items()]
    _, n, turn = max(found)
    return n, turn


def test_at_projector_size_the_longest_note_fits_1280x720(browser: Any, lab: LabServer
                                                           ) -> None:
    """The longest teacher's note of the sample games, in the teacher's view at projector
    size, light and dark: nothing of the table reaches past 1280x720 (the note scrolls in
    its box beside the board), and the console has no warning."""
    n, turn = longest_note()
    shutil.copy(EXAMPLES / "games" / f"game-{n}-seats.json", lab.root / "longest-note.json")
    nbformat.write(_notebook([
        "import tenleave_widget.widget as tw",
        f"ln = tw.replay('longest-note.json', seat=None, turn={turn}, size='projector')"
        "\nln"]), lab.root / "longest-note.ipynb")
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    page = context.new_page()
    said: list[str] = []
    page.on("console", lambda m: said.append(f"{m.type}: {m.text}")
            if m.type in ("warning", "error") or "WARN" in m.text else None)
    page.on("pageerror", lambda e: said.append(f"pageerror: {e}"))
    try:
        for theme in ("light", "dark"):
            if theme == "dark":
                choose_theme(page, "JupyterLab Dark", light=False)
            open_and_run(page, lab, "longest-note.ipynb")
            page.wait_for_function(
                "(t) => { const r = document.querySelector('.jp-OutputArea-output .tl-root');"
                " return r && r.dataset.busy === '0' && r.dataset.turns === t"
                " && r.classList.contains('tl-size-projector')"
                " && r.querySelector('[data-testid=note]') !== null; }",
                arg=str(turn), timeout=60_000)
            page.wait_for_timeout(1500)  # the swat's reveal
            assert page.evaluate(PAST_THE_SCREEN) == [], theme
            note = page.locator(".tl-root [data-testid=note]")
            assert note.evaluate("el => el.scrollHeight > el.clientHeight")  # it scrolls
            page.screenshot(path=str(artifact(f"longest-note-projector-{theme}.png")))
        # JupyterLab's own start-up may warn; the table's page, from the first run on, not
        assert [s for s in said if "tenleave" in s or "WARN" in s or "Invalid" in s] == []
    finally:
        choose_theme(page, "JupyterLab Light", light=True)
        context.close()
