"""The one uniform model (analysis/worlds.py): its pools hold exactly the cards a seat
cannot place, a dealt world puts exactly those values where the seat sees backs, and the
odds and the lookahead read their groups from it."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from helpers import random_game

from tenleave_widget.analysis import odds, playout_position
from tenleave_widget.analysis.worlds import Hidden, uniform_pools
from tenleave_widget.engine.cards import value_and_back
from tenleave_widget.engine.errors import InvalidViewError
from tenleave_widget.engine.game import Game
from tenleave_widget.engine.rules import Rules


def _truth(g: object, seat: int) -> tuple[Counter[tuple[int, str, int]], list[list[int]]]:
    """What the seat cannot see, from the omniscient view: (owner, back, value) counts of
    the unknown cards (face down on the table, other hands), and the table's true values."""
    v = g.view(None)  # type: ignore[attr-defined]
    mine = g.view(seat)  # type: ignore[attr-defined]
    hidden: Counter[tuple[int, str, int]] = Counter()
    for qo, qs in zip(v["queues"], mine["queues"], strict=True):
        for co, cs in zip(qo, qs, strict=True):
            if cs["value"] is None:
                hidden[(co["owner"], co["back"], co["value"])] += 1
    for o, h in enumerate(v["hands"]):
        if o != seat:
            for c in h["cards"]:
                value, back = value_and_back(c)
                hidden[(o, back, value)] += 1
    values = [[c["value"] for c in q] for q in v["queues"]]
    return hidden, values


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_pools_are_exactly_the_unseen_cards_and_a_world_puts_them_where_backs_are(
    seats: int,
) -> None:
    rng = random.Random(seats)
    for k in range(25):
        g = random_game(seats, seed=100 * seats + k, turns=rng.randrange(0, 10 * seats))
        for seat in range(seats):
            view = g.view(seat)
            truth, values = _truth(g, seat)
            hidden = Hidden(view, hands=True)
            pooled = Counter(
                {(o, b, v): c for (o, b), cnt in zip(hidden.keys, hidden.counts, strict=True)
                 for v, c in cnt.items()})
            assert pooled == truth
            # without hands: the table's groups only, the same pools
            table = Hidden(view)
            assert table.keys == hidden.keys[: len(table.keys)]
            assert table.counts == hidden.counts[: len(table.keys)]
            assert table.slots == hidden.slots
            fills, held = hidden.deal(random.Random(k))
            for g_, (o, b) in enumerate(hidden.keys):
                assert len(held[g_]) == hidden.in_hand[g_] == (
                    view["hands"][o][b] if o != seat else 0)
                assert sorted(fills[g_] + held[g_]) == hidden.pools[g_]
            at = [0] * len(fills)
            for row, true_row in zip(hidden.slots, values, strict=True):
                for x, true in zip(row, true_row, strict=True):
                    if x >= 0:
                        assert x == true
                    else:
                        at[-1 - x] += 1
            assert at == hidden.on_table == [len(f) for f in fills]


def test_a_world_is_uniform_over_the_arrangements() -> None:
    view = odds.sketch_view([["1:?", "1:?"], ["1:?"]], seat=0, players=2)
    hidden = Hidden(view, hands=True)
    counts: Counter[tuple[int, ...]] = Counter()
    rng = random.Random(5)
    trials = 6000
    for _ in range(trials):
        fills, _ = hidden.deal(rng)
        counts[tuple(fills[0])] += 1
    pool = Counter(hidden.pools[0])  # the plain cards 1, 1, 2, 5 (one 2 was put aside)
    n = sum(pool.values())
    for (a, b, c), seen in counts.items():
        p = pool[a] / n
        rest = pool - Counter([a])
        p *= rest[b] / (n - 1)
        rest -= Counter([b])
        p *= rest[c] / (n - 2)
        assert abs(seen / trials - p) < 0.025


def test_odds_and_lookahead_read_their_groups_from_the_model() -> None:
    g = random_game(4, seed=9, turns=13)
    seat = g.to_move
    assert seat is not None
    view = g.view(seat)
    hidden = Hidden(view, hands=True)
    pos = playout_position.Position(view)
    assert (pos.group_keys, pos.pools, pos.in_hand) == (hidden.keys, hidden.pools,
                                                        hidden.in_hand)
    model = odds._Model(view)
    assert model.slots == Hidden(view).slots
    assert uniform_pools(view) == uniform_pools(view, owners=range(4))


def test_an_inconsistent_view_is_refused() -> None:
    g = random_game(3, seed=4, turns=7)
    view = g.view(0)
    view["swatted"][1] = view["swatted"][1] + ["5*", "5*", "5*"]
    with pytest.raises(InvalidViewError, match="more than were dealt"):
        uniform_pools(view)
    view = g.view(0)
    other = 1
    view["hands"][other]["plain"] += 1
    with pytest.raises(InvalidViewError, match="unaccounted"):
        Hidden(view, hands=True)


class _Pools:
    """A stand-in for a view's :class:`Hidden`: only the pools and the table counts."""

    def __init__(self, pools: list[list[int]], on_table: list[int]) -> None:
        self.pools = pools
        self.on_table = on_table


def test_a_deal_is_the_generators_shuffle_of_each_pool() -> None:
    """The deal writes CPython's ``Random.shuffle`` out (no Python call per card): the same
    arrangement of every pool, group by group, as ``rng.shuffle``, and the generator left
    in the same state, for pools of 0 to 24 cards and many seeds (a Python whose shuffle
    drew differently would fail here, not change the figures silently)."""
    rng = random.Random(7)
    for case in range(400):
        pools = [sorted(rng.choices(range(1, 6), k=rng.randrange(25)))
                 for _ in range(1 + case % 6)]
        on_table = [rng.randrange(len(p) + 1) for p in pools]
        a, b = random.Random(f"deal:{case}"), random.Random(f"deal:{case}")
        got = Hidden.deal(_Pools(pools, on_table), a)  # type: ignore[arg-type]
        want: tuple[list[list[int]], list[list[int]]] = ([], [])
        for pool, cut in zip(pools, on_table, strict=True):
            p = list(pool)
            b.shuffle(p)
            want[0].append(p[:cut])
            want[1].append(p[cut:])
        assert got == want, case
        assert a.random() == b.random(), case


def test_a_worlds_tokens_and_numbers_are_the_generators_draws() -> None:
    """A world's token chain is ``randrange`` over the other tokens and its turns' numbers
    ``random()``, drawn after the deal in that order, as plainly written; 2 to 5 tokens
    (the draws of 1 to 3 bits, rejections included)."""
    for tokens in [{"A": [1], "B": [4]}, {"A": [1, 2], "B": [4], "C": [2, 4]},
                   None, {"A": [1], "B": [2], "C": [3], "D": [4], "E": [1, 4]}]:
        rules = Rules.from_json({"tokens": tokens}) if tokens else Rules()
        for seed in range(30):
            g = Game(3, rules=rules, seed=seed)
            for _ in range(seed % 9):
                g.apply(g.legal_turns[0])
            pos = playout_position.Position(g.view(g.to_move))
            a, b = random.Random(seed), random.Random(seed)
            w = playout_position.World(pos, a, pos.cards_left)
            pos.hidden.deal(b)
            chain, last = [pos.token], pos.token
            for _ in range(pos.cards_left + 8):
                j = b.randrange(len(pos.token_pos) - 1)
                last = j if j < last else j + 1
                chain.append(last)
            assert w.chain == chain, (tokens, seed)
            assert w.us == [b.random() for _ in range(2 * pos.cards_left + 2)], (tokens, seed)
            assert a.random() == b.random()


def test_a_uniform_world_fills_the_hands_as_a_given_deal_does() -> None:
    """A world of the uniform deal fills its hands from the pools less the table's cards
    (precomputed per position); given the same deal as a ``Deal`` (which names every
    hand's cards) it is the same world: table, hands, chain and numbers."""
    for n in range(2, 6):
        for seed in range(12):
            g = random_game(n, seed=seed, turns=seed % (3 * n))
            pos = playout_position.Position(g.view(g.to_move))
            for w in range(5):
                a = playout_position.World(pos, random.Random(w), pos.cards_left)
                b = playout_position.World(pos, random.Random(w), pos.cards_left,
                                           pos.hidden.deal)
                assert (a.queues, a.hands, a.chain, a.us) == (b.queues, b.hands, b.chain,
                                                              b.us), (n, seed, w)
