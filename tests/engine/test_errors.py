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
    assert tw.InvalidRecordError is tw.RecordError  # the former name still works


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
    from tenleave_widget.table.panels import figures as charts

    assert tw.infer is infer and tw.charts is charts  # issue 19's and issue 20's names
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        tw.nope  # type: ignore[attr-defined]  # noqa: B018
