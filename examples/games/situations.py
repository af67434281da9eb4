"""Find the teaching situations of issue 5 in a game record, by replaying it.

Every situation is detected from the engine's public events (``Game.events``), its seat
views and the odds' move evaluation — nothing is taken from the record's notes.

The situations (key: what it means, and how it is checked):

- ``tie``: a barehanded swat (total < 10) with a tie for the highest card: a queue's
  outcome is ``"under"`` and two or more cards are swatted.
- ``miss``: a swing and miss: a queue's outcome is ``"exact"`` (total 10).
- ``beyond``: a Human Defense swat (total > 10) where a position of the current token
  lies beyond the flipped cards (it swats nothing).
- ``wake``: a seat wakes SleepKid by choice (a turn with ``wake``).
- ``auto``: an automatic wake (a swat whose reason is ``"full"``).
- ``peek``: a peek that changes a decision: a peek *before* the play such that, in the
  seat's move evaluation (RULES.md §9), the play it makes is among the best once the
  peeked value is known, while none of the best plays without it (the seat's view just
  before the turn) still is.
- ``rotate``: a rotate that saves a card: the card moved from the front to the back is
  not swatted in the next swat, while in the same record with that rotate left out (the
  play kept) it is swatted in that swat.
- ``single``: at daybreak, a queue holding a single card lets it escape without a flip.
- ``shared``: the game ends with two or more winners (a tie on the lowest penalty).
"""

from __future__ import annotations

import copy
from typing import Any

from tenleave_widget import Game, RecordError, Turn
from tenleave_widget.analysis.odds import move_evaluation

SITUATIONS: dict[str, str] = {
    "tie": "a barehanded swat with a tie for the highest card",
    "miss": "a swing and miss (exactly 10)",
    "beyond": "a Human Defense swat where a token position lies beyond the flipped cards",
    "wake": "a wake by choice",
    "auto": "an automatic wake",
    "peek": "a peek that changes a decision",
    "rotate": "a rotate that saves a card",
    "single": "daybreak with the single-card escape",
    "shared": "a shared win (tie on penalties)",
}

EPS = 1e-9


def best_plays(moves: list[dict[str, Any]]) -> list[list[Any]]:
    """The plays ``[card, queue]`` of lowest expected penalty (wake excluded)."""
    plays = [m for m in moves if "play" in m]
    low = min(m["expected_penalty"] for m in plays)
    return [list(m["play"]) for m in plays if m["expected_penalty"] <= low + EPS]


def peek_changes_decision(game: Game, turn: Turn) -> bool:
    """Whether ``turn`` (about to be applied to ``game``) is a peek before the play that
    changes the seat's decision, as defined in the module docstring."""
    if turn.peek is None or turn.extra != "before":
        return False
    seat = turn.seat
    without = best_plays(move_evaluation(game.view(seat)))
    q, i = turn.peek
    peeked = game.preview([{"kind": "peek", "queue": q, "position": i}])
    with_peek = best_plays(move_evaluation(peeked.view(seat)))
    chosen = [turn.card, turn.queue]
    return chosen in with_peek and not any(p in with_peek for p in without)


def _swatted_keys(events: list[dict[str, Any]]) -> set[int]:
    return {k for e in events if e["kind"] == "swat" for qe in e["queues"] for k in qe["swatted"]}


def rotate_saves(record: dict[str, Any], index: int, game: Game | None = None) -> int | None:
    """If turn ``index`` of ``record`` is a rotate that saves a card, the key of that card.

    ``game`` may be the record fully replayed (saves a replay)."""
    turns = record["turns"]
    raw = turns[index]
    if "rotate" not in raw:
        return None
    full = game if game is not None else Game.from_record(record)
    before = Game.from_record(record, turns=index)
    moved = before.view(None)["queues"][raw["rotate"]][0]["key"]
    nxt = next((j for j in range(index, len(turns))
                if any(e["kind"] == "swat" for e in full.events(j))), None)
    if nxt is None or moved in _swatted_keys(full.events(nxt)):
        return None
    other = copy.deepcopy(record)
    other["turns"][index] = {"seat": raw["seat"], "play": raw["play"]}
    other.pop("notes", None)
    try:
        alt = Game.from_record(other, turns=nxt + 1)
    except RecordError:
        return None
    return moved if moved in _swatted_keys(alt.events(nxt)) else None


def find_situations(record: dict[str, Any]) -> dict[str, list[int]]:
    """The situations of :data:`SITUATIONS` found in ``record``: key -> turn indices."""
    found: dict[str, list[int]] = {}

    def add(key: str, i: int) -> None:
        if i not in found.setdefault(key, []):
            found[key].append(i)

    full = Game.from_record(record)
    g = Game.from_record(record, turns=0)
    token = g.token
    for i, raw in enumerate(record["turns"]):
        t = Turn.from_json(raw)
        if peek_changes_decision(g, t):
            add("peek", i)
        if t.rotate is not None and rotate_saves(record, i, full) is not None:
            add("rotate", i)
        g.apply(t)
        for e in g.events(i):
            if e["kind"] == "token":
                token = e["token"]
            elif e["kind"] == "wake":
                add("wake", i)
            elif e["kind"] == "swat":
                if e["reason"] == "full":
                    add("auto", i)
                reach = max(g.rules.tokens[token])
                for qe in e["queues"]:
                    if qe["outcome"] == "under" and len(qe["swatted"]) >= 2:
                        add("tie", i)
                    elif qe["outcome"] == "exact":
                        add("miss", i)
                    elif qe["outcome"] == "over" and reach > len(qe["flipped"]):
                        add("beyond", i)
                    elif qe["outcome"] == "single":
                        add("single", i)
    if g.finished and len(g.winners or []) >= 2:
        add("shared", len(record["turns"]) - 1)
    return found
