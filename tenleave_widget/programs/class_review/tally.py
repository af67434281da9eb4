"""What a class's reviewed games say together (:class:`ClassReview`): per player, per
kind of decision, and the positions worth discussing, worked out in one pass over the
games; the batch as JSON, a table for a terminal and the HTML report.
"""

from __future__ import annotations

import copy
import functools
import json
from array import array
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import IO, Any, TypedDict

from ...analysis.review import (
    LABELS,
    THRESHOLDS,
    Puzzle,
    TurnReview,
    decision,
    model_words,
    puzzles,
    turn_text,
)
from ...analysis.review.results import _accuracy as _loss_accuracy
from ...analysis.stats import mean_ci
from ...engine.turn import TurnObject
from ..class_report import page
from .kinds import KINDS
from .spool import GameResult

__all__ = ["BESTS", "POSITIONS", "ClassReview", "KindRow", "PlayerRow", "Position", "Summary",
           "judge_words"]

POSITIONS = 10
"""How many of the largest losses the positions worth discussing list."""

BESTS = 5
"""How many clearest bests (one move clearly best, found or not) they add."""


class PlayerRow(TypedDict):
    """One player across a batch's games (:meth:`ClassReview.players`)."""

    name: str
    games: int
    decisions: int
    accuracy: float | None
    accuracy_ci95: list[float | None]
    mean_loss: float | None
    mean_loss_ci95: list[float | None]
    labels: dict[str, int]
    luck: float
    penalty: int
    luck_adjusted: float
    trend: list[float | None]


class KindRow(TypedDict):
    """One kind of decision across a batch (:meth:`ClassReview.kinds`)."""

    kind: str
    decisions: int
    mean_loss: float | None
    ci95: list[float | None]


class Position(TypedDict):
    """A position worth discussing (:meth:`ClassReview.positions`)."""

    file: str
    game: int
    turn: int
    seat: int
    player: str
    loss: float
    label: str
    played: TurnObject
    best: TurnObject
    gap: float
    found: bool
    why: list[str]
    played_text: str
    best_text: str


class Summary(TypedDict):
    """The class report's data (:meth:`ClassReview.summary`)."""

    games: int
    decisions: int
    judged_by: str
    players: list[PlayerRow]
    kinds: list[KindRow]
    positions: list[Position]
    failures: list[str]


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
        self.rows: dict[str, tuple[tuple[float, int, int], Position]] = {}
        self.worst: tuple[float, int, int] | None = None  # none after it can get in

    def add(self, sig: str, key: tuple[float, int, int],
            entry: Callable[[], Position]) -> None:
        old = self.rows.get(sig)
        if self.most <= 0 or (old is not None and old[0] <= key) or (
                self.worst is not None and key >= self.worst):
            return
        self.rows[sig] = (key, entry())
        if len(self.rows) >= 2 * self.most:
            self.rows = dict(self.ranked())
            self.worst = next(reversed(self.rows.values()))[0]

    def ranked(self) -> list[tuple[str, tuple[tuple[float, int, int], Position]]]:
        return sorted(self.rows.items(), key=lambda kv: kv[1][0])[:max(0, self.most)]


def _position(i: int, g: GameResult, t: TurnReview) -> Position:
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

    players: list[PlayerRow]
    kinds: list[KindRow]
    positions: list[Position]
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
    players: list[PlayerRow] = []
    for name, p in by.items():
        acc, loss = _ci(p.acc), _ci(p.losses)
        players.append({
            "name": name, "games": p.games, "decisions": p.decisions,
            "accuracy": acc[0], "accuracy_ci95": list(acc[1:]), "mean_loss": loss[0],
            "mean_loss_ci95": list(loss[1:]), "labels": p.labels, "luck": p.luck,
            "penalty": p.penalty, "luck_adjusted": p.penalty - p.luck, "trend": p.trend,
        })
    kinds: list[KindRow] = []
    for k in KINDS:
        if losses[k]:
            m = _ci(losses[k])
            kinds.append({"kind": k, "decisions": len(losses[k]), "mean_loss": m[0],
                          "ci95": list(m[1:])})
    return _Tally(players, kinds, _pick(top_loss, top_clear, limit, bests), turns, reused,
                  judges)


def _pick(top_loss: _Top, top_clear: _Top, limit: int, bests: int) -> list[Position]:
    """The ``limit`` largest losses, then the ``bests`` clearest bests not among them.
    The clearest-best pass passes at most ``limit`` positions already listed before it
    has ``bests`` new ones: so ``limit + bests`` clearest positions are enough."""
    out: dict[str, Position] = {}
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
            out[sig] = copy.copy(entry)  # in its place
            out[sig]["why"] = [why]
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
    merged: list[str] = field(default_factory=list)
    """One line per copy of a game given again (reviewed once, under its first name)."""
    _tallied: _Tally | None = field(default=None, init=False, repr=False, compare=False)

    def _tally(self, limit: int = POSITIONS, bests: int = BESTS) -> _Tally:
        if (limit, bests) != (POSITIONS, BESTS):
            return _tally(self.games, limit, bests)
        if self._tallied is None:
            self._tallied = _tally(self.games, limit, bests)
        return self._tallied

    def players(self) -> list[PlayerRow]:
        """Per player name, across games in the order given: games, decisions, accuracy
        and mean loss per unforced decision with 95% intervals (over decisions), label
        counts, total ``luck`` (penalty points the swats gave beyond what the player
        expected), ``penalty`` (total final penalty) and ``luck_adjusted`` (``penalty -
        luck``: the penalty with average luck, GNU Backgammon's luck-adjusted result),
        and ``trend``: each game's accuracy in order (``None`` for a game without an
        unforced decision)."""
        return copy.deepcopy(self._tally().players)

    def kinds(self) -> list[KindRow]:
        """Per kind of decision (:data:`KINDS`, those that occur): how many unforced
        decisions of that kind the class made and their mean loss with its 95% interval."""
        return copy.deepcopy(self._tally().kinds)

    def positions(self, limit: int = POSITIONS, bests: int = BESTS) -> list[Position]:
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
        by_game: dict[int, list[Position]] = {}
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

    def summary(self) -> Summary:
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
