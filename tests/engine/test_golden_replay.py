"""The conformance cases of an independent implementation (tests/golden, from shared/)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from tenleave_widget import Game, RecordError, position
from tenleave_widget.engine.record import loads_record

GOLDEN = Path(__file__).parents[1] / "golden"


def cases(kind: str) -> list[Path]:
    found = sorted((GOLDEN / kind).glob("*.json"))
    assert found, f"no golden {kind} cases"
    return found


def _canon(key: str, value: Any) -> Any:
    if key in ("hands", "swatted"):
        return [sorted(x) for x in value]
    if key == "safe":
        return Counter(json.dumps(x, sort_keys=True) for x in value)
    return value


@pytest.mark.parametrize("path", cases("replay"), ids=lambda p: p.stem)
def test_golden_replay(path: Path) -> None:
    case = json.loads(path.read_text())
    for n, expect in case["expect"].items():
        got = position(case["record"], turns=int(n))
        assert set(got) == set(expect)
        for key in expect:
            assert _canon(key, got[key]) == _canon(key, expect[key]), (n, key)


@pytest.mark.parametrize("path", cases("invalid"), ids=lambda p: p.stem)
def test_golden_invalid(path: Path) -> None:
    case = json.loads(path.read_text())
    with pytest.raises(RecordError) as err:
        record = loads_record(case["record_text"]) if "record_text" in case else case["record"]
        Game.from_record(record)
    assert err.value.turn == case["expect_turn"], str(err.value)
    if case["expect_turn"] is not None:
        assert f"turn {case['expect_turn']}" in str(err.value)
