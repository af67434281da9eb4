"""A record's lesson (RULES.md §8): checked like the rest of the record, shown on the
replay table moment by moment, saved back with the record."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from tenleave_widget import Game, RecordError, load_record, parse_record, save_record
from tenleave_widget.engine.lesson import MAX_MOMENTS, check_lesson
from tenleave_widget.engine.record import MAX_NOTE_LENGTH, dumps_record, loads_record
from tenleave_widget.table.protocol import WidgetMessageError
from tenleave_widget.widget import play, replay

GAMES = Path(__file__).resolve().parents[2] / "examples" / "games"


def record(turns: int = 8) -> dict[str, Any]:
    g = Game(["Ana", "Ben", "Cy"], seed=3)
    for _ in range(turns):
        g.apply(next(iter(g.legal_turns)))
    return g.to_record()


LESSON = {"title": "Swats", "moments": [
    {"turn": 2, "question": "Who plays next?", "answer": "Cy."},
    {"turn": 5, "question": "What can Cy see?", "answer": "Her own cards.", "perspective": 2},
    {"turn": 8, "question": "Who leads?", "answer": "Look at the scores."},
]}


@pytest.mark.parametrize(("lesson", "fault"), [
    ([], "'lesson' must be an object with 'moments'"),
    ({"moments": []}, "'moments' must be a list of 1 to 100 moments"),
    ({"moments": [{"turn": 0}] * (MAX_MOMENTS + 1)}, "1 to 100 moments"),
    ({"moments": [{"turn": 0, "question": "?"}]}, "moment 1 needs 'answer'"),
    ({"moments": [{"turn": 51, "question": "?", "answer": "!"}]},
     "moment 1: 'turn' must be an integer 0..50 (the turns played before the question), not 51"),
    ({"moments": [{"turn": True, "question": "?", "answer": "!"}]}, "'turn' must be an integer"),
    ({"moments": [{"turn": 1, "question": "", "answer": "!"}]},
     "moment 1: 'question' must not be empty"),
    ({"moments": [{"turn": 1, "question": "?", "answer": "x" * (MAX_NOTE_LENGTH + 1)}]},
     "moment 1: 'answer' is 4,001 characters long; at most 4,000 are allowed"),
    ({"moments": [{"turn": 1, "question": "\x1b[2J", "answer": "!"}]},
     "not a printable character"),
    ({"moments": [{"turn": 1, "question": "?", "answer": "!", "perspective": 3}]},
     "'perspective' must be a seat 0..2 or null (the teacher's view), not 3"),
    ({"moments": [{"turn": 1, "question": "?", "answer": "!", "answr": "typo"}]},
     "moment 1: unknown key 'answr'"),
    ({"moments": [{"turn": 1, "question": "?", "answer": "!"}], "titel": "x"},
     "'lesson': unknown key 'titel'"),
    ({"title": "x" * 81, "moments": [{"turn": 1, "question": "?", "answer": "!"}]},
     "'lesson': 'title' is 81 characters long"),
])
def test_a_bad_lesson_is_refused_in_one_line_naming_what_is_wrong(lesson: Any, fault: str) -> None:
    rec = {**record(), "lesson": lesson}
    with pytest.raises(RecordError) as e:
        parse_record(rec)
    assert fault in str(e.value) and "\n" not in str(e.value)
    assert e.value.turn is None
    with pytest.raises(RecordError):
        Game.from_record(rec)  # the record as a whole is invalid


def test_a_lesson_is_optional_and_readers_that_ignore_it_read_the_game() -> None:
    rec = {**record(), "lesson": LESSON}
    assert parse_record(rec).lesson == LESSON
    assert parse_record(record()).lesson is None
    bare = {k: v for k, v in rec.items() if k != "lesson"}
    assert Game.from_record(rec) == Game.from_record(bare)


def test_a_record_cut_short_keeps_the_moments_it_reaches() -> None:
    rec = {**record(), "lesson": LESSON}
    rec["turns"] = rec["turns"][:5]
    w = replay(rec)
    assert [m["turn"] for m in w.lesson["moments"]] == [2, 5]
    rec["turns"] = rec["turns"][:1]
    assert replay(rec).lesson is None


def test_a_lesson_is_written_one_field_a_line_and_read_back(tmp_path: Path) -> None:
    rec = {**record(), "notes": {"1": "a note"}, "lesson": LESSON}
    text = dumps_record(rec)
    assert loads_record(text) == rec
    assert '\n  "lesson": {\n' in text
    save_record(rec, tmp_path / "r.json")
    assert load_record(tmp_path / "r.json") == rec


def test_the_table_steps_through_the_lesson_and_shows_the_answer_on_demand() -> None:
    w = replay({**record(), "lesson": LESSON})
    state = w.table.lesson
    assert state["index"] is None and state["total"] == 3 and state["title"] == "Swats"
    w.next_moment()
    assert (w.turn, w.perspective, w.moment_number) == (2, None, 1)
    state = w.table.lesson
    assert state["question"] == "Who plays next?" and state["answer"] == ""  # not yet sent
    assert state["here"] and not state["revealed"]
    w.reveal()
    assert w.turn == 3 and w.table.lesson["answer"] == "Cy." and w.table.lesson["here"]
    w.reveal(False)
    assert w.turn == 2 and w.table.lesson["answer"] == ""
    w.next_moment()  # from Cy's view
    assert (w.turn, w.perspective) == (5, 2)
    assert w.table.lesson["question"] == "What can Cy see?"
    assert w.table.lesson["view"] == "Cy's view"
    w.set_perspective(1)  # another seat's view: only that there is a question
    assert "Cy's view" in w.table.lesson["question"] and "Cy" not in w.table.lesson["answer"]
    assert not w.table.lesson["here"]
    w.goto(0)
    w.send_intent({"kind": "moment", "index": 1})  # what the Back button sends
    assert (w.turn, w.perspective) == (5, 2) and w.table.lesson["here"]
    w.next_moment()
    w.reveal()  # the last position: the answer, the table stays
    assert w.turn == 8 and w.table.lesson["answer"] == "Look at the scores."
    with pytest.raises(WidgetMessageError):
        w.next_moment()
    w.previous_moment()
    assert w.moment_number == 2 and w.turn == 5


def test_a_lesson_moment_without_a_perspective_uses_the_tables_own_view() -> None:
    w = replay(record(), seat=0, lesson=LESSON)
    w.next_moment()
    assert w.perspective == 0 and w.table.lesson["question"] == "Who plays next?"


def test_the_lesson_is_saved_with_the_record_and_replaced_on_load(tmp_path: Path) -> None:
    rec = record()
    w = replay(rec, lesson=LESSON)
    assert w.record()["lesson"] == LESSON
    w.save(tmp_path / "lesson.json")
    assert replay(tmp_path / "lesson.json").lesson == LESSON
    before = copy.deepcopy(w.record())
    with pytest.raises(RecordError, match="moment 1: 'turn' must be an integer 0..8"):
        w.set_lesson({"moments": [{"turn": 20, "question": "?", "answer": "!"}]})
    assert w.record() == before  # nothing changed
    w.load(rec)
    assert w.lesson is None and w.table.lesson is None and "lesson" not in w.record()
    w.set_lesson(LESSON)
    w.set_lesson(None)
    assert w.lesson is None


def test_a_lesson_is_for_a_replay() -> None:
    w = play(2, seed=1, bot_delay=0)
    assert w.table.lesson is None
    assert not w.send_intent({"kind": "moment", "index": 0})
    assert "lesson" in w.table.message["text"]
    with pytest.raises(WidgetMessageError):
        w.set_lesson(LESSON)
    r = replay(record())
    assert not r.send_intent({"kind": "reveal", "show": True})


def test_the_sample_games_have_lessons() -> None:
    for n in (2, 3, 4, 5):
        rec = json.loads((GAMES / f"game-{n}-seats.json").read_text(encoding="utf-8"))
        lesson = check_lesson(rec["lesson"], len(rec["turns"]), len(rec["players"]))
        assert len(lesson["moments"]) >= 3
        w = replay(rec)
        for _ in range(len(lesson["moments"])):
            w.next_moment()
            assert w.table.lesson["question"] and w.table.lesson["here"]
            w.reveal()
            assert w.table.lesson["answer"]


@pytest.mark.parametrize("case", range(6))
def test_a_lesson_in_a_seats_view_leaks_nothing(case: int) -> None:
    """Twin games (an opponent's unknown cards swapped): with the same lesson, stepped and
    answered in a seat's view, the seat's widgets are byte for byte the same."""
    import random

    from widget.test_widget_secrets import REPLAY_CASES, swapped_record, widget_state

    game, seat = REPLAY_CASES[case]
    swap = swapped_record(game, seat, random.Random(case))
    assert swap is not None
    other, _ = swap
    last = game.turns_applied
    lesson = {"moments": [
        {"turn": 0, "question": "?", "answer": "!"},
        {"turn": last // 2, "question": "Mine?", "answer": "Yes.", "perspective": seat},
        {"turn": last, "question": "Theirs?", "answer": "No.",
         "perspective": (seat + 1) % game.seats},
        {"turn": last, "question": "All?", "answer": "All.", "perspective": None},
    ]}
    a = replay(game.to_record(), seat=seat, lesson=lesson)
    b = replay(other, seat=seat, lesson=lesson)
    for w in (a, b):
        w.session.lookahead.enabled = False
    assert widget_state(a) == widget_state(b)
    for _ in lesson["moments"]:
        for w in (a, b):
            w.next_moment()
            w.set_perspective(seat)  # the seat's view, whatever the moment's
        assert widget_state(a) == widget_state(b)
        for w in (a, b):
            w.reveal()
            w.set_perspective(seat)
        assert widget_state(a) == widget_state(b)
    assert a.table.lesson["question"].startswith("(A question for")  # the teacher's


def test_a_seats_view_of_a_record_shows_neither_its_lesson_nor_its_notes() -> None:
    # A student replaying a classroom record from their own seat sees the game, not the
    # teacher's lesson ("Start the lesson") nor a pointer to the teacher's notes.
    rec = {**record(), "lesson": LESSON, "notes": {"3": "Ben's 5 was the risk."}}
    student = replay(rec, seat=1, turn=4)
    assert student.lesson is None and student.table.lesson is None
    assert student.table.replay["note"] == "" and "teacher" not in json.dumps(
        student.table.replay)
    teacher = replay(rec, turn=4)
    assert teacher.lesson == LESSON and teacher.table.replay["note"] == "Ben's 5 was the risk."
