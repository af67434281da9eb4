"""The seat view as the widget syncs it (``tenleave-view/1``, ``docs/view.md``): typed
for the contract with the browser (re-exported by :mod:`.protocol`; written into the
generated ``js/protocol.ts`` by ``tools/gen_protocol.py``)."""

from __future__ import annotations

from typing import Literal, TypeAlias, TypedDict

__all__ = [
    "Back", "EndEvent", "FlippedCard", "GameEvent", "Hand", "PeekEvent", "PlayEvent",
    "RotateEvent", "SafeCard", "SwatEvent", "SwatQueue", "TableCard", "TokenEvent", "View",
    "ViewRules", "WakeEvent",
]

Back = Literal["marked", "plain"]


class TableCard(TypedDict):
    key: int
    owner: int
    back: Back
    value: int | None
    peeked_by: list[int]


class Hand(TypedDict):
    size: int
    marked: int
    plain: int
    cards: list[str] | None


class SafeCard(TypedDict):
    owner: int
    card: str


class FlippedCard(TypedDict):
    key: int
    owner: int
    card: str


class SwatQueue(TypedDict):
    """One queue of a swat: its cards flipped in order, their total and what came of it."""

    queue: int
    flipped: list[FlippedCard]
    total: int
    outcome: Literal["under", "exact", "over", "empty", "single"]
    swatted: list[int]
    """The keys of the cards swatted."""
    single: FlippedCard | None
    """In a daybreak pass, the one card of a queue holding exactly one (it escapes without a
    flip; the outcome is ``"single"``); else null."""


class PeekEvent(TypedDict):
    kind: Literal["peek"]
    seat: int
    queue: int
    position: int
    key: int


class RotateEvent(TypedDict):
    kind: Literal["rotate"]
    seat: int
    queue: int


class WakeEvent(TypedDict):
    kind: Literal["wake"]
    seat: int


class PlayEvent(TypedDict):
    kind: Literal["play"]
    seat: int
    queue: int
    back: Back
    key: int


class SwatEvent(TypedDict):
    kind: Literal["swat"]
    reason: Literal["wake", "full", "daybreak"]
    queues: list[SwatQueue]


class TokenEvent(TypedDict):
    kind: Literal["token"]
    token: str


class EndEvent(TypedDict):
    kind: Literal["end"]
    winners: list[int]


GameEvent: TypeAlias = (
    PeekEvent | RotateEvent | WakeEvent | PlayEvent | SwatEvent | TokenEvent | EndEvent
)
"""One event of the last turn, as the engine reports it (``Game.view``'s ``events``)."""


class ViewRules(TypedDict):
    deck: list[str]
    tokens: dict[str, list[int]]
    daybreak_token_change: bool


class View(TypedDict):
    """A seat's view, ``tenleave-view/1`` (``docs/view.md``), as :meth:`Game.view` makes it."""

    format: str
    seat: int | None
    players: list[str]
    colours: list[str]
    first: int
    rules: ViewRules
    queue_capacity: int
    turns_applied: int
    to_move: int | None
    finished: bool
    token: str
    token_positions: list[int]
    queues: list[list[TableCard]]
    hands: list[Hand]
    dealt: list[list[str]]
    swatted: list[list[str]]
    safe: list[SafeCard]
    penalty: list[int]
    winners: list[int] | None
    events: list[GameEvent]
