"""Make the README's pictures of the widget, as a user sees it in JupyterLab:
``docs/images/widget-{1280,900}-{light,dark}.png`` (a 1280x720 screen with the table
beside its panels; a 900 px wide window, the panels below the table) and
``docs/images/projector-1280-{light,dark}.png`` (the projector size at 1280x720, in the
teacher's view after turn ``NOTE_TURN``: the teacher's note beside the table).

Runs a real JupyterLab and Debian's Chromium through the browser-test harness in
``tests/browser/`` and replays ``examples/games/game-4-seats.json`` from the view of the
seat to move at turn ``TURN``, so every panel, the move evaluation included, has bars.

    .venv/bin/python docs/make_screenshots.py
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path
from typing import Any

import requests

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tenleave_widget.engine.game import Game  # noqa: E402
from tests.browser.driver import TIMEOUT, open_and_run, wait_idle  # noqa: E402
from tests.browser.harness import CHROMIUM, lab_server, set_theme  # noqa: E402
from tests.browser.notebooks import _notebook  # noqa: E402

GAME = REPO / "examples" / "games" / "game-4-seats.json"
IMAGES = REPO / "docs" / "images"
# After 30 turns of the 4-seat game, seat 2 (Cy) is to move: three queues hold 2, 4 and 4
# cards, six of them face-down and unknown to Cy, one of them (Ben's 4) peeked by Cy, and
# the penalties are no longer all 0, so the timeline has something to show.
TURN = 30
SEAT = 2
NOTE_TURN = 32  # the teacher's view after turn 32 (every queue full: a swat on three queues)
NOTEBOOK = "screenshots.ipynb"
PROJECTOR = "projector.ipynb"
CHROMIUM_ARGS = [
    "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
    "--disable-component-update", "--disable-sync",
]

# Every panel is drawn: the outcome bars, the card bars, the moves and the timeline.
PANELS_DRAWN = """() => {
    const p = document.querySelector('.jp-OutputArea-output .tl-panels');
    const drawn = (key, sel) => !!p && p.querySelectorAll(
        `.tl-panel-${key} .js-plotly-plot ${sel}`).length > 0;
    return drawn('outcome', '.barlayer .point path') && drawn('moves', '.barlayer .point path')
        && drawn('cards', '.barlayer .point path') && drawn('timeline', '.scatterlayer .js-line');
}"""

SHOTS = [  # (file, viewport width, height, dark theme, table size)
    ("widget-1280-light.png", 1280, 720, False, "medium"),
    ("widget-1280-dark.png", 1280, 720, True, "medium"),
    ("widget-900-light.png", 900, 720, False, "medium"),
    ("widget-900-dark.png", 900, 720, True, "medium"),
    ("projector-1280-light.png", 1280, 720, False, "projector"),
    ("projector-1280-dark.png", 1280, 720, True, "projector"),
]


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
    if str(NOTE_TURN - 1) not in json.loads(GAME.read_text()).get("notes", {}):
        raise SystemExit(f"the record has no note on turn {NOTE_TURN}")


def theme(settings: Path, dark: bool) -> None:
    """JupyterLab's theme for the next page load (the harness only ever adds the dark one)."""
    set_theme(settings, dark)
    themes = settings / "@jupyterlab" / "apputils-extension" / "themes.jupyterlab-settings"
    themes.write_text(json.dumps({"theme": "JupyterLab Dark" if dark else "JupyterLab Light"}))


def shoot(page: Any, lab: Any, png: str, dark: bool, size: str) -> None:
    projector = size == "projector"
    root = open_and_run(page, lab, PROJECTOR if projector else NOTEBOOK)
    wait_idle(page, root)
    page.wait_for_function(
        f"() => document.querySelector('.tl-root')?.dataset.turns"
        f" === '{NOTE_TURN if projector else TURN}'",
        timeout=TIMEOUT,
    )
    page.wait_for_function(PANELS_DRAWN, timeout=TIMEOUT)
    if projector:
        page.locator(".tl-root [data-testid=note]").wait_for(timeout=TIMEOUT)
    light = "false" if dark else "true"
    if page.evaluate("() => document.body.dataset.jpThemeLight") != light:
        raise SystemExit(f"JupyterLab is not in its {'dark' if dark else 'light'} theme")
    if size != "medium":
        page.select_option("[data-testid=size]", size)
        page.wait_for_function(f"() => document.querySelector('.tl-root.tl-size-{size}')")
    page.wait_for_timeout(1000)  # the table's reveal settles
    toasts = page.locator(".Toastify__toast")
    if toasts.count():
        raise SystemExit(f"a notification is showing: {toasts.first.inner_text()!r}")
    page.evaluate("() => document.activeElement && document.activeElement.blur()")
    root.evaluate("el => el.scrollIntoView({block: 'start'})")
    page.mouse.move(0, 0)
    page.wait_for_timeout(300)
    IMAGES.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(IMAGES / png), animations="disabled")


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
            f"w = tw.replay('game.json', seat={SEAT}, turn={TURN})\nw",
        ]
        nbformat.write(_notebook(cells), nb)
        big = src / PROJECTOR  # the teacher's view, as a class sees it on the wall
        nbformat.write(_notebook([cells[0], f"p = tw.replay('game.json', seat=None,"
                                            f" turn={NOTE_TURN})\np"]), big)
        game = src / "game.json"
        game.write_text(GAME.read_text())
        with lab_server(tmp, [nb, big, game]) as lab, sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
            try:
                for png, width, height, dark, size in SHOTS:
                    theme(tmp / "settings", dark)
                    for session in lab.api("/api/sessions"):  # a fresh kernel for each
                        requests.delete(f"{lab.base}/api/sessions/{session['id']}",
                                        params={"token": lab.token}, timeout=30)
                    context = browser.new_context(
                        viewport={"width": width, "height": height}, device_scale_factor=1
                    )
                    page = context.new_page()
                    errors: list[str] = []
                    page.on("pageerror", lambda e, errors=errors: errors.append(str(e)))
                    try:
                        shoot(page, lab, png, dark, size)
                    except Exception:
                        page.screenshot(path="/tmp/cl_shot_fail.png")
                        raise
                    context.close()
                    if errors:
                        raise SystemExit(f"page errors: {errors}")
            finally:
                theme(tmp / "settings", False)
                browser.close()
    for png, *_ in SHOTS:
        path = IMAGES / png
        print(f"{path.relative_to(REPO)}: {path.stat().st_size // 1024} KB")


if __name__ == "__main__":
    main()
