"""Compare the engine benchmark of two source trees in one run (ratios, not absolutes).

    git archive <old-commit> | tar -x -C /tmp/old
    taskset -c 1 .venv/bin/python benchmarks/bench_compare.py /tmp/old --repeats 5

Runs ``bench_engine.py --repeats 1`` alternately with the old tree and with this one
(``PYTHONPATH`` selects which ``tenleave_widget`` is imported), ``--repeats`` times each,
and prints per seat count the median games/s of both and their ratio (new / old), for the
self-play path and the checked path. Alternating keeps the two exposed to the same load
on a shared machine.

``--callgrind N`` counts instructions instead (steady on a loaded machine): per tree and
path, ``bench_engine.py --fixed-games N`` and ``--fixed-games 0`` under ``valgrind
--tool=callgrind``; the difference / N is one 3-seat game's instructions::

    .venv/bin/python benchmarks/bench_compare.py /tmp/old --callgrind 200
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent


def one_run(tree: Path, seconds: float) -> dict[int, tuple[float, float]]:
    env = dict(os.environ, PYTHONPATH=str(tree))
    out = subprocess.run(
        [sys.executable, str(HERE / "bench_engine.py"), "--seconds", str(seconds),
         "--repeats", "1"],
        env=env, capture_output=True, text=True, check=True,
    ).stdout
    rows: dict[int, tuple[float, float]] = {}
    for line in out.splitlines()[1:]:
        seats, fast, checked, _ = line.split()
        rows[int(seats)] = (float(fast.replace(",", "")), float(checked.replace(",", "")))
    return rows


def instructions(tree: Path, games: int, path: str) -> int:
    """Instructions valgrind's callgrind counts for ``bench_engine.py --fixed-games``."""
    env = dict(os.environ, PYTHONPATH=str(tree), PYTHONHASHSEED="0")  # the same dict orders
    with tempfile.TemporaryDirectory() as tmp:
        err = subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={tmp}/out",
             sys.executable, str(HERE / "bench_engine.py"), "--fixed-games", str(games),
             "--fixed-path", path],
            env=env, capture_output=True, text=True, check=True,
        ).stderr
    found = re.search(r"Collected : (\d+)", err)
    if found is None:
        raise SystemExit(f"no instruction count in valgrind's output:\n{err}")
    return int(found.group(1))


def per_game(tree: Path, games: int, path: str) -> float:
    return (instructions(tree, games, path) - instructions(tree, 0, path)) / games


def callgrind(old: Path, games: int) -> None:
    print(f"{'path':<10} {'old instr/game':>15} {'new instr/game':>15} {'new/old':>8}")
    for path in ("self-play", "checked"):
        o, n = per_game(old, games, path), per_game(HERE.parent, games, path)
        print(f"{path:<10} {o:>15,.0f} {n:>15,.0f} {n / o:>8.4f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("old", type=Path, help="the old source tree (holding tenleave_widget/)")
    ap.add_argument("--seconds", type=float, default=1.0)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--callgrind", type=int, default=None, metavar="N",
                    help="instructions per 3-seat game over N games (valgrind), not games/s")
    args = ap.parse_args()
    if args.callgrind is not None:
        callgrind(args.old.resolve(), args.callgrind)
        return
    new_tree = HERE.parent
    runs: dict[str, list[dict[int, tuple[float, float]]]] = {"old": [], "new": []}
    for _ in range(args.repeats):
        runs["old"].append(one_run(args.old.resolve(), args.seconds))
        runs["new"].append(one_run(new_tree, args.seconds))
    print(f"{'seats':>5} {'path':<10} {'old games/s':>12} {'new games/s':>12} {'new/old':>8}")
    for seats in sorted(runs["old"][0]):
        for i, path in enumerate(("self-play", "checked")):
            old = statistics.median(r[seats][i] for r in runs["old"])
            new = statistics.median(r[seats][i] for r in runs["new"])
            print(f"{seats:>5} {path:<10} {old:>12,.0f} {new:>12,.0f} {new / old:>8.3f}")


if __name__ == "__main__":
    main()
