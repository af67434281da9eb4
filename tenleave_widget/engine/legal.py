"""The legal turns of the seat to move, as arithmetic (RULES.md §3): a position's list of
legal turns is never built, only counted and indexed, like python-chess's
``board.legal_moves``.

A turn is one card played to a queue with room, with at most one of: a wake (every queue
holds 2 or more cards), a peek at any card on the table, or a rotation of a queue of 2 or
more — the peek or rotation before the play or after it. How many such turns there are,
and which is turn ``i``, depends only on the distinct cards in the hand and the queue
sizes, so each (queue sizes, distinct cards) gets one :class:`Shape`, cached per (seats,
deck) in a :class:`Tables`: :class:`LegalTurns` and ``Game.random_turn`` (self-play's
fast path) index into it.

At the start of a 2-seat game: 6 distinct cards to 2 queues (12 plays), each alone or
followed by a peek at the card just played (12 more):

>>> from tenleave_widget.engine.game import Game
>>> legal = Game(2, seed=1).legal_turns
>>> len(legal), legal[0]
(24, Turn(seat=0, card='1', queue=0, peek=None, rotate=None, wake=False, extra='before'))
>>> legal[-1].peek, legal[-1].extra
((1, 0), 'after')
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from typing import NamedTuple, Protocol

from .cards import parse_card
from .errors import TenLeaveError
from .rules import MAX_SEATS, QUEUE_CAPACITY, Rules, queue_count
from .turn import AFTER, BEFORE, Turn

__all__ = ["FILL_WEIGHTS", "LegalTurns", "Shape", "Tables", "tables_for", "turn_at"]

_CAP = QUEUE_CAPACITY
FILL_WEIGHTS = tuple((_CAP + 1) ** q for q in range(queue_count(MAX_SEATS)))
"""Queue ``q`` adds ``FILL_WEIGHTS[q]`` per card to a game's ``_fill`` (the queue sizes as
one number, in base CAP+1): the index of a position's shapes in :attr:`Tables.shapes`."""


class Tables:
    """Per (seats, deck) constants: card ids are ``seat * d + index in the dealt list``.

    Args:
        n: the number of seats.
        dealt: one seat's dealt cards (:meth:`Rules.dealt
            <tenleave_widget.engine.rules.Rules.dealt>`).
    """

    def __init__(self, n: int, dealt: tuple[str, ...]) -> None:
        self.dealt = dealt
        self.d = len(dealt)
        self.vals: list[int] = []
        self.marked: list[bool] = []
        self.notes: list[str] = []
        for _ in range(n):
            for c in dealt:
                v, m = parse_card(c)
                self.vals.append(v)
                self.marked.append(m)
                self.notes.append(c)
        self.note_masks: dict[str, int] = {}
        for j, c in enumerate(dealt):
            self.note_masks[c] = self.note_masks.get(c, 0) | (1 << j)
        self.distinct_order = sorted(self.note_masks)
        self.distinct: dict[int, list[str]] = {}  # hand mask -> distinct notations
        self.hands: dict[int, list[str]] = {}  # hand mask -> sorted notations
        # a game's _fill -> distinct cards in hand -> Shape (see Game.random_turn)
        nq = queue_count(n)
        self.shapes: list[list[Shape | None]] = [
            [None] * (self.d + 1) for _ in range((_CAP + 1) ** nq)
        ]

    def distinct_in(self, hand: int) -> list[str]:
        """The distinct notations in a hand (a mask of dealt-list indices), sorted (cached).

        Args:
            hand: a hand, as a mask of dealt-list indices.

        Returns:
            The notations.
        """
        got = self.distinct.get(hand)
        if got is None:
            masks = self.note_masks
            got = self.distinct[hand] = [c for c in self.distinct_order if hand & masks[c]]
        return got

    def turn_space(self, hand: int, fill: int, nq: int) -> tuple[list[str], Shape]:
        """The distinct cards of the hand to move, and the shape of its list of legal turns
        at queue sizes ``fill`` (cached per cards and queue sizes).

        Args:
            hand: the hand to move, as a mask of dealt-list indices.
            fill: the queue sizes as one number (``FILL_WEIGHTS``).
            nq: the number of queues.

        Returns:
            ``(distinct notations, shape)``.
        """
        cards = self.distinct.get(hand)
        if cards is None:
            cards = self.distinct_in(hand)
        shapes = self.shapes[fill]
        shape = shapes[len(cards)]
        if shape is None:
            shape = shapes[len(cards)] = Shape.of(len(cards), fill, nq)
        return cards, shape


_TABLES: dict[tuple[int, tuple[str, ...]], Tables] = {}  # by (seats, deck)


def tables_for(n: int, rules: Rules) -> Tables:
    """The constants of ``n`` seats under ``rules`` (made once per seats and deck).

    Args:
        n: the number of seats.
        rules: the variant.

    Returns:
        The shared :class:`Tables`.
    """
    t = _TABLES.get((n, rules.deck))  # the dealt cards depend on the deck and seats only
    if t is None:
        t = _TABLES[(n, rules.deck)] = Tables(n, rules.dealt(n))
    return t


class Shape(NamedTuple):
    """What indexing the legal turns needs for one (distinct cards in hand, queue sizes):
    the ends of the six groups of :class:`LegalTurns` and the lookup lists inside them."""

    total: int
    plays_end: int
    wakes_end: int
    peeks_end: int
    rotates_end: int
    peeks_after_end: int
    plays_at: tuple[tuple[int, int], ...]  # (card index, queue) of each plain play, in order
    positions: tuple[tuple[int, int], ...]  # (queue, position) of every card on the table
    after_positions: tuple[tuple[tuple[int, int], ...], ...]  # the same after playing to queue q
    rot: tuple[int, ...]  # the queues that can be rotated before the play
    after_rot: tuple[tuple[int, int], ...]  # (play queue, rotated queue) for rotating after

    @staticmethod
    def of(nc: int, fill: int, nq: int) -> Shape:
        """The shape of a legal-turn list (see :meth:`Tables.turn_space`, which caches it).

        Args:
            nc: the number of distinct cards in the hand to move.
            fill: the queue sizes as one number (``FILL_WEIGHTS``).
            nq: the number of queues.

        Returns:
            The shape.
        """
        sizes = [fill // FILL_WEIGHTS[q] % (_CAP + 1) for q in range(nq)]

        def positions(zs: Sequence[int]) -> tuple[tuple[int, int], ...]:
            return tuple((q, p) for q in range(nq) for p in range(zs[q]))

        room = tuple(q for q in range(nq) if sizes[q] < _CAP)
        rot = tuple(q for q in range(nq) if sizes[q] >= 2)
        after_rot = tuple(
            (q, r) for q in room for r in range(nq) if sizes[r] + (r == q) >= 2
        )
        after_positions = tuple(
            positions([z + (r == q) for r, z in enumerate(sizes)]) for q in range(nq)
        )
        table = sum(sizes)
        plays = nc * len(room)
        a = plays
        b = a + (nc * nq if min(sizes) >= 2 else 0)
        c = b + table * plays
        d = c + len(rot) * plays
        e = d + plays * (table + 1)
        total = e + nc * len(after_rot)
        plays_at = tuple((ci, q) for ci in range(nc) for q in room)
        return Shape(
            total, a, b, c, d, e, plays_at, positions(sizes), after_positions, rot, after_rot
        )


_new_turn = tuple.__new__


def turn_at(s: int, nq: int, cards: list[str], shape: Shape, i: int) -> Turn:
    """Turn ``i`` (``0 <= i < shape.total``) of seat ``s``'s legal-turn list, ``nq``
    queues (order: see :class:`LegalTurns`).

    Args:
        s: the seat to move.
        nq: the number of queues.
        cards: the distinct notations in its hand.
        shape: the list's :class:`Shape`.
        i: the index, ``0 <= i < shape.total``.

    Returns:
        The turn.
    """
    _, a, b, c, d, e, plays_at, positions, after_positions, rot, after_rot = shape
    if i < a:
        ci, q = plays_at[i]
        return _new_turn(Turn, (s, cards[ci], q, None, None, False, BEFORE))
    if i < b:
        ci, q = divmod(i - a, nq)
        return _new_turn(Turn, (s, cards[ci], q, None, None, True, BEFORE))
    if i < c:
        pos, rest = divmod(i - b, a)
        ci, q = plays_at[rest]
        return _new_turn(Turn, (s, cards[ci], q, positions[pos], None, False, BEFORE))
    if i < d:
        ri, rest = divmod(i - c, a)
        ci, q = plays_at[rest]
        return _new_turn(Turn, (s, cards[ci], q, None, rot[ri], False, BEFORE))
    if i < e:
        rest, pos = divmod(i - d, len(positions) + 1)
        ci, q = plays_at[rest]
        return _new_turn(Turn, (s, cards[ci], q, after_positions[q][pos], None, False, AFTER))
    ci, j = divmod(i - e, len(after_rot))
    q, r = after_rot[j]
    return _new_turn(Turn, (s, cards[ci], q, None, r, False, AFTER))


class Position(Protocol):
    """What :class:`LegalTurns` reads of a game (engine/game.py's ``Game``)."""

    @property
    def to_move(self) -> int | None: ...
    def _turn_space(self) -> tuple[int, int, list[str], Shape] | None: ...
    def _check(self, t: Turn, partial: bool = False) -> Turn: ...


class LegalTurns:
    """The legal turns of the seat to move, computed lazily (like python-chess's
    ``board.legal_moves``): ``len`` and indexing are arithmetic, ``in`` checks one turn.

    Order: plain plays; wakes; peek then play; rotate then play; play then peek;
    play then rotate. Peeking a card before or after the play are distinct turns.

    Args:
        game: the position (a :class:`~tenleave_widget.engine.game.Game`, which
            builds it: :attr:`~tenleave_widget.engine.game.Game.legal_turns`).

    Example:
        >>> from tenleave_widget import Game
        >>> turns = Game(2, seed=1).legal_turns
        >>> len(turns) > 0, turns[0] in turns, turns[len(turns) - 1] == list(turns)[-1]
        (True, True, True)
    """

    __slots__ = ("_g", "_space", "_n")

    def __init__(self, game: Position) -> None:
        self._g = game
        space = game._turn_space()
        if space is None:
            self._n = 0
            return
        self._space = space
        self._n = space[3].total

    def __len__(self) -> int:
        return self._n

    def __bool__(self) -> bool:
        return len(self) > 0

    def __contains__(self, turn: object) -> bool:
        if not isinstance(turn, Turn):
            return False
        try:
            return self._g._check(turn) == turn
        except TenLeaveError:
            return False

    def sample(self, rng: random.Random) -> Turn:
        """A uniformly random legal turn: ``self[rng.randrange(len(self))]``.

        Args:
            rng: the generator to draw from.

        Returns:
            The turn.

        Raises:
            IndexError: there is no legal turn (the game is over).

        Example:
            >>> import random
            >>> from tenleave_widget import Game
            >>> Game(2, seed=1).legal_turns.sample(random.Random(0)).seat
            0
        """
        if not self._n:
            raise IndexError("no legal turn")
        return self[rng.randrange(self._n)]

    def __getitem__(self, i: int) -> Turn:
        n = self._n
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError("legal turn index out of range")
        s, nq, cards, shape = self._space
        return turn_at(s, nq, cards, shape, i)

    def __iter__(self) -> Iterator[Turn]:
        for i in range(len(self)):
            yield self[i]

    def __repr__(self) -> str:
        return f"<LegalTurns {len(self)} turns for seat {self._g.to_move}>"
