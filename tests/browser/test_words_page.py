"""What the table page says, drawn from Python table states by ``renderTableState``
(issue 22): turns counted from 1 in the status, the narration and the note; why *Wake
SleepKid* is missing when a queue holds one card; which bot is which."""

from __future__ import annotations

from typing import Any

from tenleave_widget import Game
from tenleave_widget.table.session.config import check_config
from tenleave_widget.table.session.machine import Session
from tenleave_widget.widget.table_widget import STATIC

from .conftest import artifact
from .test_static_page import serve

GAMES = STATIC.parents[1] / "examples" / "games"


def _draw(page: Any, session: Session) -> Any:
    serve(page, dict(session.state()))
    root = page.locator("#table .tl-root")
    root.wait_for()
    return root


def test_one_turn_has_one_number_on_the_page(page: Any) -> None:
    game = Game.from_record(str(GAMES / "game-3-seats.json"))
    s = Session(game, check_config(game, mode="replay", perspective=None, turn=16))
    _draw(page, s)
    assert page.locator("[data-testid=status]").inner_text() == "Turn 17: Ben to move."
    s.handle({"kind": "goto", "turn": 17})
    _draw(page, s)
    said = page.locator("[data-testid=last-event]").inner_text()
    assert said.startswith("Turn 17 (Ben): Ben peeked at queue 1, position I."), said
    assert page.locator("[data-testid=note]").inner_text().startswith("Note on turn 17: Ben")
    assert page.errors == []


def test_the_page_says_why_there_is_no_wake_and_which_bot_is_which(page: Any) -> None:
    game = Game(["Ana", "Ben", "Cy"], seed=2)
    for turn in ({"seat": 0, "play": ["1", 0]}, {"seat": 1, "play": ["1", 0]},
                 {"seat": 2, "play": ["1", 1]}):
        game.apply(turn)
    s = Session(game, check_config(game, humans=[0], bots={1: "greedy", 2: "random"}))
    root = _draw(page, s)
    hint = page.locator("[data-testid=hint]").inner_text()
    assert "No Wake SleepKid yet: queue 2 holds only one card" in hint, hint
    assert page.locator("[data-testid=wake]").count() == 0
    assert page.locator("[data-testid=role-1]").inner_text().strip() == "(greedy bot)"
    assert page.locator("[data-testid=role-2]").inner_text().strip() == "(random bot)"
    assert page.locator("[data-testid=role-0]").count() == 0
    seats = page.locator("[data-testid=seats]").inner_text()
    assert "Ben (greedy bot)" in seats and "Cy (random bot)" in seats
    root.screenshot(path=str(artifact("table-words.png")))
    assert page.errors == []
