"""The HTML export: what the page holds, its secrecy, its errors, the CLI and the widget
method. (Opening the pages offline in Chromium: tests/browser/test_export_page.py.)

Secrecy, as for the widget (tests/widget/test_widget_secrets.py): swap two of an opponent's cards
that a seat does not know in a game's record; the seat's export of that game must be the
same file, byte for byte, and the teacher's export must differ.
"""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from widget.test_widget_secrets import REPLAY_CASES, swapped_record

from tenleave_widget import Game
from tenleave_widget.engine.errors import TenLeaveError
from tenleave_widget.programs.cli import main
from tenleave_widget.programs.export import (
    ExportError,
    export_data,
    export_html,
    packed,
    page_payload,
    patch,
    render_html,
    unpacked,
    unpatch,
)

GAMES = Path(__file__).resolve().parents[2] / "examples" / "games"
SAMPLES = sorted(GAMES.glob("game-*-seats.json"))


def samples(slow: set[str]) -> list[Any]:
    """The sample games as parameters named by file, those in ``slow`` marked slow."""
    return [pytest.param(p, id=p.stem, marks=[pytest.mark.slow] if p.stem in slow else [])
            for p in SAMPLES]


def page_json(page: str) -> dict[str, Any]:
    """The page's JSON as it is stored (each position a patch of the one before)."""
    return page_payload(page)


def page_data(page: str) -> dict[str, Any]:
    """The page's data with its states unpacked (what the page draws from)."""
    return unpacked(page_json(page))


@pytest.mark.parametrize("path", samples(slow={"game-4-seats", "game-5-seats"}))
def test_the_page_unpacks_to_exactly_the_states(path: Path, tmp_path: Path) -> None:
    """Every position of every view of the page, unpacked, is the session's state, the
    panels' figures included, to the type (1, 1.0 and true differ in JSON)."""
    game = Game.from_record(path)
    for seat in (None, game.seats - 1):
        data = export_data(path, seat)
        page = page_json(export_html(path, tmp_path / "g.html", seat).read_text("utf-8"))
        assert page["format"] == "tenleave-export/2" and "states" not in page
        assert json.dumps(unpacked(page), sort_keys=True) == json.dumps(data, sort_keys=True)


def test_patches_round_trip_on_any_json() -> None:
    rng = random.Random(7)

    def value(depth: int) -> Any:
        kind = rng.randrange(8 if depth else 5)
        atoms = [0, 1, 1.0, True, False, None, "", "a", "0", -2.5]
        if kind < 5:
            return rng.choice(atoms)
        if kind < 7:
            return [value(depth - 1) for _ in range(rng.randrange(5))]
        return {rng.choice("abcd"): value(depth - 1) for _ in range(rng.randrange(5))}

    for _ in range(3000):
        a, b = value(4), value(4)
        for prev, cur in ((a, b), (None, b), (a, a), (b, a)):
            # as the page reads them: JSON written with sorted keys
            prev, cur = (json.loads(json.dumps(v, sort_keys=True)) for v in (prev, cur))
            e = json.loads(json.dumps(patch(prev, cur), sort_keys=True))
            before = json.dumps(prev)
            assert json.dumps(unpatch(prev, e)) == json.dumps(cur), (prev, cur, e)
            assert json.dumps(prev) == before  # prev is left as it was
    assert patch({"x": 1}, {"x": 1.0}) == [1, {"x": [0, 1.0]}]
    assert patch([True], [1]) == [2, 0, [[0, 1]]]


def test_a_position_costs_the_same_at_any_turn() -> None:
    """The page no longer grows with the square of the turns: a position's patch does not
    carry the earlier turns (the 5-seat sample, 50 turns: the later positions are no
    larger than the earlier ones)."""
    data = packed(export_data(SAMPLES[-1], None))
    for row in data["patches"]:
        sizes = [len(json.dumps(e)) for e in row[1:]]
        early, late = max(sizes[:10]), max(sizes[-10:])
        assert late < 2 * early, (early, late)


@pytest.mark.parametrize("case", range(len(REPLAY_CASES)))
@pytest.mark.slow
def test_a_seats_export_is_the_same_file_whatever_the_unknown_cards(case: int) -> None:
    game, seat = REPLAY_CASES[case]
    swap = swapped_record(game, seat, random.Random(case))
    assert swap is not None
    other, _ = swap
    assert render_html(game.to_record(), seat) == render_html(other, seat)
    assert render_html(game.to_record(), None) != render_html(other, None)


@pytest.mark.parametrize("path", samples(slow={"game-3-seats", "game-4-seats",
                                                  "game-5-seats"}))
def test_a_seats_export_of_a_sample_game_leaks_nothing(path: Path) -> None:
    """Every seat of every sample game, at a position where it does not know some of an
    opponent's cards: the export up to there does not depend on them."""
    full = Game.from_record(path)
    rng = random.Random(path.stem)
    checked = 0
    for seat in range(full.seats):
        for turns in range(full.turns_applied - 1, 0, -1):
            game = Game.from_record(path, turns=turns)
            swap = swapped_record(game, seat, rng)
            if swap is None:
                continue
            record = game.to_record()
            other, keys = swap
            assert render_html(record, seat) == render_html(other, seat), (seat, turns)
            # the swap is there to be seen: the owner of the swapped cards knows them (its
            # one view, not the teacher's every view: a fifth of the work at 4 seats)
            owner = record["turns"][min(keys)]["seat"]
            assert owner != seat
            assert render_html(record, owner) != render_html(other, owner)
            checked += 1
            break
    assert checked == full.seats


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.stem)
def test_the_teachers_export_holds_every_view_of_every_turn(path: Path) -> None:
    data = export_data(path, None)
    game = Game.from_record(path)
    total = game.turns_applied
    assert data["perspectives"] == [None, *range(game.seats)]
    assert data["total"] == total
    notes = {int(k): v for k, v in json.loads(path.read_text())["notes"].items()}
    for p, seat in enumerate(data["perspectives"]):
        states = data["states"][p]
        panels = [s["panels"] for s in states]
        assert len(states) == total + 1
        for t in (0, total // 3, total - 1, total):
            truth = Game.from_record(path, turns=t).view(seat)
            assert states[t]["view"] == json.loads(json.dumps(truth))
            assert states[t]["perspective"] == seat and states[t]["mode"] == "replay"
            assert states[t]["replay"]["turn"] == t and states[t]["replay"]["total"] == total
            assert panels[t]["timeline"]["turns"] == list(range(t + 1))
            note = notes.get(t - 1, "")
            if seat is None:
                assert states[t]["replay"]["note"] == note
            else:  # a note may name hidden values: a seat's export only says there is one
                assert (states[t]["replay"]["note"] != "") == (note != "")
                assert note == "" or note not in json.dumps(states[t])
        assert not any(s["offers"]["active"] for s in states)
    # the swats are explained in words
    words = json.dumps([s["narration"] for s in data["states"][0]])
    assert "swing and miss" in words or "swatted" in words or "swats" in words


def test_a_seats_export_holds_only_that_seat(tmp_path: Path) -> None:
    out = export_html(SAMPLES[1], tmp_path / "seat.html", perspective=2)
    data = page_data(out.read_text(encoding="utf-8"))
    assert data["perspectives"] == [2]
    assert len(data["states"]) == 1
    for state in data["states"][0]:
        assert state["view"]["seat"] == 2
        assert [h["cards"] is not None for h in state["view"]["hands"]] == [False, False, True]
        assert state["panels"]["timeline"]["viewer"] == 2


def test_the_page_is_self_contained(tmp_path: Path) -> None:
    page = export_html(SAMPLES[0], tmp_path / "g.html").read_text(encoding="utf-8")
    head, _, _ = page.partition('<script type="application/octet-stream"')
    assert page.startswith("<!doctype html>")
    assert "default-src 'none'" in head  # the page may not load anything
    assert not re.search(r"<(script|link|img|iframe)\b[^>]*\b(src|href)=", page)
    assert page.count("<script") == 3 and page.count("</script>") == 3
    assert "</script" not in page_data(page).__repr__()


def test_bad_perspective_is_a_typed_error_and_nothing_is_written(tmp_path: Path) -> None:
    out = tmp_path / "g.html"
    for bad in (3, -1, "1", True, 1.0):
        with pytest.raises(ExportError, match="perspective must be a seat 0..2"):
            export_html(SAMPLES[1], out, perspective=bad)  # type: ignore[arg-type]
    assert not out.exists()
    assert issubclass(ExportError, TenLeaveError) and issubclass(ExportError, ValueError)
    out.write_text("kept")
    with pytest.raises(TenLeaveError):
        export_html({"format": "tenleave-record/1"}, out)
    assert out.read_text() == "kept"


def test_bad_perspective_message_is_an_excerpt_spelt_as_json(tmp_path: Path) -> None:
    """The refused value comes back through excerpt(): JSON's true/null, short, escaped."""
    cases = {True: "not true", "1": "not '1'", 1.5: "not 1.5", "x" * 10**5: "..."}
    for bad, tail in cases.items():
        with pytest.raises(ExportError) as e:
            export_html(SAMPLES[1], tmp_path / "g.html", perspective=bad)  # type: ignore[arg-type]
        message = str(e.value)
        assert message.endswith(tail) and "True" not in message and len(message) < 200
    with pytest.raises(ExportError, match=r"not \['\\x1b\[31m'\]$"):
        export_html(SAMPLES[1], tmp_path / "g.html", perspective=["\x1b[31m"])  # type: ignore[arg-type]
    assert not (tmp_path / "g.html").exists()


def test_cli_export(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    seat = tmp_path / "seat.html"
    assert main(["export", str(SAMPLES[0]), "--html", str(seat), "--seat", "1"]) == 0
    assert page_data(seat.read_text(encoding="utf-8"))["perspectives"] == [1]
    assert str(seat) in capsys.readouterr().out
    teacher = tmp_path / "teacher.html"
    assert main(["export", str(SAMPLES[0]), "--html", str(teacher), "--teacher"]) == 0
    assert page_data(teacher.read_text(encoding="utf-8"))["perspectives"] == [None, 0, 1]
    default = tmp_path / "default.html"
    assert main(["export", str(SAMPLES[0]), "--html", str(default)]) == 0
    assert default.read_bytes() == teacher.read_bytes()
    capsys.readouterr()
    assert main(["export", str(SAMPLES[0]), "--html", str(tmp_path / "x.html"),
                 "--seat", "7"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "perspective must be a seat 0..1" in err
    assert not (tmp_path / "x.html").exists()
    assert main(["export", str(SAMPLES[0]), "--html", str(tmp_path / "y.html"), "--seat", "1",
                 "--teacher"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not allowed with argument --seat" in err
    assert not (tmp_path / "y.html").exists()


def test_the_export_imports_nothing_from_jupyter() -> None:
    code = (
        "import sys, tenleave_widget.programs.export, tenleave_widget.programs.cli\n"
        "bad = [m for m in sys.modules if m.split('.')[0] in "
        "('anywidget', 'ipywidgets', 'traitlets', 'plotly', 'IPython', 'ipykernel')]\n"
        "assert not bad, bad"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_the_widget_exports_what_it_shows(tmp_path: Path) -> None:
    from tenleave_widget.widget import play, replay

    r = replay(SAMPLES[1], seat=1, turn=5)
    out = r.export_html(tmp_path / "r.html")
    assert out.read_bytes() == (
        export_html(SAMPLES[1], tmp_path / "same.html", perspective=1).read_bytes()
    )
    r.set_perspective(None)
    assert page_data(r.export_html(tmp_path / "t.html").read_text())["perspectives"] == [
        None, 0, 1, 2
    ]
    w = play(players=3, human=0, bots=["greedy", "random"], seed=3, bot_delay=0)
    w.handle_intent({"kind": "play", "card": w.table.offers["play_cards"][0], "queue": 0})
    w.handle_intent({"kind": "end"})
    data = page_data(w.export_html(tmp_path / "w.html").read_text())
    assert data["perspectives"] == [0] and data["total"] == 3


def test_the_pages_move_figures_are_the_one_analysiss_one_swat_figures() -> None:
    """The page's moves panel is the one-swat measure (no whole-game values: target 0,
    no ★ for the game): each move's figure is the one analysis's
    ``immediate_expected_penalty`` of the seat's view, to the digit."""
    from tenleave_widget.analysis.analyse import Settings, analyse
    from tenleave_widget.table.panels.data import move_label

    rec = json.loads((GAMES / "game-3-seats.json").read_text())
    seat = 1
    data = export_data(rec, perspective=seat)
    checked = 0
    for k, state in enumerate(data["states"][0][:12]):
        moves = state["panels"]["moves"]
        assert moves["target"] == 0 and not moves["done"] and not moves["star"]
        game = Game.from_record(rec, turns=k)
        if game.to_move != seat or not moves["moves"]:
            continue
        a = analyse(game.view(seat), Settings(first=16, batch=16, cap=16, judge_cap=16))
        one_swat: dict[str, float] = {}
        for d in a["decisions"]:
            if d["kind"] == "play":
                one_swat[move_label(d["turn"])] = d["immediate_expected_penalty"]
            elif d["kind"] == "wake first":
                one_swat["wake SleepKid"] = d["immediate_expected_penalty"]
        for row in moves["moves"]:
            assert row["expected_penalty"] == one_swat[row["label"]], (k, row["label"])
            checked += 1
    assert checked > 10
