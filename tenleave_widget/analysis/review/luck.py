"""The luck of every swat: per seat, its actual penalty from the swat minus what it
expected from that swat just before it, from its own view (the exact one-swat odds of
:mod:`tenleave_widget.analysis.odds`). An example is in the
package's docstring (:mod:`tenleave_widget.analysis.review`).
"""

from __future__ import annotations

from collections.abc import Sequence

from ...engine.cards import parse_card
from ...engine.game import Game
from ...engine.record import RecordSource
from ...engine.turn import Turn
from ...engine.view import SwatEvent, View
from ..odds import seat_odds
from .replay import Replay, replay
from .results import WakeLuck

__all__ = ["wake_luck"]


def _swat_penalties(event: SwatEvent, seats: int) -> list[int]:
    """Each seat's penalty from one ``swat`` event."""
    out = [0] * seats
    for qe in event["queues"]:
        hit = set(qe["swatted"])
        for c in qe["flipped"]:
            if c["key"] in hit:
                out[c["owner"]] += parse_card(c["card"])[0]
    return out


def _expected_swat(view: View, daybreak: bool = False) -> list[float]:
    """Each seat's expected penalty from a swat of the position of ``view``, under the
    viewing seat's uniform model (a daybreak pass: a queue holding exactly one card lets
    it escape unflipped)."""
    if daybreak and any(len(q) == 1 for q in view["queues"]):
        view = {**view, "queues": [[] if len(q) == 1 else q for q in view["queues"]]}
    return [float(x) for x in seat_odds(view, moves=False)["expected_penalty"]]


def _turn_luck(
    before: Game, turn: Turn, after: Game, k: int, viewers: Sequence[int | None] | None = None
) -> list[WakeLuck]:
    """The swats of turn ``k`` (``before``: the game just before it, ``after``: just after)
    with each seat's actual and expected penalty. Seat p's expectation is taken from the
    view of ``viewers[p]`` (default: p itself; ``None``: the omniscient view, which the
    tests use — it must expect exactly what happens)."""
    n = before.seats
    who = list(range(n)) if viewers is None else list(viewers)
    events = after.events()
    swats = [e for e in events if e["kind"] == "swat"]
    if not swats:
        return []
    out: list[WakeLuck] = []
    rest = swats
    if turn.wake:  # the chosen wake swats before the play: the views at the turn's start
        expected = [_expected_swat(before.view(who[p]))[p] for p in range(n)]
        out.append(WakeLuck(k, "wake", _swat_penalties(swats[0], n), expected))
        rest = swats[1:]
    if not rest:
        return out
    pre = before.preview(turn.steps())  # the turn's steps done, the turn not yet ended
    if rest[0]["reason"] == "full":
        expected = [_expected_swat(pre.view(who[p]))[p] for p in range(n)]
        out.append(WakeLuck(k, "full", _swat_penalties(rest[0], n), expected))
        return out
    # daybreak: each seat's view before each pass (its token revealed), from the engine;
    # the passes are those of the turn's events
    for e, views in zip(rest, pre.daybreak_views(who), strict=True):
        expected = [_expected_swat(views[p], daybreak=True)[p] for p in range(n)]
        out.append(WakeLuck(k, "daybreak", _swat_penalties(e, n), expected))
    return out


def wake_luck(record: RecordSource | Game) -> list[WakeLuck]:
    """The luck of every swat of a record (chosen wakes, automatic wakes, daybreak passes),
    in order; exact (no sampling). See the package's docstring for an example."""
    return replay_luck(replay(record))


def replay_luck(rp: Replay) -> list[WakeLuck]:
    """:func:`wake_luck` of a record already replayed (its positions read, not replayed)."""
    out: list[WakeLuck] = []
    at = rp.positions
    for k, t in enumerate(rp.turns):
        out.extend(_turn_luck(at[k], t, at[k + 1], k))
    return out
