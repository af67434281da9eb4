"""A class's games reviewed together: every decision of every record on every core (or a
Dask cluster), brought together per player, per kind of decision, and the positions worth
discussing.

Each decision is judged once, wherever it runs: the results are the same, byte for byte,
as :func:`~tenleave_widget.analysis.review.review` of each record alone (:mod:`.runner`).

The package, one concept a module: :mod:`.kinds` (the kinds of a decision),
:mod:`.spool` (a batch's games on disk), :mod:`.tally` (what the games say together:
:class:`~.tally.ClassReview`) and :mod:`.runner` (:func:`~.runner.review_many`: the
decisions judged in parallel).
"""

from .kinds import KINDS, kinds_of
from .runner import WINDOW, record_files, review_many, scan_records, shown_name
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
           "record_files", "review_many", "scan_records", "shown_name"]
