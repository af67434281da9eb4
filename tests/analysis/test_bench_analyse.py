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


def test_two_runs_compare_position_by_position(bench: ModuleType, tmp_path: Path) -> None:
    """Each run keeps every position's labels; ``--paired`` counts, position by position,
    the labels that differ at twice the budget in one run only, and the change."""
    out = tmp_path / "labels.json"
    assert bench.main(["--labels-only", "--positions", "3", "--seed", "3",
                       "--out", str(out)]) == 0
    run = json.loads(out.read_text())
    assert len(run["labels"]) == 3 and all(len(x) == 4 for x in run["labels"])
    assert sum(x[0] != x[2] for x in run["labels"]) == round(
        run["label_differs_at_2x_other_seed"][0] * 3)
    # a run against one whose second labels all agree with its first: every difference
    # of the run is one only it has
    calm = {**run, "labels": [[x[0], x[1], x[0], x[1]] for x in run["labels"]]}
    (tmp_path / "calm.json").write_text(json.dumps(calm))
    paired = tmp_path / "paired.json"
    assert bench.main(["--paired", str(out), str(tmp_path / "calm.json"),
                       "--out", str(paired)]) == 0
    got = json.loads(paired.read_text())
    k = sum(x[0] != x[2] for x in run["labels"])
    assert got["positions"] == 3 and got["label"]["only_before"] == k
    assert got["label"]["differ_after"] == got["label"]["only_after"] == 0
    assert got["label"]["change"][0] == -k / 3


def test_the_noise_split_separates_the_deals_from_the_play_outs(bench: ModuleType) -> None:
    """Two deals 10 points apart, each with streams 1 point either side of it: the
    play-outs' variance is 1, the deals' 25 less the half of 1 their two streams leave in
    their means."""
    got = bench.split([-1.0, 1.0, 9.0, 11.0], 2, 2)
    assert got == {"total": 26.0, "playouts": 1.0, "deals": 24.5}
    assert bench.split([3.0, 3.0, 3.0, 3.0, 3.0, 3.0], 3, 2) == {
        "total": 0.0, "playouts": 0.0, "deals": 0.0}


def test_the_noise_mode_splits_each_position(bench: ModuleType, tmp_path: Path) -> None:
    out = tmp_path / "noise.json"
    assert bench.main(["--noise", "--positions", "8", "--seed", "3", "--deals", "3",
                       "--streams", "2", "--out", str(out)]) == 0
    got = json.loads(out.read_text())
    assert got["positions"] == len(got["rows"]) >= 1 and got["deals"] == 3
    for row in got["rows"]:
        assert row["label"] in an.LABELS
        for policy in ("today", "explore0", "deterministic"):
            v = row[policy]
            assert v["playouts"] >= 0 and v["deals"] >= 0 and v["total"] >= 0
        assert row["deterministic"]["playouts"] == 0  # no random number left to vary


def test_labels_split_into_firm_and_hedged(bench: ModuleType, tmp_path: Path) -> None:
    """A firm label (no ``near``) that changes at twice the budget counts among the firm,
    outside the range only where the label at twice the budget cannot be it; a hedged one
    counts among the hedged."""
    pairs = [["mistake", None, "mistake", None],  # firm, the same
             ["mistake", None, "inaccuracy", "mistake"],  # firm, changed, within the range
             ["good", None, "inaccuracy", None],  # firm, changed, error label too, outside
             ["best", "good", "good", None],  # hedged, changed
             ["inaccuracy", "mistake", "inaccuracy", "mistake"]]  # hedged, the same
    got = bench.firmness(pairs)
    assert (got["firm_labels"], got["hedged_labels"]) == (3, 2)
    assert got["firm_label_differs_at_2x_other_seed"][0] == 2 / 3
    assert got["firm_error_label_differs_at_2x_other_seed"][0] == 2 / 3
    assert got["firm_label_outside_2x_range"] == 1
    assert got["hedged_label_differs_at_2x_other_seed"][0] == 1 / 2
    run = tmp_path / "run.json"
    run.write_text(json.dumps({"date": "d", "load": "l", "labels": pairs,
                               "label_differs_at_2x_other_seed": [0.6, 0.2, 0.9],
                               "error_label_differs_at_2x_other_seed": [0.4, 0.1, 0.8]}))
    out = tmp_path / "firm.json"
    assert bench.main(["--firm", str(run), "--out", str(out)]) == 0
    assert json.loads(out.read_text())["firm_label_outside_2x_range"] == 1
