"""The play-out simulator: the rules of RULES.md §3-6 on packed values, and the rollout
policy every seat plays in the lookahead's worlds (:mod:`~tenleave_widget.analysis.lookahead`).

A second rules engine, on purpose: a play-out runs thousands of times per decision, so the
state is plain lists of small integers (a card is ``value * 8 + owner``: in a sampled world
every card is visible) and the policy reads memoised tables instead of trying each play.
``tests/analysis/test_lookahead.py`` plays the same turns in the engine and here and compares the
queues, tokens and penalties; ``tests/engine/test_swat.py`` checks the specialised swat, daybreak
and table against the swat kernel (:mod:`tenleave_widget.engine.swat`).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..engine.errors import SetupError, excerpt
from .playout_position import Position

__all__ = ["Move", "Policy", "Simulator", "Uncovered"]

_TARGET = 10
_VALUES = (1, 2, 3, 4, 5)


class Uncovered(SetupError):
    """A position a play-out kernel other than :class:`Simulator` does not cover (the
    batched kernel's tables: queues of more than 4 cards, a variant deck of more than 3
    cards of a value): :func:`~tenleave_widget.analysis.playouts.play_outs` then plays it
    on the simulator."""


@dataclass(frozen=True)
class Policy:
    """The rollout policy played by every seat in every world (see the module docstring).

    ``explore``: the share of turns played uniformly at random (card x queue with room);
    ``random_ties``: break ties between equally good plays at random (else the first of
    them, in the order value, then queue). With ``explore=0`` and ``random_ties=False`` the
    play-out of a world is deterministic (the exactness test enumerates every world).
    """

    explore: float = 0.1
    random_ties: bool = True

    def __post_init__(self) -> None:
        if not (isinstance(self.explore, (int, float)) and 0 <= self.explore <= 1):
            raise SetupError(f"policy: explore must be within 0..1, not {excerpt(self.explore)}")


_TABLES: dict[tuple[int, tuple[tuple[int, ...], ...]], dict[tuple[int, ...], list[tuple[int, ...]]]]
_TABLES = {}
"""The memoised queue tables of :class:`Simulator`, per (seats, tokens): exact, shared by calls."""

Ties = tuple[tuple[int, int], ...]
"""The plays ``(value, queue)`` tied for the greedy policy's least rise, value ascending."""

Choices = list[tuple[int, Ties]]
"""One seat's row of a queue's table as the greedy policy reads it (:func:`_choice_row`):
per hand, the least rise and the plays that give it."""

_CHOICES: dict[tuple[int, tuple[tuple[int, ...], ...], int, int],
               list[list[dict[int, list[Choices]]]]]
_CHOICES = {}
"""The memoised :meth:`Simulator.choices`, per (seats, tokens, queues, capacity), then per token
and queue, by :func:`queue_key` (an integer: no tuple to build and hash in the
play-outs' loop)."""

Swatted = tuple[tuple[tuple[int, int], ...], int, int]
"""A queue's swat as the play-outs apply it (:meth:`Simulator.swat_keyed`): the penalties
``(seat, points)``, the cards flipped from the front, and the key of the cards that stay."""

_SWATS: dict[tuple[int, tuple[tuple[int, ...], ...]], list[dict[int, Swatted]]] = {}
"""The memoised swats of :meth:`Simulator.swat_keyed`, per (seats, tokens), then per
token, by :func:`queue_key`."""

_ROWS: dict[tuple[tuple[int, ...], int], Choices] = {}
"""The choice rows (:func:`_choice_row`) by table row and queue: a row rises by small
amounts, so they are few."""

_NO_ROOM = 100
"""The least rise of a full queue, above any real one (the greedy policy starts from 99):
a full queue is never chosen, and the policy need not look at its size."""


def queue_key(q: list[int]) -> int:
    """A queue's codes as one integer, 6 bits a card (``code + 1``: a code is below 48),
    front first: a card ``c`` added at the back makes it ``key * 64 + c + 1``."""
    key = 0
    for c in q:
        key = key * 64 + c + 1
    return key


def _choice_row(row: tuple[int, ...], q: int) -> Choices:
    """For each hand (a mask of the values it holds: bit v for value v, 0..63), the least
    rise ``row[v]`` of the values held and the plays ``(v, q)`` that give it, value
    ascending (``(99, ())`` for an empty hand)."""
    got = _ROWS.get((row, q))
    if got is None:
        got = []
        for m in range(64):
            best = 99
            vs: list[tuple[int, int]] = []
            for v in _VALUES:
                if m >> v & 1:
                    d = row[v]
                    if d < best:
                        best = d
                        vs = [(v, q)]
                    elif d == best:
                        vs.append((v, q))
            got.append((best, tuple(vs)))
        _ROWS[(row, q)] = got
    return got


_HELD: list[tuple[int, ...]] = [tuple(v for v in _VALUES if m >> v & 1) for m in range(64)]
"""The values a hand holds, ascending, by its mask."""

_FULL: Choices = [(_NO_ROOM, ())] * 64
"""The choice row of a full queue."""

_WAKE: Ties = ((0, -1),)


def _counts(queues: list[list[int]]) -> tuple[int, int]:
    """The cards on the table, and the queues of fewer than 2 cards (none: a seat may
    wake)."""
    on = short = 0
    for q in queues:
        on += len(q)
        short += len(q) < 2
    return on, short


class Simulator:
    """The rules of RULES.md §3-6 on values, for play-outs (checked against the engine by
    ``tests/analysis/test_lookahead.py``). State: ``queues`` (codes, front first), ``hands`` (counts
    per value, per seat), ``pen`` (penalty per seat).

    The swat (:meth:`swat_queue`), the daybreak (:meth:`daybreak`) and the greedy
    policy's table of what a card adds to a swat (:meth:`_table`) are copies of the swat
    kernel's rules (:mod:`tenleave_widget.engine.swat`) specialised to the packed codes,
    for speed: they run in every play-out, thousands per decision. Through the kernel
    (its calls, its result tuples, a copy of the table for its daybreak) a daybreak took
    9.2 us instead of 5.7 us, about 4% of a decision. ``tests/engine/test_swat.py`` checks all
    three against the kernel: every queue of up to 4 cards, every token, random tables
    for the daybreak with and without the token change.

    The play-outs' loop (:meth:`play_out`) goes further, each step tested against the
    plain one: it reads each queue's table as memoised choice rows (:meth:`choices`:
    the least rise and its plays per hand mask; ``test_lookahead.py`` replays its moves
    against the policy written plainly from the tables), and swats through a memo of
    each queue's swat by its :func:`queue_key` (:meth:`swat_keyed`,
    :meth:`daybreak_keyed`; ``test_swat.py`` checks them against :meth:`swat_all` and
    :meth:`daybreak`)."""

    def __init__(self, pos: Position, policy: Policy) -> None:
        self.seat = pos.seat
        self.cards_left = pos.cards_left
        self.start_penalty: tuple[int, ...] = tuple(pos.penalty)
        self.n = pos.n
        self.nq = len(pos.queues)
        self.cap = pos.cap
        self.token_pos = pos.token_pos
        self.ntok = len(pos.token_pos)
        self.daybreak_change = pos.daybreak_change
        self.explore = float(policy.explore)
        self.random_ties = policy.random_ties
        self._tables = _TABLES.setdefault((self.n, tuple(self.token_pos)), {})
        self._choices = _CHOICES.setdefault(
            (self.n, tuple(self.token_pos), self.nq, self.cap),
            [[{} for _ in range(self.nq)] for _ in self.token_pos])
        self._full = [_FULL] * self.n
        self._swats = _SWATS.setdefault((self.n, tuple(self.token_pos)),
                                        [{} for _ in self.token_pos])
        self._zero: list[tuple[int, ...]] = [(0,) * 6] * self.n

    # one queue's swat: the per-seat penalty, and the cards that stay
    def swat_queue(self, q: list[int], tok: int, pen: list[int]) -> None:
        total = 0
        k = 0
        for c in q:
            total += c >> 3
            k += 1
            if total >= _TARGET:
                break
        flipped = q[:k]
        del q[:k]
        if total < _TARGET:
            top = 0
            for c in flipped:
                if c >> 3 > top:
                    top = c >> 3
            for c in flipped:
                if c >> 3 == top:
                    pen[c & 7] += top
        elif total > _TARGET:
            for p in self.token_pos[tok]:
                if p <= k:
                    c = flipped[p - 1]
                    pen[c & 7] += c >> 3

    def table(self, q: list[int], tok: int) -> list[tuple[int, ...]]:
        """Per seat, per value v (index 1..5): how much the seat's penalty of a swat of
        this queue right now rises if a card of value v owned by that seat is added at
        the back. Memoised per (token, queue)."""
        key = (tok, *q)
        t = self._tables.get(key)
        if t is None:
            t = self._tables[key] = self._table(q, tok)
            if len(self._tables) > 200_000:
                self._tables.clear()
        return t

    def choices(self, q: list[int], tok: int, at: int) -> list[Choices]:
        """:meth:`table` as the greedy policy reads it, for the queue ``q`` at index ``at``:
        per seat, per hand (a mask of the values it holds, bit v for value v), the least
        rise of a play to this queue and the plays that give it (:func:`_choice_row`; a
        full queue's is :data:`_NO_ROOM`). Memoised per (token, queue) like the table,
        the rows shared between tables."""
        memo = self._choices[tok][at]
        key = queue_key(q)
        c = memo.get(key)
        if c is None:
            if len(memo) >= 200_000:
                memo.clear()
            c = memo[key] = (self._full if len(q) >= self.cap else
                             [_choice_row(row, at) for row in self.table(q, tok)])
        return c

    def _table(self, q: list[int], tok: int) -> list[tuple[int, ...]]:
        n = self.n
        total = 0
        for c in q:
            total += c >> 3
            if total >= _TARGET:  # the flips stop before a new card: it changes nothing
                return self._zero
        k = len(q)
        top = max((c >> 3 for c in q), default=0)
        base = [0] * n
        for c in q:
            if c >> 3 == top:
                base[c & 7] += top
        positions = self.token_pos[tok]
        t: list[tuple[int, ...]] = []
        for s in range(n):
            row = [0]
            for v in range(1, 6):
                tv = total + v
                if tv < _TARGET:
                    if v > top:
                        p = v
                    elif v == top:
                        p = base[s] + v
                    else:
                        p = base[s]
                elif tv == _TARGET:
                    p = 0
                else:
                    p = 0
                    for i in positions:
                        if i <= k:
                            c = q[i - 1]
                            if c & 7 == s:
                                p += c >> 3
                        elif i == k + 1:
                            p += v
                row.append(p - base[s])
            t.append(tuple(row))
        return t

    def swat_all(self, queues: list[list[int]], tok: int, pen: list[int]) -> None:
        for q in queues:
            if q:
                self.swat_queue(q, tok, pen)

    def swat_keyed(self, queues: list[list[int]], keys: list[int], tok: int,
                   pen: list[int], daybreak: bool = False) -> None:
        """:meth:`swat_all` (with ``daybreak``: a daybreak pass, where a queue of one card
        lets it escape) with the queues' :func:`queue_key` kept in ``keys``, each
        queue's swat memoised per (token, queue): :meth:`swat_queue` once, then its
        penalties and the cards it leaves."""
        memo = self._swats[tok]
        for i, q in enumerate(queues):
            if daybreak and len(q) == 1:
                q.clear()
                keys[i] = 0
            elif q:
                got = memo.get(keys[i])
                if got is None:
                    if len(memo) >= 200_000:
                        memo.clear()
                    rest = list(q)
                    add = [0] * self.n
                    self.swat_queue(rest, tok, add)
                    got = memo[keys[i]] = (
                        tuple((o, p) for o, p in enumerate(add) if p),
                        len(q) - len(rest), queue_key(rest))
                for o, p in got[0]:
                    pen[o] += p
                del q[:got[1]]
                keys[i] = got[2]

    def daybreak_keyed(self, queues: list[list[int]], keys: list[int], chain: list[int], k: int,
                       pen: list[int]) -> None:
        """:meth:`daybreak` by :meth:`swat_keyed` passes."""
        while True:
            self.swat_keyed(queues, keys, chain[k], pen, True)
            if not any(queues):
                return
            if self.daybreak_change:
                k += 1

    def daybreak(self, queues: list[list[int]], chain: list[int], k: int, pen: list[int]) -> int:
        """Swat passes until the table is empty; returns the new token index in ``chain``."""
        while True:
            for q in queues:
                if len(q) == 1:
                    q.clear()
                elif q:
                    self.swat_queue(q, chain[k], pen)
            if not any(queues):
                return k
            if self.daybreak_change:
                k += 1

    def greedy(
        self, queues: list[list[int]], tabs: list[list[Choices]], m: int, s: int,
        x: float, may_wake: bool,
    ) -> tuple[int, int]:
        """The policy's choice for seat ``s`` holding the values of the mask ``m`` (bit v
        for value v): ``(value, queue)``, or ``(0, -1)`` to wake. ``x`` in [0, 1) is the
        turn's random number; ``tabs`` the queues' :meth:`choices`. A random play is the
        ``x / explore`` quantile of the plays listed value by value, queue by queue; the
        plays tied for the least rise are listed queue by queue, value by value."""
        cap = self.cap
        explore = self.explore
        if x < explore:
            held = _HELD[m]
            room = [q for q in range(self.nq) if len(queues[q]) < cap]
            i = int(x / explore * (len(held) * len(room)))
            return held[i // len(room)], room[i % len(room)]
        best = 99
        ties: Ties = ()
        for tab in tabs:
            d, tq = tab[s][m]
            if d < best:
                best = d
                ties = tq
            elif d == best:
                ties += tq
        if may_wake and best >= 0:
            if best > 0:
                return (0, -1)
            ties += _WAKE
        if len(ties) == 1 or not self.random_ties:
            return ties[0]
        return ties[int((x - explore) / (1.0 - explore) * len(ties))]

    def play_out(
        self, queues: list[list[int]], hands: list[list[int]], pen: list[int], s: int,
        left: int, chain: list[int], k: int, us: list[float],
        trace: list[Move] | None = None,
    ) -> None:
        """Play the game to its end from seat ``s``'s turn (``left`` cards to play).
        ``trace`` collects the moves played (the tests replay them in the engine).

        The policy (:meth:`greedy`) is inlined for its common case: this loop is where
        an evaluation spends its time, so it keeps counts instead of looking again: each
        seat's hand as a mask of the values it holds (bit v), which indexes the queues'
        :meth:`choices`; each queue's :func:`queue_key`; the cards on the table (full at
        ``cap`` times the queues) and the queues of fewer than 2 cards (none: the seat may
        wake)."""
        n, cap, explore = self.n, self.cap, self.explore
        spread = 1.0 - explore
        random_ties = self.random_ties
        choices = self.choices
        memos = self._choices
        greedy = self.greedy
        swat_keyed = self.swat_keyed
        full = cap * len(queues)
        masks = [0] * n
        for i, hi in enumerate(hands):
            for v in _VALUES:
                if hi[v]:
                    masks[i] |= 1 << v
        tok = chain[k]
        memo = memos[tok]
        tabs = [choices(q0, tok, i) for i, q0 in enumerate(queues)]
        keys = [queue_key(q0) for q0 in queues]
        on, short = _counts(queues)
        t = 0
        while left:
            h = hands[s]
            x = us[t]
            if x < explore:
                v, q = greedy(queues, tabs, masks[s], s, x, not short)
            else:
                m = masks[s]
                best = 99
                ties: Ties = ()
                for tab in tabs:
                    d, tq = tab[s][m]
                    if d < best:
                        best = d
                        ties = tq
                    elif d == best:
                        ties += tq
                if best > 0 and not short:
                    v, q = 0, -1
                else:
                    if best == 0 and not short:
                        ties += _WAKE
                    if len(ties) == 1 or not random_ties:
                        v, q = ties[0]
                    else:
                        v, q = ties[int((x - explore) / spread * len(ties))]
            wake = q < 0
            if wake:  # swat, a new token, then the best play for the new table
                swat_keyed(queues, keys, tok, pen)
                k += 1
                tok = chain[k]
                memo = memos[tok]
                tabs = [memo[i].get(kx) or choices(queues[i], tok, i)
                        for i, kx in enumerate(keys)]
                on, short = _counts(queues)
                v, q = greedy(queues, tabs, masks[s], s, us[t + 1], False)
            if trace is not None:
                trace.append(Move(v, q, wake))
            h[v] -= 1
            if not h[v]:
                masks[s] ^= 1 << v
            qq = queues[q]
            c = v * 8 + s
            qq.append(c)
            kq = keys[q] = keys[q] * 64 + c + 1
            left -= 1
            if left == 0:
                self.daybreak_keyed(queues, keys, chain, k, pen)
                return
            on += 1
            if on == full:  # every queue is full
                swat_keyed(queues, keys, tok, pen)
                k += 1
                tok = chain[k]
                memo = memos[tok]
                tabs = [memo[i].get(kx) or choices(queues[i], tok, i)
                        for i, kx in enumerate(keys)]
                on, short = _counts(queues)
            else:
                if len(qq) == 2:
                    short -= 1
                got = memo[q].get(kq)
                tabs[q] = got if got is not None else choices(qq, tok, q)
            s = s + 1 if s + 1 < n else 0
            t += 2

    def apply(
        self, move: Move, queues: list[list[int]], hands: list[list[int]], pen: list[int],
        s: int, left: int, chain: list[int], k: int,
    ) -> int | None:
        """Apply the root seat's move; return the new token index, or ``None`` when the
        game ended with it."""
        cap = self.cap
        if move.wake:
            self.swat_all(queues, chain[k], pen)
            k += 1
        if move.rotate is not None and not move.after:
            r = queues[move.rotate]
            r.append(r.pop(0))
        hands[s][move.value] -= 1
        queues[move.queue].append(move.value * 8 + s)
        if move.rotate is not None and move.after:
            r = queues[move.rotate]
            r.append(r.pop(0))
        if left == 1:
            self.daybreak(queues, chain, k, pen)
            return None
        if all(len(x) == cap for x in queues):
            self.swat_all(queues, chain[k], pen)
            k += 1
        return k


@dataclass(frozen=True)
class Move:
    """A root decision as the play-outs see it (values, not notations)."""

    value: int
    queue: int
    wake: bool = False
    rotate: int | None = None
    after: bool = False
