"""How simulate scales with workers, and that its memory stays flat.

    .venv/bin/python benchmarks/bench_simulate.py scaling [--games 20000] [--repeats 5]
    .venv/bin/python benchmarks/bench_simulate.py memory [--games 1000000] [--workers 1 2]
    .venv/bin/python benchmarks/bench_simulate.py lookahead [--games 32]

``scaling`` times the whole command (wall clock, and the CPU time of the command and its
workers) ``tenleave simulate --players 3 --games N --seed 1 --json --workers W``
(start-up, process pool, games, output) for W = 1 and 2, alternating in one run, and
reports the median wall time, games/s, the speed-up over one worker and the parallel
efficiency (speed-up / W), then the same games on a Dask LocalCluster of 2 single-thread
worker processes already running (the time of the ``simulate`` call). Every run must
report the same fingerprint (the same games). The load average is printed before and
after: the machine is shared.

``memory`` plays N random 3-seat games in a fresh process per worker count and samples
the resident memory of that process and its workers (psutil) as the games go; it reports
the memory after the first 1% of the games and the peak after that, and fails (exit 1) if
the growth exceeds ``--bound`` MiB.

``lookahead`` measures the seconds a game of 1 lookahead bot against 2 greedy bots, and of
3 lookahead bots, take on 1 worker (wall and CPU time: the CPU time is the cost on one
core even on a busy machine) and on 2 workers (the same games; for the README's cost
arithmetic).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from typing import Any

MIB = 1024 * 1024


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def cpu_of_children() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)  # the command and its workers
    return r.ru_utime + r.ru_stime


def command(games: int, workers: int) -> tuple[float, float, dict[str, Any]]:
    """(wall seconds, CPU seconds of the command and its workers, its JSON)."""
    cmd = [sys.executable, "-m", "tenleave_widget", "simulate", "--players", "3", "--games",
           str(games), "--seed", "1", "--json", "--workers", str(workers)]
    c0, t0 = cpu_of_children(), time.perf_counter()
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    return time.perf_counter() - t0, cpu_of_children() - c0, json.loads(out)


def scaling(games: int, repeats: int) -> None:
    print(f"load average before: {load()}  ({os.cpu_count()} cores)")
    times: dict[int, list[float]] = {1: [], 2: []}
    cpu: dict[int, list[float]] = {1: [], 2: []}
    prints = set()
    for r in range(repeats):
        for w in ((1, 2) if r % 2 == 0 else (2, 1)):  # alternate the order
            dt, used, out = command(games, w)
            times[w].append(dt)
            cpu[w].append(used)
            prints.add(out["fingerprint"])
    base = statistics.median(times[1])
    print(f"tenleave simulate --players 3 --games {games} --seed 1 --json --workers W "
          f"(whole command, median of {repeats})")
    print("| workers | seconds | games/s | speed-up | parallel efficiency | CPU seconds |")
    print("|---|---|---|---|---|---|")
    for w, ts in times.items():
        med = statistics.median(ts)
        print(f"| {w} | {med:.2f} | {games / med:,.0f} | {base / med:.2f}x | "
              f"{base / med / w:.0%} | {statistics.median(cpu[w]):.2f} |")
    ratios = [a / b for a, b in zip(times[1], times[2], strict=True)]
    print(f"per-pair ratios (1 worker / 2 workers, same round): "
          f"{', '.join(f'{r:.2f}' for r in ratios)}; median {statistics.median(ratios):.2f}")
    try:
        from distributed import Client, LocalCluster

        from tenleave_widget.programs.simulate import simulate

        with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                          dashboard_address=None) as cluster, Client(cluster) as client:
            simulate(3, 2000, seed=1, client=client)  # warm the workers' imports
            dts = []
            for _ in range(repeats):
                s = simulate(3, games, seed=1, client=client)
                dts.append(s.seconds)
                prints.add(s.fingerprint)
        med = statistics.median(dts)
        print(f"| Dask LocalCluster, 2 workers (running) | {med:.2f} | {games / med:,.0f} | "
              f"{base / med:.2f}x | {base / med / 2:.0%} | |")
    except ImportError:
        print("(Dask is not installed: pip install 'tenleave_widget[distributed]')")
    print(f"same games in every run: {len(prints) == 1} ({', '.join(sorted(prints))})")
    print(f"load average after: {load()}")


MEMORY_CHILD = r"""
import json, sys, psutil
from tenleave_widget.programs.simulate import simulate
games, workers = int(sys.argv[1]), int(sys.argv[2])
me = psutil.Process()
samples = []
step = max(1, games // 200)
last = [0]
def rss():
    total = me.memory_info().rss
    for c in me.children(recursive=True):
        try:
            total += c.memory_info().rss
        except psutil.Error:
            pass
    return total
def progress(done):
    if done - last[0] >= step or done == games:
        last[0] = done
        samples.append((done, rss()))
s = simulate(3, games, seed=1, workers=workers, progress=progress)
print(json.dumps({"samples": samples, "seconds": s.seconds, "fingerprint": s.fingerprint}))
"""


def memory(games: int, workers: list[int], bound: float) -> int:
    print(f"load average before: {load()}")
    failed = 0
    for w in workers:
        out = json.loads(subprocess.run(
            [sys.executable, "-c", MEMORY_CHILD, str(games), str(w)],
            capture_output=True, text=True, check=True).stdout)
        samples = out["samples"]
        warm = next(r for d, r in samples if d >= games // 100)
        peak = max(r for d, r in samples if d >= games // 100)
        growth = (peak - warm) / MIB
        print(f"workers {w}: {games:,} games in {out['seconds']:.0f} s; resident memory "
              f"(process + workers) after {games // 100:,} games {warm / MIB:.1f} MiB, "
              f"peak after that {peak / MIB:.1f} MiB: growth {growth:+.2f} MiB "
              f"(bound {bound} MiB); {len(samples)} samples")
        failed += growth > bound
    print(f"load average after: {load()}")
    return 1 if failed else 0


def lookahead(games: int) -> None:
    from tenleave_widget.analysis.bots import BOT_NAMES
    from tenleave_widget.programs.simulate import simulate

    if "lookahead" not in BOT_NAMES:
        print("no lookahead bot yet")
        return
    print(f"load average before: {load()}")
    for bots in (["lookahead", "greedy", "greedy"], ["lookahead"] * 3):
        c0 = time.process_time()
        one = simulate(3, games, seed=1, bots=bots, rotate_first=True, workers=1)
        cpu = time.process_time() - c0
        two = simulate(3, games, seed=1, bots=bots, rotate_first=True, workers=2)
        assert one.fingerprint == two.fingerprint
        print(f"{' vs '.join(bots)}: {games} games; 1 worker {one.seconds:.1f} s wall, "
              f"{cpu:.1f} s CPU = {cpu / games:.3f} CPU-s a game; 2 workers "
              f"{two.seconds:.1f} s wall: {one.seconds / two.seconds:.2f}x")
    print(f"load average after: {load()}")


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = p.add_subparsers(dest="what", required=True)
    sc = sub.add_parser("scaling")
    sc.add_argument("--games", type=int, default=20_000)
    sc.add_argument("--repeats", type=int, default=5)
    me = sub.add_parser("memory")
    me.add_argument("--games", type=int, default=1_000_000)
    me.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    me.add_argument("--bound", type=float, default=1.0)
    lo = sub.add_parser("lookahead")
    lo.add_argument("--games", type=int, default=32)
    args = p.parse_args()
    if args.what == "scaling":
        scaling(args.games, args.repeats)
    elif args.what == "memory":
        return memory(args.games, args.workers, args.bound)
    else:
        lookahead(args.games)
    return 0


if __name__ == "__main__":
    sys.exit(main())
