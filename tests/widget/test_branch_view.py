"""A branch and its original, one after the other (issue 23, item 2):
``replay(branch, original=...)`` shows the original's replay below the branch's,
stepped with it, once the original is checked to be the game the branch names."""

from __future__ import annotations

import pytest

from tenleave_widget.engine.record import record_object
from tenleave_widget.widget import WidgetMessageError, replay

GAME = "examples/games/game-2-seats.json"


def branch_of(turn: int, played: int = 3) -> dict:
    """The record of a game played on from ``turn`` of the sample (greedy bots for both
    seats' moves, ``played`` of them)."""
    r = replay(GAME, turn=turn)
    t = r.play_from_here(human=0, bots=["greedy"], bot_delay=0, seed=1)
    while t.game.turns_applied < turn + played and not t.game.finished:
        o = t.table.offers
        t.handle_intent({"kind": "play", "card": o["play_cards"][0], "queue": o["play_queues"][0]})
        t.handle_intent({"kind": "end"})
    return t.record()


def test_the_original_is_shown_below_and_steps_with_the_branch() -> None:
    rec = branch_of(4)
    w = replay(rec, turn=2, original=GAME)
    o = w.original
    assert o is not None and o in w.children and list(w.children).index(o) > 0
    assert o.turn == 2 and o.mode == "replay"
    assert "played on from turn 4" in w.table.status  # the branch says so
    total = record_object(GAME)
    for k in (0, 3, 4, 6, rec_turns := len(rec["turns"])):
        w.goto(k)
        assert o.turn == min(k, len(total["turns"]))
    assert rec_turns > 4
    # the turns before the branch are the same game on both tables
    w.goto(4)
    assert w.table.view["queues"] == o.table.view["queues"]
    w.set_perspective(1)
    assert o.perspective == 1 and o.table.view["seat"] == 1


def test_the_original_must_be_the_game_the_branch_names() -> None:
    rec = branch_of(4)
    with pytest.raises(WidgetMessageError, match="not the game this one was played on from"):
        replay(rec, original="examples/games/game-3-seats.json")
    with pytest.raises(WidgetMessageError, match="not a branch"):
        replay(GAME, original=GAME)
