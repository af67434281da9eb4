"""The moves panel in the real browser (JupyterLab + Chromium): the one analysis's values
appear progressively beside the one-swat ones, the switch ranks every kind of decision by
them and marks the analysis's best (★ where separated, ≈ where about equally good), a
lookahead bot answers, and the panel at 1280x720 in the light and dark themes. Every wait
is on the page's state (the progress line's data-done, the plot's data), never on time."""

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
    const w = p ? p.dataset.worlds + '/' + p.dataset.done : 'none';
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
        done = ("() => document.querySelector('.tl-root .tl-moves-progress')?.dataset.done"
                " === 'true'")
        page.wait_for_function(done, timeout=60_000)
        # an analysis of several of the panel's background chunks: its budget (its first
        # round alone is 16 steps of 32 worlds), and chunks of 5 ms instead of 120 (with
        # the compiled play-outs the whole analysis takes about 0.1 s: one chunk)
        kernel.eval("setattr(look.session.lookahead, 'budget', 512)")
        kernel.eval("setattr(__import__('tenleave_widget.table.panels.lookahead',"
                    " fromlist=['CHUNK_MS']), 'CHUNK_MS', 5.0)")
        # a move: the lookahead bot (and greedy) answer, and the next position is analysed
        # while the page watches (the first one may be done before the page is ready)
        page.evaluate("() => { window.__worlds = []; }")
        page.locator(".tl-root [data-group=hand]").first.click()
        page.locator(".tl-root [data-focus=play-first]").click()
        page.wait_for_function("() => document.querySelector('.tl-root').dataset.pending === '1'")
        page.locator(".tl-root [data-focus=end]").click()
        wait_idle(page, root, 3)
        assert [t["seat"] for t in kernel.eval("look.record()['turns']")] == [0, 1, 2]
        page.wait_for_function(done, timeout=120_000)
        seen = page.evaluate("() => window.__worlds")
        partial = [w for w in seen if w.endswith("/false") and not w.startswith("0/")]
        assert partial, seen  # values were shown while the analysis went on
        assert kernel.eval("look.panels['moves']['done']") is True
        page.wait_for_selector(MOVES_PLOT, state="attached")
        plot = moves_plot(page)
        assert plot["type"] == "bar" and len(plot["x"]) > 0  # one swat ahead: bars
        first = plot["hover"][0]
        # plain words: "about 1.2 points fewer than the others", "about the same as the others"
        assert "whole game: about " in first and " the others" in first
        assert "than the best" in plot["alt"] and "[" not in plot["alt"]
        # the values are the kernel's (the panel data synced)
        synced = kernel.eval("look.panels['moves']['moves'][0]['margin']")
        assert synced is not None
        # the switch: rank by the whole game, the best marked first
        page.click(".tl-root [data-measure=game]")
        page.wait_for_selector(".tl-root .tl-measure-on[data-measure=game]")
        assert kernel.eval("look.session.measure") == "game"
        page.wait_for_function(
            f"() => document.querySelector('{MOVES_PLOT}')?.data[0].type === 'scatter'")
        got = margins(page)  # points worse than the best: the best first, at 0
        assert got[0] == 0 and got[1:] == sorted(got[1:])
        plot = moves_plot(page)
        star = kernel.eval("look.panels['moves']['star']")
        if star:  # the analysis separates its best: one ★
            assert plot["y"][0].endswith("★") and "(★ best)" in plot["alt"]
            assert sum(y.endswith("★") for y in plot["y"]) == 1
        else:  # about equally good: marked ≈, no ★
            assert plot["y"][0].endswith("≈") and "(≈ about equally good)" in plot["alt"]
            assert not any(y.endswith("★") for y in plot["y"])
        assert plot["name"].endswith("best for the whole game")
        # the axis title fits the narrow panel (a longer one was cut off at its right edge)
        title_fits = page.evaluate(
            f"() => {{ const el = document.querySelector('{MOVES_PLOT}');"
            " const t = el.querySelector('.xtitle').getBoundingClientRect();"
            " const box = el.getBoundingClientRect();"
            " return [t.left >= box.left, t.right <= box.right]; }")
        assert title_fits == [True, True]
        assert plot["alt"].startswith("Whole game:") and "margin" not in plot["alt"]
        kinds = kernel.eval("sorted({m['kind'] for m in look.panels['moves']['moves']})")
        assert {"play", "play then rotate"} <= set(kinds), kinds
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
        page.screenshot(path=str(artifact("lookahead-1280x720-light.png")))
        panel.screenshot(path=str(artifact("lookahead-panel-light.png")))
        choose_theme(page, "JupyterLab Dark", light=False)
        panel = page.locator(".tl-root .tl-panel-moves")
        panel.scroll_into_view_if_needed()
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
