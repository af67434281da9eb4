"""What explains a player's result, in a sentence per player: the review's breakdown
(:meth:`~tenleave_widget.analysis.review.Review.breakdown`:
``final = start + decisions + luck + rest``) as the widget's review shows it.

>>> from tenleave_widget.analysis.review import SeatSummary
>>> s = SeatSummary(seat=1, mean_loss=0.5, labels={}, luck=-2.94, accuracy=80.0,
...                 cost=3.63, start_expected=10.01, final_penalty=5)
>>> print(result_words(s, "Ben"))
Ben ended with 5 points. At Ben's first decision, about 10.0 were to be expected; Ben's own
decisions added 3.6; luck in the swats took 2.9 off; the rest took 5.7 off: the other players'
decisions, the cards Ben learned between turns and the review's guesswork, which the review
cannot tell apart.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence

from ..analysis.review import Review, SeatSummary

__all__ = ["breakdown_words", "result_words"]


def _change(x: float) -> str:
    if abs(x) < 0.05:
        return "changed little"
    return f"added {x:.1f}" if x > 0 else f"took {-x:.1f} off"


def result_words(s: SeatSummary, name: str, width: int = 96) -> str:
    """One player's result explained in words (``width``: the lines of a doctest; the
    widget joins them)."""
    text = (f"{name} ended with {s.final_penalty} points. At {name}'s first decision, about "
            f"{s.start_expected or 0.0:.1f} were to be expected; {name}'s own decisions "
            f"{_change(s.cost)}; luck in the swats {_change(s.luck)}; the rest "
            f"{_change(s.other)}: the other players' decisions, the cards {name} learned "
            "between turns and the review's guesswork, which the review cannot tell apart.")
    return textwrap.fill(text, width)


def breakdown_words(review: Review, seats: Sequence[int]) -> list[str]:
    """The sentence of each of ``seats`` (those the view may see) that has a decision."""
    return [result_words(review.seats[s], review.players[s], 10**6) for s in seats
            if review.seats[s].start_expected is not None]
