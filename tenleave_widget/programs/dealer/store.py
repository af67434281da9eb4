"""The dealer's store: every table, seat and applied turn in one SQLite file (WAL), each
turn committed before anyone is told of it, so a server killed at any moment (SIGKILL
included) starts again with every game at its last broadcast turn or later — never
earlier, and no turn twice (a turn's index is its table's primary key). The steps of a
turn in progress that showed a seat a face-down card (a peek, a wake) are committed the
same way before the card is sent, so a restart cannot take them back.

>>> import tempfile, os
>>> with tempfile.TemporaryDirectory() as d:
...     s = Store(os.path.join(d, "class.db"))
...     s.add_table("t1", "ABC123", {"players": 2, "seed": 5, "first": 0})
...     s.add_turn("t1", 0, {"seat": 0, "play": ["1", 0]})
...     s.close()
...     again = Store(os.path.join(d, "class.db"))
...     [(t.id, t.code, t.turns) for t in again.tables()]
[('t1', 'ABC123', [{'seat': 0, 'play': ['1', 0]}])]

``Store(":memory:")`` keeps nothing past the process (tests; ``tenleave serve`` without
``--store``).
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass, field
from typing import Any

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY, code TEXT NOT NULL UNIQUE, config TEXT NOT NULL,
    finished INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS seats (
    table_id TEXT NOT NULL REFERENCES tables(id), seat INTEGER NOT NULL,
    token_hash TEXT NOT NULL UNIQUE, name TEXT NOT NULL, PRIMARY KEY (table_id, seat));
CREATE TABLE IF NOT EXISTS turns (
    table_id TEXT NOT NULL REFERENCES tables(id), idx INTEGER NOT NULL, turn TEXT NOT NULL,
    PRIMARY KEY (table_id, idx));
CREATE TABLE IF NOT EXISTS steps (
    table_id TEXT PRIMARY KEY REFERENCES tables(id), at INTEGER NOT NULL,
    steps TEXT NOT NULL);
"""


@dataclass
class StoredTable:
    """One table as the store holds it: its id, join code, configuration, the seats
    taken (seat -> (token hash, name)), its turns in order, whether it is finished, and
    the kept steps of the turn in progress (those of turn ``len(turns)``; empty if none)."""

    id: str
    code: str
    config: dict[str, Any]
    seats: dict[int, tuple[str, str]] = field(default_factory=dict)
    turns: list[dict[str, Any]] = field(default_factory=list)
    finished: bool = False
    steps: list[dict[str, Any]] = field(default_factory=list)


class Store:
    """The SQLite store at ``path`` (created if absent; ``":memory:"`` for none). Every
    write is its own transaction, committed before the call returns.

    ``fsync=False`` (the default; WAL with ``synchronous=NORMAL``): a commit is in the
    operating system's hands when the call returns, so a server process killed at any
    moment (SIGKILL included) loses nothing; the machine losing power may lose the last
    commits. ``fsync=True`` (``synchronous=FULL``): each commit also waits for the disk,
    safe against a power cut, at the disk's pace (one fsync a turn). Raises
    :class:`sqlite3.Error` when the file cannot be written."""

    def __init__(self, path: str, fsync: bool = False) -> None:
        self.path = path
        self._db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        if path != ":memory:":
            self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute(f"PRAGMA synchronous={'FULL' if fsync else 'NORMAL'}")
        self._db.execute("PRAGMA foreign_keys=ON")
        self._db.executescript(_SCHEMA)

    def close(self) -> None:
        """Close the file (everything written is already committed)."""
        self._db.close()

    def _write(self, sql: str, args: tuple[Any, ...], *more: tuple[str, tuple[Any, ...]],
               ) -> None:
        """Run ``sql`` (and each of ``more``) in one transaction, committed: all or none."""
        with self._db:  # BEGIN ... COMMIT (or ROLLBACK on an error)
            self._db.execute("BEGIN IMMEDIATE")
            self._db.execute(sql, args)
            for other, other_args in more:
                self._db.execute(other, other_args)

    def meta(self, key: str) -> str | None:
        """The stored value of ``key`` (the teacher's token), or ``None``."""
        row = self._db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def set_meta(self, key: str, value: str) -> None:
        """Store ``value`` under ``key``, committed."""
        self._write("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (key, value))

    def add_table(self, table_id: str, code: str, config: dict[str, Any]) -> None:
        """A new table, committed."""
        self._write("INSERT INTO tables (id, code, config) VALUES (?, ?, ?)",
                    (table_id, code, json.dumps(config, sort_keys=True)))

    def add_seat(self, table_id: str, seat: int, token_hash: str, name: str) -> None:
        """A seat taken (its token's hash, the name of who took it), committed."""
        self._write("INSERT INTO seats (table_id, seat, token_hash, name) VALUES (?, ?, ?, ?)",
                    (table_id, seat, token_hash, name))

    def add_turn(self, table_id: str, index: int, turn: dict[str, Any]) -> None:
        """Turn ``index`` of a table, committed before this returns, with the kept steps
        of that turn cleared in the same transaction (the turn holds them now). A second
        turn at the same index is an :class:`sqlite3.IntegrityError` (nothing is applied
        twice), and nothing is written."""
        self._write("INSERT INTO turns (table_id, idx, turn) VALUES (?, ?, ?)",
                    (table_id, index, json.dumps(turn)),
                    ("DELETE FROM steps WHERE table_id = ?", (table_id,)))

    def set_steps(self, table_id: str, at: int, steps: list[dict[str, Any]]) -> None:
        """The kept steps of a table's turn in progress (turn ``at``: the turns applied
        before it), committed before this returns; they replace the ones before."""
        self._write("INSERT OR REPLACE INTO steps (table_id, at, steps) VALUES (?, ?, ?)",
                    (table_id, at, json.dumps(steps)))

    def finish(self, table_id: str) -> None:
        """Mark a table's game finished, committed."""
        self._write("UPDATE tables SET finished = 1 WHERE id = ?", (table_id,))

    def tables(self) -> list[StoredTable]:
        """Every table with its seats and turns, in the order they were created."""
        out: dict[str, StoredTable] = {}
        db = self._db
        for tid, code, config, finished in db.execute(
                "SELECT id, code, config, finished FROM tables ORDER BY rowid"):
            out[tid] = StoredTable(tid, code, json.loads(config), finished=bool(finished))
        for tid, seat, token_hash, name in db.execute(
                "SELECT table_id, seat, token_hash, name FROM seats"):
            out[tid].seats[int(seat)] = (str(token_hash), str(name))
        for tid, idx, turn in db.execute(
                "SELECT table_id, idx, turn FROM turns ORDER BY table_id, idx"):
            t = out[tid]
            if idx != len(t.turns):  # the primary key makes this impossible
                raise sqlite3.IntegrityError(f"table {tid}: turn {idx} follows a gap")
            t.turns.append(json.loads(turn))
        for tid, at, steps in db.execute("SELECT table_id, at, steps FROM steps"):
            t = out[tid]
            if at != len(t.turns):  # add_turn clears them in the turn's transaction
                raise sqlite3.IntegrityError(f"table {tid}: steps kept for turn {at}, but "
                                             f"{len(t.turns)} turns are stored")
            t.steps = json.loads(steps)
        return list(out.values())
