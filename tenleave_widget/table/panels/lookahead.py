"""The whole-game values of the moves panel: the one analysis of the position
(:mod:`tenleave_widget.analysis.analyse`), computed in slices while the player thinks.

The moves panel lists the mover's moves with the one-swat measure (the odds); this module
adds the **whole-game** values of the analysis every other part of the package reads (the
coach, the review, the puzzles, ``tenleave evaluate``): every decision of every kind —
plain plays, play then rotate, rotate first, waking SleepKid first, peeking first — with
its expected margin, its paired interval against the best, and the best marked by the
measure the student chose (the panel's switch, ``{"kind": "measure"}``).

- *The same analysis.* It analyses the mover's view of the position at the start of the
  turn (the view the coach and the review judge the decision from), with the review's
  budget (:data:`~tenleave_widget.analysis.review.evaluator.DEFAULT_SAMPLES`) and seed
  (:data:`SEED`): the same digest, so the same figures, and the same cache — a position
  the panel analysed costs the coach and the review nothing, and the other way round.
  The ★ is the analysis's (``star``: the best clearly better than every other decision);
  otherwise the decisions the analysis finds about as good as the best are all marked
  and the words say "about equally good". The whiskers are the analysis's paired
  intervals against the best.
- *From a view only.* The analysis is of the mover's view (the teacher's view shows the
  mover's moves from the mover's own view, as the odds do): never a game.
- *In slices, off the loop.* :class:`LookaheadFeed` holds one
  :class:`~tenleave_widget.analysis.analyse.Analysing`, stepped a chunk of worlds at a
  time; in a notebook :class:`Thinker` runs the chunks as a background job
  (:mod:`..tasks`: in a worker thread, or on the loop between messages where there are no
  threads, as under Pyodide) and publishes the figures so far on the kernel's event loop
  after each; the final figures, with the ★, once the analysis stops (``done``).
- *Off unless a table runs it.* A session's feed starts disabled (the HTML export draws
  a session's panels without it); the widget's controller enables it.
- *Cancelled by position.* Any change of the position shown (a turn, undo, goto, a
  perspective, another game) makes a new analysis; the old one is parked (one is kept,
  so a turn previewed and taken back goes on where it was). A step of the turn (a peek, a
  rotation, waking) keeps the analysis of the turn's start and shows the decisions that
  begin with the steps taken (after a peek: the play the analysis chooses knowing the
  value seen, as the coach judges it).

>>> from tenleave_widget import Game
>>> from tenleave_widget.table.session.config import check_config
>>> from tenleave_widget.table.session.machine import Session
>>> g = Game(["Ana", "Ben", "Cy"], seed=1)
>>> s = Session(g, check_config(g, mode="play", humans=[0], bots={1: "greedy", 2: "random"}))
>>> s.lookahead.enabled, s.lookahead.budget = True, 8
>>> while not s.lookahead.advance(s, ms=10):
...     pass
>>> moves = s.state()["panels"]["moves"]
>>> moves["done"], moves["worlds"] >= 8, moves["moves"][0]["margin"] is not None
(True, True, True)
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Generator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from ...analysis.analyse import Analysing, Analysis, DecisionValue, Settings, settings_for
from ...analysis.review.evaluator import DEFAULT_SAMPLES
from ...analysis.review.text import turn_text
from ...engine.turn import Turn, TurnStep
from .. import tasks
from .data import ROMAN, MoveChart, MovesChart, move_label

if TYPE_CHECKING:
    from ...engine.game import Game
    from ..session.config import Config

__all__ = [
    "CHUNK_MS", "MEASURES", "SEED", "SLICE_MS", "LookaheadFeed",
    "LookaheadSession", "Thinker", "annotate", "decision_label",
]

log = logging.getLogger(__name__)

MEASURES = ("swat", "game")
"""The moves panel's measures: one swat ahead, or the whole game."""

SEED = 0
"""The analysis's salt: the review's default seed, which is the coach's
(``COACH_SEED``), so that the panel, the coach and the review share one analysis."""

SLICE_MS = 10.0
"""The slice of :meth:`LookaheadFeed.advance` by default (a script's ``think(ms)``)."""

YIELD_MS = 2.0
"""A chunk's slice: the job pauses after each step of the analysis (see :func:`_chunk`)."""

CHUNK_MS = 120.0
"""How long the background job analyses before the panel is updated (in a notebook)."""

class LookaheadSession(Protocol):
    """What the whole-game analysis reads of a session (:class:`~..session.machine.Session` is
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
    """One session's whole-game analysis in progress (see the module docstring)."""

    def __init__(self, budget: int = DEFAULT_SAMPLES) -> None:
        self.enabled = False
        """Whether the whole-game values are computed (the widget turns this on)."""
        self.budget = budget
        """Worlds per decision in the analysis's first round
        (:func:`~tenleave_widget.analysis.analyse.settings_for`; the default is the
        review's and the coach's: another budget is another analysis, not shared)."""
        self.seed = SEED
        """The analysis's salt (:data:`SEED`; a class review's table takes its review's,
        so that it shows the analyses that review judged with)."""
        self._key: tuple[Any, ...] | None = None
        self._base: Game | None = None
        self.evaluation: Analysing | None = None
        self.result: Analysis | None = None
        """The figures last published (while ``busy``, the worker owns the analysis)."""
        self.chunk: tasks.Task[Analysis | None] | None = None
        """The chunk of the analysis running in the background (:class:`Thinker`)."""
        self._parked: tuple[tuple[Any, ...], Game, Analysing, Analysis | None] | None = None
        """The analysis of the position shown before (key, base, analysis, figures
        shown): a turn previewed and taken back comes back to it where it was."""

    @property
    def settings(self) -> Settings:
        """The analysis's budget (:attr:`budget` worlds first, its caps)."""
        return settings_for(self.budget)

    def _target(self, session: LookaheadSession) -> tuple[tuple[Any, ...], Game, int] | None:
        """What should be analysed now: (key, the turn's start, mover), or None."""
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
        base = session.current()
        key = (session.games, session.generation, base.turns_applied, mover, self.budget,
               self.seed)
        return key, base, mover

    def sync(self, session: LookaheadSession) -> None:
        """Follow the position on the table: a new analysis when it changed."""
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
            # the position shown before (a previewed turn taken back): its analysis goes
            # on where it was, and the panel shows the figures it showed until the next
            # chunk or slice
            self._key, self._base, self.evaluation, self.result = parked
            self._parked = None
            if self.evaluation.done:  # no chunk to come: its final figures now
                self.result = None
            return
        # the mover's view at the turn's start (never a game): the decision's view, as
        # the coach and the review judge it
        view = base.view(mover)
        self._key, self._base = key, base
        self.result = None
        self.evaluation = Analysing(view, self.settings, seed=self.seed)

    def _park(self) -> None:
        """Put the current analysis aside (one is kept: the last position shown)."""
        if self._key is not None and self._base is not None and self.evaluation is not None:
            self._parked = (self._key, self._base, self.evaluation, self.result)
        self._key, self._base, self.evaluation, self.result = None, None, None, None

    def advance(self, session: LookaheadSession, ms: float = SLICE_MS) -> bool:
        """Analyse for about ``ms`` milliseconds (at least one chunk of worlds); True when
        nothing is left to do. (A chunk under way in the background is finished first.)"""
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

    def figures(self) -> Analysis | None:
        """The analysis's figures so far (final once it stopped), or None before the
        first chunk (while a chunk runs in the background: the figures it last
        published)."""
        ev = self.evaluation
        if ev is None:
            return None
        if self.chunk is not None:
            return self.result
        if self.result is None:  # (a result kept is what the panel shows: see sync)
            self.result = ev.figures()
        return self.result

    def annotate(self, session: LookaheadSession, chart: MovesChart) -> MovesChart:
        """``chart`` with the whole-game values so far and the session's measure."""
        self.sync(session)
        target = 0 if self.evaluation is None else self.settings.cap
        figures = self.figures()
        seen = None
        shown = session.shown()
        for step in session.pending:  # the value a peek of this turn showed the mover
            if step["kind"] == "peek" and shown.to_move is not None:
                card = shown.view(shown.to_move)["queues"][step["queue"]][step["position"]]
                seen = card["value"]
        return annotate(chart, figures, session.measure, target, session.pending, seen)


def decision_label(d: Mapping[str, Any]) -> str:
    """A decision of the analysis in words: ``"5 on queue 2"``, ``"5 on queue 2, then
    rotate queue 1"``, ``"wake SleepKid, then 2 on queue 1"``, ``"peek at queue 1,
    position II first"`` (the play after a peek is chosen knowing the card).

    >>> decision_label({"kind": "peek first", "turn": {"seat": 0, "peek": [0, 1],
    ...                 "extra": "before", "play": ["5", 1]}})
    'peek at queue 1, position II first'
    >>> decision_label({"kind": "play then rotate", "turn": {"seat": 0, "play": ["5", 1],
    ...                 "rotate": 0, "extra": "after"}})
    '5 on queue 2, then rotate queue 1'
    """
    turn = d["turn"]
    if d["kind"] == "peek first":
        q, i = turn["peek"]
        return f"peek at queue {int(q) + 1}, position {ROMAN[int(i)]} first"
    return turn_text(Turn.from_json(dict(turn)), words=True)


def _follows(d: DecisionValue, steps: Sequence[TurnStep]) -> bool:
    """Whether decision ``d`` begins with the (non-play) ``steps`` taken this turn."""
    turn = d["turn"]
    for step in steps:
        if step["kind"] == "peek":
            if d["kind"] != "peek first" or list(turn["peek"]) != [step["queue"],
                                                                   step["position"]]:
                return False
        elif step["kind"] == "rotate":
            if d["kind"] != "rotate first" or turn.get("rotate") != step["queue"]:
                return False
        elif step["kind"] == "wake" and d["kind"] != "wake first":
            return False
    return True


def _r(x: float) -> float:
    return round(float(x), 3)


def _row(d: DecisionValue, label: str, best: bool, same: list[str]) -> MoveChart:
    return {
        "label": label, "kind": d["kind"],
        "expected_penalty": _r(d["immediate_expected_penalty"]), "best": best,
        "final": _r(d["expected_final_penalty"]),
        "final_ci95": [_r(x) for x in d["final_penalty_ci95"]],
        "margin": _r(d["expected_margin"]),
        "margin_ci95": [_r(x) for x in d["margin_ci95"]],
        "worse": _r(d["vs_best"]), "worse_ci95": [_r(x) for x in d["vs_best_ci95"]],
        "same": same,
    }


def _decision_rows(a: Analysis, steps: Sequence[TurnStep], seen: int | None,
                   done: bool) -> list[MoveChart]:
    """The analysis's decisions as rows, best first, one row per group of decisions that
    play out alike, only those that begin with the ``steps`` taken this turn; marked:
    the analysis's best group and those about equally good, once it is ``done``."""
    marked = {a["decisions"][i]["group"] for i in a["equal"]} if done else set()
    rows: list[MoveChart] = []
    at: dict[int, MoveChart] = {}
    for d in a["decisions"]:
        if not _follows(d, steps):
            continue
        label = decision_label(d)
        if d["kind"] == "peek first" and any(s["kind"] == "peek" for s in steps):
            branch = next((b for b in d.get("then", []) if b["value"] == seen), None)
            if branch is not None:  # the play the analysis chooses knowing the value
                label = f"having seen a {seen}: {move_label(dict(branch['turn']))}"
        row = at.get(d["group"])
        if row is not None:
            row["same"].append(label)
            continue
        at[d["group"]] = row = _row(d, label, d["group"] in marked, [])
        rows.append(row)
    return rows


def _swat_rows(chart: MovesChart, a: Analysis | None) -> list[MoveChart]:
    """The one-swat rows (plain plays and waking) with their whole-game values: a play's
    own; waking, the best of waking then a play."""
    found: dict[str, DecisionValue] = {}
    if a is not None:
        for d in a["decisions"]:
            if d["kind"] == "play":
                found.setdefault(move_label(dict(d["turn"])), d)
            elif d["kind"] == "wake first":
                old = found.get("wake SleepKid")
                if old is None or d["vs_best"] < old["vs_best"]:
                    found["wake SleepKid"] = d
    rows: list[MoveChart] = []
    for row in chart["moves"]:
        m = found.get(row["label"])
        new = dict(row)
        if m is None:
            new.update(final=None, final_ci95=[], margin=None, margin_ci95=[], worse=None,
                       worse_ci95=[], same=[])
        else:
            full = _row(m, row["label"], False, [])
            new.update({k: v for k, v in full.items()
                        if k in ("final", "final_ci95", "margin", "margin_ci95", "worse",
                                 "worse_ci95")})
        rows.append(new)  # type: ignore[arg-type]
    return rows


def annotate(
    chart: MovesChart, figures: Analysis | None, measure: str, target: int,
    steps: Sequence[TurnStep] = (), seen: int | None = None,
) -> MovesChart:
    """The moves ``chart`` with the whole-game ``figures`` (an analysis, final or so far;
    ``target``: its cap of worlds, 0 when none is computed) and the measure
    (``"swat"``: the one-swat rows, the lowest marked; ``"game"``: every decision of the
    analysis that begins with the ``steps`` taken this turn — ``seen``: the value a peek
    showed — best first, marked as the analysis marks them once it has stopped).

    >>> row = {"label": "1 on queue 1", "kind": "play", "expected_penalty": 0.5,
    ...        "best": True, "final": None, "final_ci95": [], "margin": None,
    ...        "margin_ci95": [], "worse": None, "worse_ci95": [], "same": []}
    >>> chart = {"seat": 0, "moves": [row], "empty": "", "measure": "swat", "worlds": 0,
    ...          "target": 0, "done": False, "star": False}
    >>> d = {"kind": "play", "turn": {"seat": 0, "play": ["1", 0]}, "group": 0,
    ...      "immediate_expected_penalty": 0.5, "expected_final_penalty": 9.0,
    ...      "final_penalty_ci95": [8.0, 10.0], "expected_margin": -1.0,
    ...      "margin_ci95": [-2.0, 0.0], "vs_best": 0.0, "vs_best_ci95": [0.0, 0.0]}
    >>> a = {"decisions": [d], "equal": [0], "star": True, "stopped": "separated",
    ...      "worlds": 64}
    >>> out = annotate(chart, a, "game", 1024)
    >>> out["moves"][0]["margin"], out["moves"][0]["best"], out["star"], out["worlds"]
    (-1.0, True, True, 64)
    """
    done = figures is not None and figures["stopped"] != "running"
    game = measure == "game" and figures is not None
    if game:
        assert figures is not None
        rows = _decision_rows(figures, [s for s in steps if s["kind"] != "play"], seen, done)
    else:
        rows = _swat_rows(chart, figures)
        if any(s["kind"] == "wake" for s in steps):
            rows = [r for r in rows if r["kind"] != "wake"]
        low = min((r["expected_penalty"] for r in rows), default=0.0)
        rows.sort(key=lambda r: (r["expected_penalty"], r["label"]))
        for r in rows:  # (the whole game's best: only from the analysis, once it is in)
            r["best"] = measure != "game" and r["expected_penalty"] <= low + 1e-9
    out = dict(chart)
    worlds = 0 if figures is None else int(figures["worlds"])
    out.update(moves=rows, measure="game" if measure == "game" else "swat",
               worlds=worlds, target=worlds if done else target, done=done,
               star=done and bool(figures and figures["star"]) and any(r["best"]
                                                                       for r in rows))
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
        self._busy: Analysing | None = None  # the analysis of the chunk under way
        self._warm = False

    def prime(self) -> None:
        """With a loop running, a new position's first figures now, before its state is
        pushed: the analysis's first step (:data:`~tenleave_widget.analysis.analyse.FIRST_STEP`
        worlds of every decision, a few milliseconds), so that the position and its first
        whole-game figures reach the page in one state. Nothing for a position whose
        analysis has begun or is in the chunk under way (in the worker thread), before this
        thinker's first chunk came back (the first analysis in a process loads the
        play-outs' machine code: the table's first state does not wait for it) or without
        a loop (a script calls ``TenLeaveWidget.think()``)."""
        if not self._warm:
            return
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            return
        feed = self.session.lookahead
        feed.sync(self.session)
        ev = feed.evaluation
        if (ev is None or ev is self._busy or ev.done or ev.worlds > 0
                or feed.result is not None):
            return
        ev.step()
        feed.result = ev.figures()

    def kick(self) -> None:
        """Make sure a chunk is under way if there is something to evaluate."""
        if self._busy is not None:
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
        self._busy = ev
        task = feed.chunk = tasks.run(loop, _chunk(ev, CHUNK_MS))
        task.future.add_done_callback(lambda _f: self._done(ev, task))

    def _done(self, ev: Analysing, task: tasks.Task[Analysis | None]) -> None:
        feed = self.session.lookahead
        self._busy = None
        self._warm = True
        if feed.chunk is task:
            feed.chunk = None
        try:
            result = task.wait()
            if feed.evaluation is ev:
                feed.result = result
                self.changed()
            self.kick()  # the rest of it, or the position shown now
        except Exception:  # noqa: BLE001 - never leave a broken task behind
            log.exception("the whole-game analysis failed")


def _chunk(ev: Analysing, ms: float) -> Generator[None, None, Analysis | None]:
    """The background job: analyse for about ``ms`` milliseconds, a chunk of worlds a
    slice (between slices the kernel's loop has its turn); the figures so far. An
    analysis's first chunk ends as soon as it has figures (its first step: every decision
    in :data:`~tenleave_widget.analysis.analyse.FIRST_STEP` worlds), so that the panel
    shows them at once. The figures are made in a slice of their own (without threads,
    as under Pyodide, the loop has its turn between the last worlds and them)."""
    end = time.perf_counter() + ms / 1000
    if ev.worlds == 0:
        ev.step()  # the first step alone, however quick: its figures at once
    else:
        while not ev.advance(YIELD_MS) and time.perf_counter() < end:
            yield
    yield
    return ev.figures()
