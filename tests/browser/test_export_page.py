"""The HTML export opened from file:// in Debian's Chromium, offline: every request other
than the page itself is aborted, and none may be made; no console error, no page error.

Every sample game's teacher's export and one seat's export open and draw the table and
the panels; one page is stepped through with the buttons, the arrow keys and the slider,
and its perspective menu, each position checked against the engine's view.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tenleave_widget import Game
from tenleave_widget.programs.export import export_html

from .conftest import artifact
from .test_browser import TABLE_JS, table_of

GAMES = Path(__file__).resolve().parents[2] / "examples" / "games"
SAMPLES = sorted(GAMES.glob("game-*-seats.json"))


@pytest.fixture()
def offline(browser: Any) -> Iterator[Any]:
    """A page that may read file: URLs only; it records every request and every error."""
    context = browser.new_context(viewport={"width": 1300, "height": 900})
    requests: list[str] = []

    def route(r: Any) -> None:
        requests.append(r.request.url)
        if r.request.url.startswith("file:"):
            r.continue_()
        else:
            r.abort()

    context.route("**/*", route)
    pg = context.new_page()
    pg.requests = requests
    pg.errors = []
    pg.on("pageerror", lambda e: pg.errors.append(str(e)))
    pg.on("console", lambda m: pg.errors.append(m.text) if m.type == "error" else None)
    try:
        yield pg
    finally:
        context.close()


def open_page(pg: Any, path: Path) -> Any:
    pg.goto(path.as_uri())
    pg.wait_for_selector("body[data-ready='1']", timeout=20_000)
    return pg.locator(".tl-root").first


def at(pg: Any, root: Any, record: Path, turn: int, seat: int | None) -> None:
    pg.wait_for_function(
        f"() => document.querySelector('.tl-root').dataset.turns === '{turn}'", timeout=5_000
    )
    truth = Game.from_record(record, turns=turn).view(seat)
    assert root.evaluate(TABLE_JS) == table_of(truth), (turn, seat)
    # the charts are drawn in the frame after the table: wait for them (a state, not a sleep)
    pg.wait_for_function(
        "t => document.querySelector('.tl-panels-title')?.innerText.endsWith(t)",
        arg=f"after {turn} turns")


@pytest.mark.parametrize("record", SAMPLES, ids=lambda p: p.stem)
def test_every_sample_export_opens_offline(offline: Any, record: Path, tmp_path: Path) -> None:
    game = Game.from_record(record)
    for seat in (None, game.seats - 1):
        page = export_html(record, tmp_path / f"{record.stem}-{seat}.html", perspective=seat)
        offline.requests.clear()
        root = open_page(offline, page)
        at(offline, root, record, 0, seat)
        offline.keyboard.press("End")
        at(offline, root, record, game.turns_applied, seat)
        assert offline.locator(".tl-panels").count() == 1
        menu = offline.locator("[data-testid=perspective]")
        assert menu.is_visible() == (seat is None)
        # nothing that looks clickable and does nothing: no Python to play on with
        assert not offline.locator("[data-testid=branch]").is_visible()
        assert offline.requests == [page.as_uri()], "the page requested something"
        assert offline.errors == []


def test_step_through_an_export(offline: Any, tmp_path: Path) -> None:
    record = GAMES / "game-3-seats.json"
    page = export_html(record, tmp_path / "teacher.html")
    root = open_page(offline, page)
    total = Game.from_record(record).turns_applied
    notes = {int(k) for k in Game.from_record(record).notes}
    at(offline, root, record, 0, None)
    half = total // 2
    swats = 0
    for t in range(1, half + 1):  # the buttons, with the notes and the swats in words
        offline.click("[data-testid=next]")
        at(offline, root, record, t, None)
        assert (offline.locator("[data-testid=note]").count() == 1) == (t - 1 in notes)
        if any(e["kind"] == "swat" for e in Game.from_record(record, turns=t).events()):
            swats += 1
            text = offline.locator("[data-testid=swat]").first.inner_text()
            assert "10" in text, text
    assert swats > 0
    root.focus()
    for t in range(half + 1, total + 1):  # the arrow keys
        offline.keyboard.press("ArrowRight")
        at(offline, root, record, t, None)
    offline.keyboard.press("ArrowLeft")
    at(offline, root, record, total - 1, None)
    offline.keyboard.press("Home")
    at(offline, root, record, 0, None)
    offline.click("[data-testid=last]")
    at(offline, root, record, total, None)
    offline.click("[data-testid=prev]")
    at(offline, root, record, total - 1, None)
    offline.click("[data-testid=first]")
    at(offline, root, record, 0, None)
    offline.locator("[data-testid=slider]").fill(str(half))
    at(offline, root, record, half, None)
    for seat in (1, 0, 2):  # the perspective menu: that seat's knowledge only
        offline.select_option("[data-testid=perspective]", str(seat))
        offline.wait_for_function(
            f"() => document.querySelector('.tl-root').dataset.perspective === '{seat}'"
        )
        at(offline, root, record, half, seat)
    offline.select_option("[data-testid=perspective]", "all")
    at(offline, root, record, half, None)
    offline.select_option("[data-testid=size]", "projector")  # the size control works too
    offline.wait_for_function(
        "() => document.querySelector('.tl-root').classList.contains('tl-size-projector')"
    )
    offline.click("[data-testid=odds-toggle]")
    offline.wait_for_function("() => document.querySelectorAll('.tl-panels').length === 0")
    offline.keyboard.press("ArrowRight")
    assert offline.requests == [page.as_uri()]
    assert offline.errors == []


def test_export_screenshot(offline: Any, tmp_path: Path) -> None:
    """The picture in the README: the 4-seat game's teacher's export at a swat."""
    record = GAMES / "game-4-seats.json"
    page = export_html(record, tmp_path / "teacher.html")
    root = open_page(offline, page)
    g = Game.from_record(record)
    swat = next(
        t for t in range(g.turns_applied // 2, g.turns_applied + 1)
        if any(e["kind"] == "swat" for e in Game.from_record(record, turns=t).events())
    )
    offline.locator("[data-testid=slider]").fill(str(swat))
    at(offline, root, record, swat, None)
    # the swat is revealed card by card (CSS animations): wait for the whole reveal
    offline.wait_for_function(
        "() => document.getAnimations().every(a => a.playState === 'finished')",
        timeout=20_000,
    )
    explained = offline.locator("[data-testid=swat] .tl-explain").all_inner_texts()
    assert len(explained) == 3 and all("10" in line for line in explained), explained
    offline.screenshot(path=str(artifact("export-page.png")), full_page=True)
    assert offline.errors == []


def as_js_number(text: str) -> float | int:
    """A JSON number as JavaScript holds it: 1.0 is 1."""
    x = float(text)
    return int(x) if x.is_integer() and abs(x) < 2**53 else x


def test_the_page_draws_the_figures_the_widget_syncs(offline: Any, tmp_path: Path) -> None:
    """The page stores each position as a patch of the one before (``export.packed``): at
    every position of every view of the 3-seat sample's teacher's export, the states the
    page unpacked (what it draws from) are the states of the widget's own session in
    replay mode (``table.session.Session``, what a replay widget syncs, without the
    whole-game values an export has no kernel for), the panels' Plotly figures included,
    to the type; and the page still requests nothing."""
    import json

    from tenleave_widget.programs.export import export_data

    record = GAMES / "game-3-seats.json"
    page = export_html(record, tmp_path / "teacher.html")
    open_page(offline, page)
    states = json.loads(offline.evaluate("() => JSON.stringify(window.tenleaveExport.states)"),
                        parse_float=as_js_number)
    game = Game.from_record(record)
    total = game.turns_applied
    perspectives: list[int | None] = [None, *range(game.seats)]
    assert [len(row) for row in states] == [total + 1] * len(perspectives)
    session = export_data(record, None)["states"]
    checked = 0
    for p, seat in enumerate(perspectives):
        for t in range(total + 1):
            synced = json.loads(json.dumps(session[p][t]), parse_float=as_js_number)
            assert states[p][t]["panels"]["figures"] == synced["panels"]["figures"], (seat, t)
            # to the type: true is not 1 (a number is a number in JavaScript: 1.0 is 1)
            assert json.dumps(states[p][t], sort_keys=True) == json.dumps(
                synced, sort_keys=True), (seat, t)
            checked += 1
    assert checked == len(perspectives) * (total + 1)
    offline.keyboard.press("End")  # and it draws them
    at(offline, offline.locator(".tl-root").first, record, total, None)
    assert offline.requests == [page.as_uri()]
    assert offline.errors == []
