"""A record replayed once for its review: the game before each of its turns and at its end
(the whole record checked first), which the judge's decisions, the luck of the swats and
a saved review's check all read, instead of each replaying the record again.

>>> from tenleave_widget import Game
>>> g = Game(["Ana", "Ben"], seed=3)
>>> g.apply({"seat": 0, "play": ["5", 0]})
>>> rp = replay(g)
>>> [p.turns_applied for p in rp.positions], rp.final, rp.turns == g.turns
([0, 1], [0, 0], True)
"""

from __future__ import annotations

from dataclasses import dataclass

from ...engine.game import Game
from ...engine.record import RecordSource
from ...engine.turn import Turn

__all__ = ["Replay", "replay"]


@dataclass(frozen=True)
class Replay:
    """A record's positions: ``positions[k]`` is the game just before turn ``k`` (what
    ``Game.from_record(record, k)`` gives), the last one the game at the record's end.
    Read them, never change them: every reader shares them."""

    positions: list[Game]

    @property
    def start(self) -> Game:
        """The record's setup, no turn applied."""
        return self.positions[0]

    @property
    def end(self) -> Game:
        """The game at the record's end."""
        return self.positions[-1]

    @property
    def turns(self) -> list[Turn]:
        return self.end.turns

    @property
    def notes(self) -> dict[int, str]:
        return dict(self.end.notes)

    @property
    def final(self) -> list[int]:
        """Each seat's penalty at the record's end."""
        return self.end.penalty


def replay(record: RecordSource | Game) -> Replay:
    """The record (an object, a path, or a game) replayed once, every position kept. The
    whole record is checked: an invalid one raises :class:`RecordError` naming the turn,
    before any work is done on it."""
    positions: list[Game] = []
    end = Game.from_record(record.to_record() if isinstance(record, Game) else record,
                           positions=positions)
    return Replay([*positions, end])
