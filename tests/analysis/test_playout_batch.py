"""The batched play-out kernel (analysis/playout_batch.py) and the compiled one that plays
its tables (analysis/playout_numba.py) against the references: the batch's swat against
the swat kernel (engine/swat.py) on every queue, its policy table against the
simulator's, and both kernels' outcomes against the scalar simulator's, world by world,
under the default policy, the deterministic one and a wilder one."""

from __future__ import annotations

import itertools
import os
import random
import re
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from helpers import random_game

from tenleave_widget.analysis import analyse, playouts
from tenleave_widget.analysis.lookahead import Budget, Evaluation, _moves_of
from tenleave_widget.analysis.playout import Move, Policy, Simulator
from tenleave_widget.analysis.playout_batch import (
    BASE,
    Uncovered,
    digit,
    play_batch,
    rise_codes,
    swat_codes,
    tables,
)
from tenleave_widget.analysis.playout_numba import play_compiled
from tenleave_widget.analysis.playout_position import Position, World
from tenleave_widget.analysis.playouts import KERNELS, default_kernel, play_outs
from tenleave_widget.engine.errors import SetupError
from tenleave_widget.engine.game import Game
from tenleave_widget.engine.rules import DEFAULT_TOKENS, Rules
from tenleave_widget.engine.swat import swat

# every token of the printed game, and variants' tokens of one to four positions
TOKENS = [*DEFAULT_TOKENS.values(), (1,), (4,), (2, 4), (1, 2, 3), (1, 2, 3, 4)]


def _code(cards: tuple[tuple[int, int], ...]) -> int:
    return sum(digit(v, o) * BASE ** i for i, (v, o) in enumerate(cards))


def _queues(max_len: int, owners: int) -> Iterator[tuple[tuple[int, int], ...]]:
    cards = [(v, o) for v in range(1, 6) for o in range(owners)]
    for n in range(max_len + 1):
        yield from itertools.product(cards, repeat=n)


@pytest.mark.parametrize("positions", TOKENS)
def test_the_batched_swat_is_the_swat_kernels_on_every_queue_of_values(
    positions: tuple[int, ...],
) -> None:
    """Every queue of 0..4 values (3,906 queues) under every token: the cards flipped and
    the positions swatted are :func:`engine.swat.swat`'s."""
    qs = list(_queues(4, 1))
    flips, hits = swat_codes(np.array([_code(q) for q in qs]), positions)
    for q, k, bits in zip(qs, flips.tolist(), hits.tolist(), strict=True):
        want = swat([v for v, _ in q], positions)
        assert (k, tuple(i for i in range(4) if bits >> i & 1)) == (want[0], want[2]), q


def test_the_tables_fines_and_flips_are_the_swat_kernels_with_owners() -> None:
    """The kernel's memoised swat tables (:func:`tables`), with owners: every queue of up
    to 3 cards of 3 seats and 3,000 random full queues of 5, every printed token: the flips and
    each seat's added penalty are those of the swat kernel."""
    tab = tables(5, list(DEFAULT_TOKENS.values()))
    rng = random.Random(3)
    qs = list(_queues(3, 3))
    qs += [tuple((rng.randint(1, 5), rng.randrange(5)) for _ in range(4)) for _ in range(3000)]
    for t, positions in enumerate(DEFAULT_TOKENS.values()):
        at = t * BASE ** 4 + np.array([_code(q) for q in qs])
        flips = tab.flips[at].tolist()
        fines = tab.fines[at].tolist()
        for q, k, fine in zip(qs, flips, fines, strict=True):
            got_k, _, hit = swat([v for v, _ in q], positions)
            pen = [0] * 5
            for i in hit:
                pen[q[i][1]] += q[i][0]
            assert k == got_k and [fine >> (6 * s) & 63 for s in range(5)] == pen, q


@pytest.mark.parametrize("positions", TOKENS)
def test_the_batched_policy_table_is_the_simulators(positions: tuple[int, ...]) -> None:
    """:func:`rise_codes` against :meth:`Simulator.table` (the greedy policy's table) on
    every queue of up to 3 cards of 3 seats, for every seat."""
    pos = Position(Game(3, seed=1).view(0))
    pos.token_pos = [positions]
    sim = Simulator(pos, Policy())
    qs = list(_queues(3, 3))
    codes = np.array([_code(q) for q in qs])
    per_seat = [rise_codes(codes, positions, s).tolist() for s in range(3)]
    for i, q in enumerate(qs):
        table = sim._table([v * 8 + o for v, o in q], 0)
        for s in range(3):
            assert list(table[s][1:]) == per_seat[s][i], (q, s)


# --------------------------------------------------------------------- outcome equality

VARIANTS = [
    Rules(),
    Rules.from_json({"daybreak_token_change": False}),
    Rules.from_json({"tokens": {"A": [1, 2, 3], "B": [4], "C": [2, 4]}}),
]


class _Counting(Simulator):
    """The scalar simulator, counting what the play-outs went through: the tokens of the
    swats, the daybreak passes and the single cards that escaped at daybreak."""

    seen: Counter[str]

    def swat_keyed(self, queues: list[list[int]], keys: list[int], tok: int,
                   pen: list[int], daybreak: bool = False) -> None:
        self.seen[f"token {tok}"] += 1
        if daybreak:
            self.seen["daybreak pass"] += 1
            self.seen["single card escapes"] += sum(len(q) == 1 for q in queues)
        super().swat_keyed(queues, keys, tok, pen, daybreak)

    def play_out(self, queues: list[list[int]], hands: list[list[int]], pen: list[int],
                 s: int, left: int, chain: list[int], k: int, us: list[float],
                 trace: list[Move] | None = None) -> None:
        moves: list[Move] = []
        super().play_out(queues, hands, pen, s, left, chain, k, us, moves)
        self.seen["wake in a play-out"] += sum(m.wake for m in moves)


POLICIES = [Policy(), Policy(explore=0, random_ties=False), Policy(explore=0.5)]


def _cases(count: int, seed: int, most: int, policies: list[Policy] = POLICIES,
           ) -> Iterator[tuple[Simulator, list[Move], list[World]]]:
    """``count`` positions of 2..5 seats at every stage of a game (so daybreaks come soon
    in some), each with eight of its valued moves (a wake and a rotation among them where
    legal) and 1 to
    ``most`` worlds; the policy the default, a deterministic or a wilder one, the rules varied."""
    rng = random.Random(seed)
    for i in range(count):
        n = 2 + i % 4
        rules = VARIANTS[i % len(VARIANTS)]
        g = Game(n, rules=rules, seed=rng.randrange(2**32), first=rng.randrange(n))
        total = n * len(rules.dealt(n))
        for _ in range(rng.randrange(total)):
            lt = g.legal_turns
            g.apply(lt[rng.randrange(len(lt))])
        pos = Position(g.view(g.to_move))
        policy = policies[i % len(policies)]
        sim = _Counting(pos, policy)
        sim.seen = Counter()
        every = [m for _, m in _moves_of(pos, True)]
        # eight moves: a wake and a rotation (when there are), the rest at random
        moves = [m for m in every if m.wake][:1] + [m for m in every if m.rotate is not None][:1]
        moves += rng.sample([m for m in every if m not in moves], min(6, len(every) - len(moves)))
        worlds = [World(pos, random.Random(rng.randrange(2**32)), pos.cards_left)
                  for _ in range(1 + rng.randrange(most))]
        yield sim, moves, worlds


def _check(count: int, seed: int, most: int, kernel: str, policies: list[Policy] = POLICIES,
           ) -> tuple[int, Counter[str]]:
    seen: Counter[str] = Counter()
    worlds = 0
    for sim, moves, ws in _cases(count, seed, most, policies):
        want = KERNELS["scalar"](sim, moves, ws, True)
        got = KERNELS[kernel](sim, moves, ws, True)
        for w, (a, b) in enumerate(zip(want, got, strict=True)):
            assert a == b, (sim.n, sim.cards_left, w)
        assert len(got) == len(ws)
        worlds += len(ws)
        seen.update(sim.seen)
        seen["root wakes"] += sum(m.wake for m in moves)
        seen["root rotations"] += sum(m.rotate is not None for m in moves)
        seen[f"{sim.n} seats"] += 1
    return worlds, seen


def _covered(seen: Counter[str]) -> None:
    for what in ["root wakes", "root rotations", "wake in a play-out", "daybreak pass",
                 "single card escapes", *(f"{n} seats" for n in range(2, 6)),
                 *(f"token {t}" for t in range(4))]:
        assert seen[what] > 0, what


@pytest.mark.parametrize("kernel", ["batch", "compiled"])
def test_the_batched_kernel_gives_the_scalars_outcomes_world_by_world(kernel: str) -> None:
    """Every seat's final penalty, for every (world, move) pair and the reference
    play-out, identical to the scalar simulator's: default, deterministic and wilder
    policies, 2..5 seats, printed and variant rules."""
    worlds, seen = _check(16, seed=1, most=12, kernel=kernel)
    assert worlds >= 80
    _covered(seen)


@pytest.mark.slow
@pytest.mark.parametrize("kernel", ["batch", "compiled"])
def test_the_batched_kernel_gives_the_scalars_outcomes_on_ten_thousand_worlds(
    kernel: str,
) -> None:
    """As above on over 10,000 worlds (300 positions), and on over 10,000 more under
    the deterministic policy alone (``explore=0``, no random ties)."""
    worlds, seen = _check(300, seed=2, most=70, kernel=kernel)
    assert worlds >= 10_000
    _covered(seen)
    worlds, seen = _check(300, seed=3, most=70, kernel=kernel, policies=POLICIES[1:2])
    assert worlds >= 10_000
    _covered(seen)


def test_the_compiled_kernel_is_the_default_where_numba_is_installed() -> None:
    """numba is a dependency where it has wheels: there the compiled kernel plays every
    call of two play-outs or more, the batched and scalar kernels stay the fallbacks."""
    assert default_kernel() == "compiled"
    # (a benchmark may register a kernel of its own after them: bench_policy.py does)
    assert list(KERNELS)[:3] == ["scalar", "batch", "compiled"]
    assert playouts.COMPILED_MIN_ROWS == 2


@pytest.mark.parametrize("kernel", ["batch", "compiled"])
def test_an_evaluation_gives_the_same_figures_on_either_kernel(kernel: str) -> None:
    """No kernel changes a figure: an evaluation (with the reference, per-world results
    and pruning) is the same on the batched or compiled kernel as on the scalar one."""
    for n, seed in [(3, 4), (5, 9)]:
        g = random_game(n, seed=seed, turns=2 * n)
        view = g.view(g.to_move)
        for budget in (Budget(samples=30), Budget(samples=40, prune=1.0)):
            a = Evaluation(view, budget, seed=2, per_world=True, reference=True,
                           kernel=kernel)
            b = Evaluation(view, budget, seed=2, per_world=True, reference=True,
                           kernel="scalar")
            while not a.advance():
                pass
            while not b.advance():
                pass
            assert a.result() == b.result()


def test_the_scalar_plays_where_the_batch_cannot() -> None:
    """Queues of more than 4 cards, or a deck with more than 3 cards of a value, are not
    in the batched kernel's tables: it refuses them, and :func:`play_outs` plays them on
    the scalar kernel; an unknown kernel is a typed error."""
    pos = Position(Game(3, seed=2).view(0))
    pos.cap = 5
    sim = Simulator(pos, Policy())
    ws = [World(pos, random.Random(1), pos.cards_left)]
    with pytest.raises(Uncovered, match="up to 4 cards"):
        play_batch(sim, [Move(1, 0)], ws, False)
    with pytest.raises(Uncovered, match="up to 4 cards"):
        play_compiled(sim, [Move(1, 0)], ws, False)
    assert play_outs(sim, [Move(1, 0)], ws) == KERNELS["scalar"](sim, [Move(1, 0)], ws, False)
    deck = ["1", "1", "1", "1", "2", "3*", "4*", "5*", "5", "2"]
    g = Game(3, rules=Rules.from_json({"deck": deck}), seed=3)
    pos = Position(g.view(0))
    sim = Simulator(pos, Policy())
    ws = [World(pos, random.Random(i), pos.cards_left) for i in range(3)]
    with pytest.raises(Uncovered, match="3 cards of a value"):
        play_batch(sim, [Move(1, 0)], ws, True)
    with pytest.raises(Uncovered, match="3 cards of a value"):
        play_compiled(sim, [Move(1, 0)], ws, True)
    assert play_outs(sim, [Move(1, 0)], ws, reference=True) == KERNELS["scalar"](
        sim, [Move(1, 0)], ws, True)
    with pytest.raises(SetupError, match="kernel must be one of"):
        play_outs(sim, [Move(1, 0)], ws, kernel="gpu")


def test_without_numpy_the_default_is_the_scalar(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delitem(playouts.KERNELS, "compiled")
    assert default_kernel() == "batch"
    monkeypatch.delitem(playouts.KERNELS, "batch")
    assert default_kernel() == "scalar"


def test_where_numba_does_not_import_the_batch_plays(monkeypatch: pytest.MonkeyPatch) -> None:
    """numba installed but broken (its import fails): the first call of the compiled
    kernel plays on the batched one, with the same outcomes, and drops the compiled
    kernel, so the batched one is the default from then on."""
    monkeypatch.setitem(playouts.KERNELS, "compiled", playouts._compiled)
    monkeypatch.setitem(sys.modules, "tenleave_widget.analysis.playout_numba", None)
    pos = Position(Game(3, seed=2).view(0))
    sim = Simulator(pos, Policy())
    ws = [World(pos, random.Random(i), pos.cards_left) for i in range(4)]
    moves = [Move(1, 0), Move(2, 1)]
    assert play_outs(sim, moves, ws) == KERNELS["scalar"](sim, moves, ws, False)
    assert "compiled" not in KERNELS and default_kernel() == "batch"


def test_the_one_analysis_gives_the_same_verdict_whatever_its_chunk(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The one analysis hands ``CHUNK_WORLDS`` worlds to each play-out call (128 with the
    batched kernel, 32 without): its verdicts (the analysis, and the rounds the verdict
    adds) are the same with 32 worlds a call on the scalar kernel."""
    assert playouts.CHUNK_WORLDS == 128 and analyse._CHUNK == playouts.CHUNK_WORLDS
    g = random_game(3, seed=9, turns=7)
    view = g.view(g.to_move)
    settings = analyse.Settings(first=48, batch=80, cap=208, judge_cap=528)
    analyse.clear_cache()
    played = analyse.analyse(view, settings)["decisions"][1]["turn"]
    wide = analyse.judge(view, played, settings)
    assert wide["worlds"] == 528  # the verdict's rounds went on to its cap
    analyse.clear_cache()
    monkeypatch.setattr(analyse, "_CHUNK", 32)
    monkeypatch.setattr(playouts, "default_kernel", lambda: "scalar")  # every call scalar
    narrow = analyse.judge(view, played, settings)
    analyse.clear_cache()
    assert wide == narrow and wide["worlds"] > 0


@pytest.mark.slow
def test_the_installs_compile_step_fills_numbas_cache(tmp_path: Path) -> None:
    """``make lab`` and ``make test`` compile the kernel once after installing
    (``COMPILE_KERNEL``): into an empty cache it writes the machine code of the kernel
    and of the world sampler, which a later process loads instead of compiling."""
    make = (Path(__file__).parents[2] / "Makefile").read_text()
    step = re.search(r"^define COMPILE_KERNEL\n(.*?)^endef$", make, re.MULTILINE | re.DOTALL)
    assert step is not None and make.count('python -c "$$COMPILE_KERNEL"') == 2
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    subprocess.run([sys.executable, "-c", step.group(1)], env=env, check=True, timeout=300)
    cached = {p.name.split(".")[1] for p in tmp_path.rglob("playout_numba.*.nbi")}
    assert {"_play", "_sample"} <= {c.split("-")[0] for c in cached}, cached
