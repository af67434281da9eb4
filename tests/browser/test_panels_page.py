"""The odds panels drawn by the bundle's pure renderer on a plain page (no kernel, no
model), from panel data computed in Python: every encoding named, empty states in
words, unique titles, tied timeline lines drawn apart, nothing clipped at 900 or 380 px
(every chart inside its panel, light and dark), and the theme's colours followed."""

from __future__ import annotations

import json
from typing import Any

from tenleave_widget import Game
from tenleave_widget.analysis.odds import seat_odds
from tenleave_widget.table.panels.data import TimelinePoint, panel_data
from tenleave_widget.table.panels.figures import with_figures
from tenleave_widget.widget.table_widget import STATIC

from .conftest import artifact

ORIGIN = "http://panels.test"
# Each drawn chart's SVG (plotly.js's .main-svg) inside its panel's box: no chart wider
# than its panel, no axis cut at the panel's edge.
CHARTS_CUT = """() => [...document.querySelectorAll('.tl-panel')].flatMap(panel => {
    const svg = panel.querySelector('.js-plotly-plot:not([hidden]) svg.main-svg');
    if (!svg) return [];
    const p = panel.getBoundingClientRect(), s = svg.getBoundingClientRect();
    return s.left >= p.left - 0.5 && s.right <= p.right + 0.5 ? [] : [
        `${panel.dataset.figure}: chart ${Math.round(s.left)}-${Math.round(s.right)} px,`
        + ` panel ${Math.round(p.left)}-${Math.round(p.right)} px`];
})"""
PAGE = """<!doctype html>
<html><head><meta charset="utf-8"><link rel="stylesheet" href="widget.css"></head>
<body style="margin: 8px"><div id="host"></div>
<script type="module">
import { renderPanels } from "./widget.js";
const data = await (await fetch("data.json")).json();
const host = document.getElementById("host");
// the charts as first drawn (a resize after a wrong width comes 100 ms later)
new MutationObserver(() => { window.cutAtDraw ??= (CHARTS_CUT)(); })
  .observe(host, { subtree: true, attributeFilter: ["data-revision"] });
// the order the charts were drawn in (each panel's data-drawn, set once its chart is)
window.drawnOrder = [];
new MutationObserver((ms) => ms.forEach(m => window.drawnOrder.push(m.target.dataset.figure)))
  .observe(host, { subtree: true, attributeFilter: ["data-drawn"] });
host.append(renderPanels(data));
window.drawn = true;
</script></body></html>""".replace("CHARTS_CUT", CHARTS_CUT)


def _data() -> dict[str, Any]:
    """Ana to move after two plays on queue 1: queue 2 empty, everyone on 0 (a tie)."""
    g = Game(["Ana", "Ben", "Cy"], seed=3)
    g.apply({"seat": 0, "play": ["4*", 0]})
    g.apply({"seat": 1, "play": ["2", 0]})
    g.apply({"seat": 2, "play": ["5", 0]})
    points = [TimelinePoint(t, [0, 0, 0], 0.5 * t) for t in range(4)]
    view = g.view(0)
    return dict(with_figures(panel_data(view, seat_odds(view), points)))


def show(page: Any, data: dict[str, Any], width: int, dark: bool = False,
         scale: float = 1.0) -> None:
    """Draw the panels of `data` alone on a plain page `width` px wide (dark: JupyterLab's
    dark colours; scale: their font size as the table's on a plain page at a size:
    1.25 large, 1.3 projector)."""
    style = ("body { --jp-ui-font-color1: #eeeeee; --jp-ui-font-color2: #bbbbbb;"
             " --jp-layout-color1: #111111; --jp-border-color1: #777777; background: #111; }"
             if dark else "")
    if scale != 1.0:
        style += f" .tl-panels {{ font-size: calc(1.08em * {scale}); }}"
    files = {
        "/index.html": (PAGE.replace("</head>", f"<style>{style}</style></head>"), "text/html"),
        "/widget.js": ((STATIC / "widget.js").read_text(), "text/javascript"),
        "/widget.css": ((STATIC / "widget.css").read_text(), "text/css"),
        "/data.json": (json.dumps(data), "application/json"),
    }
    page.set_viewport_size({"width": width, "height": 900})
    page.route(f"{ORIGIN}/**", lambda route: route.fulfill(
        status=200, body=files[route.request.url[len(ORIGIN):]][0],
        content_type=files[route.request.url[len(ORIGIN):]][1]))
    page.goto(f"{ORIGIN}/index.html")
    page.wait_for_function("() => window.drawn === true")
    page.wait_for_selector(".tl-panels[data-revision]", state="attached")  # charts drawn


def test_panels_explain_themselves(page: Any) -> None:
    show(page, _data(), 900)
    assert page.locator(".tl-panels .js-plotly-plot").count() == 4  # drawn by plotly.js
    text = page.locator(".tl-panels").inner_text()  # the words drawn in the charts' SVG
    for named in ("under 10: the highest card is swatted", "exactly 10: every flipped card",
                  "over 10: the Human Defense token swats", "empty: nothing to swat",
                  "Ana's moves: penalty of one swat right after", "★", "Ana, Ben, Cy: 0"):
        assert named in text, named
    # the outcome chart's legends are HTML around the chart (js/panels/legend.ts), a
    # swatch of each bar's colour and pattern beside its words; plotly.js draws none
    legend = page.locator(".tl-panel-outcome .tl-legend-entry")
    assert legend.all_inner_texts() == [
        "under 10: the highest card is swatted", "exactly 10: every flipped card escapes",
        "over 10: the Human Defense token swats", "Queue 1"]
    assert page.locator(".tl-panel-outcome .tl-legend-entry svg rect").count() == 4 + 2
    assert page.locator(".tl-panel-outcome .js-plotly-plot .legend").count() == 0
    names = page.locator(".tl-panel").evaluate_all(
        "ps => ps.map(p => document.getElementById(p.getAttribute('aria-labelledby'))"
        ".textContent)")
    assert len(names) == 4 and len(set(names)) == 4 and all(names)
    alts = page.locator(".tl-panel .tl-visually-hidden").evaluate_all(
        "ps => ps.map(p => p.textContent)")
    assert "Queue 2: empty, nothing to swat." in alts[0]
    assert alts[0].startswith("Queue 1 (4 ? ?): under 10 ")  # the same numbers, in words
    assert "(★ lowest)" in alts[1] and alts[3].startswith("After turn 3: Ana 0, Ben 0, Cy 0.")
    # the three seats tie on 0 all game: told apart by line style and marker shape
    styles = page.evaluate(
        "() => document.querySelector('.tl-panel-timeline .js-plotly-plot').data"
        ".filter(t => t.mode === 'lines+markers').map(t => t.line.dash + t.marker.symbol)")
    assert len(styles) == 3 and len(set(styles)) == 3
    for width, dark in ((900, True), (900, False), (380, True), (380, False)):
        where = f"{width} px, {'dark' if dark else 'light'}"
        show(page, _data(), width, dark)
        over = page.evaluate("() => document.documentElement.scrollWidth"
                             " - document.documentElement.clientWidth")
        assert over <= 0, f"clipped at {where}"
        # the left margins are set in Python (no automargin): every tick label fits in them
        cut = page.evaluate(LABELS_CUT)
        assert cut == [], f"tick labels cut at {where}: {cut}"
        # none hidden (plotly.js hides one that would cross the chart's edge: "100%")
        hidden = page.evaluate(LABELS_HIDDEN)
        assert hidden == [], f"tick labels hidden at {where}: {hidden}"
        # every chart inside its panel as first drawn (a resize 100 ms later is a second
        # draw, and a frame shown clipped), and now
        assert page.evaluate("() => window.cutAtDraw") == [], f"charts cut when drawn, {where}"
        assert page.evaluate(CHARTS_CUT) == [], f"charts cut, {where}"
    page.screenshot(path=str(artifact("panels-380.png")), full_page=True)
    # a new width (the output widened): each chart is drawn again at its panel's width
    page.set_viewport_size({"width": 640, "height": 900})
    page.wait_for_function(f"() => ({CHARTS_CUT})().length === 0 && document.querySelector("
                           "'.js-plotly-plot svg.main-svg').getBoundingClientRect().width > 400")
    assert page.errors == []


def test_the_moves_chart_is_drawn_first_while_the_analysis_runs(page: Any) -> None:
    """While the whole-game analysis runs (figures in, not final), the moves' chart of a
    state is drawn first (the figures a player waits for), the others after it; else the
    charts in the page's order. Each panel's ``data-drawn`` names the state its chart
    shows, and the panels' ``data-revision`` comes once all of them show the state shown."""
    everything = sorted(["outcome", "moves", "cards", "timeline"])
    running = _data()
    running["moves"] = {**running["moves"], "worlds": 16, "done": False}
    for data, first in ((running, "moves"), (_data(), "outcome")):
        show(page, data, 900)
        order = page.evaluate("() => window.drawnOrder")
        assert order[0] == first and sorted(order) == everything, order
        states = page.evaluate("""() => {
            const panels = document.querySelector('.tl-panels');
            return [panels.dataset.shown, panels.dataset.revision,
                    ...[...panels.querySelectorAll('.tl-panel')].map(p => p.dataset.drawn)];
        }""")
        assert len(set(states)) == 1 and states[0] is not None, states
    assert page.errors == []


LABELS_CUT = """() => [...document.querySelectorAll('.js-plotly-plot')].flatMap(plot => {
    const left = plot.querySelector('svg.main-svg').getBoundingClientRect().left;
    return [...plot.querySelectorAll('.ytick text, .y2tick text')]
        .filter(t => t.getBoundingClientRect().left < left - 0.5)
        .map(t => t.textContent);
})"""

LABELS_HIDDEN = """() => [...document.querySelectorAll('.js-plotly-plot')].flatMap(plot =>
    [...plot.querySelectorAll('.xtick text, .x2tick text, .ytick text, .y2tick text')]
        .filter(t => getComputedStyle(t).display === 'none')
        .map(t => `${plot.dataset.figure}: ${t.textContent}`))"""

TITLE_FILL = ("el => getComputedStyle(el.querySelector('.js-plotly-plot .xtick text')).fill")


def test_panels_follow_the_theme(page: Any) -> None:
    show(page, _data(), 900)
    light = page.locator(".tl-panel").first.evaluate(TITLE_FILL)
    show(page, _data(), 900, dark=True)
    dark = page.locator(".tl-panel").first.evaluate(TITLE_FILL)
    assert light != dark and dark == "rgb(238, 238, 238)"
    page.screenshot(path=str(artifact("panels-dark-page.png")), full_page=True)
