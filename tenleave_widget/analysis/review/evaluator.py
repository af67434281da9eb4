"""The evaluator seam: the decisions of the seat to move valued from its view by the
lookahead evaluation (:class:`~tenleave_widget.analysis.lookahead.Evaluation`: sampled
worlds played out to the end, common random numbers) in three stages (screen, refine,
extend: see :func:`_evaluate_steps`), and the paired comparisons the judge reads from
them."""

from __future__ import annotations

import math
import random
from collections.abc import Generator, Sequence
from dataclasses import dataclass
from typing import TypeVar, cast

from ...engine.errors import SetupError, excerpt
from ...engine.turn import AFTER, BEFORE, Turn
from ...engine.view import View
from ..analyse import Settings
from ..lookahead import MAX_SAMPLES, Evaluation, EvaluationOptions
from ..move_values import MoveValues
from ..position import MODELS
from ..stats import mean_half_width
from ..worlds import Deal
from .results import OBJECTIVES, THRESHOLDS

__all__ = ["DEFAULT_SAMPLES", "ScreenLoss", "decision", "screen", "screen_loss"]

T = TypeVar("T")


DEFAULT_SAMPLES = Settings().first
"""The default budget: worlds every decision is first valued on (the one analysis's
default, :class:`~tenleave_widget.analysis.analyse.Settings`: a review judged with it
reads the same analyses as the table and ``tenleave evaluate``)."""


@dataclass
class _Value:
    """One candidate decision as the evaluator valued it, from the mover's view.

    ``cost`` is the objective (lower is better); ``costs`` its value in each sampled
    world (the same worlds for every candidate of one evaluation: common random
    numbers)."""

    turn: Turn
    expected_final_penalty: float
    cost: float
    costs: Sequence[float]


@dataclass
class _Judged:
    """``screen``: every decision, valued on ``samples`` worlds; ``refined``: the played
    decision and the screen's best few, valued again on ``REFINE * samples`` fresh
    worlds or more (the played one and those that may be the best on every batch the
    sequential refinement adds: see :func:`_live`); ``played``: the played decision's
    index in each."""

    screen: list[_Value]
    screen_played: int
    refined: list[_Value]
    refined_played: int
    objective: str
    reference: float  # the mover's expected final penalty if it played the rollout policy


REFINE = 12
"""The refinement stage samples ``REFINE`` times as many worlds as the screen."""
REFINE_TOP = 5
"""How many of the screen's best decisions are refined along with the played one."""
EXTEND_ROUNDS = 12
"""The cap of the sequential refinement: a decision is valued on at most ``EXTEND_ROUNDS``
batches of ``REFINE * samples`` fresh worlds (see :func:`_evaluate`)."""


def decision(played: Turn) -> Turn:
    """The decision the evaluator values for a turn, as the evaluation lists it: a peek
    turn is its bare play (peeks are not valued: see :mod:`tenleave_widget.analysis.lookahead`); a
    rotation of another queue after the play is the same decision as before it.

    >>> decision(Turn(1, "3*", 0, peek=(1, 2))).to_json()
    {'seat': 1, 'play': ['3*', 0]}
    """
    if played.peek is not None:
        return Turn(played.seat, played.card, played.queue)
    if played.rotate is not None and played.extra == AFTER and played.rotate != played.queue:
        return played._replace(extra=BEFORE)
    return played


def _values(ev: MoveValues, objective: str) -> list[_Value]:
    out = []
    for m in ev["moves"]:
        if objective == "margin":
            cost = float(m["expected_margin"])
            costs: list[float] = [float(x) for x in m["margin_samples"]]
        else:
            cost = 1.0 - float(m["win_probability"])
            costs = [1.0 - x for x in m["win_samples"]]
        out.append(_Value(Turn.from_json(m["turn"]), float(m["expected_final_penalty"]), cost,
                          costs))
    return out


SLICE_MS = 5.0
"""A judging's slice (:func:`judge_steps`): it pauses after this much evaluation."""


def _slices(ev: Evaluation) -> Generator[None, None, MoveValues]:
    """An evaluation run to its end a slice per ``next`` (the same figures however it is
    sliced: :class:`~tenleave_widget.analysis.lookahead.Evaluation`); its result."""
    while not ev.advance(SLICE_MS):
        yield
    return ev.result()


def _to_end(steps: Generator[None, None, T]) -> T:
    """A generator's return value, all its steps run now."""
    while True:
        try:
            next(steps)
        except StopIteration as end:
            return cast(T, end.value)


def _evaluate(
    view: View, played: Turn, samples: int, seed: int, objective: str,
    deal: Deal | None = None,
) -> _Judged:
    """:func:`_evaluate_steps` run to its end."""
    return _to_end(_evaluate_steps(view, played, samples, seed, objective, deal))


def _evaluate_steps(
    view: View, played: Turn, samples: int, seed: int, objective: str,
    deal: Deal | None = None,
) -> Generator[None, None, _Judged]:
    """The evaluator seam, a slice of evaluation per ``next`` (the lookahead's
    :class:`~tenleave_widget.analysis.lookahead.Evaluation`, as in its ``evaluate_view``):
    the decisions of the seat to move valued from its view by
    :func:`~tenleave_widget.analysis.lookahead.evaluate_view` (sampled worlds played out to the
    end, common random numbers), in three stages:

    1. *screen*: every distinct decision on ``samples`` worlds (the forced test, and which
       decisions are worth a closer look);
    2. *refine*: the played decision and the screen's :data:`REFINE_TOP` best on
       ``REFINE * samples`` fresh worlds. The loss is measured here: choosing the best on
       one set of worlds and measuring it on another avoids the winner's curse (the
       minimum of noisy means is biased low);
    3. *extend* (sequential refinement): while the played decision's paired 95% loss
       interval against the best contains a label bound (:data:`THRESHOLDS`), another
       ``REFINE * samples`` fresh worlds, up to :data:`EXTEND_ROUNDS` batches in all, for
       the played decision, the best, and every decision that may still be the best (its
       paired interval against the best reaches 0) — the same worlds for all of them
       (common random numbers). A decision clearly worse than the best keeps the value of
       the batches it had. The label is then decided by an interval clear of every
       bound, or by the cap. A loss near a bound would otherwise flip label with the noise
       (the bounds are 0.25 to 4 points apart, the one-batch interval about ±0.3 to ±0.6
       points).

    ``deal``: the worlds' sampler (default: the uniform model; the inferred model's
    posterior with ``model="inferred"``, see :func:`judge_decision`).
    """
    key = decision(played)
    rng = random.Random(seed)
    ev = yield from _slices(Evaluation(view, samples, rng.getrandbits(32),
                                       options=EvaluationOptions(per_world=True, deal=deal)))
    screen = _values(ev, objective)
    at = [i for i, v in enumerate(screen) if v.turn == key]
    if not at:
        raise AssertionError(f"the evaluator did not value the played turn {played.to_json()}")
    order = sorted(range(len(screen)), key=lambda i: screen[i].cost)
    wanted = [key]
    seen = {tuple(screen[at[0]].costs)}  # a plain 5 and a marked 5 share their play-outs
    for i in order:
        if len(wanted) > REFINE_TOP:
            break
        sig = tuple(screen[i].costs)
        if sig not in seen:
            seen.add(sig)
            wanted.append(screen[i].turn)
    batch = REFINE * samples
    ev2 = yield from _slices(Evaluation(view, batch, rng.getrandbits(32), options=EvaluationOptions(
        per_world=True, turns=[t.to_json() for t in wanted], reference=True, deal=deal)))
    refined = _values(ev2, objective)
    ref_sum = float(ev2["reference"]["expected_final_penalty"]) * batch
    mine = [v.turn for v in refined].index(key)
    forced = _forced(screen, objective)
    rounds = 1
    while rounds < EXTEND_ROUNDS and not forced and _straddles(refined, mine, objective):
        best = _best_live(refined, mine)
        keep = [i for i in _live(refined, mine)
                if i in (mine, best) or _may_be_best(refined[i], refined[best])]
        ev3 = yield from _slices(Evaluation(view, batch, rng.getrandbits(32),
                                            options=EvaluationOptions(
                                                per_world=True, reference=True, deal=deal,
                                                turns=[refined[i].turn.to_json() for i in keep])))
        more = {v.turn: v for v in _values(ev3, objective)}
        refined = [_merge(v, more[v.turn]) if i in keep else v for i, v in enumerate(refined)]
        ref_sum += float(ev3["reference"]["expected_final_penalty"]) * batch
        rounds += 1
    return _Judged(screen, at[0], refined, mine, objective, ref_sum / len(refined[mine].costs))


def screen(
    k: int, view: View, *, samples: int | None = None, seed: int = 0,
    objective: str = "margin",
) -> Evaluation:
    """The first stage of :func:`judge_decision` for decision ``k`` from the mover's
    ``view`` (the *screen*: every decision valued on the same worlds, those the judging
    of that decision screens on), before any turn is chosen, as an
    :class:`~tenleave_widget.analysis.lookahead.Evaluation` to run in slices.
    :func:`screen_loss` then tells what a turn would lose on it: the coach's "Are you
    sure?" (:mod:`tenleave_widget.table.coach.check`)."""
    budget = _check_budget(samples, seed, objective)
    rng = random.Random(_turn_seed(seed, k))
    return Evaluation(view, budget, rng.getrandbits(32), options=EvaluationOptions(per_world=True))


@dataclass(frozen=True)
class ScreenLoss:
    """What a turn loses on the screen (:func:`screen_loss`), in the objective's unit."""

    played: Turn
    best: Turn
    loss: float
    loss_ci95: tuple[float, float]
    forced: bool


def screen_loss(result: MoveValues, played: Turn,
                objective: str = "margin") -> ScreenLoss:
    """The loss of ``played`` against the best decision of a finished :func:`screen`
    (``result``: its ``result()``), with its paired 95% interval; ``forced`` when no
    decision was clearly worse than the best (the review then calls every move best).
    A screen estimate: the review's verdict refines it on more worlds.

    >>> from tenleave_widget import Game
    >>> g = Game(2, seed=3)
    >>> ev = screen(0, g.view(0), samples=4)
    >>> while not ev.advance():
    ...     pass
    >>> s = screen_loss(ev.result(), Turn(0, "5", 0))
    >>> s.loss >= 0 and s.best.seat == 0
    True
    """
    values = _values(result, objective)
    key = decision(played)
    mine = next(v for v in values if v.turn == key)
    top = min(values, key=lambda v: v.cost)
    loss, half = _paired(mine, top)
    if loss <= 0:
        top, loss, half = mine, 0.0, 0.0
    return ScreenLoss(played, top.turn, loss, (loss - half, loss + half),
                      _forced(values, objective))


def _may_be_best(v: _Value, best: _Value) -> bool:
    """Whether ``v`` may still be the best: its paired 95% interval against the best so far
    reaches 0."""
    d, half = _paired(v, best)
    return d - half <= 0


def _live(refined: Sequence[_Value], mine: int) -> list[int]:
    """The refined decisions valued on every world the played one was (the others were
    found clearly worse than the best and kept the value of their first batches)."""
    n = len(refined[mine].costs)
    return [i for i, v in enumerate(refined) if len(v.costs) == n]


def _best_live(refined: Sequence[_Value], mine: int) -> int:
    """The best of the decisions valued on all the played one's worlds (see :func:`_live`),
    the played one on a tie: the yardstick of the loss, paired with the played one."""
    return min(_live(refined, mine), key=lambda i: (refined[i].cost, i != mine, i))


def _merge(a: _Value, b: _Value) -> _Value:
    """One decision valued on the worlds of ``a`` and then those of ``b``."""
    na, nb = len(a.costs), len(b.costs)
    n = na + nb
    return _Value(a.turn, (a.expected_final_penalty * na + b.expected_final_penalty * nb) / n,
                  (a.cost * na + b.cost * nb) / n, [*a.costs, *b.costs])


def _straddles(refined: Sequence[_Value], mine: int, objective: str) -> bool:
    """Whether the played decision's paired 95% loss interval against the best refined
    decision contains a label bound (the label is not yet decided by the interval)."""
    best = _best_live(refined, mine)
    if best == mine:
        return False
    loss, half = _paired(refined[mine], refined[best])
    return any(loss - half < b < loss + half for b in THRESHOLDS[objective])


def _paired(a: _Value, b: _Value) -> tuple[float, float]:
    """``a.cost - b.cost`` and the half-width of its paired 95% interval over their common
    worlds."""
    _, half = mean_half_width([x - y for x, y in zip(a.costs, b.costs, strict=True)])
    return a.cost - b.cost, half


def _forced(screen: Sequence[_Value], objective: str) -> bool:
    """Forced: on the screen, no decision can be worse than the best by more than the
    "best" bound (its paired interval's upper end is within it)."""
    top = min(screen, key=lambda v: v.cost)
    tol = THRESHOLDS[objective][0]
    return all(d + h <= tol for d, h in (_paired(v, top) for v in screen))


def _turn_seed(seed: int, k: int) -> int:
    """The evaluator's seed for turn ``k``: a function of the review's seed and ``k`` only,
    so any one turn can be re-evaluated alone with the same result."""
    return random.Random(f"tenleave-review:{seed}:{k}").getrandbits(32)


def _check_budget(samples: int | None, seed: int, objective: str, model: str = "uniform",
                  beta: object = "fitted") -> int:
    """The budget per decision (``samples`` or the default), the arguments checked."""
    if model not in MODELS:
        raise SetupError(f"model must be one of {', '.join(MODELS)}, not {excerpt(model)}")
    if beta != "fitted" and (isinstance(beta, bool) or not isinstance(beta, (int, float))
                             or not 0 <= beta < math.inf):
        raise SetupError(f"beta must be a number >= 0 or 'fitted', not {excerpt(beta)}")
    if samples is not None and (type(samples) is not int or not 1 <= samples <= MAX_SAMPLES):
        raise SetupError(
            f"samples must be a whole number 1..{MAX_SAMPLES}, not {excerpt(samples)} "
            "(each world takes about 2 KB of memory)"
        )
    if type(seed) is not int:
        raise SetupError(f"seed must be an integer, not {excerpt(seed)}")
    if objective not in OBJECTIVES:
        raise SetupError(
            f"objective must be one of {', '.join(OBJECTIVES)}, not {excerpt(objective)}"
        )
    return samples if samples is not None else DEFAULT_SAMPLES
