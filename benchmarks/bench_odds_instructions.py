"""The odds' instructions per call, position by position, on two source trees: valgrind's
callgrind counts each cold ``seat_odds`` call alone (a small C helper, compiled here with
the system's ``gcc`` and ``valgrind/callgrind.h``, toggles the collection around the call
and dumps the count after it), on the positions of ``bench_house.py``'s odds measure (the
same 200 views for both trees, made once by the new tree). Instructions do not depend on
the machine's load, so two trees compare in one run, step by step (issue 18: the odds'
5% of CPU time was found this way, commit by commit)::

    git archive b1a6155 | tar -x -C /tmp/before
    nice .venv/bin/python benchmarks/bench_odds_instructions.py /tmp/before

It prints each tree's median instructions per call and the median of the per-position
ratios new/old with its 95% distribution-free interval (order statistics of the ratios).
"""

from __future__ import annotations

import argparse
import ctypes
import gc
import importlib
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent

HELPER = """#include <valgrind/callgrind.h>
void cg_toggle(void) { CALLGRIND_TOGGLE_COLLECT; }
void cg_dump(void) { CALLGRIND_DUMP_STATS; }
"""


def worker(views_file: str, helper: str) -> None:
    """Under callgrind: one collected and dumped count per view (a first call warms up)."""
    lib = ctypes.CDLL(helper)
    try:
        odds: Any = importlib.import_module("tenleave_widget.analysis.odds")
    except ImportError:  # the flat tree before the packages
        odds = importlib.import_module("tenleave_widget.odds")
    views = json.loads(Path(views_file).read_text())
    odds.clear_cache()
    odds.seat_odds(views[0])
    gc.disable()  # a collection would land in whichever call allocates past the threshold
    for view in views:
        odds.clear_cache()
        lib.cg_toggle()
        odds.seat_odds(view)
        lib.cg_toggle()
        lib.cg_dump()


def counts(tree: Path, views: Path, helper: Path, out: Path) -> list[int]:
    """One tree's instructions per call, in the order of the views."""
    out.mkdir()
    env = dict(os.environ, PYTHONPATH=str(tree), PYTHONHASHSEED="0")
    subprocess.run(
        ["valgrind", "--tool=callgrind", "--collect-atstart=no",
         f"--callgrind-out-file={out}/cg", sys.executable, str(Path(__file__).resolve()),
         "--worker", str(views), str(helper)],
        env=env, capture_output=True, text=True, check=True,
    )
    dumps = sorted(out.glob("cg.*"), key=lambda p: int(p.name.split(".")[1]))
    found = []
    for path in dumps:
        for line in path.read_text().splitlines():
            if line.startswith("summary:"):
                found.append(int(line.split()[1]))
                break
    return found


def median_interval(ratios: list[float]) -> tuple[float, float]:
    """A 95% interval of the median from the order statistics (normal approximation of
    the binomial: ranks n/2 -+ 1.96 sqrt(n)/2)."""
    r = sorted(ratios)
    n = len(r)
    k = max(0, math.floor(n / 2 - 1.96 * math.sqrt(n) / 2))
    return r[k], r[min(n - 1, n - 1 - k)]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("old", type=Path, nargs="?", help="the old source tree (tenleave_widget/)")
    ap.add_argument("--new", type=Path, default=HERE.parent, help="default: this tree")
    ap.add_argument("--positions", type=int, default=200)
    ap.add_argument("--worker", nargs=2, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        worker(*args.worker)
        return
    if args.old is None:
        ap.error("the old tree is required")
    old, new = args.old.resolve(), args.new.resolve()
    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        helper = tmp / "cgtoggle.so"
        (tmp / "cgtoggle.c").write_text(HELPER)
        subprocess.run(["gcc", "-O1", "-shared", "-fPIC", "-o", str(helper),
                        str(tmp / "cgtoggle.c")], check=True)
        views = tmp / "views.json"
        code = (f"import json, sys; sys.path.insert(0, {str(HERE)!r}); import bench_house; "
                f"json.dump(bench_house._positions({args.positions}, 1000, on_turn=False), "
                f"open({str(views)!r}, 'w'))")
        subprocess.run([sys.executable, "-c", code], env=dict(os.environ, PYTHONPATH=str(new)),
                       check=True)
        a, b = counts(old, views, helper, tmp / "old"), counts(new, views, helper, tmp / "new")
    if len(a) != args.positions or len(b) != args.positions:
        raise SystemExit(f"expected {args.positions} counts, got {len(a)} and {len(b)}")
    ratios = [y / x for x, y in zip(a, b, strict=True)]
    lo, hi = median_interval(ratios)
    print(f"odds, instructions per cold seat_odds call, {args.positions} positions")
    print(f"  old median {statistics.median(a):,.0f}   new median {statistics.median(b):,.0f}")
    print(f"  median ratio new/old {statistics.median(ratios):.4f}  "
          f"(95% interval {lo:.4f}-{hi:.4f}); total ratio {sum(b) / sum(a):.4f}")


if __name__ == "__main__":
    main()
