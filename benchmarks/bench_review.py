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
  of decisions whose label changed;
- **losses**: per bot, the distribution of the loss of its unforced decisions (quantiles,
  mean) and how the labels fall under :data:`tenleave_widget.review.THRESHOLDS`.

    taskset -c 1 nice -n 10 .venv/bin/python benchmarks/bench_review.py --games 12 --seed 1

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

from tenleave_widget import review as review_module
from tenleave_widget.bots import LookaheadBot, make_bot
from tenleave_widget.review import DEFAULT_SAMPLES, LABELS, THRESHOLDS, Review, review
from tenleave_widget.simulate import mean_ci, play_game

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


def flips(a: Review, b: Review) -> tuple[int, int]:
    """(decisions whose label differs, decisions) between two reviews of one game."""
    changed = sum(x.label != y.label for x, y in zip(a.turns, b.turns, strict=True))
    return changed, len(a.turns)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=12)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--samples", type=int, default=DEFAULT_SAMPLES)
    p.add_argument("--no-stability", action="store_true", help="skip the doubled-budget runs")
    p.add_argument("--json", default=None, help="write every figure to this file")
    p.add_argument("--compare-rounds", type=int, default=None, metavar="N",
                   help="also review every game with EXTEND_ROUNDS=N (1: no sequential "
                        "refinement, the review before it) and compare, on the same games")
    args = p.parse_args(argv)
    default_rounds = review_module.EXTEND_ROUNDS
    alt: dict[str, list[Any]] = {"cpu": [], "same": [0, 0], "other": [0, 0]}

    master = random.Random(args.seed)
    losses: dict[str, list[float]] = {b: [] for b in BOTS}
    labels: dict[str, dict[str, int]] = {b: dict.fromkeys(LABELS, 0) for b in BOTS}
    forced: dict[str, int] = dict.fromkeys(BOTS, 0)
    times: list[float] = []
    cpu: list[float] = []
    same_seed = [0, 0]
    other_seed = [0, 0]
    for i in range(args.games):
        order = [BOTS[(i + j) % 3] for j in range(3)]
        bots = [player(b, master.randrange(2**32)) for b in order]
        g = play_game(3, bots, seed=master.randrange(2**32))
        rec = g.to_record()
        seed = master.randrange(2**31)
        t0, c0 = time.perf_counter(), time.process_time()
        r = review(rec, samples=args.samples, seed=seed)
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
                c, n = flips(r, review(rec, samples=2 * args.samples, seed=seed2))
                acc[0] += c
                acc[1] += n
        if args.compare_rounds is not None:
            review_module.EXTEND_ROUNDS = args.compare_rounds
            c0 = time.process_time()
            ra = review(rec, samples=args.samples, seed=seed)
            alt["cpu"].append(time.process_time() - c0)
            if not args.no_stability:
                for seed2, key in ((seed, "same"), (seed + 1, "other")):
                    c, n = flips(ra, review(rec, samples=2 * args.samples, seed=seed2))
                    alt[key][0] += c
                    alt[key][1] += n
            review_module.EXTEND_ROUNDS = default_rounds
        print(f"game {i + 1}/{args.games}: {len(rec['turns'])} turns, review {times[-1]:.1f} s "
              f"wall, {cpu[-1]:.1f} s CPU; so far labels changed (same seed, another seed) "
              f"{same_seed}, {other_seed}"
              + (f"; with EXTEND_ROUNDS={args.compare_rounds}: {alt['cpu'][-1]:.1f} s CPU, "
                 f"{alt['same']}, {alt['other']}" if args.compare_rounds is not None else ""),
              file=sys.stderr, flush=True)

    print(f"review of a 3-seat game (30 turns), {args.games} games, samples {args.samples}:")
    print(f"  CPU time per review: median {statistics.median(cpu):.2f} s, "
          f"max {max(cpu):.2f} s, min {min(cpu):.2f} s")
    print(f"  wall time per review (shared machine): median {statistics.median(times):.2f} s, "
          f"max {max(times):.2f} s")
    if not args.no_stability:
        for name, (c, n) in (("same seed", same_seed), ("another seed", other_seed)):
            print(f"  labels changed at twice the budget ({name}): {c}/{n} = {c / n:.1%}")
    if args.compare_rounds is not None:
        print(f"  the same games with EXTEND_ROUNDS={args.compare_rounds} (default "
              f"{default_rounds}): CPU time per review median "
              f"{statistics.median(alt['cpu']):.2f} s, max {max(alt['cpu']):.2f} s")
        if not args.no_stability:
            for name, key in (("same seed", "same"), ("another seed", "other")):
                c, n = alt[key]
                print(f"  labels changed at twice the budget ({name}): {c}/{n} = {c / n:.1%}")
    print(f"losses of unforced decisions (objective margin, points); thresholds "
          f"{THRESHOLDS['margin']}:")
    out: dict[str, Any] = {
        "games": args.games, "samples": args.samples, "seed": args.seed,
        "review_seconds": times, "review_cpu_seconds": cpu,
        "same_seed_flips": same_seed, "other_seed_flips": other_seed,
        "extend_rounds": default_rounds, "compare_rounds": args.compare_rounds,
        "compare": alt,
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
