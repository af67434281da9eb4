"""What the seat on screen may do now: the cards and queues it may play, the cards it may
peek at, the queues it may rotate, wake, end, reset, undo. Each is checked with the engine
(a preview of the turn with that step), so the browser offers only legal clicks; Python
still checks every intent.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..engine.errors import TenLeaveError
from .protocol import Offers

if TYPE_CHECKING:
    from .session import Session

__all__ = ["final_steps", "offers"]


def final_steps(pending: list[dict[str, Any]]) -> int:
    """How many of a turn's pending steps are final: every step up to and including the
    last peek or wake (what they showed cannot be unseen)."""
    keep = 0
    for i, step in enumerate(pending):
        if step["kind"] in ("peek", "wake"):
            keep = i + 1
    return keep


def offers(session: Session) -> Offers:
    """What the seat on screen may do now, each checked with the engine (the browser
    offers only these; Python still checks every intent)."""
    out: Offers = {
        "active": False, "play_cards": [], "play_queues": [], "peek": [], "rotate": [],
        "wake": False, "end": False, "reset": False, "undo": False, "again": False,
    }
    if session.mode.live and not session.busy:
        out["undo"] = session.mode.undo_refusal(session) is None
        out["again"] = session.live.finished and not session.covered
    if not session.my_turn():
        return out
    live = session.live
    seat = session.seat
    assert seat is not None
    pending = session.pending
    shown = session.shown()

    def legal(step: dict[str, Any]) -> bool:
        try:
            live.preview([*pending, step])
        except TenLeaveError:
            return False
        return True

    played = any(s["kind"] == "play" for s in pending)
    acted = any(s["kind"] != "play" for s in pending)
    queues = range(live.queue_count)
    out["active"] = True
    if not played:
        cards = sorted(set(shown.hand(seat)))
        out["play_cards"] = cards
        if cards:
            out["play_queues"] = [
                q for q in queues if legal({"kind": "play", "card": cards[0], "queue": q})
            ]
    if not acted:
        out["peek"] = [
            [q, i] for q in queues for i in range(len(shown.queue_cards(q)))
            if legal({"kind": "peek", "queue": q, "position": i})
        ]
        out["rotate"] = [q for q in queues if legal({"kind": "rotate", "queue": q})]
        out["wake"] = not played and legal({"kind": "wake"})
    out["end"] = played
    out["reset"] = len(pending) > final_steps(pending)
    return out
