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

The decisions are valued by the lookahead evaluation
(:func:`tenleave_widget.analysis.lookahead.evaluate_view`: worlds sampled from the mover's view,
played out to the end with common random numbers) in two stages — every decision on
``samples`` worlds, then the played one and the five best on ``REFINE * samples`` fresh
worlds, where the loss is measured — with more fresh worlds for the played one and those
that may be the best, batch by batch up to :data:`EXTEND_ROUNDS` batches, while the
loss's interval straddles a label bound (see
:func:`_evaluate`). A peek is not valued by the
evaluator (in a sampled world it changes nothing), so a peek turn is judged as its bare
play. See the README for the JSON and the ``tenleave review`` command.
"""

from __future__ import annotations

import math
import random
import textwrap
from collections.abc import Callable, Generator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar, cast

from ..engine.cards import card_value, parse_card
from ..engine.errors import RecordError, SetupError, TenLeaveError, excerpt
from ..engine.game import Game
from ..engine.record import RecordSource, record_object
from ..engine.rules import ROMAN
from ..engine.turn import AFTER, BEFORE, Turn
from ..engine.view import View
from .infer import with_history
from .lookahead import DEFAULT_SAMPLES as LOOKAHEAD_SAMPLES
from .lookahead import MAX_SAMPLES, Evaluation, evaluate_view
from .move_values import MoveValues
from .odds import seat_odds
from .position import MODELS
from .reader import Belief, dealer
from .stats import mean_half_width
from .worlds import Deal

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
    "decision",
    "decisions",
    "turn_text",
    "evaluation_table",
    "puzzles",
    "judge_decision",
    "judge_steps",
    "screen",
    "screen_loss",
    "ScreenLoss",
    "review",
    "review_steps",
    "saved_review",
    "wake_luck",
]

T = TypeVar("T")

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
    "margin": (0.25, 1.0, 2.0, 4.0),
    "win_probability": (0.03, 0.07, 0.12, 0.25),
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

DEFAULT_SAMPLES = LOOKAHEAD_SAMPLES
"""The default budget: worlds sampled per decision (the lookahead evaluation's default)."""

Progress = Callable[[int, int], None]
"""A progress callback: ``progress(turns_done, turns_total)``."""


# --------------------------------------------------------------------------- results


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

    @property
    def cost(self) -> float:
        """What the decision changed the mover's expected final penalty by, against the
        rollout policy's play (penalty points; negative when it did better)."""
        return self.expected_final_penalty - self.reference

    def to_json(self) -> dict[str, Any]:
        return {
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
            **({} if self.beta is None else {"beta": dict(self.beta)}),
        }


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

    def to_json(self) -> dict[str, Any]:
        return {"turn": self.turn, "kind": self.kind, "luck": self.luck}


@dataclass
class SeatSummary:
    """One seat's review: ``mean_loss`` per unforced decision (``None`` without any),
    label counts over all its decisions, total ``luck``, ``accuracy`` (0–100, ``None``
    without an unforced decision); and what explains its result: ``start_expected`` (its
    expected final penalty at its first decision, from its view), ``cost`` (the sum of
    :attr:`TurnReview.cost` over its decisions), ``luck`` and ``final_penalty`` —
    ``final_penalty = start_expected + cost + luck + other``, where ``other`` gathers
    what the other seats' decisions and the cards revealed between its decisions changed,
    and the estimator's noise (zero on average; see the README)."""

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

    def to_json(self) -> dict[str, Any]:
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

    def to_json(self) -> dict[str, Any]:
        """The ``tenleave review --json`` object (``model`` and ``beta`` only when the
        judge read the players: the uniform model's object is what it always was)."""
        judge = {} if self.model == "uniform" else {"model": self.model, "beta": self.beta}
        return {
            "players": list(self.players),
            "objective": self.objective,
            **judge,
            "turns": [t.to_json() for t in self.turns],
            "wakes": [w.to_json() for w in self.wakes],
            "seats": [s.to_json() for s in self.seats],
        }

    def to_saved(self) -> dict[str, Any]:
        """The review as a record's ``review`` section: :meth:`to_json` plus ``format``,
        ``samples`` and ``seed``, per turn its ``reference`` and ``gap`` (see
        :class:`TurnReview`), and per wake each seat's ``actual`` penalty."""
        out = {"format": REVIEW_FORMAT, "samples": self.samples, "seed": self.seed,
               **self.to_json()}
        for t, tj in zip(self.turns, out["turns"], strict=True):
            tj["reference"] = t.reference
            tj["gap"] = t.gap
        for w, wj in zip(self.wakes, out["wakes"], strict=True):
            wj["actual"] = list(w.actual)
        return out

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
        lines.append(
            f"{'turn':>4}  {'seat':<{w}}  {'played':<22} {'exp.':>6}  {'best':<22} "
            f"{'exp.':>6}  {'loss [95% CI]':<22} label"
        )
        indent = " " * 6
        for t in self.turns:
            ci = f"{t.loss:.2f} [{t.loss_ci95[0]:.2f}, {t.loss_ci95[1]:.2f}]"
            label = t.label + (" (forced)" if t.forced else "")
            lines.append(
                f"{t.turn + 1:>4}  {names[t.seat]:<{w}}  {turn_text(t.played):<22} "
                f"{t.expected_final_penalty:6.2f}  {turn_text(t.best):<22} "
                f"{t.best_expected_final_penalty:6.2f}  {ci:<22} {label}"
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


def model_words(beta: float | str) -> str:
    """How a review judged by the inferred model says so (the text report's second line).

    >>> model_words(4.0)
    "the inferred model (the hidden cards as the players' choices suggest; beta 4)"
    """
    how = ("each opponent's rationality beta fitted from its own choices so far"
           if beta == "fitted" else f"beta {beta:g}" if not isinstance(beta, str) else beta)
    return f"the inferred model (the hidden cards as the players' choices suggest; {how})"


def turn_text(t: Turn, *, words: bool = False) -> str:
    """A short text for a turn, e.g. ``"4* q2"``, ``"wake, 2 q1"``, ``"peek q2:I, 5 q1"``,
    ``"3* q2, rotate q2"`` — queues numbered from 1 and positions I to IV, as the table
    and the narration show them (a record numbers queues from 0). With ``words``, the
    same in words (the widget's status and narration lines, the puzzles' verdicts).

    >>> turn_text(Turn(0, "4*", 1, rotate=1, extra="after"))
    '4* q2, rotate q2'
    >>> turn_text(Turn(0, "4*", 1, rotate=1, extra="after"), words=True)
    '4* on queue 2, then rotate queue 2'
    >>> turn_text(Turn(1, "5", 0, peek=(2, 1), extra="before"))
    'peek q3:II, 5 q1'
    >>> turn_text(Turn(1, "5", 0, peek=(2, 1), extra="before"), words=True)
    'peek at queue 3, position II, then 5 on queue 1'
    >>> turn_text(Turn(0, "2", 0, wake=True), words=True)
    'wake SleepKid, then 2 on queue 1'
    """
    if words:
        play, then, wake = f"{t.card} on queue {t.queue + 1}", ", then ", "wake SleepKid"
        peek = f"peek at queue {t.peek[0] + 1}, position {ROMAN[t.peek[1]]}" if t.peek else ""
        rotate = f"rotate queue {t.rotate + 1}" if t.rotate is not None else ""
    else:
        play, then, wake = f"{t.card} q{t.queue + 1}", ", ", "wake"
        peek = f"peek q{t.peek[0] + 1}:{ROMAN[t.peek[1]]}" if t.peek else ""
        rotate = f"rotate q{t.rotate + 1}" if t.rotate is not None else ""
    if t.wake:
        return f"{wake}{then}{play}"
    extra = peek or rotate
    if not extra:
        return play
    return f"{extra}{then}{play}" if t.extra == BEFORE else f"{play}{then}{extra}"


# ----------------------------------------------------------------------------- luck


def _swat_penalties(event: Mapping[str, Any], seats: int) -> list[int]:
    """Each seat's penalty from one ``swat`` event."""
    out = [0] * seats
    for qe in event["queues"]:
        hit = set(qe["swatted"])
        for c in qe["flipped"]:
            if c["key"] in hit:
                out[c["owner"]] += parse_card(c["card"])[0]
    return out


def _expected_swat(view: Mapping[str, Any], daybreak: bool = False) -> list[float]:
    """Each seat's expected penalty from a swat of the position of ``view``, under the
    viewing seat's uniform model (a daybreak pass: a queue holding exactly one card lets
    it escape unflipped)."""
    if daybreak and any(len(q) == 1 for q in view["queues"]):
        view = dict(view)
        view["queues"] = [[] if len(q) == 1 else q for q in view["queues"]]
    return [float(x) for x in seat_odds(view, moves=False)["expected_penalty"]]


def _turn_luck(
    before: Game, turn: Turn, after: Game, k: int, viewers: Sequence[int | None] | None = None
) -> list[WakeLuck]:
    """The swats of turn ``k`` (``before``: the game just before it, ``after``: just after)
    with each seat's actual and expected penalty. Seat p's expectation is taken from the
    view of ``viewers[p]`` (default: p itself; ``None``: the omniscient view, which the
    tests use — it must expect exactly what happens)."""
    n = before.seats
    who = list(range(n)) if viewers is None else list(viewers)
    events = after.events()
    swats = [e for e in events if e["kind"] == "swat"]
    if not swats:
        return []
    out: list[WakeLuck] = []
    rest = swats
    if turn.wake:  # the chosen wake swats before the play: the views at the turn's start
        expected = [_expected_swat(before.view(who[p]))[p] for p in range(n)]
        out.append(WakeLuck(k, "wake", _swat_penalties(swats[0], n), expected))
        rest = swats[1:]
    if not rest:
        return out
    pre = before.preview(turn.steps())  # the turn's steps done, the turn not yet ended
    if rest[0]["reason"] == "full":
        expected = [_expected_swat(pre.view(who[p]))[p] for p in range(n)]
        out.append(WakeLuck(k, "full", _swat_penalties(rest[0], n), expected))
        return out
    # daybreak: each seat's view before each pass (its token revealed), from the engine;
    # the passes are those of the turn's events
    for e, views in zip(rest, pre.daybreak_views(who), strict=True):
        expected = [_expected_swat(views[p], daybreak=True)[p] for p in range(n)]
        out.append(WakeLuck(k, "daybreak", _swat_penalties(e, n), expected))
    return out


def _load(record: RecordSource | Game) -> tuple[Game, list[Turn], dict[int, str], list[int]]:
    """The record's setup as a fresh game (no turn applied), its turns and notes. The whole
    record is checked first: an invalid one raises :class:`RecordError` before any
    work is done. Also the penalties at the record's end."""
    full = Game.from_record(record.to_record() if isinstance(record, Game) else record)
    rec = full.to_record()
    start = Game.from_record(rec, turns=0)
    return start, full.turns, dict(full.notes), full.penalty


def wake_luck(record: RecordSource | Game) -> list[WakeLuck]:
    """The luck of every swat of a record (chosen wakes, automatic wakes, daybreak passes),
    in order; exact (no sampling). See the module docstring for an example."""
    g, turns, _, _ = _load(record)
    out: list[WakeLuck] = []
    for k, t in enumerate(turns):
        before = g.copy()
        g.apply(t)
        out.extend(_turn_luck(before, t, g, k))
    return out


# ------------------------------------------------------------------ the evaluator seam


@dataclass
class _Value:
    """One candidate decision as the evaluator valued it, from the mover's view.

    ``cost`` is the objective (lower is better); ``costs`` its value in each sampled
    world (the same worlds for every candidate of one evaluation: common random
    numbers)."""

    turn: Turn
    expected_final_penalty: float
    cost: float
    costs: Sequence[float]


@dataclass
class _Judged:
    """``screen``: every decision, valued on ``samples`` worlds; ``refined``: the played
    decision and the screen's best few, valued again on ``REFINE * samples`` fresh
    worlds or more (the played one and those that may be the best on every batch the
    sequential refinement adds: see :func:`_live`); ``played``: the played decision's
    index in each."""

    screen: list[_Value]
    screen_played: int
    refined: list[_Value]
    refined_played: int
    objective: str
    reference: float  # the mover's expected final penalty if it played the rollout policy


REFINE = 12
"""The refinement stage samples ``REFINE`` times as many worlds as the screen."""
REFINE_TOP = 5
"""How many of the screen's best decisions are refined along with the played one."""
EXTEND_ROUNDS = 12
"""The cap of the sequential refinement: a decision is valued on at most ``EXTEND_ROUNDS``
batches of ``REFINE * samples`` fresh worlds (see :func:`_evaluate`)."""


def decision(played: Turn) -> Turn:
    """The decision the evaluator values for a turn, as the evaluation lists it: a peek
    turn is its bare play (peeks are not valued: see :mod:`tenleave_widget.analysis.lookahead`); a
    rotation of another queue after the play is the same decision as before it.

    >>> decision(Turn(1, "3*", 0, peek=(1, 2))).to_json()
    {'seat': 1, 'play': ['3*', 0]}
    """
    if played.peek is not None:
        return Turn(played.seat, played.card, played.queue)
    if played.rotate is not None and played.extra == AFTER and played.rotate != played.queue:
        return played._replace(extra=BEFORE)
    return played


def _values(ev: Mapping[str, Any], objective: str) -> list[_Value]:
    out = []
    for m in ev["moves"]:
        if objective == "margin":
            cost = float(m["expected_margin"])
            costs: list[float] = [float(x) for x in m["margin_samples"]]
        else:
            cost = 1.0 - float(m["win_probability"])
            costs = [1.0 - x for x in m["win_samples"]]
        out.append(_Value(Turn.from_json(m["turn"]), float(m["expected_final_penalty"]), cost,
                          costs))
    return out


SLICE_MS = 5.0
"""A judging's slice (:func:`judge_steps`): it pauses after this much evaluation."""


def _slices(ev: Evaluation) -> Generator[None, None, MoveValues]:
    """An evaluation run to its end a slice per ``next`` (the same figures however it is
    sliced: :class:`~tenleave_widget.analysis.lookahead.Evaluation`); its result."""
    while not ev.advance(SLICE_MS):
        yield
    return ev.result()


def _to_end(steps: Generator[None, None, T]) -> T:
    """A generator's return value, all its steps run now."""
    while True:
        try:
            next(steps)
        except StopIteration as end:
            return cast(T, end.value)


def _evaluate(
    view: Mapping[str, Any], played: Turn, samples: int, seed: int, objective: str,
    deal: Deal | None = None,
) -> _Judged:
    """:func:`_evaluate_steps` run to its end."""
    return _to_end(_evaluate_steps(view, played, samples, seed, objective, deal))


def _evaluate_steps(
    view: Mapping[str, Any], played: Turn, samples: int, seed: int, objective: str,
    deal: Deal | None = None,
) -> Generator[None, None, _Judged]:
    """The evaluator seam, a slice of evaluation per ``next`` (the lookahead's
    :class:`~tenleave_widget.analysis.lookahead.Evaluation`, as in its ``evaluate_view``):
    the decisions of the seat to move valued from its view by
    :func:`~tenleave_widget.analysis.lookahead.evaluate_view` (sampled worlds played out to the
    end, common random numbers), in three stages:

    1. *screen*: every distinct decision on ``samples`` worlds (the forced test, and which
       decisions are worth a closer look);
    2. *refine*: the played decision and the screen's :data:`REFINE_TOP` best on
       ``REFINE * samples`` fresh worlds. The loss is measured here: choosing the best on
       one set of worlds and measuring it on another avoids the winner's curse (the
       minimum of noisy means is biased low);
    3. *extend* (sequential refinement): while the played decision's paired 95% loss
       interval against the best contains a label bound (:data:`THRESHOLDS`), another
       ``REFINE * samples`` fresh worlds, up to :data:`EXTEND_ROUNDS` batches in all, for
       the played decision, the best, and every decision that may still be the best (its
       paired interval against the best reaches 0) — the same worlds for all of them
       (common random numbers). A decision clearly worse than the best keeps the value of
       the batches it had. The label is then decided by an interval clear of every
       bound, or by the cap. A loss near a bound would otherwise flip label with the noise
       (the bounds are 0.25 to 4 points apart, the one-batch interval about ±0.3 to ±0.6
       points).

    ``deal``: the worlds' sampler (default: the uniform model; the inferred model's
    posterior with ``model="inferred"``, see :func:`judge_decision`).
    """
    key = decision(played)
    rng = random.Random(seed)
    ev = yield from _slices(Evaluation(view, samples, rng.getrandbits(32), per_world=True,
                                       deal=deal))
    screen = _values(ev, objective)
    at = [i for i, v in enumerate(screen) if v.turn == key]
    if not at:
        raise AssertionError(f"the evaluator did not value the played turn {played.to_json()}")
    order = sorted(range(len(screen)), key=lambda i: screen[i].cost)
    wanted = [key]
    seen = {tuple(screen[at[0]].costs)}  # a plain 5 and a marked 5 share their play-outs
    for i in order:
        if len(wanted) > REFINE_TOP:
            break
        sig = tuple(screen[i].costs)
        if sig not in seen:
            seen.add(sig)
            wanted.append(screen[i].turn)
    batch = REFINE * samples
    ev2 = yield from _slices(Evaluation(view, batch, rng.getrandbits(32), per_world=True,
                                        turns=[t.to_json() for t in wanted], reference=True,
                                        deal=deal))
    refined = _values(ev2, objective)
    ref_sum = float(ev2["reference"]["expected_final_penalty"]) * batch
    mine = [v.turn for v in refined].index(key)
    forced = _forced(screen, objective)
    rounds = 1
    while rounds < EXTEND_ROUNDS and not forced and _straddles(refined, mine, objective):
        best = _best_live(refined, mine)
        keep = [i for i in _live(refined, mine)
                if i in (mine, best) or _may_be_best(refined[i], refined[best])]
        ev3 = yield from _slices(Evaluation(
            view, batch, rng.getrandbits(32), per_world=True,
            turns=[refined[i].turn.to_json() for i in keep], reference=True, deal=deal))
        more = {v.turn: v for v in _values(ev3, objective)}
        refined = [_merge(v, more[v.turn]) if i in keep else v for i, v in enumerate(refined)]
        ref_sum += float(ev3["reference"]["expected_final_penalty"]) * batch
        rounds += 1
    return _Judged(screen, at[0], refined, mine, objective, ref_sum / len(refined[mine].costs))


def screen(
    k: int, view: Mapping[str, Any], *, samples: int | None = None, seed: int = 0,
    objective: str = "margin",
) -> Evaluation:
    """The first stage of :func:`judge_decision` for decision ``k`` from the mover's
    ``view`` (the *screen*: every decision valued on the same worlds, those the judging
    of that decision screens on), before any turn is chosen, as an
    :class:`~tenleave_widget.analysis.lookahead.Evaluation` to run in slices.
    :func:`screen_loss` then tells what a turn would lose on it: the coach's "Are you
    sure?" (:mod:`tenleave_widget.table.coach_check`)."""
    budget = _check_budget(samples, seed, objective)
    rng = random.Random(_turn_seed(seed, k))
    return Evaluation(view, budget, rng.getrandbits(32), per_world=True)


@dataclass(frozen=True)
class ScreenLoss:
    """What a turn loses on the screen (:func:`screen_loss`), in the objective's unit."""

    played: Turn
    best: Turn
    loss: float
    loss_ci95: tuple[float, float]
    forced: bool


def screen_loss(result: Mapping[str, Any], played: Turn,
                objective: str = "margin") -> ScreenLoss:
    """The loss of ``played`` against the best decision of a finished :func:`screen`
    (``result``: its ``result()``), with its paired 95% interval; ``forced`` when no
    decision was clearly worse than the best (the review then calls every move best).
    A screen estimate: the review's verdict refines it on more worlds.

    >>> from tenleave_widget import Game
    >>> g = Game(2, seed=3)
    >>> ev = screen(0, g.view(0), samples=4)
    >>> while not ev.advance():
    ...     pass
    >>> s = screen_loss(ev.result(), Turn(0, "5", 0))
    >>> s.loss >= 0 and s.best.seat == 0
    True
    """
    values = _values(result, objective)
    key = decision(played)
    mine = next(v for v in values if v.turn == key)
    top = min(values, key=lambda v: v.cost)
    loss, half = _paired(mine, top)
    if loss <= 0:
        top, loss, half = mine, 0.0, 0.0
    return ScreenLoss(played, top.turn, loss, (loss - half, loss + half),
                      _forced(values, objective))


def _may_be_best(v: _Value, best: _Value) -> bool:
    """Whether ``v`` may still be the best: its paired 95% interval against the best so far
    reaches 0."""
    d, half = _paired(v, best)
    return d - half <= 0


def _live(refined: Sequence[_Value], mine: int) -> list[int]:
    """The refined decisions valued on every world the played one was (the others were
    found clearly worse than the best and kept the value of their first batches)."""
    n = len(refined[mine].costs)
    return [i for i, v in enumerate(refined) if len(v.costs) == n]


def _best_live(refined: Sequence[_Value], mine: int) -> int:
    """The best of the decisions valued on all the played one's worlds (see :func:`_live`),
    the played one on a tie: the yardstick of the loss, paired with the played one."""
    return min(_live(refined, mine), key=lambda i: (refined[i].cost, i != mine, i))


def _merge(a: _Value, b: _Value) -> _Value:
    """One decision valued on the worlds of ``a`` and then those of ``b``."""
    na, nb = len(a.costs), len(b.costs)
    n = na + nb
    return _Value(a.turn, (a.expected_final_penalty * na + b.expected_final_penalty * nb) / n,
                  (a.cost * na + b.cost * nb) / n, [*a.costs, *b.costs])


def _straddles(refined: Sequence[_Value], mine: int, objective: str) -> bool:
    """Whether the played decision's paired 95% loss interval against the best refined
    decision contains a label bound (the label is not yet decided by the interval)."""
    best = _best_live(refined, mine)
    if best == mine:
        return False
    loss, half = _paired(refined[mine], refined[best])
    return any(loss - half < b < loss + half for b in THRESHOLDS[objective])


# --------------------------------------------------------------------------- judging


def _label(loss: float, objective: str) -> str:
    for name, bound in zip(LABELS, THRESHOLDS[objective], strict=False):
        if loss <= bound:
            return name
    return LABELS[-1]


def _accuracy(loss: float, objective: str) -> float:
    """100 for the best move, falling with the loss: ``100 * exp(-loss / scale)``."""
    return 100.0 * math.exp(-max(0.0, loss) / ACCURACY_SCALE[objective])


def _paired(a: _Value, b: _Value) -> tuple[float, float]:
    """``a.cost - b.cost`` and the half-width of its paired 95% interval over their common
    worlds."""
    _, half = mean_half_width([x - y for x, y in zip(a.costs, b.costs, strict=True)])
    return a.cost - b.cost, half


def _forced(screen: Sequence[_Value], objective: str) -> bool:
    """Forced: on the screen, no decision can be worse than the best by more than the
    "best" bound (its paired interval's upper end is within it)."""
    top = min(screen, key=lambda v: v.cost)
    tol = THRESHOLDS[objective][0]
    return all(d + h <= tol for d, h in (_paired(v, top) for v in screen))


def _judge(k: int, seat: int, played: Turn, j: _Judged,
           beta: dict[str, float] | None = None) -> TurnReview:
    objective = j.objective
    sc = j.screen
    forced = _forced(sc, objective)
    vals = j.refined
    best_i = _best_live(vals, j.refined_played)
    best = vals[best_i]
    mine = vals[j.refined_played]
    loss, half = _paired(mine, best)
    loss = max(0.0, loss)
    label = "best" if forced else _label(loss, objective)
    others = sorted(v.cost for i, v in enumerate(vals) if i != best_i)
    # a dropped decision (see _live) may show a lower mean on its fewer worlds: a tie
    gap = max(0.0, others[0] - best.cost) if others else 0.0
    return TurnReview(
        turn=k,
        seat=seat,
        played=played,
        expected_final_penalty=mine.expected_final_penalty,
        best=played if best_i == j.refined_played else best.turn,
        best_expected_final_penalty=best.expected_final_penalty,
        loss=loss,
        loss_ci95=(loss - half, loss + half),
        label=label,
        forced=forced,
        candidates=len(sc),
        gap=0.0 if forced else gap,
        reference=j.reference,
        beta=beta,
    )


def _turn_seed(seed: int, k: int) -> int:
    """The evaluator's seed for turn ``k``: a function of the review's seed and ``k`` only,
    so any one turn can be re-evaluated alone with the same result."""
    return random.Random(f"tenleave-review:{seed}:{k}").getrandbits(32)


def _summaries(
    n: int, turns: list[TurnReview], wakes: list[WakeLuck], objective: str, final: list[int]
) -> list[SeatSummary]:
    out = []
    for s in range(n):
        mine = [t for t in turns if t.seat == s]
        unforced = [t for t in mine if not t.forced]
        labels = {lab: sum(1 for t in mine if t.label == lab) for lab in LABELS}
        mean_loss = sum(t.loss for t in unforced) / len(unforced) if unforced else None
        acc = (
            sum(_accuracy(t.loss, objective) for t in unforced) / len(unforced)
            if unforced else None
        )
        out.append(SeatSummary(
            seat=s,
            mean_loss=mean_loss,
            labels=labels,
            luck=sum(w.luck[s] for w in wakes),
            accuracy=acc,
            decisions=len(mine),
            unforced=len(unforced),
            cost=sum(t.cost for t in mine),
            start_expected=mine[0].reference if mine else None,
            final_penalty=final[s],
        ))
    return out


@dataclass(frozen=True)
class Decision:
    """One decision of a record, the unit of a review's work: the turn's index, the
    mover's view just before it (all the evaluation may see) and the turn played.

    :func:`judge_decision` judges it, a pure function of the decision, the budget and the
    seed: a batch review (:mod:`tenleave_widget.programs.class_review`) runs the decisions
    of many games on many processes with the same results as :func:`review`.
    """

    turn: int
    view: View
    played: Turn


def decisions(record: RecordSource | Game, *, history: bool = False) -> list[Decision]:
    """The decisions of a record, in order (the record checked first, see :func:`_load`).
    ``history``: each view with its public history (what the inferred model reads:
    :func:`~tenleave_widget.analysis.infer.with_history`).

    >>> from tenleave_widget import Game
    >>> g = Game(["Ana", "Ben"], seed=3)
    >>> g.apply({"seat": 0, "play": ["5", 0]})
    >>> [(d.turn, d.played.seat, d.view["seat"]) for d in decisions(g)]
    [(0, 0, 0)]
    """
    g, turns, _, _ = _load(record)
    out = []
    for k, t in enumerate(turns):
        # a view with its history is a View with one more key (docs/view.md)
        view = cast(View, with_history(g, t.seat)) if history else g.view(t.seat)
        out.append(Decision(k, view, t))
        g.apply(t)
    return out


def judge_decision(
    d: Decision, *, samples: int | None = None, seed: int = 0, objective: str = "margin",
    model: str = "uniform", beta: float | str = "fitted",
) -> TurnReview:
    """One decision judged from the mover's view (the turn of a :func:`review` with the
    same budget, seed, objective and model, which calls this function for each of its
    turns). ``model="inferred"`` needs the decision's view with its public history
    (``decisions(record, history=True)``): its worlds are dealt from the posterior of
    what the other players' choices so far suggest
    (:class:`~tenleave_widget.analysis.reader.Belief`, ``beta`` per opponent or
    ``"fitted"``), and the judged turn keeps the betas read."""
    return _to_end(judge_steps(d, samples=samples, seed=seed, objective=objective,
                               model=model, beta=beta))


def judge_steps(
    d: Decision, *, samples: int | None = None, seed: int = 0, objective: str = "margin",
    model: str = "uniform", beta: float | str = "fitted",
) -> Generator[None, None, TurnReview]:
    """:func:`judge_decision` a slice of evaluation per ``next`` (about :data:`SLICE_MS`):
    a background job that takes turns with others in one thread (the coach,
    :mod:`tenleave_widget.table.coach`); its result is :func:`judge_decision`'s."""
    budget = _check_budget(samples, seed, objective, model, beta)
    turn_seed = _turn_seed(seed, d.turn)
    if model == "uniform":
        j = yield from _evaluate_steps(d.view, d.played, budget, turn_seed, objective)
        return _judge(d.turn, d.played.seat, d.played, j)
    if "history" not in d.view:
        raise SetupError("the inferred model reads the public history: judge the decisions "
                         "of decisions(record, history=True)")
    plain = {k: v for k, v in d.view.items() if k != "history"}
    belief = Belief(d.view, beta, turn_seed)
    j = yield from _evaluate_steps(plain, d.played, budget, turn_seed, objective,
                                   dealer(plain, belief.sample))
    return _judge(d.turn, d.played.seat, d.played, j, belief.beta)


def assemble_review(
    record: RecordSource | Game,
    judged: Sequence[TurnReview],
    *,
    samples: int | None = None,
    seed: int = 0,
    objective: str = "margin",
    model: str = "uniform",
    beta: float | str = "fitted",
) -> Review:
    """The review of a record from its judged decisions (:func:`judge_decision`, in the
    order of :func:`decisions`): the luck of every swat and each seat's summary added."""
    budget = _check_budget(samples, seed, objective, model, beta)
    g, turns, notes, _ = _load(record)
    if [(t.turn, t.seat) for t in judged] != [(k, t.seat) for k, t in enumerate(turns)]:
        raise SetupError("the judged decisions are not those of the record, in order")
    wakes: list[WakeLuck] = []
    for k, t in enumerate(turns):
        before = g.copy()
        g.apply(t)
        wakes.extend(_turn_luck(before, t, g, k))
    seats = _summaries(g.seats, list(judged), wakes, objective, g.penalty)
    return Review(list(g.players), objective, list(judged), wakes, seats, budget, seed, notes,
                  model, beta if model != "uniform" else "fitted")


def _check_budget(samples: int | None, seed: int, objective: str, model: str = "uniform",
                  beta: object = "fitted") -> int:
    """The budget per decision (``samples`` or the default), the arguments checked."""
    if model not in MODELS:
        raise SetupError(f"model must be one of {', '.join(MODELS)}, not {excerpt(model)}")
    if beta != "fitted" and (isinstance(beta, bool) or not isinstance(beta, (int, float))
                             or not 0 <= beta < math.inf):
        raise SetupError(f"beta must be a number >= 0 or 'fitted', not {excerpt(beta)}")
    if samples is not None and (type(samples) is not int or not 1 <= samples <= MAX_SAMPLES):
        raise SetupError(
            f"samples must be a whole number 1..{MAX_SAMPLES}, not {excerpt(samples)} "
            "(each world takes about 2 KB of memory)"
        )
    if type(seed) is not int:
        raise SetupError(f"seed must be an integer, not {excerpt(seed)}")
    if objective not in OBJECTIVES:
        raise SetupError(
            f"objective must be one of {', '.join(OBJECTIVES)}, not {excerpt(objective)}"
        )
    return samples if samples is not None else DEFAULT_SAMPLES


def review(
    record: RecordSource | Game,
    *,
    samples: int | None = None,
    seed: int = 0,
    objective: str = "margin",
    progress: Progress | None = None,
    model: str = "uniform",
    beta: float | str = "fitted",
) -> Review:
    """Review every decision and every swat of a record (an object, a path, or a game).

    ``samples``: worlds sampled per decision (default :data:`DEFAULT_SAMPLES`);
    ``seed``: the same seed gives the same review; ``objective``: what a loss is measured
    in (:data:`OBJECTIVES`). ``model``: which model of the cards the mover cannot see
    judges each decision — ``"uniform"`` (the rules alone, the default) or
    ``"inferred"`` (what the other players' choices so far suggest, ``beta`` per
    opponent or ``"fitted"``; see the README's "When the judge reads the players"). The
    luck of the swats is the uniform model's either way. ``progress(done, total)`` is called
    after each turn. An invalid record raises :class:`InvalidRecordError` naming the turn,
    before any evaluation. The work is :func:`review_steps`, run to its end.
    """
    steps = review_steps(record, samples=samples, seed=seed, objective=objective,
                         progress=progress, model=model, beta=beta)
    while True:
        try:
            next(steps)
        except StopIteration as end:
            return end.value  # type: ignore[no-any-return]


def review_steps(
    record: RecordSource | Game,
    *,
    samples: int | None = None,
    seed: int = 0,
    objective: str = "margin",
    progress: Progress | None = None,
    model: str = "uniform",
    beta: float | str = "fitted",
) -> Generator[None, None, Review]:
    """:func:`review` one decision at a time: a generator that judges one of the record's
    :func:`decisions` (:func:`judge_decision`) per ``next``, calls ``progress(done,
    total)`` after each, and returns the :func:`assemble_review` of them all. Without
    threads (Pyodide) the review panel runs it a step per slice of the event loop, so the
    table answers between two decisions; the steps' result is :func:`review`'s.

    >>> from tenleave_widget import Game
    >>> g = Game(["Ana", "Ben"], seed=3)
    >>> g.apply({"seat": 0, "play": ["5", 0]})
    >>> steps = review_steps(g, samples=2, progress=lambda done, total: print(done, total))
    >>> next(steps)
    1 1
    >>> try:
    ...     next(steps)
    ... except StopIteration as end:
    ...     print(len(end.value.turns))
    1
    """
    _check_budget(samples, seed, objective, model, beta)
    obj = record.to_record() if isinstance(record, Game) else record_object(record)
    ds = decisions(obj, history=model == "inferred")
    judged: list[TurnReview] = []
    for d in ds:
        judged.append(judge_decision(d, samples=samples, seed=seed, objective=objective,
                                     model=model, beta=beta))
        if progress is not None:
            progress(d.turn + 1, len(ds))
        yield
    return assemble_review(obj, judged, samples=samples, seed=seed, objective=objective,
                           model=model, beta=beta)


# ------------------------------------------------------------------ saved with a record


def attach_review(record: Mapping[str, Any], result: Review) -> dict[str, Any]:
    """A copy of ``record`` with ``result`` as its optional ``review`` section (the record
    itself, notes included, unchanged). RULES.md §8 has readers ignore unknown top-level
    keys, so older readers still read the record; :func:`saved_review` reads it back.
    """
    out = dict(record)
    out["review"] = result.to_saved()
    return out


def saved_review(record: RecordSource) -> Review | None:
    """The review saved in a record's ``review`` section, or ``None`` when it has none.

    The section is validated like a record (:func:`check_saved`): every field of the
    right type, every number finite and in its range, every label the one its loss and
    :data:`THRESHOLDS` give, every best move legal in its position, the luck that of the
    record's swats. Anything else — a malformed section, an edited one, or the review of
    another game — is a :class:`RecordError` (naming the turn where one is at fault) that
    asks for a new review; nothing of the section is used unchecked.
    """
    obj = record_object(record)  # read once: the game and its review from the same text
    sec = obj.get("review")
    g, turns, notes, final = _load(obj)
    if sec is None:
        return None
    return check_saved(sec, g, turns, notes, final)


class _Bad(Exception):
    """A fault of a saved review (see :func:`check_saved`); ``turn``: the turn judged."""

    def __init__(self, what: str, turn: int | None = None) -> None:
        super().__init__(what)
        self.what, self.turn = what, turn


def _field(obj: Mapping[str, Any], key: str, where: str = "") -> Any:
    if key not in obj:
        raise _Bad(f"{where}{key!r} is missing")
    return obj[key]


def _number(value: object, what: str, low: float, high: float) -> float:
    """``value`` as a float if it is a JSON number (not a boolean, not a string) in
    ``[low, high]``: finite, and never converted before it is known to be small."""
    ok = (type(value) is int and low <= value <= high) or (
        type(value) is float and math.isfinite(value) and low <= value <= high
    )
    if not ok:
        raise _Bad(f"{what} must be a number from {low:g} to {high:g}, not {excerpt(value)}")
    return float(value)  # type: ignore[arg-type]  # an int or a float, checked


def _integer(value: object, what: str, low: int, high: int) -> int:
    if type(value) is not int or not low <= value <= high:
        raise _Bad(f"{what} must be an integer from {low} to {high}, not {excerpt(value)}")
    return value


def _saved_turn(raw: object, what: str) -> Turn:
    try:
        return Turn.from_json(raw)
    except TenLeaveError as e:
        raise _Bad(f"{what}: {e}") from None


SAVED_SAMPLES_LIMIT = 1_000_000
"""The largest ``samples`` a saved review may claim (worlds per decision)."""
SAVED_SEED_LIMIT = 10**20
"""A saved review's ``seed`` is an integer of magnitude below this (20 digits)."""
_TOL = 1e-9


def _close(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=_TOL, abs_tol=_TOL)


def check_saved(
    sec: object, start: Game, turns: Sequence[Turn], notes: dict[int, str], final: list[int]
) -> Review:
    """The :class:`Review` of a saved ``review`` section of the game of ``turns`` (from
    ``start``, its position before the first turn), every value checked; else a
    :class:`RecordError` asking for a new review. See :func:`saved_review`."""
    try:
        return _check_saved(sec, start.copy(), turns, notes, final)
    except _Bad as e:
        raise RecordError(f"'review': {e.what} (review the record again)", turn=e.turn) from None


def _check_saved(
    sec: object, g: Game, turns: Sequence[Turn], notes: dict[int, str], final: list[int]
) -> Review:
    if not isinstance(sec, dict):
        raise _Bad(f"it must be an object, not {excerpt(sec)}")
    if sec.get("format") != REVIEW_FORMAT:
        raise _Bad(f"'format' must be {REVIEW_FORMAT!r}, not {excerpt(sec.get('format'))}")
    objective = _field(sec, "objective")
    if objective not in OBJECTIVES:
        raise _Bad(f"unknown objective {excerpt(objective)}")
    samples = _integer(_field(sec, "samples"), "'samples'", 1, SAVED_SAMPLES_LIMIT)
    seed = _integer(_field(sec, "seed"), "'seed'", 1 - SAVED_SEED_LIMIT, SAVED_SEED_LIMIT - 1)
    model = sec.get("model", "uniform")
    if model not in MODELS or ("model" in sec) != (model != "uniform"):
        raise _Bad(f"unknown model {excerpt(model)}")
    beta: float | str = "fitted"
    if model != "uniform":
        raw_beta = _field(sec, "beta")
        beta = raw_beta if raw_beta == "fitted" else _number(raw_beta, "'beta'", 0.0, 1e9)
    elif "beta" in sec:
        raise _Bad("a review by the uniform model has no 'beta'")
    if _field(sec, "players") != g.players:
        raise _Bad("its players are not the record's")
    raw = _field(sec, "turns")
    if not isinstance(raw, list) or len(raw) != len(turns):
        n = len(raw) if isinstance(raw, list) else excerpt(raw)
        raise _Bad(f"it judges {n} turns, the record has {len(turns)}")
    # the most a seat can score: its dealt cards' values; a margin moves by twice that
    most = [sum(card_value(c) for c in dealt) for dealt in g.view(None)["dealt"]]
    judged = []
    for k, (tj, t) in enumerate(zip(raw, turns, strict=True)):
        try:
            judged.append(_check_turn(tj, k, t, g, objective, most[t.seat], model))
        except _Bad as e:
            raise _Bad(e.what, turn=k) from None
        g.apply(t)
    wakes = wake_luck(g.to_record())
    _check_wakes(_field(sec, "wakes"), wakes, g.seats)
    seats = _summaries(g.seats, judged, wakes, objective, final)
    _check_seats(_field(sec, "seats"), seats)
    return Review(list(g.players), objective, judged, wakes, seats, samples, seed, notes,
                  model, beta)


def _check_turn(
    tj: object, k: int, t: Turn, g: Game, objective: str, most: int, model: str = "uniform"
) -> TurnReview:
    """One saved judgement of turn ``k`` (``t``, played from ``g``'s position)."""
    if not isinstance(tj, dict):
        raise _Bad(f"a judged turn must be an object, not {excerpt(tj)}")
    if _field(tj, "turn") != k or type(tj["turn"]) is not int:
        raise _Bad(f"its turn {k} is numbered {excerpt(tj['turn'])}")
    if _field(tj, "seat") != t.seat or type(tj["seat"]) is not int:
        raise _Bad(f"its seat {excerpt(tj['seat'])} is not the seat that moved ({t.seat})")
    if _saved_turn(_field(tj, "played"), "'played'") != t:
        raise _Bad("the turn it judges is not the record's")
    best = _saved_turn(_field(tj, "best"), "'best'")
    if best.seat != t.seat or best not in g.legal_turns:
        raise _Bad(f"its best move {excerpt(tj['best'])} is not a legal turn of seat "
                   f"{t.seat} there")
    span = 2.0 * most if objective == "margin" else 1.0  # the largest possible loss
    now = g.penalty[t.seat]
    expected = _number(_field(tj, "expected_final_penalty"), "'expected_final_penalty'",
                       now, most)
    best_expected = _number(_field(tj, "best_expected_final_penalty"),
                            "'best_expected_final_penalty'", now, most)
    reference = _number(tj.get("reference", expected), "'reference'", now, most)
    loss = _number(_field(tj, "loss"), "'loss'", 0.0, span)
    ci = _field(tj, "loss_ci95")
    if not isinstance(ci, list) or len(ci) != 2:
        raise _Bad(f"'loss_ci95' must be a list of two numbers, not {excerpt(ci)}")
    lo = _number(ci[0], "'loss_ci95'", -2 * span, loss)
    hi = _number(ci[1], "'loss_ci95'", loss, 3 * span)
    if not _close(hi - loss, loss - lo):
        raise _Bad(f"'loss_ci95' {excerpt(ci)} is not centred on the loss {loss:g}")
    gap = _number(tj.get("gap", 0.0), "'gap'", 0.0, span)
    forced = _field(tj, "forced")
    if type(forced) is not bool:
        raise _Bad(f"'forced' must be true or false, not {excerpt(forced)}")
    label = _field(tj, "label")
    want = "best" if forced else _label(loss, objective)
    if label != want:
        raise _Bad(f"label {excerpt(label)} where its loss {loss:g} is {want!r}")
    if forced and gap != 0:
        raise _Bad("a forced decision has no gap")
    if best == t:
        if loss != 0 or (lo, hi) != (0, 0) or not _close(best_expected, expected):
            raise _Bad("the turn played is the best, yet it loses against it")
    elif best.peek is not None:
        raise _Bad("a best move other than the turn played never peeks (peeks are not "
                   "valued)")
    return TurnReview(
        turn=k, seat=t.seat, played=t, expected_final_penalty=expected, best=best,
        best_expected_final_penalty=best_expected, loss=loss, loss_ci95=(lo, hi),
        label=label, forced=forced, reference=reference, gap=gap,
        beta=_check_read(tj, t.seat, g.seats, model),
    )


def _check_read(tj: Mapping[str, Any], seat: int, seats: int,
                model: str) -> dict[str, float] | None:
    """A saved turn's betas read (the inferred model's: one number >= 0 per opponent of
    the mover; the uniform model's turns have none)."""
    if model == "uniform":
        if "beta" in tj:
            raise _Bad("a turn judged by the uniform model has no 'beta'")
        return None
    raw = _field(tj, "beta")
    opponents = [str(o) for o in range(seats) if o != seat]
    if not isinstance(raw, dict) or sorted(raw) != sorted(opponents):
        raise _Bad(f"'beta' must give a number per opponent ({', '.join(opponents)}), not "
                   f"{excerpt(raw)}")
    return {o: _number(raw[o], "'beta'", 0.0, 1e9) for o in opponents}


def _check_wakes(raw: object, wakes: Sequence[WakeLuck], seats: int) -> None:
    """The saved luck of every swat is the record's (it is recomputed, exactly)."""
    if not isinstance(raw, list) or len(raw) != len(wakes):
        raise _Bad("its luck is not that of the record's swats")
    for w, wj in zip(wakes, raw, strict=True):
        if not isinstance(wj, dict) or wj.get("turn") != w.turn or wj.get("kind") != w.kind:
            raise _Bad("its luck is not that of the record's swats", turn=w.turn)
        luck = wj.get("luck")
        if not isinstance(luck, list) or len(luck) != seats or not all(
            _close(_number(x, "'luck'", -1e6, 1e6), y) for x, y in zip(luck, w.luck, strict=True)
        ) or ("actual" in wj and wj["actual"] != w.actual):
            raise _Bad("its luck is not that of the record's swats", turn=w.turn)


def _check_seats(raw: object, seats: Sequence[SeatSummary]) -> None:
    """The saved per-seat summary is the one its judgements give."""
    if not isinstance(raw, list) or len(raw) != len(seats):
        raise _Bad("its seat summaries are not those of its judgements")
    for s, sj in zip(seats, raw, strict=True):
        want = s.to_json()
        if not isinstance(sj, dict) or set(want) - set(sj) or any(
            not _same(sj[key], value) for key, value in want.items()
        ):
            raise _Bad(f"its summary of seat {s.seat} is not that of its judgements")


def _same(saved: object, value: object) -> bool:
    if isinstance(value, float):
        return isinstance(saved, (int, float)) and not isinstance(saved, bool) and _close(
            _number(saved, "a number", -1e9, 1e9), value)
    return type(saved) is type(value) and saved == value


# --------------------------------------------------------------------------- puzzles


@dataclass
class Puzzle:
    """A position of a reviewed game where one decision was clearly best: the seat to
    move at turn ``turn``, the game so far (``record``: a ``tenleave-record/1`` of the first
    ``turn`` turns, to load into a widget), the ``best`` decision and by how much it beat
    the next best (``gap``), and what was played there (with its ``loss``)."""

    turn: int
    seat: int
    record: dict[str, Any]
    best: Turn
    gap: float
    played: Turn
    loss: float
    objective: str = "margin"

    def judge(self, turn: Turn | Mapping[str, Any], *, samples: int | None = None,
              seed: int = 0) -> dict[str, Any]:
        """Judge a student's answer (a :class:`Turn` or record turn object of the seat to
        move): ``{"best": bool, "loss": points, "loss_ci95": [lo, hi], "text"}``. The
        answer is valued against the best on the same fresh worlds (``REFINE * samples``)
        from the seat's view."""
        t = Turn.from_json(dict(turn)) if isinstance(turn, Mapping) else turn
        g = Game.from_record(self.record)
        if t not in g.legal_turns:
            raise SetupError(f"{turn_text(t, words=True)} is not a legal turn of seat "
                             f"{self.seat} here")
        answer, best = decision(t), decision(self.best)
        unit = "points" if self.objective == "margin" else "of win probability"
        if answer == best:
            return {"best": True, "loss": 0.0, "loss_ci95": [0.0, 0.0],
                    "text": f"{turn_text(t, words=True)}: the best move, better than the "
                            f"next best "
                            f"by {self.gap:.2f} {unit}."}
        budget = REFINE * (samples if samples is not None else DEFAULT_SAMPLES)
        ev = evaluate_view(g.view(self.seat), budget, seed, per_world=True,
                           turns=[best.to_json(), answer.to_json()])
        vals = {v.turn: v for v in _values(ev, self.objective)}
        loss, half = _paired(vals[answer], vals[best])
        label = _label(max(0.0, loss), self.objective)
        return {"best": False, "loss": loss, "loss_ci95": [loss - half, loss + half],
                "text": f"{turn_text(t, words=True)}: {label} — "
                        f"{turn_text(self.best, words=True)} was better "
                        f"by {loss:.2f} {unit} (95% interval {loss - half:.2f} to "
                        f"{loss + half:.2f})."}


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
                          result.objective))
    return out


# --------------------------------------------------------------------------- evaluate

def evaluation_table(ev: Mapping[str, Any], players: Sequence[str] | None = None) -> str:
    """The ``tenleave evaluate`` JSON (:func:`tenleave_widget.evaluate`) as a readable
    table: one line per move, sorted best first, the best starred; turns counted from 1 as
    on the table (the JSON's ``turn`` is the number of turns applied).

    >>> ev = {"seat": 1, "turn": 16, "samples": 8, "objective": "margin", "best": 0,
    ...       "moves": [{"turn": {"seat": 1, "play": ["3*", 0]}, "expected_final_penalty": 7.25,
    ...                  "ci95": [6.1, 8.4], "expected_margin": 0.125,
    ...                  "margin_ci95": [-2.1, 2.35], "win_probability": 0.25,
    ...                  "immediate_expected_penalty": 1.95, "samples": 8}],
    ...       "not_valued": [{"action": "peek", "reason": "not valued"}]}
    >>> print(evaluation_table(ev, ["Ana", "Ben", "Cy"]))
    Ben to move on turn 17 (after 16 turns played); up to 8 sampled worlds per move
    margin: Ben's final penalty minus the others' mean (lower is better)
    move                    margin [95% CI]         final penalty [95% CI]    wins  one swat
    3* q1 *best             +0.12 [-2.10, +2.35]    7.25 [6.10, 8.40]          25%      1.95
    not valued: peek (not valued)
    """
    seat = int(ev["seat"])
    name = players[seat] if players is not None and 0 <= seat < len(players) else f"seat {seat}"
    done = int(ev["turn"])
    lines = [f"{name} to move on turn {done + 1} (after {done} turns played); up to "
             f"{ev['samples']} sampled worlds per move",
             f"margin: {name}'s final penalty minus the others' mean (lower is better)",
             f"{'move':<23} {'margin [95% CI]':<23} {'final penalty [95% CI]':<24} "
             f"{'wins':>5}  {'one swat':>8}"]
    best = ev.get("best")
    moves = list(enumerate(ev["moves"]))
    moves.sort(key=lambda im: (im[0] != best, im[1]["expected_margin"]))
    for i, m in moves:
        move = turn_text(Turn.from_json(m["turn"])) + (" *best" if i == best else "")
        lo, hi = m["margin_ci95"]
        flo, fhi = m["ci95"]
        margin = f"{m['expected_margin']:+.2f} [{lo:+.2f}, {hi:+.2f}]"
        final = f"{m['expected_final_penalty']:.2f} [{flo:.2f}, {fhi:.2f}]"
        lines.append(f"{move:<23} {margin:<23} {final:<24} {m['win_probability']:>5.0%}  "
                     f"{m['immediate_expected_penalty']:8.2f}")
    for nv in ev.get("not_valued", []):
        lines.extend(textwrap.wrap(f"not valued: {nv['action']} ({nv['reason']})", 100,
                                   subsequent_indent="  "))
    return "\n".join(lines)
