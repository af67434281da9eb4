"""A deliberately naive, slow and obviously correct reference for the swat-risk odds.

It enumerates every joint arrangement of the unknown multisets: for each (owner, back)
whose cards the viewer cannot see on the table, every ordered choice of distinct
*physical* cards from the multiset (``itertools.permutations`` of the labelled cards,
each equally likely; equal value tuples are merged with their count as weight), and the
product of these choices over all (owner, back). For each
joint arrangement it plays the swat of RULES.md §4 on every queue and accumulates.
Nothing is shared with ``tenleave_widget.analysis.odds`` (not even the card parser).

Also here: ``random_view``, a generator of random consistent seat views built directly
from the view contract (docs/view.md), independent of the engine.
"""

from __future__ import annotations

import copy
import itertools
import random
from collections import Counter
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

DECK = ["1", "1", "2", "2", "3*", "3*", "4*", "4*", "5*", "5"]
TOKENS = {"I+II": [1, 2], "II+III": [2, 3], "III+IV": [3, 4], "I+IV": [1, 4]}


def value_of(card: str) -> int:
    return int(card.replace("*", ""))


def back_of(card: str) -> str:
    return "marked" if "*" in card else "plain"


def swat_queue(values: list[int], positions: list[int]) -> tuple[int, str, list[int], int]:
    """RULES.md §4 on one queue: (total, outcome, swatted indices, number flipped)."""
    total = 0
    flipped = 0
    for v in values:
        total += v
        flipped += 1
        if total >= 10:
            break
    if flipped == 0:
        return 0, "under", [], 0
    if total < 10:
        top = max(values[:flipped])
        return total, "under", [i for i in range(flipped) if values[i] == top], flipped
    if total == 10:
        return total, "exact", [], flipped
    return total, "over", [p - 1 for p in positions if p - 1 < flipped], flipped


def unknown_groups(
    view: Mapping[str, Any],
) -> dict[tuple[int, str], tuple[list[tuple[int, int]], list[int]]]:
    """(owner, back) -> (table places of its unknown cards, the multiset of values left)."""
    places: dict[tuple[int, str], list[tuple[int, int]]] = {}
    for q, queue in enumerate(view["queues"]):
        for i, card in enumerate(queue):
            if card["value"] is None:
                places.setdefault((card["owner"], card["back"]), []).append((q, i))
    groups = {}
    for (owner, back), where in places.items():
        pool = Counter(value_of(c) for c in view["dealt"][owner] if back_of(c) == back)
        for c in view["swatted"][owner]:
            if back_of(c) == back:
                pool[value_of(c)] -= 1
        for entry in view["safe"]:
            if entry["owner"] == owner and back_of(entry["card"]) == back:
                pool[value_of(entry["card"])] -= 1
        for queue in view["queues"]:
            for card in queue:
                if card["owner"] == owner and card["back"] == back and card["value"] is not None:
                    pool[card["value"]] -= 1
        hand = view["hands"][owner]["cards"]
        if hand is not None:
            for c in hand:
                if back_of(c) == back:
                    pool[value_of(c)] -= 1
        assert all(n >= 0 for n in pool.values())
        groups[(owner, back)] = (where, sorted(pool.elements()))
    return groups


def naive_odds(view: Mapping[str, Any], exact: bool = False) -> dict[str, Any]:
    """The odds JSON without ``moves``, by enumerating every joint arrangement."""
    one: Any = Fraction(1) if exact else 1.0
    zero: Any = one - one
    groups = unknown_groups(view)
    choices = []
    for where, pool in groups.values():
        # every ordered choice of physical cards is equally likely; group equal values
        options = Counter(itertools.permutations(pool, len(where)))
        size = sum(options.values())
        choices.append([(where, values, one * n / size) for values, n in options.items()])
    positions = view["token_positions"]
    n_seats = len(view["dealt"])
    queues = view["queues"]
    totals: list[Counter[int]] = [Counter() for _ in queues]
    outcome: list[Counter[str]] = [Counter() for _ in queues]
    fate = [[Counter() for _ in queue] for queue in queues]
    penalty = [zero] * n_seats
    for joint in itertools.product(*choices):
        weight = one
        values = [[card["value"] for card in queue] for queue in queues]
        for where, vals, w in joint:
            weight *= w
            for (q, i), v in zip(where, vals, strict=True):
                values[q][i] = v
        for q, queue in enumerate(queues):
            total, kind, swatted, flipped = swat_queue(values[q], positions)
            totals[q][total] += weight
            outcome[q][kind] += weight
            for i, card in enumerate(queue):
                if i in swatted:
                    fate[q][i]["swatted"] += weight
                    penalty[card["owner"]] += weight * values[q][i]
                elif i < flipped:
                    fate[q][i]["escapes"] += weight
                else:
                    fate[q][i]["stays"] += weight
    return {
        "seat": view["seat"],
        "token": view["token"],
        "queues": [
            {
                "p_under": outcome[q]["under"],
                "p_exact": outcome[q]["exact"],
                "p_over": outcome[q]["over"],
                "total": {str(t): p for t, p in sorted(totals[q].items()) if p},
                "cards": [
                    {
                        "owner": card["owner"],
                        "back": card["back"],
                        "value": card["value"],
                        "p_swatted": fate[q][i]["swatted"],
                        "p_escapes": fate[q][i]["escapes"],
                        "p_stays": fate[q][i]["stays"],
                    }
                    for i, card in enumerate(queue)
                ],
            }
            for q, queue in enumerate(queues)
        ],
        "expected_penalty": penalty,
    }


def naive_moves(view: dict[str, Any], exact: bool = False) -> list[dict[str, Any]]:
    """The moves list: for each play, build the view after it and run ``naive_odds``."""
    seat = view["seat"]
    hand = view["hands"][seat]["cards"]
    moves: list[dict[str, Any]] = []
    for card in sorted(set(hand)):
        for q, queue in enumerate(view["queues"]):
            if len(queue) >= view["queue_capacity"]:
                continue
            after = copy.deepcopy(view)
            after["queues"][q].append(
                {
                    "key": 999,
                    "owner": seat,
                    "back": back_of(card),
                    "value": value_of(card),
                    "peeked_by": [],
                }
            )
            after["hands"][seat]["cards"].remove(card)
            penalty = naive_odds(after, exact)["expected_penalty"][seat]
            moves.append({"play": [card, q], "expected_penalty": penalty})
    if all(len(queue) >= 2 for queue in view["queues"]):
        moves.append(
            {"wake": True, "expected_penalty": naive_odds(view, exact)["expected_penalty"][seat]}
        )
    return moves


def arrangements(view: Mapping[str, Any]) -> int:
    """How many joint arrangements ``naive_odds`` walks through."""
    count = 1
    for where, pool in unknown_groups(view).values():
        count *= len(set(itertools.permutations(pool, len(where))))
    return count


def random_view(
    rng: random.Random,
    players: int | None = None,
    full: bool = False,
    peek_rate: float = 0.25,
    omniscient_rate: float = 0.03,
) -> dict[str, Any]:
    """A random consistent seat view (not necessarily reachable by play).

    ``full``: every queue holds 4 cards (the hardest positions when few are known).
    """
    n = players if players is not None else rng.randint(2, 5)
    deck = list(DECK)
    if n == 2:
        deck.remove("2")
    dealt = [sorted(deck) for _ in range(n)]
    left = [list(deck) for _ in range(n)]
    for cards in left:
        rng.shuffle(cards)
    seat: int | None = None if rng.random() < omniscient_rate else rng.randrange(n)
    n_queues = 2 if n <= 3 else 3
    swatted: list[list[str]] = [[] for _ in range(n)]
    safe: list[dict[str, Any]] = []
    if not full:
        for _ in range(rng.randint(0, 3 * n)):
            owner = rng.randrange(n)
            if len(left[owner]) > 1:
                card = left[owner].pop()
                if rng.random() < 0.3:
                    swatted[owner].append(card)
                else:
                    safe.append({"owner": owner, "card": card})
    queues: list[list[dict[str, Any]]] = []
    key = 0
    for _ in range(n_queues):
        length = 4 if full else rng.choice([0, 1, 2, 2, 3, 3, 4, 4, 4])
        queue = []
        for _ in range(length):
            owners = [o for o in range(n) if left[o]]
            owner = rng.choice(owners)
            card = left[owner].pop()
            peekers = sorted(s for s in range(n) if rng.random() < peek_rate / 2)
            known = seat is None or owner == seat or seat in peekers
            if seat is not None and seat != owner and rng.random() < peek_rate and not known:
                peekers = sorted(set(peekers) | {seat})
                known = True
            queue.append(
                {
                    "key": key,
                    "owner": owner,
                    "back": back_of(card),
                    "value": value_of(card) if known else None,
                    "peeked_by": peekers,
                }
            )
            key += 1
        queues.append(queue)
    hands = []
    for s in range(n):
        cards = sorted(left[s])
        marked = sum(1 for c in cards if c.endswith("*"))
        shown = cards if seat is None or s == seat else None
        hands.append(
            {"size": len(cards), "marked": marked, "plain": len(cards) - marked, "cards": shown}
        )
    token = rng.choice(sorted(TOKENS))
    to_move = (
        rng.randrange(n) if seat is None else (seat if rng.random() < 0.6 else rng.randrange(n))
    )
    if not left[to_move]:
        to_move = next((s for s in range(n) if left[s]), to_move)
    return {
        "format": "tenleave-view/1",
        "seat": seat,
        "players": [f"P{s}" for s in range(n)],
        "colours": ["red", "yellow", "green", "blue", "purple"][:n],
        "first": 0,
        "queue_capacity": 4,
        "turns_applied": key,
        "to_move": to_move,
        "finished": False,
        "token": token,
        "token_positions": TOKENS[token],
        "queues": queues,
        "hands": hands,
        "dealt": dealt,
        "swatted": [sorted(p) for p in swatted],
        "safe": safe,
        "penalty": [sum(value_of(c) for c in p) for p in swatted],
        "winners": None,
        "events": [],
    }


def assert_close(got: Any, want: Any, tol: float = 1e-9, path: str = "$") -> None:
    """Deep comparison with a tolerance for numbers; a missing ``total`` key means 0."""
    if isinstance(want, dict):
        assert isinstance(got, dict), f"{path}: {got!r} is not an object"
        if path.endswith(".total"):
            for k in set(got) | set(want):
                assert abs(float(got.get(k, 0)) - float(want.get(k, 0))) <= tol, (
                    f"{path}[{k}]: {got.get(k)} != {want.get(k)}"
                )
            return
        assert set(got) == set(want), f"{path}: keys {sorted(got)} != {sorted(want)}"
        for k in want:
            assert_close(got[k], want[k], tol, f"{path}.{k}")
    elif isinstance(want, list):
        assert isinstance(got, list) and len(got) == len(want), f"{path}: {got!r} != {want!r}"
        for i, (g, w) in enumerate(zip(got, want, strict=True)):
            assert_close(g, w, tol, f"{path}[{i}]")
    elif isinstance(want, bool) or want is None or isinstance(want, str):
        assert got == want and type(got) is type(want), f"{path}: {got!r} != {want!r}"
    elif isinstance(want, int) and (
        path.rsplit(".", 1)[-1] in ("seat", "owner", "value") or ".play[" in path
    ):
        assert got == want and type(got) is int, f"{path}: {got!r} != {want!r}"
    elif isinstance(want, (int, float, Fraction)):
        assert not isinstance(got, bool), f"{path}: {got!r} is a bool"
        assert isinstance(got, (int, float)), f"{path}: {got!r} is not a number"
        assert abs(float(got) - float(want)) <= tol, f"{path}: {got!r} != {want!r}"
    else:
        raise AssertionError(f"{path}: unexpected {want!r}")
