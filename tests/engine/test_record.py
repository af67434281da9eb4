"""The tenleave-record/1 format: read, validate, write, round trip."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from helpers import random_game

from tenleave_widget import Game, RecordError, load_record, save_record

BASE = {
    "format": "tenleave-record/1",
    "players": ["Ana", "Ben", "Cy"],
    "first": 0,
    "rules": {},
    "defense": ["I+II", "III+IV", "I+IV"],
    "turns": [
        {"seat": 0, "play": ["3*", 1]},
        {"seat": 1, "peek": [1, 0], "extra": "before", "play": ["5", 0]},
        {"seat": 2, "play": ["1", 1], "rotate": 1, "extra": "after"},
        {"seat": 0, "play": ["4*", 0]},
        {"seat": 1, "wake": True, "play": ["2", 0]},
    ],
    "notes": {"4": "Waking here swats queue 0 while it holds Ben's 5."},
}


def test_rules_md_example_loads_with_notes() -> None:
    g = Game.from_record(BASE)
    assert g.turns_applied == 5 and g.notes == {4: BASE["notes"]["4"]}
    assert g.penalty == [3, 5, 0]
    assert g.to_record()["notes"] == BASE["notes"]


def mutated(**changes: object) -> dict[str, object]:
    rec = copy.deepcopy(BASE)
    for k, v in changes.items():
        if v is None:
            rec.pop(k, None)
        else:
            rec[k] = v
    return rec


@pytest.mark.parametrize(
    "changes, match",
    [
        ({"format": "tenleave-record/2"}, "format"),
        ({"players": ["Solo"]}, "players"),
        ({"players": ["A", "B", 3]}, "players"),
        ({"first": 3}, "first"),
        ({"first": True}, "first"),
        ({"rules": {"colour": "red"}}, "unknown rule"),
        ({"rules": []}, "rules"),
        ({"defense": ["I+II", "I+II"]}, "twice in a row"),
        ({"defense": ["I+II", "V+VI"]}, "unknown token"),
        ({"defense": []}, "defense"),
        ({"turns": {}}, "turns"),
        ({"notes": {"x": "y"}}, "notes"),
    ],
)
def test_invalid_as_a_whole(changes: dict[str, object], match: str) -> None:
    with pytest.raises(RecordError, match=match) as e:
        Game.from_record(mutated(**changes))
    assert e.value.turn is None


@pytest.mark.parametrize(
    "index, turn, match",
    [
        (1, {"seat": 1, "play": ["5", 0], "wake": False}, "wake"),
        (1, {"seat": 1, "play": ["5", 0], "extra": "during", "peek": [1, 0]}, "extra"),
        (1, {"seat": 1, "play": ["5", 0], "rotate": 0}, "rotat"),
        (1, {"seat": 2, "play": ["5", 0]}, "seat 1's turn"),
        (1, {"seat": 1, "play": ["5", 7]}, "queue 7"),
        (1, {"seat": 1, "play": "5"}, "play"),
        (1, {"seat": 1, "play": ["5", 0], "peek": [0, 0]}, "no card at position 0"),
        (2, {"seat": 2, "play": ["5", 0], "peek": [True, 0]}, "peek"),
        (1, "not a turn", "object"),
    ],
)
def test_illegal_turn_names_its_index(index: int, turn: object, match: str) -> None:
    rec = copy.deepcopy(BASE)
    rec["turns"][index] = turn  # type: ignore[index]
    with pytest.raises(RecordError, match=match) as e:
        Game.from_record(rec)
    assert e.value.turn == index and f"turn {index}:" in str(e.value)


def test_unknown_keys_ignored_and_extra_ignored_without_action() -> None:
    rec = copy.deepcopy(BASE)
    rec["comment"] = "top-level keys are ignored"
    rec["turns"][0]["why"] = "so are turn keys"  # type: ignore[index]
    rec["turns"][0]["extra"] = "after"  # type: ignore[index]
    g = Game.from_record(rec)
    assert g.turns[0].extra == "before"


def test_defense_short_names_the_turn_and_is_atomic() -> None:
    rec = copy.deepcopy(BASE)
    rec["defense"] = ["I+II"]
    with pytest.raises(RecordError) as e:
        Game.from_record(rec)
    assert e.value.turn == 4


def test_go_to_turn_and_beyond() -> None:
    assert Game.from_record(BASE, turns=2).turns_applied == 2
    with pytest.raises(RecordError, match="has 5 turns"):
        Game.from_record(BASE, turns=6)


def test_file_round_trip(tmp_path: Path) -> None:
    for seats in range(2, 6):
        g = random_game(seats, seed=seats)
        path = tmp_path / f"g{seats}.json"
        g.notes = {0: "first move", 5: "ünïcode note"}
        save_record(g.to_record(), path)
        back = Game.from_record(path)
        assert back == g and back.notes == g.notes
        assert json.loads(path.read_text()) == load_record(path)


def test_unreadable_and_broken_files(tmp_path: Path) -> None:
    with pytest.raises(RecordError, match="cannot read"):
        Game.from_record(tmp_path / "missing.json")
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": ')
    with pytest.raises(RecordError, match="not JSON"):
        Game.from_record(bad)


def test_broken_files_are_typed_errors(tmp_path: Path) -> None:
    latin = tmp_path / "latin.json"
    latin.write_bytes(b'{"format": "tenleave-record/1", "players": ["Ren\xe9", "Ana"]}')
    with pytest.raises(RecordError, match="not UTF-8"):
        Game.from_record(latin)
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    with pytest.raises(RecordError):
        Game.from_record(deep)
    with pytest.raises(RecordError, match="notes"):
        Game.from_record(mutated(notes={"²": "a superscript two is not a turn index"}))


def test_playing_on_after_a_record_is_seeded() -> None:
    rec = mutated(defense=["I+II", "III+IV"])
    a = Game.from_record(rec, seed=5)
    b = Game.from_record(rec, seed=5)
    for g in (a, b):
        while g.turns_applied < 14:
            g.apply(next(iter(g.legal_turns)))
    assert a.defense == b.defense and len(a.defense) > 2


@pytest.mark.parametrize(("record", "said"), [
    (None, "a record must be a JSON object, not null"),
    ({}, "'format' must be 'tenleave-record/1', not null"),
    (Game(2, seed=1), "a record must be a JSON object, not a Python Game"),
    ({"format": "tenleave-record/1", "players": ["A"], "turns": []}, None),
])
def test_what_is_not_a_record_is_not_written(tmp_path: Path, record: object,
                                             said: str | None) -> None:
    path = tmp_path / "r.json"
    with pytest.raises(RecordError) as e:
        save_record(record, path)  # type: ignore[arg-type]
    if said is not None:
        assert str(e.value) == said
    assert list(tmp_path.iterdir()) == []


def test_a_record_for_a_missing_folder_names_the_file_asked_for(tmp_path: Path) -> None:
    path = tmp_path / "no such folder" / "r.json"
    with pytest.raises(FileNotFoundError) as e:
        save_record(Game(2, seed=1).to_record(), path)
    assert e.value.filename == str(path) and ".tmp" not in str(e.value)


@pytest.mark.parametrize(("text", "said"), [(5, "a number"), (None, "null"), ([], "an array")])
def test_loads_record_names_what_is_not_text(text: object, said: str) -> None:
    from tenleave_widget.engine.record import loads_record

    with pytest.raises(RecordError) as e:
        loads_record(text)  # type: ignore[arg-type]
    assert str(e.value) == f"the record must be JSON text or bytes, not {said}"
