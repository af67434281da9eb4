"""Benchmark of what a review costs: on each play-out kernel, against the package at an
earlier revision, and ``tenleave review DIR`` of many games on local processes.

    nice -n 10 .venv/bin/python benchmarks/bench_review_speed.py --games 4 --baseline main \\
        --dir-games 30 --json benchmarks/results/review_speed.json

What it measures (CPU time, ``time.process_time``, of the review of 3-seat games of a
random, a greedy and a lookahead seat, the review's default budget, the analysis cache
cleared before each):

- **kernels** (``--games``): the review of each game with each array kernel as the default
  (:data:`KERNELS`: ``batch``, numpy; ``compiled``, numba), alternating game by game; the
  reviews are checked identical;
- **baseline** (``--baseline REV``): the same games reviewed by the package as it was at
  the git revision ``REV`` (exported to a temporary folder) and by this tree, each review
  in a fresh process (its tables and compiled kernel loaded before the timing: an
  analysis of the game's third position, then the cache cleared), the two alternating
  game by game; the reviews are checked identical (a change that keeps the figures);
- **dir** (``--dir-games``): ``tenleave review DIR --workers 2 --no-progress`` of that many
  3-seat games written to a temporary folder: its wall time and the CPU time of its
  processes (user + system), and the load average around it (on a shared machine the
  wall time is the CPU time spread over what the two cores have free).

``--json FILE`` writes the command, the date, the load and the figures.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench_playout import finish  # noqa: E402

from tenleave_widget.analysis import analyse, playouts  # noqa: E402
from tenleave_widget.analysis.bots import make_bot  # noqa: E402
from tenleave_widget.analysis.review import review  # noqa: E402
from tenleave_widget.engine.game import Game  # noqa: E402
from tenleave_widget.programs.simulate import play_game  # noqa: E402

KERNELS = ("batch", "compiled")

ROOT = Path(__file__).resolve().parent.parent

_ONE = """
import hashlib, json, sys, time
sys.path.insert(0, sys.argv[1])
from tenleave_widget.analysis import analyse
from tenleave_widget.analysis.review import review
from tenleave_widget.engine.game import Game
record = json.loads(open(sys.argv[2]).read())
analyse.analyse(Game.from_record(record, 3).view(Game.from_record(record, 3).to_move))
analyse.clear_cache()
g = Game.from_record(record)
t = time.process_time()
r = review(g, seed=1)
cpu = time.process_time() - t
text = json.dumps(r.to_json(), sort_keys=True)
print(json.dumps({"cpu_s": cpu, "sha": hashlib.sha256(text.encode()).hexdigest()}))
"""
"""One review in a fresh process: the package from ``argv[1]``, the record ``argv[2]``."""


def games(count: int, seed: int) -> list[Game]:
    """``count`` 3-seat games of a random, a greedy and a lookahead bot."""
    rng = random.Random(seed)
    return [play_game(3, [make_bot(b, rng.randrange(2**32))
                          for b in ("random", "greedy", "lookahead")],
                      seed=rng.randrange(2**32)) for _ in range(count)]


def kernel_cost(recs: list[Game]) -> dict[str, Any]:
    """The review's CPU seconds per game on each kernel, the same games, alternating."""
    saved = playouts.default_kernel
    secs: dict[str, list[float]] = {k: [] for k in KERNELS}
    same = True
    try:
        for k in KERNELS:  # the tables built and the kernel compiled before any timing
            playouts.default_kernel = lambda k=k: k  # type: ignore[misc]
            analyse.clear_cache()
            review(recs[0], seed=1)
        for g in recs:
            outs = []
            for k in KERNELS:
                playouts.default_kernel = lambda k=k: k  # type: ignore[misc]
                analyse.clear_cache()  # the one analysis keeps its results by position
                t = time.process_time()
                r = review(g, seed=1)
                secs[k].append(time.process_time() - t)
                outs.append(json.dumps(r.to_json()))
            same = same and len(set(outs)) == 1
    finally:
        playouts.default_kernel = saved
        analyse.clear_cache()
    out: dict[str, Any] = {
        k: {"cpu_s_median": round(statistics.median(s), 2), "cpu_s": [round(x, 2) for x in s]}
        for k, s in secs.items()}
    out["ratio"] = round(statistics.median(secs[KERNELS[0]])
                         / statistics.median(secs[KERNELS[-1]]), 2)
    out["identical_reviews"] = same
    print(f"kernels  {out}", flush=True)
    return out


def baseline_cost(recs: list[Game], rev: str) -> dict[str, Any]:
    """The review's CPU seconds per game by the package at git revision ``rev`` and by
    this tree, each in a fresh process, alternating game by game."""
    with tempfile.TemporaryDirectory() as tmp:
        old = Path(tmp) / "baseline"
        old.mkdir()
        sha = subprocess.run(["git", "rev-parse", "--short", rev], cwd=ROOT, check=True,
                             capture_output=True, text=True).stdout.strip()
        archive = subprocess.run(["git", "archive", rev, "tenleave_widget"], cwd=ROOT,
                                 check=True, capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", str(old)], input=archive, check=True)
        trees = {f"baseline {rev} ({sha})": str(old), "this tree": str(ROOT)}
        secs: dict[str, list[float]] = {k: [] for k in trees}
        same = True
        for i, g in enumerate(recs):
            path = Path(tmp) / f"game-{i}.json"
            path.write_text(json.dumps(g.to_record()))
            shas = set()
            for name, src in trees.items():
                got = json.loads(subprocess.run(
                    [sys.executable, "-c", _ONE, src, str(path)], check=True, text=True,
                    capture_output=True, timeout=1800).stdout)
                secs[name].append(got["cpu_s"])
                shas.add(got["sha"])
            same = same and len(shas) == 1
    names = list(trees)
    out: dict[str, Any] = {
        k: {"cpu_s_median": round(statistics.median(s), 2), "cpu_s": [round(x, 2) for x in s]}
        for k, s in secs.items()}
    out["ratio"] = round(statistics.median(secs[names[0]]) / statistics.median(secs[names[1]]),
                         2)
    out["identical_reviews"] = same
    print(f"baseline {out}", flush=True)
    return out


def dir_cost(count: int, seed: int) -> dict[str, Any]:
    """``tenleave review DIR --workers 2`` of ``count`` 3-seat games: wall and CPU seconds."""
    exe = Path(sys.executable).with_name("tenleave")
    with tempfile.TemporaryDirectory() as tmp:
        for i, g in enumerate(games(count, seed)):
            (Path(tmp) / f"game-{i:02d}.json").write_text(json.dumps(g.to_record()))
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        load0 = os.getloadavg()[0]
        t = time.perf_counter()
        subprocess.run([str(exe), "review", tmp, "--workers", "2", "--no-progress"],
                       check=True, stdout=subprocess.DEVNULL, timeout=3600)
        wall = time.perf_counter() - t
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    out = {"games": count, "wall_s": round(wall, 1), "cpu_s": round(cpu, 1),
           "cpu_s_per_game": round(cpu / count, 2),
           "load_1min": f"{load0:.1f} before, {os.getloadavg()[0]:.1f} after"}
    print(f"dir      {out}", flush=True)
    return out


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--games", type=int, default=4, help="games of the kernel comparison")
    ap.add_argument("--baseline", default=None, metavar="REV",
                    help="a git revision whose package reviews the same games")
    ap.add_argument("--dir-games", type=int, default=0, help="games of tenleave review DIR")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", default=None, metavar="FILE")
    args = ap.parse_args(argv)
    load0 = os.getloadavg()
    res: dict[str, Any] = {
        "title": "The review: on each kernel, against an earlier revision, review DIR",
        "command": "python " + " ".join([f"benchmarks/{Path(__file__).name}",
                                         *(argv if argv is not None else sys.argv[1:])]),
        "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "kernel": playouts.default_kernel(),
    }
    recs = games(args.games, args.seed)
    if args.games:
        res["review_3_seats"] = kernel_cost(recs)
    if args.baseline:
        res["review_3_seats_baseline"] = baseline_cost(recs, args.baseline)
    if args.dir_games:
        res["review_dir"] = dir_cost(args.dir_games, args.seed + 1)
    finish(res, load0, args.json)


if __name__ == "__main__":
    main()
