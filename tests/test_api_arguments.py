"""Every argument of the public functions, given an odd value: each call returns or
raises the project's typed error (a ``ValueError``) in one line, and leaves what it was
handed as it was. The values are the kinds that broke calls before: ``None``, booleans,
negative, huge and non-finite numbers, empty and odd strings, containers, and objects
that are not JSON (an ``object()``, a ``Game``)."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import tenleave_widget as tw
from tenleave_widget import Game
from tenleave_widget.analysis import analyse as an
from tenleave_widget.analysis.infer import infer, with_history
from tenleave_widget.analysis.lookahead import evaluate_view

RECORD = str(Path(__file__).resolve().parent.parent / "examples" / "games" / "game-3-seats.json")
ODD: list[Any] = [None, True, -1, 0, 10**400, 1.5, float("nan"), float("inf"), "", "x",
                  "\x00", [], {}, [1, 2], object(), Game(2, seed=3)]
SMALL = an.Settings(first=16, batch=16, cap=16, judge_cap=16)


def targets() -> list[tuple[str, Callable[..., Any], dict[str, Any]]]:
    """Each public function with arguments it accepts (an odd value replaces one)."""
    g = Game(3, seed=1)
    v, vh = g.view(0), with_history(g, 0)
    return [
        ("Game", Game, {"players": 3, "first": 0, "seed": 1, "defense": None,
                        "strict_defense": False, "notes": None, "rules": None}),
        ("seat_odds", tw.seat_odds, {"view": v, "moves": True}),
        ("position_odds", tw.position_odds, {"record": RECORD, "seat": 0, "turns": 3,
                                             "model": "uniform", "seed": 0}),
        ("position_odds inferred", tw.position_odds, {
            "record": RECORD, "seat": 0, "turns": 3, "model": "inferred", "beta": "fitted",
            "seed": 0, "samples": 64, "cost": "fitted"}),
        ("position", tw.position, {"record": RECORD, "turns": 3}),
        ("evaluate", tw.evaluate, {"record_or_game": RECORD, "seat": 0, "turns": 3,
                                   "budget": 16, "seed": 1}),
        ("odds_figures", tw.odds_figures, {"view": v}),
        ("infer", infer, {"view": vh, "beta": "fitted", "seed": 0, "samples": 64,
                          "cost": "fitted"}),
        ("analyse", an.analyse, {"view": v, "settings": SMALL, "model": "uniform", "seed": 0,
                                 "objective": "margin"}),
        ("judge", an.judge, {"view": v, "played": {"seat": 0, "play": ["1", 0]},
                             "settings": SMALL, "seed": 0}),
        ("evaluate_view", evaluate_view, {"view": v, "budget": 16, "seed": 1}),
        ("load_record", tw.load_record, {"path": RECORD}),
        ("loads_record", tw.loads_record, {"text": "{}"}),
        ("parse_record", tw.parse_record, {"obj": g.to_record()}),
        ("replay", tw.replay, {"record": RECORD}),
        ("play", tw.play, {"players": 3, "human": 0, "bots": None, "seed": 1, "bot_delay": 0,
                           "coach": "after"}),
        ("hotseat", tw.hotseat, {"players": 3, "seed": 1}),
    ]


@pytest.mark.parametrize("name", [t[0] for t in targets()])
def test_every_argument_refuses_an_odd_value_by_name(name: str) -> None:
    ((_, call, good),) = [t for t in targets() if t[0] == name]
    handed = copy.deepcopy({k: v for k, v in good.items() if not callable(v)})
    before = json.dumps(handed, sort_keys=True, default=repr)
    call(**good)  # the arguments it is handed work (else every odd call fails for them)
    for arg in good:
        for odd in ODD:
            try:
                call(**{**good, arg: odd})
            except tw.TenLeaveError as e:
                text = str(e)
                assert text and "\n" not in text.strip(), (name, arg, odd, text)
            except Exception as e:  # noqa: BLE001 - what the test is about
                pytest.fail(f"{name}({arg}={odd!r:.40}) raised {type(e).__name__}: {e}")
    after = {k: v for k, v in good.items() if not callable(v)}
    assert json.dumps(after, sort_keys=True, default=repr) == before  # nothing changed
