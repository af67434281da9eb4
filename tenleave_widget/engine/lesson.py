"""A record's optional ``lesson`` (RULES.md §8): the teacher's questions, as data.

A lesson is a list of *moments*. Each asks its ``question`` at the position after
``turn`` turns (just before the turn of index ``turn``: the position ``w.goto(turn)``
shows, "after ``turn`` turns" on the replay bar), from the view of seat
``perspective`` when given; its ``answer`` is the discussion after that turn.

>>> check_lesson({"moments": [{"turn": 4, "question": "Who is swatted?",
...                            "answer": "Ben's 5."}]}, turns=10, seats=3)
{'moments': [{'turn': 4, 'question': 'Who is swatted?', 'answer': "Ben's 5."}]}
>>> try:
...     check_lesson({"moments": [{"turn": 12, "question": "?", "answer": "!"}]}, 10, 3)
... except ValueError as e:
...     print(e)
'lesson': moment 1: 'turn' must be an integer 0..10 (the turns played before the question), not 12

Every text is bounded like a note (:data:`~.record.MAX_NOTE_LENGTH` characters), and a
lesson has at most :data:`MAX_MOMENTS` moments, so a lesson never grows what is made from a
record (the widget's state) beyond a bound. Readers that do not know the field ignore it.
"""

from __future__ import annotations

from typing import TypedDict, cast

from .errors import RecordError, excerpt
from .rules import text_fault

__all__ = ["MAX_MOMENTS", "MAX_TITLE_LENGTH", "Lesson", "Moment", "check_lesson", "fit_lesson"]

MAX_MOMENTS = 100
"""The most moments of one lesson (a game has at most 51 positions; some are asked twice)."""
MAX_TITLE_LENGTH = 80
"""The longest lesson title, in characters."""
MAX_TEXT_LENGTH = 4000
"""The longest question or answer: a note's bound (:data:`~.record.MAX_NOTE_LENGTH`)."""


class _Question(TypedDict):
    turn: int
    """The turns played before the question (0-based index of the turn it is asked before)."""
    question: str
    answer: str


class Moment(_Question, total=False):
    """One question of a lesson (RULES.md §8)."""

    perspective: int | None
    """The seat whose view the question is asked from; ``None``: the teacher's view
    (every card face up); left out: the view the table was opened with."""


class _Moments(TypedDict):
    moments: list[Moment]


class Lesson(_Moments, total=False):
    """A record's ``lesson``: an optional ``title`` and the ``moments``, in teaching order."""

    title: str


_KEYS = {"turn", "question", "answer", "perspective"}


def check_lesson(raw: object, turns: int, seats: int) -> Lesson:
    """A record's ``lesson`` object (RULES.md §8), checked against its record.

    Args:
        raw: the ``lesson`` object as read from the record.
        turns: the record's number of turns (a moment's ``turn`` is at most this).
        seats: the record's number of seats (a moment's ``perspective`` is one of them).

    Returns:
        A new :class:`Lesson`.

    Raises:
        RecordError: the object is malformed; the message names the moment (counted
            from 1) and the field at fault.
    """
    if not isinstance(raw, dict):
        raise RecordError("'lesson' must be an object with 'moments'")
    extra = set(raw) - {"moments", "title"}
    if extra:
        raise RecordError(f"'lesson': unknown key {excerpt(sorted(extra)[0])} "
                          "(a lesson has 'moments' and an optional 'title')")
    lesson: Lesson = {}  # type: ignore[typeddict-item]  # filled in below, title first
    if "title" in raw:
        _fault("'lesson': 'title'", text_fault(raw["title"], MAX_TITLE_LENGTH))
        lesson["title"] = raw["title"]
    moments = raw.get("moments")
    if not isinstance(moments, list) or not 1 <= len(moments) <= MAX_MOMENTS:
        raise RecordError(f"'lesson': 'moments' must be a list of 1 to {MAX_MOMENTS} moments")
    lesson["moments"] = [_moment(m, f"'lesson': moment {n}", turns, seats)
                         for n, m in enumerate(moments, 1)]
    return lesson


def fit_lesson(lesson: Lesson | None, turns: int) -> Lesson | None:
    """``lesson`` without its moments after a record of ``turns`` turns (a record cut
    short keeps its lesson, as it keeps its notes); ``None`` if none is left.

    Args:
        lesson: the lesson, or ``None``.
        turns: the record's number of turns.

    Returns:
        The lesson with the moments that fit, or ``None``.

    Example:
        >>> fit_lesson({"moments": [{"turn": 2, "question": "?", "answer": "!"}]}, 1) is None
        True
    """
    if lesson is None:
        return None
    kept = [m for m in lesson["moments"] if m["turn"] <= turns]
    return cast(Lesson, {**lesson, "moments": kept}) if kept else None


def _moment(m: object, where: str, turns: int, seats: int) -> Moment:
    if not isinstance(m, dict):
        raise RecordError(f"{where} must be an object with 'turn', 'question' and 'answer'")
    for key in ("turn", "question", "answer"):
        if key not in m:
            raise RecordError(f"{where} needs {key!r}")
    extra = set(m) - _KEYS
    if extra:
        raise RecordError(f"{where}: unknown key {excerpt(sorted(extra)[0])} "
                          "(a moment has 'turn', 'question', 'answer' and 'perspective')")
    turn = m["turn"]
    if type(turn) is not int or not 0 <= turn <= turns:
        raise RecordError(f"{where}: 'turn' must be an integer 0..{turns} (the turns "
                          f"played before the question), not {excerpt(turn)}")
    for key in ("question", "answer"):
        _fault(f"{where}: {key!r}", text_fault(m[key], MAX_TEXT_LENGTH, newlines=True))
    out: Moment = {"turn": turn, "question": m["question"], "answer": m["answer"]}
    if "perspective" in m:
        seat = m["perspective"]
        if seat is not None and (type(seat) is not int or not 0 <= seat < seats):
            raise RecordError(f"{where}: 'perspective' must be a seat 0..{seats - 1} or null "
                              f"(the teacher's view), not {excerpt(seat)}")
        out["perspective"] = seat
    return out


def _fault(what: str, fault: str | None) -> None:
    if fault is not None:
        raise RecordError(f"{what} {fault}")
