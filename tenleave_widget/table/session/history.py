"""A game's positions turn by turn, and what anyone may see of one (the hot-seat cover).

>>> from tenleave_widget import Game
>>> g = Game(2, seed=1)
>>> g.apply({"seat": 0, "play": ["2", 0]})
>>> [p.turns_applied for p in build_history(g)]
[0, 1]
"""

from __future__ import annotations

from ...engine.game import Game
from ..protocol import View

__all__ = ["build_history", "public_view"]


def public_view(view: View) -> View:
    """``view`` with every face-down value and every hand removed: what anyone may see
    (shown behind the hot-seat cover)."""
    return {**view, "queues": [[{**c, "value": None} for c in q] for q in view["queues"]],
            "hands": [{**h, "cards": None} for h in view["hands"]]}


def build_history(game: Game) -> list[Game]:
    """The position after every turn of ``game``: ``history[t]`` is the game after t turns.

    One forward pass: the start is one replay of no turns, and each position is the one
    before it with the next turn pushed (the game's own turns, legal by construction)."""
    history = [game.after(0)]
    for t in game.turns[:-1]:
        nxt = history[-1].copy()
        nxt.push(t)
        history.append(nxt)
    if game.turns_applied:
        history.append(game.copy())
    return history
