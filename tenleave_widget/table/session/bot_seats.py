"""The bots' seats of a session: which bot is to move, its pending move forgotten when
the line changes, a bot that could not move. A part of :class:`~.machine.Session`
(:mod:`.state`); the bots are moved from outside (``widget/bot_runner.py``): the
session only says which seat a bot should move and applies its turn."""

from __future__ import annotations

from .state import SessionState

__all__ = ["BotSeats"]


class BotSeats(SessionState):
    """The bots' half of a session (see the module docstring)."""

    def bot_to_move(self) -> int | None:
        """The seat of the bot to move, or ``None`` (a human's turn, a replay, game over)."""
        g = self.live
        if not self.mode.live or g.finished or g.to_move not in self.bots:
            return None
        return g.to_move

    def cancel_bots(self) -> None:
        """Forget a bot's pending move: the line is about to change."""
        self.generation += 1
        self.busy = False
        self.stalled = False

    def bot_failed(self, seat: int) -> None:
        """The bot of ``seat`` could not move: pause the game and say so in plain words.
        Nothing of the error is shown (its text may name a hidden card: the bot runner
        keeps it for the log and ``w.errors``)."""
        self.stalled = True
        self.say(self.mode.stalled_text(self, seat), "error")
