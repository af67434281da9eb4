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
