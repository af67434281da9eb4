"""The coach at the table: a human seat's every decision judged as it is played.

With ``coach="after"`` (:func:`~tenleave_widget.widget.entry.play`, ``hotseat``), when a
human seat ends its turn, the turn is judged from that seat's view just before it by the
review's own code (:func:`~tenleave_widget.analysis.review.judge_decision`, with the review's
seed and budget: a coached game's verdicts are those of the review of its record). The
judging takes seconds, so it runs in the background (:mod:`..tasks`); the verdict then
joins :attr:`Coach.verdicts` and is told in words to that seat only — in the turn's
narration and the message line, never behind the hot-seat cover or to another seat. A
verdict names the turn played and the best one (the seat's own cards and the table's
queues and positions: nothing the seat could not see) and numbers computed from its view.

>>> from tenleave_widget import Game
>>> from tenleave_widget.engine.turn import Turn
>>> c = Coach("after", samples=4)
>>> g = Game(2, seed=3)
>>> c.ended(0, g.view(0), Turn(0, "5", 0))
>>> v = c.judge(c.queue[0])
>>> sorted(v)  # the verdict, the review's TurnReview of it, the moves as good
['best', 'equal', 'label', 'loss', 'loss_ci95', 'near', 'played', 'review', 'seat', 'turn']
>>> c.add(c.queue[0], v)
True
>>> [x["turn"] for x in c.verdicts], c.queue
([0], [])
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Generator
from typing import TypedDict

from ...analysis.analyse import analyse, analyse_steps, settings_for
from ...analysis.review import (
    DEFAULT_SAMPLES,
    LABELS,
    Decision,
    TurnReview,
    judge_decision,
    judge_steps,
    turn_text,
)
from ...analysis.review.results import _summaries
from ...engine.turn import Turn, TurnObject
from ...engine.view import View
from .. import tasks
from ..words.coach import label_text, tally_text, verdict_text
from .check import CoachCheck, equal_words

__all__ = ["COACH_MODES", "Coach", "CoachRunner", "Judged", "Tally", "Verdict", "tally_words",
           "verdict_words"]

log = logging.getLogger(__name__)

COACH_MODES = ("off", "after", "before")
"""The coach's settings: ``"off"``; ``"after"`` (each human decision judged once played);
``"before"``: as ``"after"``, and *End turn* first asks "Are you sure?" when the turn
loses more than a threshold (:mod:`.check`)."""

COACH_SEED = 0
"""The coach's review seed: the review's default, so that ``review(record)`` of a coached
game gives the verdicts the table gave."""


class Verdict(TypedDict):
    """A coached decision's verdict: the review's judged turn (:class:`TurnReview`) in
    record turns, what the table tells and keeps (``w.verdicts``)."""

    turn: int
    seat: int
    played: TurnObject
    """The record turn object played."""
    label: str
    near: str | None
    """The harshest label above ``label`` the loss's interval still reaches, or None (the
    review's)."""
    loss: float
    loss_ci95: list[float]
    best: TurnObject
    """The record turn object of the best decision (the one played when it was best)."""


class Judged(Verdict):
    """A verdict as the judging returns it, with the review's own judged turn and the
    decisions about as good as the best in words where the analysis has no separated
    best (:func:`~.check.equal_words`)."""

    review: TurnReview
    equal: list[str]


class Tally(TypedDict):
    """A seat's running tally (:meth:`Coach.tally`)."""

    seat: int
    decisions: int
    labels: dict[str, int]
    mean_loss: float | None
    accuracy: float | None


def verdict_words(v: Verdict, details: bool = False, equal: list[str] | None = None,
                  view: View | None = None) -> str:
    """A verdict in the table's words: what to do differently and about how many points
    it was worth (:func:`~..words.coach.verdict_text`; ``equal``: the moves about as good
    as the best where the analysis has no separated best; ``view``: the seat's view before
    the turn, to name a card a rotation moves where the seat knows it); with ``details``
    (the *Details* switch), the analyst's figure and its 95% interval. Where the loss's
    interval still reaches a harsher error label's bound (``near``), the words say it may
    be that (:func:`~..words.coach.label_text`).

    >>> v = {"label": "inaccuracy", "loss": 1.23, "loss_ci95": [0.9, 1.5],
    ...      "played": {"seat": 0, "play": ["3*", 0]}, "best": {"seat": 0, "play": ["5", 0]}}
    >>> verdict_words(v)
    'Coach: inaccuracy — Instead: 5 on queue 1, about 1 point better.'
    >>> verdict_words(v, details=True)
    'Coach: inaccuracy — 5 on queue 1 was better by 1.2 points (0.9 to 1.5).'
    >>> verdict_words({**v, "loss_ci95": [0.9, 2.3], "near": "mistake"}, details=True)
    'Coach: inaccuracy (maybe a mistake) — 5 on queue 1 was better by 1.2 points (0.9 to 2.3).'
    >>> verdict_words({"label": "best", "loss": 0.0, "loss_ci95": [0.0, 0.0],
    ...                "played": {"seat": 0, "play": ["3*", 0]},
    ...                "best": {"seat": 0, "play": ["3*", 0]}})
    'Coach: best — 3* on queue 1 was the best move.'
    """
    played_turn = Turn.from_json(dict(v["played"]))
    best_turn = Turn.from_json(dict(v["best"]))
    near = v.get("near")
    if not details:
        return verdict_text(v["label"], played_turn, best_turn, float(v["loss"]),
                            equal or [], view, near)
    played = turn_text(played_turn, words=True)
    best = turn_text(best_turn, words=True)
    if best == played:
        return f"Coach: {v['label']} — {played} was the best move."
    lo, hi = v["loss_ci95"]
    return (f"Coach: {label_text(v['label'], near)} — {best} was better by "
            f"{v['loss']:.1f} points ({lo:.1f} to {hi:.1f}).")


def tally_words(t: Tally, lead: str = "So far") -> str:
    """A seat's running tally (:meth:`Coach.tally`) in words.

    >>> tally_words({"decisions": 3, "labels": {"best": 2, "good": 0, "inaccuracy": 1,
    ...              "mistake": 0, "blunder": 0}, "accuracy": 81.4})
    'So far: 3 decisions — 2 best, 1 inaccuracy; accuracy 81 out of 100.'
    """
    return tally_text(lead, t["decisions"], t["labels"], t["accuracy"])


class Coach:
    """The verdicts of one table's human decisions (pure: :class:`CoachRunner` runs the
    judging). ``mode`` one of :data:`COACH_MODES`; ``samples`` the review's budget."""

    def __init__(self, mode: str = "off", samples: int | None = None) -> None:
        self.mode = mode
        self.samples = DEFAULT_SAMPLES if samples is None else samples
        self.seed = COACH_SEED
        self.verdicts: list[Verdict] = []
        """One per coached decision, in turn order: the review's unit (record turns)."""
        self.reviews: list[TurnReview] = []
        """The same decisions as the review's :class:`TurnReview` (for the tallies)."""
        self.queue: list[Decision] = []
        """Decisions ended and not yet judged, oldest first."""
        self.ties: dict[int, list[str]] = {}
        """Per verdict's turn, the moves about as good as the best in words where its
        analysis has no separated best (:func:`~.check.equal_words`)."""
        self.check = CoachCheck(self.samples, self.seed)
        """``"before"``: the screen of the decision a human seat is thinking about."""

    @property
    def on(self) -> bool:
        return self.mode != "off"

    def ended(self, k: int, view: View, turn: Turn, seen: int | None = None) -> None:
        """A human seat ended turn ``k`` (``view``: its view just before it; ``seen``: what
        a peek before its play showed it): the review's unit of work
        (:class:`~tenleave_widget.analysis.review.Decision`)."""
        if self.on:
            self.queue.append(Decision(k, view, turn, seen))

    def forget_from(self, k: int) -> None:
        """The turns from ``k`` on were taken back: so are their verdicts."""
        self.queue = [d for d in self.queue if d.turn < k]
        keep = [i for i, v in enumerate(self.verdicts) if v["turn"] < k]
        self.verdicts = [self.verdicts[i] for i in keep]
        self.reviews = [self.reviews[i] for i in keep]
        self.ties = {t: e for t, e in self.ties.items() if t < k}

    def judge(self, d: Decision) -> Judged:
        """The verdict of ``d`` (seconds of work: the review's evaluation of one turn)."""
        r = judge_decision(d, samples=self.samples, seed=self.seed)
        a = analyse(d.view, settings_for(self.samples), seed=self.seed)  # cached: at once
        return {"review": r, "equal": equal_words(a), **self.as_verdict(r)}

    def judge_steps(self, d: Decision) -> Generator[None, None, Judged]:
        """:meth:`judge` a slice of evaluation per ``next`` (the background job: it pauses
        between slices, so the loop's thread gets the interpreter; the same verdict)."""
        r = yield from judge_steps(d, samples=self.samples, seed=self.seed)
        # the analysis the verdict read (cached: at once)
        a = yield from analyse_steps(d.view, settings_for(self.samples), seed=self.seed)
        return {"review": r, "equal": equal_words(a), **self.as_verdict(r)}

    @staticmethod
    def as_verdict(r: TurnReview) -> Verdict:
        """A review's judged turn as a verdict (the keys of :attr:`verdicts`)."""
        return {"turn": r.turn, "seat": r.seat, "played": r.played.to_json(),
                "label": r.label, "near": r.near, "loss": r.loss,
                "loss_ci95": list(r.loss_ci95), "best": r.best.to_json()}

    def add(self, d: Decision, v: Judged) -> bool:
        """Keep the verdict of ``d`` unless ``d`` was taken back meanwhile; True if kept."""
        if d not in self.queue:
            return False
        self.queue.remove(d)
        self.verdicts.append(self.as_verdict(v["review"]))  # v less its "review"
        self.reviews.append(v["review"])
        self.ties[d.turn] = list(v["equal"])
        order = sorted(range(len(self.verdicts)), key=lambda i: self.verdicts[i]["turn"])
        self.verdicts = [self.verdicts[i] for i in order]
        self.reviews = [self.reviews[i] for i in order]
        return True

    def of_turn(self, k: int) -> Verdict | None:
        return next((v for v in self.verdicts if v["turn"] == k), None)

    def equal_of(self, k: int) -> list[str]:
        """The moves about as good as the best at the verdict of turn ``k`` (``[]``
        where its analysis has a separated best)."""
        return self.ties.get(k, [])

    def tally(self, seat: int) -> Tally:
        """``seat``'s running tally: decisions coached, the count of each label, and the
        review's mean loss and accuracy over its unforced decisions (``None`` before any).

        >>> Coach("after").tally(0)["labels"]["best"]
        0
        """
        s = _summaries(seat + 1, self.reviews, [], "margin", [0] * (seat + 1))[seat]
        return {"seat": seat, "decisions": s.decisions,
                "labels": {lab: s.labels[lab] for lab in LABELS},
                "mean_loss": s.mean_loss, "accuracy": s.accuracy}


class CoachRunner:
    """Judges a :class:`Coach`'s waiting decisions one at a time, in the worker thread a
    chunk at a time (:func:`..tasks.chunk`: one thread thinks at a time) while a loop
    runs, calling ``judged(verdict)`` on the loop for each kept verdict; without a
    running loop (a script), at once."""

    def __init__(self, coach: Coach, judged: Callable[[Judged], None]) -> None:
        self.coach = coach
        self.judged = judged
        self.task: tasks.Task[tuple[bool, Judged | None]] | None = None

    def kick(self) -> None:
        """Start judging the oldest waiting decision, unless one is under way."""
        if self.task is not None or not self.coach.queue:
            return
        d = self.coach.queue[0]
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            while self.coach.queue:
                d = self.coach.queue[0]
                v = self.coach.judge(d)
                if self.coach.add(d, v):
                    self.judged(v)
            return
        self._chunk(loop, d, self.coach.judge_steps(d))

    def _chunk(self, loop: asyncio.AbstractEventLoop, d: Decision,
               job: Generator[None, None, Judged]) -> None:
        """Run the next chunk of ``d``'s judging in the worker thread (see
        :func:`..tasks.chunk`: it takes turns there with the panel and the bots)."""
        task = self.task = tasks.run(loop, tasks.chunk(job, tasks.CHUNK_MS))
        task.future.add_done_callback(lambda _f: self._done(d, task, loop, job))

    def _done(self, d: Decision, task: tasks.Task[tuple[bool, Judged | None]],
              loop: asyncio.AbstractEventLoop,
              job: Generator[None, None, Judged]) -> None:
        try:
            ended, v = task.wait()
        except Exception:  # noqa: BLE001 - a failed verdict is dropped, the table goes on
            log.exception("the coach could not judge turn %d", d.turn)
            if d in self.coach.queue:
                self.coach.queue.remove(d)
        else:
            if not ended and d in self.coach.queue:
                self._chunk(loop, d, job)  # the rest of it, after the others' turns
                return
            if ended and v is not None and self.coach.add(d, v):
                self.judged(v)
        self.task = None
        self.kick()
