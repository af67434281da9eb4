"""The one analysis of a position: every decision of the seat to move, valued once.

:func:`analyse` takes a seat's ``tenleave-view/1`` view (``docs/view.md``) and values
**every legal decision of every kind** of the seat to move over the rest of the game, by
one objective, the **expected margin** (the seat's final penalty minus the mean of the
other seats'; lower is better): each plain play (card x queue), each rotation before
or after the play, waking SleepKid then each play, and each peek first (the card
looked at, then the play chosen knowing it). Whoever tells a person something about a
position (the moves panel, the coach, the review, the puzzles, the class report,
``tenleave evaluate``) reads this result, so they agree. See ``docs/methods/analysis.md``.

- *Worlds.* The cards the seat cannot see are dealt from the uniform model (RULES.md §9)
  or, with ``model="inferred"``, from the posterior of what the players' choices so far
  suggest (:class:`~tenleave_widget.analysis.reader.Belief`). World ``i`` is drawn from a
  generator seeded by the position's **digest** (:func:`view_digest`: a canonical
  SHA-256 of the seat's view, the model and the settings; only what the seat knows) and
  ``i``. So one position gives the same figures wherever and however often it is asked,
  and a result can be cached by its digest (:func:`analyse` keeps the last
  :data:`CACHE_SIZE`).
- *Play-outs.* Every decision is played out in the same worlds (common random numbers)
  through :func:`~tenleave_widget.analysis.playouts.play_outs`, many worlds a call.
- *Peeks.* In a world where every card is visible a peek changes nothing, so a peek first
  is valued as the ``reader`` bot values it (:func:`~tenleave_widget.analysis.reader.peek_values`):
  the worlds grouped by the value the card would show, in each group the plain play
  chosen on the other half of the worlds (cross-fitted: by world parity, so the choice
  is not flattered by the worlds it is scored on), its margin taken world by world. A
  peek after the play is the play itself in the play-outs (what it teaches is for later
  turns, which the rollout policy does not read): it is valued as its bare play.
- *Separation, corrected.* The best is compared with every other decision at once, so
  its intervals against them are **simultaneous** 95% intervals: Bonferroni-corrected
  over the ``m`` decisions it is compared with and over the sequential rule's most looks
  at the data (:func:`separation_z`, :func:`looks_of`: z = Φ⁻¹(1 − 0.025/(m · looks)),
  1.96 for one decision at one look, about 3.9 for thirty at the default's 16 looks),
  so that stopping at whichever look separates the best adds no false ★. A ★
  (``star``) only where every other decision's interval is clear of 0; the decisions
  whose interval reaches 0 are ``equal`` ("about equally good"), so a position without a
  ★ always has two or more.
- *Sequential precision.* Worlds are added in rounds (:class:`Settings`); after each,
  a decision is no longer played once its paired interval (at that level) against the
  best is clear of 0 (worse) or within :data:`TIE` of it (as good, to a quarter point),
  and the analysis stops when no decision is left undecided or at the cap. A decision
  dropped under an earlier best that the new best leaves undecided is played again, on
  the worlds it missed, before any new world. A peek first is the best only when it
  beats the best decision without a peek clearly (what it teaches changes the play); a
  peek that teaches nothing ties with its bare play by construction, so it never hides
  the ★ of a clear play.
- *The verdict.* :func:`judge` values one played decision against the best: the
  analysis (cached), then more worlds while the loss's interval straddles a label bound
  (:data:`BOUNDS`), up to :attr:`Settings.judge_cap`: for the played decision, the best
  and the rival that may make the loss largest, first on the worlds a decision stopped
  early missed. The best is one of the ``equal`` decisions, so the loss is at least the
  played decision's loss to each of them and at most the largest (its upper end also
  reads the peek first likeliest to beat a plain best, where one may). Without a ★, a
  verdict claims a loss of exactly 0 only where, at its level, the played decision is
  no worse than each of them. Its level is its own
  (:func:`verdict_looks`): it claims one loss, not a ranking.

>>> from tenleave_widget import Game
>>> g = Game(3, seed=4)
>>> for t in [["5", 0], ["1", 1], ["4*", 1], ["1", 0], ["2", 1], ["3*", 0]]:
...     g.apply({"seat": g.to_move, "play": t})
>>> a = analyse(g.view(0), Settings(first=16, batch=16, cap=32))
>>> a == analyse(g.view(0), Settings(first=16, batch=16, cap=32))  # the same, every time
True
>>> a["decisions"][a["best"]]["kind"], a["stopped"] in ("separated", "cap")
('play', True)
>>> sorted({d["kind"] for d in a["decisions"]})
['peek first', 'play', 'play then rotate', 'rotate first', 'wake first']
"""

from __future__ import annotations

import copy
import hashlib
import itertools
import json
import math
import operator
import threading
import time
from collections import OrderedDict
from collections.abc import Generator, Mapping, Sequence
from dataclasses import asdict, dataclass
from statistics import NormalDist
from typing import Any, TypedDict, TypeVar, cast

from ..engine.errors import IllegalActionError, SetupError, excerpt, shown
from ..engine.turn import Turn, TurnObject, play_pair
from ..engine.view import View, ViewWithHistory, check_view, has_history
from .infer import COSTS, check_beta
from .lookahead import _immediate, _moves_of, immediate_by_play
from .odds import move_evaluation
from .playout import Move, Policy, Simulator
from .playout_position import Position
from .playouts import CHUNK_WORLDS, Worlds, play_outs, world_seed
from .position import MODELS
from .reader import BELIEF_COST, Belief, dealer
from .stats import mean_ci, mean_half_width, wilson

__all__ = [
    "ANALYSIS_FORMAT", "BOUNDS", "CACHE_SIZE", "KINDS", "LABELS", "MAX_WORLDS",
    "MIN_WORLDS", "MODELS", "OBJECTIVES", "OBJECTIVE_BOUNDS", "TIE", "WIN_BOUNDS",
    "Analysing", "Analysis", "DecisionValue", "PeekBranch", "Settings", "Verdict",
    "analyse", "analyse_steps", "clear_cache", "decision_key", "judge", "judge_steps",
    "label_of", "looks_of", "separation_z", "settings_for", "view_digest",
]

ANALYSIS_FORMAT = "tenleave-analysis/1"
"""The ``format`` of an :class:`Analysis`: which analysis judged a position."""

LABELS = ("best", "good", "inaccuracy", "mistake", "blunder")
"""A decision's labels, from no loss to the largest."""

BOUNDS: tuple[float, float, float, float] = (0.25, 1.0, 2.0, 4.0)
"""Points of expected margin: the upper bounds of the losses labelled ``best``, ``good``,
``inaccuracy`` and ``mistake``; a larger loss is a ``blunder``."""

TIE = BOUNDS[0]
"""Two decisions whose paired interval lies within this many points of each other are
as good as each other: the analysis stops refining them."""

WIN_BOUNDS: tuple[float, float, float, float] = (0.03, 0.07, 0.12, 0.25)
""":data:`BOUNDS` for the ``win_probability`` objective: drops in the chance of winning."""

OBJECTIVES = ("margin", "win_probability")
"""What an analysis ranks by (lower is better): ``margin``, the expected margin (points;
the default, the one objective every front end shows); ``win_probability``, the chance
of *not* winning (shared wins count as wins), for a review asked for that objective. The
same worlds, play-outs and rules; another digest."""

OBJECTIVE_BOUNDS: dict[str, tuple[float, float, float, float]] = {
    "margin": BOUNDS, "win_probability": WIN_BOUNDS}
"""Per objective, the bounds of its labels and its tie (the first)."""

KINDS = ("play", "play then rotate", "rotate first", "wake first", "peek first")
"""The kinds of decision, as a reader groups them."""

CACHE_SIZE = 512
"""How many analyses (and verdicts) :func:`analyse` keeps, by digest."""

MIN_WORLDS = 16
"""No two decisions are called separated, tied or settled against a label bound on fewer
common worlds than this (an interval from a handful of worlds is no interval)."""

MAX_WORLDS = 100_000
"""The most worlds an analysis may play (the lookahead's bound: about 200 MB)."""

_CHUNK = CHUNK_WORLDS
"""Worlds per call of the play-outs (a step of :func:`analyse_steps`)."""

FIRST_STEP = MIN_WORLDS
"""Worlds of the first step: every decision is played in this many worlds first, the rest
of the first round after, so that the first figures so far (:meth:`Analysing.figures`,
the moves panel's) come after a small part of the first round. The figures at the end
are the same (each world is seeded by its number, whatever the step that plays it)."""


@dataclass(frozen=True)
class Settings:
    """How much an analysis may spend: ``first`` worlds for every decision, then rounds
    of ``batch`` worlds for the undecided ones, up to ``cap`` worlds; a verdict
    (:func:`judge`) goes on to at most ``judge_cap`` for the played decision and the
    best. Part of the digest: other settings are another analysis."""

    first: int = 64
    batch: int = 64
    cap: int = 1024
    judge_cap: int = 2048

    def __post_init__(self) -> None:
        for name in ("first", "batch", "cap", "judge_cap"):
            v = getattr(self, name)
            if type(v) is not int or not 1 <= v <= MAX_WORLDS:
                raise SetupError(f"analysis settings: {name} must be a whole number "
                                 f"1..{MAX_WORLDS}, not {excerpt(v)}")
        if self.cap < self.first or self.judge_cap < self.cap:
            raise SetupError("analysis settings: need first <= cap <= judge_cap, not "
                             f"{self.first}, {self.cap}, {self.judge_cap}")


def _settings(settings: object) -> Settings:
    """``settings``, or the defaults for ``None``; raises :class:`SetupError` for anything
    else than a :class:`Settings`."""
    if settings is None:
        return Settings()
    if not isinstance(settings, Settings):
        raise SetupError(f"settings must be an analysis Settings (first, batch, cap, "
                         f"judge_cap), not {shown(settings)}")
    return settings


def separation_z(m: int, looks: int = 1) -> float:
    """The z of the simultaneous 95% intervals of a best compared with ``m`` other
    decisions at any of ``looks`` looks at the data (Bonferroni: the two-sided 5% split
    over the ``m`` comparisons and the looks), so that the chance that *any* of them is
    called separated by noise, at whichever look the analysis stops, is at most 5%.

    >>> round(separation_z(1), 2), round(separation_z(30), 2), round(separation_z(30, 16), 2)
    (1.96, 3.14, 3.88)
    """
    return NormalDist().inv_cdf(1 - 0.025 / (max(1, m) * max(1, looks)))


def looks_of(s: Settings) -> int:
    """The most looks the sequential rule takes at the data with settings ``s``: after
    the first round, then after every round up to the cap (16 with :class:`Settings`'
    defaults).

    >>> looks_of(Settings()), looks_of(Settings(first=16, batch=16, cap=16))
    (16, 1)
    """
    return 1 + -(-(s.cap - s.first) // s.batch)


def settings_for(samples: int | None) -> Settings:
    """The settings of a budget given as worlds per decision (the review's and the
    command line's ``--samples``): ``samples`` first, rounds of as many, a cap of 16
    times as many and a verdict cap of 32 times (``None``: :class:`Settings`' defaults,
    which are ``settings_for(64)``); the caps are at most :data:`MAX_WORLDS`.

    >>> settings_for(64) == Settings()
    True
    """
    if samples is None:
        return Settings()
    if type(samples) is not int or not 1 <= samples <= MAX_WORLDS:
        raise SetupError(f"samples must be a whole number 1..{MAX_WORLDS}, not "
                         f"{excerpt(samples)}")
    cap = max(samples, min(16 * samples, MAX_WORLDS))
    return Settings(first=samples, batch=samples, cap=cap,
                    judge_cap=max(cap, min(32 * samples, MAX_WORLDS)))


class PeekBranch(TypedDict):
    """What a peek first leads to when the card shows ``value`` (a ``share`` of the
    worlds): the play chosen knowing it."""

    value: int
    share: float
    turn: TurnObject


class _DecisionBase(TypedDict):
    kind: str
    """One of :data:`KINDS`."""
    turn: TurnObject
    """The record turn object; for a peek first, the peek with the play chosen when the
    card shows its likeliest value."""
    key: str
    """The decision's identity (:func:`decision_key`)."""
    group: int
    """Decisions with the same group play out alike (a plain 5 and a marked 5)."""
    expected_margin: float
    """Points: the seat's final penalty minus the others' mean, lower is better."""
    margin_ci95: list[float]
    vs_best: float
    """Points of expected margin worse than the best (paired, on their common worlds)."""
    vs_best_ci95: list[float]
    """The simultaneous 95% interval of ``vs_best`` (:func:`separation_z`)."""
    expected_final_penalty: float
    """The seat's own final penalty (a penalty, not a margin)."""
    final_penalty_ci95: list[float]
    win_probability: float
    win_ci95: list[float]
    immediate_expected_penalty: float
    """The one-swat figure (RULES.md §9): the seat's expected penalty of a swat right
    after the decision (a penalty, not a margin)."""
    worlds: int


class DecisionValue(_DecisionBase, total=False):
    """One decision valued (a peek first adds ``then``)."""

    then: list[PeekBranch]


class _AnalysisBase(TypedDict):
    format: str
    digest: str
    seat: int
    turn: int
    """Turns applied before this decision."""
    model: str
    settings: dict[str, int]
    worlds: int
    """The most worlds any decision was played in."""
    decisions: list[DecisionValue]
    """Best first, then by expected margin."""
    best: int
    """Index of the best decision (0)."""
    star: bool
    """Whether the best is clearly better than every other decision (a ★): every other
    decision's simultaneous interval (``vs_best_ci95``) is clear of 0."""
    equal: list[int]
    """The decisions about as good as the best (their simultaneous interval reaches 0):
    the best's group alone when ``star``, two groups or more otherwise."""
    stopped: str
    """``"separated"`` or ``"cap"`` (``"running"``: the figures so far of an analysis
    under way, :class:`Analysing`; no ★ then)."""
    reference: float
    """The seat's expected final penalty if it played the rollout policy (a penalty)."""
    forced: bool
    """No decision is worse than the best by more than :data:`TIE` (its interval's top)."""


class Analysis(_AnalysisBase, total=False):
    """The one analysis of a position (:func:`analyse`)."""

    beta: dict[str, float]
    """With the inferred model: the beta read per opponent seat."""
    cost: str
    """With the inferred model: what the players are read as minimising."""
    objective: str
    """``win_probability`` when ranked by it (then ``vs_best`` and the verdict's loss are
    drops in the chance of winning); absent for ``margin``."""


class Verdict(TypedDict):
    """One played decision judged (:func:`judge`): all in points of expected margin."""

    analysis: Analysis
    played: int
    """Index of the played decision in the analysis."""
    loss: float
    loss_ci95: list[float]
    label: str
    near: str | None
    """The harshest label above ``label`` whose bound the loss's interval reaches (its
    upper end is over the bound), or None: the label the loss may still have."""
    worlds: int
    """The worlds the loss is measured on."""
    played_final_penalty: float
    best_final_penalty: float


# ------------------------------------------------------------------------- identity


def view_digest(view: View, *, model: str = "uniform", beta: float | str = "fitted",
                seed: int = 0, settings: Settings | None = None,
                cost: str = BELIEF_COST, objective: str = "margin") -> str:
    """The canonical SHA-256 (hex) of what an analysis reads: the seat's view (with the
    public history only for the inferred model, which reads it), the model, its beta and
    cost, the extra ``seed``, the settings and the objective (one digest per objective). A
    view holds only what its seat knows, so the
    digest (and the seed derived from it) can tell nothing hidden."""
    body: dict[str, Any] = {k: v for k, v in check_view(view).items() if k != "history"}
    if model == "inferred":
        body["history"] = view.get("history")
    doc = {"format": ANALYSIS_FORMAT, "view": body, "model": model,
           "beta": beta if model == "inferred" else None, "seed": seed,
           "settings": asdict(_settings(settings))}
    if model == "inferred":
        doc["cost"] = cost
    if objective != "margin":
        doc["objective"] = objective
    text = json.dumps(doc, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def _peekable(view: View) -> list[tuple[int, int, int]]:
    """(queue, position, key) of every face-down card the seat cannot see."""
    return [(q, i, int(c["key"])) for q, queue in enumerate(view["queues"])
            for i, c in enumerate(queue) if c["value"] is None]


def decision_key(view: View, turn: Mapping[str, Any]) -> str:
    """The identity of the decision a record turn object makes from ``view``: a peek before
    the play of a card the seat cannot see is ``peek first`` of that card (whatever is
    played after it); a peek of a card it knows, or after the play, is its bare play; a
    rotation of another queue after the play is the same decision as before it. Raises
    :class:`IllegalActionError` for a turn object that is not well formed
    (:meth:`Turn.from_json <tenleave_widget.engine.turn.Turn.from_json>`)."""
    Turn.from_json(dict(turn) if isinstance(turn, Mapping) else turn)
    seat = turn.get("seat")
    peek = turn.get("peek")
    extra = turn.get("extra", "before")
    if peek is not None:
        q, i = int(peek[0]), int(peek[1])
        if extra != "after" and (q, i) in {(a, b) for a, b, _ in _peekable(view)}:
            return f"{seat}|peek|{q}|{i}"
        return _key_of({"seat": seat, "play": turn["play"]})
    if "rotate" in turn and extra == "after" and turn["rotate"] != turn["play"][1]:
        return _key_of({"seat": seat, "play": turn["play"], "rotate": turn["rotate"]})
    return _key_of(dict(turn))


def _key_of(turn: Mapping[str, Any]) -> str:
    card, q = play_pair(turn["play"])
    parts = [str(turn["seat"]), "wake" if turn.get("wake") else "play", card, str(q)]
    if "rotate" in turn:
        parts += ["rotate", str(turn["rotate"]), str(turn.get("extra", "before"))]
    return "|".join(parts)


def _kind(turn: Mapping[str, Any]) -> str:
    if turn.get("wake"):
        return "wake first"
    if "rotate" in turn:
        return "play then rotate" if turn.get("extra") == "after" else "rotate first"
    return "play"


# ------------------------------------------------------------------------- the cache

_CACHE: OrderedDict[str, Any] = OrderedDict()
_LOCK = threading.Lock()


def _copy(x: Any) -> Any:
    """A deep copy of ``x``, an analysis or a verdict: its dicts and lists copied, its
    strings, numbers, booleans and ``None`` shared (immutable), anything else by
    :func:`copy.deepcopy` (a verdict: 0.17 ms, against 1.4 ms by ``deepcopy``)."""
    t = type(x)
    if t is dict:
        return {k: _copy(v) for k, v in x.items()}
    if t is list:
        return [_copy(v) for v in x]
    if t is str or t is float or t is int or t is bool or x is None:
        return x
    return copy.deepcopy(x)


def _cached(key: str) -> Any:
    with _LOCK:
        hit = _CACHE.get(key)
        if hit is not None:
            _CACHE.move_to_end(key)
        return _copy(hit)


def _store(key: str, value: Any) -> None:
    with _LOCK:
        _CACHE[key] = _copy(value)
        _CACHE.move_to_end(key)
        while len(_CACHE) > CACHE_SIZE:
            _CACHE.popitem(last=False)


RUNS_KEPT = 16
"""How many finished analyses keep their worlds' results for :func:`judge` (they are
large: every decision's margin world by world)."""

_RUNS: OrderedDict[str, _Run] = OrderedDict()


def _keep_run(digest: str, run: _Run) -> None:
    with _LOCK:
        _RUNS[digest] = run
        _RUNS.move_to_end(digest)
        while len(_RUNS) > RUNS_KEPT:
            _RUNS.popitem(last=False)


def _kept_run(digest: str) -> _Run | None:
    with _LOCK:
        return _RUNS.get(digest)


def clear_cache() -> None:
    """Forget every cached analysis and verdict (the next call recomputes)."""
    with _LOCK:
        _CACHE.clear()
        _RUNS.clear()


# ------------------------------------------------------------------------- the state


class _Samples:
    """One group's results world by world (world id -> the objective's cost, margin, own
    penalty, win)."""

    __slots__ = ("g", "m", "p", "w", "win")

    def __init__(self, win: bool = False) -> None:
        self.win = win
        self.g: dict[int, float] = {}
        self.m: dict[int, float] = {} if win else self.g
        """The cost the analysis ranks by: 1 - win for ``win_probability``; for the margin,
        the margins themselves (the same dict as ``g``, kept once)."""
        self.p: dict[int, int] = {}
        self.w: dict[int, int] = {}

    def add(self, wid: int, pen: Sequence[int], seat: int) -> None:
        mine = pen[seat]
        others = [x for s, x in enumerate(pen) if s != seat]
        self.g[wid] = mine - sum(others) / len(others)
        self.p[wid] = mine
        self.w[wid] = won = int(mine <= min(others))
        if self.win:
            self.m[wid] = float(1 - won)

    def copy_world(self, other: _Samples, wid: int) -> None:
        self.g[wid] = other.g[wid]
        if self.win:
            self.m[wid] = other.m[wid]
        self.p[wid], self.w[wid] = other.p[wid], other.w[wid]

    def mean(self) -> float:
        return math.fsum(self.m.values()) / len(self.m)


def _paired(a: _Samples, b: _Samples, z: float, below: int | None = None,
            ) -> tuple[float, float, int]:
    """Mean of ``a - b`` over their common worlds (those numbered below ``below``), the
    half-width of its interval at ``z``, and how many."""
    am, bm = a.m, b.m
    keys = list(am)
    bkeys = list(bm)
    if keys == bkeys and (below is None or not keys or max(keys) < below):
        xs = list(map(operator.sub, am.values(), bm.values()))  # the same worlds, in order
    elif below is None and len(keys) < len(bkeys) and bkeys[:len(keys)] == keys:
        # a's worlds are the first of b's, in order (a decision dropped before b's last)
        xs = list(map(operator.sub, am.values(), itertools.islice(bm.values(), len(keys))))
    elif below is None:
        xs = [x - bm[w] for w, x in am.items() if w in bm]
    else:
        xs = [x - bm[w] for w, x in am.items() if w < below and w in bm]
    if not xs:
        return math.inf, math.inf, 0
    d, half = mean_half_width(xs, z)
    return d, half, len(xs)


class _Peek:
    """A peek first of the card at (queue, position): its values per world."""

    __slots__ = ("q", "i", "key", "values", "samples", "choice")

    def __init__(self, q: int, i: int, key: int, win: bool) -> None:
        self.q, self.i, self.key = q, i, key
        self.values: dict[int, int] = {}
        self.samples = _Samples(win)
        self.choice: dict[int, int] = {}  # per value, the plain group chosen on every world


def _check(view: View, model: object, beta: object, seed: object, cost: object,
           objective: object) -> None:
    """Raise :class:`SetupError` for an argument of an analysis it refuses (``beta`` and
    ``cost`` too, which only the inferred model reads), before any cache is read; and
    :class:`InvalidViewError` for what is not a seat's view."""
    check_view(view)
    if objective not in OBJECTIVES:
        raise SetupError(f"objective must be one of {', '.join(OBJECTIVES)}, not "
                         f"{excerpt(objective)}")
    if model not in MODELS:
        raise SetupError(f"model must be one of {', '.join(MODELS)}, not {excerpt(model)}")
    if type(seed) is not int:
        raise SetupError(f"seed must be an integer, not {excerpt(seed)}")
    check_beta(beta)  # read by the inferred model only
    if not (isinstance(cost, Mapping) or cost in COSTS):
        raise SetupError(f"cost must be one of {', '.join(COSTS)}, not {excerpt(cost)}")
    if model == "inferred" and not has_history(view):
        raise SetupError("the inferred model reads the public history: analyse a view "
                         "with its history (infer.with_history)")


class _Run:
    """An analysis in progress."""

    def __init__(self, view: View, settings: Settings, model: str, beta: float | str,
                 seed: int, cost: str, objective: str = "margin") -> None:
        _check(view, model, beta, seed, cost, objective)
        self.view = view
        self.settings = settings
        self.model = model
        self.digest = view_digest(view, model=model, beta=beta, seed=seed, settings=settings,
                                  cost=cost, objective=objective)
        self.cost = cost
        self.objective = objective
        self.bounds = OBJECTIVE_BOUNDS[objective]
        self.tie = self.bounds[0]
        win = objective == "win_probability"
        pos = self.pos = Position(view)
        self.sim = Simulator(pos, Policy())
        self.beta: dict[str, float] | None = None
        self.deal = None
        if model == "inferred":
            belief = Belief(cast(ViewWithHistory, view), cast(Any, beta),
                            int(self.digest[:8], 16), cost=cast(Any, cost))
            self.beta = belief.beta
            self.deal = dealer(view, belief.sample)
        moves = _moves_of(pos, rotations=True)
        effects: dict[Move, int] = {}
        self.turns: list[TurnObject] = [t for t, _ in moves]
        self.group_of = [effects.setdefault(m, len(effects)) for _, m in moves]
        self.moves: list[Move] = list(effects)
        self.plain = sorted({g for t, g in zip(self.turns, self.group_of, strict=True)
                             if _kind(t) == "play"})
        self.samples = [_Samples(win) for _ in self.moves]
        self.live = set(range(len(self.moves)))
        self.peeks = [_Peek(q, i, k, win) for q, i, k in _peekable(view)]
        self.peeks_live = set(range(len(self.peeks)))
        self.z = separation_z(len(self.moves) + len(self.peeks) - 1, looks_of(settings))
        """The level of every interval against the best (the best against all others, at
        any of the sequential rule's looks)."""
        self.reference = _Samples()
        self.intervals: dict[tuple[tuple[str, int], tuple[str, int], int],
                             tuple[float, float, int]] = {}
        """:meth:`undecided`'s intervals of dropped decisions against a plain best, by
        (decision, best, the decision's worlds)."""
        self.worlds = 0
        self.per_turn: list[float] | None = None

    def most_worlds(self) -> int:
        """The most worlds any decision has been played in so far."""
        return max(len(s.m) for s in self.samples)

    # -------------------------------------------------------------- play-outs

    def worlds_of(self, ids: Sequence[int]) -> Worlds:
        """Worlds ``ids``: world ``wid`` is the position's world of the generator
        ``random.Random(world_seed(digest, wid))`` (under the model's deal)."""
        base = world_seed(self.digest, 0)
        return Worlds(self.pos, [base + wid for wid in ids], self.deal)

    def play(self, groups: Sequence[int], start: int, stop: int,
             reference: bool) -> Generator[None, None, None]:
        """Play ``groups`` in worlds ``start..stop-1``, a chunk a step."""
        seat = self.pos.seat
        moves = [self.moves[g] for g in groups]
        # per group its dicts (cost, margin, own penalty, win), filled as _Samples.add does
        sinks = [(s.g, s.m if s.win else None, s.p, s.w)
                 for s in (self.samples[g] for g in groups)]
        others = [s for s in range(self.pos.n) if s != seat]
        k = len(others)
        peeks = [(pk.values, pk.q, pk.i) for pk in self.peeks]
        for a in range(start, stop, _CHUNK):
            ids = range(a, min(stop, a + _CHUNK))
            ws = self.worlds_of(ids)
            rows = play_outs(self.sim, moves, ws, reference=reference)
            for wid, row in zip(ids, rows, strict=True):
                for (g_, m_, p_, w_), pen in zip(sinks, row, strict=False):
                    mine = pen[seat]
                    g_[wid] = mine - (sum(pen) - mine) / k
                    p_[wid] = mine
                    w_[wid] = won = int(mine <= min([pen[s] for s in others]))
                    if m_ is not None:
                        m_[wid] = float(1 - won)
                if reference:
                    self.reference.add(wid, row[-1], seat)
            for values, q, i in peeks:
                values.update(zip(ids, ws.values(q, i), strict=True))
            yield

    # -------------------------------------------------------------- peeks

    def peek_samples(self, pk: _Peek, ids: Sequence[int]) -> _Samples:
        """The peek's results on worlds ``ids`` (every plain group played in all of them):
        in each group of worlds by the card's value, the plain play chosen on the other
        parity's worlds of the group (its own parity when the other has none)."""
        groups: dict[int, list[int]] = {}
        for w in ids:
            groups.setdefault(pk.values[w], []).append(w)
        out = _Samples(self.objective == "win_probability")
        plain = [self.samples[g] for g in self.plain]
        costs = [s.m.__getitem__ for s in plain]
        for value, ws in groups.items():
            best_all = min(range(len(plain)), key=lambda j: (math.fsum(map(costs[j], ws)), j))
            pk.choice[value] = self.plain[best_all]
            for fold in (0, 1):
                test = [w for w in ws if w % 2 == fold]
                train = [w for w in ws if w % 2 != fold] or test
                if not test:
                    continue
                j = min(range(len(plain)), key=lambda j: (math.fsum(map(costs[j], train)), j))
                s = plain[j]
                for w in test:
                    out.copy_world(s, w)
        out.g = dict(sorted(out.g.items()))
        out.m = dict(sorted(out.m.items())) if out.win else out.g
        return out

    def refresh_peeks(self) -> None:
        ids = range(self.worlds)
        for k in sorted(self.peeks_live):
            self.peeks[k].samples = self.peek_samples(self.peeks[k], ids)

    # -------------------------------------------------------------- decisions

    def candidates(self) -> list[tuple[str, int]]:
        """Every group and peek, as ("g", group) / ("p", peek)."""
        return ([("g", g) for g in range(len(self.moves))]
                + [("p", k) for k in range(len(self.peeks))])

    def of(self, c: tuple[str, int]) -> _Samples:
        return self.samples[c[1]] if c[0] == "g" else self.peeks[c[1]].samples

    def best(self) -> tuple[str, int]:
        """The best decision: the non-peek group with the lowest mean among those played
        in the most worlds; a peek first instead when it is clearly better than it."""
        most = max(len(self.samples[g].m) for g in range(len(self.moves)))
        b0 = min((g for g in range(len(self.moves)) if len(self.samples[g].m) == most),
                 key=lambda g: (self.samples[g].mean(), g))
        best: tuple[str, int] = ("g", b0)
        peeks = [k for k in range(len(self.peeks)) if self.peeks[k].samples.m]
        if peeks:
            k = min(peeks, key=lambda k: (self.peeks[k].samples.mean(), k))
            d, half, n = _paired(self.peeks[k].samples, self.samples[b0], self.z)
            if n >= MIN_WORLDS and d + half < 0:
                best = ("p", k)
        return best

    def undecided(self, best: tuple[str, int]) -> list[tuple[str, int]]:
        """The decisions not yet separated from the best nor tied with it: the live ones,
        and the dropped ones an earlier best had decided that this one does not (their
        interval against it, on the worlds they were played in, reaches both ways)."""
        bs = self.of(best)
        out = []
        memo = self.intervals
        for c in self.candidates():
            if c == best:
                continue
            cs = self.of(c)
            # a dropped decision's interval against a plain best stands while neither
            # changes on its worlds (the best's later worlds are not among them)
            frozen = best[0] == "g" and c[1] not in (self.live if c[0] == "g"
                                                      else self.peeks_live)
            key = (c, best, len(cs.m))
            hit = memo.get(key) if frozen else None
            if hit is None:
                hit = _paired(cs, bs, self.z)
                if frozen:
                    memo[key] = hit
            d, half, n = hit
            if n < MIN_WORLDS:
                out.append(c)
                continue
            if c[0] == "p" and best[0] == "g":
                # a peek first is settled once it is clearly better, or cannot be better
                # by more than a tie
                decided = d + half < 0 or d - half > -self.tie
            else:
                decided = d - half > 0 or d + half <= self.tie
            if not decided:
                out.append(c)
        return out

    def fill(self, stops: Mapping[int, int]) -> Generator[None, None, bool]:
        """Play each group of ``stops`` from the first world it was not played in up to
        its stop (groups that start and stop alike in one call); return whether any
        world was played."""
        spans: dict[tuple[int, int], list[int]] = {}
        for g, stop in stops.items():
            n = len(self.samples[g].m)
            if n < stop:
                spans.setdefault((n, stop), []).append(g)
        for (start, stop), gs in sorted(spans.items()):
            yield from self.play(sorted(gs), start, stop, False)
        return bool(spans)

    def catch_up(self, behind: Sequence[tuple[str, int]]) -> Generator[None, None, None]:
        """Play the undecided decisions ``behind`` (played in fewer worlds than the run:
        dropped under an earlier best, or being caught up) live again: each group on the
        next batch of the worlds it missed; for a peek first, every plain group live again
        and on all the worlds it missed (the peek reads them all), then the peek on every
        world."""
        run_worlds = self.worlds
        groups = {g for kind, g in behind if kind == "g"}
        peeks = [k for kind, k in behind if kind == "p"]
        full = set(self.plain) if peeks else set()  # live again, on every world
        yield from self.fill({g: run_worlds if g in full else min(
            run_worlds, len(self.samples[g].m) + self.settings.batch)
            for g in groups | full})
        self.live |= groups | full
        if peeks:  # (a group played again here is no plain play a live peek reads)
            self.peeks_live.update(peeks)
            self.refresh_peeks()

    def prune(self, best: tuple[str, int], undecided: Sequence[tuple[str, int]]) -> None:
        """Stop playing the decided decisions: all but ``undecided`` (:meth:`undecided`)
        and the best (the plain plays stay while a peek is live)."""
        open_ = {*undecided, best}
        for k in list(self.peeks_live):
            if ("p", k) not in open_:
                self.peeks_live.discard(k)
        for g in list(self.live):
            if ("g", g) in open_ or (self.peeks_live and g in self.plain):
                continue
            self.live.discard(g)


def _groups_live(run: _Run) -> list[int]:
    return sorted(run.live)


def _analyse_steps(run: _Run) -> Generator[None, None, Analysis]:
    s = run.settings
    every = list(range(len(run.moves)))
    first = min(s.first, FIRST_STEP)
    yield from run.play(every, 0, first, True)
    yield from run.play(every, first, s.first, True)
    run.worlds = s.first
    run.refresh_peeks()
    stopped = "cap"
    while True:
        best = run.best()
        open_ = run.undecided(best)
        run.prune(best, open_)
        behind = [c for c in open_ if len(run.of(c).m) < run.worlds]
        if behind:  # a new best leaves decisions dropped under the old one undecided
            yield from run.catch_up(behind)
            continue
        if not open_:
            stopped = "separated"
            break
        if run.worlds >= s.cap:
            break
        stop = min(s.cap, run.worlds + s.batch)
        yield from run.play(_groups_live(run), run.worlds, stop, True)
        run.worlds = stop
        run.refresh_peeks()
    return _result(run, run.best(), stopped)


def _figures(s: _Samples) -> dict[str, Any]:
    m, mlo, mhi = mean_ci(list(s.g.values()))
    p, plo, phi = mean_ci([float(x) for x in s.p.values()])
    wp, wlo, whi = wilson(sum(s.w.values()), len(s.w))
    return {"expected_margin": m, "margin_ci95": [mlo, mhi], "expected_final_penalty": p,
            "final_penalty_ci95": [plo, phi], "win_probability": wp, "win_ci95": [wlo, whi],
            "worlds": len(s.m)}


def _immediates(run: _Run, peeks: Sequence[int]) -> tuple[list[float], dict[int, float]]:
    """The one-swat figure per listed turn (worked out once a run), and per peek of
    ``peeks`` (the chosen play's, under the odds with the card's value known, weighted by
    how often the worlds show it)."""
    view, pos = run.view, run.pos
    per_turn = run.per_turn
    if per_turn is None:
        imm = immediate_by_play(view)
        per_turn = []
        for t in run.turns:
            if t.get("wake"):
                per_turn.append(imm[("wake",)])
            elif "rotate" in t:
                per_turn.append(_immediate(view, pos, t))
            else:
                card, queue = play_pair(t["play"])
                per_turn.append(imm[("play", card, str(queue))])
        run.per_turn = per_turn
    per_peek: dict[int, float] = {}
    first_turn = {g: t for t, g in reversed(list(zip(run.turns, run.group_of, strict=True)))}
    for k in peeks:
        pk = run.peeks[k]
        counts: dict[int, int] = {}
        for w in pk.samples.m:
            counts[pk.values[w]] = counts.get(pk.values[w], 0) + 1
        total = sum(counts.values())
        acc = 0.0
        for value, n in counts.items():
            shown = copy.deepcopy(view)
            shown["queues"][pk.q][pk.i]["value"] = value
            t = first_turn[pk.choice[value]]
            card, queue = play_pair(t["play"])
            e = next(float(m["expected_penalty"]) for m in move_evaluation(shown)
                     if "play" in m and tuple(play_pair(m["play"])) == (card, queue))
            acc += e * n / total
        per_peek[k] = acc
    return per_turn, per_peek


def _result(run: _Run, best: tuple[str, int], stopped: str) -> Analysis:
    """The analysis of ``run`` with ``best`` the best decision; ``stopped="running"``: the
    figures so far of a run under way (the peeks not valued yet left out, no ★)."""
    bs = run.of(best)
    peeks = [k for k, pk in enumerate(run.peeks) if pk.samples.m]
    per_turn, per_peek = _immediates(run, peeks)
    rows: list[tuple[tuple[str, int], DecisionValue]] = []
    first_turn = {g: t for t, g in reversed(list(zip(run.turns, run.group_of, strict=True)))}
    seat = run.pos.seat
    for t, g, ie in zip(run.turns, run.group_of, per_turn, strict=True):
        s = run.samples[g]
        d, half, _ = _paired(s, bs, run.z) if ("g", g) != best else (0.0, 0.0, 0)
        dv = cast(DecisionValue, {
            "kind": _kind(t), "turn": t, "key": _key_of(t), "group": g, **_figures(s),
            "vs_best": d, "vs_best_ci95": [d - half, d + half],
            "immediate_expected_penalty": ie})
        rows.append((("g", g), dv))
    ng = len(run.moves)
    for k in peeks:
        pk = run.peeks[k]
        s = pk.samples
        d, half, _ = _paired(s, bs, run.z) if ("p", k) != best else (0.0, 0.0, 0)
        counts: dict[int, int] = {}
        for w in s.m:
            counts[pk.values[w]] = counts.get(pk.values[w], 0) + 1
        then: list[PeekBranch] = [
            {"value": v, "share": n / len(s.m),
             "turn": {**first_turn[pk.choice[v]], "peek": [pk.q, pk.i], "extra": "before"}}
            for v, n in sorted(counts.items())]
        likeliest = max(then, key=lambda b: (b["share"], -b["value"]))
        turn: TurnObject = cast(TurnObject, {"seat": seat, "peek": [pk.q, pk.i],
                                             "extra": "before",
                                             "play": likeliest["turn"]["play"]})
        dv = cast(DecisionValue, {
            "kind": "peek first", "turn": turn, "key": f"{seat}|peek|{pk.q}|{pk.i}",
            "group": ng + k, **_figures(s), "vs_best": d, "vs_best_ci95": [d - half, d + half],
            "immediate_expected_penalty": per_peek[k], "then": then})
        rows.append((("p", k), dv))
    best_group = best[1] if best[0] == "g" else ng + best[1]
    rows.sort(key=lambda r: (r[1]["group"] != best_group, r[1]["vs_best"],
                             r[1]["expected_margin"], r[1]["group"]))
    decisions = [dv for _, dv in rows]
    equal = []
    for i, (c, dv) in enumerate(rows):
        if dv["group"] == best_group:
            equal.append(i)
        elif (c[0] == "g" or best[0] == "p") and dv["vs_best_ci95"][0] <= 0:
            equal.append(i)
    star = stopped != "running" and all(decisions[i]["group"] == best_group for i in equal)
    forced = all(dv["vs_best_ci95"][1] <= run.tie for dv in decisions)
    out: Analysis = {
        "format": ANALYSIS_FORMAT, "digest": run.digest, "seat": seat,
        "turn": run.pos.turns_applied, "model": run.model,
        "settings": asdict(run.settings),
        "worlds": run.worlds if stopped != "running" else run.most_worlds(), "decisions": decisions,
        "best": 0, "star": star, "equal": equal, "stopped": stopped,
        "reference": math.fsum(run.reference.p.values()) / len(run.reference.p), "forced": forced,
    }
    if run.beta is not None:
        out["beta"] = dict(run.beta)
        out["cost"] = run.cost
    if run.objective != "margin":
        out["objective"] = run.objective
    return out


# ------------------------------------------------------------------------- the API

T = TypeVar("T")


def _to_end(steps: Generator[None, None, T]) -> T:
    while True:
        try:
            next(steps)
        except StopIteration as end:
            return cast(T, end.value)


def analyse_steps(view: View, settings: Settings | None = None, *, model: str = "uniform",
                  beta: float | str = "fitted", seed: int = 0, cost: str = BELIEF_COST,
                  objective: str = "margin") -> Generator[None, None, Analysis]:
    """:func:`analyse` a chunk of play-outs per ``next`` (for a front end without threads);
    the same result however it is stepped. A cached position returns at once."""
    s = _settings(settings)
    _check(view, model, beta, seed, cost, objective)
    digest = view_digest(view, model=model, beta=beta, seed=seed, settings=s, cost=cost,
                         objective=objective)
    hit = _cached(digest)
    if hit is not None:
        return cast(Analysis, hit)
    run = _Run(view, s, model, beta, seed, cost, objective)
    out = yield from _analyse_steps(run)
    _store(digest, out)
    _keep_run(digest, run)
    return out


def analyse(view: View, settings: Settings | None = None, *, model: str = "uniform",
            beta: float | str = "fitted", seed: int = 0, cost: str = BELIEF_COST,
            objective: str = "margin") -> Analysis:
    """The one analysis of the position of ``view`` (a seat's view; with its public
    history for ``model="inferred"``) for the seat to move: every decision valued (see the
    module docstring), best first. ``settings``: the budget (:class:`Settings`);
    ``beta`` and ``cost``: how the inferred model reads the players; ``seed``: an extra
    salt of the digest (0 everywhere a person is shown figures); ``objective``: what it
    ranks by (:data:`OBJECTIVES`; the margin unless a review asks for the chance of
    winning).

    Returns an :class:`Analysis`. Raises :class:`IllegalActionError` when the seat is not
    to move or the game is over, :class:`InvalidViewError` for a malformed view and
    :class:`SetupError` for bad settings, model, seed or objective.
    """
    return _to_end(analyse_steps(view, settings, model=model, beta=beta, seed=seed, cost=cost,
                                 objective=objective))


class Analysing:
    """:func:`analyse` stepped a chunk of play-outs at a time, with the figures so far
    between the chunks: what the moves panel shows while it thinks. Once it stops, its
    :attr:`result` is the very analysis :func:`analyse` gives for the same arguments (the
    same digest, the same worlds, stored in the same cache, so the coach and the review
    get it for free; a position already analysed is done at once). Built from the same
    arguments as :func:`analyse`, it raises what :func:`analyse` raises.

    >>> from tenleave_widget import Game
    >>> g = Game(2, seed=3)
    >>> a = Analysing(g.view(0), Settings(first=16, batch=16, cap=32))
    >>> a.figures() is None, a.done
    (True, False)
    >>> while not a.step():
    ...     assert a.figures()["stopped"] == "running" and not a.figures()["star"]
    >>> a.result == analyse(g.view(0), Settings(first=16, batch=16, cap=32))
    True
    """

    def __init__(self, view: View, settings: Settings | None = None, *,
                 model: str = "uniform", beta: float | str = "fitted", seed: int = 0,
                 cost: str = BELIEF_COST) -> None:
        s = _settings(settings)
        _check(view, model, beta, seed, cost, "margin")
        self.settings = s
        """The budget (part of the digest)."""
        self.digest = view_digest(view, model=model, beta=beta, seed=seed, settings=s,
                                  cost=cost)
        """The position's digest (:func:`view_digest`): the cache's key."""
        self.result: Analysis | None = cast("Analysis | None", _cached(self.digest))
        """The analysis once it has stopped (``None`` before)."""
        self._run: _Run | None = None
        self._steps: Generator[None, None, Analysis] | None = None
        if self.result is None:
            self._run = _Run(view, s, model, beta, seed, cost)
            self._steps = _analyse_steps(self._run)

    @property
    def done(self) -> bool:
        """Whether the analysis has stopped (:attr:`result` is set)."""
        return self.result is not None

    @property
    def worlds(self) -> int:
        """The most worlds a decision has been played in so far."""
        if self.result is not None:
            return int(self.result["worlds"])
        assert self._run is not None
        return self._run.most_worlds()

    def step(self) -> bool:
        """Play one chunk of worlds (:func:`analyse_steps`' step); True once the analysis
        has stopped (it is then cached, as :func:`analyse` caches it)."""
        if self.result is not None:
            return True
        assert self._run is not None and self._steps is not None
        try:
            next(self._steps)
        except StopIteration as end:
            out = cast(Analysis, end.value)
            _store(self.digest, out)
            _keep_run(self.digest, self._run)
            self.result, self._steps = out, None
            return True
        return False

    def advance(self, ms: float) -> bool:
        """Play chunks for about ``ms`` milliseconds (at least one); True once stopped."""
        end = time.perf_counter() + ms / 1000
        while not self.step():
            if time.perf_counter() >= end:
                return False
        return True

    def figures(self) -> Analysis | None:
        """The analysis once stopped; before, the figures so far (``stopped="running"``,
        no ★, the peeks first left out until the first round is played), or ``None``
        before the first chunk."""
        if self.result is not None:
            return cast(Analysis, _copy(self.result))
        run = self._run
        assert run is not None
        if run.most_worlds() == 0:
            return None
        return _result(run, run.best(), "running")


def verdict_looks(n: int, s: Settings) -> int:
    """The most looks a verdict (:func:`judge`) takes at the data when its analysis
    stopped at ``n`` worlds: the first, one per round of new worlds (a quarter more
    each, at least :attr:`Settings.batch`) up to :attr:`Settings.judge_cap`, and two
    more at the cap (for a rival not yet played in all of them).

    >>> verdict_looks(1024, Settings())  # 1024 -> 1280 -> 1600 -> 2000 -> 2048
    7
    """
    looks = 3
    while n < s.judge_cap:
        n = _verdict_round(n, s)
        looks += 1
    return looks


def _verdict_round(n: int, s: Settings) -> int:
    """The worlds a verdict has after its next round from ``n``: a quarter more (at least
    :attr:`Settings.batch`), at most :attr:`Settings.judge_cap`."""
    return min(s.judge_cap, n + max(s.batch, n // 4))


def label_of(loss: float, lo: float, hi: float, tied: bool,
             bounds: tuple[float, float, float, float] = BOUNDS) -> tuple[str, str | None]:
    """The label of a loss (points) with its interval ``[lo, hi]`` (the verdict's, at the
    analysis's level), and the harshest label above it whose bound the interval reaches
    (``hi`` over it; None if none): the range of labels the interval leaves open.
    Every label is given only where the interval's low end clears its bound (else the
    milder one): ``good`` over :data:`TIE`, ``inaccuracy``, ``mistake`` and ``blunder``
    over theirs (:data:`BOUNDS`); ``best`` otherwise, and for a decision tied with the
    best (``tied``: in the analysis's ``equal``) unless it clears an error's bound. So a
    label depends on the point estimate only through its interval, and more worlds
    change it only where the interval straddled a bound. ``bounds``: the objective's
    (:data:`OBJECTIVE_BOUNDS`).

    >>> label_of(2.5, 2.1, 2.9, False)
    ('mistake', None)
    >>> label_of(2.5, 1.5, 4.5, False)
    ('inaccuracy', 'blunder')
    >>> label_of(0.1, -0.2, 0.2, True)
    ('best', None)
    >>> label_of(0.1, -0.2, 0.4, True)  # as good as the best, or a little worse
    ('best', 'good')
    >>> label_of(0.6, 0.1, 1.1, False)  # not clearly worse by more than a quarter point
    ('best', 'inaccuracy')
    """
    label = "best" if tied or lo <= bounds[0] else "good"
    for name, bound in zip(LABELS[2:], bounds[1:], strict=True):
        if lo > bound:
            label = name
    near = None
    for name, bound in zip(LABELS[1:], bounds, strict=True):
        if bound < hi and LABELS.index(name) > LABELS.index(label):
            near = name
    return label, near


def judge_steps(view: View, played: Mapping[str, Any], settings: Settings | None = None, *,
                model: str = "uniform", beta: float | str = "fitted", seed: int = 0,
                cost: str = BELIEF_COST, seen: int | None = None, objective: str = "margin",
                ) -> Generator[None, None, Verdict]:
    """:func:`judge` a chunk of play-outs per ``next``."""
    s = _settings(settings)
    key = decision_key(check_view(view), played)  # a malformed turn before any play-out
    a = yield from analyse_steps(view, s, model=model, beta=beta, seed=seed, cost=cost,
                                 objective=objective)
    at = [i for i, d in enumerate(a["decisions"]) if d["key"] == key]
    if not at:
        raise IllegalActionError(f"{excerpt(dict(played))} is not a decision of seat "
                                 f"{a['seat']} in this position")
    i = at[0]
    mine = a["decisions"][i]
    then: tuple[int, str] | None = None  # a peek first: the value seen, the play made
    if mine["kind"] == "peek first":
        if seen is None or type(seen) is not int or not 1 <= seen <= 5:
            raise SetupError(f"a peek first is judged with the value it showed (seen=1..5), "
                             f"not {excerpt(seen)}")
        card, q = play_pair(played["play"])
        then = (seen, _key_of({"seat": played["seat"], "play": [card, q]}))
    vkey = f"verdict:{a['digest']}:{key}:{then}"
    hit = _cached(vkey)
    if hit is not None:
        return cast(Verdict, hit)
    top = a["decisions"][0]
    if mine["group"] == top["group"] and then is None and \
            all(a["decisions"][e]["group"] == top["group"] for e in a["equal"]):
        # the best, separated from every other decision
        out: Verdict = {"analysis": a, "played": i, "loss": 0.0, "loss_ci95": [0.0, 0.0],
                        "label": "best", "near": None, "worlds": mine["worlds"],
                        "played_final_penalty": mine["expected_final_penalty"],
                        "best_final_penalty": top["expected_final_penalty"]}
        _store(vkey, out)
        return out
    kept = _kept_run(a["digest"])
    run = kept if kept is not None else _Run(view, s, model, beta, seed, cost, objective)
    if kept is None:  # the analysis was cached, its worlds were not: play them again
        yield from _analyse_steps(run)
        _keep_run(a["digest"], run)
    ng = len(run.moves)

    def cand(d: DecisionValue) -> tuple[str, int]:
        return ("g", d["group"]) if d["group"] < ng else ("p", d["group"] - ng)

    c_mine, c_top = cand(mine), cand(top)
    # the decisions as good as the best (with a ★, the best alone): the best is one of
    # them, so the loss is at least the played decision's loss to each and at most the
    # largest of them
    rivals = sorted(({cand(a["decisions"][e]) for e in a["equal"]} | {c_top}) - {c_mine})
    # a peek first that may be better than a plain best (its interval against it reaches
    # below 0) is not as good as the best, but the loss may be as large as the loss to it:
    # the interval's upper end reads the likeliest such peek too
    ahead = [d for d in a["decisions"] if d["kind"] == "peek first"
             and top["kind"] != "peek first" and d["vs_best_ci95"][0] < 0
             and cand(d) != c_mine]
    above = [cand(min(ahead, key=lambda d: (d["vs_best"], d["group"])))] if ahead else []
    n = run.worlds
    looks = verdict_looks(n, s)
    z = separation_z(len(rivals) + len(above), looks)

    def loss_now() -> tuple[tuple[str, int], float, float, float, int]:
        """The rival that may make the loss largest, the loss, its interval, and on how
        many worlds the loss to that rival stands."""
        ids: list[int] = []  # the worlds a peek first is valued on, worked out once

        def common_ids() -> list[int]:
            if not ids:
                ids.extend(_common_ids(run, n))
            return ids

        def of_now(c: tuple[str, int]) -> _Samples:
            return run.of(c) if c[0] == "g" else run.peek_samples(run.peeks[c[1]],
                                                                 common_ids())

        mine_s = of_now(c_mine)
        rows = [(c, *_paired(mine_s, of_now(c), z, below=n)) for c in rivals]
        # those compared on enough worlds (on a tiny budget, on any)
        usable = [r for r in rows if r[3] >= MIN_WORLDS] or [r for r in rows if r[3]]
        if rivals and not usable:  # none played in the same worlds yet: play one
            return max(rows, key=lambda r: (r[3], r[0]))[0], 0.0, -math.inf, math.inf, 0
        ups = [r for r in ((c, *_paired(mine_s, of_now(c), z, below=n)) for c in above)
               if r[3] >= MIN_WORLDS]
        rival, d, half, common = c_top, 0.0, 0.0, n  # the best itself, without rivals
        lo = hi = 0.0
        if usable:
            rival = max(usable + ups, key=lambda r: (r[1] + r[2], r[0]))[0]
            lo = max(r[1] - r[2] for r in usable)
            hi = max(r[1] + r[2] for r in usable + ups)
            # the loss to the analysis's best, or at least what the played decision
            # surely loses to another decision as good as it (the analysis's best
            # itself loses nothing to the best)
            if c_top != c_mine:
                _, d, half, common = next((r for r in usable if r[0] == c_top), max(
                    usable, key=lambda r: (r[1] - r[2], r[0])))
            else:
                lo = 0.0
        loss = max(0.0, d, lo)
        if then is None:
            return rival, loss, lo, hi, common
        # the play after the peek, judged from what the seat then knew: against the best
        # play in the worlds where the card shows the value seen
        pk = run.peeks[c_mine[1]]
        ws = [w for w in common_ids() if pk.values[w] == then[0]]
        g = run.group_of[[_key_of(t) for t in run.turns].index(then[1])]
        if not ws:
            return rival, loss, lo, hi, common
        choice = min(run.plain, key=lambda p: (math.fsum(run.samples[p].m[w] for w in ws), p))
        d2, h2 = mean_half_width([run.samples[g].m[w] - run.samples[choice].m[w]
                                  for w in ws], z)
        loss, half = max(0.0, d) + max(0.0, d2), math.sqrt(half * half + h2 * h2)
        return rival, loss, loss - half, loss + half, min(common, len(ws))

    tied = i in a["equal"] and then is None
    read = run.bounds[1:] if tied else run.bounds  # the bounds its label reads

    def straddling() -> bool:
        """Whether the loss is not yet settled: too few worlds, or its interval across
        a bound its label reads."""
        return common < MIN_WORLDS or any(lo <= b < hi for b in read)

    rival, loss, lo, hi, common = loss_now()
    for _ in range(looks - 1):
        if not straddling():
            break
        # the played decision, the best and the rival (every plain play too where a peek
        # is one of them), each from the first world it was not played in (a pruned one
        # missed some below n) to a quarter more worlds than n
        peeky = "p" in (c_mine[0], c_top[0], rival[0])
        groups = sorted({c[1] for c in (c_mine, c_top, rival) if c[0] == "g"}
                        | (set(run.plain) if peeky else set()))
        stop = _verdict_round(n, s)
        if not (yield from run.fill(dict.fromkeys(groups, stop))):
            break
        n = stop
        rival, loss, lo, hi, common = loss_now()
    hi = max(hi, loss)
    lo = max(lo, 2 * loss - hi)  # reaching no further below the loss than above it
    label, near = label_of(loss, lo, hi, tied, run.bounds)
    out = {"analysis": a, "played": i, "loss": loss, "loss_ci95": [lo, hi],
           "label": label, "near": near, "worlds": common,
           "played_final_penalty": mine["expected_final_penalty"],
           "best_final_penalty": top["expected_final_penalty"]}
    _store(vkey, out)
    return out


def _common_ids(run: _Run, n: int) -> list[int]:
    """The worlds every plain play was played in, below ``n``."""
    if not run.plain:
        return []
    sets = [set(run.samples[g].m) for g in run.plain]
    return sorted(w for w in set.intersection(*sets) if w < n)


def judge(view: View, played: Mapping[str, Any], settings: Settings | None = None, *,
          model: str = "uniform", beta: float | str = "fitted", seed: int = 0,
          cost: str = BELIEF_COST, seen: int | None = None, objective: str = "margin",
          ) -> Verdict:
    """The played decision ``played`` (a record turn object of the seat to move) judged
    against the best of :func:`analyse`'s analysis of ``view``: its loss in points of
    expected margin (to the analysis's best, or the interval's low end where that is
    higher), its interval and its label (:func:`label_of`). The interval reads every
    decision the analysis counts as good as the best (its ``equal``; with a ★ the best
    alone), one of which is the best: its low end is the largest of the played
    decision's paired low ends against them, its upper end the largest of their upper
    ends, at the verdict's level (:func:`separation_z` over them and
    :func:`verdict_looks`). While it straddles a bound its label reads, more worlds are
    played for the played decision, the best and the rival with the largest upper end
    (every plain play too where one is a peek first): from the first world each was not
    played in, up to :attr:`Settings.judge_cap`. Without a ★ the upper end is above 0
    even for the analysis's own best.

    A peek first is two decisions: which card to look at (the peek against the best,
    from ``view``) and the play made knowing the value ``seen`` (against the best play in
    the worlds where the card shows it, from what the seat then knew); its loss is the sum
    of the two, their intervals combined. ``seen`` is needed then (a
    :class:`SetupError` without it). With ``objective="win_probability"`` the loss is the
    drop in the chance of winning, labelled by :data:`WIN_BOUNDS`.

    Raises :class:`IllegalActionError` when ``played`` is not a decision of the seat
    here, and what :func:`analyse` raises."""
    return _to_end(judge_steps(view, played, settings, model=model, beta=beta, seed=seed,
                               cost=cost, seen=seen, objective=objective))
