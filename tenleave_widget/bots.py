"""Bots that choose a turn for the seat to move: ``random``, ``greedy`` and ``lookahead``.

>>> from tenleave_widget import Game
>>> g = Game(3, seed=1)
>>> bot = make_bot("random", seed=2)
>>> bot.choose(g) in g.legal_turns
True
"""

from __future__ import annotations

import random
from typing import Any, Protocol

from .errors import IllegalActionError, SetupError, excerpt
from .game import Game
from .lookahead import DEFAULT_SAMPLES, Budget, evaluate_view
from .turn import Turn

BOT_NAMES = ("random", "greedy", "lookahead")


class Bot(Protocol):
    """Anything with a ``choose(game) -> Turn`` for ``game.to_move``."""

    name: str

    def choose(self, game: Game) -> Turn: ...


class RandomBot:
    """Uniform over the legal turns (:attr:`Game.legal_turns`), seeded."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, game: Game) -> Turn:
        return game.random_turn(self.rng)


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

    def choose(self, game: Game) -> Turn:
        from .odds import move_evaluation

        seat = game.to_move
        if seat is None:
            raise IllegalActionError("no legal turn: the game is over")
        move = self._best(move_evaluation(game.view(seat)))
        if move.get("wake"):
            after = game.preview([{"kind": "wake"}])
            plays = [m for m in move_evaluation(after.view(seat)) if "play" in m]
            card, queue = self._best(plays)["play"]
            return Turn(seat, str(card), int(queue), wake=True)
        card, queue = move["play"]
        return Turn(seat, str(card), int(queue))


class LookaheadBot:
    """Plays the move with the best whole-game value from its own view
    (:func:`~tenleave_widget.lookahead.evaluate_view`): sampled worlds played out to the end,
    ranked by the expected margin (its final penalty minus the mean of the others').

    ``budget``: worlds per decision (default :data:`BOT_BUDGET`: successive halving on,
    rotations off — see the README for why). ``objective``: ``"margin"`` or ``"win"``.
    Each decision's seed is derived from the bot's seed and the turn number, so the same
    position gets the same answer (undo cannot be used to sample it).

    >>> from tenleave_widget import Game
    >>> g = Game(3, seed=1)
    >>> make_bot("lookahead", seed=2).choose(g) in g.legal_turns
    True
    """

    name = "lookahead"

    def __init__(
        self, seed: int | None = None, budget: int | Budget | None = None,
        objective: str = "margin", rotations: bool = False,
    ) -> None:
        self.seed = seed if seed is not None else random.randrange(2**32)
        self.budget = budget if budget is not None else BOT_BUDGET
        self.objective = objective
        self.rotations = rotations
        self.last: dict[str, Any] | None = None

    def choose(self, game: Game) -> Turn:
        seat = game.to_move
        if seat is None:
            raise IllegalActionError("no legal turn: the game is over")
        view = game.view(seat)
        seed = random.Random(f"{self.seed}:{view['turns_applied']}").getrandbits(64)
        ev = evaluate_view(view, self.budget, seed, rotations=self.rotations,
                           objective=self.objective)
        self.last = ev
        return Turn.from_json(ev["moves"][ev["best"]]["turn"])


BOT_BUDGET = Budget(samples=2 * DEFAULT_SAMPLES, prune=2.0)
"""The lookahead bot's default budget per decision."""


def make_bot(name: str, seed: int | None = None) -> RandomBot | GreedyBot | LookaheadBot:
    """A bot by name (``"random"``, ``"greedy"`` or ``"lookahead"``)."""
    if name == "random":
        return RandomBot(seed)
    if name == "greedy":
        return GreedyBot(seed)
    if name == "lookahead":
        return LookaheadBot(seed)
    raise SetupError(f"unknown bot {excerpt(name)} (choose from {', '.join(BOT_NAMES)})")
