"""A student's replay of their own game: ``replay(record, seat=P, lock=True)``
keeps every view, lesson moment and panel in P's view; a switch is refused in one line."""

from __future__ import annotations

import pytest

from tenleave_widget import Game
from tenleave_widget.widget import WidgetMessageError, play, replay

GAME = "examples/games/game-3-seats.json"
LESSON = {"title": "Three views", "moments": [
    {"turn": 3, "question": "Teacher: Ben's face-down card is a 5. Why?", "answer": "A",
     "perspective": None},
    {"turn": 5, "question": "Ana's question", "answer": "B", "perspective": 0},
    {"turn": 7, "question": "Ben's question", "answer": "C", "perspective": 1},
    {"turn": 9, "question": "Anyone's question", "answer": "D"},
]}


def test_a_locked_replay_refuses_another_view_in_one_line() -> None:
    w = replay(GAME, seat=1, turn=4, lock=True)
    for seat in (None, 0, 2):
        assert not w.send_intent({"kind": "perspective", "seat": seat})
        assert w.table.message["text"] == "This replay shows Ben's view only."
        assert w.perspective == 1 and w.table.view["seat"] == 1
        with pytest.raises(WidgetMessageError, match="stays in Ben's view"):
            w.set_perspective(seat)
    assert w.send_intent({"kind": "perspective", "seat": 1})  # its own view is fine
    assert w.table.message["level"] != "error"
    unlocked = replay(GAME, seat=1, turn=4)
    assert unlocked.send_intent({"kind": "perspective", "seat": None})  # a teacher's table


def test_every_lesson_moment_stays_in_the_seats_view() -> None:
    w = replay(GAME, seat=1, lesson=LESSON, lock=True)
    questions = []
    for _ in LESSON["moments"]:
        w.next_moment()
        assert w.perspective == 1 and w.table.view["seat"] == 1
        questions.append(w.table.lesson["question"])
        w.reveal()
        assert w.perspective == 1 and w.table.view["seat"] == 1
        assert w.table.panels == replay(GAME, seat=1, turn=w.turn).table.panels
    assert questions[0] == "(A question for the teacher's view: this replay shows Ben's " \
                          "view only.)"
    assert "5" not in questions[0] and "Ana's question" not in questions[1]
    assert questions[2:] == ["Ben's question", "Anyone's question"]
    unlocked = replay(GAME, seat=1, lesson=LESSON)
    unlocked.next_moment()
    assert unlocked.perspective is None  # the teacher's moment switches an unlocked one


def test_lock_needs_a_seat_and_a_replay_and_follows_to_the_original() -> None:
    with pytest.raises(WidgetMessageError, match="give the seat"):
        replay(GAME, lock=True)
    with pytest.raises(WidgetMessageError, match="lock must be True or False"):
        replay(GAME, seat=0, lock="yes")  # type: ignore[arg-type]
    r = replay(GAME, seat=0, turn=5, lock=True)
    assert r.send_intent({"kind": "branch"})  # its own cards dealt again, its own view
    b = r.branches[0]
    assert b.session.humans == [0]
    assert b.session.history[5].view(0) == Game.from_record(GAME, 5).view(0)
    rec = b.record()
    w = replay(rec, seat=0, lock=True, original=GAME)
    assert w.original is not None and w.original.session.config.locked
    assert not w.original.send_intent({"kind": "perspective", "seat": None})
    assert w.original.perspective == 0
    with pytest.raises(TypeError):
        play(lock=True)  # type: ignore[call-arg]


def test_a_moment_out_of_range_is_named_as_the_table_counts_moments() -> None:
    w = replay(GAME, lesson=LESSON)
    before = w.table.lesson
    for number in (0, 5, -1):
        with pytest.raises(WidgetMessageError, match=f"moments are 1 to 4, not {number}$"):
            w.moment(number)
        assert w.table.lesson == before
    w.moment(4)
    assert w.table.lesson["question"] == "Anyone's question"
    with pytest.raises(WidgetMessageError, match="no lesson"):
        play(players=3, human=0, bots=["greedy", "greedy"]).moment(1)
