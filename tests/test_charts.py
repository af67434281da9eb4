"""The panel data (tenleave_widget/table/charts.py): what each panel says, its empty and
finished states, the timeline ending at the position shown, and that it is a function of
the seat's view only (a hidden card's value cannot change it)."""

from __future__ import annotations

import copy
import doctest
import json
import random
from pathlib import Path
from typing import Any

import pytest

from tenleave_widget import Game
from tenleave_widget.analysis.odds import seat_odds
from tenleave_widget.table import charts
from tenleave_widget.table.charts import TimelinePoint, hidden_panels, panel_data

GAMES = Path(__file__).resolve().parent.parent / "examples" / "games"


def _points(record: dict[str, Any], turns: int, seat: int | None) -> list[TimelinePoint]:
    out = []
    for t in range(turns + 1):
        g = Game.from_record(record, turns=t)
        exp = None
        if seat is not None:
            exp = g.penalty[seat] + seat_odds(g.view(seat), moves=False)["expected_penalty"][seat]
        out.append(TimelinePoint(t, g.penalty, exp))
    return out


def _data(record: dict[str, Any], turns: int, seat: int | None) -> charts.PanelData:
    g = Game.from_record(record, turns=turns)
    view = g.view(seat)
    return panel_data(view, seat_odds(view), _points(record, turns, seat))


def _record(n: int) -> dict[str, Any]:
    rec: dict[str, Any] = json.loads((GAMES / f"game-{n}-seats.json").read_text())
    return rec


def test_doctests() -> None:
    assert doctest.testmod(charts).failed == 0


def test_start_of_game_says_the_queues_are_empty() -> None:
    g = Game(["Ana", "Ben", "Cy"], seed=3)
    view = g.view(0)
    d = panel_data(view, seat_odds(view), [TimelinePoint(0, [0, 0, 0], 0.0)])
    assert d["state"] == "live"
    assert all(q["empty"] and q["p_under"] == 0.0 for q in d["outcome"])  # no "100% risk"
    assert d["cards"] == []
    assert d["moves"]["seat"] == 0 and len(d["moves"]["moves"]) == 12  # 6 cards x 2 queues
    assert sum(m["best"] for m in d["moves"]["moves"]) >= 1
    assert d["moves"]["moves"] == sorted(d["moves"]["moves"],
                                         key=lambda m: m["expected_penalty"])


def test_finished_game_says_so_and_names_the_winners() -> None:
    rec = _record(3)
    d = _data(rec, len(rec["turns"]), 0)
    g = Game.from_record(rec)
    assert d["state"] == "finished"
    assert d["outcome"] == [] and d["cards"] == [] and d["moves"]["moves"] == []
    names = [rec["players"][s] for s in g.winners or []]
    assert all(n in d["message"] for n in names) and "Game over" in d["message"]
    assert [row[-1] for row in d["timeline"]["penalty"]] == g.penalty
    assert d["timeline"]["turns"][-1] == len(rec["turns"])


def test_not_your_turn_says_whose_it_is() -> None:
    rec = _record(3)
    g = Game.from_record(rec, turns=4)
    seat = (g.to_move + 1) % 3  # type: ignore[operator]
    d = _data(rec, 4, seat)
    assert d["moves"]["moves"] == []
    assert rec["players"][g.to_move] in d["moves"]["empty"]  # type: ignore[index]


def test_timeline_ends_at_the_position_shown() -> None:
    """During a wake turn the table shows the swat's penalties: so does the timeline."""
    rec = _record(3)
    k = next(i for i, t in enumerate(rec["turns"]) if t.get("wake"))
    g = Game.from_record(rec, turns=k)
    woken = g.preview([{"kind": "wake"}])  # the turn in progress: woken, not played
    view = woken.view(0)
    d = panel_data(view, seat_odds(view), _points(rec, k, 0))
    assert [row[-1] for row in d["timeline"]["penalty"]] == view["penalty"]
    assert view["penalty"] != g.penalty  # the wake swatted someone


def test_panel_data_is_a_function_of_the_view_only() -> None:
    """Swapping two of an opponent's cards that the seat does not know (same back) leaves
    the seat's panel data identical."""
    rng = random.Random(7)
    checked = 0
    for _ in range(200):
        g = Game(3, seed=rng.randrange(10**6))
        while not g.finished and len(g.to_record()["turns"]) < rng.randrange(3, 14):
            g.apply(g.legal_turns.sample(rng))
        if g.finished:
            continue
        rec = g.to_record()
        seat = rng.randrange(3)
        turns = rec["turns"]
        for i in range(len(turns)):
            for j in range(i + 1, len(turns)):
                a, b = turns[i], turns[j]
                if (a["seat"] == b["seat"] != seat and a["play"][0] != b["play"][0]
                        and a["play"][0].endswith("*") == b["play"][0].endswith("*")):
                    other = copy.deepcopy(rec)
                    other["turns"][i]["play"][0], other["turns"][j]["play"][0] = (
                        b["play"][0], a["play"][0])
                    try:
                        Game.from_record(other)
                    except ValueError:
                        continue
                    seen = g.view(seat)
                    if any(c["value"] is not None and c["owner"] != seat
                           for q in seen["queues"] for c in q):
                        continue  # a peeked card: the seat may know one of them
                    if seen["safe"] or any(seen["swatted"]):
                        continue  # flipped values are public: keep to the simple case
                    mine = _data(rec, len(turns), seat)
                    theirs = _data(other, len(turns), seat)
                    assert json.dumps(mine, sort_keys=True) == json.dumps(theirs, sort_keys=True)
                    checked += 1
                    break
            else:
                continue
            break
    assert checked >= 20


def test_hidden_panels_hold_nothing() -> None:
    d = hidden_panels(["Ana", "Ben"], ["red", "yellow"], "Pass the screen to Ben.")
    assert d["outcome"] == [] and d["cards"] == [] and d["moves"]["moves"] == []
    assert d["timeline"]["turns"] == [] and d["message"] == "Pass the screen to Ben."


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_panel_data_is_small(n: int) -> None:
    rec = _record(n)
    d = _data(rec, len(rec["turns"]) // 2, 0)
    assert len(json.dumps(d)) < 8_000  # a few KB a position, no chart library
