"""The compiled play-out kernel: the batched kernel's rows played one after another in
machine code (numba), each to the end of its game.

The same state and tables as :mod:`~tenleave_widget.analysis.playout_batch` (a queue as
its base-26 code, hands as packed counts, the swat and policy tables of
:func:`~tenleave_widget.analysis.playout_batch.tables`), the same reading of each
world's random numbers ``us`` and token chain ``chain`` as the scalar
:class:`~tenleave_widget.analysis.playout.Simulator` (the reference): turn ``j`` of a
row reads ``us[2 j]``, the play after a wake ``us[2 j + 1]``; a draw under ``explore``
is a uniform play (value x queue with room), above it the tie index is
``int((x - explore) / (1 - explore) * ties)``; every round change takes the next token.
So the three kernels give the **identical** outcomes for the same worlds, under any
policy (the tests compare them world by world).

Where the batched kernel loops over turns in Python and spends ~150 numpy calls a turn,
this one is a loop over rows compiled once per machine (``cache=True``: the machine code
is kept beside this file, in ``__pycache__``, and reused by the next process). Numba is
an optional dependency: without it (Pyodide, or a platform without its wheels) this
module does not import and :mod:`~tenleave_widget.analysis.playouts` plays the numpy or
the scalar kernel.

>>> import random
>>> from tenleave_widget import Game
>>> from tenleave_widget.analysis.playout import Move, Policy, Simulator
>>> from tenleave_widget.analysis.playout_position import Position, World
>>> from tenleave_widget.analysis.playouts import KERNELS
>>> pos = Position(Game(3, seed=2).view(0))
>>> sim = Simulator(pos, Policy())
>>> worlds = [World(pos, random.Random(i), pos.cards_left) for i in range(20)]
>>> moves = [Move(1, 0), Move(2, 1), Move(5, 0)]
>>> play_compiled(sim, moves, worlds, True) == KERNELS["scalar"](sim, moves, worlds, True)
True
"""

from __future__ import annotations

import hashlib
import weakref
from collections.abc import Callable, Sequence
from typing import Any, TypeVar, cast

import numba
import numpy as np
import numpy.typing as npt
from numba.cpython.unsafe.numbers import trailing_zeros

from .playout import Move, Simulator, Uncovered
from .playout_batch import (
    _FIELD,
    _MASK,
    _OFF,
    _POW,
    _STEP,
    _SZ3,
    _SZ4,
    BASE,
    MAX_CAP,
    outcomes,
    tables,
    world_arrays,
)
from .playout_position import Position, World

__all__ = ["Arrays", "compile_kernel", "play_arrays", "play_compiled", "sample_worlds",
           "seed_words"]

IntArray = npt.NDArray[np.int64]

Arrays = tuple[IntArray, IntArray, IntArray, IntArray, npt.NDArray[np.float64]]
"""Worlds as the kernels' arrays, a row per world: ``(qc, qp, hp, chain, us)``."""

_POW_NB = _POW[:MAX_CAP + 1].copy()
_trailing_zeros: Callable[[int], int] = cast(Any, trailing_zeros)
"""numba's intrinsic (LLVM's cttz): the index of the lowest set bit."""

_COMPILED: dict[tuple[int, tuple[tuple[int, ...], ...]],
                tuple[npt.NDArray[np.int32], npt.NDArray[np.int16], npt.NDArray[np.int16]]] = {}


def _tables(n: int, token_pos: Sequence[Sequence[int]]) -> tuple[
        npt.NDArray[np.int32], npt.NDArray[np.int16], npt.NDArray[np.int16]]:
    """The batched kernel's :func:`~tenleave_widget.analysis.playout_batch.tables` laid
    out for one row at a time, memoised: ``(swats, rows, choice)``. ``swats[tok * 26**4 +
    code]`` is the cards flipped plus the fines (5 bits a seat) shifted by 3, one look-up
    a queue instead of two; ``rows[(tok * (26**3 + 1) + code) * n + seat]`` is
    :attr:`~tenleave_widget.analysis.playout_batch.Tables.row` with the seats side by
    side (a turn's mover changes, its queues mostly do not: the next seat's row is in the
    same cache line), as int16; ``choice`` unchanged."""
    key = (n, tuple(tuple(p) for p in token_pos))
    got = _COMPILED.get(key)
    if got is None:
        tab = tables(n, token_pos)
        fines = tab.fines.astype(np.int64)
        five = np.zeros_like(fines)
        for o in range(n):
            five |= ((fines >> (_FIELD * o)) & 63) << (5 * o)
        swats = (tab.flips.astype(np.int64) | (five << 3)).astype(np.int32)
        ntok = len(token_pos)
        rows = tab.row.reshape(ntok, n, _SZ3).transpose(0, 2, 1).astype(np.int16).ravel()
        got = _COMPILED[key] = (swats, rows, tab.choice)
    return got

_F = TypeVar("_F", bound=Callable[..., Any])


def _jit(f: _F) -> _F:
    """Compile ``f`` with numba on its first call, the machine code cached on disk."""
    return cast(_F, numba.njit(cache=True, nogil=True, error_model="numpy")(f))


def _inline(f: _F) -> _F:
    """A helper of :func:`_play`, compiled into it (numba's own inlining: no call, and no
    reference counting of the arrays it is passed, a turn's largest cost otherwise)."""
    return cast(_F, numba.njit(inline="always", error_model="numpy")(f))


@_inline
def _swat(qc: IntArray, qp: IntArray, tok: int, swats: npt.NDArray[np.int32], n: int,
          daybreak: bool) -> int:
    """Swat every queue of the row in place; return the packed penalties it adds (6 bits
    a seat). With ``daybreak`` a queue of one card lets it escape unflipped."""
    add = 0
    for i in range(qc.shape[0]):
        if daybreak and qp[i] == BASE:
            qc[i] = 0
            qp[i] = 1
            continue
        got = np.int64(swats[tok * _SZ4 + qc[i]])
        kf = got & 7
        f = got >> 3
        if f:
            for o in range(n):
                add += ((f >> (5 * o)) & 31) << (_FIELD * o)
        if kf:
            d = _POW_NB[kf]
            qc[i] //= d
            qp[i] //= d
    return add


@_inline
def _empty(qc: IntArray) -> bool:
    for i in range(qc.shape[0]):
        if qc[i]:
            return False
    return True


@_inline
def _full(qp: IntArray, full: int) -> bool:
    """Whether every queue holds its last card (``qp`` at ``full``): the automatic wake."""
    for i in range(qp.shape[0]):
        if qp[i] != full:
            return False
    return True


@_inline
def _popcount(b: int) -> int:
    """The number of set bits of ``b`` (below 2**32)."""
    b = b - ((b >> 1) & 0x55555555)
    b = (b & 0x33333333) + ((b >> 2) & 0x33333333)
    return (((b + (b >> 4)) & 0x0F0F0F0F) * 0x01010101 & 0xFFFFFFFF) >> 24


@_inline
def _nth(b: int, j: int) -> int:
    """The position of the ``j``-th set bit of ``b`` (0: the lowest); 0 past the last."""
    for _ in range(j):
        b &= b - 1
    if not b:
        return 0
    return _trailing_zeros(b)


@_inline
def _choose(qc: IntArray, qp: IntArray, hand: int, base: int, at: int, may_wake: bool,
            us: npt.NDArray[np.float64], ys: npt.NDArray[np.float64],
            rows: npt.NDArray[np.int16], n: int, choice: npt.NDArray[np.int16],
            explore: float, random_ties: bool, full: int) -> tuple[int, int, bool]:
    """The rollout policy's turn for the row (``playout_batch._Kernel.choose``):
    ``(value, queue, wake)``; ``base`` the row's token and mover in :func:`_tables`'
    ``rows``. The plays tied for the least rise are listed queue by queue, value by
    value (bit ``5 q + v - 1``), then the wake when it ties."""
    nq = qc.shape[0]
    best = 1 << 30
    ties = 0
    may = may_wake
    for i in range(nq):
        c = qc[i] if qc[i] < _SZ3 - 1 else _SZ3 - 1
        key = np.int64(choice[np.int64(rows[base + c * n]) + hand])
        least = key >> 5
        if least < best:
            best = least
            ties = (key & 31) << (5 * i)
        elif least == best:
            ties |= (key & 31) << (5 * i)
        if qp[i] <= BASE:
            may = False
    wake = may and best > _OFF
    tie_wake = may and best == _OFF
    j = 0
    if random_ties:
        nt = _popcount(ties)
        ntot = nt + 1 if tie_wake else nt
        j = np.int64(ys[at] * ntot)
        if tie_wake and j == nt:
            wake = True
    p = _nth(ties, j)
    v = p % 5 + 1
    q = p // 5
    if explore > 0:
        x = us[at]
        if x < explore:
            nr = 0
            for i in range(nq):
                if qp[i] < full:
                    nr += 1
            i = np.int64(x / explore * (_popcount(hand) * nr))
            v = _nth(hand, i // nr) + 1
            r = i % nr
            q = 0
            for qi in range(nq):
                if qp[qi] < full:
                    if r == 0:
                        q = qi
                        break
                    r -= 1
            wake = False
    return v, q, wake


@_jit
def _play(qc0: IntArray, qp0: IntArray, hp0: IntArray, chain: IntArray,
          ulen: int, us: npt.NDArray[np.float64], ys: npt.NDArray[np.float64],
          swats: npt.NDArray[np.int32], rows: npt.NDArray[np.int16],
          choice: npt.NDArray[np.int16], mask: IntArray, step: IntArray,
          mv: IntArray, mq: IntArray, mw: npt.NDArray[np.bool_], mr: IntArray,
          ma: npt.NDArray[np.bool_], n: int, seat0: int, left: int, explore: float,
          random_ties: bool, change: bool, full: int, reference: bool) -> IntArray:
    """Every row played to the end: the move rows (world by world, move by move: the
    root move, then the policy), then with ``reference`` a row per world where the policy
    plays the root seat's turn too. Returns each row's packed added penalties."""
    nw, nq = qc0.shape
    nm = mv.shape[0]
    nrow = nw * nm
    total = nrow + (nw if reference else 0)
    res = np.empty(total, dtype=np.int64)
    qc = np.empty(nq, dtype=np.int64)
    qp = np.empty(nq, dtype=np.int64)
    hp = np.empty(n, dtype=np.int64)
    block = n * _SZ3
    for r in range(total):
        if r < nrow:
            w = r // nm
            m = r - w * nm
        else:
            w = r - nrow
            m = -1
        for i in range(nq):
            qc[i] = qc0[w, i]
            qp[i] = qp0[w, i]
        for i in range(n):
            hp[i] = hp0[w, i]
        fine = 0
        k = 0
        tok = chain[w, 0]
        if m >= 0:  # the root seat's move (Simulator.apply)
            if mw[m]:
                fine += _swat(qc, qp, tok, swats, n, False)
                k += 1
                tok = chain[w, k]
            rot = mr[m]
            if rot >= 0 and not ma[m]:
                code = qc[rot]
                qc[rot] = code // BASE + (code % BASE) * (qp[rot] // BASE)
            v = mv[m]
            q = mq[m]
            hp[seat0] -= step[v]
            qc[q] += (v * 5 + seat0 - 4) * qp[q]
            qp[q] *= BASE
            if rot >= 0 and ma[m]:
                code = qc[rot]
                qc[rot] = code // BASE + (code % BASE) * (qp[rot] // BASE)
            turns = left - 1
            s = seat0 + 1 if seat0 + 1 < n else 0
        else:
            turns = left
            s = seat0
        if m >= 0 and turns > 0:  # the automatic wake after the root move
            if _full(qp, full):
                fine += _swat(qc, qp, tok, swats, n, False)
                k += 1
                tok = chain[w, k]
        for j in range(turns):
            at = w * ulen + 2 * j
            hand = mask[hp[s]]
            v, q, wake = _choose(qc, qp, hand, tok * block + s, at, True, us, ys, rows, n,
                                 choice, explore, random_ties, full)
            if wake:  # swat, a new token, then the best play for the new table
                fine += _swat(qc, qp, tok, swats, n, False)
                k += 1
                tok = chain[w, k]
                v, q, _ = _choose(qc, qp, hand, tok * block + s, at + 1, False, us, ys,
                                  rows, n, choice, explore, random_ties, full)
            hp[s] -= step[v]
            qc[q] += (v * 5 + s - 4) * qp[q]
            qp[q] *= BASE
            if j < turns - 1:
                if _full(qp, full):
                    fine += _swat(qc, qp, tok, swats, n, False)
                    k += 1
                    tok = chain[w, k]
            s = s + 1 if s + 1 < n else 0
        # daybreak (RULES.md §6): swat passes until the table is empty
        while True:
            fine += _swat(qc, qp, tok, swats, n, True)
            if _empty(qc):
                break
            if change:
                k += 1
                tok = chain[w, k]
        res[r] = fine
    return res


def play_compiled(sim: Simulator, moves: Sequence[Move], worlds: Sequence[World],
                  reference: bool) -> list[list[list[int]]]:
    """The compiled kernel behind :func:`~tenleave_widget.analysis.playouts.play_outs`:
    the same arguments, :data:`~tenleave_widget.analysis.playouts.Outcomes` and figures
    as the scalar one. Raises :class:`~tenleave_widget.analysis.playout.Uncovered` for a
    position the tables do not cover (queues of more than 4 cards, more than 3 cards of
    a value)."""
    if not worlds:
        return []
    return play_arrays(sim, moves, world_arrays(sim, worlds), reference)


def play_arrays(sim: Simulator, moves: Sequence[Move], arrays: Arrays,
                reference: bool) -> list[list[list[int]]]:
    """:func:`play_compiled` of worlds given as the kernels' arrays (a row per world):
    ``(qc, qp, hp, chain, us)`` as :func:`~tenleave_widget.analysis.playout_batch.
    world_arrays` or :func:`sample_worlds` returns them."""
    qc0, qp0, hp0, chain, us = arrays
    nw, nm = len(qc0), len(moves)
    if nw == 0:
        return []
    swats, rows, choice = _tables(sim.n, sim.token_pos)
    explore = sim.explore
    ys = ((us - explore) / (1.0 - explore) if explore < 1 else us).ravel()
    res = _play(
        qc0, qp0, hp0, chain, us.shape[1], us.ravel(), ys, swats, rows, choice, _MASK, _STEP,
        np.array([m.value for m in moves], dtype=np.int64),
        np.array([m.queue for m in moves], dtype=np.int64),
        np.array([m.wake for m in moves], dtype=np.bool_),
        np.array([-1 if m.rotate is None else m.rotate for m in moves], dtype=np.int64),
        np.array([m.after for m in moves], dtype=np.bool_),
        sim.n, sim.seat, sim.cards_left, float(explore), bool(sim.random_ties),
        bool(sim.daybreak_change), BASE ** sim.cap, bool(reference))
    return outcomes(sim, res, nw, nm)


def compile_kernel() -> None:
    """Compile the kernel and its world sampler now (or load them from numba's cache): a
    position of 3 seats, one world sampled and played out. A caller that would rather
    pay the compile up front (a benchmark, a server) calls it; otherwise the first
    play-out call does."""
    from ..engine.game import Game
    from .playout import Policy

    pos = Position(Game(3, seed=1).view(0))
    play_arrays(Simulator(pos, Policy()), [Move(1, 0)], sample_worlds(pos, [0])[0], True)


# ---------------------------------------------------------------- worlds, sampled here

_M32 = 0xFFFFFFFF


def _mt_start() -> IntArray:
    """The Mersenne Twister's state after ``init_genrand(19650218)``, where every
    ``init_by_array`` begins."""
    mt = [19650218]
    for i in range(1, 624):
        p = mt[-1]
        mt.append((1812433253 * (p ^ (p >> 30)) + i) & _M32)
    return np.array(mt, dtype=np.int64)


_MT_START = _mt_start()


@_inline
def _mt_seed(mt: IntArray, key: npt.NDArray[np.uint32], k0: int, kn: int) -> None:
    """CPython's ``Random.seed`` of an integer, in ``mt`` (624 words, then the index):
    the Mersenne Twister's ``init_by_array`` of the integer's 32-bit words
    ``key[k0:k0 + kn]``, least significant first (``_randommodule.c``)."""
    for i in range(624):  # init_genrand(19650218), the same for every seed
        mt[i] = _MT_START[i]
    i = 1
    j = 0
    for _ in range(624 if kn < 624 else kn):
        p = mt[i - 1]
        mt[i] = ((mt[i] ^ ((p ^ (p >> 30)) * 1664525)) + np.int64(key[k0 + j]) + j) & _M32
        i += 1
        j += 1
        if i >= 624:
            mt[0] = mt[623]
            i = 1
        if j >= kn:
            j = 0
    for _ in range(623):
        p = mt[i - 1]
        mt[i] = ((mt[i] ^ ((p ^ (p >> 30)) * 1566083941)) - i) & _M32
        i += 1
        if i >= 624:
            mt[0] = mt[623]
            i = 1
    mt[0] = 0x80000000
    mt[624] = 624


_BLOCK = 32
"""Worlds whose generators are seeded side by side (:func:`_mt_seed_block`)."""


@_inline
def _mt_seed_block(mtb: IntArray, kb: IntArray, kn: int, nb: int) -> None:
    """:func:`_mt_seed` of ``nb`` keys of ``kn < 624`` words side by side: key ``b`` is
    ``kb[:, b]``, its state ``mtb[:, b]`` (624 words). The same arithmetic word for word;
    each seeding is a chain of 1,247 dependent steps, and ``nb`` chains interleaved keep
    the processor busy (and fit its vector registers) where one leaves it waiting."""
    for i in range(624):
        for b in range(nb):
            mtb[i, b] = _MT_START[i]
    i = 1
    j = 0
    for _ in range(624):
        for b in range(nb):
            p = mtb[i - 1, b]
            mtb[i, b] = ((mtb[i, b] ^ ((p ^ (p >> 30)) * 1664525)) + kb[j, b] + j) & _M32
        i += 1
        j += 1
        if i >= 624:
            for b in range(nb):
                mtb[0, b] = mtb[623, b]
            i = 1
        if j >= kn:
            j = 0
    for _ in range(623):
        for b in range(nb):
            p = mtb[i - 1, b]
            mtb[i, b] = ((mtb[i, b] ^ ((p ^ (p >> 30)) * 1566083941)) - i) & _M32
        i += 1
        if i >= 624:
            for b in range(nb):
                mtb[0, b] = mtb[623, b]
            i = 1
    for b in range(nb):
        mtb[0, b] = 0x80000000


@_inline
def _mt_next(mt: IntArray) -> int:
    """The generator's next 32-bit output (``genrand_uint32``), the state regenerated a
    word at a time as it is read (the same words as CPython's whole-table twist: each
    word is computed from the same inputs, in the same order)."""
    k = mt[624]
    if k >= 624:
        k = 0
    if k < 227:
        y = (mt[k] & 0x80000000) | (mt[k + 1] & 0x7FFFFFFF)
        mt[k] = mt[k + 397] ^ (y >> 1) ^ (0x9908B0DF if y & 1 else 0)
    elif k < 623:
        y = (mt[k] & 0x80000000) | (mt[k + 1] & 0x7FFFFFFF)
        mt[k] = mt[k - 227] ^ (y >> 1) ^ (0x9908B0DF if y & 1 else 0)
    else:
        y = (mt[623] & 0x80000000) | (mt[0] & 0x7FFFFFFF)
        mt[623] = mt[396] ^ (y >> 1) ^ (0x9908B0DF if y & 1 else 0)
    mt[624] = k + 1
    y = int(mt[k])
    y ^= y >> 11
    y ^= (y << 7) & 0x9D2C5680
    y ^= (y << 15) & 0xEFC60000
    y ^= y >> 18
    return y


@_jit
def _sample(key: npt.NDArray[np.uint32], koff: IntArray, pools: IntArray, poff: IntArray,
            sg: IntArray, sk: IntArray, sq: IntArray, so: IntArray, sd: IntArray,
            qc_base: IntArray, full_hands: IntArray, token: int, others: int, bits: int,
            clen: int, ulen: int) -> tuple[IntArray, IntArray, IntArray,
                                           npt.NDArray[np.float64], IntArray, bool]:
    """The worlds of :class:`~tenleave_widget.analysis.playout_position.World` under the
    uniform deal, one per seed (the words ``key[koff[w]:koff[w + 1]]`` of the integer a
    ``random.Random`` is seeded with), drawing the same numbers in the same order:
    each group's pool shuffled (``pools[poff[g]:poff[g + 1]]``, ``Random.shuffle``), the
    token chain, the per-turn numbers. The table's unknown slots ``s`` (group ``sg``,
    its index in the group ``sk``, queue ``sq``, owner ``so``, 26 to the power of its
    place ``sd``) are filled from the shuffled pools. Returns ``(qc, hp, chain, us,
    fills, covered)``: the kernels' queue codes and packed hands, the chain, the numbers,
    each slot's value, and whether every hand holds at most 3 cards of a value."""
    nw = koff.shape[0] - 1
    nq = qc_base.shape[0]
    n = full_hands.shape[0]
    ns = sg.shape[0]
    ng = poff.shape[0] - 1
    qc = np.empty((nw, nq), dtype=np.int64)
    hp = np.empty((nw, n), dtype=np.int64)
    chain = np.empty((nw, clen), dtype=np.int64)
    us = np.empty((nw, ulen), dtype=np.float64)
    fills = np.empty((nw, ns), dtype=np.int64)
    mt = np.empty(625, dtype=np.int64)
    p = np.empty(pools.shape[0], dtype=np.int64)
    hands = np.empty((n, 6), dtype=np.int64)
    covered = True
    mtb = np.empty((624, _BLOCK), dtype=np.int64)
    kb = np.empty((624, _BLOCK), dtype=np.int64)
    b0 = nw  # the first world of the block in mtb (none yet)
    for w in range(nw):
        if w >= b0 + _BLOCK or w < b0:  # seed the next block side by side, if it can be
            kn = koff[w + 1] - koff[w]
            nb = min(_BLOCK, nw - w)
            same = kn < 624
            for b in range(nb):
                if koff[w + b + 1] - koff[w + b] != kn:
                    same = False
            if same:
                for b in range(nb):
                    for j in range(kn):
                        kb[j, b] = key[koff[w + b] + j]
                _mt_seed_block(mtb, kb, kn, nb)
                b0 = w
            else:
                b0 = nw
        if b0 <= w:
            for i in range(624):
                mt[i] = mtb[i, w - b0]
            mt[624] = 624
        else:
            _mt_seed(mt, key, koff[w], koff[w + 1] - koff[w])
        for g in range(ng):  # Random.shuffle of each pool in turn
            a = poff[g]
            for i in range(a, poff[g + 1]):
                p[i] = pools[i]
            for i in range(poff[g + 1] - a - 1, 0, -1):
                sh = 32  # 32 less the bits of i + 1: getrandbits((i + 1).bit_length())
                m = i + 1
                while m:
                    sh -= 1
                    m >>= 1
                j = _mt_next(mt) >> sh
                while j > i:
                    j = _mt_next(mt) >> sh
                t = p[a + i]
                p[a + i] = p[a + j]
                p[a + j] = t
        for q in range(nq):
            qc[w, q] = qc_base[q]
        for o in range(n):
            for v in range(6):
                hands[o, v] = full_hands[o, v]
        for s in range(ns):
            v = p[poff[sg[s]] + sk[s]]
            fills[w, s] = v
            qc[w, sq[s]] += (1 + (v - 1) * 5 + so[s]) * sd[s]
            hands[so[s], v] -= 1
        for o in range(n):
            h = 0
            for v in range(1, 6):
                c = hands[o, v]
                if c > 3:
                    covered = False
                h |= c << (2 * (v - 1))
            hp[w, o] = h
        chain[w, 0] = token
        last = token
        c = 1
        while c < clen:
            j = _mt_next(mt) >> (32 - bits)
            if j < others:
                last = j if j < last else j + 1
                chain[w, c] = last
                c += 1
        for u in range(ulen):
            a32 = _mt_next(mt) >> 5
            b32 = _mt_next(mt) >> 6
            us[w, u] = (a32 * 67108864.0 + b32) * (1.0 / 9007199254740992.0)
    return qc, hp, chain, us, fills, covered


def seed_words(seed: str | int) -> bytes:
    """The 32-bit words, least significant first (4 bytes each, little-endian), of the
    integer ``random.Random(seed)`` seeds its Mersenne Twister with: a string's UTF-8
    bytes followed by their SHA-512 digest, read as one big-endian integer (``random``'s
    seed version 2), an integer's absolute value."""
    if isinstance(seed, str):  # the integer's bytes reversed, without making it
        b = seed.encode()
        le = (b + hashlib.sha512(b).digest())[::-1].rstrip(b"\0")
        return le + bytes(-len(le) % 4) if le else bytes(4)
    x = abs(seed)
    return x.to_bytes(4 * max(1, (x.bit_length() + 31) // 32), "little")


def _keys(seeds: Sequence[str | int]) -> tuple[npt.NDArray[np.uint32], IntArray]:
    """The words of every seed's integer (:func:`seed_words`), one after another, and
    where each seed's start (one more offset than seeds, the last the end). Integer seeds
    of two words (``2**32 <= seed < 2**64``, as the one analysis seeds its worlds) are
    read in one numpy call, without a Python step per seed."""
    # the range checked before numpy sees the integers (numpy 1.x wraps a negative one
    # into an unsigned array with a warning, numpy 2 refuses it)
    ints = cast("Sequence[int]", seeds)
    if seeds and set(map(type, seeds)) == {int} and 1 << 32 <= min(ints) \
            and max(ints) < 1 << 64:
        big = np.array(ints, dtype=np.uint64)
        return (big.astype("<u8").view("<u4"),
                np.arange(0, 2 * len(big) + 1, 2, dtype=np.int64))
    words = [seed_words(s) for s in seeds]
    key = np.frombuffer(b"".join(words), dtype="<u4")
    koff = np.cumsum([0] + [len(w) >> 2 for w in words], dtype=np.int64)
    return key, koff


_Layout = tuple[IntArray, IntArray, IntArray, IntArray, IntArray, IntArray, IntArray,
                IntArray, IntArray, IntArray]
_LAYOUTS: weakref.WeakKeyDictionary[Position, _Layout] = weakref.WeakKeyDictionary()


def _layout(pos: Position) -> _Layout:
    """What :func:`_sample` reads of a position, memoised: the pools listed with their
    offsets, the unknown table slots' (group, index in the group, queue, owner, 26 to the
    power of the place), the queue codes of the known cards, the hands of
    :attr:`Position.full_hands`, and each queue's 26 to the power of its length."""
    got = _LAYOUTS.get(pos)
    if got is None:
        i64 = np.int64
        pools = np.array([v for pool in pos.pools for v in pool], dtype=i64)
        poff = np.cumsum([0] + [len(pool) for pool in pos.pools], dtype=i64)
        slots = np.array(pos.slots, dtype=i64).reshape(-1, 5)
        sq, si, sg, sk, so = slots.T
        base = np.zeros(len(pos.queues), dtype=i64)
        for q, row in enumerate(pos.queues):
            for i, x in enumerate(row):
                if x >= 0:
                    base[q] += (1 + ((x >> 3) - 1) * 5 + (x & 7)) * BASE ** i
        qp = _POW.take([len(row) for row in pos.queues])
        got = _LAYOUTS[pos] = (pools, poff, sg.copy(), sk.copy(), sq.copy(), so.copy(),
                               _POW.take(si), base, np.array(pos.full_hands, dtype=i64), qp)
    return got


def sample_worlds(pos: Position, seeds: Sequence[str | int]) -> tuple[Arrays, IntArray]:
    """The worlds ``World(pos, random.Random(seed), pos.cards_left)`` of the uniform deal,
    one per seed, sampled in machine code as the kernels' arrays: the same worlds number
    for number (the same Mersenne Twister, seeded and drawn as CPython's
    ``random.Random`` does, the same draws in the same order). Returns the
    :data:`Arrays` and each unknown table slot's value per world (a row per world, the
    slots of :attr:`Position.slots` in order).

    Raises :class:`~tenleave_widget.analysis.playout.Uncovered` for a position the
    kernels' tables do not cover (queues of more than 4 cards, more than 3 cards of a
    value in a hand), and ``ValueError`` for a position with a single token (as
    ``World`` does: the token chain has nothing to draw)."""
    if pos.cap > MAX_CAP:
        raise Uncovered(f"the batched kernel covers queues of up to {MAX_CAP} cards, "
                        f"not {pos.cap}")
    others = len(pos.token_pos) - 1
    if others < 1:
        raise ValueError("a token chain needs two tokens or more")
    key, koff = _keys(seeds)
    pools, poff, sg, sk, sq, so, sd, base, full, qp = _layout(pos)
    turns = pos.cards_left
    qc, hp, chain, us, fills, covered = _sample(
        key, koff, pools, poff, sg, sk, sq, so, sd, base, full, pos.token, others,
        others.bit_length(), turns + 9, 2 * turns + 2)
    if not covered:
        raise Uncovered("the batched kernel covers hands of up to 3 cards of a value")
    return (qc, np.repeat(qp[None, :], len(qc), axis=0), hp, chain, us), fills


# ---------------------------------------------------------------- exact sums

_PARTIALS = 128
"""Room for the partial sums of :func:`_fsum`: a sum of doubles never needs more than 40
(each partial at least 53 bits below the next, within the 2,098 bits of the doubles)."""


@_inline
def _fsum(xs: npt.NDArray[np.float64], p: npt.NDArray[np.float64]) -> tuple[float, bool]:
    """``math.fsum(xs)``, as CPython computes it (Shewchuk's non-overlapping partial sums,
    then their sum from the top, rounded half-even across them: the exactly rounded sum,
    which is one number whoever computes it). Returns the sum and whether it could make
    it: not for values that are not finite, a partial that overflows, or a sum of 0 with
    a negative zero among the values (whose sign Python versions give differently)."""
    n = 0
    negzero = False
    for k in range(xs.shape[0]):
        x = xs[k]
        if not np.isfinite(x):
            return 0.0, False
        if x == 0.0 and np.signbit(x):
            negzero = True
        i = 0
        for j in range(n):
            y = p[j]
            if abs(x) < abs(y):
                x, y = y, x
            hi = x + y
            yr = hi - x
            lo = y - yr
            if lo != 0.0:
                p[i] = lo
                i += 1
            x = hi
        n = i
        if x != 0.0:
            if not np.isfinite(x) or n >= _PARTIALS:
                return 0.0, False
            p[n] = x
            n += 1
    hi = 0.0
    if n > 0:
        n -= 1
        hi = p[n]
        lo = 0.0
        while n > 0:
            x = hi
            n -= 1
            y = p[n]
            hi = x + y
            yr = hi - x
            lo = y - yr
            if lo != 0.0:
                break
        if n > 0 and ((lo < 0.0 and p[n - 1] < 0.0) or (lo > 0.0 and p[n - 1] > 0.0)):
            y = lo * 2.0
            x = hi + y
            yr = x - hi
            if y == yr:
                hi = x
    return hi, not (hi == 0.0 and negzero)


@_jit
def _mean_squares(xs: npt.NDArray[np.float64]) -> tuple[float, float, bool]:
    """The mean ``math.fsum(xs) / n`` and ``math.fsum`` of the squares ``(x - m) * (x -
    m)``, and whether :func:`_fsum` could make both."""
    n = xs.shape[0]
    p = np.empty(_PARTIALS, dtype=np.float64)
    s, ok = _fsum(xs, p)
    if not ok:
        return 0.0, 0.0, False
    m = s / n
    sq = np.empty(n, dtype=np.float64)
    for k in range(n):
        d = xs[k] - m
        sq[k] = d * d
    ss, ok = _fsum(sq, p)
    return m, ss, ok


def mean_squares(xs: Sequence[float]) -> tuple[float, float] | None:
    """The mean of ``xs`` (``math.fsum(xs) / len(xs)``) and the exact sum of the squares
    of their differences from it (``math.fsum([(x - m) * (x - m) for x in xs])``), the
    same bits as those expressions, in machine code; ``None`` where the values hold a
    value that is not finite or a negative zero summing to 0 (Python then computes
    them). ``xs`` must not be empty."""
    m, ss, ok = _mean_squares(np.fromiter(xs, np.float64, len(xs)))
    return (m, ss) if ok else None
