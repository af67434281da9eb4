"""The no-regression table of the house move (issue 18): the same measures on two source
trees, in one run, the trees alternating round by round.

    git archive b1a6155 | tar -x -C /tmp/before      # the tree before the house move
    nice .venv/bin/python benchmarks/bench_house.py /tmp/before --rounds 3

Each measure runs in a fresh process per tree and round (``PYTHONPATH`` selects which
``tenleave_widget`` is imported; this script finds the modules in the flat tree and in
the packages), on the same positions (the same seeds: the engine deals and plays the same
games in both trees) and counts CPU time (``time.process_time``: what one core spends,
steadier than the wall clock on a shared machine):

- **odds**: ``seat_odds`` of ``--positions`` positions of random games (2-5 seats, a
  random seat's view at a random turn), each cold (the queue tables cleared first);
  median microseconds per call;
- **lookahead**: ``evaluate_view`` at its default budget on ``--decisions`` positions
  (the seat to move's view, 2-5 seats); median milliseconds per decision;
- **review**: ``review()`` at its default budget of ``--games`` 3-seat random games;
  median CPU seconds per game;
- **engine**: valgrind's instructions per 3-seat game, self-play and checked paths
  (``bench_compare.py --callgrind``; no rounds: the count is steady), with ``--callgrind N``.

Per item (position, decision, game) the tree's figure is its median over the rounds; the
table gives each tree's median over the items and the median of the per-item ratios
new/old. It also says whether both trees gave the same results (the JSON of every call
hashed, less the fields :data:`CHANGED` names): behaviour unchanged, or not.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
CHANGED = {"win_ci95"}
"""Fields left out of the comparison of results, each changed on purpose: ``win_ci95`` was
a Wald interval (collapsing to [1, 1] when every world is won) before issue 18 made every
proportion's interval Wilson's."""


def _digest(obj: Any) -> bytes:
    def strip(x: Any) -> Any:
        if isinstance(x, dict):
            return {k: strip(v) for k, v in x.items() if k not in CHANGED}
        if isinstance(x, list):
            return [strip(v) for v in x]
        return x

    return json.dumps(strip(obj), sort_keys=True).encode()


def _module(name: str) -> Any:
    """``analysis.odds`` in the packages, ``odds`` in the flat tree before them."""
    try:
        return importlib.import_module(f"tenleave_widget.analysis.{name}")
    except ImportError:
        return importlib.import_module(f"tenleave_widget.{name}")


def _games(count: int, seed: int, seats: int | None = None) -> list[Any]:
    from tenleave_widget import Game

    out = []
    for k in range(count):
        rng = random.Random(seed + k)
        n = seats if seats is not None else rng.randint(2, 5)
        g = Game(n, seed=seed + k, first=rng.randrange(n))
        out.append((g, rng))
    return out


def _positions(count: int, seed: int, on_turn: bool) -> list[dict[str, Any]]:
    views = []
    for g, rng in _games(count, seed):
        stop = rng.randint(0, sum(len(g.hand(s)) for s in range(g.seats)) - 1)  # not over
        while g.turns_applied < stop:
            g.apply(g.random_turn(rng))
        views.append(g.view(g.to_move if on_turn else rng.randrange(g.seats)))
    return views


def _cpu(call: Any) -> tuple[float, Any]:
    t = time.process_time()
    out = call()
    return time.process_time() - t, out


def worker(measure: str, count: int) -> None:
    """One tree, one round: ``{"times": [...], "digest": ...}`` on stdout."""
    times: list[float] = []
    digest = hashlib.sha256()
    if measure == "odds":
        odds = _module("odds")
        for view in _positions(count, 1000, on_turn=False):
            odds.clear_cache()
            dt, out = _cpu(lambda v=view: odds.seat_odds(v))
            times.append(dt * 1e6)
            digest.update(_digest(out))
    elif measure == "lookahead":
        lookahead = _module("lookahead")
        for k, view in enumerate(_positions(count, 2000, on_turn=True)):
            dt, out = _cpu(lambda v=view, s=k: lookahead.evaluate_view(v, seed=s))
            times.append(dt * 1e3)
            digest.update(_digest(out))
    elif measure == "review":
        review = _module("review")
        for k, (g, rng) in enumerate(_games(count, 3000, seats=3)):
            while not g.finished:
                g.apply(g.random_turn(rng))
            record = g.to_record()
            dt, out = _cpu(lambda r=record, s=k: review.review(r, seed=s))
            times.append(dt)
            digest.update(_digest(out.to_json()))
    else:
        raise SystemExit(f"unknown measure {measure!r}")
    print(json.dumps({"times": times, "digest": digest.hexdigest()}))


def _run(tree: Path, measure: str, count: int) -> dict[str, Any]:
    env = dict(os.environ, PYTHONPATH=str(tree), PYTHONHASHSEED="0")
    out = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), "--worker", measure,
         "--count", str(count)],
        env=env, capture_output=True, text=True, check=True,
    ).stdout
    result: dict[str, Any] = json.loads(out)
    return result


UNITS = {"odds": "us/call", "lookahead": "ms/decision", "review": "s/game"}


def compare(old: Path, new: Path, measure: str, count: int, rounds: int) -> None:
    runs: dict[str, list[dict[str, Any]]] = {"old": [], "new": []}
    for _ in range(rounds):
        runs["old"].append(_run(old, measure, count))
        runs["new"].append(_run(new, measure, count))
    per_item = {
        side: [statistics.median(r["times"][i] for r in rs) for i in range(count)]
        for side, rs in runs.items()
    }
    o, n = statistics.median(per_item["old"]), statistics.median(per_item["new"])
    ratio = statistics.median(b / a for a, b in zip(per_item["old"], per_item["new"],
                                                     strict=True) if a > 0)
    same = {r["digest"] for rs in runs.values() for r in rs}
    print(f"{measure:<10} {UNITS[measure]:<12} {o:>12,.1f} {n:>12,.1f} {ratio:>8.3f}  "
          f"{count} items x {rounds} rounds; results {'identical' if len(same) == 1 else 'DIFFER'}",
          flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("old", type=Path, nargs="?", help="the old source tree (tenleave_widget/)")
    ap.add_argument("--new", type=Path, default=HERE.parent, help="default: this tree")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--positions", type=int, default=200)
    ap.add_argument("--decisions", type=int, default=12)
    ap.add_argument("--games", type=int, default=2)
    ap.add_argument("--callgrind", type=int, default=100, metavar="N",
                    help="games for the instruction count (0: skip it)")
    ap.add_argument("--only", choices=("odds", "lookahead", "review", "engine"), action="append")
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    ap.add_argument("--count", type=int, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        worker(args.worker, args.count)
        return
    if args.old is None:
        ap.error("the old tree is required")
    old, new = args.old.resolve(), args.new.resolve()
    only = set(args.only or ("odds", "lookahead", "review", "engine"))
    print(f"{'measure':<10} {'unit':<12} {'old':>12} {'new':>12} {'new/old':>8}")
    counts = {"odds": args.positions, "lookahead": args.decisions, "review": args.games}
    for measure in ("odds", "lookahead", "review"):
        if measure in only:
            compare(old, new, measure, counts[measure], args.rounds)
    if "engine" in only and args.callgrind:
        sys.path.insert(0, str(HERE))
        from bench_compare import per_game

        for path in ("self-play", "checked"):
            o, n = per_game(old, args.callgrind, path), per_game(new, args.callgrind, path)
            print(f"{'engine':<10} {'instr/game':<12} {o:>12,.0f} {n:>12,.0f} {n / o:>8.4f}  "
                  f"3 seats, {path} path, {args.callgrind} games (callgrind)", flush=True)


if __name__ == "__main__":
    main()
