"""Batch review (issue 24), in four parts (``--parts``, default all):

    nice python benchmarks/bench_class_review.py [--parts single,dask,class,memory]
        [--repeats 1] [--samples K] [--workers 2] [--dask-tasks 200] [--games 30]
        [--counts 10,100,1000]

- ``single``: the 3-seat sample (``examples/games/game-3-seats.json``) reviewed in one
  process against W worker processes, in the same run (alternated, ``--repeats`` rounds);
  median wall time and CPU time (this process plus its workers) of each, the ratio of the
  medians, and a check that the reviews are byte-identical. The aim: at most 8 s wall with
  2 workers at the default budget (``--samples`` unset).
- ``dask``: Dask's overhead per task: ``--dask-tasks`` no-op tasks through a local cluster
  (2 workers, 1 thread each), submitted and gathered as the runner does, wall per task.
- ``class``: a class's ``--games`` 3-seat games (Sam, Ana and Ben, with the bots of
  ``examples/class_report.ipynb``) reviewed with W workers at the budget: wall, CPU,
  decisions, CPU per decision, and what a cluster of 100 single-thread workers would take
  (:func:`cluster_estimate`: each worker's share of the decisions at the measured CPU
  per decision plus Dask's overhead per task).
- ``memory``: peak resident memory (``ru_maxrss``) of a fresh process that reviews the
  first N of 1,000 small record files (2 seats, random bots) at a tiny budget (1 world),
  for each N of ``--counts``, in one process (``--workers 1`` there: the memory is the
  batch's, not a worker's) — and the bytes of its JSON, which grow with N by design.

Every figure is printed with the load average before and after: on a shared machine
the wall times are "loaded"; the CPU times are not.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tenleave_widget import Game, save_record
from tenleave_widget.analysis.bots import decide, make_bot
from tenleave_widget.programs.class_review import review_many

GAME = Path(__file__).resolve().parent.parent / "examples" / "games" / "game-3-seats.json"


def cpu() -> float:
    me = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def once(files: list[str], workers: int, samples: int | None) -> tuple[float, float, str, int]:
    c0, t0 = cpu(), time.perf_counter()
    r = review_many(files, workers=workers, samples=samples, seed=0)
    assert not r.failures and r.decisions, r.failures  # a missing file is no benchmark
    return time.perf_counter() - t0, cpu() - c0, json.dumps(r.to_json()), r.decisions


def noop(x: int) -> int:
    return x


def dask_overhead(tasks: int) -> float:
    from distributed import Client, LocalCluster, as_completed

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True) as cluster, \
            Client(cluster) as client:
        client.submit(noop, -1).result()  # warm
        t0 = time.perf_counter()
        futures = [client.submit(noop, i, pure=False) for i in range(tasks)]
        for f in as_completed(futures):
            f.result()
        return (time.perf_counter() - t0) / tasks


def single(a: argparse.Namespace) -> None:
    runs: dict[int, list[tuple[float, float]]] = {1: [], a.workers: []}
    out: dict[int, str] = {}
    for _ in range(a.repeats):
        for w in (1, a.workers):
            wall, used, text, n = once([str(GAME)], w, a.samples)
            runs[w].append((wall, used))
            out[w] = text
            print(f"single: workers={w}: wall {wall:.1f} s, cpu {used:.1f} s "
                  f"({n} decisions)", flush=True)
    assert out[1] == out[a.workers], "the reviews differ"
    med = {w: statistics.median(x[0] for x in r) for w, r in runs.items()}
    for w, r in runs.items():
        print(f"single: workers={w}: median wall {med[w]:.1f} s, median cpu "
              f"{statistics.median(x[1] for x in r):.1f} s")
    print(f"single: ratio wall {a.workers}/1: {med[a.workers] / med[1]:.2f}; "
          "reviews identical; aim <= 8 s wall with 2 workers")


def make_games(folder: Path, games: int, seats: int = 3) -> list[str]:
    """Games of the notebook's story (Sam random then greedy, Ana greedy, Ben random);
    2 seats: two random bots."""
    files = []
    for k in range(games):
        if seats == 3:
            names = ["Sam", "Ana", "Ben"]
            kinds = ["random" if k < games // 2 else "greedy", "greedy", "random"]
        else:
            names, kinds = ["Ana", "Ben"], ["random", "random"]
        bots = [make_bot(b, seed=k) for b in kinds]
        g = Game(names, seed=100 + k, first=k % seats)
        while not g.finished:
            g.apply(decide(bots[g.to_move], g))
        path = folder / f"game-{k + 1:04d}.json"
        save_record(g.to_record(), path)
        files.append(str(path))
    return files


def cluster_estimate(decisions: int, cpu_s: float, workers: int, overhead_s: float) -> str:
    per = cpu_s / decisions
    rounds = -(-decisions // workers)  # each worker judges ceil(decisions / N) of them
    return (f"{workers} single-thread workers: {decisions} decisions / {workers} = "
            f"{rounds} each x {per:.2f} s CPU + {1000 * overhead_s:.0f} ms Dask overhead "
            f"each = {rounds * (per + overhead_s):.1f} s (CPU-bound, no queueing assumed)")


def a_class(a: argparse.Namespace, overhead: float | None) -> None:
    with tempfile.TemporaryDirectory() as d:
        files = make_games(Path(d), a.games)
        wall, used, _, n = once(files, a.workers, a.samples)
    print(f"class: {a.games} games, {n} decisions, {a.workers} workers: wall {wall:.1f} s, "
          f"cpu {used:.1f} s ({used / n:.3f} s CPU a decision)", flush=True)
    print("class: " + cluster_estimate(n, used, 100, overhead if overhead is not None
                                       else 0.0))


def memory_child(folder: str, count: int) -> None:
    files = sorted(str(p) for p in Path(folder).glob("*.json"))[:count]
    t0, c0 = time.perf_counter(), cpu()
    r = review_many(files, workers=1, samples=1, seed=0)
    size = len(json.dumps(r.to_json()))
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux
    print(json.dumps({"records": len(r.games), "decisions": r.decisions, "json": size,
                      "peak_kib": peak, "wall": time.perf_counter() - t0,
                      "cpu": cpu() - c0}))


def memory(a: argparse.Namespace) -> None:
    counts = [int(c) for c in a.counts.split(",")]
    with tempfile.TemporaryDirectory() as d:
        make_games(Path(d), max(counts), seats=2)
        rows = []
        for n in counts:
            out = subprocess.run([sys.executable, __file__, "--memory-child", d, str(n)],
                                 check=True, capture_output=True, text=True).stdout
            row = json.loads(out.strip().splitlines()[-1])
            rows.append(row)
            print(f"memory: {row['records']:>5} records, {row['decisions']:>6} decisions: "
                  f"peak RSS {row['peak_kib'] / 1024:.1f} MiB, JSON {row['json']:,} bytes, "
                  f"wall {row['wall']:.1f} s, cpu {row['cpu']:.1f} s", flush=True)
    lo, hi = rows[0], rows[-1]
    per = (hi["peak_kib"] - lo["peak_kib"]) / max(1, hi["records"] - lo["records"])
    print(f"memory: {per:.1f} KiB of peak RSS per further record "
          f"({(hi['json'] - lo['json']) / max(1, hi['records'] - lo['records']) / 1024:.1f}"
          " KiB of JSON per record)")


def main() -> None:
    if len(sys.argv) == 4 and sys.argv[1] == "--memory-child":
        memory_child(sys.argv[2], int(sys.argv[3]))
        return
    ap = argparse.ArgumentParser()
    ap.add_argument("--parts", default="single,dask,class,memory")
    ap.add_argument("--repeats", type=int, default=1)
    ap.add_argument("--samples", type=int, default=None)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--dask-tasks", type=int, default=200)
    ap.add_argument("--games", type=int, default=30)
    ap.add_argument("--counts", default="10,100,1000")
    a = ap.parse_args()
    parts = a.parts.split(",")
    print(f"load average before: {os.getloadavg()}", flush=True)
    overhead = None
    if "memory" in parts:
        memory(a)
    if "dask" in parts:
        overhead = dask_overhead(a.dask_tasks)
        print(f"dask: overhead per task {1000 * overhead:.1f} ms", flush=True)
    if "single" in parts:
        single(a)
    if "class" in parts:
        a_class(a, overhead)
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
