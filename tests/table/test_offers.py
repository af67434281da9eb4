"""The offers come from the engine's legal turns (table/session/offers.py, ``next_steps``): on every
position of seeded random games, at a turn's start and after each step of the turn then
played, a step is offered exactly when the engine's preview of the turn with that step
accepts it (the former way of computing the offers, one trial copy per step)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from tenleave_widget import Game
from tenleave_widget.engine.errors import TenLeaveError
from tenleave_widget.engine.turn import parse_steps
from tenleave_widget.table.session.offers import next_steps


def candidates(game: Game) -> list[dict[str, Any]]:
    """Every step a seat could try: each card of its hand on each queue, each peek,
    rotation and the wake (legal or not)."""
    q = range(game.queue_count)
    return [
        *({"kind": "play", "card": c, "queue": k} for c in sorted(set(game.hand(game.to_move)))
          for k in q),
        *({"kind": "peek", "queue": k, "position": i} for k in q for i in range(6)),
        *({"kind": "rotate", "queue": k} for k in q),
        {"kind": "wake"},
    ]


def previewed(game: Game, pending: list[dict[str, Any]], step: dict[str, Any]) -> bool:
    try:
        game.preview([*pending, step])
    except TenLeaveError:
        return False
    return True


@pytest.mark.parametrize("seats", [2, 3, 5])
def test_a_step_is_offered_exactly_when_the_engine_accepts_it(seats: int) -> None:
    positions = 0
    for seed in range(3):
        game, rng = Game(seats, seed=seed), random.Random(seed)
        while not game.finished:
            turn = game.legal_turns.sample(rng)
            steps = turn.steps()
            for k in range(len(steps) + 1):
                pending = steps[:k]
                nexts = next_steps(game, pending)
                for step in candidates(game):
                    offered = tuple(parse_steps([step]))[0] in nexts
                    assert offered == previewed(game, pending, step), (pending, step)
                positions += 1
            game.apply(turn)
    assert positions > 100
