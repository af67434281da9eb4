"""The ``tenleave-record/1`` file format (RULES.md §8): read, validate, write.

A record is a game's setup plus its turns, like PGN for chess:

>>> rec = {"format": "tenleave-record/1", "players": ["Ana", "Ben"],
...        "defense": ["I+II"], "turns": [{"seat": 0, "play": ["3*", 1]}]}
>>> parse_record(rec).players
['Ana', 'Ben']
>>> from tenleave_widget import Game
>>> Game.from_record(rec).to_record()["turns"]
[{'seat': 0, 'play': ['3*', 1]}]

Structural faults make the record invalid as a whole (:class:`RecordError` with
``turn=None``); a malformed or illegal turn names its 0-based index.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

from .errors import RecordError, SetupError
from .rules import MAX_SEATS, MIN_SEATS, Rules

RECORD_FORMAT = "tenleave-record/1"


@dataclass
class RecordHead:
    """A record's parsed top level; ``turns`` are still raw turn objects."""

    players: list[str]
    first: int
    rules: Rules
    defense: list[str]
    turns: list[Any]
    notes: dict[int, str] = field(default_factory=dict)


def load_record(path: str | Path) -> Any:
    """Read a record file's JSON (not yet validated)."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as e:
        raise RecordError(f"cannot read {path}: {e.strerror or e}") from None
    except UnicodeDecodeError as e:
        raise RecordError(f"{path} is not UTF-8 text: {e.reason}") from None
    return loads_record(text)


def loads_record(text: str) -> Any:
    """Parse a record's JSON text (not yet validated)."""
    try:
        return json.loads(text)
    except ValueError as e:
        raise RecordError(f"not JSON: {e}") from None
    except RecursionError:
        raise RecordError("not a record: JSON nested too deeply") from None


def parse_record(obj: Any) -> RecordHead:
    """Validate a record's top level and return it parsed (turns are checked on replay)."""
    if not isinstance(obj, dict):
        raise RecordError(f"a record must be a JSON object, not {type(obj).__name__}")
    fmt = obj.get("format")
    if fmt != RECORD_FORMAT:
        raise RecordError(f"'format' must be {RECORD_FORMAT!r}, not {fmt!r}")
    players = obj.get("players")
    if (
        not isinstance(players, list)
        or not MIN_SEATS <= len(players) <= MAX_SEATS
        or not all(isinstance(p, str) for p in players)
    ):
        raise RecordError(f"'players' must be a list of {MIN_SEATS} to {MAX_SEATS} names")
    first = obj.get("first", 0)
    if type(first) is not int or not 0 <= first < len(players):
        raise RecordError(f"'first' must be a seat 0..{len(players) - 1}, not {first!r}")
    try:
        rules = Rules.from_json(obj.get("rules"))
    except SetupError as e:
        raise RecordError(f"'rules': {e}") from None
    if "rules" in obj and not isinstance(obj["rules"], dict):
        raise RecordError("'rules' must be an object")
    try:
        defense = rules.check_defense(obj.get("defense"))
    except SetupError as e:
        raise RecordError(str(e)) from None
    turns = obj.get("turns", [])
    if not isinstance(turns, list):
        raise RecordError("'turns' must be a list")
    notes_raw = obj.get("notes", {})
    if not isinstance(notes_raw, dict):
        raise RecordError("'notes' must be an object keyed by turn index")
    notes: dict[int, str] = {}
    for k, v in notes_raw.items():
        if not (isinstance(k, str) and k.isascii() and k.isdigit()) or not isinstance(v, str):
            raise RecordError(f"'notes': {k!r} must be a turn index with a text")
        notes[int(k)] = v
    return RecordHead(list(players), first, rules, defense, turns, notes)


def dumps_record(record: dict[str, Any]) -> str:
    """A record as JSON text, one turn per line (diff-friendly)."""
    turns = record.get("turns", [])
    head = {k: v for k, v in record.items() if k not in ("turns", "notes")}
    lines = ["{"]
    for k, v in head.items():
        lines.append(f"  {json.dumps(k)}: {json.dumps(v)},")
    lines.append('  "turns": [')
    lines.append(",\n".join(f"    {json.dumps(t)}" for t in turns))
    if "notes" in record:
        lines.append("  ],")
        lines.append(f'  "notes": {json.dumps(record["notes"], indent=4, ensure_ascii=False)}')
    else:
        lines.append("  ]")
    lines.append("}")
    return "\n".join(line for line in lines if line) + "\n"


def save_record(record: dict[str, Any], path: str | Path) -> None:
    """Write a record file."""
    Path(path).write_text(dumps_record(record), encoding="utf-8")


def replay(record: Any, turns: int | None = None, *, widget: bool = False) -> Any:
    """Replay a record (an object or a path) for its first ``turns`` turns and return the
    omniscient position as the ``tenleave replay`` JSON (see the README).

    With ``widget=True`` it returns the notebook widget in replay mode instead, at turn
    ``turns`` (default 0), to step through the game (see ``widget.replay_widget``).

    >>> rec = {"format": "tenleave-record/1", "players": ["Ana", "Ben"],
    ...        "defense": ["I+II"], "turns": [{"seat": 0, "play": ["3*", 1]}]}
    >>> r = replay(rec)
    >>> r["queues"], r["next_seat"]
    ([[], [{'owner': 0, 'card': '3*'}]], 1)
    """
    from .game import Game

    if widget:
        from .widget import replay_widget

        return replay_widget(record, turn=turns or 0)
    g = Game.from_record(record, turns=turns)
    return {
        "finished": g.finished,
        "next_seat": g.to_move,
        "turns_applied": g.turns_applied,
        "token": g.token,
        "queues": [
            [{"owner": o, "card": c} for o, c in g.queue_cards(q)] for q in range(g.queue_count)
        ],
        "hands": [g.hand(s) for s in range(g.seats)],
        "penalty": g.penalty,
        "swatted": [v for v in g.view(None)["swatted"]],
        "safe": g.view(None)["safe"],
        "winners": g.winners,
    }


def position_odds(record: Any, seat: int, turns: int | None = None) -> dict[str, Any]:
    """Seat ``seat``'s exact swat-risk odds (and move evaluation on its turn) after the
    first ``turns`` turns of a record, or of a :class:`~tenleave_widget.Game` — the
    ``tenleave odds`` JSON. Exported as ``tenleave_widget.odds``.
    """
    from .game import Game
    from .odds import seat_odds

    if isinstance(record, Game):
        g = record
        if turns is not None:
            g = Game.from_record(g.to_record(), turns=turns)
    else:
        g = Game.from_record(record, turns=turns)
    if type(seat) is not int or not 0 <= seat < g.seats:
        raise RecordError(f"seat {seat!r} does not exist (seats 0..{g.seats - 1})")
    return cast(dict[str, Any], seat_odds(g.view(seat)))
