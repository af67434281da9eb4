"""A stand-in game rebuilt from one seat's view and its public history alone: what a
student's kernel can hold of a game the dealer keeps. Every card the seat knows is
itself; every card it cannot see is one its owner could have played there (same back,
from what is left of that owner's cards), so the stand-in's view of the seat is the
seat's view of the real game, and nothing in it is a secret the seat does not have.

It works because a swat flips cards from the front until the total reaches 10: the cards
it flips are shown to everyone (so the stand-in has their true values), and the ones it
does not flip never change what happens. The Human Defense tokens come from the history.

>>> from tenleave_widget.engine.game import Game
>>> from tenleave_widget.analysis.infer import with_history
>>> g = Game(3, seed=4)
>>> for t in ({"seat": 0, "play": ["4*", 0]}, {"seat": 1, "play": ["5", 1]}):
...     g.apply(t)
>>> s = stand_in(with_history(g, 2))
>>> s.view(2) == g.view(2), s.turns_applied
(True, 2)
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from ...engine.cards import MARKED
from ...engine.errors import InvalidViewError
from ...engine.game import Game
from ...engine.record import RECORD_FORMAT
from ...engine.view import View, ViewWithHistory


def _notation(value: int, back: str) -> str:
    return f"{value}{'*' if back == MARKED else ''}"


def _learn(known: dict[int, str], view: View) -> None:
    """Add to ``known`` (card key -> notation) every value ``view`` shows: the queues'
    face-up and known cards, and the cards its events' swats flipped."""
    for queue in view["queues"]:
        for card in queue:
            if card["value"] is not None:
                known[card["key"]] = _notation(card["value"], card["back"])
    for e in view["events"]:
        if e["kind"] == "swat":
            for q in e["queues"]:
                single = q["single"]
                for flipped in q["flipped"] + ([single] if single is not None else []):
                    known[flipped["key"]] = flipped["card"]


def stand_in_record(view: ViewWithHistory, reveal: View | None = None) -> dict[str, Any]:
    """The stand-in game as a ``tenleave-record/1`` object (see the module). ``reveal``:
    the seat's view of the turn in progress (its steps done), whose peeked or swatted
    values the stand-in takes too, so that the same steps show the same cards on it.
    Raises :class:`InvalidViewError` for a view whose history does not fit it."""
    seat = view["seat"]
    if seat is None:
        raise InvalidViewError("a stand-in is rebuilt from one seat's view, not the teacher's")
    if reveal is not None and (reveal["seat"] != seat
                               or reveal["turns_applied"] != view["turns_applied"]):
        raise InvalidViewError("the turn in progress is not of this seat and turn")
    history = view["history"]
    known: dict[int, str] = {}  # card key -> notation, for every card the seat knows
    _learn(known, view)
    if reveal is not None:
        _learn(known, reveal)
    plays: list[tuple[int, int, int, str]] = []  # (key, owner, queue, back), by turn
    turns: list[dict[str, Any]] = []
    defense = [history["token"]]
    for events in history["turns"]:
        turn: dict[str, Any] = {}
        played = False
        for e in events:
            if e["kind"] == "play":
                turn["seat"] = e["seat"]
                turn["play"] = [e["key"], e["queue"]]  # the key, made a card below
                plays.append((e["key"], e["seat"], e["queue"], e["back"]))
                played = True
            elif e["kind"] == "peek":
                turn["peek"] = [e["queue"], e["position"]]
                if played:
                    turn["extra"] = "after"
            elif e["kind"] == "rotate":
                turn["rotate"] = e["queue"]
                if played:
                    turn["extra"] = "after"
            elif e["kind"] == "wake":
                turn["wake"] = True
            elif e["kind"] == "swat":
                for q in e["queues"]:
                    single = q["single"]
                    for flipped in q["flipped"] + ([single] if single is not None else []):
                        known[flipped["key"]] = flipped["card"]
            elif e["kind"] == "token":
                defense.append(e["token"])
        if "play" not in turn:
            raise InvalidViewError("a turn of the history has no play")
        turns.append(turn)
    if reveal is not None:  # a wake's swat in the turn in progress shows the next token
        defense += [e["token"] for e in reveal["events"] if e["kind"] == "token"]
    left = {o: Counter(dealt) for o, dealt in enumerate(view["dealt"])}
    for key, owner, _, _ in plays:
        if key in known:
            left[owner][known[key]] -= 1
    cards: dict[int, str] = {}
    for key, owner, _, back in plays:
        if key in known:
            cards[key] = known[key]
            continue
        marked = back == MARKED
        pick = next((c for c in sorted(left[owner]) if left[owner][c] > 0
                     and c.endswith("*") == marked), None)
        if pick is None:
            raise InvalidViewError(f"no card of seat {owner} with a {back} back is left for "
                                   f"card {key}")
        left[owner][pick] -= 1
        cards[key] = pick
    for turn in turns:
        turn["play"][0] = cards[turn["play"][0]]
    return {"format": RECORD_FORMAT, "players": list(view["players"]), "first": view["first"],
            "rules": dict(view["rules"]), "defense": defense, "turns": turns}


def stand_in(view: ViewWithHistory, reveal: View | None = None) -> Game:
    """The stand-in game (:func:`stand_in_record`), replayed through the engine: its
    ``view(seat)`` is ``view`` without its history (and its ``preview`` of the turn in
    progress's steps, ``reveal``). Raises :class:`InvalidViewError` (or the record's
    :class:`~tenleave_widget.RecordError`) for a view that does not fit its history."""
    return Game.from_record(stand_in_record(view, reveal))
