"""The exact swat-risk odds (tenleave_widget.analysis.odds) against a naive brute force and
by laws."""

from __future__ import annotations

import copy
import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from naive_odds import (
    arrangements,
    assert_close,
    naive_moves,
    naive_odds,
    random_view,
    swat_queue,
    unknown_groups,
)

from tenleave_widget.analysis.odds import move_evaluation, queue_outs, seat_odds, sketch_view
from tenleave_widget.engine.game import Game

LIMIT = 20_000  # joint arrangements above which the naive check is left to the hard cases


def naive_full(view: dict[str, Any], exact: bool = False) -> dict[str, Any]:
    want = naive_odds(view, exact)
    if view["seat"] is not None and view["to_move"] == view["seat"] and not view["finished"]:
        want["moves"] = naive_moves(view, exact)
    return want


def played_view(seed: int) -> dict[str, Any]:
    """A view of a random seat (sometimes the teacher's) in a random game by random turns."""
    rng = random.Random(seed)
    seats = rng.randint(2, 5)
    g = Game(seats, seed=seed, first=rng.randrange(seats))
    stop = rng.randint(0, 10 * seats)
    while not g.finished and g.turns_applied < stop:
        lt = g.legal_turns
        g.apply(lt[rng.randrange(len(lt))])
    seat = None if rng.random() < 0.05 else rng.randrange(seats)
    if rng.random() < 0.4 and g.to_move is not None:
        seat = g.to_move
    return g.view(seat)


def played_views(count: int, seed0: int) -> list[dict[str, Any]]:
    views = []
    seed = seed0
    while len(views) < count:
        v = played_view(seed)
        seed += 1
        if arrangements(v) <= LIMIT:
            views.append(v)
    return views


def synthetic_views(count: int, seed: int, **kw: Any) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    views = []
    while len(views) < count:
        v = random_view(rng, full=len(views) % 4 == 0, **kw)
        if arrangements(v) <= LIMIT:
            views.append(v)
    return views


# ------------------------------------------------------------------ against the brute force


@pytest.mark.parametrize("view", played_views(200, 1000), ids=lambda v: f"{len(v['dealt'])}p")
def test_matches_naive_on_played_positions(view: dict[str, Any]) -> None:
    assert_close(seat_odds(view), naive_full(view))


@pytest.mark.parametrize("view", synthetic_views(200, 7), ids=lambda v: f"{len(v['dealt'])}p")
def test_matches_naive_on_synthetic_positions(view: dict[str, Any]) -> None:
    assert_close(seat_odds(view), naive_full(view))


def test_played_positions_cover_the_interesting_cases() -> None:
    views = played_views(200, 1000)
    seats = Counter(len(v["dealt"]) for v in views)
    assert set(seats) == {2, 3, 4, 5}
    assert any(v["seat"] is None for v in views)
    own_peek = other_peek = full3 = 0
    for v in views:
        cards = [c for q in v["queues"] for c in q]
        own_peek += any(v["seat"] in c["peeked_by"] and c["owner"] != v["seat"] for c in cards)
        other_peek += any(set(c["peeked_by"]) - {v["seat"]} for c in cards)
        # a turn never ends with every queue full (that wakes SleepKid): 4+4+3 is the most
        full3 += len(v["queues"]) == 3 and sum(len(q) for q in v["queues"]) >= 10
    assert own_peek and other_peek and full3
    assert sum("moves" in seat_odds(v) for v in views) > 50


def hardest_views(count: int) -> list[dict[str, Any]]:
    """5 seats, 3 full queues, nothing known but the seat's own cards (~10^5 arrangements)."""
    views = []
    seed = 0
    while len(views) < count:
        rng = random.Random(seed)
        seed += 1
        view = random_view(rng, players=5, full=True, peek_rate=0.0, omniscient_rate=0.0)
        if arrangements(view) > 30_000:
            views.append(view)
    return views


@pytest.mark.parametrize("view", hardest_views(3), ids=lambda v: str(arrangements(v)))
def test_matches_naive_on_the_hardest_positions(view: dict[str, Any]) -> None:
    assert_close(seat_odds(view), naive_full(view))


@pytest.mark.parametrize("view", synthetic_views(25, 99), ids=lambda v: f"{len(v['dealt'])}p")
def test_matches_exact_fractions(view: dict[str, Any]) -> None:
    if arrangements(view) > 3000:
        pytest.skip("Fractions are slow; the float brute force covers it")
    assert_close(seat_odds(view), naive_full(view, exact=True), tol=1e-12)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32), st.integers(2, 5))
def test_matches_naive_property(seed: int, players: int) -> None:
    view = random_view(random.Random(seed), players=players)
    if arrangements(view) > LIMIT:
        return
    assert_close(seat_odds(view), naive_full(view))


# ------------------------------------------------------------------------------- the laws


def check_laws(odds: dict[str, Any]) -> None:
    for q in odds["queues"]:
        assert abs(sum(q["total"].values()) - 1) < 1e-12
        assert all(p > 0 for p in q["total"].values())
        assert abs(q["p_under"] + q["p_exact"] + q["p_over"] - 1) < 1e-12
        under = sum(p for t, p in q["total"].items() if int(t) < 10)
        assert abs(under - q["p_under"]) < 1e-12
        assert abs(q["total"].get("10", 0.0) - q["p_exact"]) < 1e-12
        for c in q["cards"]:
            assert abs(c["p_swatted"] + c["p_escapes"] + c["p_stays"] - 1) < 1e-12
            assert min(c["p_swatted"], c["p_escapes"], c["p_stays"]) >= 0
        if q["cards"]:
            assert q["cards"][0]["p_stays"] == 0
        else:
            assert q["total"] == {"0": 1.0} and q["p_under"] == 1.0


@pytest.mark.parametrize("seed", range(300))
def test_distributions_sum_to_one(seed: int) -> None:
    view = played_view(seed)
    odds = seat_odds(view)
    check_laws(odds)
    assert len(odds["expected_penalty"]) == len(view["dealt"])
    for m in odds.get("moves", []):
        assert m["expected_penalty"] >= 0


def with_peek(view: dict[str, Any], q: int, i: int, value: int) -> dict[str, Any]:
    """The view after the seat peeked card (q, i) and saw ``value``."""
    after = copy.deepcopy(view)
    card = after["queues"][q][i]
    card["value"] = value
    card["peeked_by"] = sorted(set(card["peeked_by"]) | {view["seat"]})
    return after


def mix(parts: list[tuple[float, Any]]) -> Any:
    """The probability-weighted mixture of several odds JSONs of one position."""
    first = parts[0][1]
    if isinstance(first, dict):
        keys = set().union(*(p.keys() for _, p in parts))
        return {k: mix([(w, p.get(k, 0.0)) for w, p in parts]) for k in keys}
    if isinstance(first, list):
        return [mix([(w, p[j]) for w, p in parts]) for j in range(len(first))]
    if isinstance(first, float) or (isinstance(first, int) and not isinstance(first, bool)):
        return sum(w * p for w, p in parts)
    return first


@pytest.mark.parametrize("seed", range(60))
def test_a_peek_collapses_the_odds(seed: int) -> None:
    """Averaging over what a peek can show gives back the odds without the peek,
    and after the peek the card's value is shown as known."""
    rng = random.Random(seed)
    view = random_view(rng, omniscient_rate=0.0)
    groups = unknown_groups(view)
    if not groups:
        return
    (owner, back), (where, pool) = sorted(groups.items())[rng.randrange(len(groups))]
    q, i = where[rng.randrange(len(where))]
    before = seat_odds(view)
    parts = []
    for value, count in sorted(Counter(pool).items()):
        peeked = seat_odds(with_peek(view, q, i, value))
        card = peeked["queues"][q]["cards"][i]
        assert card["value"] == value
        check_laws(peeked)
        parts.append((count / len(pool), peeked))
    mixed = mix(parts)
    for q2, (got, want) in enumerate(zip(mixed["queues"], before["queues"], strict=True)):
        for k in ("p_under", "p_exact", "p_over"):
            assert abs(got[k] - want[k]) < 1e-12, (q2, k)
        for t in set(got["total"]) | set(want["total"]):
            assert abs(got["total"].get(t, 0) - want["total"].get(t, 0)) < 1e-12
        for a, b in zip(got["cards"], want["cards"], strict=True):
            for k in ("p_swatted", "p_escapes", "p_stays"):
                assert abs(a[k] - b[k]) < 1e-12
    for a, b in zip(mixed["expected_penalty"], before["expected_penalty"], strict=True):
        assert abs(a - b) < 1e-12


@pytest.mark.parametrize("seed", range(40))
def test_the_teacher_view_is_certain(seed: int) -> None:
    """Seat null: every value known, so every probability is 0 or 1 and the expected
    penalties are the penalties of the actual swat."""
    rng = random.Random(seed)
    view = random_view(rng, omniscient_rate=1.0)
    odds = seat_odds(view)
    assert "moves" not in odds and odds["seat"] is None
    penalty = [0] * len(view["dealt"])
    for q, queue in enumerate(view["queues"]):
        values = [c["value"] for c in queue]
        total, kind, swatted, flipped = swat_queue(values, view["token_positions"])
        assert odds["queues"][q]["total"] == {str(total): 1.0}
        for i, c in enumerate(odds["queues"][q]["cards"]):
            assert c["value"] == values[i]
            assert c["p_swatted"] == (1.0 if i in swatted else 0.0)
            assert c["p_stays"] == (1.0 if i >= flipped else 0.0)
        for i in swatted:
            penalty[queue[i]["owner"]] += values[i]
    assert odds["expected_penalty"] == penalty


def test_two_seat_game_removes_a_two() -> None:
    """With 2 seats, the opponent's plain cards are {1, 1, 2, 5}: a 2 is 1 in 4."""
    view = sketch_view([["1:?"], []], seat=0, players=2)
    assert seat_odds(view)["queues"][0]["total"] == {"1": 0.5, "2": 0.25, "5": 0.25}
    view = sketch_view([["1:?"], []], seat=0, players=3)
    assert seat_odds(view)["queues"][0]["total"] == {"1": 0.4, "2": 0.4, "5": 0.2}


def test_flipped_and_known_cards_leave_the_pool() -> None:
    view = sketch_view([["1:?*", "1:4*"], []], seat=0, flipped=[(1, "5*"), (1, "3*")])
    # seat 1's marked cards left unknown: {3, 4}; the 4 on the table is known (peeked)
    assert seat_odds(view)["queues"][0]["total"] == {"7": 0.5, "8": 0.5}


def test_same_pool_in_two_queues_is_drawn_without_replacement() -> None:
    """Seat 1 has one 5 of plain back: it cannot be in both queues at once, but each
    queue's odds only need that queue's marginal."""
    view = sketch_view([["1:?"], ["1:?"]], seat=0, flipped=[(1, "1"), (1, "1"), (1, "2")])
    odds = seat_odds(view)  # pool {2, 5}
    assert odds["queues"][0]["total"] == {"2": 0.5, "5": 0.5}
    assert_close(odds, naive_full(view))


def test_inconsistent_view_is_rejected() -> None:
    view = sketch_view([["1:?*", "1:?*"], []], seat=0)
    view["safe"] = [{"owner": 1, "card": c} for c in ("3*", "3*", "4*", "4*")]
    with pytest.raises(ValueError, match="inconsistent"):
        seat_odds(view)


def test_empty_queues() -> None:
    view = sketch_view([[], []], seat=1)
    odds = seat_odds(view)
    assert (
        odds["queues"]
        == [{"p_under": 1.0, "p_exact": 0.0, "p_over": 0.0, "total": {"0": 1.0}, "cards": []}] * 2
    )
    assert odds["expected_penalty"] == [0.0, 0.0, 0.0]
    moves = odds["moves"]
    assert [m["play"] for m in moves] == [
        [c, q] for c in ("1", "2", "3*", "4*", "5", "5*") for q in (0, 1)
    ]
    assert [m["expected_penalty"] for m in moves] == [1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 5, 5]


# ----------------------------------------------------------------------- move evaluation


@pytest.mark.parametrize("seed", range(100))
def test_moves_match_seat_odds(seed: int) -> None:
    """Each play's value is the odds of the view with the card appended; wake is the
    odds' own expected penalty; the list is in the documented order."""
    rng = random.Random(seed)
    view = random_view(rng, omniscient_rate=0.0)
    view["to_move"] = view["seat"]
    seat = view["seat"]
    moves = move_evaluation(view)
    odds = seat_odds(view)
    assert odds["moves"] == moves
    hand = sorted(set(view["hands"][seat]["cards"]))
    room = [q for q, queue in enumerate(view["queues"]) if len(queue) < 4]
    plays = [m for m in moves if "play" in m]
    assert [m["play"] for m in plays] == [[c, q] for c in hand for q in room]
    wake = [m for m in moves if "wake" in m]
    if all(len(queue) >= 2 for queue in view["queues"]):
        assert wake == [{"wake": True, "expected_penalty": odds["expected_penalty"][seat]}]
        assert moves[-1] is wake[0]
    else:
        assert wake == []
    for m in plays:
        card, q = m["play"]
        after = copy.deepcopy(view)
        after["queues"][q].append(
            {
                "key": 99,
                "owner": seat,
                "back": "marked" if "*" in card else "plain",
                "value": int(card.rstrip("*")),
                "peeked_by": [],
            }
        )
        after["hands"][seat]["cards"].remove(card)
        after["to_move"] = None
        assert abs(seat_odds(after)["expected_penalty"][seat] - m["expected_penalty"]) < 1e-12


def test_moves_can_be_left_out() -> None:
    view = sketch_view([["1:?", "0:4*"], ["2:?*"]], seat=0)
    full = seat_odds(view)
    bare = seat_odds(view, moves=False)
    assert "moves" in full and "moves" not in bare
    assert bare == {k: v for k, v in full.items() if k != "moves"}


def test_no_moves_off_turn_or_when_finished() -> None:
    view = sketch_view([["1:?", "0:4*"], ["2:?*"]], seat=0)
    view["to_move"] = 1
    assert move_evaluation(view) == [] and "moves" not in seat_odds(view)
    view["to_move"], view["finished"] = 0, True
    assert move_evaluation(view) == [] and "moves" not in seat_odds(view)


# ------------------------------------------------------------------------------- outs


@pytest.mark.parametrize("seed", range(80))
def test_queue_outs(seed: int) -> None:
    rng = random.Random(seed)
    view = random_view(rng)
    odds = seat_odds(view)
    outs = queue_outs(view)
    assert len(outs) == len(view["queues"])
    for q, (o, queue) in enumerate(zip(outs, view["queues"], strict=True)):
        assert o["queue"] == q
        assert o["unknown"] == [i for i, c in enumerate(queue) if c["value"] is None]
        assert abs(o["p_exact"] - odds["queues"][q]["p_exact"]) < 1e-12
        assert abs(sum(out["p"] for out in o["outs"]) - o["p_exact"]) < 1e-12
        for out in o["outs"]:
            flipped = [v for v in out["values"] if v is not None]
            assert sum(flipped) == 10 and len(out["values"]) == len(queue)
            assert out["values"][: len(flipped)] == flipped
            for c, v in zip(queue, out["values"], strict=True):
                if v is not None:
                    assert c["value"] in (None, v)
        if len(queue) == 4:
            assert o["append"] == {}
            continue
        for value, p in o["append"].items():
            after = copy.deepcopy(view)
            after["queues"][q].append(
                {"key": 99, "owner": 0, "back": "plain", "value": value, "peeked_by": []}
            )
            after["dealt"][0] = after["dealt"][0] + [str(value)]
            want = seat_odds(after)["queues"][q]["p_exact"]
            assert abs(p - want) < 1e-12


