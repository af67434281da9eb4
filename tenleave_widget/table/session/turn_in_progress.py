"""The turn in progress: the steps a human seat takes before *End turn* (play, peek,
rotate, wake), shown on a preview of the live game; *Start the turn again* (the steps that
revealed nothing); *End turn*; and who may act now. A part of :class:`~.machine.Session`
(:mod:`.state`)."""

from __future__ import annotations

from ...analysis.review.judge import seen_by_peek
from ...engine.turn import Turn, TurnStep
from ..protocol import StepIntent, WidgetMessageError
from ..words.narration import seat_name
from .offers import final_steps
from .state import SessionState

__all__ = ["TurnInProgress"]


class TurnInProgress(SessionState):
    """The turn-in-progress half of a session (see the module docstring)."""

    def my_turn(self) -> bool:
        """The seat on screen is a human to move, and may act."""
        return self.turn_refusal() is None

    def turn_refusal(self) -> str | None:
        """Why the seat on screen may not act now, or ``None``."""
        if not self.mode.live:
            return "this is a replay: use the turn controls"
        if self.covered:
            return "the screen is covered: the next player must uncover it"
        g = self.live
        if g.finished:
            return "the game is over"
        if self.asking is not None:
            return "answer the coach first: play it anyway, or take it back"
        if self.shown_turn() is not None:
            return "the coach is showing an earlier turn: go back to the game first"
        if self.busy or g.to_move != self.seat or g.to_move not in self.humans:
            return f"it is not your turn: {seat_name(g.players, g.to_move or 0)} is to move"
        return None

    def _require_turn(self) -> None:
        refusal = self.turn_refusal()
        if refusal is not None:
            raise WidgetMessageError(refusal)

    def _step(self, step: StepIntent) -> None:
        self._require_turn()
        steps: list[TurnStep] = [*self.pending, step.copy()]
        self.preview = self.live.preview(steps)  # raises IllegalActionError
        self.pending = steps
        self.say("")

    def _reset(self) -> None:
        """Drop the steps of the turn in progress that revealed nothing. A peek or a wake
        is final (the card was seen, the swat happened), and so is every step before it."""
        self._require_turn()
        pending = self.pending
        if not pending:
            raise WidgetMessageError("nothing to take back in this turn")
        keep = final_steps(pending)
        if keep == len(pending):
            last = pending[keep - 1]
            what = (
                "you peeked at a card and have seen it"
                if last["kind"] == "peek" else "SleepKid has woken and swatted"
            )
            then = (
                "end the turn" if any(s["kind"] == "play" for s in pending)
                else "play a card, then end the turn"
            )
            raise WidgetMessageError(f"this turn cannot be started again: {what}; {then}")
        kept = pending[:keep]
        self.preview = self.live.preview(kept) if kept else None
        self.pending = kept
        if kept:
            what = "peek" if kept[-1]["kind"] == "peek" else "wake"
            self.say(f"Your {what} stays (it cannot be taken back); the steps after it were.")
        else:
            self.say("")

    def _end(self) -> bool:
        """*End turn*; False when the coach asks first (``coach="before"``)."""
        self._require_turn()
        seat = self.live.to_move
        assert seat is not None
        turn = Turn.from_steps(seat, list(self.pending))  # raises if there is no play yet
        if self.coach_asks(turn):
            return False
        return self.end_turn()

    def end_turn(self) -> bool:
        """End the turn in progress as it stands (checked by :meth:`_end`)."""
        seat = self.live.to_move
        assert seat is not None
        turn = Turn.from_steps(seat, list(self.pending))
        before = self.live
        self.apply(turn)
        view = before.view(seat)
        self.coach.ended(before.turns_applied, view, turn, seen_by_peek(before, view, turn))
        self.say(self.coach_note)
        self.coach_note = ""
        return True
