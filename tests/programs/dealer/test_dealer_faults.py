"""The dealer through a class's load and faults, on loopback, bounded: 10 tables of 3-5
seats (39 clients) play whole games as fast as they can while clients' connections are
cut at random (each resumes its seat with its token) and the server is killed with
SIGKILL and started again on the same store twice, about a third of the turns beginning
with a peek the dealer shows before the turn is played (the kills fall between the two).
No game, no turn and no peek shown may be lost, no turn applied twice, every finished
record must replay in the engine to its end, and ``tenleave review`` reads them. The driver
is the benchmark's (``benchmarks/bench_dealer.py``), which also measures the latencies."""

from __future__ import annotations

import asyncio
import importlib.util
import json
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

BENCH = Path(__file__).resolve().parents[3] / "benchmarks" / "bench_dealer.py"


def bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_dealer", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_dealer"] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow
def test_a_class_through_killed_clients_and_two_server_kills(tmp_path: Path) -> None:
    b = bench()
    r = asyncio.run(b.one_run(tmp_path, tables=10, seconds=240, faults=True, seed=2,
                              peeks=0.3))
    assert r["clients"] == 39 and r["server_kills"] == 2 and r["client_reconnects"] > 10
    assert r["turns"] == r["expected_turns"] == 390
    assert r["games_lost"] == 0 and r["records_invalid"] == 0
    assert r["peeks_shown"] > 20 and r["peeks_not_in_the_record"] == 0
    assert r["turns_not_sent_by_their_seat"] == 0 and r["views_that_went_back"] == 0
    records = sorted((tmp_path / "class-records").glob("*.json"))
    assert len(records) == 10
    # the class's records are what `tenleave review DIR` reads (one, to keep this short)
    one = tmp_path / "one"
    one.mkdir()
    shutil.copy(records[0], one)
    p = subprocess.run([sys.executable, "-m", "tenleave_widget", "review", str(one),
                        "--samples", "2", "--workers", "1", "--json"],
                       capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stderr
    assert len(json.loads(p.stdout)["turns"]) == len(json.loads(records[0].read_text())["turns"])
