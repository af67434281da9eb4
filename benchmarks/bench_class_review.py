"""Batch review (issue 24): one record reviewed in one process against W worker
processes, in the same run (alternated), and the Dask overhead per task.

    nice python benchmarks/bench_class_review.py [--repeats 1] [--samples K] [--workers 2]
        [--dask-tasks 200]

Prints, per backend, the median wall time and the CPU time (this process plus its
children) and the ratio of the medians; checks the reviews are byte-identical. The Dask
overhead: ``--dask-tasks`` no-op tasks through a local cluster (2 workers, 1 thread
each), submitted and gathered as review_many does, wall time per task.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import time
from pathlib import Path

from tenleave_widget.programs.class_review import review_many

GAME = Path(__file__).resolve().parent.parent / "examples" / "games" / "game-3-seats.json"


def cpu() -> float:
    me = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def once(workers: int, samples: int | None) -> tuple[float, float, str]:
    c0, t0 = cpu(), time.perf_counter()
    r = review_many([str(GAME)], workers=workers, samples=samples, seed=0)
    return time.perf_counter() - t0, cpu() - c0, json.dumps(r.to_json())


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


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeats", type=int, default=1)
    ap.add_argument("--samples", type=int, default=None)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--dask-tasks", type=int, default=200)
    a = ap.parse_args()
    print(f"load average before: {os.getloadavg()}")
    runs: dict[int, list[tuple[float, float]]] = {1: [], a.workers: []}
    out: dict[int, str] = {}
    for _ in range(a.repeats):
        for w in (1, a.workers):
            wall, used, text = once(w, a.samples)
            runs[w].append((wall, used))
            out[w] = text
            print(f"workers={w}: wall {wall:.1f} s, cpu {used:.1f} s", flush=True)
    assert out[1] == out[a.workers], "the reviews differ"
    med = {w: statistics.median(x[0] for x in r) for w, r in runs.items()}
    for w, r in runs.items():
        print(f"workers={w}: median wall {med[w]:.1f} s, median cpu "
              f"{statistics.median(x[1] for x in r):.1f} s")
    print(f"ratio wall {a.workers}/1: {med[a.workers] / med[1]:.2f}; reviews identical")
    if a.dask_tasks:
        print(f"dask overhead per task: {1000 * dask_overhead(a.dask_tasks):.1f} ms")
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
