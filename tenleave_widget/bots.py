"""Bots that choose a turn for the seat to move: ``random`` and ``greedy``.

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
from .turn import Turn

BOT_NAMES = ("random", "greedy")


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


def make_bot(name: str, seed: int | None = None) -> RandomBot | GreedyBot:
    """A bot by name (``"random"`` or ``"greedy"``)."""
    if name == "random":
        return RandomBot(seed)
    if name == "greedy":
        return GreedyBot(seed)
    raise SetupError(f"unknown bot {excerpt(name)} (choose from {', '.join(BOT_NAMES)})")
