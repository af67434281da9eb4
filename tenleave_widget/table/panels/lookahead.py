"""The whole-game values of the moves panel, computed in slices while the player thinks.

The moves panel lists the mover's moves with the one-swat measure (the odds); this module
adds each move's **whole-game** value (:mod:`tenleave_widget.analysis.lookahead`: the expected
final penalty and the expected margin, each with its 95% interval) and marks the best move
by the measure the student chose (the panel's switch, ``{"kind": "measure"}``).

- *From a view only.* The evaluation is of the mover's view of the position on the table
  (the teacher's view shows the mover's moves from the mover's own view, as the odds do):
  never a game. Its seed comes from the position's public facts (game number, turns, seat,
  the steps taken this turn), so the same position gets the same numbers.
- *In slices, off the loop.* :class:`LookaheadFeed` holds one
  :class:`~tenleave_widget.analysis.lookahead.Evaluation`, which plays its worlds a slice at a time;
  in a notebook :class:`Thinker` runs the slices as a background job (:mod:`..tasks`: in
  a worker thread, or on the loop between messages where there are no threads, as
  under Pyodide) and publishes each chunk's figures on the kernel's event loop, which
  keeps handling messages meanwhile (``benchmarks/bench_widget_blocking.py`` measures
  how late it answers). The panel fills
  in as worlds come in (``worlds`` of ``target``).
- *Off unless a table runs it.* A session's feed starts disabled (the HTML export draws
  a session's panels without it); the widget's controller enables it.
- *Cancelled by position.* Any change of the position shown (a step, a turn, undo, goto, a
  perspective, another game) makes a new evaluation; the old one is dropped.

Waking is one row of the panel: its whole-game value is that of waking then the best play
(by margin) after the swat. Rotations and peeks are not listed (the panel lists plays and
waking, as the one-swat measure does).

>>> from tenleave_widget import Game
>>> from tenleave_widget.table.session.config import check_config
>>> from tenleave_widget.table.session.machine import Session
>>> g = Game(["Ana", "Ben", "Cy"], seed=1)
>>> s = Session(g, check_config(g, mode="play", humans=[0], bots={1: "greedy", 2: "random"}))
>>> s.lookahead.enabled, s.lookahead.budget = True, 8
>>> while not s.lookahead.advance(s, ms=10):
...     pass
>>> moves = s.state()["panels"]["moves"]
>>> moves["worlds"], moves["target"], moves["moves"][0]["margin"] is not None
(8, 8, True)
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Callable, Generator, Mapping
from typing import TYPE_CHECKING, Any, Protocol

from ...analysis.lookahead import DEFAULT_SAMPLES, Budget, Evaluation, EvaluationOptions
from ...analysis.move_values import MoveValues
from ...engine.turn import TurnObject, TurnStep
from .. import tasks
from .data import MoveChart, MovesChart, move_label

if TYPE_CHECKING:
    from ...engine.game import Game
    from ..session.config import Config

__all__ = [
    "CHUNK_MS", "MEASURES", "SLICE_MS", "LookaheadFeed", "LookaheadSession", "Thinker",
    "annotate",
]

log = logging.getLogger(__name__)

MEASURES = ("swat", "game")
"""The moves panel's measures: one swat ahead, or the whole game."""

SLICE_MS = 10.0
"""The slice of :meth:`LookaheadFeed.advance` by default (a script's ``think(ms)``)."""

YIELD_MS = 2.0
"""A chunk's slice: the job pauses after this much evaluation (see :func:`_chunk`)."""

CHUNK_MS = 120.0
"""How long the background job evaluates before the panel is updated (in a notebook)."""


class LookaheadSession(Protocol):
    """What the whole-game evaluation reads of a session (:class:`~..session.machine.Session` is
    one; a ``Protocol``, so that this module does not import the session, which imports it)."""

    config: Config
    pending: list[TurnStep]
    seat: int | None
    covered: bool
    show_odds: bool
    measure: str
    generation: int
    games: int

    @property
    def lookahead(self) -> LookaheadFeed: ...

    def current(self) -> Game: ...

    def shown(self) -> Game: ...


class LookaheadFeed:
    """One session's whole-game evaluation in progress (see the module docstring)."""

    def __init__(self, budget: int = 4 * DEFAULT_SAMPLES) -> None:
        self.enabled = False
        """Whether the whole-game values are computed (the widget turns this on)."""
        self.budget = budget
        """Worlds per position (more: narrower intervals, a longer fill)."""
        self._key: tuple[Any, ...] | None = None
        self._base: Game | None = None
        self.evaluation: Evaluation | None = None
        self.result: MoveValues | None = None
        """The figures last published (while ``busy``, the worker owns the evaluation)."""
        self.chunk: tasks.Task[MoveValues] | None = None
        """The chunk of the evaluation running in the background (:class:`Thinker`)."""
        self._parked: tuple[tuple[Any, ...], Game, Evaluation, MoveValues | None] | None = None
        """The evaluation of the position shown before (key, base, evaluation, figures
        shown): a turn previewed and taken back comes back to it where it was."""

    def _target(self, session: LookaheadSession) -> tuple[tuple[Any, ...], Game, int] | None:
        """What should be evaluated now: (key, base position, mover), or None."""
        if not self.enabled or session.covered or not session.show_odds:
            return None
        shown = session.shown()
        mover = shown.to_move
        if shown.finished or mover is None:
            return None
        if session.seat is not None and session.seat != mover:
            return None  # another seat's moves are shown only in its own view
        if any(s["kind"] == "play" for s in session.pending):
            return None
        pending = tuple(sorted(str(sorted(s.items())) for s in session.pending))
        key = (session.games, session.generation, shown.turns_applied, mover, pending,
               self.budget)
        return key, session.current(), mover

    def sync(self, session: LookaheadSession) -> None:
        """Follow the position on the table: a new evaluation when it changed."""
        target = self._target(session)
        if target is None:
            self._park()
            return
        key, base, mover = target
        if key == self._key and base is self._base:
            return
        self._park()
        parked = self._parked
        if parked is not None and parked[0] == key and parked[1] is base:
            # the position shown before (a previewed turn taken back): its evaluation goes
            # on where it was, and the panel shows the figures it showed until the next
            # chunk or slice (the same seed: the same worlds as a new evaluation plays)
            self._key, self._base, self.evaluation, self.result = parked
            self._parked = None
            if self.evaluation.done:  # no chunk to come: its final figures now
                self.result = None
            return
        shown = session.shown()
        view = shown.view(mover)  # the mover's view: the evaluator never sees a game
        seed = random.Random(
            f"tenleave-panel/{session.config.seed}/{key[0]}/{key[2]}/{mover}/{key[4]}"
        ).getrandbits(64)
        turns: list[TurnObject] | None = None
        if session.pending:  # after a peek or a wake, only plain plays are legal
            cap = view["queue_capacity"]
            turns = [{"seat": mover, "play": [c, q]}
                     for c in sorted(set(view["hands"][mover]["cards"] or []))
                     for q, queue in enumerate(view["queues"]) if len(queue) < cap]
        self._key, self._base = key, base
        self.result = None
        self.evaluation = Evaluation(view, Budget(samples=self.budget), seed,
                                     options=EvaluationOptions(rotations=False, turns=turns))

    def _park(self) -> None:
        """Put the current evaluation aside (one is kept: the last position shown)."""
        if self._key is not None and self._base is not None and self.evaluation is not None:
            self._parked = (self._key, self._base, self.evaluation, self.result)
        self._key, self._base, self.evaluation, self.result = None, None, None, None

    def advance(self, session: LookaheadSession, ms: float = SLICE_MS) -> bool:
        """Play worlds for about ``ms`` milliseconds; True when nothing is left to do.
        (A chunk under way in the background is finished first.)"""
        if self.chunk is not None:
            chunk, self.chunk = self.chunk, None
            chunk.wait()
        self.sync(session)
        ev = self.evaluation
        if ev is None:
            return True
        if not ev.done:
            ev.advance(ms)
            self.result = None
        return ev.done

    def figures(self) -> MoveValues | None:
        """The evaluation's figures so far, or None before the first world (while a
        chunk runs in the background: the figures it last published)."""
        ev = self.evaluation
        if ev is None:
            return None
        if self.chunk is not None:
            return self.result
        if ev.worlds == 0:
            return None
        if self.result is None:  # (a result kept is what the panel shows: see sync)
            self.result = ev.result()
        return self.result

    def annotate(self, session: LookaheadSession, chart: MovesChart) -> MovesChart:
        """``chart`` with the whole-game values so far and the session's measure."""
        self.sync(session)
        target = 0 if self.evaluation is None else self.budget
        figures = self.figures()
        worlds = 0 if figures is None else int(figures["samples"])
        return annotate(chart, figures, session.measure, worlds, target)


def _by_label(figures: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """The evaluated moves by their panel label; waking is its best play after the swat."""
    out: dict[str, dict[str, Any]] = {}
    for m in figures["moves"]:
        turn = m["turn"]
        if turn.get("rotate") is not None or turn.get("peek") is not None:
            continue
        label = move_label({"wake": True} if turn.get("wake") else {"play": turn["play"]})
        old = out.get(label)
        if old is None or m["expected_margin"] < old["expected_margin"]:
            out[label] = m
    return out


def annotate(
    chart: MovesChart, figures: Mapping[str, Any] | None, measure: str, worlds: int,
    target: int,
) -> MovesChart:
    """The moves ``chart`` with the whole-game ``figures`` (an evaluation's result) set on
    its rows, ranked and the best marked by ``measure`` (``"swat"`` or ``"game"``).

    >>> row = {"label": "1 on queue 1", "expected_penalty": 0.5, "best": True,
    ...        "final": None, "final_ci95": [], "margin": None, "margin_ci95": []}
    >>> chart = {"seat": 0, "moves": [row], "empty": "", "measure": "swat", "worlds": 0,
    ...          "target": 0}
    >>> figs = {"moves": [{"turn": {"seat": 0, "play": ["1", 0]},
    ...         "expected_final_penalty": 9.0, "ci95": [8.0, 10.0],
    ...         "expected_margin": -1.0, "margin_ci95": [-2.0, 0.0]}]}
    >>> out = annotate(chart, figs, "game", 4, 48)
    >>> out["moves"][0]["margin"], out["measure"], out["worlds"]
    (-1.0, 'game', 4)
    """
    found = {} if figures is None else _by_label(figures)
    rows: list[MoveChart] = []
    for row in chart["moves"]:
        m = found.get(row["label"])
        new = dict(row)
        if m is None:
            new.update(final=None, final_ci95=[], margin=None, margin_ci95=[])
        else:
            new.update(
                final=round(float(m["expected_final_penalty"]), 3),
                final_ci95=[round(float(x), 3) for x in m["ci95"]],
                margin=round(float(m["expected_margin"]), 3),
                margin_ci95=[round(float(x), 3) for x in m["margin_ci95"]],
            )
        rows.append(new)  # type: ignore[arg-type]
    game = measure == "game" and any(r["margin"] is not None for r in rows)
    if game:
        low = min(r["margin"] for r in rows if r["margin"] is not None)
        rows.sort(key=lambda r: (r["margin"] is None, r["margin"] or 0.0, r["label"]))
        for r in rows:
            r["best"] = r["margin"] is not None and r["margin"] <= low + 1e-9
    else:
        low = min((r["expected_penalty"] for r in rows), default=0.0)
        rows.sort(key=lambda r: (r["expected_penalty"], r["label"]))
        for r in rows:
            r["best"] = r["expected_penalty"] <= low + 1e-9
    out = dict(chart)
    out.update(moves=rows, measure="game" if measure == "game" else "swat",
               worlds=worlds, target=target)
    return out  # type: ignore[return-value]


class Thinker:
    """Runs a session's whole-game evaluation in chunks of :data:`CHUNK_MS` as background
    jobs (:func:`..tasks.run`) while a loop runs, and calls ``changed`` (which pushes the
    panels' data) on the loop after each chunk. The loop is never blocked long by the
    evaluation: a worker thread gives it the interpreter after each slice, and without
    threads the slices run on the loop between its messages; the job touches nothing but
    the evaluation.
    A chunk of a position no longer shown is dropped when it ends. Without a running loop
    (a script) it does nothing: call ``TenLeaveWidget.think()`` instead."""

    def __init__(self, session: LookaheadSession, changed: Callable[[], None]) -> None:
        self.session = session
        self.changed = changed
        self._running = False

    def kick(self) -> None:
        """Make sure a chunk is under way if there is something to evaluate."""
        if self._running:
            return
        feed = self.session.lookahead
        feed.sync(self.session)
        ev = feed.evaluation
        if ev is None or ev.done:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        self._running = True
        task = feed.chunk = tasks.run(loop, _chunk(ev, CHUNK_MS))
        task.future.add_done_callback(lambda _f: self._done(ev, task))

    def _done(self, ev: Evaluation, task: tasks.Task[MoveValues]) -> None:
        feed = self.session.lookahead
        self._running = False
        if feed.chunk is task:
            feed.chunk = None
        try:
            result = task.wait()
            if feed.evaluation is ev:
                feed.result = result
                self.changed()
            self.kick()  # the rest of it, or the position shown now
        except Exception:  # noqa: BLE001 - never leave a broken task behind
            log.exception("the whole-game evaluation failed")


def _chunk(ev: Evaluation, ms: float) -> Generator[None, None, MoveValues]:
    """The background job: play worlds for about ``ms`` milliseconds, a world or two a
    slice (between slices the kernel's loop has its turn); the figures."""
    end = time.perf_counter() + ms / 1000
    while not ev.advance(YIELD_MS) and time.perf_counter() < end:
        yield
    return ev.result()
