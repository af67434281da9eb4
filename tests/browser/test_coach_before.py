"""The coach's "Are you sure?" in real JupyterLab + Chromium (issue 23): the question takes
the focus and is answered both ways with the keyboard (Enter on *Take it back*; Tab, Enter
on *Play it anyway*); the coach's control on the table; a coached game played to the end,
its summary, and a decision worth a second look shown. Screenshots at 1280x720, light and
dark, go to test-artifacts/."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .conftest import artifact
from .driver import Kernel, open_and_run, wait_idle
from .harness import LabServer
from .test_browser import choose_theme

NB = "asked.ipynb"


def snap(page: Any, root: Any, name: str) -> None:
    """The page at 1280x720 with the table at the top (to look at)."""
    root.evaluate("el => el.scrollIntoView({block: 'start'})")
    page.screenshot(path=str(artifact(name)))


def in_dark(page: Any, look: Callable[[], None]) -> None:
    """``look()`` in JupyterLab's dark theme, then back to the light one (the setting is
    saved on the server: the other tests expect light)."""
    try:
        choose_theme(page, "JupyterLab Dark", light=False)
        look()
    finally:
        choose_theme(page, "JupyterLab Light", light=True)


def focused(page: Any) -> str | None:
    return page.evaluate("() => document.activeElement?.dataset?.testid ?? null")


def choose(page: Any, kernel: Kernel, pick: int, screened: bool = True) -> dict[str, Any]:
    """Choose a move with the mouse (``screened``: once the coach's screen of the decision
    is done, a state, not a sleep): the ``pick``-th card of the hand on the first queue
    offered."""
    o = kernel.eval("cb.table.offers")
    card = o["play_cards"][pick % len(o["play_cards"])]
    queue = o["play_queues"][0]
    page.click(f"[data-testid='hand-card-{card}']")
    page.click(f"[data-testid='play-{queue}']")
    for _ in range(600 if screened else 0):
        if kernel.eval("cb.session.coach.check.result is not None"):
            break
        page.wait_for_timeout(100)  # polling the kernel's state, not a timed wait
    if screened and not kernel.eval("cb.session.coach.check.result is not None"):
        raise AssertionError("the coach's screen never finished")
    return {"card": card, "queue": queue}


def wait_asked_or_played(page: Any, root: Any, turns: int) -> bool:
    """After End turn: True when the question is shown, False when the turn was played."""
    page.wait_for_function(
        f"""() => document.querySelector('[data-testid=coach-ask]') !== null
            || Number(document.querySelector('.tl-root').dataset.turns) > {turns}""",
        timeout=60_000,
    )
    return page.locator("[data-testid=coach-ask]").count() > 0


def test_are_you_sure_answered_with_the_keyboard_and_a_coached_game(
    page: Any, lab: LabServer
) -> None:
    page.set_viewport_size({"width": 1280, "height": 720})
    root = open_and_run(page, lab, NB)
    kernel = Kernel(lab, NB)
    try:
        wait_idle(page, root, 0)
        # a move the coach asks about (threshold 0: most moves are)
        for pick in range(8):
            turns = kernel.eval("cb.game.turns_applied")
            move = choose(page, kernel, pick)
            page.click("[data-testid=end]")
            if wait_asked_or_played(page, root, turns):
                break
            wait_idle(page, root)
        else:
            raise AssertionError("the coach asked about no move")
        ask = page.locator("[data-testid=coach-ask]")
        assert "Are you sure?" in ask.text_content() and " better." in ask.text_content()
        page.wait_for_function(
            "() => document.activeElement?.dataset?.testid === 'coach-back'", timeout=10_000)
        snap(page, root, "coach-ask-light.png")
        # Enter on "Take it back": the card is back in the hand, nothing was played
        page.keyboard.press("Enter")
        page.wait_for_function(
            "() => document.querySelector('[data-testid=coach-ask]') === null"
            " && document.querySelector('.tl-root').dataset.pending === '0'", timeout=30_000)
        assert kernel.eval("cb.game.turns_applied") == turns
        assert "Taken back" in page.locator("[data-testid=message]").text_content()
        # the same move again: asked again; Tab to "Play it anyway", Enter
        page.click(f"[data-testid='hand-card-{move['card']}']")
        page.click(f"[data-testid='play-{move['queue']}']")
        page.click("[data-testid=end]")
        assert wait_asked_or_played(page, root, turns)
        page.wait_for_function(
            "() => document.activeElement?.dataset?.testid === 'coach-back'", timeout=10_000)
        # the question in the dark theme too (the menus take the focus: given back)
        in_dark(page, lambda: snap(page, root, "coach-ask-dark.png"))
        page.focus("[data-testid=coach-back]")
        page.keyboard.press("Tab")
        assert focused(page) == "coach-play"
        page.keyboard.press("Enter")
        wait_idle(page, root, turns + 2)  # played, and the bot answered
        assert kernel.eval(f"cb.record()['turns'][{turns}]['play']") == [
            move["card"], move["queue"]]
        # the control: the rest of the game with the coach "after" (no more questions)
        page.select_option("[data-testid=coach-mode]", "after")
        page.wait_for_function(
            "() => document.querySelector('[data-testid=message]')"
            "?.textContent.includes('after it')", timeout=10_000)
        assert kernel.eval("cb.session.coach.mode") == "after"
        while not kernel.eval("cb.game.finished"):
            turns = kernel.eval("cb.game.turns_applied")
            choose(page, kernel, 0, screened=False)
            page.click("[data-testid=end]")
            wait_idle(page, root)
            page.wait_for_function(
                f"() => Number(document.querySelector('.tl-root').dataset.turns) > {turns}",
                timeout=30_000)
        # every decision judged: the summary and the decisions worth a second look
        page.wait_for_function(
            "() => document.querySelector('[data-testid=coach-summary]')"
            "?.textContent.includes('Your game:')", timeout=120_000)
        mine = kernel.eval("len([t for t in cb.record()['turns'] if t['seat'] == 0])")
        page.wait_for_function(
            f"() => document.querySelector('[data-testid=coach-summary]')"
            f".textContent.includes('Your game: {mine} decisions')", timeout=120_000)
        looks = page.locator(".tl-coach-look")
        if looks.count():
            first = looks.first
            turn = int((first.get_attribute("data-testid") or "").rsplit("-", 1)[1])
            first.focus()
            page.keyboard.press("Enter")
            page.wait_for_function(
                f"() => document.querySelector('.tl-root').dataset.turns === '{turn}'",
                timeout=30_000)
            assert "outlined" in page.locator("[data-testid=status]").text_content()
            assert page.locator(".tl-root .tl-best").count() >= 1
            snap(page, root, "coach-show-light.png")
            page.click("[data-testid=coach-return]")
        page.wait_for_function(
            "() => document.querySelector('[data-testid=coach-summary]') !== null",
            timeout=30_000)
        snap(page, root, "coach-summary-light.png")

        def dark() -> None:
            snap(page, root, "coach-summary-dark.png")
            if looks.count():
                looks.first.click()
                page.wait_for_function(
                    "() => document.querySelector('[data-testid=coach-return]') !== null",
                    timeout=30_000)
                snap(page, root, "coach-show-dark.png")

        in_dark(page, dark)
        assert page.errors == []
    finally:
        kernel.close()
