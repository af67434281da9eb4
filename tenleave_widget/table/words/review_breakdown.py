"""What explains a player's result, in a sentence per player: the review's breakdown
(:meth:`~tenleave_widget.analysis.review.Review.breakdown`:
``final = start + decisions + luck + rest``) as the widget's review shows it.

>>> from tenleave_widget.analysis.review import SeatSummary
>>> s = SeatSummary(seat=1, mean_loss=0.5, labels={}, luck=-2.94, accuracy=80.0,
...                 cost=3.63, start_expected=10.01, final_penalty=5)
>>> print(result_words(s, "Ben"))
Ben ended with 5 points. At Ben's first decision, Ben was on course for about 10.0; Ben's own
decisions added 3.6; luck in the swats took 2.9 off; the rest took 5.7 off: the other players'
decisions, the cards Ben learned between turns and the review's guesswork, which the review
cannot tell apart.

The summary table above these sentences (:func:`summary_table`) has a footnote in plain
words; the *Details* switch shows the analyst's (the review's unit and its sample size).
"""

from __future__ import annotations

import html
import textwrap
from collections.abc import Iterable, Sequence

from ...analysis.review import LABELS, Review, SeatSummary

__all__ = ["breakdown_words", "result_words", "summary_table", "summary_note"]

CELL = "style='padding:2px 10px;text-align:right'"


def _change(x: float) -> str:
    if abs(x) < 0.05:
        return "changed little"
    return f"added {x:.1f}" if x > 0 else f"took {-x:.1f} off"


def result_words(s: SeatSummary, name: str, width: int = 96) -> str:
    """One player's result explained in words (``width``: the lines of a doctest; the
    widget joins them)."""
    text = (f"{name} ended with {s.final_penalty} points. At {name}'s first decision, {name} "
            f"was on course for about {s.start_expected or 0.0:.1f}; {name}'s own decisions "
            f"{_change(s.cost)}; luck in the swats {_change(s.luck)}; the rest "
            f"{_change(s.other)}: the other players' decisions, the cards {name} learned "
            "between turns and the review's guesswork, which the review cannot tell apart.")
    return textwrap.fill(text, width)


def breakdown_words(review: Review, seats: Sequence[int]) -> list[str]:
    """The sentence of each of ``seats`` (those the view may see) that has a decision."""
    return [result_words(review.seats[s], review.players[s], 10**6) for s in seats
            if review.seats[s].start_expected is not None]


def summary_note(review: Review, details: bool) -> str:
    """The summary table's footnote: plain words by default, the analyst's with *Details*.

    >>> from tenleave_widget.analysis.review import Review
    >>> r = Review(["Ana", "Ben"], "margin", [], [], [], samples=200)
    >>> print(textwrap.fill(summary_note(r, details=False), 88))
    Points lost a move: on average, how many points worse than the best move each decision
    was. Luck: the points a player got in the swats minus the points the odds gave them,
    swat by swat (above 0: unlucky, below 0: lucky).
    >>> print(textwrap.fill(summary_note(r, details=True), 88))
    Loss in points of expected margin (200 worlds per decision, then 12× for the close
    ones); luck = penalty taken − penalty expected, swat by swat (positive: unlucky).
    """
    if details:
        return (f"Loss in points of expected margin ({review.samples} worlds per decision, "
                "then 12× for the close ones); luck = penalty taken − penalty expected, swat "
                "by swat (positive: unlucky).")
    lost = ("Chance lost a move: on average, how much less often a decision wins than the "
            "best move would have" if review.objective == "win_probability" else
            "Points lost a move: on average, how many points worse than the best move each "
            "decision was")
    return (f"{lost}. Luck: the points a player got in the swats minus the points the odds "
            "gave them, swat by swat (above 0: unlucky, below 0: lucky).")


def summary_table(review: Review, seats: Iterable[int], details: bool) -> str:
    """The review's summary for ``seats`` (those the view may see) as HTML: a row per
    player (accuracy, loss a move, how many decisions had each label, luck) and the
    footnote (:func:`summary_note`)."""
    lost = "mean loss" if details else (
        "chance lost a move" if review.objective == "win_probability" else "points lost a move")
    rows = []
    for s in seats:
        sm = review.seats[s]
        acc = "–" if sm.accuracy is None else f"{sm.accuracy:.0f}"
        loss = "–" if sm.mean_loss is None else f"{sm.mean_loss:.2f}"
        counts = "".join(f"<td {CELL}>{sm.labels[lab]}</td>" for lab in LABELS)
        rows.append(f"<tr><td {CELL}>{html.escape(review.players[s])}</td><td {CELL}>{acc}"
                    f"</td><td {CELL}>{loss}</td>{counts}<td {CELL}>{sm.luck:+.2f}</td></tr>")
    head = "".join(f"<th {CELL}>{lab}</th>" for lab in LABELS)
    accuracy = "accuracy" if details else "accuracy (out of 100)"
    return ("<table class='tl-review-summary' style='border-collapse:collapse'><tr>"
            f"<th {CELL}>{'seat' if details else 'player'}</th><th {CELL}>{accuracy}</th>"
            f"<th {CELL}>{lost}</th>{head}<th {CELL}>luck</th></tr>{''.join(rows)}</table>"
            f"<small class='tl-review-note'>{html.escape(summary_note(review, details))}</small>")
