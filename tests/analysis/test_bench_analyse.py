"""benchmarks/bench_analyse.py's modes on a few positions: the coach's question per loss
(``--coach``) and the labels with another verdict cap (``--judge-cap``)."""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path
from types import ModuleType

import pytest

from tenleave_widget.analysis import analyse as an

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    """The benchmark as a module (its folder on the path while it is imported)."""
    sys.path.insert(0, str(BENCHMARKS))
    try:
        return importlib.import_module("bench_analyse")
    finally:
        sys.path.remove(str(BENCHMARKS))


def test_the_coach_mode_buckets_every_play_it_put_and_restores_the_rule(
        bench: ModuleType, tmp_path: Path) -> None:
    out = tmp_path / "coach.json"
    looks_of = an.looks_of
    assert bench.main(["--coach", "--positions", "3", "--seed", "3", "--out", str(out)]) == 0
    assert an.looks_of is looks_of  # the patched rule is undone
    got = json.loads(out.read_text())
    assert got["positions"] >= 1 and got["settings"] == vars(an.Settings())
    buckets = got["buckets"]
    assert sum(b["decisions"] for b in buckets.values()) >= got["positions"]
    for b in buckets.values():
        for rule in ("per_look", "over_looks"):
            if b["decisions"] == 0:
                assert b[f"asked_{rule}"] is None
                continue
            share, lo, hi = b[f"asked_{rule}"]
            assert 0 <= lo <= share <= hi <= 1
    # below the threshold (2 points) the question never asks
    for name in ("loss < 0.25", "0.25 <= loss < 2"):
        if buckets[name]["decisions"]:
            assert buckets[name]["asked_over_looks"][0] == 0


def test_the_coach_mode_at_another_budget(bench: ModuleType, tmp_path: Path) -> None:
    out = tmp_path / "coach3.json"
    assert bench.main(["--coach", "--coach-samples", "3", "--positions", "2", "--seed", "3",
                       "--out", str(out)]) == 0
    got = json.loads(out.read_text())
    assert got["settings"] == vars(an.settings_for(3))


def test_the_labels_with_another_verdict_cap(bench: ModuleType, tmp_path: Path) -> None:
    out = tmp_path / "labels.json"
    assert bench.main(["--labels-only", "--judge-cap", "1536", "--positions", "2", "--seed",
                       "3", "--out", str(out)]) == 0
    got = json.loads(out.read_text())
    assert got["judge_cap"] == 1536 and got["labels_compared"] == 2
    assert got["star_shown"] == 0  # labels only: no reference analyses
