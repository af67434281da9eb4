"""One way of counting turns, from 1, everywhere (issue 22, point 3).

The record and the JSON outputs count turns from 0 (a turn's index, the number of turns
applied); everything a person reads counts them from 1, as the table does: the status
("Turn 17: Ben to move."), the narration ("Turn 17 (Ben): ..."), the note ("Note on turn
17"), the review's text report and the CLI's table, and the sample games' notes. Here one
turn of a sample game, Ben's peek (index 16 of the 3-seat game), is named with the same
number by all of them.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tenleave_widget import Game
from tenleave_widget.analysis.review import review
from tenleave_widget.table.session.config import check_config
from tenleave_widget.table.session.machine import Session

ROOT = Path(__file__).resolve().parents[2]
GAMES = ROOT / "examples" / "games"
FILES = sorted(GAMES.glob("game-*-seats.json"))
INDEX = 16  # Ben's peek in the 3-seat game: turn 17 to everyone who reads it


def _record() -> dict[str, Any]:
    rec: dict[str, Any] = json.loads((GAMES / "game-3-seats.json").read_text(encoding="utf-8"))
    return rec


def _prefix(upto: int) -> dict[str, Any]:
    """The 3-seat game's first ``upto`` turns, with the notes about them."""
    rec = _record()
    rec["turns"] = rec["turns"][:upto]
    rec["notes"] = {k: v for k, v in rec["notes"].items() if int(k) < upto}
    return rec


def _row(text: str, number: int, name: str) -> list[str]:
    """The lines of a text report's turn table for turn ``number`` played by ``name``."""
    return [line for line in text.splitlines()
            if re.match(rf"^\s*{number}\s+{name}\s", line)]


def test_the_table_the_narration_and_the_note_count_from_one() -> None:
    rec = _record()
    assert rec["turns"][INDEX]["seat"] == 1 and "peek" in rec["turns"][INDEX]
    assert str(INDEX) in rec["notes"]
    game = Game.from_record(rec)
    s = Session(game, check_config(game, mode="replay", perspective=None, turn=0))
    s.handle({"kind": "goto", "turn": INDEX})
    assert s.state()["status"] == f"Turn {INDEX + 1}: Ben to move."
    s.handle({"kind": "goto", "turn": INDEX + 1})
    state = s.state()
    told = state["narration"]["turns"][-1]
    assert told["turn"] == INDEX and told["seat"] == 1  # the index; the page adds 1
    assert told["lines"][0] == "Ben peeked at queue 1, position I."
    assert state["replay"]["note_turn"] == INDEX and state["replay"]["note"]
    # the page writes the index plus one, in the narration and above the note
    # (its words in js/words.ts, given the number to write)
    events = (ROOT / "js" / "events.ts").read_text(encoding="utf-8")
    replay = (ROOT / "js" / "replay.ts").read_text(encoding="utf-8")
    words = (ROOT / "js" / "words.ts").read_text(encoding="utf-8")
    assert "WORDS.turnOf(tw.turn + 1, who)" in events
    assert "WORDS.noteOn((r.note_turn ?? 0) + 1)" in replay
    assert "turnOf: (turn: number, who: string): string => `Turn ${turn} (${who}): `" in words
    assert "noteOn: (turn: number): string => `Note on turn ${turn}: `" in words


@pytest.mark.slow
def test_the_review_report_and_the_cli_count_from_one(tmp_path: Path) -> None:
    rec = _prefix(INDEX + 2)
    r = review(rec, samples=2)
    assert r.turns[INDEX].turn == INDEX  # the JSON's field: the index
    text = r.table()
    assert "turns counted from 1" in text
    row = _row(text, INDEX + 1, "Ben")
    assert len(row) == 1 and "peek q1:I" in row[0], text
    assert not _row(text, 0, "Ana") and _row(text, 1, "Ana")  # the first turn is turn 1
    assert len(text.splitlines()[text.splitlines().index(row[0]) + 1]) <= 100  # its note
    f = tmp_path / "game.json"
    f.write_text(json.dumps(rec), encoding="utf-8")
    cli = subprocess.run([sys.executable, "-m", "tenleave_widget", "review", str(f),
                          "--samples", "2", "--no-progress"], capture_output=True, text=True)
    assert cli.returncode == 0, cli.stderr
    assert cli.stdout.strip() == text


def test_the_review_report_wraps_notes_and_aligns_the_luck_columns() -> None:
    rec = _prefix(15)  # the automatic wake of turn 14 is in it: luck of both signs
    text = review(rec, samples=2).table()
    lines = text.splitlines()
    notes = [line for line in lines if line.startswith(" " * 6)]
    assert len(notes) > 5 and all(len(line) <= 100 for line in notes), max(notes, key=len)
    start = lines.index(next(x for x in lines if x.startswith("luck of each swat")))
    head, *rows = lines[start + 1: lines.index("", start)]
    assert rows and any("-" in x for x in rows)  # a negative luck is shown
    ends = [m.end() for m in re.finditer(r"\S+", head)]
    for row in rows:  # every figure ends under its seat's name
        assert [m.end() for m in re.finditer(r"\S+", row)] == ends, (head, row)


TURN_REFERENCES = (
    (re.compile(r"rotate (?:on|of) turn (\d+)"), "rotate"),
    (re.compile(r"next swat comes on turn (\d+)"), "swat"),
)


def _references(rec: dict[str, Any]) -> list[tuple[str, str, int]]:
    """(note key, what, turn number) of every turn a note names."""
    return [(key, what, int(m[1])) for key, note in rec["notes"].items()
            for pattern, what in TURN_REFERENCES for m in pattern.finditer(note)]


@pytest.mark.parametrize("path", FILES, ids=[f.name for f in FILES])
def test_the_notes_name_turns_as_the_table_does(path: Path) -> None:
    rec = json.loads(path.read_text(encoding="utf-8"))
    game = Game.from_record(rec)
    for key, what, number in _references(rec):
        index = number - 1  # turn N of the table is the record's turn N - 1
        if what == "rotate":
            assert "rotate" in rec["turns"][index], (path.name, key, number)
        else:
            assert any(e["kind"] == "swat" for e in game.events(index)), (path.name, key, number)
    assert not any(re.search(r"\bturns? 0\b", note) for note in rec["notes"].values())


def test_the_notes_do_name_turns() -> None:
    found = [r for f in FILES for r in _references(json.loads(f.read_text(encoding="utf-8")))]
    assert {what for _, what, _ in found} == {"rotate", "swat"} and len(found) >= 5
