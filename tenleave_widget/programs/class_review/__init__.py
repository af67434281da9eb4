"""A class's games reviewed together: every decision of every record on every core (or a
Dask cluster), brought together per player, per kind of decision, and the positions worth
discussing.

The unit of work is one decision (:func:`~tenleave_widget.analysis.review.judge_decision`,
a pure function of the mover's view, the turn played, the budget and the seed), so a long
game does not hold a run up and a single game uses every core too. Only the view and the
judged decision cross processes, and each decision's seed is the review's seed and its
turn: the results are the same, byte for byte, whatever runs them (this process, W
processes, Dask) and the same as :func:`~tenleave_widget.analysis.review.review` of each
record alone.

The package, one concept a module: :mod:`.kinds` (the kinds of a decision),
:mod:`.spool` (a batch's games on disk), :mod:`.tally` (what the games say together:
:class:`~.tally.ClassReview`) and :mod:`.runner` (:func:`~.runner.review_many`: the
decisions judged in parallel).
"""

from .kinds import KINDS, kinds_of
from .runner import WINDOW, record_files, review_many
from .spool import GameResult, GameSpool
from .tally import (
    BESTS,
    POSITIONS,
    ClassReview,
    KindRow,
    PlayerRow,
    Position,
    Summary,
    judge_words,
)

__all__ = ["BESTS", "KINDS", "POSITIONS", "WINDOW", "ClassReview", "GameResult", "GameSpool",
           "KindRow", "PlayerRow", "Position", "Summary", "judge_words", "kinds_of",
           "record_files", "review_many"]
