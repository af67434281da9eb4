"""The golden odds cases (an independent implementation of RULES.md §9) to 1e-9."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from naive_odds import assert_close, naive_moves, naive_odds

from tenleave_widget.analysis.odds import move_evaluation, seat_odds
from tenleave_widget.engine.game import Game

FILES = sorted((Path(__file__).parents[1] / "golden" / "odds").glob("*.json"))


def load(path: Path) -> tuple[dict[str, Any], dict[str, Any]]:
    case = json.loads(path.read_text())
    game = Game.from_record(case["record"], turns=case["turns"])
    return game.view(case["seat"]), case


def test_there_are_golden_cases() -> None:
    assert len(FILES) >= 30


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_golden_odds(path: Path) -> None:
    view, case = load(path)
    got = seat_odds(view)
    assert_close(got, case["expect"])
    assert json.loads(json.dumps(got)) == got  # plain JSON, nothing else
    assert_close(move_evaluation(view), case["expect"].get("moves", []), path="$.moves")


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_golden_odds_naive(path: Path) -> None:
    """The brute force of the tests agrees with the golden cases too."""
    view, case = load(path)
    want = naive_odds(view)
    if "moves" in case["expect"]:
        want["moves"] = naive_moves(view)
    assert_close(want, case["expect"])
