"""The lesson's scripting API of a replay table: ``w.next_moment()`` and the rest.

What the lesson's buttons send (:mod:`tenleave_widget.table.session.lesson`), as methods of
:class:`~.controller.TenLeaveWidget`, so that a notebook cell can run a lesson too.
Moments are numbered from 1 here, as the table says them ("Question 2 of 5").
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any

from ..engine.lesson import Lesson, check_lesson
from ..table.protocol import WidgetMessageError

if TYPE_CHECKING:
    from ..table.session.machine import Session

__all__ = ["LessonControls"]


class LessonControls:
    """Mixed into :class:`~.controller.TenLeaveWidget` (replay mode)."""

    session: Session

    def handle_intent(self, intent: object) -> None:  # pragma: no cover - the widget's
        """Apply one intent: the widget's
        (:meth:`~.controller.TenLeaveWidget.handle_intent`).

        Args:
            intent: the intent.
        """
        raise NotImplementedError

    def _refresh(self) -> None:  # pragma: no cover - the widget's
        raise NotImplementedError

    @property
    def lesson(self) -> Lesson | None:
        """The lesson of the record on the table (RULES.md §8), or ``None``."""
        lesson = self.session.lesson.lesson
        return None if lesson is None else copy.deepcopy(lesson)

    def set_lesson(self, lesson: Any) -> None:
        """Give the replay a lesson, checked against its game; it is saved with the record
        (:meth:`~.controller.TenLeaveWidget.save`).

        Args:
            lesson: ``{"moments": [{"turn", "question", "answer", "perspective"?}, ...]}``
                (RULES.md §8); ``None`` takes the lesson away.

        Raises:
            RecordError: the lesson is malformed or does not fit the game (the message
                names what is wrong; nothing changes).
            WidgetMessageError: the table is not a replay.
        """
        if self.session.mode.live:
            raise WidgetMessageError("a lesson is for a replay: use replay(record)")
        live = self.session.live
        checked = None if lesson is None else check_lesson(lesson, live.turns_applied,
                                                           live.seats)
        self.session.lesson.load(checked)
        self._refresh()

    @property
    def moment_number(self) -> int | None:
        """The moment on the table, counted from 1 (``None``: the lesson has not begun)."""
        i = self.session.lesson.index
        return None if i is None else i + 1

    def moment(self, number: int) -> None:
        """Put a moment of the lesson on the table: its position and view, its question;
        the answer hidden.

        Args:
            number: the moment, counted from 1 as the table counts them.

        Raises:
            WidgetMessageError: the table has no lesson, or no such moment.
        """
        if type(number) is not int:
            raise WidgetMessageError(f"a moment is a number from 1, not {number!r}")
        self.handle_intent({"kind": "moment", "index": number - 1})

    def next_moment(self) -> None:
        """Put the next moment of the lesson on the table (the first, before the lesson
        has begun).

        Raises:
            WidgetMessageError: the table has no lesson, or the last moment is on it.
        """
        i = self.session.lesson.index
        self.moment(1 if i is None else i + 2)

    def previous_moment(self) -> None:
        """Put the moment before the one on the table on it.

        Raises:
            WidgetMessageError: the table has no lesson, or its first moment is on it.
        """
        i = self.session.lesson.index
        if i is None or i == 0:
            raise WidgetMessageError("this is the lesson's first moment")
        self.moment(i)

    def reveal(self, show: bool = True) -> None:
        """Show the answer of the moment on the table (the table steps past its turn), or
        hide it again.

        Args:
            show: ``True`` shows the answer, ``False`` hides it.

        Raises:
            WidgetMessageError: no moment is on the table, or ``show`` is not a bool.
        """
        self.handle_intent({"kind": "reveal", "show": show})
