"""What the review shares with the coach beside the one analysis: the decision a played
turn is (:func:`decision`), what a turn loses as the coach asks about it
(:class:`ScreenLoss`, filled from the analysis by ``table/coach/check.py``), the default
budget, and the checks of a review's arguments. The review's verdicts are the one
analysis's (:mod:`tenleave_widget.analysis.analyse`)."""

from __future__ import annotations

from dataclasses import dataclass

from ...engine.errors import SetupError, excerpt
from ...engine.turn import AFTER, BEFORE, Turn
from ..analyse import Settings
from ..infer import check_beta
from ..lookahead import MAX_SAMPLES
from ..position import MODELS
from .results import OBJECTIVES

__all__ = ["DEFAULT_SAMPLES", "ScreenLoss", "check_budget", "decision"]

DEFAULT_SAMPLES = Settings().first
"""The default budget: worlds every decision is first valued on (the one analysis's
default, :class:`~tenleave_widget.analysis.analyse.Settings`: a review judged with it
reads the same analyses as the table and ``tenleave evaluate``)."""


def decision(played: Turn) -> Turn:
    """A played turn as a plain decision: a peek turn is its bare play (what it played
    after looking), and a rotation of another queue after the play is the same decision
    as before it. The lookahead evaluation
    (:func:`~tenleave_widget.analysis.lookahead.evaluate_view`, which values no peek)
    lists its decisions so; the class report's "found the best move" compares two turns
    so.

    >>> decision(Turn(1, "3*", 0, peek=(1, 2))).to_json()
    {'seat': 1, 'play': ['3*', 0]}
    """
    if played.peek is not None:
        return Turn(played.seat, played.card, played.queue)
    if played.rotate is not None and played.extra == AFTER and played.rotate != played.queue:
        return played._replace(extra=BEFORE)
    return played


@dataclass(frozen=True)
class ScreenLoss:
    """What ``played`` loses against ``best`` in the one analysis of its position, in the
    objective's unit, with its interval (the verdict's, or the analysis's against the
    best for a peek first); ``forced`` when the analysis finds no decision clearly worse
    than the best. What the coach asks about before a turn (``table/coach/check.py``)."""

    played: Turn
    best: Turn
    loss: float
    loss_ci95: tuple[float, float]
    forced: bool


def check_budget(samples: int | None, seed: int, objective: str, model: str = "uniform",
                  beta: object = "fitted") -> int:
    """The budget per decision of a review: ``samples``, or :data:`DEFAULT_SAMPLES` for
    ``None``. Raises :class:`SetupError` naming an argument a review refuses: ``samples``
    outside 1..``MAX_SAMPLES``, a ``seed`` that is not an integer, an unknown
    ``objective`` or ``model``, a ``beta`` that is neither ``"fitted"`` nor a number >= 0
    a float holds."""
    if model not in MODELS:
        raise SetupError(f"model must be one of {', '.join(MODELS)}, not {excerpt(model)}")
    check_beta(beta, per_seat=False)
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
