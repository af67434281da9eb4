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

**Kinds of decision** (:func:`kinds_of`; a decision has one kind of each family):

- *action*: ``wake`` (SleepKid woken before the play), ``peek``, ``rotate`` or
  ``play only``;
- *card*: ``high card`` (a 4 or a 5) or ``low card`` (1 to 3);
- *back*: ``marked card`` (its back shows ``*``) or ``plain card``;
- *round*: ``early in a round`` (fewer cards on the table than a queue holds) or
  ``late in a round`` (at least as many).

>>> from tenleave_widget.engine.turn import Turn
>>> view = {"queue_capacity": 4, "queues": [[{}], [{}, {}, {}]]}
>>> kinds_of(view, Turn(0, "5*", 1, wake=True))
['wake', 'high card', 'marked card', 'late in a round']
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..analysis.review import (
    LABELS,
    THRESHOLDS,
    Decision,
    Puzzle,
    Review,
    TurnReview,
    assemble_review,
    decision,
    decisions,
    judge_decision,
    model_words,
    puzzles,
    saved_review,
    turn_text,
)
from ..analysis.review.evaluator import _check_budget
from ..analysis.review.results import _accuracy as _loss_accuracy
from ..analysis.stats import mean_ci
from ..engine.cards import card_value
from ..engine.errors import RecordError, TenLeaveError, one_line
from ..engine.record import RecordSource, record_digest, record_object
from ..engine.turn import Turn
from .class_report import page
from .pool import Runner, Task

__all__ = ["ClassReview", "GameResult", "kinds_of", "record_files", "review_many"]

POSITIONS = 10
"""How many of the largest losses the positions worth discussing list."""

BESTS = 5
"""How many clearest bests (one move clearly best, found or not) they add."""

WINDOW = 4
"""Decisions in flight per worker (a worker never waits for the next one)."""


def kinds_of(view: Mapping[str, Any], played: Turn) -> list[str]:
    """The kinds of a decision, one of each family (see the module docstring)."""
    action = {"wake": "wake", "peek": "peek", "rotate": "rotate"}.get(played.action,
                                                                       "play only")
    card = "high card" if card_value(played.card) >= 4 else "low card"
    back = "marked card" if played.card.endswith("*") else "plain card"
    on_table = sum(len(q) for q in view["queues"])
    when = "early in a round" if on_table < int(view["queue_capacity"]) else "late in a round"
    return [action, card, back, when]


KINDS = ("wake", "peek", "rotate", "play only", "high card", "low card", "marked card",
         "plain card", "early in a round", "late in a round")
"""Every kind, in the report's order."""


@dataclass
class GameResult:
    """One record of a batch: its name, its review, whether that review was the one
    saved in the record (reused, not recomputed), and the kinds of each decision."""

    file: str
    review: Review
    reused: bool
    kinds: list[list[str]]
    digest: str = ""
    source: RecordSource | None = None
    """The record as given (a path is read again for :meth:`ClassReview.practice`)."""

    def record(self) -> dict[str, Any]:
        """The game's record (a path read again, and checked to be the game reviewed)."""
        if self.source is None:
            raise RecordError(f"{self.file}: the record is not kept")
        return _reread(self.file, self.source, self.digest)

    def to_json(self) -> dict[str, Any]:
        return {"file": self.file, **self.review.to_json()}


@dataclass
class ClassReview:
    """The reviews of a batch of records (see :func:`review_many`) and what they say
    together: :meth:`players`, :meth:`kinds`, :meth:`positions`."""

    games: list[GameResult]
    failures: list[str] = field(default_factory=list)
    backend: str = "serial"
    workers: int = 1
    seconds: float = 0.0
    decisions: int = 0

    def players(self) -> list[dict[str, Any]]:
        """Per player name, across games in the order given: games, decisions, accuracy
        and mean loss per unforced decision with 95% intervals (over decisions), label
        counts, total ``luck`` (penalty points the swats gave beyond what the player
        expected), ``penalty`` (total final penalty) and ``luck_adjusted`` (``penalty -
        luck``: the penalty with average luck, GNU Backgammon's luck-adjusted result),
        and ``trend``: each game's accuracy in order (``None`` for a game without an
        unforced decision)."""
        by: dict[str, dict[str, Any]] = {}
        for g in self.games:
            r = g.review
            for s, name in enumerate(r.players):
                p = by.setdefault(name, {"losses": [], "acc": [], "labels": dict.fromkeys(
                    LABELS, 0), "games": 0, "decisions": 0, "luck": 0.0, "penalty": 0,
                    "trend": []})
                mine = [t for t in r.turns if t.seat == s]
                p["games"] += 1
                p["decisions"] += len(mine)
                unforced = [t for t in mine if not t.forced]
                p["losses"] += [t.loss for t in unforced]
                p["acc"] += [_accuracy(t, r.objective) for t in unforced]
                for t in mine:
                    p["labels"][t.label] += 1
                p["luck"] += r.seats[s].luck
                p["penalty"] += r.seats[s].final_penalty
                p["trend"].append(r.seats[s].accuracy)
        out = []
        for name, p in by.items():
            acc, loss = _ci(p["acc"]), _ci(p["losses"])
            out.append({
                "name": name, "games": p["games"], "decisions": p["decisions"],
                "accuracy": acc[0], "accuracy_ci95": list(acc[1:]), "mean_loss": loss[0],
                "mean_loss_ci95": list(loss[1:]), "labels": p["labels"], "luck": p["luck"],
                "penalty": p["penalty"], "luck_adjusted": p["penalty"] - p["luck"],
                "trend": p["trend"],
            })
        return out

    def kinds(self) -> list[dict[str, Any]]:
        """Per kind of decision (:data:`KINDS`, those that occur): how many unforced
        decisions of that kind the class made and their mean loss with its 95% interval."""
        losses: dict[str, list[float]] = {k: [] for k in KINDS}
        for g in self.games:
            for t, ks in zip(g.review.turns, g.kinds, strict=True):
                if not t.forced:
                    for k in ks:
                        losses[k].append(t.loss)
        out = []
        for k in KINDS:
            if losses[k]:
                m = _ci(losses[k])
                out.append({"kind": k, "decisions": len(losses[k]), "mean_loss": m[0],
                            "ci95": list(m[1:])})
        return out

    def positions(self, limit: int = POSITIONS, bests: int = BESTS) -> list[dict[str, Any]]:
        """The positions worth discussing: the ``limit`` largest losses of unforced
        decisions (largest first), then the ``bests`` clearest bests not among them —
        decisions where one move beat the next best by at least the mistake bound (the
        review's ``gap``, as its puzzles), clearest first, found or not. One entry per
        position (a game given twice is listed once): ``file``, ``game`` (its index in
        :attr:`games`), ``turn`` (from 0), ``seat``, ``player``, ``loss``, ``label``,
        ``played``, ``best`` (record turn objects), ``gap``, ``found`` (the move played
        was the best decision), ``why`` (``"largest loss"``, ``"clearest best"`` or both)
        and, in words, ``played_text`` and ``best_text``."""
        bound = THRESHOLDS[self._objective()][2]
        rows = [(i, t) for i, g in enumerate(self.games) for t in g.review.turns
                if not t.forced]
        losses = sorted((r for r in rows if r[1].loss > 0),
                        key=lambda r: (-r[1].loss, r[0], r[1].turn))
        clear = sorted((r for r in rows if r[1].gap >= bound),
                       key=lambda r: (-r[1].gap, r[0], r[1].turn))
        out: dict[str, dict[str, Any]] = {}
        for rows_of, why, most in ((losses, "largest loss", limit),
                                   (clear, "clearest best", bests)):
            taken = 0
            for i, t in rows_of:
                if taken == most:
                    break
                g = self.games[i]
                sig = f"{g.digest or i}:{t.turn}"
                if sig in out:  # a game given twice, or a large loss that was clear too
                    if why not in out[sig]["why"]:
                        out[sig]["why"].append(why)
                    continue
                taken += 1
                out[sig] = {
                    "file": g.file, "game": i, "turn": t.turn, "seat": t.seat,
                    "player": g.review.players[t.seat], "loss": t.loss, "label": t.label,
                    "played": t.played.to_json(), "best": t.best.to_json(), "gap": t.gap,
                    "found": decision(t.played) == decision(t.best), "why": [why],
                    "played_text": turn_text(t.played, words=True),
                    "best_text": turn_text(t.best, words=True),
                }
        return list(out.values())

    def practice(self, limit: int = POSITIONS, bests: int = BESTS) -> list[Puzzle]:
        """The positions worth discussing (:meth:`positions`) as puzzles a student plays
        as the seat to move and is judged on (:class:`~tenleave_widget.analysis.review.
        Puzzle`: the game so far, notes left out, and :meth:`Puzzle.judge`), easiest
        first: the larger a position's ``gap`` (how much the best move beat the next
        best), the easier the best move is to see; on a tie, one the class found before
        one it missed. A record given as a path is read again (and must be the one
        reviewed)."""
        out: list[tuple[float, bool, int, Puzzle]] = []
        by_game: dict[int, list[dict[str, Any]]] = {}
        for q in self.positions(limit, bests):
            by_game.setdefault(q["game"], []).append(q)
        for i, qs in by_game.items():
            g = self.games[i]
            turns = {q["turn"]: q for q in qs}
            for z in puzzles(g.record(), g.review, min_gap=0.0):
                if z.turn in turns:
                    out.append((-z.gap, not turns[z.turn]["found"], len(out), z))
        return [z for *_, z in sorted(out, key=lambda x: x[:3])]

    def summary(self) -> dict[str, Any]:
        """The report's data as plain values: ``games`` and ``decisions`` (how many),
        ``players``, ``kinds``, ``positions`` and ``failures`` (see the methods)."""
        return {"games": len(self.games), "decisions": sum(len(g.review.turns)
                                                           for g in self.games),
                "players": self.players(), "kinds": self.kinds(),
                "positions": self.positions(), "failures": list(self.failures)}

    def _objective(self) -> str:
        return self.games[0].review.objective if self.games else "margin"

    def to_json(self) -> dict[str, Any]:
        """The ``tenleave review --json`` object of a batch (one record: its review's)."""
        if len(self.games) == 1 and not self.failures:
            return self.games[0].review.to_json()
        return {"games": [g.to_json() for g in self.games], "players": self.players(),
                "kinds": self.kinds(), "positions": self.positions()}

    def table(self) -> str:
        """The batch in words and columns, for a terminal."""
        if len(self.games) == 1 and not self.failures:
            return self.games[0].review.table()
        lines = [f"{len(self.games)} games, {self.decisions} decisions reviewed "
                 f"({sum(g.reused for g in self.games)} reviews reused from the records)"]
        judges = {(g.review.model, g.review.beta) for g in self.games} - {("uniform", "fitted")}
        lines += [f"judged by: {model_words(beta)}" for _, beta in sorted(judges, key=str)]
        lines += ["",
                 "player            games  decisions  accuracy      mean loss        luck"]
        for p in self.players():
            lines.append(f"{p['name'][:16]:<16}  {p['games']:>5}  {p['decisions']:>9}  "
                         f"{_num(p['accuracy'], 0):>8}  {_num(p['mean_loss'], 2):>13}  "
                         f"{p['luck']:+10.1f}")
        lines += ["", "kind of decision    decisions  mean loss [95% interval]"]
        for k in self.kinds():
            lines.append(f"{k['kind']:<18}  {k['decisions']:>9}  {k['mean_loss']:.2f} "
                         f"[{k['ci95'][0]:.2f}, {k['ci95'][1]:.2f}]")
        lines += ["", "positions worth discussing (turns counted from 1)"]
        for q in self.positions():
            found = "found" if q["found"] else "missed"
            lines.append(f"{q['file']} turn {q['turn'] + 1}: {q['player']} played "
                         f"{q['played_text']}, lost {q['loss']:.2f} ({q['label']}); best "
                         f"{q['best_text']}, {found} ({', '.join(q['why'])})")
        return "\n".join(lines)

    def html(self) -> str:
        """The report as one self-contained offline page: Plotly charts drawn by the
        inlined plotly.js, and the tables (:func:`.class_report.page`)."""
        return page(self.summary())


def _accuracy(t: TurnReview, objective: str) -> float:
    return _loss_accuracy(t.loss, objective)


def _ci(xs: Sequence[float]) -> tuple[float | None, float | None, float | None]:
    return mean_ci(xs) if xs else (None, None, None)


def _num(x: float | None, digits: int) -> str:
    return "-" if x is None else f"{x:.{digits}f}"


# ------------------------------------------------------------------ the records


def record_files(paths: Iterable[str | os.PathLike[str]]) -> list[str]:
    """The record files named: a folder gives its ``*.json`` files, sorted by name."""
    out: list[str] = []
    for p in paths:
        path = Path(p)
        if os.path.isdir(p):  # not "": that is no folder (Path("") is ".")
            out += [str(f) for f in sorted(path.glob("*.json")) if f.is_file()]
        else:
            out.append(str(p))
    return out


@dataclass
class _Pending:
    """A game being reviewed: what it needs besides its record, which is read again
    when its decisions are handed out and when it is assembled (so that memory holds
    the records of the games in flight only, not of the whole batch)."""

    file: str
    source: RecordSource
    decisions: int
    kinds: list[list[str]]
    digest: str
    judged: dict[int, TurnReview] = field(default_factory=dict)

    def record(self) -> dict[str, Any]:
        return _reread(self.file, self.source, self.digest)


def _reread(file: str, source: RecordSource, digest: str) -> dict[str, Any]:
    """The record of ``source`` again, checked to be the game reviewed."""
    obj = record_object(source)
    if digest and record_digest(obj) != digest:
        raise RecordError(f"{file}: the record changed after it was read for the review")
    return obj


_Job = tuple[int, Decision, int, int, str, str, float | str]
"""One decision to judge: the game's index, the decision, samples, seed, objective, model
and beta."""


def _judge(job: _Job) -> tuple[int, TurnReview]:
    """One unit of work (module level, so that a process pool can pickle it)."""
    gi, d, samples, seed, objective, model, beta = job
    return gi, judge_decision(d, samples=samples, seed=seed, objective=objective,
                              model=model, beta=beta)


def review_many(
    records: Sequence[RecordSource] | Mapping[str, RecordSource],
    *,
    samples: int | None = None,
    seed: int = 0,
    objective: str = "margin",
    model: str = "uniform",
    beta: float | str = "fitted",
    workers: int | None = None,
    scheduler: str | None = None,
    client: Any = None,
    progress: bool | Callable[[int, int], None] = False,
) -> ClassReview:
    """Review a batch of records (paths, record objects, or a mapping of names to
    either) and bring the reviews together (:class:`ClassReview`).

    Each record's review is the one :func:`~tenleave_widget.analysis.review.review` gives
    with the same ``samples``, ``seed``, ``objective``, ``model`` and ``beta`` — or the
    review saved in the record (reused, not recomputed) when it has a valid one of that
    objective, model and beta (an invalid one is ignored: the game is reviewed again). A
    record that fails to load is one line in :attr:`ClassReview.failures` (naming it) and
    the others go on.
    Where the decisions are judged: ``workers`` local processes (default: every core; 1:
    this process), or a Dask cluster (``scheduler`` address or ``client``); the results
    are identical whatever runs them. ``progress``: a progress bar over decisions (tqdm)
    or a function called with (decisions done, decisions in all). Ctrl-C stops the work
    and its processes.

    Memory: a record is read when its game is listed, when its decisions are handed out
    and when its review is assembled (a path is read again each time; a record object is
    referred to, not copied), so a batch holds the reviews and the records in flight,
    never every record at once.
    """
    budget = _check_budget(samples, seed, objective, model, beta)
    inferred = model == "inferred"
    where = Runner(workers, scheduler, client, preload=[__name__])  # checked here
    named = (list(records.items()) if isinstance(records, Mapping)
             else [(str(r) if not isinstance(r, dict) else f"record {i + 1}", r)
                   for i, r in enumerate(records)])
    t0 = time.perf_counter()
    failures: list[str] = []
    done: list[GameResult | _Pending] = []
    for name, src in named:
        try:
            obj = record_object(src)
            ds = decisions(obj, history=inferred)
            try:
                saved = saved_review(obj) if "review" in obj else None
            except TenLeaveError:  # an edited or stale saved review: reviewed again
                saved = None
        except TenLeaveError as e:
            failures.append(f"{name}: {one_line(str(e))}")
            continue
        kinds = [kinds_of(d.view, d.played) for d in ds]
        if saved is not None and (saved.objective, saved.model, saved.beta) == (
                objective, model, beta if inferred else "fitted"):
            done.append(GameResult(name, saved, True, kinds, record_digest(obj), src))
        else:
            done.append(_Pending(name, src, len(ds), kinds, record_digest(obj)))
        del obj, ds
    # made as they are handed out, so that only the decisions in flight hold a view
    jobs = ((gi, d, budget, seed, objective, model, beta) for gi, p in enumerate(done)
            if isinstance(p, _Pending) for d in decisions(p.record(), history=inferred))
    total = sum(p.decisions for p in done if isinstance(p, _Pending))

    def assemble(gi: int) -> None:
        p = done[gi]
        assert isinstance(p, _Pending)
        judged = [p.judged[k] for k in range(p.decisions)]
        r = assemble_review(p.record(), judged, samples=budget, seed=seed,
                            objective=objective, model=model, beta=beta)
        done[gi] = GameResult(p.file, r, False, p.kinds, p.digest, p.source)

    for gi, p in enumerate(done):  # a game without a decision
        if isinstance(p, _Pending) and not p.decisions:
            assemble(gi)
    where.most = total  # no more processes than decisions
    backend, used = _run(jobs, total, done, where, progress, assemble)
    games = [g for g in done if isinstance(g, GameResult)]
    assert len(games) == len(done), "every game is assembled"
    return ClassReview(games, failures, backend, used, time.perf_counter() - t0, total)


def _run(
    jobs: Iterator[_Job],
    total: int,
    done: list[GameResult | _Pending],
    where: Runner,
    progress: bool | Callable[[int, int], None],
    assemble: Callable[[int], None],
) -> tuple[str, int]:
    bar: Any = None
    count = [0]

    def report(got: tuple[int, TurnReview]) -> None:
        gi, t = got
        p = done[gi]
        assert isinstance(p, _Pending)
        p.judged[t.turn] = t
        if len(p.judged) == p.decisions:  # its last decision: the game's review now
            assemble(gi)
        count[0] += 1
        if bar is not None:
            bar.update(1)
        elif callable(progress):
            progress(count[0], total)

    def source() -> Task | None:
        job = next(jobs, None)
        return None if job is None else (_judge, (job,))

    with where:
        try:
            if progress is True and total:
                from tqdm.auto import tqdm

                bar = tqdm(total=total, unit="decision", desc="review", leave=False)
            where.run(source, report, WINDOW)
        finally:
            if bar is not None:
                bar.close()
    return where.backend, where.workers
