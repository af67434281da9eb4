"""A seat view reduced to what the lookahead's play-outs need, and one world sampled from it.

The view decoding of :mod:`~tenleave_widget.analysis.lookahead`: a ``tenleave-view/1`` seat
view (``docs/view.md``) becomes a :class:`Position` (values only, packed as *codes*
``value * 8 + owner``, the unknown cards marked by their group of
:class:`~tenleave_widget.analysis.worlds.Hidden`), and a :class:`World` fills those
unknowns for one play-out: the hidden values (the uniform model's deal, or another
:data:`~tenleave_widget.analysis.worlds.Deal`), the future tokens and the random numbers of
every turn, which every move of an evaluation shares (common random numbers). The
simulator that plays a world out is :mod:`~tenleave_widget.analysis.playout`.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import repeat, starmap

from ..engine.cards import parse_card
from ..engine.errors import IllegalActionError, InvalidViewError, excerpt
from ..engine.rules import DEFAULT_TOKENS, QUEUE_CAPACITY
from ..engine.view import View, check_view
from .worlds import Deal, Hidden

__all__ = ["Position", "World"]

class Position:
    """A seat view reduced to what the play-outs need (values only: in a world every card
    is visible, so a card is its value; the back only matters for the sampling).

    A table card is a *code* ``value * 8 + owner``; ``-1 - g`` marks an unknown card of
    group ``g`` (one (owner, back): see :class:`~tenleave_widget.analysis.worlds.Hidden`),
    filled in per world.
    """

    def __init__(self, view: View) -> None:
        seat = check_view(view).get("seat")
        if type(seat) is not int:
            raise InvalidViewError("evaluate needs a seat's view (its 'seat' is not a seat)")
        if view.get("finished"):
            raise IllegalActionError("the game is over: there is no move to evaluate")
        if view.get("to_move") != seat:
            raise IllegalActionError(
                f"seat {seat} is not to move (seat {view.get('to_move')} is): "
                "evaluate the seat whose turn it is"
            )
        self.seat: int = seat
        dealt: Sequence[Sequence[str]] = view["dealt"]
        n = self.n = len(dealt)
        self.cap: int = int(view.get("queue_capacity", QUEUE_CAPACITY))
        rules = view.get("rules") or {}
        tokens = {k: tuple(v) for k, v in (rules.get("tokens") or DEFAULT_TOKENS).items()}
        self.token_ids: list[str] = list(tokens)
        self.token_pos: list[tuple[int, ...]] = [tokens[t] for t in self.token_ids]
        self.daybreak_change: bool = bool(rules.get("daybreak_token_change", True))
        token = view["token"]
        if token not in tokens:
            raise InvalidViewError(f"unknown current token {excerpt(token)}")
        self.token: int = self.token_ids.index(token)
        self.penalty: list[int] = [int(p) for p in view["penalty"]]
        self.turns_applied: int = int(view.get("turns_applied", 0))

        hands = view["hands"]
        for queue in view["queues"]:
            for card in queue:
                if card["value"] is None and card["owner"] == seat:
                    raise InvalidViewError("a seat's view must show its own cards' values")
        # the unknown cards (on the table, in the other hands): their groups and pools
        hidden = Hidden(view, hands=True)
        self.group_keys: list[tuple[int, str]] = hidden.keys
        self.pools: list[list[int]] = hidden.pools
        self.in_hand: list[int] = hidden.in_hand
        self.hidden = hidden
        self.queues: list[list[int]] = [
            [x * 8 + o if x >= 0 else x for x, o in zip(row, own, strict=True)]
            for row, own in zip(hidden.slots, hidden.owners, strict=True)
        ]
        self.hand_notes: list[str] = list(hands[seat]["cards"] or [])
        # the seat's own hand: values; the others' hands: filled per world
        self.hand_counts: list[list[int]] = [[0] * 6 for _ in range(n)]
        for c in self.hand_notes:
            self.hand_counts[seat][parse_card(c)[0]] += 1
        self.cards_left = sum(int(h["size"]) for h in hands)
        # seats play in turn until every hand is empty: from the seat to move, the hand
        # sizes cannot grow, and the last is at most one card short of the first
        sizes = [int(hands[(seat + i) % n]["size"]) for i in range(n)]
        if any(sizes[i] < sizes[i + 1] for i in range(n - 1)) or sizes[-1] < sizes[0] - 1:
            raise InvalidViewError(
                f"hand sizes {[int(h['size']) for h in hands]} cannot be played out in turn "
                f"order from seat {seat}"
            )
        if self.cards_left == 0:
            raise IllegalActionError("no card left to play: there is no move to evaluate")
        # what a world of the uniform deal fills in, once: every hand as if it held all of
        # its owner's pools (a deal takes the table's cards out), and the table's unknown
        # slots (queue, index, group, its index in the group, owner) in table order
        self.full_hands: list[list[int]] = [list(h) for h in self.hand_counts]
        for (o, _), pool in zip(self.group_keys, hidden.counts, strict=True):
            for value, count in pool.items():
                self.full_hands[o][value] += count
        seen = [0] * len(self.group_keys)
        self.slots: list[tuple[int, int, int, int, int]] = []
        for q, row in enumerate(self.queues):
            for i, x in enumerate(row):
                if x < 0:
                    g = -1 - x
                    self.slots.append((q, i, g, seen[g], self.group_keys[g][0]))
                    seen[g] += 1


class World:
    """One sampled world: the hidden values, the token chain and the per-turn random
    numbers (shared by every move: common random numbers)."""

    __slots__ = ("queues", "hands", "chain", "us")

    def __init__(self, pos: Position, rng: random.Random, turns: int,
                 deal: Deal | None = None) -> None:
        fills, held = (deal or pos.hidden.deal)(rng)
        queues = [list(row) for row in pos.queues]
        if deal is None:  # the uniform deal: a group's hand is its pool less its table cards
            hands = [list(h) for h in pos.full_hands]
            for q, i, g, k, o in pos.slots:
                v = fills[g][k]
                queues[q][i] = v * 8 + o
                hands[o][v] -= 1
        else:
            hands = [list(h) for h in pos.hand_counts]
            for (o, _), values in zip(pos.group_keys, held, strict=True):
                for v in values:
                    hands[o][v] += 1
            for q, i, g, k, o in pos.slots:
                queues[q][i] = fills[g][k] * 8 + o
        self.queues = queues
        self.hands = hands
        # tokens: enough reveals for every swat the rest of the game can hold. A draw is
        # rng.randrange(others), written out as CPython's randrange does it for a
        # Random (getrandbits of others.bit_length() bits until below others: the same
        # numbers, without randrange's checks and calls, a tenth of a world's sampling)
        # The draws come in runs of as many as are still needed (each a C call, no
        # Python call per draw): a run cannot hold more than the draws the loop would
        # have made, since the last one needed can at the earliest be its last.
        chain = [pos.token]
        others = len(pos.token_pos) - 1
        if others < 1:
            rng.randrange(others)  # raises, as randrange does
        bits = (others.bit_length(),)
        getrandbits = rng.getrandbits
        last = pos.token
        need = turns + 8
        while need:
            for j in list(starmap(getrandbits, repeat(bits, need))):
                if j < others:
                    last = j if j < last else j + 1
                    chain.append(last)
            need = turns + 9 - len(chain)
        self.chain = chain
        self.us = list(starmap(rng.random, repeat((), 2 * turns + 2)))
