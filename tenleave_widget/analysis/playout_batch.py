"""The batched play-out kernel: every world and every root move advanced together, in numpy.

The same game as :class:`~tenleave_widget.analysis.playout.Simulator` (the reference), on
arrays: one *row* per (world, move) pair, plus one per world for the reference play-out;
Python loops over the turns of the rest of the game, never over rows. Each row consumes
its :class:`~tenleave_widget.analysis.playout_position.World`'s random numbers ``us`` and
token chain ``chain`` exactly as the simulator does (the same number decides the same
turn: explore draw, tie index, the play after a wake), so both kernels give the
**identical** final penalties for the same worlds, under any :class:`Policy` (the tests
compare them world by world).

The state of a row:

- each queue as one integer, a base-26 *digit* per card, front first in the lowest digit
  (digit ``1 + (value - 1) * 5 + owner``, 0 = no card): a card joins the back by adding
  its digit times ``26 ** len``, a swat of ``k`` cards is an integer division by
  ``26 ** k``, a rotation moves the lowest digit to the top;
- the hands as counts per seat and value; the penalties; the index into the token chain.

Two tables, built once per token set (:func:`tables`) by the vectorised rules below and
tested against the swat kernel (:mod:`tenleave_widget.engine.swat`) and the simulator's
table on every queue they cover:

- the *swat* of every queue of up to 4 cards under every token (:func:`swat_codes`): how
  many cards it flips and which of them are swatted (a bit per position);
- the *rise*: per token, seat and queue of up to 3 cards, how much the seat's penalty of a
  swat right now rises if it adds a card of value 1..5 (the greedy policy's table,
  :meth:`Simulator.table`); a full queue reads a sentinel row of 100 (no room).

>>> import random
>>> from tenleave_widget import Game
>>> from tenleave_widget.analysis.playout import Move, Policy, Simulator
>>> from tenleave_widget.analysis.playout_position import Position, World
>>> from tenleave_widget.analysis.playouts import KERNELS
>>> pos = Position(Game(3, seed=2).view(0))
>>> sim = Simulator(pos, Policy())
>>> worlds = [World(pos, random.Random(i), pos.cards_left) for i in range(20)]
>>> moves = [Move(1, 0), Move(2, 1), Move(5, 0)]
>>> play_batch(sim, moves, worlds, True) == KERNELS["scalar"](sim, moves, worlds, True)
True
"""

from __future__ import annotations

import gc
import itertools
from collections.abc import Sequence
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from ..engine.rules import TARGET
from .playout import Move, Simulator, Uncovered
from .playout_position import World

__all__ = ["BASE", "MAX_CAP", "Tables", "Uncovered", "digit", "outcomes", "play_batch",
           "rise_codes", "swat_codes", "tables", "world_arrays"]

IntArray = npt.NDArray[np.int64]

BASE = 26
"""The base of a queue's integer: a digit per card, 0 = none, ``1 + (value - 1) * 5 +
owner`` for a card (values 1..5, owners 0..4)."""

MAX_CAP = 4
"""The largest queue capacity the tables cover (the rules' is 4); a larger one plays on
the scalar simulator (:func:`play_batch` raises :class:`SetupError`)."""

_NO_ROOM = 100
_NOT_HELD = 99
_POW = np.array([BASE ** i for i in range(MAX_CAP + 2)], dtype=np.int64)
_SZ3 = BASE ** (MAX_CAP - 1) + 1  # the rise table's codes (up to 3 cards) and a sentinel
_SZ4 = BASE ** MAX_CAP


def digit(value: int, owner: int) -> int:
    """The digit of a card of ``value`` (1..5) owned by seat ``owner`` (0..4).

    >>> digit(1, 0), digit(5, 4)
    (1, 25)
    """
    return 1 + (value - 1) * 5 + owner


def _digits(codes: IntArray, width: int) -> IntArray:
    """The first ``width`` digits of each code, front first: shape ``codes.shape + (width,)``."""
    return (codes[..., None] // _POW[:width]) % BASE


def swat_codes(codes: IntArray, positions: Sequence[int]) -> tuple[IntArray, IntArray]:
    """The swat (RULES.md §4) of each queue code, vectorised: ``(flipped, hit)``, the
    number of cards flipped from the front and a bit per flipped card swatted (bit i =
    position i + 1), under a token of ``positions`` (1 = the front). Codes whose digits
    are not a queue (a card after an empty slot) give meaningless figures.

    >>> c = np.array([digit(4, 0) + digit(5, 1) * 26 + digit(3, 2) * 26**2])  # 4 5 3
    >>> swat_codes(c, (1, 2))  # 12 > 10: positions I and II
    (array([3]), array([3]))
    """
    d = _digits(codes, MAX_CAP)
    vals = np.where(d > 0, (d - 1) // 5 + 1, 0)
    length = (d > 0).sum(-1)
    cs = vals.cumsum(-1)
    reach = cs >= TARGET
    k = np.where(reach.any(-1), reach.argmax(-1) + 1, length)
    total = np.take_along_axis(cs, np.maximum(k - 1, 0)[..., None], -1)[..., 0]
    flipped = np.arange(MAX_CAP) < k[..., None]
    fv = np.where(flipped, vals, 0)
    top = fv.max(-1)
    under = flipped & (fv == top[..., None]) & (k[..., None] > 0)
    posmask = np.isin(np.arange(1, MAX_CAP + 1), np.asarray(positions, dtype=np.int64))
    over = flipped & posmask
    hit = np.where((total < TARGET)[..., None], under,
                   np.where((total > TARGET)[..., None], over, False))
    bits = (hit.astype(np.int64) << np.arange(MAX_CAP)).sum(-1)
    return k.astype(np.int64), bits


def rise_codes(codes: IntArray, positions: Sequence[int], seat: int) -> IntArray:
    """The greedy policy's table, vectorised: for each queue code of up to 3 cards, how
    much ``seat``'s penalty of a swat of the queue right now rises if it adds a card of
    value 1..5 at the back (shape ``codes.shape + (5,)``), under a token of ``positions``;
    the same figures as :meth:`Simulator.table`.

    >>> rise_codes(np.array([digit(4, 1)]), (1, 2), 0)  # a 4 ties seat 1's 4, a 5 tops it
    array([[0, 0, 0, 4, 5]])
    """
    d = _digits(codes, MAX_CAP - 1)
    vals = np.where(d > 0, (d - 1) // 5 + 1, 0)
    mine = (d > 0) & ((d - 1) % 5 == seat)
    length = (d > 0).sum(-1)
    total = vals.sum(-1)
    top = vals.max(-1)
    base = top * (mine & (vals == top[..., None])).sum(-1)
    posmask = np.isin(np.arange(1, MAX_CAP + 2), np.asarray(positions, dtype=np.int64))
    hit_mine = (np.where(mine & posmask[:MAX_CAP - 1], vals, 0)).sum(-1)
    new_hit = posmask[length]  # position len + 1: the card added
    v = np.arange(1, 6)
    tv = total[..., None] + v
    top_, base_ = top[..., None], base[..., None]
    under = np.where(v > top_, v, np.where(v == top_, base_ + v, base_))
    over = hit_mine[..., None] + new_hit[..., None] * v
    p = np.where(tv < TARGET, under, np.where(tv == TARGET, 0, over))
    return np.where((total >= TARGET)[..., None], 0, p - base_).astype(np.int64)


class Tables(NamedTuple):
    """The kernel's tables for one seat count and token set (:func:`tables`)."""

    flips: npt.NDArray[np.uint8]
    """``flips[tok * 26**4 + code]``: how many cards the swat of the queue flips."""
    fines: npt.NDArray[np.int32]
    """``fines[tok * 26**4 + code]``: what the swat adds to each seat's penalty, 6 bits a
    seat (seat s at bit 6 s)."""
    row: npt.NDArray[np.int32]
    """``row[(tok * n + seat) * (26**3 + 1) + code]``: the number of the distinct row of
    rises (:func:`rise_codes`) of the queue for the seat, times 32; the last code of each
    block is a full queue."""
    choice: npt.NDArray[np.int16]
    """``choice[row + hand]``: for a hand (bit v - 1 for value v held), the least rise of
    a play to the queue (plus 64) times 32, plus a bit per value giving it; a full queue
    gives no play, an empty hand a least rise of 99."""


_TABLES: dict[tuple[int, tuple[tuple[int, ...], ...]], Tables] = {}
_SWATS: dict[tuple[int, ...], tuple[npt.NDArray[np.uint8], npt.NDArray[np.int32]]] = {}
_OFF = 64  # the offset of a least rise in the choice table (rises are above -64)
_FIELD = 6  # bits per seat of a packed penalty (a seat's cards add at most 50)
_BITS = (np.arange(1 << 15, dtype=np.int64)[:, None] >> np.arange(15)) & 1  # bit i of b
_POPC = _BITS.sum(-1)
"""The number of set bits of every 15-bit integer."""
_NTH = np.sort(np.where(_BITS > 0, np.arange(15, dtype=np.int8), np.int8(15)), axis=-1)
_NTH = np.pad(np.where(_NTH < 15, _NTH, 0).astype(np.int8), ((0, 0), (0, 1))).ravel()
_NTHQ = _NTH // 5
_NTHV = _NTH % 5 + 1
"""``_NTHQ[bits * 16 + j]``, ``_NTHV[...]``: the queue and value of the j-th set bit of
``bits`` (bit ``5 q + v - 1`` for value v on queue q; 0 past the last set bit)."""
del _BITS, _NTH


_CODES: list[tuple[IntArray, IntArray, IntArray, IntArray]] = []


def _all_codes() -> tuple[IntArray, IntArray, IntArray, IntArray]:
    """Every code of up to 4 cards, token aside: the cards flipped, the total, the cards
    swatted when the total is under 10 (bits), and per position the card's value shifted
    to its owner's penalty field (:data:`_FIELD`)."""
    if not _CODES:
        d = np.stack(np.meshgrid(*[np.arange(BASE, dtype=np.int8)] * MAX_CAP, indexing="ij")
                     [::-1], axis=-1).reshape(-1, MAX_CAP)  # digits of 0, 1, 2, ... front first
        vals = np.where(d > 0, (d - 1) // 5 + 1, 0).astype(np.int8)
        cs = vals.cumsum(-1, dtype=np.int8)
        reach = cs >= TARGET
        k = np.where(reach.any(-1), reach.argmax(-1) + 1, (d > 0).sum(-1)).astype(np.int64)
        total = np.take_along_axis(cs, np.maximum(k - 1, 0)[:, None], -1)[:, 0]
        flipped = np.arange(MAX_CAP) < k[:, None]
        fv = np.where(flipped, vals, 0)
        under = flipped & (fv == fv.max(-1)[:, None]) & (k[:, None] > 0)
        bits = (under.astype(np.int64) << np.arange(MAX_CAP)).sum(-1)
        fine = vals.astype(np.int32) << (_FIELD * ((d - 1) % 5)).astype(np.int32)
        _CODES.append((k, total, bits, fine))
    return _CODES[0]


def _swat_tables(positions: tuple[int, ...]) -> tuple[npt.NDArray[np.uint8],
                                                      npt.NDArray[np.int32]]:
    """The flips and fines (:class:`Tables`) of every queue code under one token: the
    same rules as :func:`swat_codes`, written on the token-free part of every code."""
    got = _SWATS.get(positions)
    if got is None:
        k, total, under, fine = _all_codes()
        pos = sum(1 << (p - 1) for p in set(positions) if 1 <= p <= MAX_CAP)
        over = pos & ((1 << k) - 1)
        bits = np.where(total < TARGET, under, np.where(total > TARGET, over, 0))
        fines = np.zeros(len(k), dtype=np.int64)
        for i in range(MAX_CAP):
            fines += ((bits >> i) & 1) * fine[:, i]
        got = _SWATS[positions] = (k.astype(np.uint8), fines.astype(np.int32))
    return got


def tables(n: int, token_pos: Sequence[Sequence[int]]) -> Tables:
    """The kernel's :class:`Tables` for ``n`` seats and the tokens' positions, memoised
    (about 11 MB for the printed game's four tokens at 5 seats)."""
    key = (n, tuple(tuple(p) for p in token_pos))
    got = _TABLES.get(key)
    if got is None:
        c3 = np.arange(_SZ3 - 1, dtype=np.int64)
        rise = np.empty((len(token_pos) * n * _SZ3, 5), dtype=np.int64)
        for t, positions in enumerate(token_pos):
            for s in range(n):
                at = (t * n + s) * _SZ3
                rise[at:at + _SZ3 - 1] = rise_codes(c3, positions, s)
                rise[at + _SZ3 - 1] = _NO_ROOM
        packed = ((rise + _OFF) << (8 * np.arange(5))).sum(-1)  # a row as one integer
        uniq, row = np.unique(packed, return_inverse=True)
        rows = (uniq[:, None] >> (8 * np.arange(5))) % 256 - _OFF
        hand = np.arange(32)
        held = (hand[:, None] >> np.arange(5)) & 1 > 0  # (32, 5)
        r = np.where(held[None], rows[:, None, :], _NOT_HELD)  # (u, 32, 5)
        least = r.min(-1)
        ties = ((r == least[..., None]) & held[None]) & (least < _NO_ROOM)[..., None]
        bits = (ties.astype(np.int64) << np.arange(5)).sum(-1)
        choice = ((least + _OFF) * 32 + bits).astype(np.int16).ravel()
        swats = [_swat_tables(tuple(p)) for p in key[1]]
        got = _TABLES[key] = Tables(
            np.concatenate([f for f, _ in swats]), np.concatenate([x for _, x in swats]),
            (row.ravel() * 32).astype(np.int32), choice)
    return got


_MASK = np.array([sum(1 << v for v in range(5) if h >> (2 * v) & 3) for h in range(1 << 10)],
                 dtype=np.int64)
"""A hand's mask (bit v - 1 for value v held) by its packed counts (2 bits a value)."""
_STEP = np.array([0] + [1 << (2 * (v - 1)) for v in range(1, 6)], dtype=np.int64)
"""What playing a card of value v takes from a packed hand."""


class _State:
    """The rows' state (see the module docstring), one column per row: ``qc`` and ``qp``
    per queue (its code, and 26 to the power of its length: where the next card's digit
    goes), ``hp`` per seat (the hand's counts, 2 bits a value, value 1 lowest), ``fine``
    (the penalties added, packed 6 bits a seat), ``k`` (the index into the row's token
    chain), ``tok`` (its token), ``wrow`` (its world)."""

    __slots__ = ("qc", "qp", "hp", "fine", "k", "tok", "wrow")

    def __init__(self, qc: IntArray, qp: IntArray, hp: IntArray, fine: IntArray,
                 k: IntArray, tok: IntArray, wrow: IntArray) -> None:
        self.qc, self.qp, self.hp, self.fine = qc, qp, hp, fine
        self.k, self.tok, self.wrow = k, tok, wrow

    def arrays(self) -> list[IntArray]:
        return [self.qc, self.qp, self.hp, self.fine, self.k, self.tok, self.wrow]

    def sub(self, a: int, b: int) -> _State:
        """The rows ``a..b-1``, copied (contiguous: the kernel indexes them flat)."""
        return _State(*[x[..., a:b].copy() for x in self.arrays()])

    @staticmethod
    def join(a: _State, b: _State) -> _State:
        return _State(*[np.concatenate([x, y], axis=-1)
                        for x, y in zip(a.arrays(), b.arrays(), strict=True)])


class _Kernel:
    """One call's constants: the tables, the policy, the worlds' chains and numbers."""

    def __init__(self, sim: Simulator, chain: IntArray, us: npt.NDArray[np.float64]) -> None:
        self.n, self.nq, self.cap = sim.n, sim.nq, sim.cap
        tab = tables(sim.n, sim.token_pos)
        self.flips, self.fines, self.row, self.choice = tab
        self.explore = sim.explore
        self.random_ties = sim.random_ties
        self.change = sim.daybreak_change
        self.chain, self.clen = chain.ravel(), chain.shape[1]
        self.us, self.ulen = us.ravel(), us.shape[1]
        # the tie index's factor, as the simulator computes it: (x - explore) / spread
        self.ys = (self.us - sim.explore) / (1.0 - sim.explore) if sim.explore < 1 else self.us
        self.shift = (5 * np.arange(self.nq))[:, None]
        self.full = BASE ** sim.cap  # qp of a full queue

    def swat(self, st: _State, rows: IntArray | None, daybreak: bool = False) -> None:
        """Swat every queue of the rows (``None``: all), in place; with ``daybreak`` a
        queue of one card lets it escape unflipped."""
        if rows is None:
            qc, qp, tok = st.qc, st.qp, st.tok
        else:
            qc, qp, tok = st.qc[:, rows], st.qp[:, rows], st.tok[rows]
        at = tok * _SZ4 + qc
        kf = self.flips.take(at)
        fine = self.fines.take(at)
        if daybreak:
            single = qp == BASE
            kf = np.where(single, 1, kf)
            fine = np.where(single, 0, fine)
        add = fine.sum(0)
        div = _POW.take(kf)
        if rows is None:
            st.fine += add
            st.qc //= div
            st.qp //= div
        else:
            st.fine[rows] += add
            st.qc[:, rows] = qc // div
            st.qp[:, rows] = qp // div

    def new_token(self, st: _State, rows: IntArray | None) -> None:
        """The round change of the rows (``None``: all): the next token of their chain."""
        if rows is None:
            st.k += 1
            st.tok[...] = self.chain.take(st.wrow * self.clen + st.k)
        else:
            k = st.k[rows] + 1
            st.k[rows] = k
            st.tok[rows] = self.chain.take(st.wrow[rows] * self.clen + k)

    def daybreak(self, st: _State) -> None:
        """Swat passes until every row's table is empty (RULES.md §6), in place."""
        rows = np.arange(st.qc.shape[1])
        while True:
            self.swat(st, rows, daybreak=True)
            rows = rows[st.qc[:, rows].any(0)]
            if not len(rows):
                return
            if self.change:
                self.new_token(st, rows)

    def choose(self, qc: IntArray, qp: IntArray, hand: IntArray, base: IntArray,
               at: IntArray, may_wake: bool,
               ) -> tuple[IntArray, IntArray, npt.NDArray[np.bool_]]:
        """The rollout policy's turn for each row (:meth:`Simulator.greedy`): ``(value,
        queue, wake)``; ``hand`` the mover's hand mask (bit v - 1 for value v), ``base``
        the start of the row's block of :attr:`Tables.row` (its token and mover), ``at``
        the index of the turn's number in the flat ``us``. The plays tied for the least
        rise are listed queue by queue, value by value, then the wake when it ties."""
        key = self.choice.take(self.row.take(base + np.minimum(qc, _SZ3 - 1)) + hand)
        least = key >> 5
        best = least.min(0)
        ties = (np.where(least == best, key & 31, 0) << self.shift).sum(0)
        nt = _POPC.take(ties)
        if may_wake:
            may = qp.min(0) > BASE  # every queue holds 2 cards or more
            wake = may & (best > _OFF)
            tie_wake = may & (best == _OFF)
            ntot = nt + tie_wake
        else:
            wake = np.zeros(len(hand), dtype=bool)
            ntot = nt
        pick = ties * 16
        if self.random_ties:
            j = (self.ys.take(at) * ntot).astype(np.int64)
            if may_wake:
                wake |= tie_wake & (j == nt)
            pick += j
        v = _NTHV.take(pick, mode="wrap").astype(np.int64)
        q = _NTHQ.take(pick, mode="wrap").astype(np.int64)
        if self.explore > 0:
            x = self.us.take(at)
            e = (x < self.explore).nonzero()[0]
            if len(e):
                he = hand[e]
                room = qp[:, e] < self.full
                nr = room.sum(0)
                i = (x[e] / self.explore * (_POPC.take(he) * nr)).astype(np.int64)
                v[e] = _NTHV.take(he * 16 + i // nr)
                q[e] = (room.cumsum(0) <= i % nr).sum(0)
                wake[e] = False
        return v, q, wake

    def play(self, st: _State, sg: IntArray, held: IntArray, digit0: IntArray,
             v: IntArray, q: IntArray) -> None:
        """Each row's mover plays a card of value ``v`` to the back of queue ``q``:
        ``sg`` indexes the mover's packed hand ``held`` in ``hp``, ``digit0`` is the
        mover's seat - 4 (a card's digit is ``v * 5 + digit0``)."""
        st.hp.put(sg, held - _STEP.take(v))
        qi = q * len(v) + np.arange(len(v))
        p = st.qp.take(qi)
        st.qc.put(qi, st.qc.take(qi) + (v * 5 + digit0) * p)
        st.qp.put(qi, p * BASE)

    def turn(self, st: _State, seat: IntArray, t: int) -> None:
        """One turn of the rollout policy in every row: the choice (a wake: the swat, the
        round change and the choice again, on the numbers ``us[t]``, ``us[t + 1]``) and
        the play."""
        g = len(seat)
        at = st.wrow * self.ulen + t
        sg = seat * g + np.arange(g)
        held = st.hp.take(sg)
        hand = _MASK.take(held)
        sb = seat * _SZ3
        v, q, wake = self.choose(st.qc, st.qp, hand, st.tok * (self.n * _SZ3) + sb, at, True)
        if wake.any():
            rows = wake.nonzero()[0]
            self.swat(st, rows)
            self.new_token(st, rows)
            v2, q2, _ = self.choose(st.qc[:, rows], st.qp[:, rows], hand[rows],
                                    st.tok[rows] * (self.n * _SZ3) + sb[rows], at[rows] + 1,
                                    False)
            v[rows] = v2
            q[rows] = q2
        self.play(st, sg, held, seat - 4, v, q)

    def after_play(self, st: _State) -> None:
        """The automatic wake of the rows whose queues are all full."""
        full = st.qp.min(0) == self.full
        if full.any():
            rows = full.nonzero()[0]
            self.swat(st, rows)
            self.new_token(st, rows)


def play_batch(sim: Simulator, moves: Sequence[Move], worlds: Sequence[World],
               reference: bool) -> list[list[list[int]]]:
    """The batched kernel behind :func:`~tenleave_widget.analysis.playouts.play_outs`:
    the same arguments and :data:`~tenleave_widget.analysis.playouts.Outcomes` as the
    scalar one, the same figures. Raises :class:`Uncovered` for a position its tables
    do not cover."""
    nw, nm, n = len(worlds), len(moves), sim.n
    if nw == 0:
        return []
    left = sim.cards_left
    qc0, qp0, hp0, chain, us = world_arrays(sim, worlds)
    kern = _Kernel(sim, chain, us)

    def state(order: IntArray) -> _State:
        g = len(order)
        return _State(qc0[order].T.copy(), qp0[order].T.copy(), hp0[order].T.copy(),
                      np.zeros(g, dtype=np.int64), np.zeros(g, dtype=np.int64),
                      chain[order, 0], order)

    nrow = nm * nw
    total = nrow + (nw if reference else 0)
    res = np.empty(total, dtype=np.int64)
    seat0 = np.full(total, sim.seat, dtype=np.int64)
    rem = np.full(total, left, dtype=np.int64)
    seat0[:nrow] = (sim.seat + 1) % n
    rem[:nrow] = left - 1
    st = state(np.repeat(np.arange(nw, dtype=np.int64), nm))
    if nm:
        _root(kern, st, moves, nw, sim.seat, left)
    lo = 0  # st holds the rows lo..total-1: the move rows end a turn before the reference's
    if left == 1:
        res[:nrow] = st.fine
        lo = nrow
    if reference:
        ref = state(np.arange(nw, dtype=np.int64))
        st = ref if lo else _State.join(st, ref)
    for j in range(left):
        if lo >= total:
            break
        seat = (seat0[lo:] + j) % n
        kern.turn(st, seat, 2 * j)
        ends = rem[lo:] == j + 1
        if ends.all():
            kern.daybreak(st)
            res[lo:] = st.fine
            lo = total
        elif ends.any():  # the move rows end here (first); the reference rows play on
            cut = int(ends.sum())
            done, st = st.sub(0, cut), st.sub(cut, total - lo)
            kern.daybreak(done)
            res[lo:lo + cut] = done.fine
            kern.after_play(st)
            lo += cut
        else:
            kern.after_play(st)
    return outcomes(sim, res, nw, nm)


def world_arrays(sim: Simulator, worlds: Sequence[World]) -> tuple[
        IntArray, IntArray, IntArray, IntArray, npt.NDArray[np.float64]]:
    """The worlds as the kernels' arrays, a row per world: ``(qc, qp, hp, chain, us)``,
    each queue's code and 26 to the power of its length (per queue), each seat's packed
    hand (2 bits a value), the token chain and the random numbers. Raises
    :class:`Uncovered` for a position the tables do not cover."""
    if sim.cap > MAX_CAP:
        raise Uncovered(f"the batched kernel covers queues of up to {MAX_CAP} cards, "
                        f"not {sim.cap}")
    nw, nq, n = len(worlds), sim.nq, sim.n
    flat = itertools.chain.from_iterable
    queues = list(flat(w.queues for w in worlds))
    lens = np.fromiter(map(len, queues), dtype=np.int64, count=nw * nq)
    cards = np.fromiter(flat(queues), dtype=np.int64)
    at = np.arange(len(cards)) - np.repeat(np.cumsum(lens) - lens, lens)  # place in queue
    digits = 1 + ((cards >> 3) - 1) * 5 + (cards & 7)
    qc0 = np.bincount(np.repeat(np.arange(nw * nq), lens), weights=digits * _POW.take(at),
                      minlength=nw * nq).astype(np.int64).reshape(nw, nq)  # exact: < 2**53
    qp0 = _POW.take(lens).reshape(nw, nq)
    counts = np.fromiter(flat(flat(w.hands for w in worlds)), dtype=np.int64,
                         count=nw * n * 6).reshape(nw, n, 6)[:, :, 1:]
    if counts.max() > 3:
        raise Uncovered("the batched kernel covers hands of up to 3 cards of a value")
    hp0 = (counts << (2 * np.arange(5))).sum(-1)  # (nw, n)
    clen, ulen = len(worlds[0].chain), len(worlds[0].us)
    chains = np.fromiter(flat(w.chain for w in worlds), dtype=np.int64,
                         count=nw * clen).reshape(nw, clen)
    us = np.fromiter(flat(w.us for w in worlds), dtype=np.float64,
                     count=nw * ulen).reshape(nw, ulen)
    return qc0, qp0, hp0, chains, us


def outcomes(sim: Simulator, res: IntArray, nw: int, nm: int) -> list[list[list[int]]]:
    """The :data:`~tenleave_widget.analysis.playouts.Outcomes` of the rows' packed
    penalties ``res`` (the move rows world by world, move by move, then a reference row
    per world if there are more)."""
    n = sim.n
    pen = (np.array(sim.start_penalty, dtype=np.int64)
           + ((res[:, None] >> (_FIELD * np.arange(n))) & 63))
    if len(res) == nw * nm:
        out = pen.reshape(nw, nm, n)
    else:
        out = np.empty((nw, nm + 1, n), dtype=np.int64)
        out[:, :nm] = pen[:nw * nm].reshape(nw, nm, n)
        out[:, nm] = pen[nw * nm:]
    # thousands of small lists, none in a cycle: the cyclic collector, which a run of
    # allocations sets off (each time through every object of the process), has nothing
    # to find in them
    enabled = gc.isenabled()
    gc.disable()
    try:
        return out.tolist()
    finally:
        if enabled:
            gc.enable()


def _root(kern: _Kernel, st: _State, moves: Sequence[Move], nw: int, seat: int,
          left: int) -> None:
    """The root seat's move in each move row (:meth:`Simulator.apply`), in place."""
    g = st.qc.shape[1]
    value = np.tile(np.array([m.value for m in moves], dtype=np.int64), nw)
    queue = np.tile(np.array([m.queue for m in moves], dtype=np.int64), nw)
    wake = np.tile(np.array([m.wake for m in moves], dtype=bool), nw)
    rot = np.tile(np.array([-1 if m.rotate is None else m.rotate for m in moves],
                           dtype=np.int64), nw)
    after = np.tile(np.array([m.after for m in moves], dtype=bool), nw)
    if wake.any():
        rows = wake.nonzero()[0]
        kern.swat(st, rows)
        kern.new_token(st, rows)
    _rotate(st, ((rot >= 0) & ~after).nonzero()[0], rot)
    sg = seat * g + np.arange(g)
    kern.play(st, sg, st.hp.take(sg), np.full(g, seat - 4, dtype=np.int64), value, queue)
    _rotate(st, ((rot >= 0) & after).nonzero()[0], rot)
    if left == 1:
        kern.daybreak(st)
    else:
        kern.after_play(st)


def _rotate(st: _State, rows: IntArray, rot: IntArray) -> None:
    """The front card of queue ``rot[row]`` to its back, in each of the rows."""
    if not len(rows):
        return
    r = rot[rows]
    code = st.qc[r, rows]
    st.qc[r, rows] = code // BASE + (code % BASE) * (st.qp[r, rows] // BASE)
