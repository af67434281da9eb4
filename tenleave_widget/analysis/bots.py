"""Bots: ``random``, ``greedy``, ``lookahead``, ``reader``. A bot decides from its view, never
from the game.

The protocol is step-wise, so that a bot can wake SleepKid and then choose its play from
the position after the swat, which it cannot see before:

- ``bot.choose(view, legal)`` gets the seat's ``tenleave-view/1`` view (no hidden card in
  it) and the legal turns (a sequence of :class:`~tenleave_widget.Turn`) and returns one of
  them, or :data:`WAKE`;
- after :data:`WAKE`, the caller wakes SleepKid on a copy of the game and asks again, with
  the view after the swat and the legal plays (``Turn``\\ s with no action): the chosen
  play completes the wake turn;
- a bot may also return a :class:`Peek` (peek that card first): the caller does the peek
  on a copy and asks again with the view after it and the legal plays, as after a wake;
- a bot whose ``reads_history`` is true gets its view with the public history
  (:func:`~tenleave_widget.analysis.infer.with_history`: what every seat saw happen),
  the input of the inference; it holds nothing the seat does not know.

:func:`decide` runs that loop for whoever drives the bots (``simulate``, the widget):

>>> from tenleave_widget import Game
>>> g = Game(3, seed=1)
>>> bot = make_bot("random", seed=2)
>>> decide(bot, g) in g.legal_turns
True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any, Final, Literal, NamedTuple, Protocol

from ..engine.errors import IllegalActionError, InvalidViewError, SetupError, excerpt
from ..engine.game import Game
from ..engine.rules import QUEUE_CAPACITY
from ..engine.turn import AFTER, Turn, TurnObject, TurnStep, play_pair
from ..engine.view import View, has_history
from .infer import Beta, Cost, with_history
from .lookahead import DEFAULT_SAMPLES, Budget, EvaluationOptions, evaluate_view
from .move_values import MoveValue, MoveValues
from .odds import MoveOdds, move_evaluation
from .reader import (
    BELIEF_COST,
    PEEK_CARDS,
    Belief,
    PeekValue,
    dealer,
    peek_card,
    peek_values,
    plain_turn,
    revealed,
)

WAKE: Final = "wake"
"""What :meth:`Bot.choose` returns to wake SleepKid before choosing its play."""


class Peek(NamedTuple):
    """What :meth:`Bot.choose` returns to peek the card at (``queue``, ``position``) before
    choosing its play (from the view after the peek)."""

    queue: int
    position: int


Choice = Turn | Literal["wake"] | Peek


class Legal(Protocol):
    """The legal turns handed to a bot: :class:`~tenleave_widget.LegalTurns` (lazy) or a
    list of turns — ``len``, indexing and ``in``."""

    def __len__(self) -> int: ...

    def __getitem__(self, i: int, /) -> Turn: ...

    def __contains__(self, turn: object, /) -> bool: ...


class Bot(Protocol):
    """A bot: a name, and ``choose(view, legal)`` (see the module docstring)."""

    name: str

    def choose(self, view: View, legal: Legal) -> Choice: ...


class RandomBot:
    """Uniform over the legal turns, seeded (wake turns included: it never says WAKE)."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: View, legal: Legal) -> Choice:
        # the draw of LegalTurns.sample and Game.random_turn (simulate's fast path)
        return legal[self.rng.randrange(len(legal))]


class GreedyBot:
    """Plays the move with the lowest expected penalty to itself of an immediate swat
    (the odds' move evaluation), ties broken by a seeded draw. It takes no additional
    action; when waking is best it wakes, then plays the best card for the new position.
    """

    name = "greedy"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def _best(self, moves: list[MoveOdds]) -> MoveOdds:
        low = min(float(m["expected_penalty"]) for m in moves)
        best = [m for m in moves if float(m["expected_penalty"]) <= low + 1e-12]
        return best[self.rng.randrange(len(best))] if len(best) > 1 else best[0]

    def choose(self, view: View, legal: Legal) -> Choice:
        seat = _mover(view)
        moves = move_evaluation(view)
        if moves and moves[-1].get("wake") and "play" in moves[0]:
            card, queue = play_pair(moves[0]["play"])
            if Turn(seat, card, queue, wake=True) not in legal:  # after a wake: plays only
                moves = moves[:-1]
        move = self._best(moves)
        if move.get("wake"):
            return WAKE
        return Turn(seat, *play_pair(move["play"]))


class LookaheadBot:
    """Plays the move with the best whole-game value from its own view
    (:func:`~tenleave_widget.analysis.lookahead.evaluate_view`): sampled worlds played out to
    the end, ranked by the expected margin (its final penalty minus the mean of the others').

    ``budget``: worlds per decision (default :func:`bot_budget` of the table size: 96 worlds
    at 2 to 4 seats, 192 at 5, successive halving on, rotations off — ``docs/methods/lookahead.md``
    says why). ``objective``: ``"margin"`` or ``"win_probability"``.
    Each decision's seed is derived from the bot's seed and the turn number, so the same
    position gets the same answer; at a table, a take-back of its answer (undo) deals the
    cards the human cannot see again (:mod:`~tenleave_widget.table.session.redeal`), so undoing
    asks another world rather than sampling this one. When its best turn
    wakes SleepKid, it says :data:`WAKE` and chooses its play again from the view after
    the swat (``redecide=False``: it plays the wake turn it valued, play fixed before).

    >>> from tenleave_widget import Game
    >>> g = Game(3, seed=1)
    >>> decide(make_bot("lookahead", seed=2), g) in g.legal_turns
    True
    """

    name = "lookahead"

    def __init__(
        self, seed: int | None = None, budget: int | Budget | None = None,
        objective: str = "margin", rotations: bool = False, redecide: bool = True,
    ) -> None:
        self.seed = seed if seed is not None else random.randrange(2**32)
        self.budget = budget
        """The budget per decision; ``None``: :func:`bot_budget` of the table's size."""
        self.objective = objective
        self.rotations = rotations
        self.redecide = redecide
        self.last: MoveValues | None = None

    def _evaluate(self, view: View, **changes: Any) -> Turn:
        """The best valued turn, by the bot's options with ``changes`` (the lookahead's
        :class:`~tenleave_widget.analysis.lookahead.EvaluationOptions` fields)."""
        seed = random.Random(f"{self.seed}:{view['turns_applied']}").getrandbits(64)
        budget = self.budget if self.budget is not None else bot_budget(len(view["hands"]))
        options = EvaluationOptions(rotations=self.rotations, objective=self.objective)
        ev = evaluate_view(view, budget, seed, options=options, **changes)
        self.last = ev
        return Turn.from_json(ev["moves"][ev["best"]]["turn"])

    def choose(self, view: View, legal: Legal) -> Choice:
        """The best valued turn. When that is "wake, then play X", it says :data:`WAKE`
        (with ``redecide``, the default) and chooses its play again from the view after
        the swat, among the legal plays; else it plays the whole wake turn as valued."""
        best = self._evaluate(view)
        if best in legal:
            return WAKE if best.wake and self.redecide else best
        # asked again after a wake: only the plain plays are open
        plays = [t.to_json() for t in _plain_plays(view) if t in legal]
        return self._evaluate(view, turns=plays)


def _mover(view: View) -> int:
    """The seat whose view it is: a bot decides from a seat's view, never the omniscient one."""
    seat = view["seat"]
    if seat is None:
        raise InvalidViewError("a bot decides from a seat's view, not the omniscient view")
    return seat


def _plain_plays(view: View) -> list[Turn]:
    """The seat's plays without an action, from its view: distinct cards x queues with room."""
    seat = _mover(view)
    cap = view.get("queue_capacity", QUEUE_CAPACITY)
    cards = sorted(set(view["hands"][seat]["cards"] or []))
    return [Turn(seat, c, q) for c in cards for q, qq in enumerate(view["queues"]) if len(qq) < cap]


PEEK_GAIN = 0.1
"""The honest (cross-fitted) gain in expected margin, in points, above which the reader
peeks before its play."""

PEEK_FIRST = True
"""Whether the reader, when no peek is worth :data:`PEEK_GAIN` before its play, still
peeks before a plain play (at the card it would peek after), rather than after it: better
on fresh deals (``benchmarks/bench_reader.py``; ``docs/methods/reader.md``)."""

PEEK_CARD = "spread"
"""Which card the reader peeks when no peek is worth :data:`PEEK_GAIN` for the play at
hand (:data:`~tenleave_widget.analysis.reader.PEEK_CARDS`): the one whose value its worlds
spread the most."""

ROTATIONS = True
"""Whether the reader weighs rotating turns (and rotates, forgoing its peek, when one beats
its best plain play by :data:`ROTATE_GAIN`): worth about two and a half points a game
against two lookahead bots (``benchmarks/bench_reader.py --variant rotate``;
``docs/methods/reader.md``)."""

ROTATE_GAIN = 0.25
"""With ``rotations`` on, the expected margin in points by which the reader's best rotating
turn must beat its best plain play for it to rotate (and forgo the peek)."""

READER_SAMPLES = 128
"""Worlds the reader's inference weighs per opponent component too large to enumerate."""


class ReaderBot:
    """The ``reader`` bot: the lookahead bot, reading the players and valuing peeks.

    Each decision is the whole-game search of the ``lookahead`` bot, from the bot's view
    and the public history only, with three differences (how each was measured:
    ``docs/methods/reader.md``):

    - **Its worlds** are dealt from the posterior of
      :func:`~tenleave_widget.analysis.infer.infer` over the cards it cannot see, not
      from the uniform model.
    - **It peeks** before its play when knowing one card is worth more than ``peek_gain``
      points (cross-fitted: the best play per value the card could show, against the best
      bare decision, on the same worlds): it returns :class:`Peek` and chooses its play
      from the view after the peek. Otherwise, before a plain play, it peeks the card
      whose value its worlds spread the most (``peek_first``), or after the play
      (``peek_first=False``). A wake stays a wake.
    - **It rotates** when its best rotating turn beats its best plain play by more than
      ``rotate_gain`` points (``rotations``); a rotation forgoes the peek.

    Its answer to a position is the same every time: each decision's seed is derived from
    ``seed`` and the turn.

    Args:
        seed: the bot's seed (``None``: drawn at random).
        budget: worlds per decision, or a
            :class:`~tenleave_widget.analysis.lookahead.Budget` (``None``:
            :func:`bot_budget` of the table, as the lookahead bot's).
        beta: the opponents' rationality, as :func:`~tenleave_widget.analysis.infer.infer`
            takes it (``"fitted"``: read from their own choices so far).
        samples: the worlds the inference draws for a group of opponents too large to
            enumerate.
        peek_gain: the worth, in points of expected margin, above which it peeks before
            its play (:data:`PEEK_GAIN`).
        peeks: ``False``: it never peeks.
        cost: what the opponents are read as minimising
            (:data:`~tenleave_widget.analysis.reader.BELIEF_COST`).
        peek_first: when no peek is worth ``peek_gain``, peek before a plain play rather
            than after it (:data:`PEEK_FIRST`).
        peek_card: which card it peeks then
            (:data:`~tenleave_widget.analysis.reader.PEEK_CARDS`; :data:`PEEK_CARD`).
        rotations: weigh rotating turns (:data:`ROTATIONS`).
        rotate_gain: the points by which a rotating turn must beat the best plain play
            (:data:`ROTATE_GAIN`).

    Raises:
        SetupError: ``peek_card`` is not one of
            :data:`~tenleave_widget.analysis.reader.PEEK_CARDS`.

    Example:
        >>> from tenleave_widget import Game
        >>> g = Game(3, seed=1)
        >>> decide(make_bot("reader", seed=2), g) in g.legal_turns
        True
    """

    name = "reader"
    reads_history = True

    def __init__(
        self, seed: int | None = None, budget: int | Budget | None = None,
        beta: Beta = "fitted", samples: int = READER_SAMPLES, peek_gain: float = PEEK_GAIN,
        peeks: bool = True, cost: Cost = BELIEF_COST, peek_first: bool = PEEK_FIRST,
        peek_card: str = PEEK_CARD, rotations: bool = ROTATIONS,
        rotate_gain: float = ROTATE_GAIN,
    ) -> None:
        if peek_card not in PEEK_CARDS:
            raise SetupError(f"reader: peek_card must be one of {', '.join(PEEK_CARDS)}, "
                             f"not {excerpt(peek_card)}")
        self.seed = seed if seed is not None else random.randrange(2**32)
        self.budget = budget
        self.beta = beta
        self.cost = cost
        self.samples = samples
        self.peek_gain = peek_gain
        self.peeks = peeks
        self.peek_first = peek_first
        self.peek_card = peek_card
        self.rotations = rotations
        self.rotate_gain = rotate_gain
        self.last: MoveValues | None = None
        self.last_peeks: list[PeekValue] = []
        self._belief: tuple[int, Belief] | None = None

    def _seed(self, view: View, salt: str) -> int:
        return random.Random(f"{self.seed}:{view['turns_applied']}{salt}").getrandbits(64)

    def belief(self, view: View) -> Belief:
        """The belief behind a decision: from the view's history at the start of a turn; in
        the same turn after a peek or a wake, that belief conditioned on what was seen; the
        uniform model for a view without history (nothing to read)."""
        turn = int(view["turns_applied"])
        if has_history(view):
            b = Belief(view, self.beta, self._seed(view, ":infer") % 2**31, self.samples,
                       cost=self.cost)
            self._belief = (turn, b)
            return b
        if self._belief is not None and self._belief[0] == turn:
            return self._belief[1].condition(revealed(view))
        return Belief.uniform(view)

    def _evaluate(self, view: View, salt: str, turns: list[TurnObject] | None = None
                  ) -> tuple[MoveValues, list[Mapping[int, int]]]:
        worlds: list[Mapping[int, int]] = []
        deal = dealer(view, self.belief(view).sample, worlds)
        budget = self.budget if self.budget is not None else bot_budget(len(view["hands"]))
        options = EvaluationOptions(rotations=self.rotations and turns is None,
                                    per_world=True, turns=turns, deal=deal)
        ev = evaluate_view(view, budget, self._seed(view, salt), options=options)
        self.last = ev
        return ev, worlds

    def choose(self, view: View, legal: Legal) -> Choice:
        """The best turn, a :class:`Peek` first when it is worth it (see the class)."""
        again = not has_history(view) and self._belief is not None \
            and self._belief[0] == int(view["turns_applied"])
        if not again:
            ev, worlds = self._evaluate(view, "")
            best = Turn.from_json(ev["moves"][ev["best"]]["turn"])
            if best in legal:
                self.last_peeks = peek_values(view, ev, worlds) if self.peeks else []
                if self.last_peeks and self.last_peeks[0].gain > self.peek_gain:
                    return Peek(self.last_peeks[0].queue, self.last_peeks[0].position)
                if best.wake:
                    return WAKE
                if best.rotate is not None:  # rotations on: rotate when it beats every plain play
                    plain = _best_plain(ev)
                    gain = plain["expected_margin"] - ev["moves"][ev["best"]]["expected_margin"]
                    if gain > self.rotate_gain:
                        return best
                    best = Turn.from_json(plain["turn"])
                if self.peeks and self.peek_first:
                    card = peek_card(view, ev, worlds, self.peek_card)
                    if card is not None:
                        return Peek(*card)
                return self._peek_after(view, best, legal, ev, worlds)
        plays = [t.to_json() for t in _plain_plays(view) if t in legal]
        ev, _ = self._evaluate(view, ":again", turns=plays)
        return Turn.from_json(ev["moves"][ev["best"]]["turn"])

    def _peek_after(self, view: View, best: Turn, legal: Legal, ev: MoveValues,
                    worlds: list[Mapping[int, int]]) -> Turn:
        """``best`` with a peek after the play at the card most worth knowing
        (:func:`~tenleave_widget.analysis.reader.peek_card` by ``peek_card``), if there is
        one and that turn is legal."""
        if not self.peeks:
            return best
        card = peek_card(view, ev, worlds, self.peek_card)
        if card is None:
            return best
        turn = best._replace(peek=card, extra=AFTER)
        return turn if turn in legal else best


def _best_plain(ev: MoveValues) -> MoveValue:
    """The plain play (:func:`~tenleave_widget.analysis.reader.plain_turn`) with the lowest
    expected margin in ``ev``."""
    return min((m for m in ev["moves"] if plain_turn(m["turn"])),
               key=lambda m: m["expected_margin"])


BOT_BUDGET = Budget(samples=2 * DEFAULT_SAMPLES, prune=2.0)
"""The lookahead bot's default budget per decision at 2 to 4 seats."""

BOT_BUDGET_5 = Budget(samples=4 * DEFAULT_SAMPLES, prune=2.0)
"""The lookahead bot's default budget per decision at 5 seats: twice the worlds, the
budget measured to beat every greedy seat by 2 points (``benchmarks/bench_lookahead.py``;
``docs/performance.md``)."""


def bot_budget(players: int) -> Budget:
    """The lookahead bot's default budget per decision at a table of ``players`` seats:
    more seats, more to sample (every other seat's hand) and the time to do it (the speed
    aim's p99 left room at 5 seats).

    >>> bot_budget(3).samples, bot_budget(5).samples
    (96, 192)
    """
    return BOT_BUDGET_5 if players >= 5 else BOT_BUDGET


BOTS: dict[str, Callable[[int | None], Bot]] = {
    "random": RandomBot, "greedy": GreedyBot, "lookahead": LookaheadBot, "reader": ReaderBot,
}
"""The bots by name: ``BOTS[name](seed)`` makes one."""

BOT_NAMES = tuple(BOTS)


def check_bot(name: object) -> str:
    """``name`` if it names a bot (one of :data:`BOT_NAMES`), else :class:`SetupError`:
    the one place bot names are checked (``make_bot``, ``simulate``, the widget)."""
    if not isinstance(name, str) or name not in BOTS:
        raise SetupError(f"unknown bot {excerpt(name)} (choose from {', '.join(BOT_NAMES)})")
    return name


MAX_BOT_DELAY = 60.0
"""The longest a bot waits before its turn, in seconds (a table's and a server's)."""


def check_bot_delay(seconds: object, what: str = "the bots' delay") -> float:
    """``seconds`` as a bot's wait before its turn: a number 0..:data:`MAX_BOT_DELAY`,
    else :class:`SetupError` naming it (``what``: how the message calls it) — a negative,
    NaN, infinite or huge wait, a boolean, a text: the one place bot delays are checked
    (a table's ``bot_delay``, ``tenleave serve --bot-delay``)."""
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not (
            0 <= seconds <= MAX_BOT_DELAY):
        raise SetupError(f"{what} must be a number of seconds 0..{MAX_BOT_DELAY:g}, not "
                         f"{excerpt(seconds)}")
    return float(seconds)


def make_bot(name: str, seed: int | None = None) -> Bot:
    """A bot by name (one of :data:`BOT_NAMES`); raises :class:`SetupError` for another."""
    return BOTS[check_bot(name)](seed)


def wake_plays(game: Game) -> list[Turn]:
    """The plays open to the seat to move, as plain turns: distinct cards in hand (sorted)
    x queues with room. After a wake, one of them completes the turn."""
    seat = game.to_move
    if seat is None:
        return []
    rooms = [q for q in range(game.queue_count) if len(game.queue_cards(q)) < QUEUE_CAPACITY]
    return [Turn(seat, c, q) for c in sorted(set(game.hand(seat))) for q in rooms]


def decide(bot: Bot, game: Game, seat: int | None = None) -> Turn:
    """The whole turn ``bot`` plays for the seat to move (``seat``, if given, must be it):
    ``bot.choose`` on the seat's view; on :data:`WAKE`, again on the view after the wake.
    The turn is legal (checked): push it with :meth:`Game.push` or :meth:`Game.apply`.
    Raises :class:`IllegalActionError` when the game is over or the bot chose badly.
    """
    mover = game.to_move
    if mover is None:
        raise IllegalActionError("no legal turn: the game is over")
    if seat is not None and seat != mover:
        raise IllegalActionError(f"seat {excerpt(seat)} cannot move: it is seat {mover}'s turn")
    legal = game.legal_turns
    # a view with its history is a View with one more key (docs/view.md)
    view: View = (with_history(game, mover) if getattr(bot, "reads_history", False)
                  else game.view(mover))
    choice = bot.choose(view, legal)
    if choice == WAKE or isinstance(choice, Peek):
        first: TurnStep = (
            {"kind": "wake"} if choice == WAKE
            else {"kind": "peek", "queue": choice.queue, "position": choice.position}
        )
        after = game.preview([first])  # raises IllegalActionError if not allowed
        plays = wake_plays(after)
        play = bot.choose(after.view(mover), plays)
        what = "waking" if choice == WAKE else "peeking"
        if play not in plays:
            raise IllegalActionError(
                f"the {bot.name} bot chose {excerpt(play)} after {what}: not one of the legal plays"
            )
        assert isinstance(play, Turn)
        if isinstance(choice, Peek):
            return play._replace(peek=(choice.queue, choice.position))
        return play._replace(wake=True)
    if not isinstance(choice, Turn) or choice not in legal:
        raise IllegalActionError(
            f"the {bot.name} bot chose {excerpt(choice)}: not a legal turn"
        )
    return choice
