"""Benchmark of what a review costs on the batched play-out kernel: the worlds the one
analysis hands to each play-out call (its chunk), compared in one run on the same games,
and ``tenleave review DIR`` of many games on local processes.

    nice -n 10 .venv/bin/python benchmarks/bench_review_speed.py --games 4 --dir-games 30 \\
        --json benchmarks/results/review_speed.json

What it measures:

- **chunk** (``--games``): the CPU time (``time.process_time``) of the review of each of
  ``--games`` 3-seat games (a random, a greedy and a lookahead seat, the review's default
  budget), the analysis cache cleared before each, once per chunk of :data:`CHUNKS` (32
  worlds a call, the chunk before; :data:`~tenleave_widget.analysis.playouts.CHUNK_WORLDS`,
  now), the chunks alternating game by game; the reviews are checked identical;
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

CHUNKS = (32, playouts.CHUNK_WORLDS)


def games(count: int, seed: int) -> list[Game]:
    """``count`` 3-seat games of a random, a greedy and a lookahead bot."""
    rng = random.Random(seed)
    return [play_game(3, [make_bot(b, rng.randrange(2**32))
                          for b in ("random", "greedy", "lookahead")],
                      seed=rng.randrange(2**32)) for _ in range(count)]


def chunk_cost(recs: list[Game]) -> dict[str, Any]:
    """The review's CPU seconds per game for each chunk, the same games, alternating."""
    review(recs[0], seed=1)  # the kernel's tables built once, before any timing
    secs: dict[int, list[float]] = {c: [] for c in CHUNKS}
    same = True
    for g in recs:
        outs = []
        for c in CHUNKS:
            analyse._CHUNK = c
            analyse.clear_cache()  # the one analysis keeps its results by position
            t = time.process_time()
            r = review(g, seed=1)
            secs[c].append(time.process_time() - t)
            outs.append(json.dumps(r.to_json()))
        same = same and len(set(outs)) == 1
    analyse._CHUNK = playouts.CHUNK_WORLDS
    out: dict[str, Any] = {
        f"chunk_{c}": {"cpu_s_median": round(statistics.median(s), 2),
                       "cpu_s": [round(x, 2) for x in s]} for c, s in secs.items()}
    out["ratio"] = round(statistics.median(secs[CHUNKS[0]])
                         / statistics.median(secs[CHUNKS[-1]]), 2)
    out["identical_reviews"] = same
    print(f"chunk    {out}", flush=True)
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
    ap.add_argument("--games", type=int, default=4, help="games of the chunk comparison")
    ap.add_argument("--dir-games", type=int, default=0, help="games of tenleave review DIR")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", default=None, metavar="FILE")
    args = ap.parse_args(argv)
    load0 = os.getloadavg()
    res: dict[str, Any] = {
        "title": "The review on the batched kernel: worlds per play-out call, review DIR",
        "command": "python " + " ".join([f"benchmarks/{Path(__file__).name}",
                                         *(argv if argv is not None else sys.argv[1:])]),
        "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "kernel": playouts.default_kernel(),
    }
    if args.games:
        res["review_3_seats"] = chunk_cost(games(args.games, args.seed))
    if args.dir_games:
        res["review_dir"] = dir_cost(args.dir_games, args.seed + 1)
    finish(res, load0, args.json)


if __name__ == "__main__":
    main()
