"""Puzzles from a reviewed game: the positions where one decision was clearly best, to
play again (:func:`puzzles`), each judging a student's answer (:meth:`Puzzle.judge`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, TypedDict

from ...engine.cards import card_value
from ...engine.errors import SetupError
from ...engine.game import Game
from ...engine.record import Record, RecordSource
from ...engine.turn import BEFORE, Turn
from ..analyse import judge, settings_for
from .results import THRESHOLDS, Review
from .text import LABEL_WORDS, decision_text, turn_text

__all__ = ["Answer", "Puzzle", "puzzles"]


class Answer(TypedDict):
    """A student's answer to a :class:`Puzzle`, judged (:meth:`Puzzle.judge`)."""

    best: bool
    loss: float
    """In the objective's unit (0 for the best move)."""
    loss_ci95: list[float]
    """``[low, high]``: the paired 95% interval of the loss."""
    text: str
    """The verdict in words."""


@dataclass
class Puzzle:
    """A position of a reviewed game where one decision was clearly best: the seat to
    move at turn ``turn``, the game so far (``record``: a ``tenleave-record/1`` of the first
    ``turn`` turns, to load into a widget), the ``best`` decision and by how much it beat
    the next best (``gap``), and what was played there (with its ``loss``)."""

    turn: int
    seat: int
    record: Record
    best: Turn
    gap: float
    played: Turn
    loss: float
    objective: str = "margin"
    samples: int | None = None
    """The review's budget (worlds per decision; None: the default)."""
    seed: int = 0
    """The review's seed."""

    def judge(self, turn: Turn | Mapping[str, Any], *, samples: int | None = None,
              seed: int | None = None) -> Answer:
        """Judge a student's answer (a :class:`Turn` or record turn object of the seat to
        move): ``{"best": bool, "loss": points, "loss_ci95": [lo, hi], "text"}``. The
        answer is the one analysis's verdict (:func:`~tenleave_widget.analysis.analyse.judge`
        of the seat's view, the review's objective, budget ``samples`` and ``seed``, by
        default the review's own): the review's figures for the same turn."""
        samples = self.samples if samples is None else samples
        seed = self.seed if seed is None else seed
        t = Turn.from_json(dict(turn)) if isinstance(turn, Mapping) else turn
        g = Game.from_record(self.record)
        if t not in g.legal_turns:
            raise SetupError(f"{turn_text(t, words=True)} is not a legal turn of seat "
                             f"{self.seat} here")
        unit = "points of margin" if self.objective == "margin" else "of win probability"
        # the one analysis of the position, ranked by the review's objective
        view = g.view(self.seat)
        seen = None
        if t.peek is not None and t.extra == BEFORE and \
                view["queues"][t.peek[0]][t.peek[1]]["value"] is None:
            seen = card_value(g.queue_cards(t.peek[0])[t.peek[1]][1])
        v = judge(view, t.to_json(), settings_for(samples), seed=seed, seen=seen,
                  objective=self.objective)
        ds = v["analysis"]["decisions"]
        if ds[v["played"]]["group"] == ds[0]["group"]:
            return {"best": True, "loss": 0.0, "loss_ci95": list(v["loss_ci95"]),
                    "text": f"{turn_text(t, words=True)}: the best move, better than the "
                            f"next best by {self.gap:.2f} {unit}."}
        lo, hi = v["loss_ci95"]
        near = f" (or {LABEL_WORDS[v['near']]})" if v["near"] else ""
        return {"best": False, "loss": v["loss"], "loss_ci95": [lo, hi],
                "text": f"{turn_text(t, words=True)}: {v['label']}{near} — "
                        f"{decision_text(ds[0], words=True)} was better "
                        f"by {v['loss']:.2f} {unit} (95% interval {lo:.2f} to "
                        f"{hi:.2f})."}


def puzzles(record: RecordSource | Game, result: Review,
            min_gap: float | None = None) -> list[Puzzle]:
    """The positions of a reviewed record where the best decision beat the next best by
    at least ``min_gap`` (default: the objective's mistake bound, the loss from which a
    move is a mistake) — "learn from your mistakes" puzzles, in turn order."""
    rec = Game.from_record(record.to_record() if isinstance(record, Game) else record).to_record()
    rec.pop("notes", None)  # a note about a later turn would give the answer away
    bound = THRESHOLDS[result.objective][2] if min_gap is None else min_gap
    out = []
    for t in result.turns:
        if t.forced or t.gap < bound:
            continue
        prefix = dict(rec, turns=rec["turns"][: t.turn])
        out.append(Puzzle(t.turn, t.seat, prefix, t.best, t.gap, t.played, t.loss,
                          result.objective, result.samples or None, result.seed))
    return out
