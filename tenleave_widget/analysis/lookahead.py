"""Whole-game move values from what one seat knows: sampled worlds, played out to the end.

:func:`evaluate_view` is a pure function of a ``tenleave-view/1`` seat view (``docs/view.md``).
For the seat to move it values every distinct decision — each card x queue, waking then
each play, rotating a queue before or after each play — by what it is worth **at the end
of the game**, not one swat ahead:

1. *Worlds.* Draw the cards the seat cannot see from its uniform model (RULES.md §9): for
   every other seat o and back b, the unknown values of o's b-backed cards (face down on
   the table and in o's hand) are a uniformly random arrangement of what is left of them.
   Each world also draws the future Human Defense tokens as the rules do (uniform among
   the tokens other than the current one).
2. *Play-outs.* In every world, play each decision, then play the game to its end with the
   rollout policy (:class:`Policy`) for every seat, the seat itself included: the greedy
   bot's rule with every card visible (the play that least raises the mover's penalty of
   a swat right now; wake when every play raises it), a uniformly random play one turn
   in ten (``explore``), ties broken at random.
3. *Common random numbers.* Every decision is played out in the same worlds with the same
   token draws and the same random numbers per turn, so the differences between moves are
   far sharper than the values themselves.

Each move gets its ``expected_final_penalty`` (the seat's whole penalty at the end, with
its 95% interval), ``expected_margin`` (that penalty minus the mean of the other seats';
lower is better — it is what wins), ``win_probability`` (shared wins count, with its
Wilson interval: :mod:`tenleave_widget.analysis.stats`) and the
one-swat ``immediate_expected_penalty`` of :func:`tenleave_widget.analysis.odds.move_evaluation`.
``best`` is the move with the lowest expected margin: the ``lookahead`` bot's choice.

The module is the estimator; the view decoding and the sampled worlds are
:mod:`~tenleave_widget.analysis.playout_position`, the play-out simulator (a second rules
engine on packed values, with the rollout policy) :mod:`~tenleave_widget.analysis.playout`.

Peeks are not valued: in a world where every card is visible a peek changes nothing, so
a play-out would price every peek exactly like the bare play — a misleading number. They
are listed under ``not_valued`` with that reason.

>>> from tenleave_widget import Game
>>> g = Game(3, seed=4)
>>> for t in [["5", 0], ["1", 1], ["4*", 1], ["1", 0], ["2", 1], ["3*", 0]]:
...     g.apply({"seat": g.to_move, "play": t})
>>> ev = evaluate_view(g.view(0), budget=20, seed=1)
>>> [m["turn"]["play"] for m in ev["moves"][:3]]
[['1', 0], ['1', 1], ['2', 0]]
>>> ev["moves"][ev["best"]]["turn"], ev["samples"]
({'seat': 0, 'play': ['4*', 1], 'wake': True}, 20)
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, fields, replace
from typing import Any

from ..engine.cards import count_backs, parse_card, value_and_back
from ..engine.errors import IllegalActionError, SetupError, excerpt
from ..engine.turn import TurnObject, play_pair
from ..engine.view import TableCard, View
from .move_values import Figures, MoveValue, MoveValues, NotValued, WorldResults
from .odds import move_evaluation, seat_odds
from .playout import Move, Policy, Simulator
from .playout_position import Position, World
from .playouts import BATCH_MIN_ROWS, KERNELS, play_outs
from .stats import Z95, mean_ci, wilson
from .worlds import Deal

__all__ = [
    "DEFAULT_SAMPLES", "MAX_SAMPLES", "OBJECTIVES", "Budget", "Deal", "Evaluation",
    "EvaluationOptions", "Policy", "evaluate_view",
]

CHUNK = 512
"""The most worlds an evaluation plays out in one call of :func:`play_outs`: the batched
kernel's memory grows with worlds x moves."""

PRUNE_CHUNK = 4
"""With pruning (or a time budget), the most batches of worlds played out in one call of
:func:`play_outs`: fewer, larger calls, for the play-outs of the moves pruned within them."""

SLICES = 8
"""An evaluation run in slices (``advance(ms)``) plays at most ``1/SLICES`` of its worlds
a slice, so a front end shows its figures filling in."""

DEFAULT_SAMPLES = 48
"""Worlds per evaluation by default."""

MAX_SAMPLES = 100_000
"""The most worlds one evaluation may sample, and the review panel's largest budget. An
evaluation keeps every world's figures, so this bounds its memory (the measured size of a
world's figures: ``docs/guides/cli.md``)."""

_PEEK_REASON = (
    "a peek is worth what it lets the seat decide better later; play-outs in worlds where "
    "every card is visible would price it exactly like the bare play, so it is not valued"
)

@dataclass(frozen=True)
class Budget:
    """How much an evaluation may spend: a number of worlds, and optionally a time limit.

    The evaluation stops at whichever limit comes first, but always plays at least
    ``min_samples`` worlds. A time limit makes the result depend on the machine's speed; a
    number of worlds alone gives the same figures for the same seed.

    Args:
        samples: the most worlds to sample, 1 to :data:`MAX_SAMPLES`.
        ms: the most milliseconds to spend (``None``: no time limit).
        min_samples: the fewest worlds played before a time limit or pruning may act.
        batch: worlds per batch; pruning and the time limit are checked at each batch's
            end.
        prune: successive halving: at a batch's end, a move whose paired margin against
            the leader is worse by more than ``prune`` standard errors (and by at least
            ``prune_points`` points) is no longer played out, and keeps the figures and
            the sample count it had (``None``: every move is played in every world).
        prune_points: the smallest margin, in points, for which a move is pruned.

    Raises:
        SetupError: ``samples`` is not a whole number within bounds, ``ms`` is not a
            positive number, or ``batch`` is not a positive whole number.
    """

    samples: int = DEFAULT_SAMPLES
    ms: float | None = None
    min_samples: int = 8
    batch: int = 8
    prune: float | None = None
    prune_points: float = 0.5

    def __post_init__(self) -> None:
        if type(self.samples) is not int or not 1 <= self.samples <= MAX_SAMPLES:
            raise SetupError(
                f"budget: samples must be a whole number 1..{MAX_SAMPLES}, not "
                f"{excerpt(self.samples)} (each world takes about 2 KB of memory)"
            )
        if self.ms is not None and not (isinstance(self.ms, (int, float)) and self.ms > 0):
            raise SetupError(f"budget: ms must be a positive number, not {excerpt(self.ms)}")
        if type(self.batch) is not int or self.batch < 1:
            raise SetupError(f"budget: batch must be a positive integer, not {excerpt(self.batch)}")


OBJECTIVES = ("margin", "win_probability")
"""What an evaluation's ``best`` may be chosen by (:attr:`EvaluationOptions.objective`)."""


@dataclass(frozen=True, kw_only=True)
class EvaluationOptions:
    """What an evaluation values and how: every setting but the view, the budget and the seed.

    The defaults value every decision of the seat to move, rotations included, in worlds
    dealt from the uniform model, and choose ``best`` by the lowest expected margin.

    Args:
        policy: the rollout policy every seat plays in the play-outs, the seat itself
            included.
        rotations: whether the rotations are valued (``False`` leaves them out; they
            multiply the moves to play out by two to three).
        objective: what ``best`` is chosen by: ``"margin"``, the lowest expected margin,
            or ``"win_probability"``, the highest chance of winning (``"win"`` is read as
            ``"win_probability"``).
        per_world: add to each move its results world by world on the common worlds
            (``penalty_samples``, ``margin_samples`` and ``win_samples``, 1 for a win), for
            paired comparisons.
        turns: value only these decisions (record turn objects, as the result's ``moves``
            lists them; ``None``: every decision).
        reference: add ``"reference"``, the same figures for the rollout policy itself
            playing the seat's turn in each world: the value of the position when every
            seat plays the policy.
        deal: the world sampler that replaces the uniform model's
            (:data:`~tenleave_widget.analysis.worlds.Deal`), called once per world, in
            order (``None``: the uniform model).
        kernel: the play-out kernel, a key of
            :data:`~tenleave_widget.analysis.playouts.KERNELS` (``None``: the default);
            every kernel gives the same figures.

    Raises:
        SetupError: an objective that is not one of :data:`OBJECTIVES`.

    Example:
        >>> EvaluationOptions(rotations=False, objective="win").objective
        'win_probability'
    """

    policy: Policy = Policy()
    rotations: bool = True
    objective: str = "margin"
    per_world: bool = False
    turns: Sequence[TurnObject] | None = None
    reference: bool = False
    deal: Deal | None = None
    kernel: str | None = None

    def __post_init__(self) -> None:
        if self.objective == "win":  # a short name for the same objective
            object.__setattr__(self, "objective", "win_probability")
        if self.objective not in OBJECTIVES:
            raise SetupError(
                f"objective must be 'margin' or 'win_probability', not {excerpt(self.objective)}"
            )
        if self.turns is not None:  # a copy: the options do not change with the caller's list
            object.__setattr__(self, "turns", tuple(self.turns))


_OPTION_NAMES = frozenset(f.name for f in fields(EvaluationOptions))


def _options(options: EvaluationOptions | None, changes: dict[str, Any]) -> EvaluationOptions:
    """``options`` (``None``: the defaults) with the fields named in ``changes`` changed."""
    if options is not None and not isinstance(options, EvaluationOptions):
        raise SetupError(f"options must be EvaluationOptions, not {excerpt(options)}")
    base = options if options is not None else EvaluationOptions()
    unknown = sorted(set(changes) - _OPTION_NAMES)
    if unknown:
        raise SetupError(f"no evaluation option named {', '.join(map(repr, unknown))} "
                         f"(the options: {', '.join(sorted(_OPTION_NAMES))})")
    return replace(base, **changes) if changes else base


# --------------------------------------------------------------------------- the estimate


class _Stats:
    """One move's results over the worlds played: its penalty, margin and win in each."""

    __slots__ = ("pen", "margin", "wins", "win_list")

    def __init__(self) -> None:
        self.pen: list[int] = []
        self.margin: list[float] = []
        self.wins = 0
        self.win_list: list[int] = []

    def add(self, pen: list[int], seat: int) -> None:
        """Add one world's final penalties, ``pen`` by seat, for ``seat``."""
        mine = pen[seat]
        self.pen.append(mine)
        self.margin.append(mine - (sum(pen) - mine) / (len(pen) - 1))
        won = mine <= min(pen[:seat] + pen[seat + 1:])
        self.wins += won
        self.win_list.append(int(won))

    def figures(self) -> Figures:
        """The means and their 95% intervals over the worlds added."""
        p, plo, phi = mean_ci(self.pen)
        mg, mlo, mhi = mean_ci(self.margin)
        wp, wlo, whi = wilson(self.wins, len(self.pen))
        return {
            "expected_final_penalty": p,
            "ci95": [plo, phi],
            "expected_margin": mg,
            "margin_ci95": [mlo, mhi],
            "win_probability": wp,
            "win_ci95": [wlo, whi],
        }

    def worlds(self, per_world: bool) -> WorldResults:
        """The results world by world with ``per_world`` (else none)."""
        if not per_world:
            return {}
        return {
            "penalty_samples": list(self.pen),
            "margin_samples": list(self.margin),
            "win_samples": list(self.win_list),
        }


def _moves_of(pos: Position, rotations: bool) -> list[tuple[TurnObject, Move]]:
    """Every distinct valued decision: its record turn object and its play-out move."""
    seat, cap = pos.seat, pos.cap
    sizes = [len(q) for q in pos.queues]
    nq = len(sizes)
    notes = sorted(set(pos.hand_notes), key=lambda c: (parse_card(c)[0], c))
    out: list[tuple[TurnObject, Move]] = []
    room = [q for q in range(nq) if sizes[q] < cap]
    for c in notes:
        v = parse_card(c)[0]
        for q in room:
            out.append(({"seat": seat, "play": [c, q]}, Move(v, q)))
    if min(sizes) >= 2:
        for c in notes:
            v = parse_card(c)[0]
            for q in range(nq):  # every queue has room after a swat
                out.append(({"seat": seat, "play": [c, q], "wake": True}, Move(v, q, wake=True)))
    if rotations:
        for c in notes:
            v = parse_card(c)[0]
            for q in room:
                for r in range(nq):
                    if sizes[r] >= 2:  # before the play (the same as after it when r != q)
                        out.append((
                            {"seat": seat, "play": [c, q], "rotate": r},
                            Move(v, q, rotate=r),
                        ))
                    if r == q and sizes[r] + 1 >= 2:  # after playing to the rotated queue
                        out.append((
                            {"seat": seat, "play": [c, q], "rotate": r, "extra": "after"},
                            Move(v, q, rotate=r, after=True),
                        ))
    return out


def _immediate(view: View, pos: Position, turn: TurnObject) -> float:
    """The one-swat figure of the odds (RULES.md §9) for one decision."""
    seat = pos.seat
    if "rotate" not in turn:
        return -1.0  # filled from move_evaluation by the caller
    queues = [list(q) for q in view["queues"]]
    card, q = play_pair(turn["play"])
    v, back = value_and_back(card)
    mine: TableCard = {"key": pos.turns_applied, "owner": seat,
                       "back": back, "value": v, "peeked_by": []}
    r = turn["rotate"]
    if turn.get("extra") == "after":
        queues[q].append(mine)
        queues[r].append(queues[r].pop(0))
    else:
        queues[r].append(queues[r].pop(0))
        queues[q].append(mine)
    hands = list(view["hands"])
    own = list(hands[seat]["cards"] or [])
    own.remove(card)
    marked, plain = count_backs(own)
    hands[seat] = {"size": len(own), "marked": marked, "plain": plain, "cards": own}
    after: View = {**view, "queues": queues, "hands": hands}
    return float(seat_odds(after, moves=False)["expected_penalty"][seat])


def evaluate_view(
    view: View, budget: int | Budget = DEFAULT_SAMPLES, seed: int | None = None,
    *, options: EvaluationOptions | None = None, **changes: Any,
) -> MoveValues:
    """Value every distinct decision of the seat to move over the rest of the game.

    Each decision is played out to the end of the game in sampled worlds, from what the
    seat's view shows (the method: the module's docstring). This is
    :class:`Evaluation` run to its end in one call.

    Args:
        view: the ``tenleave-view/1`` view of the seat to move (``docs/view.md``).
        budget: the number of worlds to sample, or a :class:`Budget` (a time limit,
            pruning).
        seed: seeds the worlds and the play-outs (``None``: fresh entropy); the same
            view, budget, options and seed give the same figures.
        options: what to value and how (``None``: the defaults of
            :class:`EvaluationOptions`).
        **changes: fields of :class:`EvaluationOptions` to change from ``options``, by
            name (``rotations=False``, ``turns=[...]``).

    Returns:
        :class:`~tenleave_widget.analysis.move_values.MoveValues`: ``seat``; ``turn``,
        the number of turns applied; ``samples``, the worlds sampled; ``objective``;
        ``moves``, per decision its record turn object (``turn``), its
        ``expected_final_penalty`` with ``ci95``, ``expected_margin`` with
        ``margin_ci95``, ``win_probability`` with ``win_ci95``, its one-swat
        ``immediate_expected_penalty`` and the ``samples`` it was played in (and its
        results world by world with ``per_world``); ``best``, the index in ``moves`` of
        the decision the objective chooses; ``not_valued``, the peeks and why; and
        ``reference`` with the ``reference`` option.

    Raises:
        IllegalActionError: it is not the seat's turn, or ``turns`` lists a decision that
            is not one of the seat's valued decisions.
        InvalidViewError: the view is not a consistent seat view.
        SetupError: a bad budget, an unknown objective, or an option that does not exist.
    """
    ev = Evaluation(view, budget, seed, options=options, **changes)
    while not ev.advance():
        pass
    return ev.result()


class Evaluation:
    """An evaluation in progress, run in slices (anytime).

    :meth:`advance` plays worlds for at most about ``ms`` milliseconds (at least one
    world) and :meth:`result` gives the figures so far, so a front end can fill a panel in
    progressively without blocking its event loop for longer than a slice. However it is
    sliced, the same arguments give the same figures as :func:`evaluate_view`.

    Args:
        view: the ``tenleave-view/1`` view of the seat to move (``docs/view.md``).
        budget: the number of worlds to sample, or a :class:`Budget`.
        seed: seeds the worlds and the play-outs (``None``: fresh entropy).
        options: what to value and how (``None``: the defaults of
            :class:`EvaluationOptions`).
        **changes: fields of :class:`EvaluationOptions` to change from ``options``, by
            name.

    Raises:
        IllegalActionError: it is not the seat's turn, or ``turns`` lists a decision that
            is not one of the seat's valued decisions.
        InvalidViewError: the view is not a consistent seat view.
        SetupError: a bad budget, an unknown objective, or an option that does not exist.

    Attributes:
        view: the view evaluated.
        options: the options in force.
        worlds: the worlds played so far.
        done: whether the budget is spent.

    Example:
        >>> from tenleave_widget import Game
        >>> view = Game(3, seed=2).view(0)
        >>> ev = Evaluation(view, budget=16, seed=3)
        >>> while not ev.advance(ms=5):
        ...     partial = ev.result()
        >>> ev.result() == evaluate_view(view, budget=16, seed=3)
        True
    """

    def __init__(
        self, view: View, budget: int | Budget = DEFAULT_SAMPLES, seed: int | None = None,
        *, options: EvaluationOptions | None = None, **changes: Any,
    ) -> None:
        if isinstance(budget, bool) or not isinstance(budget, (int, Budget)):
            raise SetupError(
                f"budget must be a number of samples or a Budget, not {excerpt(budget)}"
            )
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
            raise SetupError(f"seed must be an integer or None (fresh entropy), not "
                             f"{excerpt(seed)}")
        b = Budget(samples=budget) if isinstance(budget, int) else budget
        opts = self.options = _options(options, changes)
        self._t0 = time.perf_counter()
        self.view = view
        pos = self._pos = Position(view)
        self._sim = Simulator(pos, opts.policy)
        moves = _moves_of(pos, opts.rotations)
        if opts.turns is not None:
            wanted = [dict(t) for t in opts.turns]
            moves = [m for m in moves if m[0] in wanted]
            if len(moves) != len(wanted):
                raise IllegalActionError("turns: not every turn is a valued decision of the seat")
        self._moves = moves
        # decisions with the same effect on the values (a plain 5 and a marked 5) share runs
        effects: dict[Move, int] = {}
        self._index = [effects.setdefault(m, len(effects)) for _, m in moves]
        self._distinct = list(effects)
        self._stats = [_Stats() for _ in self._distinct]
        self._live = list(range(len(self._distinct)))
        self._ref = _Stats() if opts.reference else None
        self._rng = random.Random(seed)
        self._budget = b
        self._in_batch = 0
        self._world_s: float | None = None  # seconds per world, measured
        self.worlds = 0
        self.done = False

    def _play(self, count: int) -> None:
        """Sample the next ``count`` worlds (in order, from the evaluation's seed), play
        every live move out in all of them at once (:func:`play_outs`), then take their
        results world by world as if they had come one at a time: a batch end prunes
        (the pruned moves' results in the rest of the chunk are dropped) or ends the
        evaluation (the rest of the chunk is dropped)."""
        pos = self._pos
        rng = self._rng
        deal = self.options.deal
        worlds = [World(pos, random.Random(rng.getrandbits(64)), pos.cards_left, deal)
                  for _ in range(count)]
        live = self._live
        out = play_outs(self._sim, [self._distinct[i] for i in live], worlds,
                        reference=self._ref is not None, kernel=self.options.kernel)
        column = {i: c for c, i in enumerate(live)}
        seat = pos.seat
        b = self._budget
        stats = self._stats
        for rows in out:
            if self.done:
                break
            for i in self._live:
                stats[i].add(rows[column[i]], seat)
            if self._ref is not None:
                self._ref.add(rows[-1], seat)
            self.worlds += 1
            self._in_batch += 1
            if self._in_batch == b.batch or self.worlds == b.samples:
                self._in_batch = 0
                self._end_batch()
            if self.worlds >= b.samples:
                self.done = True

    def _chunk(self, ms: float | None, spent: float) -> int:
        """How many worlds to play in one call: at most :data:`CHUNK` worlds, or
        :data:`PRUNE_CHUNK` batches when the batch ends may prune or stop (the worlds
        past a stop and the pruned moves' play-outs past their batch are wasted), and
        within an ``advance(ms)`` slice the worlds its remaining time allows at the speed
        measured so far (one world at first), but, for ``ms > 0`` on the default kernel,
        no fewer than the batched kernel takes (:data:`BATCH_MIN_ROWS` play-outs)."""
        b = self._budget
        n = min(b.samples - self.worlds, CHUNK)
        if b.prune is not None or b.ms is not None:
            n = min(n, PRUNE_CHUNK * b.batch - self._in_batch)
        if ms is not None:
            per = self._world_s
            fits = 1 if per is None else max(1, int((ms / 1000 - spent) / per))
            if ms > 0 and self.options.kernel is None and "batch" in KERNELS:
                # enough worlds for the batched kernel to take them (a slice may run over)
                rows = len(self._live) + (self._ref is not None)
                fits = max(fits, -(-BATCH_MIN_ROWS // rows))
            # a sliced evaluation shows its figures as they fill in: at most an eighth of
            # the budget a slice
            n = min(n, fits, -(-b.samples // SLICES))
        return max(1, n)

    def advance(self, ms: float | None = None) -> bool:
        """Play worlds until the budget is spent, or for about ``ms`` milliseconds.

        The worlds are played in chunks (:meth:`_chunk`), so a slice may run over ``ms``
        by up to one chunk. The figures do not depend on how the evaluation is sliced.

        Args:
            ms: the time to spend, in milliseconds; at least one world is played
                (``None``: to the end of the budget).

        Returns:
            Whether the evaluation is done.
        """
        start = time.perf_counter()
        while not self.done:
            t0 = time.perf_counter()
            count = self._chunk(ms, t0 - start)
            self._play(count)
            per = (time.perf_counter() - t0) / count
            self._world_s = per if self._world_s is None else (self._world_s + per) / 2
            if ms is not None and (time.perf_counter() - start) * 1000 >= ms:
                break
        return self.done

    def _end_batch(self) -> None:
        """At a batch's end: prune (:func:`_prune`), and stop when the time limit is spent
        or one move is left to a pruning budget."""
        b = self._budget
        if b.prune is not None and len(self._live) > 1 and self.worlds >= b.min_samples:
            self._live = _prune(self._live, self._stats, self.worlds, b)
        if b.ms is not None and self.worlds >= b.min_samples:
            if (time.perf_counter() - self._t0) * 1000 >= b.ms:
                self.done = True
        if len(self._live) == 1 and b.prune is not None:
            self.done = True

    def result(self) -> MoveValues:
        """The figures of the worlds played so far (if none was, one is played first).

        Returns:
            The figures as :func:`evaluate_view` returns them, over the worlds played so
            far (``samples``).
        """
        if self.worlds == 0:
            self.advance(ms=0)
        view, pos = self.view, self._pos
        imm = immediate_by_play(view)
        out_moves: list[MoveValue] = []
        for (turn, _), i in zip(self._moves, self._index, strict=True):
            st = self._stats[i]
            if "wake" in turn:
                ie = imm[("wake",)]
            elif "rotate" in turn:
                ie = _immediate(view, pos, turn)
            else:
                card, queue = play_pair(turn["play"])
                ie = imm[("play", card, str(queue))]
            out_moves.append({"turn": turn, **st.figures(), "immediate_expected_penalty": ie,
                              "samples": len(st.pen), **st.worlds(self.options.per_world)})
        best = _best(out_moves, self.options.objective)
        # a peek is always legal (at least the card just played can be peeked after the play)
        not_valued: list[NotValued] = [{"action": "peek", "reason": _PEEK_REASON}]
        out: MoveValues = {
            "seat": pos.seat,
            "turn": pos.turns_applied,
            "samples": self.worlds,
            "objective": self.options.objective,
            "moves": out_moves,
            "best": best,
            "not_valued": not_valued,
        }
        if self._ref is not None:
            ref = self._ref
            out["reference"] = {**ref.figures(), **ref.worlds(self.options.per_world),
                                "samples": len(ref.pen)}
        return out


def immediate_by_play(view: View) -> dict[tuple[str, ...], float]:
    """The one-swat expected penalty of every plain play and of waking.

    Args:
        view: the view of the seat to move.

    Returns:
        The expected penalty of :func:`~tenleave_widget.analysis.odds.move_evaluation`, by
        ``("play", card, queue)`` (the queue as a string) and ``("wake",)``.
    """
    imm: dict[tuple[str, ...], float] = {}
    for m in move_evaluation(view):
        if "play" in m:
            card, queue = play_pair(m["play"])
            imm[("play", card, str(queue))] = float(m["expected_penalty"])
        else:
            imm[("wake",)] = float(m["expected_penalty"])
    return imm


def _best(moves: list[MoveValue], objective: str) -> int:
    """The chosen move: most samples first (pruned moves lost), then the objective, then
    the lower expected penalty; the first such in the list order."""
    most = max(m["samples"] for m in moves)

    def key(i: int) -> tuple[float, float]:
        m = moves[i]
        if objective == "win_probability":
            return (-m["win_probability"], m["expected_margin"])
        return (m["expected_margin"], -m["win_probability"])

    cands = [i for i, m in enumerate(moves) if m["samples"] == most]
    return min(cands, key=key)


def _prune(live: list[int], stats: list[_Stats], worlds: int, b: Budget) -> list[int]:
    """Successive halving on the paired margin: drop the moves clearly worse than the
    leader over the worlds both were played in (all of them: live moves share worlds)."""
    means = {i: math.fsum(stats[i].margin) / len(stats[i].margin) for i in live}
    lead = min(live, key=lambda i: means[i])
    lm = stats[lead].margin
    keep = []
    assert b.prune is not None
    for i in live:
        if i == lead:
            keep.append(i)
            continue
        d = [a - c for a, c in zip(stats[i].margin, lm, strict=True)]
        m, lo, _ = mean_ci(d)
        se = (m - lo) / Z95
        if m - b.prune * se > 0 and m >= b.prune_points:
            continue
        keep.append(i)
    return keep
