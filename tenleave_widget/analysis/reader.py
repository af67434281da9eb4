"""The ``reader`` bot's thinking: worlds dealt from the posterior, and what a peek is worth.

The ``lookahead`` bot (:mod:`~tenleave_widget.analysis.lookahead`) samples the cards it
cannot see from the uniform model and never peeks (in a play-out where every card is
visible a peek changes nothing). The reader does two things more, from its own view (with
the public history: :func:`~tenleave_widget.analysis.infer.with_history`) only:

1. *It reads the players.* Its worlds are dealt from the posterior of
   :mod:`~tenleave_widget.analysis.infer` (each opponent's beta fitted from its own choices
   so far): a :class:`Belief` is that posterior as a sampler of whole worlds (a value for
   every face-down card it cannot see, keyed as the view keys them; each hand is what is
   left), which :func:`dealer` turns into the lookahead's world sampler.
2. *It values peeks honestly* (:func:`peek_values`). A peek before the play reveals one
   value, then the seat chooses its play knowing it. So, on the same sampled worlds as
   the bare evaluation, group the worlds by the value the peek would reveal, take the
   best play within each group, and compare the average with the best bare decision.
   Choosing the best of many noisy means flatters both sides; so both are *cross-fitted*
   (the move is chosen on the odd worlds and scored on the even ones, and the other way
   round), which makes the gain an honest estimate, not an optimistic one.

>>> from tenleave_widget import Game
>>> from tenleave_widget.analysis.infer import with_history
>>> g = Game(3, seed=4)
>>> for t in [["5", 0], ["1", 1], ["4*", 1]]:
...     g.apply({"seat": g.to_move, "play": t})
>>> b = Belief(with_history(g, 0), seed=1)
>>> sorted(b.unknown)  # the two face-down cards seat 0 cannot see: turns 1 and 2
[1, 2]
>>> import random
>>> world = b.sample(random.Random(0))
>>> sorted(world) == [1, 2] and world[2] in (3, 4, 5)
True
>>> sorted(b.condition({2: 4}).sample(random.Random(0)))  # card 2 seen: a 4
[1]
"""

from __future__ import annotations

import bisect
import random
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from ..engine.cards import card_value
from ..engine.errors import SetupError, excerpt
from ..engine.view import View, ViewWithHistory
from .infer import Beta, Cost, _posterior
from .move_values import MoveValues
from .worlds import Deal, Hidden

__all__ = ["BELIEF_COST", "PEEK_CARDS", "Belief", "PeekValue", "dealer", "peek_card",
           "peek_values", "plain_turn", "revealed"]

World = dict[int, int]
"""One world: the value of every face-down card the seat cannot see, by key."""

BELIEF_COST = "one-swat"
"""What a :class:`Belief` (the reader bot's, the inferred review's and evaluation's
worlds) reads the players as minimising unless told (``infer``'s ``cost``): the one-swat
cost. ``benchmarks/bench_reader.py --opponents lookahead,lookahead --variant fitted`` (3
seats, 196 deals): the reader reading by ``"fitted"`` scored +0.06 [-0.50, +0.63] points
a game better than reading by the one-swat cost, at 65 ms of CPU per decision (median)
against 22: no measurable gain, three times the time."""


@dataclass(frozen=True)
class _Part:
    """An independent part of the belief: its groups (keys in table order, pool) and its
    weighed worlds (assignments key -> value with cumulative probabilities) — or none
    (the uniform model: each group a random arrangement of its pool)."""

    groups: tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]
    support: tuple[World, ...]
    cumulative: tuple[float, ...]

    def sample(self, rng: random.Random, out: World) -> None:
        if self.support:
            i = bisect.bisect_left(self.cumulative, rng.random() * self.cumulative[-1])
            out.update(self.support[min(i, len(self.support) - 1)])
            return
        for keys, pool in self.groups:
            p = list(pool)
            rng.shuffle(p)
            out.update(zip(keys, p, strict=False))


class Belief:
    """Seat P's posterior over the face-down cards it cannot see, as a world sampler.

    ``view``: P's view with its public history (the input of
    :func:`~tenleave_widget.analysis.infer.infer`); ``beta``, ``seed``, ``samples`` and
    ``cost`` as there. A component the inference enumerated or weighed keeps its weighed worlds; one
    it left uniform (beta 0, nothing to read, a fallback) is dealt from its pools.
    """

    def __init__(self, view: ViewWithHistory | None = None, beta: Beta = "fitted", seed: int = 0,
                 samples: int = 128, *, parts: Sequence[_Part] = (),
                 cost: Cost = BELIEF_COST) -> None:
        self.beta: dict[str, float] = {}
        """Per opponent seat, the beta it was read with (the posterior mean when fitted)."""
        if view is None:
            self.parts = list(parts)
        else:
            post = _posterior(view, beta, seed, samples, cost)
            self.beta = {str(o): c.beta.get(o, 0.0) for o in post.opponents
                         for c in post.comps if o in c.seats}
            self.parts = []
            for c in post.comps:
                groups = tuple((tuple(g.keys), tuple(v for v, n in g.pool.items()
                                                     for _ in range(n)))
                               for g in c.groups if g.keys)
                support: list[World] = []
                cum: list[float] = []
                acc = 0.0
                for assignment, p in c.support:
                    w: World = {}
                    for g, values in zip(c.groups, assignment, strict=True):
                        w.update(zip(g.keys, values, strict=True))
                    acc += p
                    support.append(w)
                    cum.append(acc)
                self.parts.append(_Part(groups, tuple(support), tuple(cum)))
        self.unknown = {k for part in self.parts for keys, _ in part.groups for k in keys}

    @classmethod
    def uniform(cls, view: View) -> Belief:
        """The uniform model of ``view`` (RULES.md §9) as a belief: no player read."""
        hidden = Hidden(view, hands=True)
        keys = _table_keys(view, hidden)
        groups = tuple((tuple(k), tuple(p)) for k, p in zip(keys, hidden.pools, strict=True) if k)
        return cls(parts=[_Part((g,), (), ()) for g in groups])

    def sample(self, rng: random.Random) -> World:
        """One world drawn from the posterior."""
        out: World = {}
        for part in self.parts:
            part.sample(rng, out)
        return out

    def condition(self, known: Mapping[int, int]) -> Belief:
        """The belief once the values ``known`` (key -> value; other keys ignored) are seen:
        the weighed worlds that agree (renormalised; if none does, the uniform model of what
        is left), and the uniform parts with those cards fixed."""
        known = {k: v for k, v in known.items() if k in self.unknown}
        parts: list[_Part] = []
        for part in self.parts:
            mine = {k: v for k, v in known.items()
                    if any(k in keys for keys, _ in part.groups)}
            if not mine:
                parts.append(part)
                continue
            kept = [(w, p) for w, p in zip(part.support, _probabilities(part.cumulative),
                                           strict=True)
                    if all(w[k] == v for k, v in mine.items())]
            groups = []
            for keys, pool in part.groups:
                left = Counter(pool)
                left.subtract(mine[k] for k in keys if k in mine)
                groups.append((tuple(k for k in keys if k not in mine),
                               tuple(sorted(left.elements()))))
            support: list[World] = []
            cum: list[float] = []
            acc = 0.0
            for w, p in kept:
                support.append({k: v for k, v in w.items() if k not in mine})
                acc += p
                cum.append(acc)
            if acc <= 0.0:
                support, cum = [], []
            parts.append(_Part(tuple(groups), tuple(support), tuple(cum)))
        return Belief(parts=parts)


def _table_keys(view: View, hidden: Hidden) -> list[list[int]]:
    """Per group of ``hidden``, the keys of its face-down table cards, in table order."""
    keys: list[list[int]] = [[] for _ in hidden.keys]
    for queue, row in zip(view["queues"], hidden.slots, strict=True):
        for card, slot in zip(queue, row, strict=True):
            if slot < 0:
                keys[-1 - slot].append(int(card["key"]))
    return keys


def _probabilities(cumulative: Sequence[float]) -> list[float]:
    if not cumulative:  # a uniform part: no weighed worlds
        return []
    return [b - a for a, b in zip((0.0, *cumulative[:-1]), cumulative, strict=True)]


def revealed(view: View) -> dict[int, int]:
    """The values ``view`` shows of table cards by key: face-up-to-the-seat cards in the
    queues and the cards flipped by the swats of its last turn's events."""
    out = {c["key"]: c["value"] for q in view["queues"] for c in q if c["value"] is not None}
    for e in view["events"]:
        if e["kind"] == "swat":
            for qe in e["queues"]:
                single = qe["single"]
                for c in qe["flipped"] + ([single] if single else []):
                    out[c["key"]] = card_value(c["card"])
    return out


def dealer(view: View, sample: Callable[[random.Random], Mapping[int, int]],
           record: list[Mapping[int, int]] | None = None) -> Deal:
    """The lookahead's world sampler for ``view`` (:data:`~tenleave_widget.analysis.worlds.Deal`)
    from ``sample`` (one world: the value of each face-down card the view does not show,
    by key): per group of ``Hidden(view, hands=True)`` its table values in table order,
    the rest of its pool in hand. ``record`` collects the worlds dealt, in order."""
    hidden = Hidden(view, hands=True)
    keys_of = _table_keys(view, hidden)
    counts = [Counter(c) for c in hidden.counts]

    def deal(rng: random.Random) -> tuple[list[list[int]], list[list[int]]]:
        world = sample(rng)
        if record is not None:
            record.append(world)
        table: list[list[int]] = []
        hands: list[list[int]] = []
        for keys, pool in zip(keys_of, counts, strict=True):
            values = [world[k] for k in keys]
            rest = pool.copy()
            rest.subtract(values)
            if min(rest.values(), default=0) < 0:
                raise ValueError("a dealt world does not fit the view's pools")  # a bug
            table.append(values)
            hands.append(sorted(rest.elements()))
        return table, hands

    return deal


def plain_turn(turn: Mapping[str, object]) -> bool:
    """Whether a move's record turn object is a plain play: no wake, no peek, no rotation
    (the choices left to a seat that peeks before its play)."""
    return not turn.get("wake") and "rotate" not in turn and "peek" not in turn


@dataclass(frozen=True)
class PeekValue:
    """What peeking the card ``key`` (at ``queue``, ``position``) before the play is worth:
    ``gain`` points of expected margin (cross-fitted, the bare decision's minus the
    decision knowing the value's), over ``worlds`` worlds."""

    key: int
    queue: int
    position: int
    gain: float
    worlds: int


def _crossfit(margins: Sequence[Sequence[float]], worlds: Sequence[int]) -> float:
    """The mean margin, over ``worlds``, of choosing among the moves (rows of ``margins``)
    on one half of them (by world parity) and scoring the choice on the other half."""
    total = 0.0
    for fold in (0, 1):
        train = [w for w in worlds if w % 2 != fold]
        test = [w for w in worlds if w % 2 == fold]
        if not test:
            continue
        pool = train if train else test
        best = min(range(len(margins)), key=lambda m: sum(margins[m][w] for w in pool))
        total += sum(margins[best][w] for w in test)
    return total / len(worlds)


def peek_values(view: View, evaluation: MoveValues,
                worlds: Sequence[Mapping[int, int]]) -> list[PeekValue]:
    """Per face-down card the seat cannot see, the honest worth of peeking it before the
    play (see the module docstring), from an ``evaluation`` with ``per_world`` figures and
    the ``worlds`` it was played on (as :func:`dealer` records them). Only the moves played
    in every world take part (successive halving dropped the others as clearly worse);
    a peek forgoes waking and rotating, so the informed choice is among the plain plays.
    Best first."""
    n = len(worlds)
    full = [m for m in evaluation["moves"] if m["samples"] == n]
    plays = [m["margin_samples"] for m in full if plain_turn(m["turn"])]
    everything = [m["margin_samples"] for m in full]
    if not plays or n < 4:
        return []
    every = list(range(n))
    bare = _crossfit(everything, every)
    out: list[PeekValue] = []
    for q, queue in enumerate(view["queues"]):
        for i, card in enumerate(queue):
            key = int(card["key"])
            if card["value"] is not None or key not in worlds[0]:
                continue
            groups: dict[int, list[int]] = {}
            for w, world in enumerate(worlds):
                groups.setdefault(world[key], []).append(w)
            informed = sum(_crossfit(plays, ws) * len(ws) for ws in groups.values()) / n
            out.append(PeekValue(key, q, i, bare - informed, n))
    out.sort(key=lambda p: (-p.gain, p.queue, p.position))
    return out


PEEK_CARDS = ("spread", "outcome", "decision")
"""How the reader picks the card it peeks when no peek is worth its threshold for the play
at hand (:func:`peek_card`)."""


def _between(xs: Sequence[float], groups: Sequence[Sequence[int]], n: int) -> float:
    """The variance of the group means of ``xs`` (weighted by group size): how much of
    ``xs`` the grouping explains."""
    mean = sum(xs) / n
    return sum(len(g) * (sum(xs[w] for w in g) / len(g) - mean) ** 2 for g in groups) / n


def peek_card(view: View, evaluation: MoveValues, worlds: Sequence[Mapping[int, int]],
              how: str = "spread") -> tuple[int, int] | None:
    """(queue, position) of the face-down card the seat cannot see that is the most worth
    knowing by the measure ``how`` (:data:`PEEK_CARDS`), or None when there is none:
    ``"spread"``, the card whose value the ``worlds`` spread the most (the largest
    variance); ``"outcome"``, the card whose value explains the most of the best move's
    margin across the worlds (the variance of its mean margin per value); ``"decision"``,
    the card whose value explains the most of the differences between the best move and
    the other plain plays (the same, averaged over those differences). Front first, then
    queue order, on a tie. ``evaluation`` and ``worlds`` as for :func:`peek_values`."""
    if how not in PEEK_CARDS:
        raise SetupError(f"peek card: one of {', '.join(PEEK_CARDS)}, not {excerpt(how)}")
    n = len(worlds)
    series: list[list[float]] = []
    if how != "spread" and n >= 2:
        full = [m for m in evaluation["moves"] if m["samples"] == n]
        best = evaluation["moves"][evaluation["best"]]
        if best["samples"] == n:
            b = best["margin_samples"]
            if how == "outcome":
                series = [list(b)]
            else:
                series = [[x - y for x, y in zip(m["margin_samples"], b, strict=True)]
                          for m in full if m is not best and plain_turn(m["turn"])]
    scored: list[tuple[float, int, int]] = []
    for q, queue in enumerate(view["queues"]):
        for i, card in enumerate(queue):
            key = int(card["key"])
            if card["value"] is not None or not worlds or key not in worlds[0]:
                continue
            xs = [float(w[key]) for w in worlds]
            if series:
                groups: dict[float, list[int]] = {}
                for w, x in enumerate(xs):
                    groups.setdefault(x, []).append(w)
                score = sum(_between(s, list(groups.values()), n) for s in series) / len(series)
            else:
                m = sum(xs) / len(xs)
                score = sum((x - m) ** 2 for x in xs) / len(xs)
            scored.append((-score, i, q))
    if not scored:
        return None
    _, i, q = min(scored)
    return q, i
