"""A review's results: the labels and their thresholds, the judged decisions
(:class:`TurnReview`), the luck of the swats (:class:`WakeLuck`), each seat's summary
(:class:`SeatSummary`) and the whole :class:`Review` with its JSON and its plain-text
report."""

from __future__ import annotations

import math
import textwrap
from dataclasses import dataclass, field

from ...engine.turn import Turn
from ..analyse import BOUNDS, WIN_BOUNDS
from .schema import (
    JudgeJSON,
    ReviewJSON,
    SavedReviewJSON,
    SavedTurnJSON,
    SavedWakeJSON,
    SeatJSON,
    TurnJSON,
    WakeJSON,
)
from .text import model_words, turn_text

__all__ = ["LABELS", "OBJECTIVES", "REVIEW_FORMAT", "THRESHOLDS", "Review", "SeatSummary",
           "TurnReview", "WakeLuck"]


REVIEW_FORMAT = "tenleave-review/1"
"""The ``format`` of a review saved in a record's optional ``review`` section."""


LABELS = ("best", "good", "inaccuracy", "mistake", "blunder")
"""The labels of a decision, from no loss to the largest."""

OBJECTIVES = ("margin", "win_probability")
"""What a loss is measured in (lower cost is better for each):

- ``margin``: points of expected final margin (the seat's final penalty minus the mean
  of the other seats' final penalties);
- ``win_probability``: the drop in the probability of winning (shared wins count).

``margin`` is the default: it is what the ``lookahead`` bot decides by.
"""

THRESHOLDS: dict[str, tuple[float, float, float, float]] = {
    "margin": BOUNDS,
    "win_probability": WIN_BOUNDS,
}
"""Per objective, the upper bounds of the losses labelled ``best``, ``good``,
``inaccuracy`` and ``mistake``; a larger loss is a ``blunder``. A loss at or below the
first bound is ``best`` (as good as the best within a quarter point)."""

ACCURACY_SCALE: dict[str, float] = {
    "margin": 2.0,
    "win_probability": 0.10,
}
"""A decision's accuracy is ``100 * exp(-loss / scale)``: 100 for the best move, about 78
for a loss of a quarter of the scale, 61 for half of it, 37 for the whole scale (see
:func:`_accuracy`)."""


@dataclass
class TurnReview:
    """One decision: the seat to move at turn ``turn``, what it played and what was best,
    both valued from its view at that moment."""

    turn: int
    seat: int
    played: Turn
    expected_final_penalty: float
    best: Turn
    best_expected_final_penalty: float
    loss: float
    loss_ci95: tuple[float, float]
    label: str
    forced: bool
    candidates: int = 0  # the number of distinct decisions compared
    gap: float = 0.0
    """How much better the best decision was than the next best distinct one (in the
    objective's unit; 0 when they tie) — a position with one clearly best move."""
    reference: float = 0.0
    """The mover's expected final penalty before deciding: the value of the position if
    it played the evaluator's rollout policy (as every seat does in the play-outs)."""
    beta: dict[str, float] | None = None
    """With ``model="inferred"``: per opponent seat, the rationality its worlds were read
    with at this decision (fitted from that opponent's choices so far, or the number
    given); ``None`` for the uniform model."""
    expected_margin: float | None = None
    """The played decision's expected margin (points; ``None`` in a review saved before
    the one analysis judged reviews)."""
    best_expected_margin: float | None = None
    """The best decision's expected margin (points), as ``expected_margin``."""
    near: str | None = None
    """The harshest label above ``label`` whose bound the loss's interval still reaches
    (the sentence says the decision may be that), or None."""
    analysis: str | None = None
    """Which analysis judged the decision: ``"tenleave-analysis/1"`` (the one analysis,
    :mod:`tenleave_widget.analysis.analyse`), or None (the earlier evaluator)."""

    @property
    def cost(self) -> float:
        """What the decision changed the mover's expected final penalty by, against the
        rollout policy's play (penalty points; negative when it did better)."""
        return self.expected_final_penalty - self.reference

    def to_json(self) -> TurnJSON:
        out: TurnJSON = {
            "turn": self.turn,
            "seat": self.seat,
            "played": self.played.to_json(),
            "expected_final_penalty": self.expected_final_penalty,
            "best": self.best.to_json(),
            "best_expected_final_penalty": self.best_expected_final_penalty,
            "loss": self.loss,
            "loss_ci95": [self.loss_ci95[0], self.loss_ci95[1]],
            "label": self.label,
            "forced": self.forced,
        }
        if self.beta is not None:
            out["beta"] = dict(self.beta)
        if self.expected_margin is not None and self.best_expected_margin is not None:
            out["expected_margin"] = self.expected_margin
            out["best_expected_margin"] = self.best_expected_margin
        if self.near is not None:
            out["near"] = self.near
        if self.analysis is not None:
            out["analysis"] = self.analysis
        return out

    def to_saved(self) -> SavedTurnJSON:
        """:meth:`to_json` with the ``reference`` and the ``gap`` (a saved review's turn)."""
        out: SavedTurnJSON = {**self.to_json(), "reference": self.reference, "gap": self.gap}
        return out


@dataclass
class WakeLuck:
    """One swat: during turn ``turn``, of ``kind`` ``"wake"`` (chosen), ``"full"``
    (automatic) or ``"daybreak"`` (one daybreak pass). Per seat: the actual penalty it
    took, its expected penalty from that swat just before it (from its own view), and
    their difference, the ``luck`` (positive: worse than expected)."""

    turn: int
    kind: str
    actual: list[int]
    expected: list[float]

    @property
    def luck(self) -> list[float]:
        return [a - e for a, e in zip(self.actual, self.expected, strict=True)]

    def to_json(self) -> WakeJSON:
        return {"turn": self.turn, "kind": self.kind, "luck": self.luck}

    def to_saved(self) -> SavedWakeJSON:
        """:meth:`to_json` with each seat's ``actual`` penalty (a saved review's swat)."""
        return {**self.to_json(), "actual": list(self.actual)}


@dataclass
class SeatSummary:
    """One seat's review: ``mean_loss`` per unforced decision (``None`` without any),
    label counts over all its decisions, total ``luck``, ``accuracy`` (0–100, ``None``
    without an unforced decision); and what explains its result: ``start_expected`` (its
    expected final penalty at its first decision, from its view), ``cost`` (the sum of
    :attr:`TurnReview.cost` over its decisions), ``luck`` and ``final_penalty`` —
    ``final_penalty = start_expected + cost + luck + other``, where ``other`` gathers
    what the other seats' decisions and the cards revealed between its decisions changed,
    and the estimator's noise (zero on average; ``docs/methods/review.md``)."""

    seat: int
    mean_loss: float | None
    labels: dict[str, int]
    luck: float
    accuracy: float | None
    decisions: int = 0
    unforced: int = 0
    cost: float = 0.0
    start_expected: float | None = None
    final_penalty: int = 0

    @property
    def other(self) -> float:
        """What ``start_expected + cost + luck`` leaves of ``final_penalty`` unexplained."""
        if self.start_expected is None:
            return 0.0
        return self.final_penalty - self.start_expected - self.cost - self.luck

    def to_json(self) -> SeatJSON:
        return {
            "seat": self.seat,
            "mean_loss": self.mean_loss,
            "labels": dict(self.labels),
            "luck": self.luck,
            "accuracy": self.accuracy,
        }


@dataclass
class Review:
    """The review of a record (see :func:`review`)."""

    players: list[str]
    objective: str
    turns: list[TurnReview]
    wakes: list[WakeLuck]
    seats: list[SeatSummary]
    samples: int = 0
    seed: int = 0
    notes: dict[int, str] = field(default_factory=dict)
    model: str = "uniform"
    """Which model of the hidden cards judged the decisions (:data:`MODELS`)."""
    beta: float | str = "fitted"
    """With ``model="inferred"``: the opponents' rationality asked for (a number, or
    ``"fitted"``: each opponent's from its own choices so far)."""

    def to_json(self) -> ReviewJSON:
        """The ``tenleave review --json`` object (``model`` and ``beta`` only when the
        judge read the players: the uniform model's object is what it always was)."""
        out: ReviewJSON = {"players": list(self.players), "objective": self.objective,
                           **self._judge(),
                           "turns": [t.to_json() for t in self.turns],
                           "wakes": [w.to_json() for w in self.wakes],
                           "seats": [s.to_json() for s in self.seats]}
        return out

    def to_saved(self) -> SavedReviewJSON:
        """The review as a record's ``review`` section: :meth:`to_json` plus ``format``,
        ``samples`` and ``seed``, per turn its ``reference`` and ``gap`` (see
        :class:`TurnReview`), and per wake each seat's ``actual`` penalty."""
        out: SavedReviewJSON = {"format": REVIEW_FORMAT, "samples": self.samples,
                                "seed": self.seed, "players": list(self.players),
                                "objective": self.objective,
                                **self._judge(),
                                "turns": [t.to_saved() for t in self.turns],
                                "wakes": [w.to_saved() for w in self.wakes],
                                "seats": [s.to_json() for s in self.seats]}
        return out

    def _judge(self) -> JudgeJSON:
        """``model`` and ``beta`` when the judge read the players, else nothing."""
        return {} if self.model == "uniform" else {"model": self.model, "beta": self.beta}

    def table(self, width: int = 100) -> str:
        """A readable plain-text report: one line per turn (turns counted from 1, as the
        table counts them: the JSON's ``turn`` fields count from 0), each note wrapped to
        ``width`` columns, the swats' luck, the seats, and what explains each result."""
        unit = _UNITS[self.objective]
        names = self.players
        w = max(4, *(len(n) for n in names))
        col = max(w, 7)  # a luck column holds a name or a signed figure such as -10.50
        lines = [f"objective: {self.objective} ({unit})"]
        if self.model != "uniform":
            lines.append(f"judged by: {model_words(self.beta)}")
        lines += ["loss = played - best, lower is better; turns counted from 1, queues q1, q2, "
                 "... and positions I to IV as on the table"]
        margins = all(t.expected_margin is not None for t in self.turns)
        head = "margin" if margins else "final"
        if margins:
            lines.append("margin: expected final margin, the seat's final penalty minus the "
                         "others' mean (points, lower is better), the unit of the loss")
        else:
            lines.append("final: expected final penalty (a penalty, not the loss's unit)")
        lines.append(
            f"{'turn':>4}  {'seat':<{w}}  {'played':<22} {head:>6}  {'best':<22} "
            f"{head:>6}  {'loss [95% CI]':<22} label"
        )
        indent = " " * 6
        for t in self.turns:
            ci = f"{t.loss:.2f} [{t.loss_ci95[0]:.2f}, {t.loss_ci95[1]:.2f}]"
            label = t.label + (" (forced)" if t.forced else "")
            if t.near is not None:
                label += f" (near {t.near})"
            mine, top = ((t.expected_margin, t.best_expected_margin) if margins
                         else (t.expected_final_penalty, t.best_expected_final_penalty))
            mine_s = f"{mine:+6.2f}" if margins else f"{mine:6.2f}"
            top_s = f"{top:+6.2f}" if margins else f"{top:6.2f}"
            lines.append(
                f"{t.turn + 1:>4}  {names[t.seat]:<{w}}  {turn_text(t.played):<22} "
                f"{mine_s}  {turn_text(t.best):<22} "
                f"{top_s}  {ci:<22} {label}"
            )
            note = self.notes.get(t.turn)
            if note:
                lines.extend(textwrap.wrap(f"note: {note}", width, initial_indent=indent,
                                           subsequent_indent=indent + "      "))
        lines.append("")
        lines.append("luck of each swat (actual - expected penalty from that swat; "
                     "positive is bad luck)")
        lines.append(f"{'turn':>4}  {'kind':<9}" + "".join(f" {n:>{col}}" for n in names))
        for wk in self.wakes:
            lines.append(
                f"{wk.turn + 1:>4}  {wk.kind:<9}" + "".join(f" {x:>{col}.2f}" for x in wk.luck)
            )
        lines.append("")
        head = "".join(f" {lab[:7]:>7}" for lab in LABELS)
        lines.append(f"{'seat':<{w}}  {'mean loss':>9}  {'accuracy':>8}{head}  {'luck':>7}  "
                     f"{'penalty':>7}")
        for s in self.seats:
            ml = "-" if s.mean_loss is None else f"{s.mean_loss:.2f}"
            acc = "-" if s.accuracy is None else f"{s.accuracy:.1f}"
            counts = "".join(f" {s.labels[lab]:>7}" for lab in LABELS)
            lines.append(f"{names[s.seat]:<{w}}  {ml:>9}  {acc:>8}{counts}  {s.luck:7.2f}  "
                         f"{s.final_penalty:>7}")
        lines.append("")
        lines.extend(self.breakdown(width))
        return "\n".join(lines)

    def breakdown(self, width: int = 100) -> list[str]:
        """What explains each seat's final penalty, every term named in words: the lines
        that end :meth:`table` (penalty points; see :class:`SeatSummary`)."""
        names = self.players
        w = max(4, *(len(n) for n in names))
        out = ["what explains each final penalty (penalty points, lower is better):",
               f"{'seat':<{w}}  {'final':>5} = {'start':>7} {'decisions':>9} {'luck':>7} "
               f"{'rest':>7}"]
        for s in self.seats:
            if s.start_expected is None:
                continue
            out.append(f"{names[s.seat]:<{w}}  {s.final_penalty:>5} = {s.start_expected:7.2f} "
                       f"{s.cost:+9.2f} {s.luck:+7.2f} {s.other:+7.2f}")
        for term, words in BREAKDOWN_TERMS:
            out.extend(textwrap.wrap(f"{term}: {words}", width, subsequent_indent="  "))
        return out


_UNITS = {
    "margin": "points of expected margin over the other seats' mean",
    "win_probability": "win probability",
}

BREAKDOWN_TERMS = (
    ("final", "the player's penalty at the end of the game"),
    ("start", "what the player could expect to end with at its first decision (from its own "
              "view, if everyone then played like the review's play-outs)"),
    ("decisions", "what the player's own decisions changed that by, against the play-outs' usual "
            "play (negative: better than usual)"),
    ("luck", "the luck of the swats (above): what they cost the player minus what it expected "
             "them to cost"),
    ("rest", "everything else: the other players' decisions, the cards the player learned "
             "between its own turns, and the estimator's noise. The review sees each game "
             "from one player's view at a time, so it cannot tell these three apart; the rest "
             "is zero on average"),
)
"""The terms of :meth:`Review.breakdown`, ``final = start + decisions + luck + rest``, in
words (the ``rest`` is :attr:`SeatSummary.other`)."""


def _label(loss: float, objective: str) -> str:
    for name, bound in zip(LABELS, THRESHOLDS[objective], strict=False):
        if loss <= bound:
            return name
    return LABELS[-1]


def _accuracy(loss: float, objective: str) -> float:
    """100 for the best move, falling with the loss: ``100 * exp(-loss / scale)``."""
    return 100.0 * math.exp(-max(0.0, loss) / ACCURACY_SCALE[objective])


def _summaries(
    n: int, turns: list[TurnReview], wakes: list[WakeLuck], objective: str, final: list[int]
) -> list[SeatSummary]:
    out = []
    for s in range(n):
        mine = [t for t in turns if t.seat == s]
        unforced = [t for t in mine if not t.forced]
        labels = {lab: sum(1 for t in mine if t.label == lab) for lab in LABELS}
        mean_loss = math.fsum(t.loss for t in unforced) / len(unforced) if unforced else None
        acc = (
            math.fsum(_accuracy(t.loss, objective) for t in unforced) / len(unforced)
            if unforced else None
        )
        out.append(SeatSummary(
            seat=s,
            mean_loss=mean_loss,
            labels=labels,
            luck=math.fsum(w.luck[s] for w in wakes),
            accuracy=acc,
            decisions=len(mine),
            unforced=len(unforced),
            cost=math.fsum(t.cost for t in mine),
            start_expected=mine[0].reference if mine else None,
            final_penalty=final[s],
        ))
    return out
