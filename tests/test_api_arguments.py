"""Every argument of the public functions, given an odd value: each call returns or
raises the project's typed error (a ``ValueError``) in one line, and leaves what it was
handed as it was. The values are the kinds that broke calls before: ``None``, booleans,
negative, huge and non-finite numbers, empty and odd strings, containers, and objects
that are not JSON (an ``object()``, a ``Game``)."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import tenleave_widget as tw
from tenleave_widget import Game
from tenleave_widget.analysis import analyse as an
from tenleave_widget.analysis.infer import infer, with_history
from tenleave_widget.analysis.lookahead import evaluate_view

RECORD = str(Path(__file__).resolve().parent.parent / "examples" / "games" / "game-3-seats.json")
ODD: list[Any] = [None, True, -1, 0, 10**400, 1.5, float("nan"), float("inf"), "", "x",
                  "\x00", [], {}, [1, 2], object(), Game(2, seed=3)]
SMALL = an.Settings(first=16, batch=16, cap=16, judge_cap=16)


def targets() -> list[tuple[str, Callable[..., Any], dict[str, Any]]]:
    """Each public function with arguments it accepts (an odd value replaces one)."""
    g = Game(3, seed=1)
    v, vh = g.view(0), with_history(g, 0)
    return [
        ("Game", Game, {"players": 3, "first": 0, "seed": 1, "defense": None,
                        "strict_defense": False, "notes": None, "rules": None}),
        ("seat_odds", tw.seat_odds, {"view": v, "moves": True}),
        ("position_odds", tw.position_odds, {"record": RECORD, "seat": 0, "turns": 3,
                                             "model": "uniform", "seed": 0}),
        ("position_odds inferred", tw.position_odds, {
            "record": RECORD, "seat": 0, "turns": 3, "model": "inferred", "beta": "fitted",
            "seed": 0, "samples": 64, "cost": "fitted"}),
        ("position", tw.position, {"record": RECORD, "turns": 3}),
        ("evaluate", tw.evaluate, {"record_or_game": RECORD, "seat": 0, "turns": 3,
                                   "budget": 16, "seed": 1}),
        ("odds_figures", tw.odds_figures, {"view": v}),
        ("infer", infer, {"view": vh, "beta": "fitted", "seed": 0, "samples": 64,
                          "cost": "fitted"}),
        ("analyse", an.analyse, {"view": v, "settings": SMALL, "model": "uniform", "seed": 0,
                                 "objective": "margin", "beta": "fitted",
                                 "cost": "one-swat"}),
        ("judge", an.judge, {"view": v, "played": {"seat": 0, "play": ["1", 0]},
                             "settings": SMALL, "seed": 0}),
        ("evaluate_view", evaluate_view, {"view": v, "budget": 16, "seed": 1}),
        ("load_record", tw.load_record, {"path": RECORD}),
        ("loads_record", tw.loads_record, {"text": "{}"}),
        ("parse_record", tw.parse_record, {"obj": g.to_record()}),
        ("replay", tw.replay, {"record": RECORD}),
        ("play", tw.play, {"players": 3, "human": 0, "bots": None, "seed": 1, "bot_delay": 0,
                           "coach": "after"}),
        ("hotseat", tw.hotseat, {"players": 3, "seed": 1}),
    ]


@pytest.mark.parametrize("name", [t[0] for t in targets()])
def test_every_argument_refuses_an_odd_value_by_name(name: str) -> None:
    ((_, call, good),) = [t for t in targets() if t[0] == name]
    handed = copy.deepcopy({k: v for k, v in good.items() if not callable(v)})
    before = json.dumps(handed, sort_keys=True, default=repr)
    call(**good)  # the arguments it is handed work (else every odd call fails for them)
    for arg in good:
        for odd in ODD:
            try:
                call(**{**good, arg: odd})
            except tw.TenLeaveError as e:
                text = str(e)
                assert text and "\n" not in text.strip(), (name, arg, odd, text)
            except Exception as e:  # noqa: BLE001 - what the test is about
                pytest.fail(f"{name}({arg}={odd!r:.40}) raised {type(e).__name__}: {e}")
    after = {k: v for k, v in good.items() if not callable(v)}
    assert json.dumps(after, sort_keys=True, default=repr) == before  # nothing changed


def test_writers_refuse_a_path_that_is_not_one_before_writing(tmp_path: Path) -> None:
    from tenleave_widget.programs.export import export_html

    record = Game(2, seed=1).to_record()
    for write in (tw.save_record, export_html):
        for odd in ODD:
            if isinstance(odd, str) and odd not in ("", "\x00"):
                continue  # a name in the working folder: a path
            with pytest.raises(tw.SetupError, match=r"^the path to write must be a file's "
                                                    r"path \(a text or a Path\), not "):
                write(record, odd)
    assert list(tmp_path.iterdir()) == []


def table_state(w: Any) -> dict[str, str]:
    """What a table shows and holds: every synced trait and its record."""
    out = {k: json.dumps(getattr(w, k), sort_keys=True, default=repr)
           for k in w.trait_names() if not k.startswith("_") and k not in ("comm", "log")}
    out["record"] = json.dumps(w.record(), sort_keys=True)
    return out


TABLE_CALLS: dict[str, Callable[[Any, Any], Any]] = {
    "goto": lambda w, x: w.goto(x), "load": lambda w, x: w.load(x),
    "load turn": lambda w, x: w.load(RECORD, x), "moment": lambda w, x: w.moment(x),
    "play_from_here human": lambda w, x: w.play_from_here(human=x),
    "play_from_here bots": lambda w, x: w.play_from_here(bots=x),
    "play_from_here seed": lambda w, x: w.play_from_here(seed=x),
    "reveal": lambda w, x: w.reveal(x), "review samples": lambda w, x: w.review(samples=x),
    "save": lambda w, x: w.save(x), "export_html": lambda w, x: w.export_html(x),
    "set_lesson": lambda w, x: w.set_lesson(x),
    "set_perspective": lambda w, x: w.set_perspective(x),
    "tally": lambda w, x: w.tally(x), "think": lambda w, x: w.think(x),
    "bot_delay": lambda w, x: setattr(w, "bot_delay", x),
    "coach_threshold": lambda w, x: setattr(w, "coach_threshold", x),
    "size": lambda w, x: setattr(w, "size", x),
}


@pytest.mark.parametrize("kind", ["play", "replay", "hotseat"])
def test_a_table_refuses_odd_values_and_stays_as_it_was(kind: str, tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """Each method and setting of a table, handed each odd value: a typed one-line error
    and the table exactly as it was (every synced trait, its record), or a result."""
    monkeypatch.chdir(tmp_path)  # a path such as "x" is written here
    w = {"play": lambda: tw.play(players=3, human=0, seed=1, bot_delay=0),
         "replay": lambda: tw.replay(RECORD),
         "hotseat": lambda: tw.hotseat(3, seed=1)}[kind]()
    for name, call in TABLE_CALLS.items():
        for odd in ODD:
            before = table_state(w)
            try:
                call(w, odd)
            except tw.TenLeaveError as e:
                assert "\n" not in str(e).strip(), (name, odd, str(e))
                assert table_state(w) == before, (kind, name, odd)
            except Exception as e:  # noqa: BLE001 - what the test is about
                pytest.fail(f"{kind}: {name}({odd!r:.40}) raised {type(e).__name__}: {e}")
