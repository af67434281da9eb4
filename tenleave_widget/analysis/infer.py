"""What their choices reveal: a posterior over the cards a seat cannot see.

The odds (:mod:`tenleave_widget.analysis.odds`) use the *uniform model* of RULES.md §9:
an opponent's face-down card is any of what is left of its back. This module reads the
players: for every card seat P cannot see — each face-down table card (keyed by the turn
that played it) and each opponent's unseen hand — it gives the value distribution under
the uniform model and under a model of how the opponents choose.

The model: opponent o chose each of its past decisions with probability proportional to
``exp(-beta_o * cost)``, the cost computed from o's own view at that moment — the
expected penalty of a swat right after the decision (``cost="one-swat"``, what the
``greedy`` bot minimises), its expected final margin (``"lookahead"``), or whichever
explains its choices better (``"fitted"``, the default, :data:`DEFAULT_COST`). Beta 0 is
the uniform model; ``beta="fitted"`` integrates each opponent's beta out under
:data:`BETA_PRIOR`. Worlds are weighed exactly when an independent group of opponents has
at most :data:`EXACT_LIMIT` of them, else by importance sampling from the uniform model,
falling back to it (``"fallback": true``) when the effective sample size drops below
:data:`ESS_FLOOR`.

The input is the seat's view with its public history (:func:`with_history`); it holds
nothing the seat does not know, and the result is a pure function of it and the seed.
The method, why this cost and how well calibrated it is: ``docs/methods/inference.md``.

Example:
    Ben put a marked card beside Ana's plain one; read with beta 4, it is a 3:

    >>> from tenleave_widget import Game
    >>> g = Game(["Ana", "Ben"], seed=1)
    >>> g.apply({"seat": 0, "play": ["5", 0]})
    >>> g.apply({"seat": 1, "play": ["3*", 0]})
    >>> out = infer(with_history(g, 0), beta=4.0)
    >>> card = out["cards"][0]
    >>> card["key"], card["owner"], card["back"], card["uniform"]
    (1, 1, 'marked', {'3': 0.4, '4': 0.4, '5': 0.2})
    >>> {v: round(p, 4) for v, p in card["inferred"].items()}
    {'3': 0.9515, '4': 0.0474, '5': 0.0012}
"""

from __future__ import annotations

import itertools
import math
import random
import sys
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TypedDict

from ..engine.cards import card_notation, value_and_back
from ..engine.errors import InvalidViewError, SetupError, TenLeaveError, excerpt
from ..engine.game import Game
from ..engine.rules import Rules
from ..engine.turn import AFTER, BEFORE, Turn, TurnStep, play_pair
from ..engine.view import GameEvent, History, TableCard, View, ViewWithHistory, check_view
from .odds import MoveOdds, QueueOdds, SeatOdds, move_evaluation
from .worlds import Hidden

__all__ = [
    "BETA_GRID",
    "BETA_PRIOR",
    "COSTS",
    "DEFAULT_SAMPLES",
    "ESS_FLOOR",
    "EXACT_LIMIT",
    "CardBelief",
    "HandBelief",
    "History",
    "Inference",
    "InferenceSummary",
    "InferredOdds",
    "OpponentFit",
    "infer",
    "inferred_odds",
    "observed_choices",
    "public_history",
    "with_history",
]

BETA_GRID: tuple[float, ...] = (0.0, 0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0, 32.0)
"""The values of beta that ``beta="fitted"`` weighs."""

BETA_PRIOR: tuple[float, ...] = (0.9,) + (0.1 / (len(BETA_GRID) - 1),) * (len(BETA_GRID) - 1)
"""The prior of ``beta="fitted"`` on :data:`BETA_GRID`: 0.9 at beta = 0, the rest spread
evenly (1/80 each). It keeps beta finite and takes a player for random until its choices
say otherwise (how it was chosen: ``docs/methods/inference.md``)."""

EXACT_LIMIT = 4096
"""A component with at most this many distinct worlds is enumerated exactly."""

DEFAULT_SAMPLES = 512
"""Worlds drawn per component too large to enumerate."""

ESS_FLOOR = 16.0
"""Below this effective sample size a sampled component falls back to the uniform model."""


# ----------------------------------------------------------------------------- results


class CardBelief(TypedDict):
    """A face-down table card the seat cannot see: ``key`` (the turn that played it), its
    ``queue`` and ``position`` (0 = front), and its value distribution (``"3"`` -> p)
    under the uniform model and as the players' choices suggest."""

    key: int
    owner: int
    back: str
    queue: int
    position: int
    uniform: dict[str, float]
    inferred: dict[str, float]


class HandBelief(TypedDict):
    """An opponent's unseen hand cards of one back: ``size`` cards, and the value
    distribution of any one of them (the expected count of value v is ``size * p``)."""

    owner: int
    back: str
    size: int
    uniform: dict[str, float]
    inferred: dict[str, float]


class OpponentFit(TypedDict):
    """One opponent: its beta (given, or the posterior mean when fitted), how many of its
    decisions were read, and how its component was computed: ``method`` is ``"exact"``
    (every world enumerated), ``"sampled"``, or ``"uniform"`` (nothing to read: beta 0
    or no decision); ``worlds`` the worlds weighed; ``effective_samples`` the ESS of a
    sampled component (``None`` otherwise); ``fallback`` when it collapsed; ``reading``:
    the posterior probability of each way of reading it — ``"random"`` (beta 0) or the
    cost its choices are read by (:data:`COSTS`)."""

    seat: int
    beta: float
    fitted: bool
    decisions: int
    method: str
    worlds: int
    effective_samples: float | None
    fallback: bool
    reading: dict[str, float]


class Inference(TypedDict):
    """The result of :func:`infer` (the ``tenleave infer`` JSON)."""

    seat: int
    turn: int
    model: str
    beta: dict[str, float]
    cards: list[CardBelief]
    hands: list[HandBelief]
    opponents: list[OpponentFit]
    effective_samples: float | None
    samples: int
    fallback: bool


class InferenceSummary(TypedDict):
    """What :func:`inferred_odds` says of the reading behind its odds (``"inference"``)."""

    model: str
    beta: dict[str, float]
    opponents: list[OpponentFit]
    effective_samples: float | None
    samples: int
    fallback: bool


class InferredOdds(SeatOdds, total=False):
    """The result of :func:`inferred_odds` (``tenleave odds --model inferred``): the odds'
    shape, then ``"model": "inferred"`` and the ``inference`` behind them."""

    model: str
    inference: InferenceSummary


MODEL = "softmax of the one-swat expected penalty"

COSTS = ("one-swat", "lookahead", "fitted")
"""The costs a player's choices can be read with:

- ``"one-swat"``: the expected penalty of a swat right after the decision (exact; what the
  ``greedy`` bot minimises);
- ``"lookahead"``: the decision's expected final margin from the chooser's view
  (:func:`~tenleave_widget.analysis.lookahead.evaluate_view` at
  :data:`LOOKAHEAD_COST_WORLDS` worlds, rotations off; what the ``lookahead`` bot
  minimises; a few milliseconds per distinct view);
- ``"fitted"``: each opponent's own, read from its choices as its beta is — a mixture over
  :data:`READ_COSTS` integrated out with the beta and the world. A given beta is on the
  one-swat cost's scale, so with a given beta ``"fitted"`` reads by that cost.

The result's ``opponents[i]["reading"]`` is the posterior probability of each reading
(``"random"``, ``"one-swat"``, ``"lookahead"``)."""

LOOKAHEAD_COST_WORLDS = 4
"""The worlds of one ``cost="lookahead"`` evaluation, chosen for speed: more worlds explain
a lookahead player's choices better, at a cost paid per distinct view of every past
decision (``benchmarks/bench_infer.py --cost-study``; ``docs/methods/inference.md``)."""

READ_COSTS = ("one-swat", "lookahead")
"""The costs ``cost="fitted"`` weighs for each opponent."""

DEFAULT_COST = "fitted"
"""The cost :func:`infer` (and :func:`inferred_odds`, ``tenleave infer``, ``tenleave odds
--model inferred``) reads the players by unless told (see :data:`COSTS`): each opponent's
own, fitted — better than the one-swat cost on lookahead players' cards, a little worse on
greedy players', at about ten times the CPU time (the measurement:
``docs/methods/inference.md``)."""

_MODEL_OF = {"one-swat": MODEL,
             "lookahead": f"softmax of the lookahead margin ({LOOKAHEAD_COST_WORLDS} worlds)",
             "fitted": "softmax of the one-swat expected penalty or of the lookahead margin "
                       f"({LOOKAHEAD_COST_WORLDS} worlds), which one read per opponent"}


def public_history(game: Game) -> History:
    """The public history of ``game`` so far: what every seat saw happen.

    Args:
        game: the game.

    Returns:
        ``{"token": the first Human Defense token, "turns": [the events of each turn]}``,
        each turn's events as :meth:`~tenleave_widget.engine.game.Game.events` gives them.

    Example:
        >>> g = Game(2, seed=1)
        >>> g.apply({"seat": 0, "play": ["2", 1], "peek": [1, 0], "extra": "after"})
        >>> h = public_history(g)
        >>> [e["kind"] for e in h["turns"][0]]
        ['play', 'peek']
    """
    return {"token": game.defense[0], "turns": [game.events(k) for k in range(game.turns_applied)]}


def with_history(game: Game, seat: int | None) -> ViewWithHistory:
    """Seat ``seat``'s view of ``game`` with its public history: the input of :func:`infer`.

    Args:
        game: the game.
        seat: the seat whose view it is; ``None`` for the omniscient view (which
            :func:`observed_choices` reads).

    Returns:
        :meth:`~tenleave_widget.engine.game.Game.view` of ``seat`` with one more key,
        ``"history"`` (:func:`public_history`).
    """
    return {**game.view(seat), "history": public_history(game)}


# ------------------------------------------------------------------------- the unknowns


@dataclass
class _Group:
    """The cards of one (owner, back) the seat cannot see: the face-down ``keys`` (in table
    order) and ``hand`` cards in hand, a uniformly random arrangement of ``pool``; group
    ``index`` of the uniform model's :class:`~tenleave_widget.analysis.worlds.Hidden`."""

    index: int
    owner: int
    back: str
    pool: dict[int, int]
    keys: list[int] = field(default_factory=list)
    hand: int = 0

    def uniform(self) -> dict[str, float]:
        size = sum(self.pool.values())
        return {str(v): c / size for v, c in self.pool.items()}

    def sequences(self) -> list[tuple[tuple[int, ...], float]]:
        """Every distinct assignment of values to ``keys`` with its uniform probability."""
        out: list[tuple[tuple[int, ...], float]] = []
        counts = dict(self.pool)
        size = sum(counts.values())
        n = len(self.keys)

        def walk(i: int, left: int, p: float, values: tuple[int, ...]) -> None:
            if i == n:
                out.append((values, p))
                return
            for v, c in counts.items():
                if c:
                    counts[v] = c - 1
                    walk(i + 1, left - 1, p * c / left, values + (v,))
                    counts[v] = c

        walk(0, size, 1.0, ())
        return out


def _count_sequences(pool: Mapping[int, int], n: int) -> int:
    """How many distinct sequences of ``n`` values can be drawn from ``pool``.

    >>> _count_sequences({3: 2, 4: 2, 5: 1}, 2)
    8
    """
    total = 0
    items = list(pool.items())

    def walk(i: int, left: int, ways: int) -> None:
        nonlocal total
        if i == len(items):
            if left == 0:
                total += ways
            return
        for k in range(min(items[i][1], left) + 1):
            walk(i + 1, left - k, ways * math.comb(left, k))

    walk(0, n, 1)
    return total


def _groups(view: View, seat: int) -> tuple[list[_Group], Hidden]:
    """The (owner, back) groups of the other seats that hold cards the seat cannot see:
    the uniform model's (:class:`~tenleave_widget.analysis.worlds.Hidden`, hands too)."""
    hidden = Hidden(view, hands=True)
    groups = [_Group(g, o, back, hidden.counts[g], hand=hidden.in_hand[g])
              for g, (o, back) in enumerate(hidden.keys)]
    for queue, row in zip(view["queues"], hidden.slots, strict=True):
        for card, slot in zip(queue, row, strict=True):
            if slot < 0:
                if card["owner"] == seat:
                    raise InvalidViewError("a seat's view must show its own cards' values")
                groups[-1 - slot].keys.append(int(card["key"]))
    return groups, hidden


# ---------------------------------------------------------------------- the decisions


@dataclass
class _Decision:
    """One past choice of an opponent, as it saw the table then.

    ``view``: its view then, with the values it knew in the reference world (what the
    move evaluation and ``cost="lookahead"`` read); ``patch``: where that view shows a
    value the seat cannot see ``(queue, position, key)``; its hand was ``base`` less the
    cards of ``played`` (its cards played before then that the seat cannot see).
    ``chosen``: ``None`` for a wake, else the key and queue of the card played;
    ``plays_only``: waking was not open;
    ``deps``: the keys whose values its choice depends on (the memo's key)."""

    seat: int
    turn: int
    view: View
    patch: list[tuple[int, int, int]]
    base: Counter[str]
    played: list[int]
    chosen: tuple[int, int] | None
    plays_only: bool
    deps: tuple[int, ...] = ()
    cache: dict[tuple[str, ...], tuple[list[float], int]] = field(default_factory=dict)


def _history(view: ViewWithHistory) -> History:
    history = view.get("history")
    if not isinstance(history, Mapping):
        raise InvalidViewError(
            "infer needs the view's public history: pass with_history(game, seat) "
            "(or a record through tenleave infer)"
        )
    turns = history.get("turns")
    token = history.get("token")
    if not isinstance(turns, list) or not isinstance(token, str):
        raise InvalidViewError("the view's 'history' must hold 'token' and 'turns'")
    if len(turns) != view.get("turns_applied"):
        raise InvalidViewError(
            f"the history has {len(turns)} turns but the view is after "
            f"{excerpt(view.get('turns_applied'))}"
        )
    return {"token": token, "turns": turns}


def _turn_of(events: Sequence[GameEvent], card_of: Mapping[int, str]) -> Turn:
    """The record turn behind one turn's public events, given every played card."""
    kinds = [e["kind"] for e in events]
    i = kinds.index("play")  # a ValueError for a turn without a play: a malformed history
    play = next(e for e in events[i:] if e["kind"] == "play")
    peek = rotate = None
    wake = "wake" in kinds
    extra = BEFORE
    for j, e in enumerate(events):
        if e["kind"] == "peek":
            peek = (int(e["queue"]), int(e["position"]))
        elif e["kind"] == "rotate":
            rotate = int(e["queue"])
        else:
            continue
        extra = AFTER if j > i else BEFORE
    return Turn(int(play["seat"]), card_of[int(play["key"])], int(play["queue"]),
                peek, rotate, wake, extra)


def _decisions(view: ViewWithHistory, seat: int | None, groups: list[_Group]
               ) -> tuple[list[_Decision], dict[int, str]]:
    """Replay the public history in one world consistent with the view (any will do:
    the values it fills in are patched per world) and take each opponent's view at each
    of its choices (every seat's, for the omniscient view: ``seat`` ``None``); also every
    played card's notation in that world. Raises :class:`InvalidViewError` when the
    history does not lead to the view."""
    history = _history(view)
    unknown = {k for g in groups for k in g.keys}
    card_of: dict[int, str] = {}
    defense = [history["token"]]
    try:
        for events in history["turns"]:
            for e in events:
                if e["kind"] == "swat":
                    for qe in e["queues"]:
                        for c in qe["flipped"] + ([qe["single"]] if qe["single"] else []):
                            card_of[int(c["key"])] = str(c["card"])
                elif e["kind"] == "token":
                    defense.append(str(e["token"]))
        for queue in view["queues"]:
            for card in queue:
                if card["value"] is not None:
                    card_of[int(card["key"])] = card_notation(
                        int(card["value"]), card["back"] == "marked")
        for g in groups:
            values = sorted(v for v, c in g.pool.items() for _ in range(c))
            for k, v in zip(g.keys, values, strict=False):
                card_of[k] = card_notation(v, g.back == "marked")
        turns = [_turn_of(events, card_of) for events in history["turns"]]
        game = Game(list(view["players"]), rules=Rules.from_json(view["rules"]),
                    first=int(view["first"]), defense=defense, strict_defense=True)
    except (KeyError, TypeError, ValueError, IndexError) as e:
        raise InvalidViewError(f"the view's history is malformed: {excerpt(str(e))}") from None
    seat_of = {k: t.seat for k, t in enumerate(turns)}
    dealt = [Counter(d) for d in view["dealt"]]
    out: list[_Decision] = []
    for k, turn in enumerate(turns):
        o = turn.seat
        if o != seat:
            played = [j for j in range(k) if seat_of[j] == o]
            base = dealt[o] - Counter(card_of[j] for j in played if j not in unknown)
            hidden = [j for j in played if j in unknown]
            chosen = (k, turn.queue)
            moments: list[tuple[list[TurnStep], tuple[int, int] | None, bool]] = []
            if turn.wake:
                moments = [([], None, False), ([{"kind": "wake"}], chosen, True)]
            elif turn.action != "none" and turn.extra == BEFORE:
                moments = [(turn.steps()[:1], chosen, True)]
            else:
                moments = [([], chosen, False)]
            for steps, what, plays_only in moments:
                seen = (game.preview(steps) if steps else game).view(o)
                patch = [(q, i, int(c["key"])) for q, queue in enumerate(seen["queues"])
                         for i, c in enumerate(queue)
                         if c["value"] is not None and int(c["key"]) in unknown]
                deps = sorted({key for _, _, key in patch} | set(hidden)
                              | ({k} if k in unknown else set()))
                out.append(_Decision(o, k, seen, patch, base, hidden, what, plays_only,
                                     tuple(deps)))
        try:
            game.apply(turn)
        except TenLeaveError as e:
            raise InvalidViewError(f"the view's history is not a legal game at turn {k}: "
                                   f"{e}") from None
    given: Mapping[str, object] = view
    if any(value != given[key] for key, value in game.view(seat).items()):
        raise InvalidViewError("the view's history does not lead to this view")
    return out, card_of


def observed_choices(game: Game, cost: str = "one-swat"
                     ) -> list[tuple[int, int, list[float], int]]:
    """Every decision every seat of ``game`` made, as the model reads it, from that seat's
    true view then: what fitting a player's beta by maximum likelihood needs.

    Args:
        game: the game.
        cost: the cost the choices are read by, ``"one-swat"`` or ``"lookahead"``
            (:data:`COSTS`).

    Returns:
        One ``(seat, turn, costs, chosen)`` per decision: the cost of each decision open
        to the seat then, and the index of the one it chose.

    Example:
        >>> g = Game(["Ana", "Ben"], seed=1)
        >>> g.apply({"seat": 0, "play": ["5", 0]})
        >>> g.apply({"seat": 1, "play": ["3*", 0]})
        >>> seat, turn, costs, chosen = observed_choices(g)[1]
        >>> seat, turn, costs[chosen], min(costs)
        (1, 1, 2.25, 0.5)
    """
    decisions, card_of = _decisions(with_history(game, None), None, [])
    return [(d.seat, d.turn, *_costs(d, card_of, cost)) for d in decisions]


def _costs(d: _Decision, card_of: Mapping[int, str],
           cost: str = "one-swat") -> tuple[list[float], int]:
    """The opponent's cost of each of its decisions then, in one world (see
    :data:`COSTS`), and the index of the one it chose (memoised on the values it could
    see)."""
    sig = (cost, *(card_of[k] for k in d.deps))
    hit = d.cache.get(sig)
    if hit is not None:
        return hit
    t = d.view
    queues = [list(q) for q in t["queues"]]
    for q, i, key in d.patch:
        queues[q][i] = {**queues[q][i], "value": value_and_back(card_of[key])[0]}
    hand = d.base - Counter(card_of[k] for k in d.played)
    hands = list(t["hands"])
    hands[d.seat] = {**hands[d.seat], "cards": sorted(hand.elements())}
    then: View = {**t, "queues": queues, "hands": hands}
    moves = move_evaluation(then)
    if d.plays_only:
        moves = [m for m in moves if "play" in m]
    costs = [float(m["expected_penalty"]) for m in moves]
    if cost == "lookahead":
        costs = _lookahead_costs(then, moves, d.turn)
    if d.chosen is None:
        index = next(j for j, m in enumerate(moves) if m.get("wake"))
    else:
        key, queue = d.chosen
        index = next(j for j, m in enumerate(moves) if m.get("play") == [card_of[key], queue])
    result = (costs, index)
    d.cache[sig] = result
    return result


def _lookahead_costs(view: View, moves: Sequence[MoveOdds],
                     seed: int) -> list[float]:
    """Per move of ``moves`` (a play, or waking), its expected final margin from ``view``
    (:data:`LOOKAHEAD_COST_WORLDS` worlds, rotations off; waking: its best play after)."""
    from .lookahead import evaluate_view  # the lookahead imports this module's users

    ev = evaluate_view(view, LOOKAHEAD_COST_WORLDS, seed, rotations=False)
    value: dict[tuple[str | int, ...], float] = {}
    for m in ev["moves"]:
        turn = m["turn"]
        key = ("wake",) if turn.get("wake") else ("play", *turn["play"])
        value[key] = min(value.get(key, math.inf), float(m["expected_margin"]))
    return [value[("wake",) if m.get("wake") else ("play", *m["play"])] for m in moves]


def _log_choice(costs: Sequence[float], index: int, beta: float) -> float:
    """log P(choice ``index``) under the softmax of ``-beta * costs``.

    >>> round(math.exp(_log_choice([0.0, 1.0], 0, math.log(3))), 3)
    0.75
    """
    if beta == 0.0:
        return -math.log(len(costs))
    low = min(costs)
    z = sum(math.exp(-beta * (c - low)) for c in costs)
    return -beta * (costs[index] - low) - math.log(z)


def _logsumexp(xs: Sequence[float]) -> float:
    top = max(xs)
    return top + math.log(sum(math.exp(x - top) for x in xs))


# ------------------------------------------------------------------------- the weights

Beta = float | Mapping[int, float] | str
"""A number (every opponent), a number per opponent seat (missing seats: 0) or ``"fitted"``."""


@dataclass(frozen=True)
class _Prior:
    """An opponent's model: one beta (``log_prior`` ``(0.0,)``) or a grid with its prior;
    ``kinds[j]`` is the cost read at ``grid[j]`` (:data:`COSTS`, ``"fitted"`` excepted)."""

    grid: tuple[float, ...]
    log_prior: tuple[float, ...]
    fitted: bool
    kinds: tuple[str, ...] = ()

    def kind(self, j: int) -> str:
        return self.kinds[j] if self.kinds else "one-swat"

    @property
    def uniform(self) -> bool:
        return self.grid == (0.0,)

    @property
    def mean(self) -> float:
        return sum(b * math.exp(lp) for b, lp in zip(self.grid, self.log_prior, strict=True))


def check_beta(beta: object, per_seat: bool = True) -> None:
    """Raise :class:`SetupError` unless ``beta`` is ``"fitted"`` or a number >= 0 a float
    holds (:func:`_number`) — or, with ``per_seat``, a mapping (seat to beta), whose
    seats and values :func:`infer` checks against the opponents."""
    if beta == "fitted" or (per_seat and isinstance(beta, Mapping)):
        return
    _number(beta, "beta")


def _number(x: object, what: str) -> float:
    if isinstance(x, bool) or not isinstance(x, (int, float)) or not (
            0 <= x <= sys.float_info.max):  # NaN, infinities and integers no float holds
        raise SetupError(f"{what} must be a number >= 0 or 'fitted', not {excerpt(x)}")
    return float(x)


Cost = str | Mapping[int, str]
"""One of :data:`COSTS` for every opponent, or one per opponent seat (missing: the default)."""


def _fitted_prior(kind: str) -> _Prior:
    if kind != "fitted":
        return _Prior(BETA_GRID, tuple(math.log(p) for p in BETA_PRIOR), True,
                      (kind,) * len(BETA_GRID))
    rest = BETA_GRID[1:]
    share = (1.0 - BETA_PRIOR[0]) / (len(READ_COSTS) * len(rest))
    return _Prior((0.0,) + rest * len(READ_COSTS),
                  (math.log(BETA_PRIOR[0]),) + (math.log(share),) * (len(READ_COSTS) * len(rest)),
                  True, ("one-swat",) + tuple(k for k in READ_COSTS for _ in rest))


def _given_prior(b: float, kind: str) -> _Prior:
    """A given beta: on the one-swat cost's scale when the cost is ``"fitted"``."""
    return _Prior((b,), (0.0,), False, ("one-swat" if kind == "fitted" else kind,))


def _priors(beta: Beta, opponents: Sequence[int], cost: Cost = "one-swat") -> dict[int, _Prior]:
    kinds: dict[int, str] = {}
    for o in opponents:
        kind = cost.get(o, DEFAULT_COST) if isinstance(cost, Mapping) else cost
        if kind not in COSTS:
            raise SetupError(f"cost must be one of {', '.join(COSTS)}, not {excerpt(kind)}")
        kinds[o] = kind
    if isinstance(cost, Mapping):
        unknown = [s for s in cost if s not in opponents]
        if unknown:
            raise SetupError(f"cost names seat {excerpt(unknown[0])}, which is not an opponent "
                             f"(opponents: {', '.join(map(str, opponents))})")
    if isinstance(beta, str):
        if beta != "fitted":
            raise SetupError(f"beta must be a number >= 0 or 'fitted', not {excerpt(beta)}")
        return {o: _fitted_prior(kinds[o]) for o in opponents}
    if isinstance(beta, Mapping):
        unknown = [s for s in beta if s not in opponents]
        if unknown:
            raise SetupError(f"beta names seat {excerpt(unknown[0])}, which is not an opponent "
                             f"(opponents: {', '.join(map(str, opponents))})")
        return {o: _given_prior(_number(beta.get(o, 0.0), f"beta of seat {o}"), kinds[o])
                for o in opponents}
    one = _number(beta, "beta")
    return {o: _given_prior(one, kinds[o]) for o in opponents}


@dataclass
class _Component:
    """Opponents whose beliefs are linked (one peeked another's unseen card), with their
    groups and decisions, and what weighing their worlds gave."""

    seats: list[int]
    groups: list[_Group]
    decisions: list[_Decision]
    method: str = "uniform"
    worlds: int = 0
    ess: float | None = None
    fallback: bool = False
    marginals: dict[int, dict[int, float]] = field(default_factory=dict)
    beta: dict[int, float] = field(default_factory=dict)
    read: dict[int, dict[str, float]] = field(default_factory=dict)
    """Per opponent, the posterior probability of each way of reading it (:func:`_reads`)."""
    support: list[tuple[list[tuple[int, ...]], float]] = field(default_factory=list)
    """The weighed worlds (per group, the values of its keys) with their posterior
    probability; empty when the component keeps the uniform model."""

    def joint(self, keys: Sequence[int]) -> dict[tuple[int, ...], float]:
        """The posterior distribution of the values of ``keys`` (keys of this component),
        in that order: projected from the weighed worlds, or the uniform model's."""
        out: dict[tuple[int, ...], float] = {}
        if self.support:
            at = {k: (gi, i) for gi, g in enumerate(self.groups) for i, k in enumerate(g.keys)}
            for assignment, p in self.support:
                values = tuple(assignment[at[k][0]][at[k][1]] for k in keys)
                out[values] = out.get(values, 0.0) + p
            return out
        wanted = set(keys)
        parts = [(sub, _Group(g.index, g.owner, g.back, g.pool, sub).sequences())
                 for g in self.groups if (sub := [k for k in g.keys if k in wanted])]
        for combo in itertools.product(*(seqs for _, seqs in parts)):
            value_of = {k: v for (sub, _), (values, _) in zip(parts, combo, strict=True)
                        for k, v in zip(sub, values, strict=True)}
            values = tuple(value_of[k] for k in keys)
            out[values] = out.get(values, 0.0) + math.prod(p for _, p in combo)
        return out


def _components(seat: int, n: int, groups: list[_Group], decisions: list[_Decision],
                owner_of: Mapping[int, int]) -> list[_Component]:
    """The opponents in linked sets: o and o' are linked when o's view at one of its
    decisions showed a card of o' that the seat cannot see (o peeked it)."""
    parent = {o: o for o in range(n) if o != seat}

    def find(o: int) -> int:
        while parent[o] != o:
            o = parent[o]
        return o

    for d in decisions:
        for _, _, key in d.patch:
            a, b = find(d.seat), find(owner_of[key])
            if a != b:
                parent[max(a, b)] = min(a, b)
    roots: dict[int, list[int]] = {}
    for o in sorted(parent):
        roots.setdefault(find(o), []).append(o)
    return [
        _Component(members, [g for g in groups if g.owner in members],
                   [d for d in decisions if d.seat in members])
        for members in roots.values()
    ]


def _worlds(c: _Component, hidden: Hidden, seed: int, index: int, samples: int
            ) -> Iterator[tuple[list[tuple[int, ...]], float]]:
    """The component's worlds (per group, the values of its keys) with their log prior
    weight: every distinct world with its uniform probability, or ``samples`` worlds
    dealt from the uniform model (:meth:`Hidden.deal`; each of weight 1)."""
    count = math.prod(_count_sequences(g.pool, len(g.keys)) for g in c.groups)
    if count <= EXACT_LIMIT:
        c.method, c.worlds = "exact", count
        for combo in itertools.product(*(g.sequences() for g in c.groups)):
            yield [values for values, _ in combo], math.log(math.prod(p for _, p in combo))
        return
    c.method, c.worlds = "sampled", samples
    rng = random.Random(f"infer:{seed}:{index}")
    for _ in range(samples):
        table, _ = hidden.deal(rng)
        yield [tuple(table[g.index]) for g in c.groups], 0.0


def _weigh(c: _Component, hidden: Hidden, priors: Mapping[int, _Prior],
           card_of: dict[int, str], seed: int, index: int, samples: int) -> None:
    """Weigh the component's worlds; fill in its marginals, betas and effective size."""
    by_seat = {o: [d for d in c.decisions if d.seat == o] for o in c.seats}
    if all(priors[o].uniform or not by_seat[o] for o in c.seats):
        c.beta = {o: priors[o].mean for o in c.seats}
        c.read = {o: _reads(priors[o], [math.exp(x) for x in priors[o].log_prior])
                  for o in c.seats}
        return
    logp: dict[tuple[int, tuple[str, ...]], list[float]] = {}
    log_w: list[float] = []
    kept: list[list[tuple[int, ...]]] = []
    beta_given: list[dict[int, float]] = []
    read_given: list[dict[int, dict[str, float]]] = []
    world = dict(card_of)
    for assignment, log_prior in _worlds(c, hidden, seed, index, samples):
        for g, values in zip(c.groups, assignment, strict=True):
            star = g.back == "marked"
            for key, v in zip(g.keys, values, strict=True):
                world[key] = card_notation(v, star)
        total = log_prior
        means: dict[int, float] = {}
        reads: dict[int, dict[str, float]] = {}
        for o in c.seats:
            prior = priors[o]
            acc = list(prior.log_prior)
            for d in by_seat[o]:
                sig = tuple(world[k] for k in d.deps)
                row = logp.get((id(d), sig))
                if row is None:
                    row = logp[(id(d), sig)] = [
                        _log_choice(*_costs(d, world, prior.kind(j)), b) if b else
                        -math.log(len(_costs(d, world)[0]))
                        for j, b in enumerate(prior.grid)]
                for j, x in enumerate(row):
                    acc[j] += x
            m = _logsumexp(acc)
            total += m
            post = [math.exp(a - m) for a in acc]
            means[o] = sum(b * p for b, p in zip(prior.grid, post, strict=True))
            reads[o] = _reads(prior, post)
        log_w.append(total)
        kept.append(assignment)
        beta_given.append(means)
        read_given.append(reads)
    top = max(log_w)
    w = [math.exp(x - top) for x in log_w]
    z = sum(w)
    if c.method == "sampled":
        c.ess = z * z / sum(x * x for x in w)
        if c.ess < ESS_FLOOR:
            c.fallback = True
            c.beta = {o: sum(wi * bg[o] for wi, bg in zip(w, beta_given, strict=True)) / z
                      for o in c.seats}
            c.read = {o: _average([r[o] for r in read_given], w) for o in c.seats}
            return
    for g in c.groups:
        for key in g.keys:
            c.marginals[key] = {v: 0.0 for v in g.pool}
    for wi, assignment in zip(w, kept, strict=True):
        p = wi / z
        c.support.append((assignment, p))
        for g, values in zip(c.groups, assignment, strict=True):
            for key, v in zip(g.keys, values, strict=True):
                c.marginals[key][v] += p
    c.beta = {o: sum(wi * bg[o] for wi, bg in zip(w, beta_given, strict=True)) / z
              for o in c.seats}
    c.read = {o: _average([r[o] for r in read_given], w) for o in c.seats}


def _reads(prior: _Prior, post: Sequence[float]) -> dict[str, float]:
    """The probability of each way of reading an opponent: ``"random"`` (beta 0) or the
    cost its choices are read by, from the probabilities of its grid's points."""
    out: dict[str, float] = {}
    for j, (b, p) in enumerate(zip(prior.grid, post, strict=True)):
        name = prior.kind(j) if b else "random"
        out[name] = out.get(name, 0.0) + p
    return out


def _average(reads: Sequence[Mapping[str, float]], w: Sequence[float]) -> dict[str, float]:
    z = sum(w)
    out: dict[str, float] = {}
    for r, wi in zip(reads, w, strict=True):
        for name, p in r.items():
            out[name] = out.get(name, 0.0) + wi * p / z
    return out


def _dist(d: Mapping[int, float]) -> dict[str, float]:
    return {str(v): p for v, p in d.items()}


@dataclass
class _Posterior:
    seat: int
    groups: list[_Group]
    comps: list[_Component]
    decisions: list[_Decision]
    priors: dict[int, _Prior]
    opponents: list[int]
    hidden: Hidden
    card_of: dict[int, str]
    """Every played card's notation in one world consistent with the view (the base that
    each weighed world patches; :mod:`.evidence` weighs the same worlds again)."""


def _posterior(view: ViewWithHistory, beta: Beta, seed: int, samples: int,
               cost: Cost = DEFAULT_COST) -> _Posterior:
    """Check the arguments, read every decision and weigh every component's worlds."""
    seat = check_view(view).get("seat")
    if type(seat) is not int:
        raise InvalidViewError("infer needs a seat's view (its 'seat' is not a seat)")
    if isinstance(samples, bool) or not isinstance(samples, int) or samples < 1:
        raise SetupError(f"samples must be a positive integer, not {excerpt(samples)}")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise SetupError(f"seed must be an integer, not {excerpt(seed)}")
    n = len(view["dealt"])
    opponents = [o for o in range(n) if o != seat]
    priors = _priors(beta, opponents, cost)
    groups, hidden = _groups(view, seat)
    decisions, card_of = _decisions(view, seat, groups)
    owner_of = {key: g.owner for g in groups for key in g.keys}
    comps = _components(seat, n, groups, decisions, owner_of)
    for i, c in enumerate(comps):
        _weigh(c, hidden, priors, card_of, seed, i, samples)
    return _Posterior(seat, groups, comps, decisions, priors, opponents, hidden, card_of)


def _model_name(post: _Posterior) -> str:
    """The model the opponents were read by: one cost for all, the fitted mixture, or a
    cost per opponent."""
    def name(p: _Prior) -> str:
        kinds = {p.kind(j) for j in range(len(p.grid))}
        return "fitted" if len(kinds) > 1 else kinds.pop()

    names = {o: name(post.priors[o]) for o in post.opponents}
    if len(set(names.values())) == 1:
        return _MODEL_OF[next(iter(names.values()))]
    return "softmax of each opponent's own cost (" + ", ".join(
        f"seat {o}: {c}" for o, c in sorted(names.items())) + ")"


def _fits(post: _Posterior) -> list[OpponentFit]:
    comp_of = {o: c for c in post.comps for o in c.seats}
    return [
        {"seat": o, "beta": comp_of[o].beta[o], "fitted": post.priors[o].fitted,
         "decisions": sum(1 for d in post.decisions if d.seat == o),
         "method": comp_of[o].method, "worlds": comp_of[o].worlds,
         "effective_samples": comp_of[o].ess, "fallback": comp_of[o].fallback,
         "reading": comp_of[o].read.get(o, {"random": 1.0})}
        for o in post.opponents
    ]


def infer(view: ViewWithHistory, beta: Beta = "fitted", seed: int = 0,
          samples: int = DEFAULT_SAMPLES, cost: Cost = DEFAULT_COST) -> Inference:
    """The posterior over the cards seat P cannot see, beside the uniform model's.

    P is ``view["seat"]``; the model is the module's (each opponent chose with probability
    proportional to ``exp(-beta * cost)``).

    Args:
        view: P's ``tenleave-view/1`` view with its public ``"history"``
            (:func:`with_history`).
        beta: each opponent's rationality: one number >= 0 for every opponent, a mapping
            seat -> number (a missing seat: 0), or ``"fitted"`` (the default: each
            opponent's integrated out under :data:`BETA_PRIOR`).
        seed: seeds the worlds drawn for a group too large to enumerate.
        samples: the worlds drawn for each such group.
        cost: what the opponents are taken to minimise (:data:`COSTS`), one for every
            opponent or a mapping seat -> cost.

    Returns:
        ``{"seat", "turn", "model", "beta", "cards", "hands", "opponents",
        "effective_samples", "samples", "fallback"}`` (:class:`Inference`): ``cards``
        (:class:`CardBelief`) in table order, queue by queue from the front; ``hands``
        (:class:`HandBelief`) per opponent and back with cards in hand; ``opponents``
        (:class:`OpponentFit`); ``effective_samples`` the smallest effective sample size
        of a sampled group (``None`` when all were exact); ``fallback`` whether any fell
        back to the uniform model. With beta 0 every ``inferred`` is its ``uniform``.

    Raises:
        InvalidViewError: the view has no seat, or its history is malformed or does not
            lead to it.
        SetupError: ``beta``, ``cost``, ``seed`` or ``samples`` is not one this takes
            (the message names it).

    Example:
        >>> from tenleave_widget import Game
        >>> g = Game(["Ana", "Ben"], seed=1)
        >>> g.apply({"seat": 0, "play": ["5", 0]})
        >>> g.apply({"seat": 1, "play": ["3*", 0]})
        >>> out = infer(with_history(g, 0), beta=0)
        >>> out["cards"][0]["inferred"] == out["cards"][0]["uniform"]
        True
    """
    post = _posterior(view, beta, seed, samples, cost)
    seat, groups, comps = post.seat, post.groups, post.comps
    comp_of = {o: c for c in comps for o in c.seats}
    group_of = {key: g for g in groups for key in g.keys}
    cards: list[CardBelief] = []
    for q, queue in enumerate(view["queues"]):
        for i, card in enumerate(queue):
            key = int(card["key"])
            if key not in group_of:
                continue
            g = group_of[key]
            uniform = g.uniform()
            got = comp_of[g.owner].marginals.get(key)
            cards.append({"key": key, "owner": g.owner, "back": g.back, "queue": q,
                          "position": i, "uniform": uniform,
                          "inferred": _dist(got) if got is not None else dict(uniform)})
    hands: list[HandBelief] = []
    for g in sorted(groups, key=lambda g: (g.owner, g.back != "marked")):
        if not g.hand:
            continue
        uniform = g.uniform()
        inferred = dict(uniform)
        c = comp_of[g.owner]
        if g.keys and g.keys[0] in c.marginals:
            inferred = {
                str(v): max(0.0, cnt - sum(c.marginals[k][v] for k in g.keys)) / g.hand
                for v, cnt in g.pool.items()
            }
        hands.append({"owner": g.owner, "back": g.back, "size": g.hand,
                      "uniform": uniform, "inferred": inferred})
    fits = _fits(post)
    sampled = [c.ess for c in comps if c.ess is not None]
    return {
        "seat": seat,
        "turn": int(view["turns_applied"]),
        "model": _model_name(post),
        "beta": {str(f["seat"]): f["beta"] for f in fits},
        "cards": cards,
        "hands": hands,
        "opponents": fits,
        "effective_samples": min(sampled) if sampled else None,
        "samples": samples,
        "fallback": any(c.fallback for c in comps),
    }


# ----------------------------------------------------------------------- the odds, read


def inferred_odds(view: ViewWithHistory, beta: Beta = "fitted", seed: int = 0,
                  samples: int = DEFAULT_SAMPLES, cost: Cost = DEFAULT_COST) -> InferredOdds:
    """The swat-risk odds of RULES.md §9 under the posterior of :func:`infer` instead of
    the uniform model.

    Exact under the posterior: each queue's cards the seat cannot see take every joint
    value the posterior gives them, and each is one exact swat of that queue, weighted by
    its probability; a move's expected penalty is the sum over queues of its expected
    cost.

    Args:
        view: the seat's view with its public history (:func:`with_history`).
        beta: as :func:`infer`'s.
        seed: as :func:`infer`'s.
        samples: as :func:`infer`'s.
        cost: as :func:`infer`'s.

    Returns:
        The shape of :func:`~tenleave_widget.analysis.odds.seat_odds` (moves included on
        the seat's turn), plus ``"model": "inferred"`` and ``"inference"``
        (:class:`InferenceSummary`: the betas, the effective sample size, the fallback).

    Raises:
        InvalidViewError: as :func:`infer`.
        SetupError: as :func:`infer`.

    Example:
        >>> from tenleave_widget import Game
        >>> g = Game(["Ana", "Ben"], seed=1)
        >>> g.apply({"seat": 0, "play": ["5", 0]})
        >>> g.apply({"seat": 1, "play": ["3*", 0]})
        >>> from tenleave_widget.analysis.odds import seat_odds
        >>> seat_odds(g.view(0))["queues"][0]["cards"][0]["p_swatted"]  # unless Ben's is a 5
        0.8
        >>> odds = inferred_odds(with_history(g, 0), beta=4.0)
        >>> round(odds["queues"][0]["cards"][0]["p_swatted"], 4), odds["model"]
        (0.9988, 'inferred')
    """
    from .odds import seat_odds

    post = _posterior(view, beta, seed, samples, cost)
    model = _model_name(post)
    seat = post.seat
    plain: View = view  # the odds below read the seat view (a ViewWithHistory is one)
    comp_of = {o: c for c in post.comps for o in c.seats}
    group_of = {key: g for g in post.groups for key in g.keys}
    n = len(view["dealt"])
    nq = len(view["queues"])
    on_turn = not view["finished"] and view["to_move"] == seat
    queues: list[QueueOdds] = []
    penalty = [[0.0] * n for _ in range(nq)]
    append: dict[tuple[str, int], float] = {}
    for q, queue in enumerate(view["queues"]):
        mine: dict[int, list[int]] = {}
        for card in queue:
            key = int(card["key"])
            if key in group_of:
                mine.setdefault(id(comp_of[group_of[key].owner]), []).append(key)
        comps = {id(c): c for c in post.comps}
        joints = [(keys, comps[ci].joint(keys)) for ci, keys in mine.items()]
        totals: dict[int, float] = {}
        outcome = [0.0, 0.0, 0.0]
        fate = [[0.0, 0.0, 0.0] for _ in queue]
        for combo in itertools.product(*(list(j.items()) for _, j in joints)):
            p = math.prod(w for _, w in combo)
            value_of = {k: v for (keys, _), (values, _) in zip(joints, combo, strict=True)
                        for k, v in zip(keys, values, strict=True)}
            filled: list[TableCard] = [
                {**c, "value": value_of.get(int(c["key"]), c["value"])} for c in queue]
            alone: View = {**plain, "queues": [filled if r == q else [] for r in range(nq)]}
            one = seat_odds(alone, moves=on_turn)
            qo = one["queues"][q]
            for t, tp in qo["total"].items():
                totals[int(t)] = totals.get(int(t), 0.0) + p * tp
            outcome[0] += p * qo["p_under"]
            outcome[1] += p * qo["p_exact"]
            outcome[2] += p * qo["p_over"]
            for i, c in enumerate(qo["cards"]):
                fate[i][0] += p * c["p_swatted"]
                fate[i][1] += p * c["p_escapes"]
                fate[i][2] += p * c["p_stays"]
            for s in range(n):
                penalty[q][s] += p * one["expected_penalty"][s]
            for m in one.get("moves", []):
                if "play" in m and m["play"][1] == q:
                    k2 = (play_pair(m["play"])[0], q)
                    append[k2] = append.get(k2, 0.0) + p * float(m["expected_penalty"])
        queues.append({
            "p_under": outcome[0], "p_exact": outcome[1], "p_over": outcome[2],
            "total": {str(t): tp for t, tp in sorted(totals.items())},
            "cards": [{"owner": c["owner"], "back": c["back"], "value": c["value"],
                       "p_swatted": f[0], "p_escapes": f[1], "p_stays": f[2]}
                      for c, f in zip(queue, fate, strict=True)],
        })
    out: InferredOdds = {
        "seat": seat,
        "token": view["token"],
        "queues": queues,
        "expected_penalty": [sum(penalty[q][s] for q in range(nq)) for s in range(n)],
    }
    if on_turn:
        moves: list[MoveOdds] = []
        for m in move_evaluation(plain):
            if "play" in m:
                note, q = play_pair(m["play"])
                rest = sum(penalty[r][seat] for r in range(nq) if r != q)
                moves.append({"play": [note, q], "expected_penalty": rest + append[(note, q)]})
            else:
                moves.append({"wake": True, "expected_penalty": sum(c[seat] for c in penalty)})
        out["moves"] = moves
    fits = _fits(post)
    sampled = [c.ess for c in post.comps if c.ess is not None]
    out["model"] = "inferred"
    out["inference"] = {
        "model": model,
        "beta": {str(f["seat"]): f["beta"] for f in fits},
        "opponents": fits,
        "effective_samples": min(sampled) if sampled else None,
        "samples": samples,
        "fallback": any(c.fallback for c in post.comps),
    }
    return out
