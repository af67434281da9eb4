"""A lesson on the replay table: the current question, stepped moment by moment.

A record's ``lesson`` (:mod:`~tenleave_widget.engine.lesson`, RULES.md §8) is a list of
moments. *Next moment* / *Previous moment* move the table to a moment's position (the
turns played before its question; its perspective when given), and the table shows the
question on itself; *Show the answer* steps past the turn (the discussion is about what
the turn did) and shows the moment's answer, *Hide the answer* steps back.

Who may read a moment's texts: the teacher's view, and the view the moment is asked from
(its ``perspective``: the teacher wrote the question and the answer for that seat's eyes,
so RULES.md §8 asks them to name nothing that seat does not know). Another seat's view only
says that there is a question, as with the notes. The answer is sent to the browser only
once it is shown.

>>> from tenleave_widget import Game
>>> from tenleave_widget.table.session.config import check_config
>>> from tenleave_widget.table.session.machine import Session
>>> g = Game(2, seed=1)
>>> for _ in range(3):
...     g.apply(next(iter(g.legal_turns)))
>>> s = Session(g, check_config(g, mode="replay", turn=0))
>>> s.lesson.load({"moments": [{"turn": 2, "question": "Who swats?", "answer": "Nobody."}]})
>>> s.handle({"kind": "moment", "index": 0})
False
>>> s.turn, s.state()["lesson"]["question"], s.state()["lesson"]["answer"]
(2, 'Who swats?', '')
>>> _ = s.handle({"kind": "reveal", "show": True})
>>> s.turn, s.state()["lesson"]["answer"]
(3, 'Nobody.')
"""

from __future__ import annotations

from typing import Protocol

from ...engine.game import Game
from ...engine.lesson import Lesson, Moment
from ..protocol import LessonState, WidgetMessageError
from ..words.narration import seat_name
from .config import Config
from .modes import ModePolicy

__all__ = ["LessonRun", "LessonSession"]


class LessonSession(Protocol):
    """What the lesson reads and changes of a session (:class:`~.machine.Session` is one)."""

    config: Config
    mode: ModePolicy
    history: list[Game]
    turn: int
    seat: int | None

    @property
    def live(self) -> Game: ...

    def say(self, text: str, level: str = "info") -> None: ...


class LessonRun:
    """The lesson of one replay table and where the class is in it."""

    def __init__(self) -> None:
        self.lesson: Lesson | None = None
        self.index: int | None = None
        """The moment on the table (0-based), or ``None`` before the first."""
        self.revealed = False
        """The current moment's answer is shown (and the table is past its turn)."""

    def load(self, lesson: Lesson | None) -> None:
        """A new lesson (checked: :func:`~tenleave_widget.engine.lesson.check_lesson`), not
        started."""
        self.lesson = lesson
        self.index = None
        self.revealed = False

    @property
    def moments(self) -> list[Moment]:
        return self.lesson["moments"] if self.lesson is not None else []

    def view_of(self, session: LessonSession, moment: Moment) -> int | None:
        """The seat whose view ``moment`` is asked from (``None``: the teacher's)."""
        if "perspective" in moment:
            return moment["perspective"]
        return session.config.perspective

    # ---------------------------------------------------------------- intents
    def go(self, session: LessonSession, index: object) -> None:
        """Put moment ``index`` (0-based) on the table: its position, its view, the
        answer hidden."""
        if session.mode.live or not self.moments:
            raise WidgetMessageError("this table has no lesson: a lesson is for a replay "
                                     "of a record with one (RULES.md §8)")
        n = len(self.moments)
        if type(index) is not int or not 0 <= index < n:
            shown = index + 1 if type(index) is int else repr(index)  # counted from 1, as shown
            raise WidgetMessageError(f"this lesson's moments are 1 to {n}, not {shown}")
        moment = self.moments[index]
        session.turn = moment["turn"]
        if not session.config.locked:  # a locked replay stays in its seat's view
            session.seat = self.view_of(session, moment)
        self.index = index
        self.revealed = False
        session.say("")

    def reveal(self, session: LessonSession, show: bool) -> None:
        """Show the current moment's answer (the table steps past its turn, when there is
        one), or hide it again (the table goes back to the question's position)."""
        if self.index is None:
            raise WidgetMessageError("no question is on the table: press Next moment first")
        moment = self.moments[self.index]
        total = len(session.history) - 1
        session.turn = min(moment["turn"] + 1, total) if show else moment["turn"]
        if not session.config.locked:  # a locked replay stays in its seat's view
            session.seat = self.view_of(session, moment)
        self.revealed = show
        session.say("")

    # ------------------------------------------------------------------ state
    def state(self, session: LessonSession) -> LessonState | None:
        """What the table shows of the lesson (``None``: no lesson)."""
        if self.lesson is None or session.mode.live:
            return None
        total = len(self.moments)
        base: LessonState = {
            "title": self.lesson.get("title", ""), "index": self.index, "total": total,
            "turn": None, "view": "", "question": "", "answer": "", "revealed": False,
            "here": False,
        }
        if self.index is None:
            return base
        moment = self.moments[self.index]
        seat = self.view_of(session, moment)
        players = session.live.players
        readable = session.seat is None or session.seat == seat
        view = "the teacher's view" if seat is None else f"{seat_name(players, seat)}'s view"
        shown = (moment["turn"] + 1 if self.revealed else moment["turn"])
        here = session.turn == min(shown, len(session.history) - 1) and session.seat == seat
        question = moment["question"] if readable else (
            f"(A question for {view}: choose it in the menu to read it.)"
            if not session.config.locked else
            f"(A question for {view}: this replay shows "
            f"{seat_name(players, session.seat or 0)}'s view only.)")
        answer = moment["answer"] if readable and self.revealed else ""
        return {**base, "turn": moment["turn"], "view": view, "question": question,
                "answer": answer, "revealed": self.revealed, "here": here}
