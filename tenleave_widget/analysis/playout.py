"""The play-out simulator: the rules of RULES.md §3-6 on packed values, and the rollout
policy every seat plays in the lookahead's worlds (:mod:`~tenleave_widget.analysis.lookahead`).

A second rules engine, on purpose: a play-out runs thousands of times per decision, so the
state is plain lists of small integers (a card is ``value * 8 + owner``: in a sampled world
every card is visible) and the policy reads memoised tables instead of trying each play.
``tests/test_lookahead.py`` plays the same turns in the engine and here and compares the
queues, tokens and penalties; ``tests/test_swat.py`` checks the specialised swat, daybreak
and table against the swat kernel (:mod:`tenleave_widget.engine.swat`).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..engine.errors import SetupError, excerpt
from .playout_position import Position

__all__ = ["Move", "Policy", "Simulator"]

_TARGET = 10
_VALUES = (1, 2, 3, 4, 5)


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


class Simulator:
    """The rules of RULES.md §3-6 on values, for play-outs (checked against the engine by
    ``tests/test_lookahead.py``). State: ``queues`` (codes, front first), ``hands`` (counts
    per value, per seat), ``pen`` (penalty per seat).

    The swat (:meth:`swat_queue`), the daybreak (:meth:`daybreak`) and the greedy
    policy's table of what a card adds to a swat (:meth:`_table`) are copies of the swat
    kernel's rules (:mod:`tenleave_widget.engine.swat`) specialised to the packed codes,
    for speed: they run in every play-out, thousands per decision. Through the kernel
    (its calls, its result tuples, a copy of the table for its daybreak) a daybreak took
    9.2 us instead of 5.7 us, about 4% of a decision. ``tests/test_swat.py`` checks all
    three against the kernel: every queue of up to 4 cards, every token, random tables
    for the daybreak with and without the token change."""

    def __init__(self, pos: Position, policy: Policy) -> None:
        self.n = pos.n
        self.nq = len(pos.queues)
        self.cap = pos.cap
        self.token_pos = pos.token_pos
        self.ntok = len(pos.token_pos)
        self.daybreak_change = pos.daybreak_change
        self.explore = float(policy.explore)
        self.random_ties = policy.random_ties
        self._tables = _TABLES.setdefault((self.n, tuple(self.token_pos)), {})
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
        self, queues: list[list[int]], tabs: list[list[tuple[int, ...]]], h: list[int], s: int,
        x: float, may_wake: bool,
    ) -> tuple[int, int]:
        """The policy's choice for seat ``s`` with hand counts ``h``: ``(value, queue)``, or
        ``(0, -1)`` to wake. ``x`` in [0, 1) is the turn's random number."""
        cap = self.cap
        explore = self.explore
        if x < explore:
            plays = [
                (v, q) for v in range(1, 6) if h[v] for q in range(self.nq)
                if len(queues[q]) < cap
            ]
            return plays[int(x / explore * len(plays))]
        best = 99
        ties: list[tuple[int, int]] = []
        for q in range(self.nq):
            if len(queues[q]) < cap:
                row = tabs[q][s]
                for v in range(1, 6):
                    if h[v]:
                        d = row[v]
                        if d < best:
                            best = d
                            ties = [(v, q)]
                        elif d == best:
                            ties.append((v, q))
        if may_wake and best >= 0:
            if best > 0:
                return (0, -1)
            ties.append((0, -1))
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
        an evaluation spends its time."""
        n, cap, explore = self.n, self.cap, self.explore
        spread = 1.0 - explore
        random_ties = self.random_ties
        table = self.table
        greedy = self.greedy
        qrange = range(len(queues))
        tok = chain[k]
        tabs = [table(q, tok) for q in queues]
        t = 0
        while left:
            h = hands[s]
            x = us[t]
            may_wake = True
            for qq in queues:
                if len(qq) < 2:
                    may_wake = False
                    break
            if x < explore:
                v, q = greedy(queues, tabs, h, s, x, may_wake)
            else:
                best = 99
                ties: list[tuple[int, int]] = []
                vals = [v for v in _VALUES if h[v]]
                for q in qrange:
                    if len(queues[q]) < cap:
                        row = tabs[q][s]
                        for v in vals:
                            d = row[v]
                            if d < best:
                                best = d
                                ties = [(v, q)]
                            elif d == best:
                                ties.append((v, q))
                if may_wake and best >= 0:
                    if best > 0:
                        ties = [(0, -1)]
                    else:
                        ties.append((0, -1))
                if len(ties) == 1 or not random_ties:
                    v, q = ties[0]
                else:
                    v, q = ties[int((x - explore) / spread * len(ties))]
            wake = q < 0
            if wake:  # swat, a new token, then the best play for the new table
                self.swat_all(queues, tok, pen)
                k += 1
                tok = chain[k]
                tabs = [table(qq, tok) for qq in queues]
                v, q = greedy(queues, tabs, h, s, us[t + 1], False)
            if trace is not None:
                trace.append(Move(v, q, wake))
            h[v] -= 1
            qq = queues[q]
            qq.append(v * 8 + s)
            left -= 1
            if left == 0:
                self.daybreak(queues, chain, k, pen)
                return
            if len(qq) == cap and all(len(x) == cap for x in queues):
                self.swat_all(queues, tok, pen)
                k += 1
                tok = chain[k]
                tabs = [table(x, tok) for x in queues]
            else:
                tabs[q] = table(qq, tok)
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
