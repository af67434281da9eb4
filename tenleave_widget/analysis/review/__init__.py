"""Game review: every decision judged from the mover's view, the luck of every swat.

A review takes a ``tenleave-record/1`` record and, turn by turn, asks the evaluator what
each decision of the seat to move was worth **from that seat's view at that moment**
(RULES.md §9) — never with hindsight of the hidden cards. It compares the turn played
with the best one, labels the difference, and separates the luck of every swat from the
quality of the decisions (GNU Backgammon's error rate and luck analysis, lichess's
labels):

- a decision's **loss** is how much worse the played turn is than the best, in the unit
  of the ``objective`` (points of expected margin — the seat's final penalty minus the
  mean of the other seats' — or win probability), with a paired 95% interval;
- its **label** is ``best``, ``good``, ``inaccuracy``, ``mistake`` or ``blunder`` by the
  thresholds :data:`THRESHOLDS`; a decision is **forced** when every move is worth the
  same within the estimator's noise;
- the **luck** of a swat (a chosen wake, an automatic wake, a daybreak pass) is, for each
  seat, its actual penalty from that swat minus its expected penalty from that swat just
  before it, from its own view (the exact one-swat odds of :mod:`tenleave_widget.analysis.odds`).

>>> from tenleave_widget import Game
>>> g = Game(["Ana", "Ben"], seed=3, defense=["I+II", "II+III"])
>>> for turn in [{"seat": 0, "play": ["5", 0]}, {"seat": 1, "play": ["1", 0]},
...              {"seat": 0, "play": ["4*", 1]}, {"seat": 1, "play": ["2", 1]},
...              {"seat": 0, "wake": True, "play": ["1", 0]}]:
...     g.apply(turn)
>>> [(w.turn, w.kind, [round(x, 2) for x in w.luck]) for w in wake_luck(g.to_record())]
[(4, 'wake', [2.25, -0.5])]

Ana woke SleepKid: queue 0 (her 5 + Ben's 1) swatted her 5, queue 1 (her 4 + Ben's 2)
swatted her 4 — 9 points where she expected 6.75 (to her, each of Ben's plain cards could
have been his 5, which would have saved her); Ben expected 0.5 and lost nothing.

Every decision is judged by the one analysis of
its position (:mod:`tenleave_widget.analysis.analyse`: every decision of every kind,
peeks first included, valued on worlds sampled from the mover's view and played out to
the end with common random numbers, with more worlds where they decide something) and its
verdict on the played decision (:func:`tenleave_widget.analysis.analyse.judge`): the
loss against the best with its paired interval, a label only where the interval clears
the bound. The puzzles and ``tenleave evaluate`` read the same analysis. The
``win_probability`` objective is the same analysis ranked by the chance of not winning
(another digest; losses are drops in the chance of winning). The JSON and the
``tenleave review`` command: ``docs/guides/review.md``; the method:
``docs/methods/analysis.md``.

The package, one concept a module: :mod:`.results` (the result types and the text
report), :mod:`.text` (a turn, the judging model and an evaluation in words),
:mod:`.replay` (a record replayed), :mod:`.luck` (the swats' luck), :mod:`.evaluator`
(a played turn as a decision, the coach's loss, the review's argument checks), :mod:`.judge`
(:func:`judge_decision`, :func:`review`), :mod:`.saved` (a review saved with its
record) and :mod:`.puzzle`.
"""

from __future__ import annotations

from .evaluator import DEFAULT_SAMPLES, ScreenLoss, check_budget, decision
from .judge import (
    Decision,
    assemble_review,
    decisions,
    judge_decision,
    judge_steps,
    review,
    review_steps,
)
from .judge import (
    Progress as Progress,
)
from .luck import wake_luck
from .puzzle import Puzzle, puzzles
from .results import (
    LABELS,
    OBJECTIVES,
    THRESHOLDS,
    Review,
    SeatSummary,
    TurnReview,
    WakeLuck,
)
from .results import (
    REVIEW_FORMAT as REVIEW_FORMAT,
)
from .saved import attach_review, saved_review
from .saved import check_saved as check_saved
from .text import evaluation_table, turn_text
from .text import model_words as model_words

__all__ = [
    "DEFAULT_SAMPLES",
    "LABELS",
    "OBJECTIVES",
    "THRESHOLDS",
    "Decision",
    "Review",
    "SeatSummary",
    "TurnReview",
    "WakeLuck",
    "Puzzle",
    "assemble_review",
    "attach_review",
    "check_budget",
    "decision",
    "decisions",
    "turn_text",
    "evaluation_table",
    "puzzles",
    "judge_decision",
    "judge_steps",
    "ScreenLoss",
    "review",
    "review_steps",
    "saved_review",
    "wake_luck",
]
