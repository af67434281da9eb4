"""The seat view as the widget syncs it (``tenleave-view/1``, ``docs/view.md``): typed
for the contract with the browser (re-exported by :mod:`.protocol`; mirrored in
``js/protocol.ts`` and compared by ``tests/test_widget_protocol.py``)."""

from __future__ import annotations

from typing import Any, Literal, TypedDict

__all__ = ["Back", "Hand", "SafeCard", "TableCard", "View", "ViewRules"]

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


class ViewRules(TypedDict):
    deck: list[str]
    tokens: dict[str, list[int]]
    daybreak_token_change: bool


class View(TypedDict):
    """A seat's view, ``tenleave-view/1`` (``docs/view.md``), as :meth:`Game.view` makes it.
    Its events are the engine's (``GameEvent`` in ``js/protocol.ts``)."""

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
    events: list[dict[str, Any]]
