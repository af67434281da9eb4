"""Why a card's chances moved: the one choice of an opponent that moved them most.

:func:`~tenleave_widget.analysis.infer.infer` says how the players' choices change the
chances of the cards a seat cannot see. This module says **why**, for the card whose
chances moved most: of the opponents' past choices, the one whose evidence moved that
card's most-changed value the most, found honestly from the model.

- *The card*: of the face-down table cards the seat cannot see, the one whose
  distribution moved furthest from the uniform model's (total variation distance:
  half the sum of the absolute differences); *the value*: the one whose chance moved
  most.
- *The choice*: for every decision the model read (:func:`infer`'s), the same worlds are
  weighed again **without** that one decision (the exact leave-one-out posterior: with
  ``beta="fitted"`` the opponent's beta is integrated out again without it). The choice is
  the decision without which the value's chance is furthest back from where the model
  puts it, in the direction it moved. Below :data:`MIN_SHIFT` no card moved, and below
  :data:`MIN_PUSH` no single choice did (several together did): then there is no choice.
- *Its reason*: the chooser's **regret** of its choice (its one-swat expected penalty
  minus that of its cheapest option then, from its own view), on average over the worlds
  where the card has the value and over the others, weighed without that choice: a choice
  that would have been costly if the card had the value makes the value less likely.

Pure function of the view (with its public history) and the seed, as :func:`infer` is.

>>> from tenleave_widget import Game
>>> from tenleave_widget.analysis.infer import with_history
>>> g = Game(["Ana", "Ben"], seed=1)
>>> g.apply({"seat": 0, "play": ["5", 0]})
>>> g.apply({"seat": 1, "play": ["3*", 0]})
>>> s = biggest_shift(with_history(g, 0), beta=4.0)
>>> s["key"], s["value"], round(s["uniform"], 2), round(s["inferred"], 3)
(1, 3, 0.4, 0.951)
>>> c = s["choice"]
>>> c["seat"], c["turn"], c["own"], c["queue"], round(c["without"], 2)
(1, 1, True, 0, 0.4)
>>> round(c["regret_if"], 2), round(c["regret_else"], 2)
(1.75, 2.75)
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import TypedDict

from ..engine.cards import card_notation
from ..engine.view import ViewWithHistory
from .infer import (
    DEFAULT_COST,
    DEFAULT_SAMPLES,
    Beta,
    Cost,
    _Component,
    _costs,
    _Decision,
    _log_choice,
    _logsumexp,
    _Posterior,
    _posterior,
    _Prior,
    _worlds,
)

__all__ = ["MIN_PUSH", "MIN_SHIFT", "Choice", "Shift", "biggest_shift"]

MIN_SHIFT = 0.01
"""A card whose distribution moved less than this (total variation) did not move."""

MIN_PUSH = 0.005
"""A choice that moved the value's chance less than this did not move it."""


class Choice(TypedDict):
    """The opponent's decision that moved the card's value most: ``seat`` chose at turn
    ``turn`` (0-based, as in a record) to play a card with ``back`` onto ``queue`` or,
    with ``wake``, to wake SleepKid first (``queue`` ``None``); ``own``: the card played
    is this very card. ``without``: the value's chance read from every other choice but
    this one. ``regret_if`` / ``regret_else``: the chooser's expected extra one-swat
    penalty of this choice over its cheapest option, if the card has the value / not."""

    seat: int
    turn: int
    queue: int | None
    back: str | None
    wake: bool
    own: bool
    without: float
    regret_if: float
    regret_else: float


class Shift(TypedDict):
    """The unseen table card whose chances moved most (``key``, as in the view: the turn
    that played it; ``owner``, ``back``, ``queue``, ``position``), by ``moved`` (total
    variation distance), its most-moved ``value`` with that value's chance by the rules
    alone (``uniform``) and as the choices suggest (``inferred``), and the ``choice``
    that moved it most (``None`` when none moved it alone)."""

    key: int
    owner: int
    back: str
    queue: int
    position: int
    moved: float
    value: int
    uniform: float
    inferred: float
    choice: Choice | None


def _tv(a: Mapping[int, float], b: Mapping[int, float]) -> float:
    return 0.5 * sum(abs(a.get(v, 0.0) - b.get(v, 0.0)) for v in set(a) | set(b))


def biggest_shift(view: ViewWithHistory, beta: Beta = "fitted", seed: int = 0,
                  samples: int = DEFAULT_SAMPLES, cost: Cost = DEFAULT_COST) -> Shift | None:
    """The card whose chances the players' choices moved most, and the choice that moved
    it most (see the module docstring); ``None`` when no card moved. Arguments and errors
    as :func:`~tenleave_widget.analysis.infer.infer`'s (the same worlds are weighed)."""
    post = _posterior(view, beta, seed, samples, cost)
    comp_of = {o: c for c in post.comps for o in c.seats}
    best: tuple[float, int] | None = None
    where: dict[int, tuple[int, int]] = {}
    for q, queue in enumerate(view["queues"]):
        for i, card in enumerate(queue):
            where[int(card["key"])] = (q, i)
    group_of = {key: g for g in post.groups for key in g.keys}
    for key in sorted(group_of):
        g = group_of[key]
        got = comp_of[g.owner].marginals.get(key)
        if got is None:
            continue
        moved = _tv(got, {v: c / sum(g.pool.values()) for v, c in g.pool.items()})
        if best is None or moved > best[0] + 1e-12:
            best = (moved, key)
    if best is None or best[0] < MIN_SHIFT:
        return None
    moved, key = best
    g = group_of[key]
    size = sum(g.pool.values())
    uniform = {v: c / size for v, c in g.pool.items()}
    inferred = comp_of[g.owner].marginals[key]
    value = max(sorted(uniform), key=lambda v: abs(inferred[v] - uniform[v]))
    q, i = where[key]
    c = comp_of[g.owner]
    return {"key": key, "owner": g.owner, "back": g.back, "queue": q, "position": i,
            "moved": moved, "value": value, "uniform": uniform[value],
            "inferred": inferred[value],
            "choice": _choice(view, post, c, key, value, inferred[value] - uniform[value],
                              seed, samples)}


def _choice(view: ViewWithHistory, post: _Posterior, c: _Component, key: int, value: int,
            direction: float, seed: int, samples: int) -> Choice | None:
    """The decision of component ``c`` without which the chance of ``key`` being ``value``
    is furthest back (against ``direction``), with its regrets."""
    decisions = [d for d in c.decisions if not post.priors[d.seat].uniform]
    if not decisions:
        return None
    group = next(g for g in c.groups if key in g.keys)
    gi, ki = c.groups.index(group), group.keys.index(key)
    rows: dict[tuple[int, tuple[str, ...]], tuple[list[float], float]] = {}
    world = dict(post.card_of)
    # per world: whether the card has the value, and per decision the log weight of the
    # world without that decision, and the decision's regret in it
    has: list[bool] = []
    without: list[list[float]] = []
    regret: list[list[float]] = []
    index = post.comps.index(c)
    for assignment, log_prior in _worlds(c, post.hidden, seed, index, samples):
        for grp, values in zip(c.groups, assignment, strict=True):
            star = grp.back == "marked"
            for k, v in zip(grp.keys, values, strict=True):
                world[k] = card_notation(v, star)
        per: list[tuple[list[float], float]] = []
        for d in decisions:
            sig = tuple(world[k] for k in d.deps)
            got = rows.get((id(d), sig))
            if got is None:
                got = rows[(id(d), sig)] = _row(d, world, post.priors[d.seat])
            per.append(got)
        acc: dict[int, list[float]] = {}
        for o in c.seats:
            acc[o] = list(post.priors[o].log_prior)
        for d, (row, _) in zip(decisions, per, strict=True):
            acc[d.seat] = [a + x for a, x in zip(acc[d.seat], row, strict=True)]
        whole = {o: _logsumexp(a) for o, a in acc.items()}
        total = log_prior + sum(whole.values())
        has.append(assignment[gi][ki] == value)
        without.append([
            total - whole[d.seat] + _logsumexp([a - x for a, x in zip(acc[d.seat], row,
                                                                       strict=True)])
            for d, (row, _) in zip(decisions, per, strict=True)
        ])
        regret.append([r for _, r in per])
    best: tuple[float, int, float] | None = None
    for j in range(len(decisions)):
        logs = [w[j] for w in without]
        top = max(logs)
        weights = [math.exp(x - top) for x in logs]
        z = sum(weights)
        p = sum(w for w, h in zip(weights, has, strict=True) if h) / z
        push = (c.marginals[key][value] - p) * (1 if direction > 0 else -1)
        if best is None or push > best[0] + 1e-12:
            best = (push, j, p)
    assert best is not None
    push, j, p = best
    if push < MIN_PUSH:
        return None
    d = decisions[j]
    logs = [w[j] for w in without]
    top = max(logs)
    weights = [math.exp(x - top) for x in logs]
    r_if = _mean([(w, r[j]) for w, r, h in zip(weights, regret, has, strict=True) if h])
    r_else = _mean([(w, r[j]) for w, r, h in zip(weights, regret, has, strict=True) if not h])
    play = next(e for e in view["history"]["turns"][d.turn] if e["kind"] == "play")
    return {"seat": d.seat, "turn": d.turn,
            "queue": None if d.chosen is None else int(play["queue"]),
            "back": None if d.chosen is None else str(play["back"]),
            "wake": d.chosen is None, "own": d.chosen is not None and d.chosen[0] == key,
            "without": p, "regret_if": r_if, "regret_else": r_else}


def _row(d: _Decision, world: Mapping[int, str], prior: _Prior) -> tuple[list[float], float]:
    """The log likelihood of ``d``'s choice in ``world`` at each point of ``prior``'s grid
    (its beta, read by its cost), and its regret (its one-swat cost minus the cheapest
    option's: the reason is told in those words, whichever cost read the choice)."""
    costs, chosen = _costs(d, world)
    return ([_log_choice(*_costs(d, world, prior.kind(j)), b) if b else
             -math.log(len(costs)) for j, b in enumerate(prior.grid)],
            costs[chosen] - min(costs))


def _mean(pairs: list[tuple[float, float]]) -> float:
    z = sum(w for w, _ in pairs)
    return sum(w * x for w, x in pairs) / z if z > 0 else 0.0
