"""The teacher's classroom in a real JupyterLab, through Debian's Chromium: a table made
by clicking *Create a table* shows its join code; a student (a seat's table in this
test's process) sits down and plays the game to its end with a bot; the classroom shows
who sits where and how far the game is, then *Class report* opens the class report of
the finished game below it. Light and dark screenshots at 1280x720."""

from __future__ import annotations

import random
import time
from typing import Any

import nbformat
from programs.dealer.harness import call_in, served_in_thread
from widget.test_remote import my_turn, play_one

from tenleave_widget.widget.remote import join

from .conftest import artifact
from .driver import TIMEOUT, Kernel
from .harness import LabServer
from .test_browser import choose_theme


def open_classroom(page: Any, lab: LabServer, url: str, token: str) -> str:
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell("import tenleave_widget.widget as tw"),
                nbformat.v4.new_code_cell(f"room = tw.classroom({url!r}, {token!r})\n"
                                          "room.report_samples = 2\nroom")]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                 "language": "python"}
    name = "classroom.ipynb"
    nbformat.write(nb, lab.root / name)
    page.goto(lab.url(name), timeout=TIMEOUT)
    page.wait_for_selector(".jp-Notebook .jp-CodeCell", timeout=TIMEOUT)
    page.wait_for_function(
        "() => (document.querySelector('#jp-main-statusbar')?.textContent || '')"
        ".includes('| Idle')", timeout=TIMEOUT)
    page.click("#jp-MainMenu >> text=Run")
    page.click('.lm-Menu-item[data-command="runmenu:run-all"]')
    page.locator(".tl-classroom").first.wait_for(timeout=TIMEOUT)
    return name


def test_the_classroom_in_jupyterlab(browser: Any, lab: LabServer) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    with served_in_thread(seed=51, bot_delay=0) as s:
        name = open_classroom(page, lab, s.url, s.token)
        kernel = Kernel(lab, name)
        w = None
        try:
            page.get_by_text("No table yet").wait_for(timeout=TIMEOUT)
            page.click("button:has-text('Create a table')")
            page.locator(".tl-class-code").first.wait_for(timeout=TIMEOUT)
            code = page.locator(".tl-class-code").first.inner_text()
            summary = kernel.eval("room.tables")[0]
            assert code == summary["code"] and len(summary["seats"]) == 3
            # a 2-seat table with a bot, made from Python: the one the student plays
            kernel.eval("room.create(players=2, bots=1, bot='random')")
            page.locator(".tl-class-code").nth(1).wait_for(timeout=TIMEOUT)
            table = kernel.eval("room.tables")[1]
            w = join(s.url, table["code"], "Ana", show_odds=False)
            page.locator(".tl-class-connected:has-text('Ana')").wait_for(timeout=TIMEOUT)
            game = call_in(s, lambda: s.dealer.tables[table["table"]].game)
            rng = random.Random(5)
            end = time.monotonic() + 120
            while not call_in(s, lambda: game.finished):
                assert time.monotonic() < end, "the game did not end in time"
                if my_turn(w):
                    play_one(w, rng)
                    if game.turns_applied in (4, 5):
                        page.wait_for_function(
                            "() => [...document.querySelectorAll('.tl-classroom progress')]"
                            ".some(p => Number(p.value) >= 4)", timeout=TIMEOUT)
                        page.screenshot(path=str(artifact("dealer-classroom-light.png")))
                        choose_theme(page, "JupyterLab Dark", False)
                        page.screenshot(path=str(artifact("dealer-classroom-dark.png")))
                        choose_theme(page, "JupyterLab Light", True)
                time.sleep(0.005)
            page.locator(".tl-classroom tr:has-text('finished')").wait_for(timeout=TIMEOUT)
            page.click("button:has-text('Class report')")
            frame = page.frame_locator("iframe.tl-class-report")
            frame.locator("body").wait_for(timeout=120_000)
            frame.locator("h1:has-text(\"games reviewed\")").wait_for(timeout=120_000)
            assert "1 finished game" in page.locator(".jp-OutputArea-output").first.inner_text()
            page.screenshot(path=str(artifact("dealer-classroom-report.png")))
            assert [e for e in errors if "reading 'schema'" not in e] == []
        finally:
            if w is not None:
                w.close()
            try:
                kernel.eval("room.close()")
            finally:
                kernel.close()
                context.close()
