"""Bots: ``random``, ``greedy``, ``lookahead``. A bot decides from its view, never from the game.

The protocol is step-wise, so that a bot can wake SleepKid and then choose its play from
the position after the swat, which it cannot see before:

- ``bot.choose(view, legal)`` gets the seat's ``tenleave-view/1`` view (no hidden card in
  it) and the legal turns (a sequence of :class:`~tenleave_widget.Turn`) and returns one of
  them, or :data:`WAKE`;
- after :data:`WAKE`, the caller wakes SleepKid on a copy of the game and asks again, with
  the view after the swat and the legal plays (``Turn``\\ s with no action): the chosen
  play completes the wake turn.

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
from typing import Any, Final, Literal, Protocol

from ..engine.errors import IllegalActionError, SetupError, excerpt
from ..engine.game import Game
from ..engine.rules import QUEUE_CAPACITY
from ..engine.turn import Turn
from .lookahead import DEFAULT_SAMPLES, Budget, evaluate_view

WAKE: Final = "wake"
"""What :meth:`Bot.choose` returns to wake SleepKid before choosing its play."""

View = Mapping[str, Any]
Choice = Turn | Literal["wake"]


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

    def _best(self, moves: list[dict[str, Any]]) -> dict[str, Any]:
        low = min(float(m["expected_penalty"]) for m in moves)
        best = [m for m in moves if float(m["expected_penalty"]) <= low + 1e-12]
        return best[self.rng.randrange(len(best))] if len(best) > 1 else best[0]

    def choose(self, view: View, legal: Legal) -> Choice:
        from .odds import move_evaluation

        seat = view["seat"]
        moves = move_evaluation(view)
        if moves and moves[-1].get("wake") and "play" in moves[0]:
            card, queue = moves[0]["play"]
            if Turn(seat, card, queue, wake=True) not in legal:  # after a wake: plays only
                moves = moves[:-1]
        move = self._best(moves)
        if move.get("wake"):
            return WAKE
        card, queue = move["play"]
        return Turn(seat, str(card), int(queue))


class LookaheadBot:
    """Plays the move with the best whole-game value from its own view
    (:func:`~tenleave_widget.analysis.lookahead.evaluate_view`): sampled worlds played out to
    the end, ranked by the expected margin (its final penalty minus the mean of the others').

    ``budget``: worlds per decision (default :func:`bot_budget` of the table size: 96 worlds
    at 2 to 4 seats, 192 at 5, successive halving on, rotations off — see the README for
    why). ``objective``: ``"margin"`` or ``"win"``.
    Each decision's seed is derived from the bot's seed and the turn number, so the same
    position gets the same answer (undo cannot be used to sample it). When its best turn
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
        self.last: dict[str, Any] | None = None

    def _evaluate(self, view: View, **options: Any) -> Turn:
        seed = random.Random(f"{self.seed}:{view['turns_applied']}").getrandbits(64)
        budget = self.budget if self.budget is not None else bot_budget(len(view["hands"]))
        ev = evaluate_view(view, budget, seed, rotations=self.rotations,
                           objective=self.objective, **options)
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


def _plain_plays(view: View) -> list[Turn]:
    """The seat's plays without an action, from its view: distinct cards x queues with room."""
    seat = view["seat"]
    cap = view.get("queue_capacity", QUEUE_CAPACITY)
    cards = sorted(set(view["hands"][seat]["cards"] or []))
    return [Turn(seat, c, q) for c in cards for q, qq in enumerate(view["queues"]) if len(qq) < cap]


BOT_BUDGET = Budget(samples=2 * DEFAULT_SAMPLES, prune=2.0)
"""The lookahead bot's default budget per decision at 2 to 4 seats."""

BOT_BUDGET_5 = Budget(samples=4 * DEFAULT_SAMPLES, prune=2.0)
"""The lookahead bot's default budget per decision at 5 seats: twice the worlds. With 96
at 5 seats it beat one greedy seat by only 1.42 [0.50, 2.34] points (200 games); with 192,
+2.08 [1.68, 2.49] (970 games), though the doubling's own gain was not separated (README,
``benchmarks/bench_lookahead.py``)."""


def bot_budget(players: int) -> Budget:
    """The lookahead bot's default budget per decision at a table of ``players`` seats:
    more seats, more to sample (every other seat's hand) and the time to do it (the speed
    aim's p99 left room at 5 seats).

    >>> bot_budget(3).samples, bot_budget(5).samples
    (96, 192)
    """
    return BOT_BUDGET_5 if players >= 5 else BOT_BUDGET


BOTS: dict[str, Callable[[int | None], Bot]] = {
    "random": RandomBot, "greedy": GreedyBot, "lookahead": LookaheadBot
}
"""The bots by name: ``BOTS[name](seed)`` makes one."""

BOT_NAMES = tuple(BOTS)


def check_bot(name: object) -> str:
    """``name`` if it names a bot (one of :data:`BOT_NAMES`), else :class:`SetupError`:
    the one place bot names are checked (``make_bot``, ``simulate``, the widget)."""
    if not isinstance(name, str) or name not in BOTS:
        raise SetupError(f"unknown bot {excerpt(name)} (choose from {', '.join(BOT_NAMES)})")
    return name


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
    choice = bot.choose(game.view(mover), legal)
    if choice == WAKE:
        after = game.preview([{"kind": "wake"}])  # raises IllegalActionError if not allowed
        plays = wake_plays(after)
        play = bot.choose(after.view(mover), plays)
        if play not in plays:
            raise IllegalActionError(
                f"the {bot.name} bot chose {excerpt(play)} after waking: not one of the legal plays"
            )
        assert isinstance(play, Turn)
        return play._replace(wake=True)
    if not isinstance(choice, Turn) or choice not in legal:
        raise IllegalActionError(
            f"the {bot.name} bot chose {excerpt(choice)}: not a legal turn"
        )
    return choice
