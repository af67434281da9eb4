"""The error scheme: one base class, every error a ValueError, raised where documented."""

from __future__ import annotations

import pytest

import tenleave_widget as tw
from tenleave_widget.engine import errors


def test_one_scheme_all_value_errors() -> None:
    for name in ("SetupError", "InvalidRulesError", "RecordError", "IllegalActionError",
                 "InvalidViewError", "IntentError"):
        cls = getattr(errors, name)
        assert issubclass(cls, tw.TenLeaveError) and issubclass(cls, ValueError), name
        assert getattr(tw, name) is cls
    assert issubclass(tw.InvalidRulesError, tw.SetupError)
    assert not hasattr(tw, "InvalidRecordError")  # one name for one error


def test_record_error_names_the_turn() -> None:
    e = tw.RecordError("seat 9 does not exist", turn=4)
    assert e.turn == 4 and e.reason == "seat 9 does not exist" and str(e).startswith("turn 4:")
    assert tw.RecordError("bad").turn is None


def test_setup_errors() -> None:
    with pytest.raises(tw.SetupError, match="2 to 5 seats"):
        tw.Game(["Ana"])
    with pytest.raises(tw.SetupError, match="names must be strings"):
        tw.Game(["Ana", 3])  # type: ignore[list-item]
    with pytest.raises(tw.RecordError, match="unknown token"):
        tw.Game.from_record({"format": "tenleave-record/1", "players": ["A", "B"],
                             "defense": ["nope"], "turns": []})


def test_json_null_and_booleans_are_spelled_as_in_json() -> None:
    """Messages echo JSON input: null is ``null`` (not None or NoneType), true is ``true``."""
    from tenleave_widget.engine.errors import excerpt, json_kind

    assert excerpt(None) == "null" and excerpt([True, False, None]) == "[true, false, null]"
    assert excerpt({"a": None}) == "{'a': null}"
    assert [json_kind(v) for v in (None, True, 1, 1.5, "x", [], {})] == [
        "null", "true/false", "a number", "a number", "a string", "an array", "an object"]
    rec = tw.Game(3, seed=1).to_record()
    for path, value in [(("turns",), [None]), (("first",), None), (("format",), None)]:
        forged = dict(rec)
        forged[path[0]] = value
        with pytest.raises(tw.RecordError) as e:
            tw.Game.from_record(forged)
        assert "null" in str(e.value) and "None" not in str(e.value), str(e.value)
    with pytest.raises(tw.RecordError, match=r"a record must be a JSON object.*, not null$"):
        tw.Game.from_record(None)  # type: ignore[arg-type]
    from tenleave_widget.table.protocol import check_shape

    with pytest.raises(tw.IntentError, match="a message must be an object, not null"):
        check_shape(None)
    with pytest.raises(tw.IntentError, match="or null, not an array"):
        check_shape({"kind": [1]})


def test_play_works_with_its_default_bots() -> None:
    """play(players=N) gives the other seats greedy, random, greedy, ... (issue 21)."""
    for players, bots in [(2, {1: "greedy"}), (3, {1: "greedy", 2: "random"}),
                          (4, {1: "greedy", 2: "random", 3: "greedy"})]:
        w = tw.play(players=players, seed=1, bot_delay=0)
        assert w.session.config.bots == bots, players
    w = tw.play(players=3, human=[0, 1, 2], seed=1)  # everyone human: no bots needed
    assert w.session.config.bots == {}
    with pytest.raises(ValueError, match="2 bots for 1 non-human seats"):
        tw.play(players=2, bots=["greedy", "random"])  # too many named bots: still refused


def test_every_public_name_loads_on_first_use() -> None:
    """tenleave_widget imports its names lazily (so the command's signal handlers come
    first): each name of __all__ still resolves, and dir() lists them."""
    for name in tw.__all__:
        assert getattr(tw, name) is not None, name
    assert set(tw.__all__) <= set(dir(tw))
    from tenleave_widget.analysis.infer import infer
    from tenleave_widget.table.panels.figures import odds_figures

    assert tw.infer is infer and tw.odds_figures is odds_figures
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        tw.nope  # type: ignore[attr-defined]  # noqa: B018


def test_the_public_names_are_one_table_of_functions_classes_and_constants() -> None:
    """Every name of ``__all__`` comes from the imports under ``TYPE_CHECKING`` (what a
    type checker reads), none is a module, and each is what its module defines; the widget
    trio is play / hotseat / replay (the position as JSON is ``position``)."""
    import ast
    import inspect
    import types
    from pathlib import Path

    tree = ast.parse(Path(tw.__file__).read_text(encoding="utf-8"))
    block = next(n for n in tree.body if isinstance(n, ast.If))
    imported = {(a.asname, a.name) for n in block.body if isinstance(n, ast.ImportFrom)
                for a in n.names}
    assert all(asname == name for asname, name in imported)  # `X as X`: exported as X
    assert sorted(name for _, name in imported) == tw.__all__
    for name in tw.__all__:
        value = getattr(tw, name)
        assert not isinstance(value, types.ModuleType), name
        if inspect.isclass(value) or inspect.isfunction(value):
            assert value.__name__ == name, name  # no alias under another name
    from tenleave_widget.analysis.position import position
    from tenleave_widget.widget.entry import hotseat, play, replay

    assert (tw.play, tw.hotseat, tw.replay, tw.position) == (play, hotseat, replay, position)
    for gone in ("odds", "charts", "TableWidget", "InvalidRecordError", "replay_widget"):
        assert gone not in tw.__all__ and not hasattr(tw, gone), gone


def test_importing_the_package_imports_nothing_else() -> None:
    import subprocess
    import sys

    code = ("import sys; before = set(sys.modules); import tenleave_widget; "
            "print(sorted(set(sys.modules) - before))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.strip()
    assert out == "['tenleave_widget']"


@pytest.mark.parametrize(("kwargs", "said"), [
    ({"players": "Ana"}, "players must be a number of seats (2 to 5) or a list of names, "
                         "not 'Ana'"),
    ({"players": 3.0}, "players must be a number of seats (2 to 5) or a list of names, not 3.0"),
    ({"players": None}, "players must be a number of seats (2 to 5) or a list of names, "
                        "not null"),
    ({"players": True}, "players must be a number of seats (2 to 5) or a list of names, "
                        "not true"),
    ({"rules": "printed"}, "rules must be a Rules (or None: the printed rules), not 'printed'"),
    ({"seed": 1.5}, "seed must be a whole number or a text (None: fresh entropy), not 1.5"),
    ({"seed": [1]}, "seed must be a whole number or a text (None: fresh entropy), not [1]"),
    ({"strict_defense": "yes"}, "strict_defense must be True or False, not 'yes'"),
    ({"notes": "x"}, "notes must be a dict of turn index (0, 1, ...) -> text, not 'x'"),
    ({"notes": {-1: "x"}}, "notes must be a dict of turn index (0, 1, ...) -> text, "
                           "not {-1: 'x'}"),
    ({"notes": {1: 5}}, "'notes': the note of turn 1 must be a string, not 5"),
])
def test_a_game_names_a_bad_argument(kwargs: dict[str, object], said: str) -> None:
    args = {"players": 3, **kwargs}
    with pytest.raises(tw.SetupError) as e:
        tw.Game(**args)  # type: ignore[arg-type]
    assert str(e.value) == said


def test_a_game_with_notes_writes_a_record_that_loads() -> None:
    g = tw.Game(3, seed=1, notes={0: "Open with a plain card."})
    assert tw.Game.from_record(g.to_record()).notes == {0: "Open with a plain card."}


@pytest.mark.parametrize("bad", [None, "view", 3, [1], tw.Game(3, seed=1)])
def test_what_is_not_a_view_is_refused_by_every_reader_by_name(bad: object) -> None:
    from tenleave_widget.analysis.analyse import analyse
    from tenleave_widget.analysis.infer import infer
    from tenleave_widget.analysis.lookahead import evaluate_view

    for read in (tw.seat_odds, tw.odds_figures, infer, analyse, evaluate_view):
        with pytest.raises(tw.InvalidViewError) as e:
            read(bad)  # type: ignore[arg-type]
        assert str(e.value).startswith("a seat's view must be a tenleave-view/1 object "
                                       "(Game.view(seat)), not "), read
        assert "object at 0x" not in str(e.value)  # an object is named, not printed
    with pytest.raises(tw.InvalidViewError, match=r"^a seat's view has no 'hands'"):
        tw.seat_odds({k: v for k, v in tw.Game(3, seed=1).view(0).items() if k != "hands"})
