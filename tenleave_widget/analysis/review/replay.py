"""A record replayed for its review: its setup as a fresh game, its turns, its notes and
the penalties at its end (the whole record checked first)."""

from __future__ import annotations

from ...engine.game import Game
from ...engine.record import RecordSource
from ...engine.turn import Turn


def _load(record: RecordSource | Game) -> tuple[Game, list[Turn], dict[int, str], list[int]]:
    """The record's setup as a fresh game (no turn applied), its turns and notes. The whole
    record is checked first: an invalid one raises :class:`RecordError` before any
    work is done. Also the penalties at the record's end."""
    full = Game.from_record(record.to_record() if isinstance(record, Game) else record)
    rec = full.to_record()
    start = Game.from_record(rec, turns=0)
    return start, full.turns, dict(full.notes), full.penalty
