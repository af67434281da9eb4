"""A class review's positions in the widget: each position worth discussing
opened at its turn from the mover's view, and the same positions as a practice set a
student plays on the table and is judged on.

The batch review (:mod:`tenleave_widget.programs.class_review`) finds the positions and
makes the puzzles; this module, above it, puts them on a table (``programs/`` may not
import the widget).

Usage (``tests/widget/test_class_positions.py``)::

    c = review_many(folder_files)
    open_position(c, 0)          # the largest loss, at its turn, from the mover's view
    practice = Practice(c)       # c.practice(): the same positions, easiest first
    practice.table(0)            # the student plays puzzle 1 there, then
    practice.judge(0)            # {"best": False, "loss": 2.4, "text": "..."}
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..analysis.review import Puzzle, turn_text
from ..analysis.review.evaluator import DEFAULT_SAMPLES
from ..engine.errors import SetupError
from ..engine.game import Game
from ..programs.class_review import ClassReview
from .controller import TenLeaveWidget
from .entry import play, replay

__all__ = ["Practice", "open_position"]


def open_position(review: ClassReview, position: Mapping[str, Any] | int) -> TenLeaveWidget:
    """The replay widget of a position worth discussing (one of ``review.positions()``,
    or its index there) at its turn, from the mover's view: what the player saw when
    deciding, before the move it played. Its moves panel shows the analysis the review
    judged the decision with (the review's budget and seed)."""
    q = review.positions()[position] if isinstance(position, int) else position
    game = review.games[q["game"]]
    w = replay(game.record(), seat=q["seat"], turn=q["turn"])
    _same_analysis(w, game.review.samples or None, game.review.seed)
    return w


def _same_analysis(w: TenLeaveWidget, samples: int | None, seed: int) -> None:
    """Make ``w``'s moves panel show the analyses the review judged with: its budget and
    seed (the review's default ones are the panel's anyway)."""
    feed = w.session.lookahead
    feed.budget = DEFAULT_SAMPLES if samples is None else samples
    feed.seed = seed
    w._refresh()  # at once if the review analysed it in this process (its cache), else
    # the table's background job analyses it (a script: ``w.think()``)


class Practice:
    """A practice set (``review.practice()``, easiest first) played in the widget.

    :meth:`table` gives puzzle ``k``'s table: the game so far, the student in the seat
    to move (its own view), bots in the other seats. The student plays a move there;
    :meth:`judge` then judges it (:meth:`~tenleave_widget.analysis.review.Puzzle.judge`:
    the move against the best, on fresh worlds from the seat's view) and keeps the
    verdict; :meth:`score` counts them.
    """

    def __init__(self, puzzles: Sequence[Puzzle] | ClassReview, *, samples: int | None = None,
                 seed: int | None = None, bots: str = "greedy") -> None:
        self.puzzles = list(puzzles.practice() if isinstance(puzzles, ClassReview)
                            else puzzles)
        self.samples, self.seed, self.bots = samples, seed, bots
        self.verdicts: dict[int, dict[str, Any]] = {}
        self._tables: dict[int, TenLeaveWidget] = {}

    def __len__(self) -> int:
        return len(self.puzzles)

    def _puzzle(self, k: int) -> Puzzle:
        if type(k) is not int or not 0 <= k < len(self.puzzles):
            raise SetupError(f"the practice set has puzzles 0..{len(self.puzzles) - 1}, "
                             f"not {k!r}")
        return self.puzzles[k]

    def question(self, k: int) -> str:
        """Puzzle ``k`` in words: whose move it is, at which turn (counted from 1)."""
        z = self._puzzle(k)
        name = z.record["players"][z.seat]
        return (f"Puzzle {k + 1} of {len(self)}: turn {z.turn + 1}, {name} to move. "
                "Find the best move.")

    def table(self, k: int) -> TenLeaveWidget:
        """Puzzle ``k``'s table (made once): the student plays the seat to move."""
        z = self._puzzle(k)
        if k not in self._tables:
            players = list(z.record["players"])
            w = play(players=players, human=z.seat, bots=[self.bots] * (len(players) - 1),
                     bot_delay=0, seed=self.seed)
            w.load(z.record)
            _same_analysis(w, z.samples if self.samples is None else self.samples,
                           z.seed if self.seed is None else self.seed)
            self._tables[k] = w
        return self._tables[k]

    def answer(self, k: int) -> Any:
        """The move the student played on puzzle ``k``'s table, or ``None`` while it has
        not played (a :class:`~tenleave_widget.Turn`)."""
        z = self._puzzle(k)
        game: Game = self.table(k).game
        return game.turns[z.turn] if game.turns_applied > z.turn else None

    def judge(self, k: int) -> dict[str, Any] | None:
        """The verdict on the student's move at puzzle ``k`` (``{"best", "loss",
        "loss_ci95", "text"}``, kept in :attr:`verdicts`), or ``None`` while it has not
        played."""
        t = self.answer(k)
        if t is None:
            return None
        z = self._puzzle(k)
        verdict = z.judge(t, samples=self.samples, seed=self.seed)
        self.verdicts[k] = {**verdict, "answer": turn_text(t, words=True)}
        return self.verdicts[k]

    def score(self) -> dict[str, Any]:
        """The puzzles judged so far: how many, how many found the best move, and the
        mean loss."""
        vs = list(self.verdicts.values())
        return {"judged": len(vs), "best": sum(v["best"] for v in vs),
                "mean_loss": sum(v["loss"] for v in vs) / len(vs) if vs else None}
