"""Issue 9, item 4 in the real browser (JupyterLab + Chromium): the moves panel's whole-game
values appear progressively beside the one-swat ones, the switch ranks by them and marks
the best, a lookahead bot answers, and the panel at 1280x720 in the light and dark themes."""

from __future__ import annotations

from typing import Any

from .conftest import artifact
from .driver import Kernel, open_and_run, wait_idle
from .harness import LabServer
from .test_browser import choose_theme

# every value of the progress line's data-worlds the page shows, recorded as it changes
RECORD_WORLDS = """() => {
  window.__worlds = [];
  const note = () => {
    const p = document.querySelector('.tl-root .tl-moves-progress');
    const w = p ? p.dataset.worlds + '/' + p.dataset.target : 'none';
    if (window.__worlds[window.__worlds.length - 1] !== w) window.__worlds.push(w);
  };
  note();
  new MutationObserver(note).observe(document.querySelector('.tl-root'),
                                     {subtree: true, childList: true, attributes: true});
}"""


MOVES_PLOT = ".tl-root .tl-panel-moves .js-plotly-plot"


def moves_plot(page: Any) -> dict[str, Any]:
    """The moves' Plotly chart as drawn: its trace's values, labels and hover texts, the
    panel's accessible name and its text alternative."""
    got: dict[str, Any] = page.evaluate(
        f"() => {{ const el = document.querySelector('{MOVES_PLOT}'); const t = el.data[0];"
        " const panel = el.closest('.tl-panel');"
        " return {x: t.x, y: t.y, hover: t.hovertext, type: t.type,"
        " name: panel.querySelector('.tl-panel-title').textContent,"
        " alt: panel.querySelector('.tl-visually-hidden').textContent}; }")
    return got


def margins(page: Any) -> list[float]:
    return [float(x) for x in moves_plot(page)["x"]]


def test_whole_game_values_fill_in_and_the_switch_ranks_by_them(
    browser: Any, lab: LabServer
) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    kernel: Kernel | None = None
    try:
        root = open_and_run(page, lab, "lookahead.ipynb")
        page.evaluate(RECORD_WORLDS)
        kernel = Kernel(lab, "lookahead.ipynb")
        wait_idle(page, root, 0)
        target = kernel.eval("look.session.lookahead.budget")
        page.wait_for_function(
            f"() => document.querySelector('.tl-root .tl-moves-progress')?.dataset.worlds"
            f" === '{target}'", timeout=60_000)
        # an evaluation long enough to take several of the panel's background chunks even
        # where the batched play-outs finish the default budget in one
        kernel.eval("setattr(look.session.lookahead, 'budget', 2048)")
        target = 2048
        # a move: the lookahead bot (and greedy) answer, and the next position is evaluated
        # while the page watches (the first one may be done before the page is ready)
        page.evaluate("() => { window.__worlds = []; }")
        page.locator(".tl-root [data-group=hand]").first.click()
        page.locator(".tl-root [data-focus=play-first]").click()
        page.wait_for_function("() => document.querySelector('.tl-root').dataset.pending === '1'")
        page.locator(".tl-root [data-focus=end]").click()
        wait_idle(page, root, 3)
        assert [t["seat"] for t in kernel.eval("look.record()['turns']")] == [0, 1, 2]
        page.wait_for_function(
            f"() => document.querySelector('.tl-root .tl-moves-progress')?.dataset.worlds"
            f" === '{target}'", timeout=60_000)
        seen = page.evaluate("() => window.__worlds")
        partial = [w for w in seen if w not in ("none", f"0/{target}", f"{target}/{target}")]
        assert partial, seen  # values were shown while the evaluation went on
        page.wait_for_selector(MOVES_PLOT, state="attached")
        plot = moves_plot(page)
        assert plot["type"] == "bar" and len(plot["x"]) > 0  # one swat ahead: bars
        first = plot["hover"][0]
        assert "whole game: about" in first and "than the others" in first  # plain words
        assert "whole game: about" in plot["alt"] and "[" not in plot["alt"]
        # the values are the kernel's (the panel data synced)
        synced = kernel.eval("look.panels['moves']['moves'][0]['margin']")
        assert synced is not None
        # the switch: rank by the whole game, the best marked first
        page.click(".tl-root [data-measure=game]")
        page.wait_for_selector(".tl-root .tl-measure-on[data-measure=game]")
        assert kernel.eval("look.session.measure") == "game"
        page.wait_for_function(
            f"() => document.querySelector('{MOVES_PLOT}')?.data[0].type === 'scatter'")
        got = margins(page)
        assert got == sorted(got)
        plot = moves_plot(page)
        assert plot["y"][0].endswith("★") and "(★ best)" in plot["alt"]  # plain words
        assert plot["name"].endswith("best for the whole game")
        assert plot["alt"].startswith("Whole game:") and "margin" not in plot["alt"]
        # the Details switch: the analyst's words and the interval bars, then back
        page.click(".tl-root [data-testid=details]")
        page.wait_for_function(
            f"() => document.querySelector('{MOVES_PLOT}')?.data[0].error_x !== undefined")
        assert kernel.eval("look.session.details") is True
        assert moves_plot(page)["name"].endswith("value over the whole game")
        page.click(".tl-root [data-testid=details]")
        page.wait_for_function(
            f"() => document.querySelector('{MOVES_PLOT}')?.data[0].error_x === undefined")
        panel = page.locator(".tl-root .tl-panel-moves")
        panel.scroll_into_view_if_needed()
        page.wait_for_timeout(300)
        page.screenshot(path=str(artifact("lookahead-1280x720-light.png")))
        panel.screenshot(path=str(artifact("lookahead-panel-light.png")))
        choose_theme(page, "JupyterLab Dark", light=False)
        panel = page.locator(".tl-root .tl-panel-moves")
        panel.scroll_into_view_if_needed()
        page.wait_for_timeout(300)
        page.screenshot(path=str(artifact("lookahead-1280x720-dark.png")))
        panel.screenshot(path=str(artifact("lookahead-panel-dark.png")))
        # back to one swat ahead
        page.click(".tl-root [data-measure=swat]")
        page.wait_for_selector(".tl-root .tl-measure-on[data-measure=swat]")
        page.wait_for_function(
            f"() => document.querySelector('{MOVES_PLOT}')?.data[0].type === 'bar'")
        assert "(★ safest)" in moves_plot(page)["alt"]
        choose_theme(page, "JupyterLab Light", light=True)
        assert errors == []
    finally:
        if kernel is not None:
            kernel.close()
        context.close()
