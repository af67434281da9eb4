"""The uniform model of a seat view (RULES.md §9), once: the pools and the worlds.

Under the viewing seat's *uniform model*, the unknown values of seat o's cards of back b
(face down on the table, and in o's hand) are a uniformly random arrangement of what o
was dealt of that back, less what the seat has seen: the flipped cards (swatted and
safe), the table cards whose value it knows, and the cards it sees in hands. The exact
odds (:mod:`~tenleave_widget.analysis.odds`) enumerate that model queue by queue; the
lookahead (:mod:`~tenleave_widget.analysis.lookahead`) samples whole worlds from it.
Both read the view through this module.

>>> from tenleave_widget.analysis.odds import sketch_view
>>> view = sketch_view([["1:?", "0:4*"], ["1:?*"]], seat=0, players=2)
>>> uniform_pools(view, owners=[1])[(1, "plain")]
{1: 2, 2: 1, 5: 1}
>>> hidden = Hidden(view, hands=True)
>>> hidden.keys, hidden.slots, hidden.in_hand
([(1, 'plain'), (1, 'marked')], [[-1, 4], [-2]], [3, 4])
>>> hidden.pools
[[1, 1, 2, 5], [3, 3, 4, 4, 5]]
>>> import random
>>> table, hands = hidden.deal(random.Random(1))  # one world
>>> table, hands
([[5], [4]], [[1, 2, 1], [5, 3, 3, 4]])
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Iterable

from ..engine.cards import MARKED, PLAIN, value_and_back
from ..engine.errors import InvalidViewError
from ..engine.view import View

__all__ = ["Deal", "Hidden", "Pools", "uniform_pools"]

Pools = dict[tuple[int, str], dict[int, int]]
"""Per (owner, back): value -> how many of that value the seat cannot place (counts > 0,
ascending values)."""

_BACKS = (PLAIN, MARKED)

Deal = Callable[[random.Random], tuple[list[list[int]], list[list[int]]]]
"""A world sampler: what :meth:`Hidden.deal` returns (per group of the view's
``Hidden(view, hands=True)``, the values of its table cards in table order and the rest of
its pool), from a generator. The lookahead takes one (``evaluate_view(..., deal=...)``) to
deal its worlds from another model than the uniform one (the ``reader`` bot's posterior)."""


def uniform_pools(view: View, owners: Iterable[int] | None = None) -> Pools:
    """The uniform model's pools: for each (owner, back), the values (with their counts) the
    viewing seat cannot place, i.e. what the owner was dealt of that back, less the
    flipped cards (swatted and safe), the table cards whose value the seat knows and the
    cards it sees in hands. The unknown cards of (owner, back) are a uniformly random
    draw from its pool. ``owners`` limits the pools to those seats.
    Raises :class:`InvalidViewError` when the view takes away more than was dealt.
    """
    seats = range(len(view["dealt"])) if owners is None else sorted(set(owners))
    left: Pools = {}
    for owner in seats:
        for back in _BACKS:
            left[(owner, back)] = {}
        for notation in view["dealt"][owner]:
            value, back = value_and_back(notation)
            pool = left[(owner, back)]
            pool[value] = pool.get(value, 0) + 1

    def take(owner: int, value: int, back: str) -> None:
        pool = left.get((owner, back))
        if pool is not None:
            pool[value] = pool.get(value, 0) - 1

    hands = view["hands"]
    for owner in seats:
        for notation in view["swatted"][owner]:
            take(owner, *value_and_back(notation))
        for notation in hands[owner].get("cards") or ():
            take(owner, *value_and_back(notation))
    for entry in view["safe"]:
        take(entry["owner"], *value_and_back(entry["card"]))
    for queue in view["queues"]:
        for card in queue:
            if card["value"] is not None:
                take(card["owner"], int(card["value"]), card["back"])
    for (owner, back), pool in left.items():
        if any(c < 0 for c in pool.values()):
            raise InvalidViewError(
                f"inconsistent view: seat {owner}'s {back} cards are more than were dealt"
            )
        left[(owner, back)] = {v: c for v, c in sorted(pool.items()) if c > 0}
    return left


class Hidden:
    """The cards a seat view does not show, grouped by (owner, back): group ``g`` is
    ``keys[g]``, its cards a uniform draw from ``counts[g]`` (``pools[g]``: the same
    values listed, ascending).

    ``slots[q]`` is queue q front first: the value of a card the seat knows, or
    ``-1 - g`` for an unknown card of group g; ``owners[q]`` the cards' owners. The
    groups are numbered in order of first appearance on the table (queue by queue,
    front first); with ``hands`` the other seats' hands follow (seat by seat,
    marked then plain: a hand's cards are unknown too, ``in_hand[g]`` of them), and the
    pools must hold exactly the unknown cards (and every seat's cards are checked).
    Without ``hands`` (the odds: only the table matters) a pool must be able to fill the
    table.
    Raises :class:`InvalidViewError` when the view is inconsistent.
    """

    __slots__ = ("keys", "slots", "owners", "on_table", "in_hand", "counts", "_pools")

    def __init__(self, view: View, hands: bool = False) -> None:
        group_of: dict[tuple[int, str], int] = {}
        keys: list[tuple[int, str]] = []
        on_table: list[int] = []
        slots: list[list[int]] = []
        owners: list[list[int]] = []
        # one pass over the table, each card's owner read once, and the pools listed only
        # when asked for: the exact odds build a Hidden per call, and this module had cost
        # them 3.5% more instructions per call (benchmarks/bench_odds_instructions.py)
        for queue in view["queues"]:
            row: list[int] = []
            whose: list[int] = []
            for card in queue:
                owner = int(card["owner"])
                whose.append(owner)
                value = card["value"]
                if value is not None:
                    row.append(int(value))
                    continue
                key: tuple[int, str] = (owner, card["back"])
                g = group_of.get(key)
                if g is None:
                    g = group_of[key] = len(keys)
                    keys.append(key)
                    on_table.append(0)
                on_table[g] += 1
                row.append(-1 - g)
            slots.append(row)
            owners.append(whose)
        in_hand = [0] * len(keys)
        seen = view["hands"]
        if hands:
            seat = view.get("seat")
            for o in range(len(seen)):
                if o == seat:
                    continue
                for back in ("marked", "plain"):
                    count = int(seen[o][back])
                    if not count:
                        continue
                    g = group_of.get((o, back))
                    if g is None:
                        g = group_of[(o, back)] = len(keys)
                        keys.append((o, back))
                        on_table.append(0)
                        in_hand.append(0)
                    in_hand[g] = count
        self.keys = keys
        self.slots = slots
        self.owners = owners
        self.on_table = on_table
        self.in_hand = in_hand
        self.counts: list[dict[int, int]] = []
        self._pools: list[list[int]] | None = None
        if not keys and not hands:
            return
        # with hands, every seat's pools are checked (the viewer's hand included)
        left = uniform_pools(view, owners=None if hands else {o for o, _ in keys})
        for g, key in enumerate(keys):
            pool = left[key]
            size = sum(pool.values())
            if hands and size != on_table[g] + in_hand[g]:
                raise InvalidViewError(
                    f"inconsistent view: seat {key[0]} has {size} {key[1]} cards unaccounted "
                    f"for, but {on_table[g] + in_hand[g]} face down or in hand"
                )
            if size < on_table[g]:
                raise InvalidViewError(
                    f"inconsistent view: seat {key[0]}'s {key[1]} cards cannot fill the table"
                )
            self.counts.append(pool)

    @property
    def pools(self) -> list[list[int]]:
        """Per group, the values of its pool listed, ascending, each as often as it is
        left: listed on first use (the exact odds read only :attr:`counts`)."""
        if self._pools is None:
            self._pools = [[v for v, c in pool.items() for _ in range(c)]
                           for pool in self.counts]
        return self._pools

    def deal(self, rng: random.Random) -> tuple[list[list[int]], list[list[int]]]:
        """One world: per group, the values of its table cards (in table order) and the rest
        of its pool (with ``hands``: the cards in its owner's hand) — a uniformly random
        arrangement of the pool (``rng.shuffle`` of each pool in turn, group by group).

        For a :class:`random.Random` the shuffle is written out as CPython's
        ``Random.shuffle`` does it (for ``i`` from the last index down to 1, swap item
        ``i`` with item ``randbelow(i + 1)``, drawn as ``getrandbits((i + 1).bit_length())``
        until below ``i + 1``): the same numbers and the same worlds, without a Python call
        per card (``tests/analysis/test_worlds.py`` compares it with ``rng.shuffle``)."""
        table: list[list[int]] = []
        hand: list[list[int]] = []
        if type(rng) is not random.Random:
            for g, pool in enumerate(self.pools):
                p = list(pool)
                rng.shuffle(p)
                cut = self.on_table[g]
                table.append(p[:cut])
                hand.append(p[cut:])
            return table, hand
        getrandbits = rng.getrandbits
        for pool, cut in zip(self.pools, self.on_table, strict=True):
            p = list(pool)
            for i, k in _steps(len(p)):
                j = getrandbits(k)
                while j > i:
                    j = getrandbits(k)
                p[i], p[j] = p[j], p[i]
            table.append(p[:cut])
            hand.append(p[cut:])
        return table, hand


@functools.cache
def _steps(n: int) -> tuple[tuple[int, int], ...]:
    """The steps of a shuffle of ``n`` items: ``(i, bits)``, the index swapped and the
    bits of a draw below ``i + 1``."""
    return tuple((i, (i + 1).bit_length()) for i in range(n - 1, 0, -1))
