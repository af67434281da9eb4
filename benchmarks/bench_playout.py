"""Benchmark of the play-out kernels: the batched numpy kernel and the compiled (numba) one
against the scalar simulator, in one run, on the same positions and the same worlds (so the
ratio is what counts on a shared machine).

    nice -n 10 .venv/bin/python benchmarks/bench_playout.py --json benchmarks/results/playout.json

What it measures (CPU time of the process, ``time.process_time``; medians over positions):

- **kernels**: play-outs per CPU second of :func:`play_outs` on each kernel, for 3 and 5
  seats, at the panel's budget (192 worlds) and the review's screen (48 worlds), every
  valued move (rotations on) plus the reference play-out, positions 4-10 turns into
  greedy games; the kernels' outcomes are checked equal on the way; the ratios are the
  scalar kernel's CPU time over each kernel's, per position (median and least);
- **compile**: the compiled kernel's cost before its first play-out, in fresh processes
  (``NUMBA_CACHE_DIR`` an empty directory): numba's import, the tables, the compile
  with an empty cache, the same load from the cache it wrote, and two processes
  compiling into one empty cache at once (as two test workers or Dask workers do);
- **evaluate**: ``evaluate_view`` (48 and 192 worlds, rotations on), CPU ms per position on
  each kernel as the default (``batch`` hands calls of fewer than ``BATCH_MIN_ROWS``
  play-outs to the scalar kernel, ``compiled`` fewer than ``COMPILED_MIN_ROWS``;
  ``scalar``: every call scalar);
- **memory**: the tracemalloc peak of one batched call at the largest chunk an evaluation
  plays (512 worlds) at 5 seats; and the memory held after 100 and after 1,000
  evaluations (flat: no growth);
- **reader** (``--reader GAMES``): the reader bot's CPU time per decision at 5 seats
  (median, p99) on each kernel, the same games (both kernels give the same choices);
- **review** (``--review GAMES``): the CPU time of the review of 3-seat games on each
  kernel.

``--json FILE`` writes the command, the date, the machine, the load average before and
after, and the figures.
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
import tracemalloc
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tenleave_widget import Game  # noqa: E402
from tenleave_widget.analysis import playouts  # noqa: E402
from tenleave_widget.analysis.bots import decide, make_bot  # noqa: E402
from tenleave_widget.analysis.lookahead import CHUNK, _moves_of, evaluate_view  # noqa: E402
from tenleave_widget.analysis.playout import Policy, Simulator  # noqa: E402
from tenleave_widget.analysis.playout_batch import tables  # noqa: E402
from tenleave_widget.analysis.playout_numba import _tables as compiled_tables  # noqa: E402
from tenleave_widget.analysis.playout_numba import compile_kernel  # noqa: E402
from tenleave_widget.analysis.playout_position import Position, World  # noqa: E402
from tenleave_widget.engine.view import View  # noqa: E402

KERNELS = ("scalar", "batch", "compiled")
BUDGETS = (48, 192)


def positions(n: int, count: int, seed: int) -> list[View]:
    """``count`` views of the seat to move, 4-10 turns into greedy self-play games."""
    rng = random.Random(seed)
    out: list[View] = []
    while len(out) < count:
        g = Game(n, seed=rng.randrange(2**32), first=rng.randrange(n))
        bots = [make_bot("greedy", rng.randrange(2**32)) for _ in range(n)]
        for _ in range(rng.randint(4, 10)):
            seat = g.to_move
            assert seat is not None
            g.apply(decide(bots[seat], g, seat))
        out.append(g.view(g.to_move))
    return out


@contextmanager
def default(kernel: str) -> Iterator[None]:
    """Make ``kernel`` the default of :func:`play_outs` (what every evaluation uses)."""
    saved = playouts.default_kernel
    playouts.default_kernel = lambda: kernel
    try:
        yield
    finally:
        playouts.default_kernel = saved


def kernels(views: dict[int, list[View]], seed: int) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for n, vs in views.items():
        for worlds in BUDGETS:
            rates: dict[str, list[float]] = {k: [] for k in KERNELS}
            ratios: dict[str, list[float]] = {k: [] for k in KERNELS[1:]}
            for i, view in enumerate(vs):
                pos = Position(view)
                sim = Simulator(pos, Policy())
                tables(n, sim.token_pos)  # built once per process: not a play-out's cost
                compiled_tables(n, sim.token_pos)
                moves = [m for _, m in _moves_of(pos, True)]
                rng = random.Random(seed * 1000 + i)
                ws = [World(pos, random.Random(rng.getrandbits(64)), pos.cards_left)
                      for _ in range(worlds)]
                count = worlds * (len(moves) + 1)
                got: dict[str, Any] = {}
                secs: dict[str, float] = {}
                for k in KERNELS:
                    t = time.process_time()
                    got[k] = playouts.play_outs(sim, moves, ws, reference=True, kernel=k)
                    secs[k] = time.process_time() - t
                    rates[k].append(count / secs[k])
                if any(got[k] != got["scalar"] for k in KERNELS):
                    raise SystemExit(f"the kernels disagree at {n} seats, position {i}")
                for k in KERNELS[1:]:
                    ratios[k].append(secs["scalar"] / secs[k])
            row = {"seats": n, "worlds": worlds,
                   **{f"{k}_playouts_per_cpu_s": round(statistics.median(v))
                      for k, v in rates.items()},
                   **{f"{k}_ratio_median": round(statistics.median(v), 1)
                      for k, v in ratios.items()},
                   **{f"{k}_ratio_min": round(min(v), 1) for k, v in ratios.items()},
                   "positions": len(vs)}
            out.append(row)
            print(f"kernels  {row}", flush=True)
    return out


def evaluate(views: dict[int, list[View]]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for n, vs in views.items():
        for worlds in BUDGETS:
            ms: dict[str, list[float]] = {k: [] for k in KERNELS}
            for i, view in enumerate(vs):
                for k in KERNELS:
                    with default(k):
                        t = time.process_time()
                        evaluate_view(view, worlds, seed=i)
                        ms[k].append(1000 * (time.process_time() - t))
            med = {k: round(statistics.median(v), 1) for k, v in ms.items()}
            row = {"seats": n, "worlds": worlds,
                   **{f"{k}_cpu_ms_median": v for k, v in med.items()},
                   **{f"{k}_ratio": round(med["scalar"] / med[k], 1) for k in KERNELS[1:]}}
            out.append(row)
            print(f"evaluate {row}", flush=True)
    return out


def memory(views: dict[int, list[View]], evaluations: int) -> dict[str, Any]:
    view = views[max(views)][0]
    pos = Position(view)
    sim = Simulator(pos, Policy())
    moves = [m for _, m in _moves_of(pos, True)]
    rng = random.Random(1)
    ws = [World(pos, random.Random(rng.getrandbits(64)), pos.cards_left) for _ in range(CHUNK)]
    tables(pos.n, sim.token_pos)
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    playouts.play_outs(sim, moves, ws, reference=True, kernel="batch")
    peak = tracemalloc.get_traced_memory()[1] - base
    tracemalloc.stop()
    flat: dict[str, float] = {}
    every = [v for vs in views.values() for v in vs]
    tracemalloc.start()
    for i in range(evaluations):
        evaluate_view(every[i % len(every)], 16, seed=i)
        if i + 1 in (100, evaluations):
            flat[f"after {i + 1}"] = round(tracemalloc.get_traced_memory()[0] / 2**20, 2)
    tracemalloc.stop()
    out = {"batch_peak_mb": round(peak / 2**20, 1), "batch": f"{CHUNK} worlds x "
           f"{len(moves) + 1} moves at {pos.n} seats", "held_mb": flat}
    print(f"memory   {out}", flush=True)
    return out


def reader(games: int, seed: int) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k in KERNELS:
        times: list[float] = []
        rng = random.Random(seed)
        with default(k):
            for _ in range(games):
                g = Game(5, seed=rng.randrange(2**32), first=rng.randrange(5))
                bots = [make_bot("reader", rng.randrange(2**32))]
                bots += [make_bot("lookahead", rng.randrange(2**32)) for _ in range(2)]
                bots += [make_bot("greedy", rng.randrange(2**32)) for _ in range(2)]
                while not g.finished:
                    s = g.to_move
                    assert s is not None
                    if s == 0:
                        t = time.process_time()
                        turn = decide(bots[0], g, s)
                        times.append(1000 * (time.process_time() - t))
                    else:
                        turn = decide(bots[s], g, s)
                    g.apply(turn)
        times.sort()
        out[k] = {"decisions": len(times), "median_ms": round(statistics.median(times), 1),
                  "p99_ms": round(times[min(len(times) - 1, int(0.99 * len(times)))], 1)}
    print(f"reader   {out}", flush=True)
    return out


def review_cost(games: int, seed: int) -> dict[str, Any]:
    from tenleave_widget.analysis import analyse
    from tenleave_widget.analysis.review import review
    from tenleave_widget.programs.simulate import play_game

    rng = random.Random(seed)
    recs = [play_game(3, [make_bot(b, rng.randrange(2**32)) for b in
                          ("random", "greedy", "lookahead")], seed=rng.randrange(2**32))
            for _ in range(games)]
    out: dict[str, Any] = {}
    for k in KERNELS:
        with default(k):
            secs = []
            for g in recs:
                analyse.clear_cache()  # the one analysis keeps its results by position
                t = time.process_time()
                review(g, seed=1)
                secs.append(time.process_time() - t)
        out[k] = {"cpu_s_median": round(statistics.median(secs), 2), "games": len(secs)}
    for k in KERNELS[1:]:
        out[f"{k}_ratio"] = round(out["scalar"]["cpu_s_median"] / out[k]["cpu_s_median"], 1)
    print(f"review   {out}", flush=True)
    return out


_COMPILE = """
import json, sys, time
t0 = time.perf_counter(); c0 = time.process_time()
import numba
t1 = time.perf_counter(); c1 = time.process_time()
from tenleave_widget.analysis.playout_numba import _tables, compile_kernel
from tenleave_widget.analysis.playout_position import Position
from tenleave_widget import Game
pos = Position(Game(3, seed=1).view(0))
_tables(pos.n, pos.token_pos)
t2 = time.perf_counter(); c2 = time.process_time()
compile_kernel()
t3 = time.perf_counter(); c3 = time.process_time()
print(json.dumps({"import_numba_s": round(t1 - t0, 2), "tables_s": round(t2 - t1, 2),
                  "compile_or_load_s": round(t3 - t2, 2),
                  "compile_or_load_cpu_s": round(c3 - c2, 2)}))
"""


def compile_cost() -> dict[str, Any]:
    """The compiled kernel's cost before its first play-out, in fresh processes with an
    empty numba cache: alone, then loading what it wrote, then two at once."""
    import subprocess
    import tempfile

    def run(cache: str, count: int) -> list[dict[str, Any]]:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache}
        t = time.perf_counter()
        procs = [subprocess.Popen([sys.executable, "-c", _COMPILE], env=env, text=True,
                                  stdout=subprocess.PIPE) for _ in range(count)]
        outs = [json.loads(p.communicate(timeout=600)[0]) for p in procs]
        for o in outs:
            o["wall_s"] = round(time.perf_counter() - t, 2)
        return outs

    out: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as cache:
        out["cold"] = run(cache, 1)[0]
        out["cached"] = run(cache, 1)[0]
        out["cached_files"] = len(os.listdir(cache))
    with tempfile.TemporaryDirectory() as cache:
        out["cold_two_at_once"] = run(cache, 2)
        out["cached_after_two"] = run(cache, 1)[0]
    print(f"compile  {out}", flush=True)
    return out


def machine() -> str:
    cpu_name = platform.processor()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu_name = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    import numba
    import numpy

    return (f"{cpu_name}, {os.cpu_count()} cores, Python {platform.python_version()}, "
            f"numpy {numpy.__version__}, numba {numba.__version__}, {platform.system()}")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=8, help="positions per seat count")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--evaluations", type=int, default=1000,
                    help="evaluations for the flat-memory check")
    ap.add_argument("--reader", type=int, default=0, metavar="GAMES",
                    help="5-seat games of the reader bot's timing (0: skip)")
    ap.add_argument("--review", type=int, default=0, metavar="GAMES",
                    help="3-seat games reviewed on each kernel (0: skip)")
    ap.add_argument("--skip", nargs="*", default=[],
                    choices=["compile", "kernels", "evaluate", "memory"])
    ap.add_argument("--json", default=None, metavar="FILE")
    args = ap.parse_args(argv)
    load0 = os.getloadavg()
    views = {n: positions(n, args.positions, args.seed + n) for n in (3, 5)}
    res: dict[str, Any] = {
        "title": "Play-outs: the batched and compiled kernels against the scalar simulator",
        "command": "python " + " ".join([f"benchmarks/{Path(__file__).name}",
                                         *(argv if argv is not None else sys.argv[1:])]),
        "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "machine": machine(),
    }
    if "compile" not in args.skip:
        res["compile"] = compile_cost()
    compile_kernel()  # not a play-out's cost (measured above)
    if "kernels" not in args.skip:
        res["results"] = kernels(views, args.seed)
    if "evaluate" not in args.skip:
        res["evaluate_view"] = evaluate(views)
    if "memory" not in args.skip:
        res["memory"] = memory(views, args.evaluations)
    if args.reader:
        res["reader_5_seats"] = reader(args.reader, args.seed)
    if args.review:
        res["review_3_seats"] = review_cost(args.review, args.seed)
    finish(res, load0, args.json)


def finish(res: dict[str, Any], load0: tuple[float, float, float], path: str | None) -> None:
    """The load average before (``load0``) and now into ``res``, printed; ``res`` written
    to ``path`` as JSON (``None``: not written)."""
    load1 = os.getloadavg()
    res["load"] = (f"load average {load0[0]:.1f} / {load0[1]:.1f} / {load0[2]:.1f} before, "
                   f"{load1[0]:.1f} / {load1[1]:.1f} / {load1[2]:.1f} after (2 shared cores)")
    print(res["load"])
    if path:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        Path(path).write_text(json.dumps(res, indent=1) + "\n")


if __name__ == "__main__":
    main()
