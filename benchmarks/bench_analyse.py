"""The one analysis (``tenleave_widget.analysis.analyse``): how often its ★ holds, how
stable its labels are, and what a full analysis costs.

Positions: every decision of self-played games (random and greedy bots, first seat
rotating) at 2 to 5 seats, the seat to move's view, in a fixed order from ``--seed``.
For each position, one run measures, paired:

- **★ agreement**: where the default analysis (``Settings()``) shows a ★ (its best clearly
  better than every other decision), whether an analysis with ``--scale`` times the
  worlds (every round, cap and first batch scaled; another salt, so fresh worlds) names a
  best of the same group. The share, with its Wilson interval.
- **Label stability**: the played decision's label by the default verdict, against the
  label with twice the budget and another salt. The share that differ, with its interval:
  every label, and the error label alone (inaccuracy, mistake, blunder or none).
- **CPU**: ``time.process_time`` of one full default analysis (cache cleared), per seat
  count: median, p90, p99 (and of the verdict on the played decision after it).

Run (one process; positions are spread over 2-5 seats evenly)::

    nice python benchmarks/bench_analyse.py --positions 300 --out benchmarks/results/analyse.json

The machine is shared: CPU times are per process and hold under load; the load is written.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import sys
import time
from typing import Any

from tenleave_widget.analysis import analyse as an
from tenleave_widget.analysis.bots import make_bot
from tenleave_widget.analysis.playouts import default_kernel
from tenleave_widget.analysis.review import decisions
from tenleave_widget.analysis.stats import wilson
from tenleave_widget.programs.simulate import play_game


def positions(count: int, seed: int) -> list[Any]:
    """``count`` decisions of self-played games, seats 2..5 in turn, shuffled."""
    rng = random.Random(seed)
    per_seats: dict[int, list[Any]] = {n: [] for n in range(2, 6)}
    game = 0
    while min(len(v) for v in per_seats.values()) < count // 4 + 1:
        n = 2 + game % 4
        bots = [make_bot(rng.choice(["random", "greedy"]), seed=seed + game * 10 + s)
                for s in range(n)]
        g = play_game(n, bots, seed=seed + game, first=game % n)
        ds = decisions(g.to_record())
        rng.shuffle(ds)
        per_seats[n].extend(ds[:6])
        game += 1
    out = []
    for i in range(count):
        n = 2 + i % 4
        out.append((n, per_seats[n][i // 4]))
    return out


def error(label: str) -> str:
    """The error label a person is told (inaccuracy, mistake, blunder), or none."""
    return label if label in ("inaccuracy", "mistake", "blunder") else "none"


def pct(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--positions", type=int, default=300)
    p.add_argument("--scale", type=int, default=10, help="the reference's worlds, times")
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--minutes", type=float, default=None,
                   help="stop after this many minutes (the positions done are reported)")
    p.add_argument("--out", default=None)
    args = p.parse_args(argv)
    base = an.Settings()
    k = args.scale
    ref = an.Settings(first=base.first * k, batch=base.batch * k, cap=base.cap * k,
                      judge_cap=base.judge_cap * k)
    double = an.Settings(first=base.first * 2, batch=base.batch * 2, cap=base.cap * 2,
                         judge_cap=base.judge_cap * 2)
    ps = positions(args.positions, args.seed)
    start = time.perf_counter()
    load0 = os.getloadavg()[0]
    cpu: dict[int, list[float]] = {n: [] for n in range(2, 6)}
    judge_cpu: dict[int, list[float]] = {n: [] for n in range(2, 6)}
    starred = agree = 0
    labels = differ = errors_differ = 0
    done = 0
    for n, d in ps:
        if args.minutes is not None and time.perf_counter() - start > args.minutes * 60:
            break
        an.clear_cache()
        t0 = time.process_time()
        a = an.analyse(d.view, base)
        cpu[n].append(time.process_time() - t0)
        t0 = time.process_time()
        v = an.judge(d.view, d.played.to_json(), base, seen=d.seen)
        judge_cpu[n].append(time.process_time() - t0)
        if a["star"]:
            starred += 1
            r = an.analyse(d.view, ref, seed=1)
            agree += r["decisions"][0]["group"] == a["decisions"][0]["group"]
        v2 = an.judge(d.view, d.played.to_json(), double, seed=2, seen=d.seen)
        labels += 1
        differ += v["label"] != v2["label"]
        errors_differ += error(v["label"]) != error(v2["label"])
        done += 1
        if done % 10 == 0:
            print(f"{done} positions: star {agree}/{starred}, labels differ {differ}/{labels}",
                  file=sys.stderr, flush=True)
    pa, plo, phi = wilson(agree, starred)
    pd, dlo, dhi = wilson(differ, labels)
    pe, elo, ehi = wilson(errors_differ, labels)
    rows: list[dict[str, Any]] = []
    for n in range(2, 6):
        if cpu[n]:
            rows.append({"seats": n, "positions": len(cpu[n]),
                         "analysis_cpu_ms_median": 1000 * statistics.median(cpu[n]),
                         "analysis_cpu_ms_p90": 1000 * pct(cpu[n], 0.9),
                         "analysis_cpu_ms_p99": 1000 * pct(cpu[n], 0.99),
                         "verdict_cpu_ms_median": 1000 * statistics.median(judge_cpu[n])})
    out = {
        "title": "The one analysis: star agreement, label stability, CPU per analysis",
        "command": "nice python benchmarks/bench_analyse.py " + " ".join(
            argv if argv is not None else sys.argv[1:]),
        "date": time.strftime("%Y-%m-%d"),
        "machine": f"{platform.machine()}, {os.cpu_count()} cores (shared)",
        "load": f"{load0:.1f} at the start, {os.getloadavg()[0]:.1f} at the end",
        "kernel": default_kernel(),
        "positions": done,
        "star_shown": starred,
        "star_agrees_with_scale_x": [pa, plo, phi],
        "scale": k,
        "labels_compared": labels,
        "label_differs_at_2x_other_seed": [pd, dlo, dhi],
        "error_label_differs_at_2x_other_seed": [pe, elo, ehi],
        "rows": rows,
    }
    print(json.dumps(out, indent=1))
    if args.out:
        os.makedirs(os.path.dirname(args.out) or ".", exist_ok=True)
        with open(args.out, "w") as f:
            json.dump(out, f, indent=1)
            f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
