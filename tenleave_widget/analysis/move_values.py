"""The lookahead's result, typed: what :func:`~tenleave_widget.analysis.lookahead.evaluate_view`
returns (and :meth:`~tenleave_widget.analysis.lookahead.Evaluation.result`), read by the
bots, the review, the coach and the table's panel as typed values; it becomes JSON only at
the edges (``tenleave evaluate``, the review file, the browser).

>>> from tenleave_widget import Game
>>> from tenleave_widget.analysis.lookahead import evaluate_view
>>> ev: MoveValues = evaluate_view(Game(3, seed=2).view(0), budget=4, seed=0)
>>> best: MoveValue = ev["moves"][ev["best"]]
>>> sorted(set(best) - set(Figures.__annotations__))
['immediate_expected_penalty', 'samples', 'turn']
"""

from __future__ import annotations

from typing import TypedDict

from ..engine.turn import TurnObject

__all__ = ["Figures", "MoveValue", "MoveValues", "NotValued", "Reference", "WorldResults"]

class Figures(TypedDict):
    """A decision's (or the rollout policy's) estimates over the worlds played."""

    expected_final_penalty: float
    ci95: list[float]
    """The 95% interval of ``expected_final_penalty``: ``[low, high]``."""
    expected_margin: float
    """The seat's final penalty minus the mean of the other seats' (lower wins)."""
    margin_ci95: list[float]
    win_probability: float
    """Shared wins count as wins."""
    win_ci95: list[float]
    """Wilson's interval (:func:`~tenleave_widget.analysis.stats.wilson`)."""


class WorldResults(TypedDict, total=False):
    """With ``per_world=True``: the results world by world, on the worlds every move shares
    (for paired comparisons)."""

    penalty_samples: list[int]
    margin_samples: list[float]
    win_samples: list[int]
    """1 for a win (shared wins count), 0 otherwise."""


class MoveValue(Figures, WorldResults):
    """One decision's value: the record turn object, its figures, the one-swat figure of
    the odds and the worlds it was played in."""

    turn: TurnObject
    """The record turn object (``docs/RULES.md`` §8)."""
    immediate_expected_penalty: float
    samples: int


class Reference(Figures, WorldResults):
    """The rollout policy itself playing the seat's turn, in the same worlds."""

    samples: int


class NotValued(TypedDict):
    action: str
    reason: str


class _MoveValuesBase(TypedDict):
    seat: int
    turn: int
    """The number of turns applied."""
    samples: int
    """The worlds sampled."""
    objective: str
    moves: list[MoveValue]
    best: int
    """The index in ``moves`` of the chosen move."""
    not_valued: list[NotValued]


class MoveValues(_MoveValuesBase, total=False):
    """Every distinct decision of the seat to move, valued over the rest of the game."""

    reference: Reference
    """With ``reference=True``."""
    model: str
    """``"inferred"`` when :func:`~tenleave_widget.analysis.position.evaluate` dealt the
    worlds from the inference's posterior (absent for the uniform model)."""
    beta: dict[str, float]
    """With ``model``: the beta read per opponent seat."""
    cost: str | dict[str, str]
    """With ``model``: what the players were read as minimising (one of ``infer``'s
    costs, or one per opponent seat)."""
