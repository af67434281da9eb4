"""The lookahead benchmark's strength run (``benchmarks/bench_lookahead.py strength``):
every game's bots are seeded afresh, so the games of a run do not share one bot's random
numbers turn by turn."""

from __future__ import annotations

import argparse
import importlib.util
import sys
from pathlib import Path
from typing import Any

import pytest

from tenleave_widget.analysis import bots as bots_module

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_lookahead.py"


def test_each_game_has_bots_of_their_own_seeds(monkeypatch: pytest.MonkeyPatch) -> None:
    spec = importlib.util.spec_from_file_location("bench_lookahead", BENCH)
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "bench_lookahead", bench)
    spec.loader.exec_module(bench)
    seeds: list[int] = []
    real = bots_module.LookaheadBot

    def recorded(seed: int, **kwargs: Any) -> Any:
        seeds.append(seed)
        return real(seed, **kwargs)

    monkeypatch.setattr(bench, "LookaheadBot", recorded)
    args = argparse.Namespace(
        players=2, games=3, opponent="greedy", seed=5, samples=2, prune=None, no_prune=True,
        objective="margin", rotations=False, no_redecide=False, progress=0, log=None)
    res = bench.strength(args)
    assert res["games"] == 3
    assert len(seeds) == 3 and len(set(seeds)) == 3, seeds
