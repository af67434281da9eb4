"""The coach's "Are you sure?" (``coach="before"``): a turn checked before it ends.

While a human seat thinks, the one analysis of its position
(:func:`~tenleave_widget.analysis.analyse.analyse`, with the review's budget and seed:
the analysis the verdict will read) runs in the background, in slices (:mod:`..tasks`),
and never blocks the table. When the seat presses *End turn*, what its turn loses against
the analysis's best (its paired interval) is compared with the threshold,
:data:`ASK_LOSS` by default (a loss above it is a *mistake* or a *blunder*): above it,
the table asks first. The loss is the verdict's (:func:`~tenleave_widget.analysis.analyse.judge`,
refined on more worlds where it straddles a label bound), so the question and the verdict
that follows the turn (as with ``coach="after"``) give the same figures.

*Not ready yet?* The table never waits for the coach: a turn ended before its screen is
done is played at once, and the seat is told the coach had no time to check it (its
verdict still follows).

>>> from tenleave_widget import Game
>>> from tenleave_widget.engine.turn import Turn
>>> g = Game(2, seed=3)
>>> c = CoachCheck(samples=4)
>>> job = c.want(0, 0, g.view(0))
>>> for _ in job:
...     pass
>>> c.want(0, 0, g.view(0)) is None      # already screened
True
>>> loss = c.loss(0, 0, Turn(0, "5", 0))
>>> loss is not None and loss.loss >= 0
True
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Generator
from typing import Any, cast

from ...analysis.analyse import Analysis, analyse_steps, decision_key, judge, settings_for
from ...analysis.review import (
    DEFAULT_SAMPLES,
    THRESHOLDS,
    ScreenLoss,
    turn_text,
)
from ...analysis.review.text import decision_text
from ...engine.turn import Turn
from ...engine.view import View
from .. import tasks
from ..protocol import CoachAsk
from ..words.coach import ask_text

__all__ = ["ASK_LOSS", "CheckRunner", "CoachCheck", "ask_words", "equal_words"]

log = logging.getLogger(__name__)

ASK_LOSS = THRESHOLDS["margin"][2]
"""The default threshold of the question: the review's upper bound of an *inaccuracy*
(2 points of margin): a turn that loses more on the screen is a mistake or a blunder."""

def equal_words(a: Analysis) -> list[str]:
    """The decisions about as good as the best of analysis ``a``, in words, best first
    (each once), where ``a`` has no separated best (no ★); ``[]`` where it has one.

    >>> from tenleave_widget import Game
    >>> from tenleave_widget.analysis.analyse import analyse, settings_for
    >>> a = analyse(Game(2, seed=3).view(0), settings_for(4))
    >>> equal_words(a) == [] if a["star"] else len(equal_words(a)) > 1
    True
    """
    if a["star"]:
        return []
    words: list[str] = []
    for i in a["equal"]:
        text = decision_text(a["decisions"][i], words=True)
        if text not in words:
            words.append(text)
    return words if len(words) > 1 else []


def ask_words(s: ScreenLoss, equal: list[str] | None = None,
              view: View | None = None) -> CoachAsk:
    """The question in a student's words (``equal``: :func:`equal_words` of the analysis;
    ``view``: the seat's view before the turn, to name a card a rotation moves where the
    seat knows it), and the analyst's detail.

    >>> s = ScreenLoss(Turn(0, "5", 0), Turn(0, "2", 1), 2.44, (1.9, 3.0), False)
    >>> ask_words(s)["text"]
    'Are you sure? Instead: 2 on queue 2, about 2 points better.'
    >>> s = ScreenLoss(Turn(0, "5", 0), Turn(0, "5", 0, rotate=0, extra="after"), 4.2,
    ...                (3.5, 4.9), False)
    >>> ask_words(s)["text"]
    'Are you sure? Then rotate queue 1 (its front card goes to the back), about 4 points better.'
    """
    better = turn_text(s.best, words=True)
    played = turn_text(s.played, words=True)
    lo, hi = s.loss_ci95
    return {
        "text": ask_text(s.played, s.best, s.loss, equal or [], view),
        "detail": (f"{played}: {s.loss:.2f} points of expected margin worse than {better} "
                   f"(95% interval {lo:.2f} to {hi:.2f}), in the analysis of every move."),
    }


class CoachCheck:
    """The screen of the decision a human seat is thinking about (one at a time), and
    the threshold of the question. Pure: the controller runs :meth:`want`'s job."""

    def __init__(self, samples: int | None = None, seed: int = 0,
                 threshold: float = ASK_LOSS) -> None:
        self.samples = DEFAULT_SAMPLES if samples is None else samples
        self.seed = seed
        self.threshold = threshold
        self.key: tuple[int, int, Any] | None = None
        """The decision screened or being screened: (turn, seat, its view)."""
        self.result: Analysis | None = None
        """The analysis of the position once done."""

    def want(self, k: int, seat: int, view: View
             ) -> Generator[None, None, None] | None:
        """Screen decision ``k`` of ``seat`` (``view``: its view just before it): the
        job to run in the background, or ``None`` when it is screened or under way."""
        key = (k, seat, view)
        if self.key == key:
            return None
        self.key, self.result = key, None
        return self._job(key, view)

    def _job(self, key: tuple[int, int, Any], view: View
             ) -> Generator[None, None, None]:
        steps = analyse_steps(view, settings_for(self.samples), seed=self.seed)
        while True:
            if self.key is not key:
                return  # another decision is wanted now
            try:
                next(steps)
            except StopIteration as end:
                if self.key is key:
                    self.result = end.value
                return
            yield

    def loss(self, k: int, seat: int, turn: Turn) -> ScreenLoss | None:
        """What ``turn`` (decision ``k`` of ``seat``) loses in the analysis of its
        position: the verdict's loss and paired interval against the best (the verdict
        that follows the turn gives the same; none where the verdict calls the turn best,
        as it does a move about as good as the best), or ``None`` when the analysis is
        not done.
        A peek first is the peek, from the analysis: the play after it is not chosen yet
        when the seat decides to look."""
        if self.key is None or self.key[:2] != (k, seat) or self.result is None:
            return None
        a = self.result
        key = decision_key(self.key[2], turn.to_json())
        mine = next(d for d in a["decisions"] if d["key"] == key)
        top = a["decisions"][0]
        if mine["group"] == top["group"]:
            return ScreenLoss(turn, turn, 0.0, (0.0, 0.0), a["forced"])
        if mine["kind"] != "peek first":
            # the verdict that follows the turn: its figures, refined where they straddle
            # a label bound (cached, so the verdict after the turn is this one)
            v = judge(self.key[2], turn.to_json(), settings_for(self.samples), seed=self.seed)
            if v["label"] == "best":  # about as good as the best: the verdict says so
                return ScreenLoss(turn, turn, 0.0, (0.0, 0.0), a["forced"])
            lo, hi = v["loss_ci95"]
            return ScreenLoss(turn, Turn.from_json(top["turn"]), v["loss"], (lo, hi),
                              a["forced"])
        loss = max(0.0, mine["vs_best"])
        half = (mine["vs_best_ci95"][1] - mine["vs_best_ci95"][0]) / 2
        return ScreenLoss(turn, Turn.from_json(top["turn"]), loss, (loss - half, loss + half),
                          a["forced"])

    def equal(self, k: int, seat: int) -> list[str]:
        """:func:`equal_words` of the analysis of decision ``k`` of ``seat`` (``[]`` while
        it is not done)."""
        if self.key is None or self.key[:2] != (k, seat) or self.result is None:
            return []
        return equal_words(self.result)

    def view(self, k: int, seat: int) -> View | None:
        """The view screened for decision ``k`` of ``seat``, or ``None``."""
        if self.key is None or self.key[:2] != (k, seat):
            return None
        return cast(View, self.key[2])

    def asks(self, s: ScreenLoss) -> bool:
        """Whether the table asks "Are you sure?" about a turn that loses ``s``: more
        than the threshold, and clearly more than nothing (the low end of its 95%
        interval above 0: the screen's few worlds do not raise a false alarm as often)."""
        return not s.forced and s.loss > self.threshold and s.loss_ci95[0] > 0

    def forget(self) -> None:
        """Drop the screen (the line changed, or the coach was turned off)."""
        self.key, self.result = None, None



Wanted = tuple[int, int, View]
"""A decision to screen: (turn, seat, the seat's view just before it)."""


class CheckRunner:
    """Runs the screen of the decision ``wants()`` names (:meth:`CoachCheck.want`) in the
    worker thread a chunk at a time (:func:`..tasks.chunk`: it takes turns there with the
    panel, the bots and the verdicts; slices on the loop where there are no threads)
    while a loop runs; without a running loop (a script), at once. A screen no longer
    wanted stops at its next slice."""

    def __init__(self, check: CoachCheck, wants: Callable[[], Wanted | None]) -> None:
        self.check = check
        self.wants = wants
        self.task: tasks.Task[tuple[bool, None]] | None = None

    def kick(self) -> None:
        """Start screening the decision wanted now, unless it is screened or under way."""
        wanted = self.wants()
        if wanted is None:
            return
        job = self.check.want(*wanted)
        if job is None:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            for _ in job:
                pass
            return
        self._chunk(loop, job)

    def _chunk(self, loop: asyncio.AbstractEventLoop, job: Generator[None, None, None]) -> None:
        task = self.task = tasks.run(loop, tasks.chunk(job, tasks.CHUNK_MS))
        task.future.add_done_callback(lambda _f: self._done(task, loop, job))

    def _done(self, task: tasks.Task[tuple[bool, None]], loop: asyncio.AbstractEventLoop,
              job: Generator[None, None, None]) -> None:
        if self.task is task:
            self.task = None
        try:
            ended, _ = task.wait()
        except Exception:  # noqa: BLE001 - no check: the turn will pass unasked
            log.exception("the coach could not check a decision")
            return
        if not ended:
            self._chunk(loop, job)  # the rest (it ends at once if no longer wanted)
