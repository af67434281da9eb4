"""What a session shows of a game review (replay mode): the judgement of each decision
the viewer may read, the best move of the position shown, in words. A mixin of
:class:`~.machine.Session` (its ``review``, ``show_best``, ``seat``, ``turn``, ``mode``
and ``live`` are the session's)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...analysis.review import Review, TurnReview, turn_text
from ..coach.table import drawn_move
from ..protocol import BestMove
from ..words.coach import label_text
from ..words.narration import seat_name

if TYPE_CHECKING:
    from ...engine.game import Game
    from .modes import ModePolicy

__all__ = ["ReviewState", "review_words"]


class ReviewState:
    """The review half of a session (see the module docstring)."""

    review: Review | None
    show_best: bool
    seat: int | None
    turn: int
    mode: ModePolicy

    if TYPE_CHECKING:
        @property
        def live(self) -> Game: ...

    def judged(self, turn: int) -> TurnReview | None:
        """The review of the decision at ``turn`` when the viewer may read it: in the
        teacher's view, or the viewing seat's own decision (the review names the cards
        played and best, which another seat's view must not show)."""
        if self.review is None or not 0 <= turn < len(self.review.turns):
            return None
        judged = self.review.turns[turn]
        if self.seat is not None and self.seat != judged.seat:
            return None
        return judged

    def best_move(self) -> BestMove | None:
        """The best move of the position shown, to draw on the table, or ``None``."""
        text = self.best_text()
        if not text:
            return None
        judged = self.judged(self.turn)
        assert judged is not None
        # its rotation and its wake are drawn too; a peek (kept when the best is the
        # played turn) is not
        return drawn_move(judged.best, text.strip())

    def best_text(self) -> str:
        """The best move of the position shown (replay, with "show the best move"), or ""."""
        if not self.show_best or self.mode.live:
            return ""
        judged = self.judged(self.turn)
        if judged is None:
            return ""
        who = seat_name(self.live.players, judged.seat)
        return f" Best move for {who} here: {turn_text(judged.best, words=True)}."


def review_words(judged: TurnReview, objective: str = "margin") -> str:
    """One decision's review in words, for the narration, in the unit of the review's
    ``objective`` (points of margin, or a chance of winning for ``win_probability``).

    >>> from tenleave_widget import Turn
    >>> from tenleave_widget.analysis.review import TurnReview
    >>> t = TurnReview(turn=4, seat=1, played=Turn(1, "5", 0), expected_final_penalty=0.5,
    ...                best=Turn(1, "2", 1), best_expected_final_penalty=0.41, loss=0.09,
    ...                loss_ci95=(0.05, 0.13), label="mistake", forced=False)
    >>> review_words(t, "win_probability")
    'Review: mistake — 9 percentage points less chance of winning than 2 on queue 2.'
    >>> import dataclasses
    >>> review_words(dataclasses.replace(t, loss=1.83, loss_ci95=(1.1, 2.6), label="inaccuracy",
    ...                                  near="mistake"))
    'Review: inaccuracy (maybe a mistake) — 1.83 points of margin worse than 2 on queue 2.'
    """
    if judged.forced:
        return "Review: forced (every move was worth the same)."
    if judged.label == "best":
        return "Review: best move."
    better = turn_text(judged.best, words=True)
    label = label_text(judged.label, judged.near)
    if objective == "win_probability":
        return (f"Review: {label} — {100 * judged.loss:.0f} percentage points less "
                f"chance of winning than {better}.")
    return f"Review: {label} — {judged.loss:.2f} points of margin worse than {better}."
