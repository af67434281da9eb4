"""JupyterLab's "JupyterLab Dark High Contrast" theme (shipped with JupyterLab 4): the
Plotly panels re-read its colours when the theme changes (their texts, grid and lines take
the theme's CSS variables), axe-core finds no serious or critical violation in any of the
states the light and dark themes are checked in, and pictures at 1280x720 in the light,
high-contrast and dark themes."""

from __future__ import annotations

import json
from typing import Any

from .conftest import artifact
from .driver import open_and_run
from .harness import LabServer
from .test_browser import choose_theme
from .test_classroom import SLIDE_JS, _axe_states, settled

HIGH_CONTRAST = "JupyterLab Dark High Contrast"

# What a panel's chart draws with, and what the theme's variables say it should be (each
# variable resolved to a colour by a probe element inside the panels).
COLOURS_JS = """() => {
    const panels = document.querySelector('.jp-OutputArea-output .tl-panels');
    const probe = (prop, value) => {
        const el = document.createElement('span');
        el.style[prop] = value;
        panels.append(el);
        const got = getComputedStyle(el)[prop];
        el.remove();
        return got;
    };
    // plotly.js draws an rgba colour as rgb with an opacity: put them back together
    const rgba = (rgb, opacity) => Number(opacity) === 1 ? rgb
        : rgb.replace('rgb(', 'rgba(').replace(')', `, ${Number(opacity)})`);
    const plot = panels.querySelector('.js-plotly-plot:not([hidden])');
    if (!plot || !plot.querySelector('.xtick text')) return null;  // not drawn yet
    const tick = getComputedStyle(plot.querySelector('.xtick text'));
    const grid = getComputedStyle(plot.querySelector('.xgrid, .ygrid'));
    return {
        theme: document.body.dataset.jpThemeName,
        tick: rgba(tick.fill, tick.fillOpacity),
        grid: rgba(grid.stroke, grid.strokeOpacity),
        font: plot.querySelector('.xtick text').style.fontFamily,
        want_fg: probe('color', 'var(--jp-ui-font-color1)'),
        want_grid: probe('color', 'var(--jp-border-color2)'),
        want_font: probe('fontFamily', 'var(--jp-ui-font-family)'),
    };
}"""


def colours(page: Any) -> dict[str, str]:
    got: dict[str, str] = page.evaluate(COLOURS_JS)
    assert got is not None, "no chart drawn"
    return got


def follows_theme(page: Any, timeout: int = 30_000) -> None:
    """Wait until the first chart's texts and grid are in the page's theme colours."""
    page.wait_for_function(
        f"() => {{ const c = ({COLOURS_JS})(); return c !== null && c.tick === c.want_fg"
        " && c.grid === c.want_grid; }", timeout=timeout)


def pictures(page: Any, lab: LabServer, theme: str) -> None:
    """The replay at turn 14 at a projector's 1280x720, its charts in the theme's colours
    (looked at: README, docs/widget.md)."""
    page.set_viewport_size({"width": 1280, "height": 720})
    open_and_run(page, lab, "replay.ipynb")
    page.evaluate(SLIDE_JS, "14")
    page.wait_for_function("() => document.querySelector('.tl-root').dataset.turns === '14'",
                           timeout=30_000)
    follows_theme(page)
    settled(page)
    page.screenshot(path=str(artifact(f"page-{theme}-1280x720.png")))
    # (the table and its panels: beside and under it, the panels have no box of their own)
    page.locator(".tl-layout").first.screenshot(path=str(artifact(f"panels-{theme}-1280.png")))
    page.set_viewport_size({"width": 1400, "height": 1000})


def test_high_contrast_theme(page: Any, lab: LabServer) -> None:
    pictures(page, lab, "light")
    light = colours(page)
    assert light["tick"] == light["want_fg"] and light["grid"] == light["want_grid"]
    try:
        choose_theme(page, HIGH_CONTRAST, light=False)
        page.wait_for_function(f"() => document.body.dataset.jpThemeName === '{HIGH_CONTRAST}'")
        # the charts re-read the theme (a MutationObserver on <body>): no new state needed
        follows_theme(page)
        hc = colours(page)
        assert hc["want_fg"] != light["want_fg"], hc  # the theme did change the variables
        assert hc["font"].replace('"', "") == hc["want_font"].replace('"', "")
        results = _axe_states(page, lab, "high contrast")
        bad = [(where, v) for where, v in results if v]
        assert bad == [], json.dumps(bad, indent=1)[:4000]
        assert len(results) == 8
        pictures(page, lab, "high-contrast")
        choose_theme(page, "JupyterLab Dark", light=False)
        pictures(page, lab, "dark")
    finally:
        choose_theme(page, "JupyterLab Light", light=True)
    assert page.errors == []
