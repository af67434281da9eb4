"""Undo against bots without probing: the cards one seat cannot see, dealt again.

When a human takes back turns that bots answered, the bots' answers were decided from
their hidden cards, and the human has seen them. Answering the same position again from
the same cards would let the human try every play, undo each, and put the answers
together until they pin a bot's face-down card. So the take-back also deals the
cards the human cannot see again: :func:`redeal` draws a new arrangement from the human's
uniform model (RULES.md §9, :class:`~tenleave_widget.analysis.worlds.Hidden`: for every
other seat and back, the values the human cannot place, shuffled over that seat's
face-down cards of that back and its hand) — and replays the game's turns with those
values through the engine. Nothing the human sees changes
(same backs, owners, flipped cards, peeks, tokens, hands' sizes), the game stays legal,
and whatever the old answers told about the old cards is about cards that no longer exist.

>>> import random
>>> from tenleave_widget import Game
>>> g = Game(2, seed=3)
>>> for t in [["3*", 0], ["4*", 0], ["1", 1], ["5", 1]]:
...     g.apply({"seat": g.to_move, "play": t})
>>> history = redeal(Game(2, seed=3), g, 0, random.Random(1))
>>> history[-1].view(0) == g.view(0), len(history)
(True, 5)
>>> sorted({redeal(Game(2, seed=3), g, 0, random.Random(s))[-1].queue_cards(0)[1][1]
...         for s in range(40)})   # Ben's card on queue 1, that Ana cannot see
['3*', '4*', '5*']
"""

from __future__ import annotations

import random

from ...analysis.worlds import Hidden
from ...engine.cards import MARKED, card_notation
from ...engine.game import Game

__all__ = ["redeal"]


def redeal(start: Game, game: Game, seat: int, rng: random.Random) -> list[Game]:
    """``game`` with the face-down cards ``seat`` cannot see dealt again from ``seat``'s
    uniform model, as a history (``result[t]``: the position after ``t`` turns).

    ``start`` is the game before its first turn (its setup, and its token draws); the
    turns of ``game`` are replayed on a copy of it with :meth:`Game.apply`, each play of
    a re-dealt card naming its new value. The draws use ``rng`` only, in an order fixed
    by ``seat``'s view: the result depends on that view and ``rng``, never on the cards
    it replaces. ``seat``'s view of the game is unchanged (checked).
    """
    assert start.turns_applied == 0
    view = game.view(seat)
    table, _ = Hidden(view, hands=True).deal(rng)  # per group, its table cards' values
    dealt = [iter(values) for values in table]
    groups: dict[tuple[int, str], int] = {}
    turns = game.turns
    for queue in view["queues"]:  # the order Hidden numbers groups and table cards in
        for card in queue:
            if card["value"] is None:
                key = (card["owner"], card["back"])
                g = groups.setdefault(key, len(groups))
                value = next(dealt[g])
                turns[card["key"]] = turns[card["key"]]._replace(
                    card=card_notation(value, card["back"] == MARKED)
                )
    out = [start.copy()]
    for turn in turns:
        nxt = out[-1].copy()
        nxt.apply(turn)  # the engine checks every turn: the new game is legal
        out.append(nxt)
    if out[-1].view(seat) != view:  # pragma: no cover - a bug, never a silent leak
        raise AssertionError("the re-deal changed what the seat sees")
    return out
