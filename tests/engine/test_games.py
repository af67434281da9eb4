"""The annotated sample games of examples/games/: they load, end, carry notes at their
decisive turns, and between them really show every teaching situation of issue 5 —
found by replaying them with the engine (examples/games/situations.py), not by reading
the notes."""

from __future__ import annotations

import doctest
import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from tenleave_widget import Game

GAMES = Path(__file__).resolve().parents[2] / "examples" / "games"
FILES = sorted(GAMES.glob("game-*-seats.json"))


def _module(name: str) -> ModuleType:
    if name in sys.modules:
        return sys.modules[name]
    sys.path.insert(0, str(GAMES))
    spec = importlib.util.spec_from_file_location(name, GAMES / f"{name}.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


situations = _module("situations")


def _load(path: Path) -> dict[str, Any]:
    rec: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return rec


def rec(*turns: dict[str, Any], defense: list[str] | None = None) -> dict[str, Any]:
    return {
        "format": "tenleave-record/1",
        "players": ["Ana", "Ben"],
        "defense": defense or ["I+II", "II+III", "III+IV"],
        "turns": list(turns),
    }


def p(seat: int, card: str, queue: int, **kw: Any) -> dict[str, Any]:
    return {"seat": seat, "play": [card, queue], **kw}


# ---------------------------------------------------------------- the sample games


def test_one_game_per_player_count() -> None:
    counts = sorted(len(_load(f)["players"]) for f in FILES)
    assert counts == [2, 3, 4, 5]


@pytest.mark.parametrize("path", FILES, ids=[f.name for f in FILES])
def test_game_loads_ends_and_is_annotated(path: Path) -> None:
    record = _load(path)
    g = Game.from_record(path)
    assert g.finished and g.winners
    assert g.to_record()["turns"] == record["turns"]
    notes = {int(k): v for k, v in record["notes"].items()}
    assert all(0 <= k < len(record["turns"]) for k in notes)
    assert all(len(v) > 40 for v in notes.values())
    # every decisive moment the replay finds carries a note
    for key, turns in situations.find_situations(record).items():
        assert turns, key
        assert any(t in notes for t in turns), f"{path.name}: no note at {key} {turns}"
    # every swat is explained
    for i in range(len(record["turns"])):
        if any(e["kind"] == "swat" for e in g.events(i)):
            assert i in notes, f"{path.name}: the swat of turn index {i} has no note"


def test_games_show_every_situation() -> None:
    seen: dict[str, list[str]] = {}
    for f in FILES:
        for key in situations.find_situations(_load(f)):
            seen.setdefault(key, []).append(f.name)
    missing = set(situations.SITUATIONS) - set(seen)
    assert not missing, f"no sample game shows {sorted(missing)}"


def test_games_are_what_the_generator_makes() -> None:
    make_games = _module("make_games")
    for n in (2, 3, 4, 5):
        assert make_games.build(n) == _load(GAMES / make_games.file_name(n)), (
            f"{n} seats: run python examples/games/make_games.py (and --search if a "
            f"situation is lost)"
        )


# -------------------------------------- the detectors, on small hand-made games


def test_note_figures_are_rounded_half_up_from_the_exact_odds() -> None:
    make_games = _module("make_games")
    assert doctest.testmod(make_games).failed == 0
    assert make_games._money(53 / 40) == "1.33"  # 1.32499... in floating point


def test_peek_note_names_every_tied_safest_play() -> None:
    note = _load(GAMES / "game-5-seats.json")["notes"]["34"]
    assert "safest plays were 3 on queue 1 and 3 on queue 3, tied" in note


def test_two_seat_hands_are_the_colour_less_a_two() -> None:
    note = _load(GAMES / "game-2-seats.json")["notes"]["0"]
    g = Game.from_record(GAMES / "game-2-seats.json", turns=0)
    assert all(len(d) == 9 and d.count("2") == 1 for d in g.view(None)["dealt"])
    assert "less the one 2 that each seat removes in a 2-seat game" in note


def test_tie_and_wake_are_detected() -> None:
    r = rec(p(0, "4*", 0), p(1, "4*", 0), p(0, "1", 1), p(1, "2", 1), p(0, "1", 0, wake=True))
    found = situations.find_situations(r)
    assert found == {"tie": [4], "wake": [4]}  # 4 + 4 = 8: both 4s; 1 + 2: the 2 alone


def test_exact_and_automatic_wake_are_detected() -> None:
    turns = [p(0, "5*", 0), p(1, "5", 0), p(0, "1", 0), p(1, "1", 0),
             p(0, "4*", 1), p(1, "4*", 1), p(0, "2", 1), p(1, "2", 1)]
    found = situations.find_situations(rec(*turns))
    assert found == {"miss": [7], "auto": [7]}  # 5 + 5 and 4 + 4 + 2 both make 10


def test_token_position_beyond_the_flips_is_detected() -> None:
    # queue 0: 4 + 4 + 3 = 11 after three flips; token III+IV: position IV swats nothing
    turns = [p(0, "4*", 0), p(1, "4*", 0), p(0, "3*", 0), p(1, "1", 1), p(0, "1", 1),
             p(1, "2", 0, wake=True)]
    found = situations.find_situations(rec(*turns, defense=["III+IV", "I+II"]))
    assert found == {"beyond": [5], "wake": [5], "tie": [5]}  # queue 1: 1 and 1 tie
    # with token I+II both positions are flipped: not "beyond"
    found = situations.find_situations(rec(*turns, defense=["I+II", "III+IV"]))
    assert "beyond" not in found


def test_rotate_saves_only_against_the_unrotated_game() -> None:
    # Ana's 5 at the front of queue 0; Ana rotates it to the back before the wake swat:
    # 4 + 4 + 3 = 11 flips without reaching it (token I+II swats the two 4s).
    base = [p(0, "5*", 0), p(1, "4*", 0), p(0, "4*", 0), p(1, "3*", 0),
            p(0, "1", 1), p(1, "1", 1)]
    saved = rec(*base, p(0, "2", 1, rotate=0), p(1, "2", 1, wake=True))
    assert situations.rotate_saves(saved, 6) == 0  # the card played on turn index 0
    assert situations.find_situations(saved)["rotate"] == [6]
    # rotating queue 1 instead moves Ana's 1, which is not swatted either way
    idle = rec(*base, p(0, "2", 1, rotate=1), p(1, "2", 1, wake=True))
    assert situations.rotate_saves(idle, 6) is None


def test_peek_changes_decision_needs_new_knowledge() -> None:
    g = Game.from_record(rec(p(0, "5*", 0), p(1, "4*", 0), p(0, "1", 1)))
    from tenleave_widget import Turn

    own = Turn(1, "1", 1, peek=(0, 1))  # Ben peeks at his own card: he learns nothing
    assert not situations.peek_changes_decision(g, own)
    after = Turn(1, "1", 1, peek=(0, 0), extra="after")  # only peeks *before* count
    assert not situations.peek_changes_decision(g, after)
