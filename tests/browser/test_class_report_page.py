"""The class report (``tenleave review --report``) opened from file:// in Debian's
Chromium, offline: every request other than the page itself is aborted, and none may be
made. Its four charts are drawn by the inlined plotly.js, each a figure with an
accessible name and a text alternative holding its numbers; no console error, no page
error, no serious axe violation; light and dark screenshots at 1280x720."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tenleave_widget.engine.record import load_record
from tenleave_widget.programs.class_report import FIGURES
from tenleave_widget.programs.class_review import review_many

from .axe import axe_violations
from .conftest import artifact

GAMES = Path(__file__).resolve().parents[2] / "examples" / "games"


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    rec = load_record(GAMES / "game-2-seats.json")
    c = review_many({"monday.json": rec, "tuesday.json": GAMES / "game-3-seats.json"},
                    samples=1, seed=0, workers=1)
    path = tmp_path_factory.mktemp("report") / "class.html"
    path.write_text(c.html(), encoding="utf-8")
    return path


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_report_draws_its_charts_offline(browser: Any, report: Path, scheme: str) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 720},
                                  color_scheme=scheme)
    requests: list[str] = []

    def route(r: Any) -> None:
        requests.append(r.request.url)
        if r.request.url == report.as_uri():
            r.continue_()
        else:
            r.abort()

    context.route("**/*", route)
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    try:
        pg.goto(report.as_uri())
        pg.wait_for_selector("body[data-ready='1']", timeout=30_000)
        charts = pg.locator("[data-figure]")
        assert charts.count() == len(FIGURES)
        for i, key in enumerate(FIGURES):
            chart = charts.nth(i)
            assert chart.get_attribute("data-figure") == key
            svgs = chart.locator("svg.main-svg")
            assert svgs.count() >= 1  # drawn by plotly.js, hidden: the text is read instead
            assert all(svgs.nth(k).get_attribute("aria-hidden") == "true"
                       for k in range(svgs.count()))
            figure = pg.locator(f"figure#fig-{key}")
            name = pg.locator(f"#{figure.get_attribute('aria-labelledby')}").inner_text()
            alt = figure.locator("figcaption").text_content() or ""
            assert name and alt, key
        # the players' bars are there: one per player, Ana's accuracy in its text
        assert pg.locator("[data-figure=accuracy] .bars .point").count() == 3
        assert "Ana: accuracy" in pg.locator("#fig-accuracy-alt").inner_text()
        # which model judged the games, in words, above the charts
        assert pg.locator("#judged-by").inner_text().startswith("Judged by the rules alone")
        pg.screenshot(path=str(artifact(f"class-report-{scheme}.png")), full_page=False)
        assert axe_violations(pg, "body") == []
        assert requests == [report.as_uri()], "the page requested something"
        assert errors == []
    finally:
        context.close()
