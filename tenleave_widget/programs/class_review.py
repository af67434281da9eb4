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

import copy
import functools
import json
import os
import pickle
import tempfile
import time
from array import array
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import IO, Any, overload

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
from ..engine.cards import MARKED, card_back, card_value
from ..engine.errors import RecordError, TenLeaveError, one_line
from ..engine.record import RecordSource, record_digest, record_object
from ..engine.turn import Turn
from ..engine.view import View
from .class_report import page
from .pool import Runner, Task

__all__ = ["ClassReview", "GameResult", "GameSpool", "judge_words", "kinds_of", "record_files",
           "review_many"]

POSITIONS = 10
"""How many of the largest losses the positions worth discussing list."""

BESTS = 5
"""How many clearest bests (one move clearly best, found or not) they add."""

WINDOW = 2
"""Decisions in flight per worker: the one it judges and the next (it never waits for
one). A decision sent is that worker's to judge, so a deeper queue only unbalances the
end of a run: with the CPU times of the 3-seat sample's 30 decisions (0.02 to 2.6 s,
17.3 s in all), handed out in order to 2 workers, 4 in flight end after 8.96 s, 2 (or
1) after 8.68 s, where half the work is 8.67 s."""


def kinds_of(view: View, played: Turn) -> list[str]:
    """The kinds of a decision, one of each family (see the module docstring)."""
    action = {"wake": "wake", "peek": "peek", "rotate": "rotate"}.get(played.action,
                                                                       "play only")
    card = "high card" if card_value(played.card) >= 4 else "low card"
    back = "marked card" if card_back(played.card) == MARKED else "plain card"
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


class GameSpool(Sequence[GameResult]):
    """The games of a batch kept on disk, not in memory: each :class:`GameResult` is
    written (pickled) to an anonymous temporary file as soon as its review is assembled,
    in whatever order the games finish, and read back by its index, one at a time — so
    a batch of a thousand records holds one game's review at a time, not a thousand
    (a review takes about 26 KB of memory). The record as given (a path, or a record
    object, which is referred to, not copied) stays in memory.

    The file is the spool's own (no name on disk); it goes when the spool is closed or
    collected.
    """

    def __init__(self) -> None:
        self._file = tempfile.TemporaryFile(prefix="tenleave-review-")  # noqa: SIM115
        self._at = array("q")  # each game's offset in the file (-1: not kept yet)
        self._sources: list[RecordSource | None] = []

    def slot(self) -> int:
        """A place for the next game (its index)."""
        self._at.append(-1)
        self._sources.append(None)
        return len(self._at) - 1

    def put(self, index: int, game: GameResult) -> None:
        """Keep game ``index`` (once)."""
        if self._at[index] >= 0:
            raise ValueError(f"game {index} is already kept")
        self._file.seek(0, os.SEEK_END)
        self._at[index] = self._file.tell()
        pickle.dump(replace(game, source=None), self._file, pickle.HIGHEST_PROTOCOL)
        self._sources[index] = game.source

    def complete(self) -> bool:
        """Whether every game is kept."""
        return min(self._at, default=0) >= 0

    def __len__(self) -> int:
        return len(self._at)

    @overload
    def __getitem__(self, index: int) -> GameResult: ...

    @overload
    def __getitem__(self, index: slice) -> list[GameResult]: ...

    def __getitem__(self, index: int | slice) -> GameResult | list[GameResult]:
        if isinstance(index, slice):
            return [self[k] for k in range(*index.indices(len(self)))]
        k = range(len(self))[index]  # an IndexError past the end, as a list's
        if self._at[k] < 0:
            raise ValueError(f"game {k} is not reviewed yet")
        self._file.seek(self._at[k])
        game: GameResult = pickle.load(self._file)  # noqa: S301 - our own file
        game.source = self._sources[k]
        return game

    def __iter__(self) -> Iterator[GameResult]:
        return (self[k] for k in range(len(self)))

    def close(self) -> None:
        """Delete the file (the games are gone)."""
        self._file.close()

    def __repr__(self) -> str:
        return f"<GameSpool of {len(self)} games>"


@dataclass
class _Player:
    """One player's figures as the games stream past (``array``: 8 bytes a decision)."""

    games: int = 0
    decisions: int = 0
    losses: array[float] = field(default_factory=lambda: array("d"))
    acc: array[float] = field(default_factory=lambda: array("d"))
    labels: dict[str, int] = field(default_factory=lambda: dict.fromkeys(LABELS, 0))
    luck: float = 0.0
    penalty: int = 0
    trend: list[float | None] = field(default_factory=list)


class _Top:
    """The ``most`` first positions by key, one per position (``sig``: a game given twice
    is one position; each keeps its first key), in bounded memory: what the sort of every
    position, cut after ``most`` distinct ones, would give."""

    def __init__(self, most: int) -> None:
        self.most = most
        self.rows: dict[str, tuple[tuple[float, int, int], dict[str, Any]]] = {}
        self.worst: tuple[float, int, int] | None = None  # none after it can get in

    def add(self, sig: str, key: tuple[float, int, int],
            entry: Callable[[], dict[str, Any]]) -> None:
        old = self.rows.get(sig)
        if self.most <= 0 or (old is not None and old[0] <= key) or (
                self.worst is not None and key >= self.worst):
            return
        self.rows[sig] = (key, entry())
        if len(self.rows) >= 2 * self.most:
            self.rows = dict(self.ranked())
            self.worst = next(reversed(self.rows.values()))[0]

    def ranked(self) -> list[tuple[str, tuple[tuple[float, int, int], dict[str, Any]]]]:
        return sorted(self.rows.items(), key=lambda kv: kv[1][0])[:max(0, self.most)]


def _position(i: int, g: GameResult, t: TurnReview) -> dict[str, Any]:
    return {
        "file": g.file, "game": i, "turn": t.turn, "seat": t.seat,
        "player": g.review.players[t.seat], "loss": t.loss, "label": t.label,
        "played": t.played.to_json(), "best": t.best.to_json(), "gap": t.gap,
        "found": decision(t.played) == decision(t.best), "why": [],
        "played_text": turn_text(t.played, words=True),
        "best_text": turn_text(t.best, words=True),
    }


@dataclass
class _Tally:
    """What a batch says together, from one pass over its games (see
    :class:`ClassReview`)."""

    players: list[dict[str, Any]]
    kinds: list[dict[str, Any]]
    positions: list[dict[str, Any]]
    turns: int
    reused: int
    judges: list[tuple[str, float | str]]


def _tally(games: Iterable[GameResult], limit: int, bests: int) -> _Tally:
    """One pass over ``games`` in their order: the players, the kinds and the positions
    worth discussing, each as the sort of every decision would give it, holding only
    each decision's loss (and accuracy) and the best positions so far."""
    by: dict[str, _Player] = {}
    losses: dict[str, array[float]] = {k: array("d") for k in KINDS}
    top_loss, top_clear = _Top(limit), _Top(limit + bests)  # see _pick
    turns = reused = 0
    judges: list[tuple[str, float | str]] = []
    bound: float | None = None
    for i, g in enumerate(games):
        r = g.review
        bound = THRESHOLDS[r.objective][2] if bound is None else bound  # the first game's
        turns += len(r.turns)
        reused += g.reused
        if (r.model, r.beta) not in judges:
            judges.append((r.model, r.beta))
        for s, name in enumerate(r.players):
            p = by.setdefault(name, _Player())
            p.games += 1
            for t in r.turns:
                if t.seat != s:
                    continue
                p.decisions += 1
                p.labels[t.label] += 1
                if not t.forced:
                    p.losses.append(t.loss)
                    p.acc.append(_accuracy(t, r.objective))
            p.luck += r.seats[s].luck
            p.penalty += r.seats[s].final_penalty
            p.trend.append(r.seats[s].accuracy)
        for t, ks in zip(r.turns, g.kinds, strict=True):
            if t.forced:
                continue
            for k in ks:
                losses[k].append(t.loss)
            sig = f"{g.digest or i}:{t.turn}"
            if t.loss > 0:
                top_loss.add(sig, (-t.loss, i, t.turn), functools.partial(_position, i, g, t))
            if t.gap >= bound:
                top_clear.add(sig, (-t.gap, i, t.turn), functools.partial(_position, i, g, t))
    players = []
    for name, p in by.items():
        acc, loss = _ci(p.acc), _ci(p.losses)
        players.append({
            "name": name, "games": p.games, "decisions": p.decisions,
            "accuracy": acc[0], "accuracy_ci95": list(acc[1:]), "mean_loss": loss[0],
            "mean_loss_ci95": list(loss[1:]), "labels": p.labels, "luck": p.luck,
            "penalty": p.penalty, "luck_adjusted": p.penalty - p.luck, "trend": p.trend,
        })
    kinds = []
    for k in KINDS:
        if losses[k]:
            m = _ci(losses[k])
            kinds.append({"kind": k, "decisions": len(losses[k]), "mean_loss": m[0],
                          "ci95": list(m[1:])})
    return _Tally(players, kinds, _pick(top_loss, top_clear, limit, bests), turns, reused,
                  judges)


def _pick(top_loss: _Top, top_clear: _Top, limit: int, bests: int) -> list[dict[str, Any]]:
    """The ``limit`` largest losses, then the ``bests`` clearest bests not among them.
    The clearest-best pass passes at most ``limit`` positions already listed before it
    has ``bests`` new ones: so ``limit + bests`` clearest positions are enough."""
    out: dict[str, dict[str, Any]] = {}
    for top, why, most in ((top_loss, "largest loss", limit),
                           (top_clear, "clearest best", bests)):
        taken = 0
        for sig, (_, entry) in top.ranked():
            if taken == most:
                break
            if sig in out:  # a large loss that was clear too
                if why not in out[sig]["why"]:
                    out[sig]["why"].append(why)
                continue
            taken += 1
            out[sig] = {**entry, "why": [why]}  # in its place
    return list(out.values())


@dataclass
class ClassReview:
    """The reviews of a batch of records (see :func:`review_many`) and what they say
    together: :meth:`players`, :meth:`kinds`, :meth:`positions`.

    ``games``: a list, or (from :func:`review_many`) a :class:`GameSpool`, which keeps
    the reviews on disk and reads one back at a time. What the games say together is
    worked out in one pass over them the first time it is asked for, and kept; so is
    :meth:`to_json`'s games list, written one game at a time by :meth:`write_json`.
    """

    games: Sequence[GameResult]
    failures: list[str] = field(default_factory=list)
    backend: str = "serial"
    workers: int = 1
    seconds: float = 0.0
    decisions: int = 0
    _tallied: _Tally | None = field(default=None, init=False, repr=False, compare=False)

    def _tally(self, limit: int = POSITIONS, bests: int = BESTS) -> _Tally:
        if (limit, bests) != (POSITIONS, BESTS):
            return _tally(self.games, limit, bests)
        if self._tallied is None:
            self._tallied = _tally(self.games, limit, bests)
        return self._tallied

    def players(self) -> list[dict[str, Any]]:
        """Per player name, across games in the order given: games, decisions, accuracy
        and mean loss per unforced decision with 95% intervals (over decisions), label
        counts, total ``luck`` (penalty points the swats gave beyond what the player
        expected), ``penalty`` (total final penalty) and ``luck_adjusted`` (``penalty -
        luck``: the penalty with average luck, GNU Backgammon's luck-adjusted result),
        and ``trend``: each game's accuracy in order (``None`` for a game without an
        unforced decision)."""
        return copy.deepcopy(self._tally().players)

    def kinds(self) -> list[dict[str, Any]]:
        """Per kind of decision (:data:`KINDS`, those that occur): how many unforced
        decisions of that kind the class made and their mean loss with its 95% interval."""
        return copy.deepcopy(self._tally().kinds)

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
        return copy.deepcopy(self._tally(limit, bests).positions)

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

    def judged_by(self) -> tuple[str, float | str] | None:
        """Which model judged the games, ``(model, beta)`` (``beta`` is ``"fitted"`` for
        the uniform model), or ``None`` when the games were judged by different ones (a
        batch put together by hand: :func:`review_many` judges them all alike)."""
        judges = self._tally().judges
        return judges[0] if len(judges) == 1 else None

    def summary(self) -> dict[str, Any]:
        """The report's data as plain values: ``games`` and ``decisions`` (how many),
        ``judged_by`` (which model judged them, in words: :func:`judge_words`),
        ``players``, ``kinds``, ``positions`` and ``failures`` (see the methods)."""
        t = self._tally()
        return {"games": len(self.games), "decisions": t.turns,
                "judged_by": "; ".join(judge_words(m, b) for m, b in t.judges),
                "players": self.players(), "kinds": self.kinds(),
                "positions": self.positions(), "failures": list(self.failures)}

    def _one(self) -> bool:
        return len(self.games) == 1 and not self.failures

    def _judge_json(self) -> dict[str, Any]:
        """``model`` and ``beta`` of the batch object when the judge read the players
        (as a game's object has them: the uniform model's object is what it always was)."""
        judge = self.judged_by()
        return {} if judge is None or judge[0] == "uniform" else {"model": judge[0],
                                                                  "beta": judge[1]}

    def to_json(self) -> dict[str, Any]:
        """The ``tenleave review --json`` object of a batch (one record: its review's).
        It holds every game's review: :meth:`write_json` writes the same text one game at
        a time."""
        if self._one():
            return dict(self.games[0].review.to_json())
        return {**self._judge_json(), "games": [g.to_json() for g in self.games],
                "players": self.players(), "kinds": self.kinds(),
                "positions": self.positions()}

    def write_json(self, out: IO[str]) -> None:
        """``json.dump(self.to_json(), out)``, the same text, with one game's object in
        memory at a time."""
        if self._one():
            json.dump(self.to_json(), out)
            return
        head = json.dumps(self._judge_json())[1:-1]
        out.write("{" + (head + ", " if head else "") + '"games": [')
        for k, g in enumerate(self.games):
            out.write((", " if k else "") + json.dumps(g.to_json()))
        out.write("]")
        for key, value in (("players", self.players()), ("kinds", self.kinds()),
                           ("positions", self.positions())):
            out.write(f", {json.dumps(key)}: {json.dumps(value)}")
        out.write("}")

    def table(self) -> str:
        """The batch in words and columns, for a terminal."""
        if self._one():
            return self.games[0].review.table()
        t = self._tally()
        lines = [f"{len(self.games)} games, {self.decisions} decisions reviewed "
                 f"({t.reused} reviews reused from the records)"]
        judges = set(t.judges) - {("uniform", "fitted")}
        lines += [f"judged by: {model_words(beta)}" for _, beta in sorted(judges, key=str)]
        lines += ["",
                 "player            games  decisions  accuracy      mean loss        luck"]
        for p in t.players:
            lines.append(f"{p['name'][:16]:<16}  {p['games']:>5}  {p['decisions']:>9}  "
                         f"{_num(p['accuracy'], 0):>8}  {_num(p['mean_loss'], 2):>13}  "
                         f"{p['luck']:+10.1f}")
        lines += ["", "kind of decision    decisions  mean loss [95% interval]"]
        for k in t.kinds:
            lines.append(f"{k['kind']:<18}  {k['decisions']:>9}  {k['mean_loss']:.2f} "
                         f"[{k['ci95'][0]:.2f}, {k['ci95'][1]:.2f}]")
        lines += ["", "positions worth discussing (turns counted from 1)"]
        for q in t.positions:
            found = "found" if q["found"] else "missed"
            lines.append(f"{q['file']} turn {q['turn'] + 1}: {q['player']} played "
                         f"{q['played_text']}, lost {q['loss']:.2f} ({q['label']}); best "
                         f"{q['best_text']}, {found} ({', '.join(q['why'])})")
        return "\n".join(lines)

    def html(self) -> str:
        """The report as one self-contained offline page: Plotly charts drawn by the
        inlined plotly.js, and the tables (:func:`.class_report.page`)."""
        return page(self.summary())


def judge_words(model: str, beta: float | str) -> str:
    """Which model judged a review, in words (the class report's line).

    >>> judge_words("uniform", "fitted")
    'the rules alone (the uniform model: every card a player could not see equally likely)'
    >>> judge_words("inferred", 4.0)
    "the inferred model (the hidden cards as the players' choices suggest; beta 4)"
    """
    if model == "uniform":
        return ("the rules alone (the uniform model: every card a player could not see "
                "equally likely)")
    return model_words(beta)


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
    the records of the games in flight only, not of the whole batch). Its decisions'
    kinds are worked out when they are handed out."""

    file: str
    source: RecordSource
    decisions: int
    digest: str
    kinds: list[list[str]] = field(default_factory=list)
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

    Memory stays flat however many records: a record is read when its game is listed,
    when its decisions are handed out and when its review is assembled (a path is read
    again each time; a record object is referred to, not copied); each game's review
    goes to a :class:`GameSpool` on disk as soon as it is assembled; what the games say
    together is worked out in one pass over the spool, keeping 8 bytes a decision and
    the positions worth discussing so far.
    """
    budget = _check_budget(samples, seed, objective, model, beta)
    inferred = model == "inferred"
    where = Runner(workers, scheduler, client, preload=[__name__])  # checked here
    named = (list(records.items()) if isinstance(records, Mapping)
             else [(str(r) if not isinstance(r, dict) else f"record {i + 1}", r)
                   for i, r in enumerate(records)])
    t0 = time.perf_counter()
    failures: list[str] = []
    spool = GameSpool()
    slots: list[_Pending | None] = []  # the games still to review, by index
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
        gi = spool.slot()
        if saved is not None and (saved.objective, saved.model, saved.beta) == (
                objective, model, beta if inferred else "fitted"):
            kinds = [kinds_of(d.view, d.played) for d in ds]  # kept at once
            spool.put(gi, GameResult(name, saved, True, kinds, record_digest(obj), src))
            slots.append(None)
        else:
            slots.append(_Pending(name, src, len(ds), record_digest(obj)))
        del obj, ds, saved

    def handed_out(gi: int, p: _Pending) -> Iterator[_Job]:
        ds = decisions(p.record(), history=inferred)
        p.kinds = [kinds_of(d.view, d.played) for d in ds]
        for d in ds:
            yield (gi, d, budget, seed, objective, model, beta)

    # made as they are handed out, so that only the decisions in flight hold a view
    jobs = (job for gi, p in enumerate(slots) if p is not None and p.decisions
            for job in handed_out(gi, p))
    total = sum(p.decisions for p in slots if p is not None)

    def assemble(gi: int) -> None:
        p = slots[gi]
        assert p is not None
        judged = [p.judged[k] for k in range(p.decisions)]
        r = assemble_review(p.record(), judged, samples=budget, seed=seed,
                            objective=objective, model=model, beta=beta)
        spool.put(gi, GameResult(p.file, r, False, p.kinds, p.digest, p.source))
        slots[gi] = None

    for gi, p in enumerate(slots):  # a game without a decision
        if p is not None and not p.decisions:
            assemble(gi)
    where.most = total  # no more processes than decisions
    backend, used = _run(jobs, total, slots, where, progress, assemble)
    assert spool.complete(), "every game is assembled"
    return ClassReview(spool, failures, backend, used, time.perf_counter() - t0, total)


def _run(
    jobs: Iterator[_Job],
    total: int,
    slots: list[_Pending | None],
    where: Runner,
    progress: bool | Callable[[int, int], None],
    assemble: Callable[[int], None],
) -> tuple[str, int]:
    bar: Any = None
    count = [0]

    def report(got: tuple[int, TurnReview]) -> None:
        gi, t = got
        p = slots[gi]
        assert p is not None
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
