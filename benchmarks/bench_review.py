"""Benchmark of the game review (issue 10): what it costs, how stable its labels are, and
the losses of the random, greedy and lookahead bots that the label thresholds come from.

It plays ``--games`` 3-seat games (one random, one greedy and one lookahead seat — the
lookahead bot with rotations on, so that it weighs every decision the review weighs —
the seats rotating game by game so each bot sits everywhere), then reviews each game:

- **time**: the review of each whole game (30 turns) at ``--samples`` (default: the
  review's default budget): its CPU time (what one free core takes; the review is
  single-threaded) and its wall-clock time (on a shared machine, longer);
- **stability**: the same game reviewed again at twice the budget, with the same seed
  (the doubled run's first worlds are the first run's) and with another seed; the share
  of decisions whose label changed (with its Wilson 95% interval), and why: the two
  reviews named another best decision (``best``), or the same best with the loss on the
  other side of a label bound (``bound``), or one found the decision forced (``forced``);
- **losses**: per bot, the distribution of the loss of its unforced decisions (quantiles,
  mean) and how the labels fall under :data:`tenleave_widget.analysis.review.THRESHOLDS`.

    taskset -c 1 nice -n 10 .venv/bin/python benchmarks/bench_review.py --games 12 --seed 1

``--objective win_probability`` measures the losses (and the labels' stability) in that
unit instead of points of margin.

``--json FILE`` also writes every figure (and every loss) for a closer look.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from typing import Any

from tenleave_widget.analysis.bots import LookaheadBot, make_bot
from tenleave_widget.analysis.review import (
    DEFAULT_SAMPLES,
    LABELS,
    OBJECTIVES,
    THRESHOLDS,
    Review,
    decision,
    review,
)
from tenleave_widget.analysis.stats import mean_ci, wilson
from tenleave_widget.programs.simulate import play_game

BOTS = ("random", "greedy", "lookahead")


def player(name: str, seed: int) -> Any:
    """The lookahead bot with every decision the review values (rotations included)."""
    if name == "lookahead":
        return LookaheadBot(seed=seed, rotations=True)
    return make_bot(name, seed)


def quantiles(xs: list[float]) -> dict[str, float]:
    qs = statistics.quantiles(xs, n=20, method="inclusive")  # 5%, 10%, ..., 95%
    return {"p10": qs[1], "p25": qs[4], "p50": qs[9], "p75": qs[14], "p90": qs[17],
            "p95": qs[18]}


CAUSES = ("best", "bound", "forced")


def flips(a: Review, b: Review) -> tuple[int, int, dict[str, int]]:
    """(decisions whose label differs, decisions, why) between two reviews of one game:
    ``forced`` if one review found the decision forced, else ``best`` if they named
    another best decision, else ``bound`` (the same best; the loss crossed a bound)."""
    why = dict.fromkeys(CAUSES, 0)
    for x, y in zip(a.turns, b.turns, strict=True):
        if x.label == y.label:
            continue
        if x.forced != y.forced:
            why["forced"] += 1
        elif decision(x.best) != decision(y.best):
            why["best"] += 1
        else:
            why["bound"] += 1
    return sum(why.values()), len(a.turns), why


def add(acc: list[Any], c: int, n: int, why: dict[str, int]) -> None:
    """Add one game's label changes to a running ``[changed, decisions, why]``."""
    acc[0] += c
    acc[1] += n
    for k, v in why.items():
        acc[2][k] += v


def show(name: str, acc: list[Any]) -> str:
    c, n, why = acc
    _, lo, hi = wilson(c, n)
    return (f"labels changed at twice the budget ({name}): {c}/{n} = {c / n:.1%} "
            f"[{lo:.1%}, {hi:.1%}]; why: " + ", ".join(f"{k} {v}" for k, v in why.items()))


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=12)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--samples", type=int, default=DEFAULT_SAMPLES)
    p.add_argument("--objective", default="margin", choices=OBJECTIVES)
    p.add_argument("--no-stability", action="store_true", help="skip the doubled-budget runs")
    p.add_argument("--json", default=None, help="write every figure to this file")
    args = p.parse_args(argv)
    objective = args.objective

    master = random.Random(args.seed)
    losses: dict[str, list[float]] = {b: [] for b in BOTS}
    labels: dict[str, dict[str, int]] = {b: dict.fromkeys(LABELS, 0) for b in BOTS}
    forced: dict[str, int] = dict.fromkeys(BOTS, 0)
    times: list[float] = []
    cpu: list[float] = []
    same_seed: list[Any] = [0, 0, dict.fromkeys(CAUSES, 0)]
    other_seed: list[Any] = [0, 0, dict.fromkeys(CAUSES, 0)]
    for i in range(args.games):
        order = [BOTS[(i + j) % 3] for j in range(3)]
        bots = [player(b, master.randrange(2**32)) for b in order]
        g = play_game(3, bots, seed=master.randrange(2**32))
        rec = g.to_record()
        seed = master.randrange(2**31)
        t0, c0 = time.perf_counter(), time.process_time()
        r = review(rec, samples=args.samples, seed=seed, objective=objective)
        times.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
        for t in r.turns:
            bot = order[t.seat]
            if t.forced:
                forced[bot] += 1
                continue
            losses[bot].append(t.loss)
            labels[bot][t.label] += 1
        if not args.no_stability:
            for seed2, acc in ((seed, same_seed), (seed + 1, other_seed)):
                add(acc, *flips(r, review(rec, samples=2 * args.samples, seed=seed2,
                                          objective=objective)))
        print(f"game {i + 1}/{args.games}: {len(rec['turns'])} turns, review {times[-1]:.1f} s "
              f"wall, {cpu[-1]:.1f} s CPU; so far labels changed (same seed, another seed) "
              f"{same_seed[:2]}, {other_seed[:2]}",
              file=sys.stderr, flush=True)

    print(f"review of a 3-seat game (30 turns), {args.games} games, samples {args.samples}:")
    print(f"  CPU time per review: median {statistics.median(cpu):.2f} s, "
          f"max {max(cpu):.2f} s, min {min(cpu):.2f} s")
    print(f"  wall time per review (shared machine): median {statistics.median(times):.2f} s, "
          f"max {max(times):.2f} s")
    if not args.no_stability:
        for name, acc in (("same seed", same_seed), ("another seed", other_seed)):
            print("  " + show(name, acc))
    unit = "points" if objective == "margin" else "of win probability"
    print(f"losses of unforced decisions (objective {objective}, {unit}); thresholds "
          f"{THRESHOLDS[objective]}:")
    out: dict[str, Any] = {
        "games": args.games, "samples": args.samples, "seed": args.seed,
        "objective": objective,
        "review_seconds": times, "review_cpu_seconds": cpu,
        "same_seed_flips": same_seed, "other_seed_flips": other_seed,
        "bots": {},
    }
    for b in BOTS:
        xs = losses[b]
        m, lo, hi = mean_ci(xs)
        q = quantiles(xs)
        share = {lab: labels[b][lab] / len(xs) for lab in LABELS}
        print(f"  {b:<9} n={len(xs):4d} forced={forced[b]:3d} mean {m:.2f} [{lo:.2f}, {hi:.2f}] "
              + " ".join(f"{k} {v:.2f}" for k, v in q.items()))
        print(f"  {'':<9} " + " ".join(f"{lab} {share[lab]:.0%}" for lab in LABELS))
        out["bots"][b] = {"mean_loss": m, "mean_loss_ci95": [lo, hi], "quantiles": q,
                          "labels": labels[b], "forced": forced[b], "losses": xs}
    if args.json:
        with open(args.json, "w") as f:
            json.dump(out, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
