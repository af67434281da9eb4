"""A review's JSON, typed: what :meth:`~.results.Review.to_json` (``tenleave review
--json``) and :meth:`~.results.Review.to_saved` (a record's ``review`` section) return.
Inside Python a review is its dataclasses (:mod:`.results`); these are its shape at the
edges (the file, the command line, the browser), key for key in the order written."""

from __future__ import annotations

from typing import TypedDict

from ...engine.turn import TurnObject

__all__ = ["JudgeJSON", "ReviewJSON", "SavedReviewJSON", "SavedTurnJSON", "SavedWakeJSON",
           "SeatJSON", "TurnJSON", "WakeJSON"]


class _TurnJSON(TypedDict):
    turn: int
    seat: int
    played: TurnObject
    """The record turn object (``docs/RULES.md`` §8)."""
    expected_final_penalty: float
    best: TurnObject
    best_expected_final_penalty: float
    loss: float
    loss_ci95: list[float]
    """``[low, high]``."""
    label: str
    forced: bool


class TurnJSON(_TurnJSON, total=False):
    """One judged decision (:class:`~.results.TurnReview`)."""

    beta: dict[str, float]
    """With the inferred model only: the rationality read per opponent seat."""
    expected_margin: float
    """The played decision's expected margin (points), when the one analysis judged."""
    best_expected_margin: float
    near: str
    """The label of a bound the loss's interval straddles, when it does."""
    analysis: str
    """Which analysis judged (absent: the earlier evaluator)."""


class SavedTurnJSON(TurnJSON, total=False):
    """A judged decision as saved with its record (both keys always written)."""

    reference: float
    gap: float


class WakeJSON(TypedDict):
    """The luck of one swat (:class:`~.results.WakeLuck`)."""

    turn: int
    kind: str
    luck: list[float]


class SavedWakeJSON(WakeJSON, total=False):
    """The luck of one swat as saved with its record (``actual`` always written)."""

    actual: list[int]


class SeatJSON(TypedDict):
    """One seat's summary (:class:`~.results.SeatSummary`)."""

    seat: int
    mean_loss: float | None
    labels: dict[str, int]
    luck: float
    accuracy: float | None


class JudgeJSON(TypedDict, total=False):
    """Which model judged, when it read the players (absent for the uniform model)."""

    model: str
    beta: float | str


class _ReviewJSON(TypedDict):
    players: list[str]
    objective: str
    turns: list[TurnJSON]
    wakes: list[WakeJSON]
    seats: list[SeatJSON]


class ReviewJSON(_ReviewJSON, total=False):
    """The ``tenleave review --json`` object (``model`` and ``beta`` only when the judge
    read the players)."""

    model: str
    beta: float | str


class _SavedReviewJSON(TypedDict):
    format: str
    samples: int
    seed: int
    players: list[str]
    objective: str
    turns: list[SavedTurnJSON]
    wakes: list[SavedWakeJSON]
    seats: list[SeatJSON]


class SavedReviewJSON(_SavedReviewJSON, total=False):
    """A record's ``review`` section: :class:`ReviewJSON` with ``format``, ``samples`` and
    ``seed`` first, and the saved forms of the turns and the swats."""

    model: str
    beta: float | str
