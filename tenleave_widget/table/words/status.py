"""The table's status line and its messages, in words: whose turn it is and what to do,
the game over, a new game, a turn taken back, the hot-seat cover and a branch's origin — in
one place a teacher can translate (the turns and swats: :mod:`.narration`; errors:
:mod:`.errors`; the coach: :mod:`.coach`).

>>> game_over(["Ana"], 7), game_over(["Ana", "Cy"], 5)
('Game over: Ana wins with 7.', 'Game over: Ana and Cy share the win with 5.')
"""

from __future__ import annotations

from collections.abc import Sequence

from .narration import and_list

__all__ = ["PLAYED", "WAIT", "another_game", "bot_thinking", "branch_line", "game_named",
           "game_over", "new_game", "pass_screen", "replay_turn", "taken_back", "turn_of",
           "your_turn"]

WAIT = "Wait…"
"""The seat on screen is to move but the table is busy."""

PLAYED = "You played: peek or rotate now if you like, then end the turn."
"""The seat on screen has played its card and may still peek or rotate."""


def your_turn(name: str) -> str:
    """The seat on screen is to move.

    >>> your_turn("Ana")
    'Your turn, Ana: choose a card, then a queue.'
    """
    return f"Your turn, {name}: choose a card, then a queue."


def bot_thinking(name: str, bot: str) -> str:
    """A bot is to move (``bot``: its kind)."""
    return f"{name} ({bot} bot) is thinking…"


def turn_of(name: str) -> str:
    """Another player is to move."""
    return f"{name}'s turn."


def replay_turn(turn: int, name: str) -> str:
    """A replay's status: who is to move at ``turn`` (counted from 1)."""
    return f"Turn {turn}: {name} to move."


def pass_screen(name: str) -> str:
    """The hot-seat cover: whom to pass the screen to."""
    return f"Pass the screen to {name}."


def game_over(winners: Sequence[str], low: int) -> str:
    """The game over: who won with how many points (see the module's example)."""
    names = and_list(list(winners))
    if len(winners) == 1:
        return f"Game over: {names} wins with {low}."
    return f"Game over: {names} share the win with {low}."


def new_game(number: int) -> str:
    """*Play again*: the table's ``number``-th game starts."""
    return f"Game {number}: the same players, a new order of Human Defense tokens."


def taken_back(whose: str) -> str:
    """*Undo*: ``whose`` last turn (``"your"``, ``"Ana's"``) was taken back.

    >>> taken_back("your")
    'Your last turn was taken back.'
    """
    return f"{whose[:1].upper()}{whose[1:]} last turn was taken back."


def another_game() -> str:
    """A branch's origin where the seat may not see its name."""
    return "another game"


def game_named(short: str) -> str:
    """A branch's origin by its short name."""
    return f"game {short}"


def branch_line(turn: int, game: str) -> str:
    """A branch's replay: where it was played on from (``game``: :func:`game_named` or
    :func:`another_game`)."""
    return f" (A branch: played on from turn {turn} of {game}.)"
