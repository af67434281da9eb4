"""The ``tenleave-record/1`` file format (RULES.md §8): read, validate, write.

The only module that reads or writes record files. It knows the format, not the game:
:meth:`Game.from_record <tenleave_widget.Game.from_record>` replays a record's turns and
:meth:`Game.to_record <tenleave_widget.Game.to_record>` writes them, on top of it.

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
import os
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

from .errors import RecordError, SetupError, excerpt
from .rules import MAX_SEATS, MIN_SEATS, Rules

RECORD_FORMAT = "tenleave-record/1"
"""The ``format`` of every record (RULES.md §8); defined here only."""

Record = dict[str, Any]
RecordSource = Record | str | Path
"""A record object, or the path of a record file."""


@dataclass
class RecordHead:
    """A record's parsed top level; ``turns`` are still raw turn objects."""

    players: list[str]
    first: int
    rules: Rules
    defense: list[str]
    turns: list[Any]
    notes: dict[int, str] = field(default_factory=dict)


RECORD_SIZE_LIMIT = 10 * 1024 * 1024
"""The largest record file read, in bytes (10 MiB): a long game is a few kilobytes."""


def load_record(path: str | Path) -> Any:
    """Read a record file's JSON (not yet validated).

    Only a regular file of at most :data:`RECORD_SIZE_LIMIT` bytes is read (never a
    device, a FIFO or a directory); a UTF-8 byte-order mark is allowed, a key given twice
    in one object is not.
    """
    where = excerpt(str(path))
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            raise RecordError(f"cannot read {where}: not a regular file")
        # O_NONBLOCK: should the path have become a FIFO since, opening it cannot block
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(fd, "rb") as f:
            if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):
                raise RecordError(f"cannot read {where}: not a regular file")
            data = f.read(RECORD_SIZE_LIMIT + 1)
    except OSError as e:
        raise RecordError(f"cannot read {where}: {e.strerror or e}") from None
    return loads_record(data, where)


def read_record(stream: BinaryIO, source: str = "standard input") -> Any:
    """Read a record's JSON from a binary stream (not yet validated), at most
    :data:`RECORD_SIZE_LIMIT` bytes of it."""
    return loads_record(stream.read(RECORD_SIZE_LIMIT + 1), source)


def loads_record(text: str | bytes, source: str = "the record") -> Any:
    """Parse a record's JSON text or UTF-8 bytes (not yet validated).

    >>> try:
    ...     loads_record('{"format": "x", "format": "y"}')
    ... except ValueError as e:
    ...     print(e)
    not a record: duplicate key 'format'
    """
    if len(text) > RECORD_SIZE_LIMIT:
        raise RecordError(f"{source} is larger than the 10 MiB record size limit")
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8-sig")
        except UnicodeDecodeError as e:
            raise RecordError(f"{source} is not UTF-8 text: {e.reason}") from None
    try:
        return json.loads(text.removeprefix("\ufeff"), object_pairs_hook=_unique_keys)
    except RecordError:
        raise
    except ValueError as e:
        raise RecordError(f"not JSON: {e}") from None
    except RecursionError:
        raise RecordError("not a record: JSON nested too deeply") from None


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    obj = dict(pairs)
    if len(obj) != len(pairs):
        seen: set[str] = set()
        for k, _ in pairs:
            if k in seen:
                raise RecordError(f"not a record: duplicate key {excerpt(k)}")
            seen.add(k)
    return obj


def parse_record(obj: Any) -> RecordHead:
    """Validate a record's top level and return it parsed (turns are checked on replay)."""
    if not isinstance(obj, dict):
        raise RecordError(f"a record must be a JSON object, not {type(obj).__name__}")
    fmt = obj.get("format")
    if fmt != RECORD_FORMAT:
        raise RecordError(f"'format' must be {RECORD_FORMAT!r}, not {excerpt(fmt)}")
    players = obj.get("players")
    if (
        not isinstance(players, list)
        or not MIN_SEATS <= len(players) <= MAX_SEATS
        or not all(isinstance(p, str) for p in players)
    ):
        raise RecordError(f"'players' must be a list of {MIN_SEATS} to {MAX_SEATS} names")
    first = obj.get("first", 0)
    if type(first) is not int or not 0 <= first < len(players):
        raise RecordError(f"'first' must be a seat 0..{len(players) - 1}, not {excerpt(first)}")
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
            raise RecordError(f"'notes': {excerpt(k)} must be a turn index with a text")
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
