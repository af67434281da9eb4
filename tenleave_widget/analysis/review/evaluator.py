"""The coach's screen: the decisions of the seat to move valued from its view by the
lookahead evaluation (:class:`~tenleave_widget.analysis.lookahead.Evaluation`: sampled
worlds played out to the end, common random numbers), what a turn would lose on it, and
the checks of a review's arguments. The review's verdicts are the one analysis's
(:mod:`tenleave_widget.analysis.analyse`)."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

from ...engine.errors import SetupError, excerpt
from ...engine.turn import AFTER, BEFORE, Turn
from ...engine.view import View
from ..analyse import Settings
from ..lookahead import MAX_SAMPLES, Evaluation, EvaluationOptions
from ..move_values import MoveValues
from ..position import MODELS
from ..stats import mean_half_width
from .results import OBJECTIVES, THRESHOLDS

__all__ = ["DEFAULT_SAMPLES", "ScreenLoss", "decision", "screen", "screen_loss"]

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


def screen(
    k: int, view: View, *, samples: int | None = None, seed: int = 0,
    objective: str = "margin",
) -> Evaluation:
    """A quick look at decision ``k`` from the mover's ``view`` before any turn is chosen
    (the *screen*: every decision valued on the same ``samples`` worlds, seeded by the
    review's ``seed`` and ``k``), as an
    :class:`~tenleave_widget.analysis.lookahead.Evaluation` to run in slices;
    :func:`screen_loss` then tells what a turn would lose on it. An estimate: the
    review's verdict on the turn is the one analysis's
    (:func:`~tenleave_widget.analysis.analyse.judge`)."""
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
    A screen estimate: the review's verdict is the one analysis's.

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
