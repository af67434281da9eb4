"""The table's state machine, pure: no Jupyter, no traitlets, no threads.

A :class:`Session` holds one game's history, the position shown, the steps of the turn in
progress and who is looking; it takes :data:`~..protocol.Intent` s and answers with one
:class:`~..protocol.TableState`: the viewing seat's projection of the game (the hot-seat
cover shows only public facts), what that seat may do, the status line and the turns in
words. What changes between modes is asked of its :mod:`mode policy <.modes>`.

The session is composed of parts, one concept each (:mod:`.state` lists them and
holds the attributes); this module routes the intents and holds the message line.

>>> from tenleave_widget import Game
>>> from tenleave_widget.table.session.config import check_config
>>> s = Session(Game(2, seed=1), check_config(Game(2, seed=1), humans=[0], bots={1: "random"}))
>>> s.handle({"kind": "play", "card": "2", "queue": 0})
False
>>> s.state()["pending"]
['played 2 on queue 1']
>>> s.handle({"kind": "end"})           # the turn is applied; a bot is now to move
True
>>> s.bot_to_move()
1
"""

from __future__ import annotations

from typing import cast

from ..coach.table import CoachTable
from ..coach.verdicts import Verdict, tally_words, verdict_words
from ..protocol import Intent, Message, WidgetMessageError
from .bot_seats import BotSeats
from .game_line import GameLine
from .history import build_history, public_view
from .preferences import PREFERENCES, Preferences
from .review_state import ReviewState
from .table_view import TableView
from .turn_in_progress import TurnInProgress

__all__ = ["Session", "build_history", "public_view"]


class Session(GameLine, TurnInProgress, BotSeats, Preferences, TableView, ReviewState,
              CoachTable):
    """One table: the game's history, the position shown, the turn in progress and the
    viewing seat. Bots are moved from outside (:mod:`..bot_runner`): the session only says
    which seat a bot should move (:meth:`bot_to_move`) and applies its turn."""

    # ------------------------------------------------------------------ intents
    def handle(self, intent: Intent) -> bool:
        """Apply one checked intent, or raise a :class:`TenLeaveError` (nothing changed).
        True when the turns changed, so that bots may have to move. A success clears the
        error it follows (what the intent itself says stays)."""
        error = self.message if self.message["level"] == "error" else None
        moved = self._handle(intent)
        self.clear_error(error)
        return moved

    def clear_error(self, error: Message | None) -> None:
        """After a success: take ``error`` (the message shown before it) off the table,
        unless something else has been said since."""
        if error is not None and self.message is error:
            self.say("")

    def _handle(self, intent: Intent) -> bool:
        if intent["kind"] in ("play", "peek", "rotate", "wake"):
            self._step(intent)
            return False
        if intent["kind"] == "end":
            return self._end()
        if intent["kind"] in ("coach", "confirm", "showme"):
            return self.coach_intent(dict(intent))
        if intent["kind"] == "undo":
            self._undo()
            return True
        if intent["kind"] in PREFERENCES:
            self.preference_intent(intent)
        elif intent["kind"] == "reset":
            self._reset()
        elif intent["kind"] == "uncover":
            if not self.covered:
                raise WidgetMessageError("the screen is not covered")
            self.covered = False
            self.say("")
        elif intent["kind"] == "goto":
            self.mode.goto_intent(self, intent["turn"])
        elif intent["kind"] == "perspective":
            self.mode.perspective_intent(self, intent["seat"])
        elif intent["kind"] == "again":
            self._again()
            return True
        elif intent["kind"] == "moment":
            self.lesson.go(self, intent["index"])
        elif intent["kind"] == "reveal":
            self.lesson.reveal(self, intent["show"])
        return False

    def say(self, text: str, level: str = "info") -> None:
        """Show ``text`` in the table's message line (``level`` ``"error"`` or ``"info"``)."""
        self.message = cast(
            Message, {"id": self.message["id"] + 1, "level": level, "text": text}
        )

    def coached(self, verdict: Verdict) -> None:
        """A verdict came in: say it, and the seat's tally so far, if its seat is on screen
        (never behind the cover)."""
        seat = verdict["seat"]
        if seat == self.seat and not self.covered and self.message["level"] != "error":
            k = verdict["turn"]
            words = verdict_words(verdict, self.details, self.coach.equal_of(k),
                                  self.coach_view(k))
            self.say(f"{words} "
                     f"{tally_words(self.coach.tally(seat))}")
