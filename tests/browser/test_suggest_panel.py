"""Issue 19, item 4 in the real browser (JupyterLab + Chromium): *What their plays suggest*
appears, fills in (read in the background), follows a move, its rationality control and
the outcome panel's switch send intents that Python applies, and the panel at 1280x720 in
the light and dark themes."""

from __future__ import annotations

import time
from typing import Any

from .conftest import artifact
from .driver import Kernel, open_and_run, wait_idle
from .harness import LabServer
from .test_browser import choose_theme

PANEL = ".tl-root .tl-panel-suggest"
PLOT = f"{PANEL} .js-plotly-plot"


def drawn(page: Any) -> dict[str, Any]:
    """The panel as drawn: its Plotly traces' names and values, its heading, its text
    alternative and its reason line."""
    got: dict[str, Any] = page.evaluate(
        f"() => {{ const panel = document.querySelector('{PANEL}');"
        " const el = panel.querySelector('.js-plotly-plot');"
        " return {names: el ? el.data.map(t => t.name) : [],"
        " x: el ? el.data.map(t => t.x) : [],"
        " title: panel.querySelector('.tl-panel-title').textContent,"
        " alt: panel.querySelector('.tl-visually-hidden').textContent,"
        " reason: panel.querySelector('.tl-suggest-reason')?.textContent ?? ''}; }")
    return got


def wait_alt(page: Any, alt: str) -> None:
    """Wait until the panel's text alternative is ``alt`` (the kernel's figure drawn)."""
    page.wait_for_function(
        "([sel, alt]) => document.querySelector(sel)?.textContent === alt",
        arg=[f"{PANEL} .tl-visually-hidden", alt], timeout=60_000)


def ready(kernel: Kernel) -> str:
    """The kernel's panel once read: its figure's text alternative."""
    for _ in range(600):
        if kernel.eval("sg.panels['suggest']['state']") == "ready":
            return str(kernel.eval("sg.panels['figures']['suggest']['alt']"))
        time.sleep(0.05)
    raise AssertionError("the panel was never read")


def test_the_panel_fills_in_follows_a_move_and_its_controls_work(
    browser: Any, lab: LabServer
) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    kernel: Kernel | None = None
    try:
        root = open_and_run(page, lab, "suggest.ipynb")
        kernel = Kernel(lab, "suggest.ipynb")
        wait_idle(page, root, 0)
        page.wait_for_selector(PANEL, state="attached", timeout=60_000)
        wait_alt(page, ready(kernel))
        first = drawn(page)
        assert first["title"] == "What their plays suggest: the cards Ana cannot see"
        assert "by the rules alone" in first["alt"] and "Ben's hand" in first["alt"]
        # a move: the bots answer, and the panel follows (their face-down cards appear)
        page.locator(".tl-root [data-group=hand]").first.click()
        page.locator(".tl-root [data-focus=play-first]").click()
        page.wait_for_function("() => document.querySelector('.tl-root').dataset.pending === '1'")
        page.locator(".tl-root [data-focus=end]").click()
        wait_idle(page, root, 3)
        alt = ready(kernel)
        wait_alt(page, alt)
        after = drawn(page)
        assert after["alt"] != first["alt"] and "queue " in after["alt"]
        cards = kernel.eval("sg.panels['suggest']['cards']")
        assert all(len(x) == 2 * len(cards) for x in after["x"])  # two bars a card
        assert after["names"] == [str(v) for v in sorted(
            {int(v) for c in cards for v in c["uniform"]})]
        assert after["reason"] == kernel.eval("sg.panels['suggest']['reason']") != ""
        # the rationality control: an intent Python applies; the panel is read again
        page.click(f"{PANEL} [data-control=level] [data-value=random]")
        page.wait_for_selector(f"{PANEL} .tl-measure-on[data-value=random]")
        assert kernel.eval("sg.session.suggest.level") == "random"
        wait_alt(page, ready(kernel))
        assert "tell nothing" in drawn(page)["reason"]
        page.click(f"{PANEL} [data-control=level] [data-value=careful]")
        page.wait_for_selector(f"{PANEL} .tl-measure-on[data-value=careful]")
        assert kernel.eval("sg.session.suggest.level") == "careful"
        wait_alt(page, ready(kernel))
        # the outcome panel's switch: its odds from their plays too
        page.click(".tl-root .tl-panel-outcome [data-control=odds-model] [data-value=inferred]")
        page.wait_for_function(
            "() => document.querySelector('.tl-root .tl-panel-outcome .tl-panel-title')"
            "?.textContent.endsWith('(as their plays suggest)')", timeout=60_000)
        assert kernel.eval("sg.session.suggest.odds_model") == "inferred"
        outcome = kernel.eval("sg.panels['figures']['outcome']['alt']")
        page.wait_for_function(
            "([alt]) => document.querySelector('.tl-root .tl-panel-outcome "
            ".tl-visually-hidden')?.textContent === alt", arg=[outcome])
        # the analyst's figures stay folded until asked for
        details = page.locator(f"{PANEL} details.tl-suggest-details")
        assert details.get_attribute("open") is None
        for theme, light in (("light", True), ("dark", False)):
            if not light:
                choose_theme(page, "JupyterLab Dark", light=False)
            panel = page.locator(PANEL)
            panel.scroll_into_view_if_needed()
            page.wait_for_timeout(400)
            page.screenshot(path=str(artifact(f"suggest-1280x720-{theme}.png")))
            panel.screenshot(path=str(artifact(f"suggest-panel-{theme}.png")))
            outcome = page.locator(".tl-root .tl-panel-outcome")
            outcome.scroll_into_view_if_needed()
            page.wait_for_timeout(300)
            outcome.screenshot(path=str(artifact(f"suggest-outcome-{theme}.png")))
        choose_theme(page, "JupyterLab Light", light=True)
        assert errors == []
    finally:
        if kernel is not None:
            kernel.close()
        context.close()
