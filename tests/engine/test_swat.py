"""The one swat kernel (engine/swat.py): its rule as RULES.md §4 and §6 state it, the
engine's swats and daybreak passes as the kernel decides them (in games with and without
the daybreak token change), and the play-out simulator's specialised copies (its swat,
its daybreak, the greedy policy's table of what a card adds) checked against the kernel
on every queue of up to 4 cards, for every token."""

from __future__ import annotations

import itertools
import random

import pytest

from tenleave_widget import Game
from tenleave_widget.analysis.playout import Policy, Simulator, queue_key
from tenleave_widget.analysis.playout_position import Position
from tenleave_widget.engine.cards import card_value
from tenleave_widget.engine.errors import IllegalActionError
from tenleave_widget.engine.rules import DEFAULT_TOKENS, QUEUE_CAPACITY, TARGET, Rules
from tenleave_widget.engine.swat import NOTHING, daybreak, daybreak_pass, outcome, swat

TOKENS = list(DEFAULT_TOKENS.values())
QUEUES = [list(q) for n in range(QUEUE_CAPACITY + 1)
          for q in itertools.product(range(1, 6), repeat=n)]


def penalties(queue: list[int], owners: list[int], positions: tuple[int, ...],
              seats: int) -> list[int]:
    pen = [0] * seats
    for i in swat(queue, positions)[2]:
        pen[owners[i]] += queue[i]
    return pen


def test_the_kernel_is_the_rule_as_written() -> None:
    rng = random.Random(1)
    for q in QUEUES:
        for pos in TOKENS:
            k, total, hit = swat(q, pos)
            assert total == sum(q[:k])
            # flipping stops at the first card that brings the total to 10 or more
            assert all(sum(q[:j]) < TARGET for j in range(k))
            assert k == len(q) or total >= TARGET
            if total < TARGET:
                assert list(hit) == [i for i in range(k) if q[i] == max(q[:k])]
                assert outcome(total) == "under"
            elif total == TARGET:
                assert hit == () and outcome(total) == "exact"
            else:
                assert list(hit) == [p - 1 for p in pos if p <= k]
                assert outcome(total) == "over"
            # a queue of cards whose values a table gives is swatted as its values
            ids = rng.sample(range(10), len(q))
            table = [0] * 10
            for c, v in zip(ids, q, strict=True):
                table[c] = v
            assert swat(ids, pos, table) == (k, total, hit)
    assert swat([], (1, 2)) is NOTHING


def test_daybreak_lets_a_single_card_escape_and_asks_for_a_token_per_pass() -> None:
    rng = random.Random(3)
    for _ in range(500):
        queues = [[rng.randint(1, 5) for _ in range(rng.randint(0, 4))] for _ in range(3)]
        before = [list(q) for q in queues]
        asked: list[int] = []

        def positions(i: int, asked: list[int] = asked) -> tuple[int, ...]:
            asked.append(i)
            return TOKENS[i % len(TOKENS)]

        passes = list(daybreak(queues, positions))
        assert queues == [[], [], []]
        assert asked == list(range(len(passes)))
        left = before
        for i, plan in enumerate(passes):
            for q, s in enumerate(plan):
                if len(left[q]) == 1:
                    assert s is None
                    left[q] = []
                else:
                    assert s == swat(left[q], TOKENS[i % len(TOKENS)])
                    left[q] = left[q][s[0]:]
        assert left == [[], [], []]


def _values(g: Game) -> list[list[int]]:
    return [[card_value(c) for _, c in g.queue_cards(q)] for q in range(g.queue_count)]


@pytest.mark.parametrize("seats", [2, 3, 5])
def test_the_engine_swats_as_the_kernel_decides(seats: int) -> None:
    for seed in range(8):
        rules = Rules(daybreak_token_change=seed % 2 == 0)
        rng = random.Random(seed)
        g = Game(seats, seed=seed, rules=rules)
        while not g.finished:
            before = g.copy()
            t = g.legal_turns.sample(rng)
            g.apply(t)
            events = g.events()
            if not any(e["kind"] == "swat" for e in events):
                continue
            # a wake swats the table at the turn's start; the others the table of the
            # turn's steps done (the play, the peek or rotation)
            values = _values(before) if t.wake else _values(before.preview(t.steps()))
            token = before.token
            for e in events:
                if e["kind"] == "token":
                    token = e["token"]
                if e["kind"] != "swat":
                    continue
                pos = rules.tokens[token]
                if e["reason"] == "daybreak":  # the kernel's pass (on a copy)
                    plan = daybreak_pass([list(v) for v in values], pos)
                else:
                    plan = [swat(v, pos) for v in values]
                for qe, sw, v in zip(e["queues"], plan, values, strict=True):
                    if sw is None:
                        assert qe["outcome"] == "single"
                        continue
                    assert [card_value(c["card"]) for c in qe["flipped"]] == v[:sw[0]]
                    keys = [c["key"] for c in qe["flipped"]]
                    assert qe["swatted"] == [keys[i] for i in sw[2]]
                    assert qe["total"] == sw[1]
                if e["reason"] == "wake":
                    values = _values(before.preview(t.steps()))
                else:
                    values = [[] if sw is None else v[sw[0]:]
                              for sw, v in zip(plan, values, strict=True)]


@pytest.mark.parametrize("token_change", [True, False])
def test_daybreak_views_are_the_tables_before_each_pass_of_the_engines_daybreak(
    token_change: bool,
) -> None:
    for seed in range(6):
        rng = random.Random(seed)
        g = Game(3, seed=seed, rules=Rules(daybreak_token_change=token_change))
        while True:
            before = g.copy()
            t = g.legal_turns.sample(rng)
            g.apply(t)
            if g.finished:
                break
        pre = before.preview(t.steps())
        unchanged = pre.view(None)
        passes = pre.daybreak_views([None, 1])
        assert pre.view(None) == unchanged  # on a copy
        swats = [e for e in g.events() if e["kind"] == "swat"]
        assert len(passes) == len(swats) >= 1
        token = before.token
        values = _values(pre)
        for (teacher, seat1), e in zip(passes, swats, strict=True):
            assert (teacher["seat"], seat1["seat"]) == (None, 1)
            assert teacher["token"] == seat1["token"] == token
            assert [[c["value"] for c in q] for q in teacher["queues"]] == values
            plan = daybreak_pass(values, Rules().tokens[token])  # the kernel's pass
            assert [qe["outcome"] == "single" for qe in e["queues"]] == [
                sw is None for sw in plan]
            if token_change:
                token = next((x["token"] for x in g.events()[g.events().index(e):]
                              if x["kind"] == "token"), token)
    with pytest.raises(IllegalActionError):
        pre.daybreak_views([7])


def _sim(seats: int) -> Simulator:
    g = Game(seats, seed=1)
    return Simulator(Position(g.view(g.to_move)), Policy())


@pytest.mark.parametrize("seats", [2, 3])
def test_the_play_out_swat_is_the_kernels(seats: int) -> None:
    sim = _sim(seats)
    rng = random.Random(seats)
    for q in QUEUES:
        owners = [rng.randrange(seats) for _ in q]
        for tok, pos in enumerate(sim.token_pos):
            codes = [v * 8 + o for v, o in zip(q, owners, strict=True)]
            pen = [0] * seats
            sim.swat_queue(codes, tok, pen)
            assert pen == penalties(q, owners, pos, seats)
            packed = [v * 8 + o for v, o in zip(q, owners, strict=True)]
            assert codes == packed[swat(q, pos)[0]:]


@pytest.mark.parametrize("seats", [2, 3])
def test_the_play_out_table_is_what_a_card_adds_to_the_kernels_swat(seats: int) -> None:
    sim = _sim(seats)
    rng = random.Random(10 + seats)
    for q in QUEUES:
        if len(q) == QUEUE_CAPACITY:
            continue
        owners = [rng.randrange(seats) for _ in q]
        for tok, pos in enumerate(sim.token_pos):
            table = sim._table([v * 8 + o for v, o in zip(q, owners, strict=True)], tok)
            now = penalties(q, owners, pos, seats)
            for s in range(seats):
                for v in range(1, 6):
                    after = penalties([*q, v], [*owners, s], pos, seats)
                    assert table[s][v] == after[s] - now[s], (q, owners, pos, s, v)


def test_the_play_out_daybreak_is_the_kernels() -> None:
    sim = _sim(3)
    rng = random.Random(7)
    for _ in range(300):
        values = [[rng.randint(1, 5) for _ in range(rng.randint(0, 4))] for _ in range(2)]
        owners = [[rng.randrange(3) for _ in q] for q in values]
        chain = [rng.randrange(4) for _ in range(8)]
        for change in (True, False):
            sim.daybreak_change = change
            codes = [[v * 8 + o for v, o in zip(q, w, strict=True)]
                     for q, w in zip(values, owners, strict=True)]
            pen = [0, 0, 0]
            sim.daybreak(codes, chain, 0, pen)
            want = [0, 0, 0]
            vals = [list(q) for q in values]
            own = [list(w) for w in owners]
            i = 0
            while any(vals):
                pos = sim.token_pos[chain[i if change else 0]]
                for q in range(2):
                    if len(vals[q]) == 1:
                        vals[q], own[q] = [], []
                    elif vals[q]:
                        k, _, hit = swat(vals[q], pos)
                        for j in hit:
                            want[own[q][j]] += vals[q][j]
                        vals[q], own[q] = vals[q][k:], own[q][k:]
                i += 1
            assert codes == [[], []] and pen == want



def test_the_memoised_keyed_swats_are_the_play_out_swats() -> None:
    """The play-outs' loop swats through a memo keyed by queue_key (Simulator.swat_keyed,
    daybreak_keyed): the same cards, penalties and keys as swat_all and daybreak, on
    first use and from the memo."""
    sim = _sim(3)
    rng = random.Random(11)
    for _ in range(300):
        table = [[rng.randint(1, 5) * 8 + rng.randrange(3) for _ in range(rng.randint(0, 4))]
                 for _ in range(3)]
        tok = rng.randrange(len(sim.token_pos))
        chain = [rng.randrange(len(sim.token_pos)) for _ in range(8)]
        for _ in range(2):  # the second time from the memo
            want, keyed = [list(q) for q in table], [list(q) for q in table]
            pen, pen2 = [0, 0, 0], [0, 0, 0]
            keys = [queue_key(q) for q in keyed]
            sim.swat_all(want, tok, pen)
            sim.swat_keyed(keyed, keys, tok, pen2)
            assert (keyed, pen2, keys) == (want, pen, [queue_key(q) for q in want])
            for change in (True, False):
                sim.daybreak_change = change
                want, keyed = [list(q) for q in table], [list(q) for q in table]
                pen, pen2 = [0, 0, 0], [0, 0, 0]
                keys = [queue_key(q) for q in keyed]
                sim.daybreak(want, chain, 0, pen)
                sim.daybreak_keyed(keyed, keys, chain, 0, pen2)
                assert (keyed, pen2, keys) == ([[], [], []], pen, [0, 0, 0])



def test_the_exact_odds_judge_every_outcome_as_the_kernel() -> None:
    """odds._summary writes the kernel's rule out per outcome class (for speed): every
    card's chance of being swatted, of escaping and its expected cost, from the kernel
    applied to each enumerated outcome, on random queues of known and unknown cards."""
    from tenleave_widget.analysis import odds

    rng = random.Random(2)
    pool_a = ((1, 2), (2, 2), (5, 1))
    pool_b = ((3, 2), (4, 2), (5, 1))
    for _ in range(300):
        slots = tuple(rng.choice([rng.randint(1, 5), -1, -2]) for _ in range(rng.randint(1, 4)))
        pools = (pool_a, pool_b)
        key_slots, key_pools = [], []
        local: dict[int, int] = {}
        for x in slots:
            if x > 0:
                key_slots.append(x)
            else:
                g = local.setdefault(x, len(local))
                key_slots.append(-(g + 1))
        key_pools = [pools[-x - 1] for x in local]
        ks, kp = tuple(key_slots), tuple(key_pools)
        for pos in TOKENS:
            _, _, hit, esc, _, cost = odds._summary(ks, kp, pos)
            want_hit = [0.0] * len(ks)
            want_esc = [0.0] * len(ks)
            want_cost = [0.0] * len(ks)
            for w, _, values in odds._leaves(ks, kp):
                struck_ = swat(values, pos)[2]
                for i, v in enumerate(values):
                    if i in struck_:
                        want_hit[i] += w
                        want_cost[i] += w * v
                    else:
                        want_esc[i] += w
            assert hit == pytest.approx(want_hit) and esc == pytest.approx(want_esc)
            assert cost == pytest.approx(want_cost)
