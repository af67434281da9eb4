"""Make the README's pictures of the widget: ``docs/images/widget-light.png`` (the table)
and ``docs/images/panels.png`` (the Plotly panels).

Runs a real JupyterLab (light theme) and Debian's Chromium through the browser-test harness
in ``tests/browser/`` and replays ``examples/games/game-4-seats.json`` from the view of the
seat to move at turn ``TURN``, so every panel, the move evaluation included, has bars.

    .venv/bin/python docs/make_screenshots.py
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tenleave_widget.game import Game  # noqa: E402
from tests.browser.driver import TIMEOUT, open_and_run, wait_idle  # noqa: E402
from tests.browser.harness import CHROMIUM, lab_server  # noqa: E402
from tests.browser.notebooks import _notebook  # noqa: E402

GAME = REPO / "examples" / "games" / "game-4-seats.json"
IMAGES = REPO / "docs" / "images"
# After 30 turns of the 4-seat game, seat 2 (Cy) is to move: three queues hold 2, 4 and 4
# cards, six of them face-down and unknown to Cy, one of them (Ben's 4) peeked by Cy, and
# the penalties are no longer all 0, so the timeline has something to show.
TURN = 30
SEAT = 2
NOTEBOOK = "screenshots.ipynb"
CHROMIUM_ARGS = [
    "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
    "--disable-component-update", "--disable-sync",
]

# Every subplot of the figure has a drawn bar (or, for the timeline, a line), and the
# element's data has the move evaluation: Plotly has finished drawing the odds.
PANELS_DRAWN = """() => {
    const el = document.querySelector('.jp-OutputArea-output .js-plotly-plot');
    if (!el || !el.data || !el._fullLayout) return false;
    const sub = el.querySelectorAll('.cartesianlayer .subplot');
    if (sub.length < 4) return false;
    for (const s of sub) {
        const bars = s.querySelectorAll('.bars path');
        const lines = s.querySelectorAll('.scatterlayer .js-line');
        const drawn = [...bars].some(p => (p.getAttribute('d') || '').length > 2)
            || lines.length > 0;
        if (!drawn) return false;
    }
    return true;
}"""


def check_turn() -> None:
    """Stop early if the record no longer gives the picture described above."""
    game = Game.from_record(GAME, turns=TURN)
    if game.to_move != SEAT:
        raise SystemExit(f"seat {game.to_move}, not {SEAT}, is to move at turn {TURN}")
    view = game.view(SEAT)
    cards = [c for q in view["queues"] for c in q]
    unknown = sum(c["value"] is None for c in cards)
    peeked = sum(c["owner"] != SEAT and SEAT in c["peeked_by"] for c in cards)
    if unknown < 2 or peeked < 1:
        raise SystemExit(f"turn {TURN}: {unknown} unknown and {peeked} peeked cards")


def shoot(page: Any, lab: Any) -> None:
    root = open_and_run(page, lab, NOTEBOOK)
    wait_idle(page, root)
    page.wait_for_function(
        f"() => document.querySelector('.tl-root')?.dataset.turns === '{TURN}'",
        timeout=TIMEOUT,
    )
    page.wait_for_function(PANELS_DRAWN, timeout=TIMEOUT)
    if page.evaluate("() => document.body.dataset.jpThemeLight") != "true":
        raise SystemExit("JupyterLab is not in its light theme")
    page.wait_for_timeout(1500)  # Plotly's transitions and the table's reveal settle
    toasts = page.locator(".Toastify__toast")
    if toasts.count():
        raise SystemExit(f"a notification is showing: {toasts.first.inner_text()!r}")
    page.evaluate("() => document.activeElement && document.activeElement.blur()")
    IMAGES.mkdir(parents=True, exist_ok=True)
    root.scroll_into_view_if_needed()
    root.screenshot(path=str(IMAGES / "widget-light.png"), animations="disabled")
    plot = page.locator(".jp-OutputArea-output .js-plotly-plot").first
    plot.scroll_into_view_if_needed()
    page.mouse.move(0, 0)  # no Plotly hover label
    plot.screenshot(path=str(IMAGES / "panels.png"), animations="disabled")


def main() -> None:
    check_turn()
    import nbformat
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory(prefix="tenleave-shots-") as name:
        tmp = Path(name)
        src = tmp / "src"
        src.mkdir()
        nb = src / NOTEBOOK
        cells = [
            "import tenleave_widget.widget as tw",
            f"w = tw.replay_widget('game.json', seat={SEAT}, turn={TURN})\nw",
        ]
        nbformat.write(_notebook(cells), nb)
        game = src / "game.json"
        game.write_text(GAME.read_text())
        with lab_server(tmp, [nb, game]) as lab, sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
            try:
                context = browser.new_context(
                    viewport={"width": 1400, "height": 1000}, device_scale_factor=1
                )
                page = context.new_page()
                errors: list[str] = []
                page.on("pageerror", lambda e: errors.append(str(e)))
                shoot(page, lab)
                if errors:
                    raise SystemExit(f"page errors: {errors}")
            finally:
                browser.close()
    for png in ("widget-light.png", "panels.png"):
        path = IMAGES / png
        print(f"{path.relative_to(REPO)}: {path.stat().st_size // 1024} KB")


if __name__ == "__main__":
    main()
