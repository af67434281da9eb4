"""The game: state, apply/undo (the one executor of a turn), swats, daybreak and scoring
(RULES.md §2–7). Its legal turns are :mod:`.legal`'s arithmetic, its seat views
:mod:`.view`'s projection.

>>> g = Game(["Ana", "Ben", "Cy"], seed=7)
>>> g.to_move, len(g.legal_turns) > 0
(0, True)
>>> g.apply({"seat": 0, "play": ["3*", 1]})
>>> g.view(1)["queues"][1]
[{'key': 0, 'owner': 0, 'back': 'marked', 'value': None, 'peeked_by': []}]
>>> _ = g.undo(); g.turns_applied
0

A game is its setup plus its list of turns; :meth:`Game.undo` and :meth:`Game.from_record`
replay that list. Token draws come from a seeded stream that every reveal is recorded in,
so a game always round-trips to a ``tenleave-record/1`` record.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from .errors import IllegalActionError, RecordError, SetupError, TenLeaveError, excerpt, shown
from .legal import FILL_WEIGHTS, LegalTurns, Shape, tables_for, turn_at
from .record import (
    RECORD_FORMAT,
    Record,
    RecordSource,
    check_name,
    check_notes,
    parse_record,
    record_object,
)
from .rules import (
    DEFAULT_RULES,
    MAX_SEATS,
    MIN_SEATS,
    QUEUE_CAPACITY,
    Rules,
    queue_count,
)
from .swat import swat
from .turn import AFTER, BEFORE, Turn, TurnStep, parse_steps
from .view import Event, GameEvent, View, events_json, knows, seat_view

DEFAULT_NAMES = ("Ana", "Ben", "Cy", "Dee", "Eli")
_QueueSwat = tuple[int, tuple[int, ...], int, tuple[int, ...], int | None]
"""One queue in a swat event: (queue, flipped card ids, total, swatted ids, escaped id)."""

_SEATS = f"{MIN_SEATS} to {MAX_SEATS}"
_CAP = QUEUE_CAPACITY


_NO_TOKENS = "the record's 'defense' list has no more tokens to reveal"


class _TokenShortage(Exception):
    """A record's ``defense`` list ran out (raised mid-turn; the turn is rolled back)."""


def _is_index(k: object) -> bool:
    return type(k) is int and k >= 0


class Game:
    """One game of 10 to Leave: the state, its legal turns, and the one executor of a turn.

    Args:
        players: the number of seats (2 to 5), or the players' names.
        rules: the variant (default: the rules of ``docs/RULES.md``).
        first: the seat that plays first.
        seed: seeds the Human Defense token draws (``None``: fresh entropy).
        defense: the tokens in reveal order, fixed (the first is the initial token).
        strict_defense: a turn that needs more token reveals than ``defense`` lists is
            illegal (else the game draws more).
        notes: the teacher's notes, by turn index.

    Raises:
        SetupError: a bad number of seats, name, first seat or token (the message names
            it).

    Example:
        >>> g = Game(["Ana", "Ben", "Cy"], seed=1)
        >>> g.to_move, len(g.legal_turns) > 0
        (0, True)
        >>> g.apply({"seat": 0, "play": ["3*", 1]})
        >>> g.to_move
        1
    """

    # ---------------------------------------------------------------- set-up
    def __init__(
        self,
        players: int | Sequence[str] = 3,
        *,
        rules: Rules | None = None,
        first: int = 0,
        seed: int | None = None,
        defense: Sequence[str] | None = None,
        strict_defense: bool = False,
        notes: dict[int, str] | None = None,
    ) -> None:
        if isinstance(players, int) and not isinstance(players, bool):
            names = list(DEFAULT_NAMES[: max(0, players)])
            if not MIN_SEATS <= players <= MAX_SEATS:
                raise SetupError(f"a game has {_SEATS} seats, not {excerpt(players)}")
        elif isinstance(players, (str, bytes)) or not isinstance(players, Sequence):
            raise SetupError(f"players must be a number of seats ({_SEATS}) or a list of "
                             f"names, not {shown(players)}")
        else:
            names = list(players)
            if not MIN_SEATS <= len(names) <= MAX_SEATS:
                raise SetupError(f"a game has {_SEATS} seats, not {len(names)}")
            if not all(isinstance(x, str) for x in names):
                raise SetupError("player names must be strings")
            for i, x in enumerate(names):
                check_name(x, f"player name {i}")
        n = len(names)
        if type(first) is not int or not 0 <= first < n:
            raise SetupError(f"first seat must be 0..{n - 1}, not {excerpt(first)}")
        if rules is not None and not isinstance(rules, Rules):
            raise SetupError(f"rules must be a Rules (or None: the printed rules), not "
                             f"{shown(rules)}")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, (int, str))):
            raise SetupError(f"seed must be a whole number or a text (None: fresh entropy), "
                             f"not {shown(seed)}")
        if not isinstance(strict_defense, bool):
            raise SetupError(f"strict_defense must be True or False, not "
                             f"{shown(strict_defense)}")
        if notes is not None:
            if not isinstance(notes, dict) or not all(_is_index(k) for k in notes):
                raise SetupError("notes must be a dict of turn index (0, 1, ...) -> text, "
                                 f"not {shown(notes)}")
            try:
                check_notes({str(k): v for k, v in notes.items()})
            except RecordError as e:
                raise SetupError(str(e)) from None
        self.rules = rules if rules is not None else DEFAULT_RULES
        self.players: list[str] = names
        self.first = first
        self.notes: dict[int, str] = dict(notes or {})
        self._n = n
        self._nq = queue_count(n)
        tables = tables_for(n, self.rules)
        self._tables = tables
        self._dealt = tables.dealt
        self._d = tables.d
        self._vals = tables.vals
        self._marked = tables.marked
        self._notes = tables.notes
        self._note_masks = tables.note_masks
        self._token_ids = list(self.rules.tokens)
        self._rng = random.Random(seed)
        if defense is not None:
            self._stream = self.rules.check_defense(defense)
        else:
            self._stream = [self._rng.choice(self._token_ids)]
        self._strict = strict_defense
        self._reset()

    def _reset(self) -> None:
        n, d = self._n, self._d
        self._hands = [(1 << d) - 1] * n
        self._queues: list[list[int]] = [[] for _ in range(self._nq)]
        self._fill = 0  # the queue sizes as one number (see FILL_WEIGHTS)
        self._peeks = [0] * (n * d)
        self._keys = [-1] * (n * d)
        self._swatted: list[list[int]] = [[] for _ in range(n)]
        self._safe: list[int] = []
        self._penalty = [0] * n
        self._tok = 0
        self._tokpos = self.rules.tokens[self._stream[0]]
        self._to_move = self.first
        self._left = n * d
        self._finished = False
        self._turns: list[Turn] = []
        self._events: list[list[Event]] = []

    # ------------------------------------------------------------ properties
    @property
    def seats(self) -> int:
        """The number of seats."""
        return self._n

    @property
    def queue_count(self) -> int:
        """The number of queues (RULES.md §2: it follows from the number of seats)."""
        return self._nq

    @property
    def to_move(self) -> int | None:
        """The seat whose turn it is, or ``None`` once the game is over."""
        return None if self._finished else self._to_move

    @property
    def finished(self) -> bool:
        """Whether the game is over (every card played and the last daybreak done)."""
        return self._finished

    @property
    def turns(self) -> list[Turn]:
        """The turns applied so far (a copy)."""
        return list(self._turns)

    @property
    def turns_applied(self) -> int:
        """The number of turns applied so far."""
        return len(self._turns)

    @property
    def token(self) -> str:
        """The current Human Defense token (after the end, the last one revealed)."""
        return self._stream[self._tok]

    @property
    def defense(self) -> list[str]:
        """The tokens revealed so far, in order."""
        return self._stream[: self._tok + 1]

    def redraw_tokens(self, seed: int | str | None) -> None:
        """From this position on, draw the Human Defense tokens anew: the tokens not
        revealed yet (a record's later ones) are forgotten, and each later reveal is drawn
        from a generator seeded with ``seed`` (``None``: fresh entropy), so a game played
        on from here with the same ``seed`` reveals the same tokens.

        Args:
            seed: the seed of the later draws (an int or a string); ``None`` draws from
                fresh entropy.

        Example:
            >>> def tokens(seed: str) -> list[str]:
            ...     g = Game(2, seed=1)
            ...     g.redraw_tokens(seed)
            ...     rng = random.Random(0)
            ...     while not g.finished:
            ...         g.apply(g.random_turn(rng))
            ...     return g.defense
            >>> tokens("x") == tokens("x"), tokens("x") == tokens("y")
            (True, False)
        """
        self._stream = self._stream[: self._tok + 1]
        self._rng = random.Random(seed)

    @property
    def penalty(self) -> list[int]:
        """Each seat's penalty points so far, by seat (a copy)."""
        return list(self._penalty)

    @property
    def winners(self) -> list[int] | None:
        """The seats with the lowest penalty, once the game is over."""
        if not self._finished:
            return None
        low = min(self._penalty)
        return [s for s, p in enumerate(self._penalty) if p == low]

    @property
    def legal_turns(self) -> LegalTurns:
        """The legal turns of the seat to move: a lazy collection (``len``, ``in``, iteration,
        indexing)."""
        return LegalTurns(self)

    def hand(self, seat: int) -> list[str]:
        """The notations of the cards in a seat's hand, sorted (omniscient: every value;
        :meth:`view` gives what a seat knows).

        Args:
            seat: the seat (0 to :attr:`seats` - 1).

        Returns:
            The notations, e.g. ``["1", "3*", "4"]``.

        Example:
            >>> Game(2, seed=1).hand(0)[:3]
            ['1', '1', '2']
        """
        return self._hand_list(self._hands[seat])

    def queue_cards(self, queue: int) -> list[tuple[int, str]]:
        """The cards of a queue, front first (omniscient: face-down values included).

        Args:
            queue: the queue (0 to :attr:`queue_count` - 1).

        Returns:
            One ``(owner seat, notation)`` pair per card.

        Example:
            >>> g = Game(2, seed=1)
            >>> g.apply({"seat": 0, "play": ["3*", 1]})
            >>> g.queue_cards(1)
            [(0, '3*')]
        """
        d = self._d
        return [(c // d, self._notes[c]) for c in self._queues[queue]]

    def _hand_list(self, mask: int) -> list[str]:
        got = self._tables.hands.get(mask)
        if got is None:
            got = sorted(self._notes[j] for j in range(self._d) if mask >> j & 1)
            self._tables.hands[mask] = got
        return list(got)

    # ------------------------------------------------------------ validation
    def _check(self, t: Turn, partial: bool = False) -> Turn:
        """Raise :class:`IllegalActionError` unless ``t`` is legal now; return it normalized.

        ``partial`` (:meth:`preview`): ``t`` is the start of a turn before its play
        (``card`` and ``queue`` are ``None``), so there is no card, queue or room to check.
        """
        if self._finished:
            raise IllegalActionError("the game is over: no more turns")
        s = self._to_move
        if type(t.seat) is not int or t.seat != s:
            raise IllegalActionError(f"seat {excerpt(t.seat)} cannot move: it is seat {s}'s turn")
        card = t.card
        q = t.queue
        if partial:
            q = -1
        else:
            m = self._note_masks.get(card) if isinstance(card, str) else None
            if m is None or not self._hands[s] & m:
                raise IllegalActionError(f"seat {s} has no {excerpt(card)} in hand")
            nq = self._nq
            if type(q) is not int or not 0 <= q < nq:
                raise IllegalActionError(
                    f"queue {excerpt(q)} does not exist (queues are 0..{nq - 1})"
                )
        if (t.wake is not False) + (t.peek is not None) + (t.rotate is not None) > 1:
            raise IllegalActionError("a turn takes at most one of peek, rotate and wake")
        if t.extra not in (BEFORE, AFTER):
            raise IllegalActionError(
                f"'extra' must be \"before\" or \"after\", not {excerpt(t.extra)}"
            )
        sizes = [len(x) for x in self._queues]
        if t.wake is not False:
            if t.wake is not True:
                raise IllegalActionError(f"'wake' must be true or false, not {excerpt(t.wake)}")
            self._check_wake(sizes)
            return t.normalized()
        if t.peek is None and t.rotate is None:
            if q >= 0:
                self._check_room(sizes, q)
            return t.normalized()
        if t.extra == BEFORE:
            self._check_extra(t, sizes)
            if q >= 0:
                self._check_room(sizes, q)
        else:
            self._check_room(sizes, q)
            sizes[q] += 1
            self._check_extra(t, sizes)
        return t

    @staticmethod
    def _check_wake(sizes: list[int]) -> None:
        if min(sizes) < 2:
            raise IllegalActionError(
                f"cannot wake SleepKid: every queue must hold at least 2 cards "
                f"(queue sizes {sizes})"
            )

    @staticmethod
    def _check_room(sizes: list[int], q: int) -> None:
        if sizes[q] >= _CAP:
            raise IllegalActionError(f"queue {q} is full ({_CAP} cards): play elsewhere")

    def _check_extra(self, t: Turn, sizes: list[int]) -> None:
        if t.peek is not None:
            self._check_peek(t.peek, sizes)
        elif t.rotate is not None:
            self._check_rotate(t.rotate, sizes)

    def _check_peek(self, peek: object, sizes: list[int]) -> None:
        if (
            not isinstance(peek, (tuple, list))
            or len(peek) != 2
            or type(peek[0]) is not int
            or type(peek[1]) is not int
        ):
            raise IllegalActionError(f"a peek names [queue, position], not {excerpt(peek)}")
        pq, pi = peek
        if not 0 <= pq < self._nq:
            raise IllegalActionError(f"cannot peek: queue {excerpt(pq)} does not exist")
        if not 0 <= pi < sizes[pq]:
            raise IllegalActionError(
                f"cannot peek: queue {pq} has no card at position {excerpt(pi)} "
                f"(it holds {sizes[pq]} card(s))"
            )

    def _check_rotate(self, r: object, sizes: list[int]) -> None:
        if type(r) is not int or not 0 <= r < self._nq:
            raise IllegalActionError(f"cannot rotate: queue {excerpt(r)} does not exist")
        if sizes[r] < 2:
            raise IllegalActionError(
                f"cannot rotate queue {r}: it holds {sizes[r]} card(s), rotating needs 2 or more"
            )

    # ------------------------------------------------------------- applying
    def apply(self, turn: Turn | dict[str, Any]) -> None:
        """Apply a whole turn of the seat to move: its play, and a wake, peek or rotation.

        Args:
            turn: a :class:`Turn`, or a record turn object (``{"seat": 0, "play": ["3*",
                1]}``, with ``"wake": true``, ``"peek": [queue, position]`` or ``"rotate":
                queue`` and ``"extra": "before" | "after"``).

        Raises:
            IllegalActionError: the turn is not legal here (the message names what is
                wrong); the game is unchanged.

        Example:
            >>> g = Game(2, seed=1)
            >>> g.apply({"seat": 0, "play": ["2", 0]})
            >>> try:
            ...     g.apply({"seat": 1, "play": ["1", 0], "wake": True})
            ... except IllegalActionError as e:
            ...     print(e)
            cannot wake SleepKid: every queue must hold at least 2 cards (queue sizes [1, 0])
            >>> g.turns_applied
            1
        """
        t = Turn.from_json(turn) if isinstance(turn, dict) else turn
        if not isinstance(t, Turn):
            raise IllegalActionError(f"not a turn: {excerpt(turn)}")
        t = self._check(t)
        try:
            self._execute(t)
        except _TokenShortage:
            self._rebuild(list(self._turns))
            raise IllegalActionError(_NO_TOKENS) from None

    def random_turn(self, rng: random.Random) -> Turn:
        """A uniformly random legal turn — the same turn as
        ``self.legal_turns.sample(rng)`` for the same generator state, computed without
        building the collection (the random bot's fast path).

        Args:
            rng: the generator to draw from (it advances as ``sample`` would advance it).

        Returns:
            A legal turn of the seat to move.

        Raises:
            IllegalActionError: the game is over.

        Example:
            >>> g = Game(2, seed=1)
            >>> t = g.random_turn(random.Random(0))
            >>> t == g.legal_turns.sample(random.Random(0)), t.seat
            (True, 0)
        """
        if self._finished:
            raise IllegalActionError("the game is over: no more turns")
        # _turn_space, inlined: this is the hot path of self-play
        tables = self._tables
        cards = tables.distinct.get(self._hands[self._to_move])
        if cards is None:
            return self.legal_turns.sample(rng)
        shape = tables.shapes[self._fill][len(cards)]
        if shape is None:
            return self.legal_turns.sample(rng)
        return turn_at(self._to_move, self._nq, cards, shape, rng.randrange(shape.total))

    def _turn_space(self) -> tuple[int, int, list[str], Shape] | None:
        """What :class:`.legal.LegalTurns` indexes: the seat to move, the number of queues,
        the distinct cards in its hand and the shape of its list of legal turns
        (:meth:`.legal.Tables.turn_space`); ``None`` once the game is over."""
        if self._finished:
            return None
        s = self._to_move
        tables = self._tables
        # the caches read inline (each LegalTurns starts here), as in random_turn
        cards = tables.distinct.get(self._hands[s])
        if cards is not None:
            shape = tables.shapes[self._fill][len(cards)]
            if shape is not None:
                return s, self._nq, cards, shape
        cards, shape = tables.turn_space(self._hands[s], self._fill, self._nq)
        return s, self._nq, cards, shape

    def undo(self) -> Turn:
        """Take back the last turn, restoring the exact previous state.

        Returns:
            The turn taken back.

        Raises:
            IllegalActionError: no turn has been played.
        """
        if not self._turns:
            raise IllegalActionError("no turn to undo")
        last = self._turns[-1]
        self._rebuild(self._turns[:-1])
        return last

    pop = undo

    def after(self, turns: int) -> Game:
        """A copy of the game after its first ``turns`` turns (same setup, same future
        token draws): the position ``turns`` undos would reach, computed in one replay.
        This game is unchanged.

        Args:
            turns: how many of the game's turns the copy keeps (0 to
                :attr:`turns_applied`).

        Returns:
            The copy.

        Raises:
            SetupError: ``turns`` is not a whole number from 0 to :attr:`turns_applied`.

        Example:
            >>> g = Game(2, seed=1)
            >>> g.apply({"seat": 0, "play": ["2", 0]})
            >>> g.after(0).turns_applied, g.after(0) == Game(2, seed=1)
            (0, True)
        """
        if not isinstance(turns, int) or isinstance(turns, bool) or not (
            0 <= turns <= len(self._turns)
        ):
            raise SetupError(
                f"turns must be a whole number from 0 to {len(self._turns)}, not {excerpt(turns)}"
            )
        g = self.copy()
        if turns < len(self._turns):
            g._rebuild(self._turns[:turns])
        return g

    def _rebuild(self, turns: list[Turn]) -> None:
        self._reset()
        for t in turns:
            self._execute(t)

    def copy(self) -> Game:
        """An independent copy (same history, same future token draws)."""
        d = self.__dict__
        new = dict(d)  # the _SHARED fields: immutable, or never mutated in place
        for name in _COPY_LIST:
            new[name] = list(d[name])
        for name in _COPY_NESTED:
            new[name] = [list(x) for x in d[name]]
        new["notes"] = dict(self.notes)
        rng = new["_rng"] = random.Random()
        rng.setstate(self._rng.getstate())
        g = Game.__new__(Game)
        g.__dict__ = new
        return g

    def push(self, turn: Turn) -> int | None:
        """Apply a turn taken from :attr:`legal_turns` *without* checking it — the fast path
        of self-play, python-chess's ``push`` — and return the seat to move next (``None``
        once the game is over). An illegal turn pushed here corrupts the game: anything from
        outside (a user, the browser, a record) must go through :meth:`apply`, which checks
        the turn (like python-chess's ``push_san``) and then runs this same code.

        This is the one executor of a turn: :meth:`apply`, self-play and replays run it, and
        :meth:`preview` runs its steps (:meth:`_steps`) without ending the turn.

        Args:
            turn: a turn of the seat to move, legal here (e.g. one of :attr:`legal_turns`
                or :meth:`random_turn`); it is not checked.

        Returns:
            The seat to move next, or ``None`` once the game is over.

        Example:
            >>> g = Game(2, seed=1)
            >>> g.push(next(iter(g.legal_turns)))
            1
        """
        # The hot path of self-play (one call per turn): the steps, then the end of the turn.
        ev = self._steps(turn)
        s, q = turn[0], turn[2]
        queues = self._queues
        # end of turn; every queue is full only if the played-to one is
        if self._left == 0:
            self._daybreak(ev)
            self._finished = True
            ev.append(("end", self.winners))
        elif len(queues[q]) == _CAP:
            for qq in queues:
                if len(qq) != _CAP:
                    break
            else:
                self._swat_all("full", ev)
                self._next_token(ev)
        self._to_move = nxt = (s + 1) % self._n
        self._turns.append(turn)  # last: a _TokenShortage above leaves the turns as they were
        return None if self._finished else nxt

    _execute = push  # applies a turn already checked (by apply, or a replay)

    def _steps(self, turn: Turn) -> list[Event]:
        """Do the steps of ``turn`` (its play, peek or rotation, its wake) without ending
        it, and return its events so far (also appended to the game's events). A turn
        whose ``card`` is ``None`` plays nothing yet (:meth:`preview`'s partial turn)."""
        # The played card is taken from the hand first (no queue sees it yet): it joins its
        # queue before the additional action with extra == "after", after it otherwise, and
        # the turn's events are built in that order.
        s, card, q, peek, rotate, wake, extra = turn
        queues = self._queues
        if card is not None:
            hands = self._hands
            m = hands[s] & self._note_masks[card]
            bit = m & -m
            hands[s] ^= bit
            c = s * self._d + bit.bit_length() - 1
            self._keys[c] = len(self._turns)
            self._left -= 1
            self._fill += FILL_WEIGHTS[q]
            play = ("play", s, q, c)
            if extra == AFTER:
                queues[q].append(c)
        ev: list[Event]
        if wake:
            ev = [("wake", s)]
            self._swat_all("wake", ev)
            self._next_token(ev)
            if card is not None:
                queues[q].append(c)
                ev.append(play)
        else:
            act: Event | None = None
            if peek is not None:
                pq, pi = peek
                pc = queues[pq][pi]
                self._peeks[pc] |= 1 << s
                act = ("peek", s, pq, pi, pc)
            elif rotate is not None:
                qq = queues[rotate]
                qq.append(qq.pop(0))
                act = ("rotate", s, rotate)
            if card is None:
                ev = [] if act is None else [act]
            elif act is None:
                queues[q].append(c)
                ev = [play]
            elif extra == AFTER:
                ev = [play, act]
            else:
                queues[q].append(c)
                ev = [act, play]
        self._events.append(ev)
        return ev

    def _next_token(self, ev: list[Event]) -> None:
        i = self._tok + 1
        if i >= len(self._stream):
            if self._strict:
                raise _TokenShortage
            others = list(self._token_ids)
            others.remove(self._stream[self._tok])  # token ids are distinct
            self._stream.append(self._rng.choice(others))
        self._tok = i
        tok = self._stream[i]
        self._tokpos = self.rules.tokens[tok]
        ev.append(("token", tok))

    def _swat_queue(self, q: int) -> _QueueSwat:
        """Swat queue ``q``: the kernel (:func:`.swat.swat`) decides on the values, this
        moves the cards; returns the queue's part of the swat event."""
        cards = self._queues[q]
        if not cards:
            return (q, (), 0, (), None)
        k, total, hit = swat(cards, self._tokpos, self._vals)
        if k == len(cards):
            flipped = tuple(cards)
            cards.clear()
        else:
            flipped = tuple(cards[:k])
            del cards[:k]
        self._fill -= k * FILL_WEIGHTS[q]
        if not hit:
            self._safe.extend(flipped)
            return (q, flipped, total, (), None)
        vals = self._vals
        d = self._d
        swatted = []
        i = 0
        for c in flipped:
            if i in hit:
                o = c // d
                self._swatted[o].append(c)
                self._penalty[o] += vals[c]
                swatted.append(c)
            else:
                self._safe.append(c)
            i += 1
        return (q, flipped, total, tuple(swatted), None)

    def _swat_all(self, reason: str, ev: list[Event]) -> None:
        res = []
        for q in range(self._nq):
            res.append(self._swat_queue(q))
        ev.append(("swat", reason, res))

    def _daybreak(self, ev: list[Event], before_pass: Callable[[], None] | None = None) -> None:
        """The kernel's daybreak (:func:`.swat.daybreak`) on the cards: passes until the
        table is empty — a single card escapes unflipped, the other queues are swatted —
        with a new token between passes (unless the variant says not). Spelled here on
        the card ids to reveal the tokens and write the events pass by pass;
        ``tests/engine/test_swat.py`` checks it against the kernel. ``before_pass`` is called
        before each pass, its token revealed (:meth:`daybreak_views` reads the views there)."""
        queues = self._queues
        while any(queues):
            if before_pass is not None:
                before_pass()
            res: list[_QueueSwat] = []
            for q in range(self._nq):
                if len(queues[q]) == 1:
                    c = queues[q].pop()
                    self._fill -= FILL_WEIGHTS[q]
                    self._safe.append(c)
                    res.append((q, (), 0, (), c))
                else:
                    res.append(self._swat_queue(q))
            ev.append(("swat", "daybreak", res))
            if any(queues) and self.rules.daybreak_token_change:
                self._next_token(ev)

    # -------------------------------------------------------------- preview
    def preview(self, steps: Sequence[TurnStep]) -> Game:
        """Check a partial turn of the seat to move, written as steps (the grammar of
        :func:`~tenleave_widget.engine.turn.parse_steps`), and return a copy of the game with
        those steps done but the turn not ended (no automatic wake yet).

        The widget uses it to show a peek before the play, or the card just played before
        the seat chooses an action after it. The steps are checked as :meth:`apply`
        checks a turn and done by the same executor. This game is unchanged.

        Args:
            steps: the turn so far, in order: step objects such as ``{"kind": "play",
                "card": "4*", "queue": 0}``, ``{"kind": "peek", "queue": 1, "position":
                0}``, ``{"kind": "rotate", "queue": 1}`` or ``{"kind": "wake"}``.

        Returns:
            A copy of the game with the steps done and the turn still open.

        Raises:
            IllegalActionError: the game is over, or the steps are not the start of a legal
                turn of the seat to move (the message names what is wrong).

        Example:
            >>> g = Game(2, seed=1)
            >>> p = g.preview([{"kind": "play", "card": "4*", "queue": 0}])
            >>> len(p.view(0)["queues"][0]), len(g.view(0)["queues"][0])
            (1, 0)
        """
        if self._finished:
            raise IllegalActionError("the game is over: no more turns")
        card: Any = None  # None: nothing played yet
        queue: Any = None
        peek: Any = None
        rotate: Any = None
        wake = played = False
        extra = BEFORE
        for kind, a, b in parse_steps(steps):
            if kind == "play":
                card, queue, played = a, b, True
                continue
            if kind == "wake":
                wake = True
            elif kind == "peek":
                peek = (a, b)
            else:
                rotate = a
            extra = AFTER if played else BEFORE
        turn = Turn._make((self._to_move, card, queue, peek, rotate, wake, extra))
        self._check(turn, partial=not played)
        g = self.copy()
        try:
            g._steps(turn)
        except _TokenShortage:
            raise IllegalActionError(_NO_TOKENS) from None
        return g

    # ----------------------------------------------------------------- views
    def knows(self, seat: int | None, card_id: int) -> bool:
        """Whether a seat knows a card's value (RULES.md §9: its own cards, the face-up
        ones, and those it has peeked at).

        Args:
            seat: the seat; ``None`` for the teacher, who knows every card.
            card_id: the card's id (as in a view's ``"id"`` fields).

        Returns:
            ``True`` when the seat knows the value.
        """
        return knows(self, seat, card_id)

    def view(self, seat: int | None) -> View:
        """What one seat knows (RULES.md §9), as the ``tenleave-view/1`` JSON object.

        No face-down value the seat does not know is in it: the widget syncs nothing else
        about a game, and the odds are a pure function of it (``docs/view.md``).

        Args:
            seat: the seat; ``None`` for the teacher's omniscient view.

        Returns:
            The view (:class:`~tenleave_widget.engine.view.View`).

        Raises:
            IllegalActionError: ``seat`` is not a seat of this game.
        """
        return seat_view(self, seat)

    def daybreak_views(self, seats: Sequence[int | None]) -> list[list[View]]:
        """Daybreak from this position, pass by pass, on a copy (this game is unchanged):
        before each pass, its token revealed, the :meth:`view` of each of ``seats``
        (``None``: the teacher's). The passes are those the engine's own daybreak makes
        (the same executor). The review's luck of a turn ending in daybreak reads them on
        ``before.preview(turn.steps())``: what each seat could expect of each pass.

        Args:
            seats: the seats whose views to take (``None``: the teacher's).

        Returns:
            One list per pass, holding the view of each of ``seats`` in order.

        Raises:
            IllegalActionError: one of ``seats`` is not a seat of this game, or the
                record's ``defense`` list has no token left for a pass.

        Example:
            >>> g = Game(2, seed=1)
            >>> g.apply(g.random_turn(__import__("random").Random(0)))
            >>> passes = g.daybreak_views([0, None])
            >>> len(passes), [v["seat"] for v in passes[0]], g.view(0) == passes[0][0]
            (1, [0, None], True)
        """
        for seat in seats:
            self.view(seat)  # an unknown seat is refused before any work
        g = self.copy()
        out: list[list[View]] = []
        try:
            g._daybreak([], lambda: out.append([g.view(seat) for seat in seats]))
        except _TokenShortage:
            raise IllegalActionError(_NO_TOKENS) from None
        return out

    def events(self, turn: int | None = None) -> list[GameEvent]:
        """The public events of one turn, as in a view's ``events`` (``docs/view.md``).

        Args:
            turn: the turn's index (negative counts from the end); ``None``: the last.

        Returns:
            The events (an empty list before the first turn).

        Example:
            >>> g = Game(2, seed=1)
            >>> g.apply({"seat": 0, "play": ["3*", 1]})
            >>> [e["kind"] for e in g.events()]
            ['play']
        """
        if not self._events:
            return []
        return events_json(self, self._events[-1 if turn is None else turn])

    # --------------------------------------------------------------- records
    def to_record(self, notes: dict[int, str] | None = None) -> Record:
        """The game so far as a ``tenleave-record/1`` object (RULES.md §8).

        Args:
            notes: the notes to write (default: the game's own).

        Returns:
            The record, ready for :func:`~tenleave_widget.save_record` or
            :meth:`from_record`.
        """
        rec: Record = {
            "format": RECORD_FORMAT,
            "players": list(self.players),
            "first": self.first,
            "rules": self.rules.to_json(),
            "defense": self.defense,
            "turns": [t.to_json() for t in self._turns],
        }
        nts = self.notes if notes is None else notes
        if nts:
            rec["notes"] = {str(k): v for k, v in sorted(nts.items())}
        return rec

    @classmethod
    def from_record(
        cls, record: RecordSource, turns: int | None = None, *, seed: int | None = None,
        positions: list[Game] | None = None,
    ) -> Game:
        """The game of a record, after its first turns.

        Played on past the record, the game reveals the record's unused tokens first, then
        draws from a generator seeded with ``seed``.

        Args:
            record: a record (a ``dict``), or the path of a record file as a ``str`` or a
                :class:`pathlib.Path` — never JSON text
                (:data:`~tenleave_widget.engine.record.RecordSource`).
            turns: how many of its turns to apply (``None``: all).
            seed: seeds the token draws after the record's.
            positions: a list that receives a copy of the game before each turn applied,
                each the game ``from_record(record, k)`` gives (the record replayed once).

        Returns:
            The game.

        Raises:
            RecordError: the record is invalid or a turn in it is illegal (the message
                names the turn index); anything but a dict or a path is refused as such.

        Example:
            >>> g = Game(2, seed=1)
            >>> g.apply({"seat": 0, "play": ["2", 0]})
            >>> before: list[Game] = []
            >>> Game.from_record(g.to_record(), positions=before) == g
            True
            >>> before == [Game.from_record(g.to_record(), 0)]
            True
        """
        head = parse_record(record_object(record))
        all_turns = head.turns
        if turns is None:
            n = len(all_turns)
        else:
            if type(turns) is not int or turns < 0:
                raise RecordError(f"turns must be a non-negative integer, not {excerpt(turns)}")
            if turns > len(all_turns):
                raise RecordError(
                    f"the record has {len(all_turns)} turns; cannot go to turn {turns}"
                )
            n = turns
        g = cls(
            head.players,
            rules=head.rules,
            first=head.first,
            defense=head.defense,
            strict_defense=True,
            notes=head.notes,
            seed=seed,
        )
        for i in range(n):
            raw = all_turns[i]
            if positions is not None:
                positions.append(g.copy())
            try:
                g.apply(Turn.from_json(raw))
            except TenLeaveError as e:
                raise RecordError(str(e), turn=i) from None
        g._strict = False
        for p in positions[len(positions) - n:] if positions is not None and n else []:
            p._strict = False
        return g

    # ---------------------------------------------------------- comparisons
    def _state(self) -> tuple[Any, ...]:
        return tuple(getattr(self, name) for name in _COMPARED)

    def __eq__(self, other: object) -> bool:
        """Same setup, history and position (see :data:`_FIELDS` for what is compared)."""
        return isinstance(other, Game) and self._state() == other._state()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        status = "finished" if self._finished else f"seat {self._to_move} to move"
        return f"<Game {self._n} seats, {len(self._turns)} turns, {status}>"


# Every attribute of a Game, once: how copy() copies it and what == compares (None: not
# compared, with the reason). tests/engine/test_properties.py checks that this list is complete.
_SHARED, _LIST, _NESTED, _OWN = "shared", "list", "list of lists", "own"
_FIELDS: tuple[tuple[str, str, str | None], ...] = (
    # the setup
    ("players", _LIST, "players"),
    ("rules", _SHARED, "rules"),
    ("first", _SHARED, "first"),
    ("notes", _OWN, None),  # annotations, not the game
    ("_stream", _LIST, "defense"),  # the tokens revealed so far; later ones are not drawn yet
    ("_rng", _OWN, None),  # the future token draws
    ("_strict", _SHARED, None),  # how a record is replayed, not the game
    # constants of (seats, rules): derived from the compared players and rules
    ("_n", _SHARED, None),
    ("_nq", _SHARED, None),
    ("_tables", _SHARED, None),
    ("_dealt", _SHARED, None),
    ("_d", _SHARED, None),
    ("_vals", _SHARED, None),
    ("_marked", _SHARED, None),
    ("_notes", _SHARED, None),
    ("_note_masks", _SHARED, None),
    ("_token_ids", _SHARED, None),
    # the position (set by _reset)
    ("_turns", _LIST, "_turns"),
    ("_hands", _LIST, "_hands"),
    ("_queues", _NESTED, "_queues"),
    ("_fill", _SHARED, None),  # the queue sizes as one number: derived from _queues
    ("_peeks", _LIST, "_peeks"),
    ("_keys", _LIST, "_keys"),
    ("_swatted", _NESTED, "_swatted"),
    ("_safe", _LIST, "_safe"),
    ("_penalty", _LIST, "_penalty"),
    ("_tok", _SHARED, None),  # compared through defense
    ("_tokpos", _SHARED, None),  # the current token's positions: derived from _tok
    ("_to_move", _SHARED, "_to_move"),
    ("_left", _SHARED, "_left"),
    ("_finished", _SHARED, "_finished"),
    ("_events", _NESTED, None),  # derived from the turns and the tokens
)
_COPY_LIST = tuple(name for name, how, _ in _FIELDS if how == _LIST)
_COPY_NESTED = tuple(name for name, how, _ in _FIELDS if how == _NESTED)
_COMPARED = tuple(key for _, _, key in _FIELDS if key is not None)
