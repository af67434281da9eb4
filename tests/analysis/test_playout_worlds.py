"""Worlds sampled in machine code (analysis/playout_numba.py's sampler, behind
analysis/playouts.py's ``Worlds``): the same Mersenne Twister as CPython's
``random.Random``, and so the same worlds, number for number, as ``World`` makes them."""

from __future__ import annotations

import random

import numpy as np
import pytest
from helpers import random_game

from tenleave_widget.analysis import analyse, playouts
from tenleave_widget.analysis.lookahead import _moves_of
from tenleave_widget.analysis.playout import Move, Policy, Simulator
from tenleave_widget.analysis.playout_batch import Uncovered, world_arrays
from tenleave_widget.analysis.playout_numba import (
    _BLOCK,
    _keys,
    _mt_next,
    _mt_seed,
    _mt_seed_block,
    sample_worlds,
    seed_words,
)
from tenleave_widget.analysis.playout_position import Position, World
from tenleave_widget.analysis.playouts import KERNELS, Worlds, play_outs, world_seed
from tenleave_widget.engine.errors import SetupError
from tenleave_widget.engine.game import Game
from tenleave_widget.engine.rules import Rules

SEEDS: list[str | int] = ["", "a", "\0\0", "0" * 64 + ":0", "é:12", 0, 1, -7, 2**32 - 1, 2**32,
                          2**64 + 5, 3**90]


@pytest.mark.parametrize("seed", SEEDS)
def test_the_compiled_generator_is_cpythons_mersenne_twister(seed: str | int) -> None:
    """Seeded with the words of :func:`seed_words`, the compiled generator draws
    ``random.Random(seed)``'s 32-bit numbers, past two regenerations of its state."""
    key = np.frombuffer(seed_words(seed), dtype="<u4")
    mt = np.zeros(625, dtype=np.int64)
    _mt_seed(mt, key, 0, len(key))
    rng = random.Random(seed)
    got = [_mt_next(mt) for _ in range(1400)]
    assert got == [rng.getrandbits(32) for _ in range(1400)]


def test_a_long_key_is_seeded_as_cpython_seeds_it() -> None:
    """A key longer than the generator's state (more than 624 words)."""
    seed = 7 ** 9000
    key = np.frombuffer(seed_words(seed), dtype="<u4")
    assert len(key) > 624
    mt = np.zeros(625, dtype=np.int64)
    _mt_seed(mt, key, 0, len(key))
    rng = random.Random(seed)
    assert [_mt_next(mt) for _ in range(700)] == [rng.getrandbits(32) for _ in range(700)]


@pytest.mark.parametrize("kn", [1, 2, 3, 623])
@pytest.mark.parametrize("nb", [1, 5, _BLOCK])
def test_generators_seeded_side_by_side_are_seeded_one_by_one(kn: int, nb: int) -> None:
    """:func:`_mt_seed_block` gives each key the state :func:`_mt_seed` gives it alone:
    keys of one to 623 words, blocks full and partial."""
    rng = random.Random(kn * 10 + nb)
    keys = np.array([[rng.getrandbits(32) for _ in range(kn)] for _ in range(nb)],
                    dtype=np.uint32)
    mtb = np.zeros((624, _BLOCK), dtype=np.int64)
    kb = np.zeros((624, _BLOCK), dtype=np.int64)
    kb[:kn, :nb] = keys.T
    _mt_seed_block(mtb, kb, kn, nb)
    for b in range(nb):
        mt = np.zeros(625, dtype=np.int64)
        _mt_seed(mt, keys[b], 0, kn)
        assert mtb[:, b].tolist() == mt[:624].tolist()


def test_a_world_seed_is_two_words_from_the_digest_and_the_number() -> None:
    """World ``wid``'s seed: the digest's hex digits 9-16 with the top bit set, above
    the number; always two 32-bit words, read in one call as :func:`seed_words` reads
    them; bad numbers and digests refused by name."""
    d = "f" * 8 + "0123abcd" + "e" * 48
    assert world_seed(d, 0) == 0x8123ABCD << 32
    assert world_seed(d, 2**32 - 1) == (0x8123ABCD << 32) + 2**32 - 1
    assert world_seed("0" * 64, 7) == (1 << 63) + 7
    seeds: list[str | int] = [world_seed(d, w) for w in (0, 1, 99, 2**32 - 1)]
    key, koff = _keys(seeds)
    assert key.tobytes() == b"".join(seed_words(s) for s in seeds)
    assert koff.tolist() == [0, 2, 4, 6, 8]
    for mixed in ([*seeds, -1], [*seeds, 5], [*seeds, "x"], [*seeds, 2**64]):
        key, koff = _keys(mixed)
        assert key.tobytes() == b"".join(seed_words(s) for s in mixed)
        assert koff[-1] * 4 == len(key.tobytes())
    for wid in (-1, 2**32):
        with pytest.raises(SetupError, match="world number"):
            world_seed(d, wid)
    for bad in ("", "0123456789abcde", "x" * 64):
        with pytest.raises(SetupError, match="digest"):
            world_seed(bad, 0)


def test_integer_seeds_out_of_two_words_never_reach_numpy(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A negative seed or one of three words among two-word ones: read by the slow path,
    never converted by numpy (numpy 1.x wraps a negative integer into an unsigned array,
    with only a warning: emulated here)."""
    import types

    from tenleave_widget.analysis import playout_numba

    def wrapping_array(obj: object, dtype: object = None) -> object:
        if dtype is np.uint64 and isinstance(obj, list):
            obj = [x % 2**64 if isinstance(x, int) else x for x in obj]
        return np.array(obj, dtype=dtype)

    np1 = types.SimpleNamespace(**{k: getattr(np, k) for k in dir(np) if not k.startswith("__")})
    np1.array = wrapping_array
    monkeypatch.setattr(playout_numba, "np", np1)
    two = [world_seed("0" * 64, w) for w in range(3)]
    for mixed in ([*two, -5], [-(2**40), *two], [*two, 2**64 + 1]):
        key, koff = _keys(mixed)
        assert key.tobytes() == b"".join(seed_words(s) for s in mixed)


def test_the_one_analysis_draws_world_i_from_its_digests_world_seed() -> None:
    """The one analysis's world ``wid`` is ``World(pos, random.Random(world_seed(digest,
    wid)))`` (an integer seed: nothing to hash per world)."""
    g = random_game(3, seed=6, turns=5)
    view = g.view(g.to_move)
    run = analyse._Run(view, analyse.Settings(), "uniform", "fitted", 0,
                       analyse.BELIEF_COST)
    ws = run.worlds_of(range(64, 80))
    assert ws.seeds == [world_seed(run.digest, w) for w in range(64, 80)]
    sim = Simulator(run.pos, Policy())
    objects = [World(run.pos, random.Random(world_seed(run.digest, w)), run.pos.cards_left)
               for w in range(64, 80)]
    got, _ = ws.arrays()
    for a, b in zip(world_arrays(sim, objects), got, strict=True):
        assert np.array_equal(a, b)


VARIANTS = [
    Rules(),
    Rules.from_json({"daybreak_token_change": False}),
    Rules.from_json({"tokens": {"A": [1, 2, 3], "B": [4], "C": [2, 4]}}),
]


def _positions(count: int, seed: int) -> list[Position]:
    """``count`` positions of 2..5 seats at every stage of a game, the rules varied."""
    rng = random.Random(seed)
    out = []
    for i in range(count):
        n = 2 + i % 4
        rules = VARIANTS[i % len(VARIANTS)]
        g = Game(n, rules=rules, seed=rng.randrange(2**32), first=rng.randrange(n))
        for _ in range(rng.randrange(n * len(rules.dealt(n)))):
            lt = g.legal_turns
            g.apply(lt[rng.randrange(len(lt))])
        out.append(Position(g.view(g.to_move)))
    return out


def test_the_sampled_worlds_are_the_worlds_of_random_random() -> None:
    """60 positions of 2..5 seats (printed and variant rules), 51 string and integer
    seeds each (the one analysis's among them): the sampler's arrays are those of the
    ``World`` objects of the same seeds (hidden values, hands, token chain, per-turn
    numbers), and its slot values the worlds' table cards."""
    worlds = 0
    for k, pos in enumerate(_positions(60, seed=5)):
        seeds: list[str | int] = [f"{k:064x}:{w}" for w in range(30)]
        seeds += [k * 1000 + w for w in range(8)] + [-k, 2**80 + k]
        seeds += [world_seed(f"{k:064x}", w) for w in range(3 * k, 3 * k + 11)]
        ws = [World(pos, random.Random(s), pos.cards_left) for s in seeds]
        sim = Simulator(pos, Policy())
        want = world_arrays(sim, ws)
        got, fills = sample_worlds(pos, seeds)
        for a, b in zip(want, got, strict=True):
            assert a.shape == b.shape and a.dtype == b.dtype
            assert np.array_equal(a, b), (pos.n, pos.cards_left)
        assert fills.tolist() == [[w.queues[q][i] >> 3 for q, i, *_ in pos.slots]
                                  for w in ws]
        worlds += len(ws)
    assert worlds >= 3000


def test_worlds_play_out_as_their_world_objects() -> None:
    """A :class:`Worlds` handed to :func:`play_outs` gives, on every kernel, the outcomes
    of its :class:`World` objects on the scalar kernel, and reads every table card as
    they hold it (sampled by the compiled sampler or as objects)."""
    for n, seed in [(2, 1), (3, 4), (5, 9)]:
        g = random_game(n, seed=seed, turns=2 * n)
        pos = Position(g.view(g.to_move))
        sim = Simulator(pos, Policy())
        seeds = [f"d:{w}" for w in range(12)]
        objects = [World(pos, random.Random(s), pos.cards_left) for s in seeds]
        moves = [m for _, m in _moves_of(pos, True)][:6]
        want = KERNELS["scalar"](sim, moves, objects, True)
        cards = [(q, i) for q, row in enumerate(pos.queues) for i in range(len(row))]
        for kernel in [None, *KERNELS]:
            ws = Worlds(pos, seeds)
            assert play_outs(sim, moves, ws, reference=True, kernel=kernel) == want
            assert (ws._arrays is not None) == (kernel in (None, "compiled"))
            for q, i in cards:
                assert ws.values(q, i) == [w.queues[q][i] >> 3 for w in objects]
        assert len(ws) == 12 and ws[3].chain == objects[3].chain
        assert [w.us for w in ws[1:3]] == [w.us for w in objects[1:3]]


def test_worlds_of_another_deal_are_world_objects() -> None:
    """With a deal other than the uniform one the worlds are :class:`World` objects of
    that deal (the compiled sampler knows only the uniform deal)."""
    g = random_game(3, seed=2, turns=4)
    pos = Position(g.view(g.to_move))
    ws = Worlds(pos, ["x:1", "x:2"], deal=pos.hidden.deal)
    assert ws.arrays() is None
    sim = Simulator(pos, Policy())
    objects = [World(pos, random.Random(s), pos.cards_left, pos.hidden.deal)
               for s in ["x:1", "x:2"]]
    assert play_outs(sim, [Move(1, 0)], ws) == KERNELS["scalar"](sim, [Move(1, 0)],
                                                                 objects, False)


def test_worlds_the_kernels_do_not_cover_play_on_the_scalar() -> None:
    """Queues of more than 4 cards, or a hand of more than 3 cards of a value: the
    sampler refuses them, and :func:`play_outs` plays the worlds as objects on the
    scalar kernel."""
    pos = Position(Game(3, seed=2).view(0))
    pos.cap = 5
    with pytest.raises(Uncovered, match="up to 4 cards"):
        sample_worlds(pos, ["a"])
    sim = Simulator(pos, Policy())
    objects = [World(pos, random.Random("a"), pos.cards_left)]
    assert play_outs(sim, [Move(1, 0)], Worlds(pos, ["a"])) == KERNELS["scalar"](
        sim, [Move(1, 0)], objects, False)
    deck = ["1", "1", "1", "1", "2", "3*", "4*", "5*", "5", "2"]
    pos = Position(Game(3, rules=Rules.from_json({"deck": deck}), seed=3).view(0))
    with pytest.raises(Uncovered, match="3 cards of a value"):
        sample_worlds(pos, ["a", "b", "c"])
    sim = Simulator(pos, Policy())
    objects = [World(pos, random.Random(s), pos.cards_left) for s in "abc"]
    assert play_outs(sim, [Move(1, 0)], Worlds(pos, list("abc")), reference=True) == (
        KERNELS["scalar"](sim, [Move(1, 0)], objects, True))


def test_where_numba_does_not_import_worlds_are_objects(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """numba installed but broken: the worlds are sampled as objects, the same outcomes,
    and the compiled kernel is dropped."""
    import sys

    monkeypatch.setitem(playouts.KERNELS, "compiled", playouts._compiled)
    monkeypatch.setitem(sys.modules, "tenleave_widget.analysis.playout_numba", None)
    pos = Position(Game(3, seed=2).view(0))
    sim = Simulator(pos, Policy())
    seeds = ["s:0", "s:1", "s:2"]
    objects = [World(pos, random.Random(s), pos.cards_left) for s in seeds]
    moves = [Move(1, 0), Move(2, 1)]
    ws = Worlds(pos, seeds)
    assert play_outs(sim, moves, ws) == KERNELS["scalar"](sim, moves, objects, False)
    assert ws._arrays is None and "compiled" not in KERNELS
