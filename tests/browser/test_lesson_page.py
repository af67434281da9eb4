"""Issue 22's lesson in the real browser (JupyterLab + Chromium): the classroom notebook,
one table per game, each with its lesson on the table itself. Run All puts each table at its
first question; Next moment (a click, or Page Down) moves only its own table and the page
does not scroll; the answer is shown on demand; an earlier cell run again moves the table
it names (``two``), not the last one made (issue 22, point 1)."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from .conftest import artifact
from .driver import Kernel, open_and_run
from .harness import LabServer
from .test_browser import choose_theme

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
NOTEBOOK = "lessons.ipynb"  # the classroom notebook, under a name no other test uses


def moment(page: Any, table: int) -> str:
    return str(page.locator(".tl-root").nth(table).locator("[data-testid=lesson]")
               .get_attribute("data-moment"))


def wait_moment(page: Any, table: int, value: str) -> None:
    page.wait_for_function(
        "([i, v]) => document.querySelectorAll('.tl-root')[i]"
        "?.querySelector('[data-testid=lesson]')?.dataset.moment === v",
        arg=[table, value], timeout=30_000)


def test_each_games_lesson_runs_on_its_own_table(browser: Any, lab: LabServer) -> None:
    shutil.copy(EXAMPLES / "classroom.ipynb", lab.root / NOTEBOOK)
    shutil.copytree(EXAMPLES / "games", lab.root / "games", dirs_exist_ok=True)
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    kernel = None
    try:
        open_and_run(page, lab, NOTEBOOK, panels=False)
        page.wait_for_function("() => document.querySelectorAll('.tl-root').length === 4",
                               timeout=60_000)
        for t in range(4):  # two, three, four, five: each at its first question
            wait_moment(page, t, "0")
        kernel = Kernel(lab, NOTEBOOK)
        assert kernel.eval("[t.moment_number for t in (two, three, four, five)]") == [1] * 4
        two = page.locator(".tl-root").nth(0)
        question = two.locator("[data-testid=question]").inner_text()
        assert question == kernel.eval("two.lesson['moments'][0]['question']")
        # Next moment on the 2-player table: it moves, the page does not scroll
        two.scroll_into_view_if_needed()
        top = two.bounding_box()["y"]
        scrolled = page.evaluate("() => document.querySelector('.jp-WindowedPanel-outer')"
                                 "?.scrollTop ?? 0")
        two.locator("[data-testid=lesson-next]").click()
        wait_moment(page, 0, "1")
        turn = kernel.eval("two.lesson['moments'][1]['turn']")
        page.wait_for_function(f"() => document.querySelector('.tl-root').dataset.turns"
                               f" === '{turn}'")
        assert abs(two.bounding_box()["y"] - top) < 2
        assert page.evaluate("() => document.querySelector('.jp-WindowedPanel-outer')"
                             "?.scrollTop ?? 0") == scrolled
        assert two.locator("[data-testid=answer]").count() == 0  # not before it is asked for
        two.locator("[data-testid=lesson-answer]").click()
        page.wait_for_function(f"() => document.querySelector('.tl-root').dataset.turns"
                               f" === '{turn + 1}'")  # the answer plays the turn
        two.locator("[data-testid=answer]").wait_for()
        assert kernel.eval("two.lesson['moments'][1]['answer'].split(chr(10))[0]") in (
            two.locator("[data-testid=answer]").inner_text())
        page.screenshot(path=str(artifact("lesson-answer-1280x720.png")))
        # the 5-player table, by keyboard: Page Down is Next moment
        five = page.locator(".tl-root").nth(3)
        five.scroll_into_view_if_needed()
        five.focus()
        page.keyboard.press("PageDown")
        wait_moment(page, 3, "1")
        page.keyboard.press("a")  # the answer, by key
        five.locator("[data-testid=answer]").wait_for()
        assert moment(page, 0) == "1"  # the 2-player table did not move
        # run the 2-player table's earlier cell again: the 2-player table moves back to
        # its first question; the 5-player table, the last one made, stays where it was
        cell = page.locator(".jp-CodeCell").filter(has_text="two.moment(1)")
        cell.locator(".jp-InputArea-editor").click()
        page.keyboard.press("Control+Enter")
        wait_moment(page, 0, "0")
        assert moment(page, 3) == "1" and moment(page, 1) == "0" and moment(page, 2) == "0"
        assert kernel.eval("[t.moment_number for t in (two, three, four, five)]") == [1, 1, 1, 2]
        assert kernel.eval("five.session.lesson.revealed") is True
        two.scroll_into_view_if_needed()
        page.screenshot(path=str(artifact("lesson-question-1280x720.png")))
        choose_theme(page, "JupyterLab Dark", light=False)
        two.scroll_into_view_if_needed()
        page.screenshot(path=str(artifact("lesson-question-dark-1280x720.png")))
        assert errors == []
    finally:
        if kernel is not None:
            kernel.close()
        choose_theme(page, "JupyterLab Light", light=True)
        context.close()
