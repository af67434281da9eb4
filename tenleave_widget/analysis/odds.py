"""Exact swat-risk odds and move evaluation (RULES.md §9), a pure function of a seat view.

The only input is a ``tenleave-view/1`` seat view (``docs/view.md``). Under the viewing
seat's *uniform model*, the unknown values of seat o's cards of back b are a uniformly
random arrangement of what o was dealt of that back, minus what was flipped, minus the
face-down cards of o whose value the viewer knows. The cards on the table are then a
uniformly random ordered draw without replacement from that multiset, independent
across (owner, back).

Every number here is exact (up to floating-point rounding): it is a weighted sum over
the distinct values the unknown cards can take, never a sample. Every quantity asked
for (a queue's total, a card's fate, a seat's expected penalty) depends on one queue
only, and the swat handles each queue on its own, so each queue is enumerated on its
own: at most 4 cards, each with at most 5 possible values, pruned as soon as a running
total reaches 10. The marginal of a uniform arrangement on a subset of its places is a
uniform ordered draw, so this gives exactly the numbers of a brute force over every
joint arrangement of all the unknown multisets (``tests/naive_odds.py`` checks it).

>>> view = sketch_view([["1:?", "0:4*"], ["2:?*"]], seat=0, token="I+II")
>>> odds = seat_odds(view)
>>> odds["queues"][0]["total"]      # Ben's plain card is a 1, 2 or 5, in ratio 2:2:1
{'5': 0.4, '6': 0.4, '9': 0.2}
>>> odds["queues"][0]["cards"][1]["p_swatted"]     # my 4 is the highest unless Ben's is a 5
0.8
>>> [round(p, 3) for p in odds["expected_penalty"]]
[3.2, 1.0, 3.8]
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import TypedDict

from ..engine.cards import COLOURS, MARKED, PLAIN, Back, count_backs, split_back, value_and_back
from ..engine.rules import DEFAULT_RULES, DEFAULT_TOKENS, QUEUE_CAPACITY, TARGET
from ..engine.swat import swat
from ..engine.view import VIEW_FORMAT, Hand, SafeCard, TableCard, View, check_view, rules_view
from .worlds import Hidden

__all__ = [
    "CardOdds",
    "MoveOdds",
    "QueueOdds",
    "QueueOuts",
    "SeatOdds",
    "TARGET",
    "clear_cache",
    "move_evaluation",
    "queue_outs",
    "seat_odds",
    "sketch_view",
]


Pool = tuple[tuple[int, int], ...]
"""A multiset of values: sorted ``(value, count)`` pairs with count > 0."""
Leaf = tuple[float, int, tuple[int, ...]]
"""One outcome of a queue's flips: ``(probability, total, flipped values front first)``."""


class CardOdds(TypedDict):
    """The fate of one table card in a swat right now."""

    owner: int
    back: str
    value: int | None
    p_swatted: float
    p_escapes: float
    p_stays: float


class QueueOdds(TypedDict):
    """One queue's outcome in a swat right now; ``total`` maps str(total) to probability."""

    p_under: float
    p_exact: float
    p_over: float
    total: dict[str, float]
    cards: list[CardOdds]


class _MoveOddsBase(TypedDict):
    expected_penalty: float


class MoveOdds(_MoveOddsBase, total=False):
    """One decision of :func:`move_evaluation`: a ``play``, ``[notation, queue]`` (a JSON
    pair: :func:`~tenleave_widget.engine.turn.play_pair` reads it), or ``wake`` (true),
    and its ``expected_penalty``."""

    play: list[str | int]
    wake: bool


class SeatOdds(TypedDict, total=False):
    """The JSON of ``tenleave odds FILE --seat P``; ``moves`` only on P's turn."""

    seat: int | None
    token: str
    queues: list[QueueOdds]
    expected_penalty: list[float]
    moves: list[MoveOdds]


class QueueOut(TypedDict):
    """One way a queue's total can be exactly 10: ``values`` per card (None: stays)."""

    values: list[int | None]
    p: float


class QueueOuts(TypedDict):
    """The outs of one queue; see :func:`queue_outs`."""

    queue: int
    unknown: list[int]
    p_exact: float
    outs: list[QueueOut]
    append: dict[int, float]


# --------------------------------------------------------------------------- the model


_parse = value_and_back  # "4*" -> (4, "marked")


class _Model:
    """A seat view reduced to what the odds need.

    ``slots[q]`` encodes queue q front first: a value ``v > 0`` is a card whose value the
    seat knows, ``-(g + 1)`` an unknown card drawn from ``pools[g]`` (see
    :class:`~tenleave_widget.analysis.worlds.Hidden`).
    """

    __slots__ = ("seat", "n_seats", "positions", "slots", "owners", "pools", "view")

    def __init__(self, view: View) -> None:
        self.view = view
        self.seat: int | None = view["seat"]
        self.n_seats = len(view["dealt"])
        self.positions: tuple[int, ...] = tuple(view["token_positions"])
        hidden = Hidden(view)  # the table's unknown cards: what is left of their pools
        self.slots: list[list[int]] = hidden.slots
        self.owners: list[list[int]] = hidden.owners
        self.pools: list[Pool] = [tuple(c.items()) for c in hidden.counts]

    def queue_key(self, q: int) -> tuple[tuple[int, ...], tuple[Pool, ...]]:
        """Queue q's cards and pools, pools renumbered by first appearance (a cache key)."""
        local: dict[int, int] = {}
        row: list[int] = []
        for s in self.slots[q]:
            if s > 0:
                row.append(s)
            else:
                g = local.setdefault(s, len(local))
                row.append(-(g + 1))
        pools = tuple(self.pools[-s - 1] for s in local)
        return tuple(row), pools


# --------------------------------------------------------------------- one queue, exactly


@lru_cache(maxsize=1 << 14)
def _leaves(slots: tuple[int, ...], pools: tuple[Pool, ...]) -> tuple[Leaf, ...]:
    """Every distinct outcome of flipping a queue, with its probability.

    Flipping stops at a total >= 10 or at the queue's end (the kernel's
    :func:`~tenleave_widget.engine.swat.swat`, over every value an unknown card can take;
    the kernel then judges each leaf). A leaf is
    ``(probability, total, flipped values)``; the probabilities sum to 1.

    >>> _leaves((4, -1), (((1, 2), (2, 2), (5, 1)),))
    ((0.4, 5, (4, 1)), (0.4, 6, (4, 2)), (0.2, 9, (4, 5)))
    >>> _leaves((), ())
    ((1.0, 0, ()),)
    """
    n = len(slots)
    if n == 0:
        return ((1.0, 0, ()),)
    counts = [dict(p) for p in pools]
    sizes = [sum(c for _, c in p) for p in pools]
    out: list[Leaf] = []

    def walk(i: int, weight: float, total: int, values: tuple[int, ...]) -> None:
        s = slots[i]
        last = i == n - 1
        if s > 0:
            t = total + s
            if t >= TARGET or last:
                out.append((weight, t, values + (s,)))
            else:
                walk(i + 1, weight, t, values + (s,))
            return
        g = -s - 1
        count = counts[g]
        size = sizes[g]
        for v, c in tuple(count.items()):
            if c == 0:
                continue
            w = weight * c / size
            t = total + v
            if t >= TARGET or last:
                out.append((w, t, values + (v,)))
            else:
                count[v] = c - 1
                sizes[g] = size - 1
                walk(i + 1, w, t, values + (v,))
                count[v] = c
                sizes[g] = size

    walk(0, 1.0, 0, ())
    return tuple(out)


_QueueSummary = tuple[
    tuple[tuple[int, float], ...],  # (total, probability), ascending totals
    tuple[float, float, float],  # p_under, p_exact, p_over
    tuple[float, ...],  # p_swatted per card
    tuple[float, ...],  # p_escapes per card
    tuple[float, ...],  # p_stays per card
    tuple[float, ...],  # E[value * swatted] per card
]


@lru_cache(maxsize=1 << 14)
def _summary(
    slots: tuple[int, ...], pools: tuple[Pool, ...], positions: tuple[int, ...]
) -> _QueueSummary:
    """The odds of one queue: totals, outcome classes and every card's fate."""
    n = len(slots)
    totals: dict[int, float] = {}
    under = exact = over = 0.0
    hit = [0.0] * n
    esc = [0.0] * n
    stay = [0.0] * n
    cost = [0.0] * n
    # the swat kernel's rule (engine/swat.py) written out per outcome class: this loop runs
    # once per leaf, thousands per cold position; a kernel call per leaf made the hardest
    # positions about a third slower (bench_odds); tests/engine/test_swat.py checks it against
    # the kernel
    struck = tuple(p - 1 for p in positions)
    for w, t, values in _leaves(slots, pools):
        totals[t] = totals.get(t, 0.0) + w
        k = len(values)
        if t < TARGET:  # the highest flipped card(s) swatted
            under += w
            top = max(values, default=0)
            for i in range(k):
                v = values[i]
                if v == top:
                    hit[i] += w
                    cost[i] += w * v
                else:
                    esc[i] += w
        elif t == TARGET:  # swing and miss
            exact += w
            for i in range(k):
                esc[i] += w
        else:  # the token's positions swatted
            over += w
            for i in range(k):
                if i in struck:
                    hit[i] += w
                    cost[i] += w * values[i]
                else:
                    esc[i] += w
        for i in range(k, n):
            stay[i] += w
    return (
        tuple(sorted(totals.items())),
        (under, exact, over),
        tuple(hit),
        tuple(esc),
        tuple(stay),
        tuple(cost),
    )


@lru_cache(maxsize=1 << 14)
def _append_costs(
    slots: tuple[int, ...],
    pools: tuple[Pool, ...],
    positions: tuple[int, ...],
    mine: tuple[bool, ...],
    values: tuple[int, ...],
) -> tuple[float, ...]:
    """The viewer's expected penalty from one queue after it plays a card at the back.

    ``mine`` marks the viewer's cards; one result per value in ``values``. The outcome
    table of the queue as it is is reused: the new card is flipped only where every
    card before it was flipped with a total below 10.
    """
    n = len(slots)
    settled = 0.0
    open_leaves: list[Leaf] = []
    for leaf in _leaves(slots, pools):
        w, t, flipped = leaf
        if len(flipped) == n and t < TARGET:
            open_leaves.append(leaf)
        else:
            settled += w * sum(flipped[i] for i in swat(flipped, positions)[2] if mine[i])
    results: list[float] = []
    for v in values:
        acc = settled
        for w, _, flipped in open_leaves:
            full = flipped + (v,)
            acc += w * sum(full[i] for i in swat(full, positions)[2] if i == n or mine[i])
        results.append(acc)
    return tuple(results)


# ----------------------------------------------------------------------- the public API


def clear_cache() -> None:
    """Forget the memoised per-queue tables (they are exact; this only frees memory).

    A queue's table depends only on its cards, their pools and the token, so it is
    memoised (bounded LRU) and shared by every position and seat that shows the same
    queue. The benchmark clears it before each timed call to measure the cold path.
    """
    _leaves.cache_clear()
    _summary.cache_clear()
    _append_costs.cache_clear()


def _queue_costs(model: _Model, q: int) -> tuple[_QueueSummary, list[float]]:
    """Queue q's summary and each seat's expected penalty from it."""
    slots, pools = model.queue_key(q)
    summary = _summary(slots, pools, model.positions)
    per_seat = [0.0] * model.n_seats
    for owner, c in zip(model.owners[q], summary[5], strict=True):
        per_seat[owner] += c
    return summary, per_seat


def seat_odds(view: View, moves: bool = True) -> SeatOdds:
    """The swat-risk odds of RULES.md §9 for the seat of ``view`` (the ``tenleave odds`` JSON).

    Only the view is read: the odds are exact over every deal of the cards the seat
    does not know (``docs/methods/odds.md``).

    Args:
        view: one seat's view (``tenleave-view/1``), as
            :meth:`~tenleave_widget.engine.game.Game.view` gives it; it is not checked
            again (:func:`~tenleave_widget.position_odds` reads a record or a game).
        moves: include ``moves`` (see :func:`move_evaluation`), each legal play's
            expected penalty, when it is the viewing seat's turn and the game is not
            over.

    Returns:
        Per queue its outcome, total and each card's fate; each seat's expected
        penalty; and on the seat's turn ``moves``
        (:class:`~tenleave_widget.analysis.odds.SeatOdds`).

    Example:
        >>> view = sketch_view([["0:5", "1:?*"], []], seat=0, token="II+III")
        >>> odds = seat_odds(view)
        >>> odds["queues"][0]["total"], odds["queues"][1]["total"]
        ({'8': 0.4, '9': 0.4, '10': 0.2}, {'0': 1.0})
        >>> odds["queues"][0]["cards"][0]["p_swatted"], odds["expected_penalty"]
        (0.8, [4.0, 0.0, 0.0])
    """
    model = _Model(check_view(view))
    queues: list[QueueOdds] = []
    penalty = [0.0] * model.n_seats
    by_queue: list[list[float]] = []
    for q, cards in enumerate(view["queues"]):
        summary, per_seat = _queue_costs(model, q)
        by_queue.append(per_seat)
        totals, (under, exact, over), hit, esc, stay, _ = summary
        for s, c in enumerate(per_seat):
            penalty[s] += c
        queues.append(
            {
                "p_under": under,
                "p_exact": exact,
                "p_over": over,
                "total": {str(t): p for t, p in totals},
                "cards": [
                    {
                        "owner": card["owner"],
                        "back": card["back"],
                        "value": card["value"],
                        "p_swatted": hit[i],
                        "p_escapes": esc[i],
                        "p_stays": stay[i],
                    }
                    for i, card in enumerate(cards)
                ],
            }
        )
    result: SeatOdds = {
        "seat": model.seat,
        "token": view["token"],
        "queues": queues,
        "expected_penalty": penalty,
    }
    if moves and _on_turn(view):
        assert model.seat is not None
        result["moves"] = _moves(model, [c[model.seat] for c in by_queue])
    return result


def _on_turn(view: View) -> bool:
    seat = view["seat"]
    return seat is not None and not view["finished"] and view["to_move"] == seat


def move_evaluation(view: View) -> list[MoveOdds]:
    """The viewing seat's expected penalty of a swat right after each of its legal plays.

    One entry ``{"play": [notation, queue], "expected_penalty": f}`` per distinct card in
    the seat's hand (sorted) x queue with room (ascending), then ``{"wake": True,
    "expected_penalty": f}`` when every queue holds at least 2 cards. Lower is better.
    Empty when it is not the viewing seat's turn.

    >>> queues = [["1:?", "2:?*"], ["2:?*", "1:?*"]]
    >>> view = sketch_view(queues, seat=0, hand=["1", "4*"], token="III+IV")
    >>> [(m.get("play"), round(m["expected_penalty"], 3)) for m in move_evaluation(view)]
    [(['1', 0], 0.0), (['1', 1], 0.0), (['4*', 0], 2.88), (['4*', 1], 3.2), (None, 0.0)]
    """
    if not _on_turn(view):
        return []
    return _moves(_Model(view))


def _moves(model: _Model, costs: list[float] | None = None) -> list[MoveOdds]:
    """The move evaluation; ``costs``: the seat's expected penalty per queue, if known."""
    seat = model.seat
    assert seat is not None
    view = model.view
    capacity: int = view.get("queue_capacity", 4)
    cards = view["hands"][seat]["cards"] or []
    notations = sorted(set(cards), key=lambda n: (_parse(n)[0], n))
    if costs is None:
        costs = [_queue_costs(model, q)[1][seat] for q in range(len(model.slots))]
    moves: list[MoveOdds] = []
    after: dict[int, dict[int, float]] = {}
    values = tuple(sorted({_parse(n)[0] for n in notations}))
    for q, slots in enumerate(model.slots):
        if len(slots) >= capacity:
            continue
        key_slots, pools = model.queue_key(q)
        mine = tuple(owner == seat for owner in model.owners[q])
        new = _append_costs(key_slots, pools, model.positions, mine, values)
        after[q] = dict(zip(values, new, strict=True))
    for notation in notations:
        value = _parse(notation)[0]
        for q in after:
            total = math.fsum(c for r, c in enumerate(costs) if r != q) + after[q][value]
            moves.append({"play": [notation, q], "expected_penalty": total})
    if all(len(slots) >= 2 for slots in model.slots):
        moves.append({"wake": True, "expected_penalty": math.fsum(costs)})
    return moves


def queue_outs(view: View) -> list[QueueOuts]:
    """Per queue, the values of its unknown cards that would make a swat total exactly 10.

    For queue q: ``unknown`` lists the positions (0 = front) of the cards whose value
    the seat does not know; ``outs`` lists every way the flips can total exactly 10:
    ``values`` gives, per card front first, the value it must have (known cards show
    their own value) or ``None`` for a card that is not flipped, with ``p`` its
    probability; ``p_exact`` is their sum. ``append`` maps each value 1..5 to the
    probability that a swat totals exactly 10 after one more card of that value is
    played at the back (present only when the queue has room).

    >>> view = sketch_view([["0:4*", "1:?"]], seat=0, players=2)
    >>> outs = queue_outs(view)[0]
    >>> outs["unknown"], outs["outs"], outs["append"][1]
    ([1], [], 0.25)
    >>> view = sketch_view([["0:5*", "1:?", "2:?*"]], seat=0)
    >>> [(o["values"], o["p"]) for o in queue_outs(view)[0]["outs"]]
    [([5, 1, 4], 0.16), ([5, 2, 3], 0.16), ([5, 5, None], 0.2)]
    """
    model = _Model(view)
    capacity: int = view.get("queue_capacity", 4)
    result: list[QueueOuts] = []
    for q, raw in enumerate(model.slots):
        slots, pools = model.queue_key(q)
        outs: list[QueueOut] = []
        exact = 0.0
        append: dict[int, float] = {}
        for w, t, flipped in _leaves(slots, pools):
            if t == TARGET:
                padded: list[int | None] = list(flipped)
                padded += [None] * (len(slots) - len(flipped))
                outs.append({"values": padded, "p": w})
                exact += w
            elif len(raw) < capacity and len(flipped) == len(slots) and t < TARGET:
                need = TARGET - t
                append[need] = append.get(need, 0.0) + w
        if len(raw) < capacity:
            append = {v: exact + append.get(v, 0.0) for v in range(1, 6)}
        result.append(
            {
                "queue": q,
                "unknown": [i for i, s in enumerate(raw) if s < 0],
                "p_exact": exact,
                "outs": outs,
                "append": append,
            }
        )
    return result


# ------------------------------------------------------------------ a position sketcher

_TOKENS = {k: list(v) for k, v in DEFAULT_TOKENS.items()}


def sketch_view(
    queues: Sequence[Iterable[str]],
    seat: int | None = 0,
    players: int = 3,
    token: str = "I+II",
    hand: Sequence[str] | None = None,
    flipped: Sequence[tuple[int, str]] = (),
) -> View:
    """A hand-made seat view, for examples and tests: not every sketch is a reachable game.

    Table cards are written ``"owner:card"``: ``"1:4*"`` is seat 1's 4 whose value the
    viewer knows, ``"1:?*"`` / ``"1:?"`` an unknown marked / plain card of seat 1. Every
    seat holds its default deck (less one ``2`` with 2 players) minus its table cards and
    its ``flipped`` ones ``(owner, card)`` (all counted as escaped). ``hand``, when given,
    is the viewing seat's hand (else everything it has left); it is the seat's turn.

    >>> v = sketch_view([["0:3*", "1:?"]], seat=0, players=2)
    >>> v["queues"][0][1]["value"], v["hands"][0]["cards"], v["dealt"][1][:3]
    (None, ['1', '1', '2', '3*', '4*', '4*', '5', '5*'], ['1', '1', '2'])
    """
    deck = list(DEFAULT_RULES.dealt(players))
    dealt = [sorted(deck) for _ in range(players)]
    left = [Counter(deck) for _ in range(players)]
    unknown_left: list[Counter[str]] = [Counter() for _ in range(players)]
    table: list[list[TableCard]] = []
    key = 0
    for queue in queues:
        row: list[TableCard] = []
        for text in queue:
            owner_text, card = text.split(":")
            owner = int(owner_text)
            back: Back
            value: int | None
            if card.startswith("?"):
                back = MARKED if split_back(card)[1] else PLAIN
                unknown_left[owner][back] += 1
                value = None
            else:
                value, back = _parse(card)
                left[owner][card] -= 1
            row.append({"key": key, "owner": owner, "back": back, "value": value, "peeked_by": []})
            key += 1
        table.append(row)
    safe: list[SafeCard] = []
    for owner, card in flipped:
        left[owner][card] -= 1
        safe.append({"owner": owner, "card": card})
    hands: list[Hand] = []
    for s in range(players):
        cards = sorted(left[s].elements())
        marked, plain = count_backs(cards)
        marked -= unknown_left[s]["marked"]
        plain -= unknown_left[s]["plain"]
        shown = None
        if s == seat:
            shown = sorted(hand) if hand is not None else cards
            marked, plain = count_backs(shown)
        elif seat is None:
            shown = cards
        hands.append({"size": marked + plain, "marked": marked, "plain": plain, "cards": shown})
    return {
        "format": VIEW_FORMAT,
        "seat": seat,
        "players": [f"P{s}" for s in range(players)],
        "colours": list(COLOURS[:players]),
        "first": 0,
        "rules": rules_view(DEFAULT_RULES),
        "queue_capacity": QUEUE_CAPACITY,
        "turns_applied": 0,
        "to_move": seat,
        "finished": False,
        "token": token,
        "token_positions": _TOKENS[token],
        "queues": table,
        "hands": hands,
        "dealt": dealt,
        "swatted": [[] for _ in range(players)],
        "safe": safe,
        "penalty": [0] * players,
        "winners": None,
        "events": [],
    }
