"""What the seat on screen may do now: the cards and queues it may play, the cards it may
peek at, the queues it may rotate, wake, end, reset, undo. Each step offered is the next
step of a legal turn of the engine (:class:`~tenleave_widget.engine.legal.LegalTurns`) that
starts with the steps taken so far, so the browser offers only legal clicks; Python still
checks every intent. It reads a session through :class:`OffersSession`.

Measured (``benchmarks/bench_offers.py``): from the legal turns, the offers of a position
take about half the CPU time of the former check, one trial ``Game.preview`` copy per
candidate step (about 25), with the same offers on every position of the run.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from ...engine.turn import Step, TurnStep, parse_steps
from ..protocol import Offers
from .modes import ModeSession

if TYPE_CHECKING:
    from ...engine.game import Game
    from .modes import ModePolicy

__all__ = ["OffersSession", "final_steps", "next_steps", "offers", "wake_why"]


class OffersSession(ModeSession, Protocol):
    """What :func:`offers` reads of a session (:class:`~.machine.Session` is one): what
    its mode reads, and the mode itself."""

    @property
    def mode(self) -> ModePolicy: ...

    def shown(self) -> Game: ...

    def my_turn(self) -> bool: ...


def final_steps(pending: list[TurnStep]) -> int:
    """How many of a turn's pending steps are final: every step up to and including the
    last peek or wake (what they showed cannot be unseen)."""
    keep = 0
    for i, step in enumerate(pending):
        if step["kind"] in ("peek", "wake"):
            keep = i + 1
    return keep


def wake_why(sizes: list[int]) -> str:
    """Why *Wake SleepKid* is not offered at the start of a turn, in a student's words,
    from the queues' sizes (public): ``""`` when every queue holds two cards or more.

    >>> print(wake_why([3, 1]))  # doctest: +NORMALIZE_WHITESPACE
    No Wake SleepKid yet: queue 2 holds only one card, and SleepKid may be woken only when
    every queue holds at least two.
    >>> print(wake_why([0, 1, 2]))  # doctest: +NORMALIZE_WHITESPACE
    No Wake SleepKid yet: queue 1 is empty and queue 2 holds only one card, and SleepKid
    may be woken only when every queue holds at least two.
    >>> wake_why([2, 4])
    ''
    """
    short = [f"queue {q + 1} is empty" if n == 0 else f"queue {q + 1} holds only one card"
             for q, n in enumerate(sizes) if n < 2]
    if not short:
        return ""
    said = short[0] if len(short) == 1 else ", ".join(short[:-1]) + " and " + short[-1]
    return (f"No Wake SleepKid yet: {said}, and SleepKid may be woken only when every "
            f"queue holds at least two.")


def next_steps(live: Game, pending: list[TurnStep]) -> set[Step]:
    """The steps that may come after ``pending`` (the steps of the turn in progress): the
    next step of every legal turn of ``live`` that starts with them, in the form
    :func:`~tenleave_widget.engine.turn.parse_steps` gives.

    >>> from tenleave_widget import Game
    >>> g = Game(2, seed=1)
    >>> sorted(next_steps(g, [{"kind": "play", "card": "4*", "queue": 0}]))  # then a peek
    [('peek', 0, 0)]
    >>> sorted(next_steps(g, [{"kind": "play", "card": "4*", "queue": 0},
    ...                       {"kind": "peek", "queue": 0, "position": 0}]))  # then nothing
    []
    """
    done = tuple(parse_steps(pending))
    k = len(done)
    out: set[Step] = set()
    for turn in live.legal_turns:
        steps = turn.parsed_steps()
        if len(steps) > k and steps[:k] == done:
            out.add(steps[k])
    return out


def offers(session: OffersSession) -> Offers:
    """What the seat on screen may do now, each checked with the engine (the browser
    offers only these; Python still checks every intent)."""
    out: Offers = {
        "active": False, "play_cards": [], "play_queues": [], "peek": [], "rotate": [],
        "wake": False, "end": False, "reset": False, "undo": False, "again": False,
        "wake_why": "",
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
    nexts = next_steps(live, pending)

    played = any(s["kind"] == "play" for s in pending)
    acted = any(s["kind"] != "play" for s in pending)
    queues = range(live.queue_count)
    out["active"] = True
    if not played:
        cards = sorted(set(shown.hand(seat)))
        out["play_cards"] = cards
        if cards:
            out["play_queues"] = [
                q for q in queues if ("play", cards[0], q) in nexts
            ]
    if not acted:
        out["peek"] = [
            [q, i] for q in queues for i in range(len(shown.queue_cards(q)))
            if ("peek", q, i) in nexts
        ]
        out["rotate"] = [q for q in queues if ("rotate", q, None) in nexts]
        out["wake"] = not played and ("wake", None, None) in nexts
        if not played and not out["wake"]:
            out["wake_why"] = wake_why([len(shown.queue_cards(q)) for q in queues])
    out["end"] = played
    out["reset"] = len(pending) > final_steps(pending)
    return out
