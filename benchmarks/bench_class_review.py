"""Batch review (issue 24), in four parts (``--parts``, default all):

    nice python benchmarks/bench_class_review.py [--parts single,dask,class,memory]
        [--repeats 1] [--samples K] [--workers 2] [--dask-tasks 200] [--games 30]
        [--counts 10,100,1000]

- ``single``: the 3-seat sample (``examples/games/game-3-seats.json``) reviewed in one
  process against W worker processes, in the same run (alternated, ``--repeats`` rounds);
  median wall time and CPU time (this process plus its workers) of each, the ratio of the
  medians, and a check that the reviews are byte-identical. The aim: at most 8 s wall with
  2 workers at the default budget (``--samples`` unset).
- ``dask``: Dask's overhead per task: ``--dask-tasks`` no-op tasks through a local cluster
  (2 workers, 1 thread each), submitted and gathered as the runner does, wall per task.
- ``class``: a class's ``--games`` 3-seat games (Sam, Ana and Ben, with the bots of
  ``examples/class_report.ipynb``) reviewed with W workers at the budget: wall, CPU
  (this process and its workers), the load average, and each decision's own CPU time
  (:func:`timed_judge`); from those, what a quiet W-core run would take (the decisions
  handed out in order to W workers, :func:`schedule`, plus the parent's CPU) and what
  10 and 100 single-thread Dask workers would take (each decision's CPU plus the
  ``dask`` part's overhead per task, when it runs too).
- ``saved``: peak resident memory (VmHWM) of a fresh process that brings together N
  records carrying saved reviews (reused, nothing judged: the batch's own memory), for
  each N of ``--counts``, and the bytes of its JSON (which grow with N by design).
- ``memory``: one process (``--workers 1``: the batch's memory, not a worker's) reviews
  up to the largest count of small records (2 seats, random bots) at a tiny budget (1
  world a decision), printing its peak resident memory as it passes each count, with the
  entries of the odds caches (``analysis/odds.py``: three ``lru_cache`` of 16,384
  entries each, which fill over the first few hundred records).

Every figure is printed with the load average before and after: on a shared machine
the wall times are "loaded"; the CPU times are not.
"""

from __future__ import annotations

import argparse
import heapq
import io
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tenleave_widget import Game, save_record
from tenleave_widget.analysis import analyse
from tenleave_widget.analysis.bots import decide, make_bot
from tenleave_widget.analysis.review import TurnReview
from tenleave_widget.programs.class_review import review_many, runner

GAME = Path(__file__).resolve().parent.parent / "examples" / "games" / "game-3-seats.json"


def cpu() -> float:
    me = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def once(files: list[str], workers: int, samples: int | None) -> tuple[float, float, str, int]:
    """Review ``files`` afresh (the analyses of earlier runs forgotten, in this process and
    so in the workers it forks): wall s, CPU s, the review's JSON, its decisions."""
    analyse.clear_cache()
    c0, t0 = cpu(), time.perf_counter()
    r = review_many(files, workers=workers, samples=samples, seed=0)
    assert not r.failures and r.decisions, r.failures  # a missing file is no benchmark
    return time.perf_counter() - t0, cpu() - c0, json.dumps(r.to_json()), r.decisions


def noop(x: int) -> int:
    return x


def dask_overhead(tasks: int) -> float:
    from distributed import Client, LocalCluster, as_completed

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True) as cluster, \
            Client(cluster) as client:
        client.submit(noop, -1).result()  # warm
        t0 = time.perf_counter()
        futures = [client.submit(noop, i, pure=False) for i in range(tasks)]
        for f in as_completed(futures):
            f.result()
        return (time.perf_counter() - t0) / tasks


def single(a: argparse.Namespace) -> None:
    runs: dict[int, list[tuple[float, float]]] = {1: [], a.workers: []}
    out: dict[int, str] = {}
    for _ in range(a.repeats):
        for w in (1, a.workers):
            wall, used, text, n = once([str(GAME)], w, a.samples)
            runs[w].append((wall, used))
            out[w] = text
            print(f"single: workers={w}: wall {wall:.1f} s, cpu {used:.1f} s "
                  f"({n} decisions)", flush=True)
    assert out[1] == out[a.workers], "the reviews differ"
    med = {w: statistics.median(x[0] for x in r) for w, r in runs.items()}
    for w, r in runs.items():
        print(f"single: workers={w}: median wall {med[w]:.1f} s, median cpu "
              f"{statistics.median(x[1] for x in r):.1f} s")
    print(f"single: ratio wall {a.workers}/1: {med[a.workers] / med[1]:.2f}; "
          "reviews identical; aim <= 8 s wall with 2 workers")


def make_games(folder: Path, games: int, seats: int = 3) -> list[str]:
    """Games of the notebook's story (Sam random then greedy, Ana greedy, Ben random);
    2 seats: two random bots."""
    files = []
    for k in range(games):
        if seats == 3:
            names = ["Sam", "Ana", "Ben"]
            kinds = ["random" if k < games // 2 else "greedy", "greedy", "random"]
        else:
            names, kinds = ["Ana", "Ben"], ["random", "random"]
        bots = [make_bot(b, seed=k) for b in kinds]
        g = Game(names, seed=100 + k, first=k % seats)
        while not g.finished:
            g.apply(decide(bots[g.to_move or 0], g))
        path = folder / f"game-{k + 1:04d}.json"
        save_record(g.to_record(), path)
        files.append(str(path))
    return files


def cluster_estimate(decisions: int, cpu_s: float, workers: int, overhead_s: float) -> str:
    per = cpu_s / decisions
    rounds = -(-decisions // workers)  # each worker judges ceil(decisions / N) of them
    return (f"{workers} single-thread workers: {decisions} decisions / {workers} = "
            f"{rounds} each x {per:.2f} s CPU + {1000 * overhead_s:.0f} ms Dask overhead "
            f"each = {rounds * (per + overhead_s):.1f} s (CPU-bound, no queueing assumed)")


TIMES = ""
"""Where each worker writes the CPU time of each decision it judges (one file a process;
a temporary folder, set by :func:`a_class` before the workers are forked)."""

JUDGE = runner._judge


def timed_judge(job: runner._Job) -> tuple[int, TurnReview]:
    """``runner._judge``, timed: the CPU and wall time of each decision, written to
    this worker's file (the workers are forked after this replaces the runner's task)."""
    c0, t0 = time.process_time(), time.perf_counter()
    gi, t = JUDGE(job)
    with open(Path(TIMES) / f"{os.getpid()}.txt", "a") as f:
        f.write(f"{gi} {t.turn} {time.process_time() - c0} {time.perf_counter() - t0}\n")
    return gi, t


def schedule(costs: list[float], workers: int) -> float:
    """The wall time of handing ``costs`` out in order, each to the first worker free
    (as the runner does, with no wait between tasks)."""
    free = [0.0] * workers
    for c in costs:
        heapq.heapreplace(free, free[0] + c)
    return max(free)


def a_class(a: argparse.Namespace) -> list[float]:
    """The class reviewed with ``--workers`` local processes; each decision's CPU."""
    global TIMES
    with tempfile.TemporaryDirectory() as d:
        files = make_games(Path(d), a.games)
        TIMES = str(Path(d) / "times")
        os.mkdir(TIMES)
        load0 = os.getloadavg()
        runner._judge = timed_judge
        try:
            wall, used, _, n = once(files, a.workers, a.samples)
        finally:
            runner._judge = JUDGE
        rows = sorted(tuple(float(x) for x in line.split()) for f in Path(TIMES).glob("*.txt")
                      for line in f.read_text().splitlines())
    assert len(rows) == n, (len(rows), n)
    costs = [r[2] for r in rows]
    print(f"class: {a.games} games, {n} decisions, {a.workers} workers: wall {wall:.1f} s, "
          f"cpu {used:.1f} s ({used / n:.3f} s CPU a decision); load average "
          f"{load0[0]:.1f} before, {os.getloadavg()[0]:.1f} after", flush=True)
    judged = sum(costs)
    print(f"class: the decisions' own CPU: total {judged:.1f} s, median "
          f"{statistics.median(costs):.2f} s, p90 {sorted(costs)[int(0.9 * n)]:.2f} s, "
          f"longest {max(costs):.2f} s; the rest of the CPU ({used - judged:.1f} s) is the "
          f"parent (listing, assembling, outputs) and the workers' start", flush=True)
    quiet = schedule(costs, a.workers)
    print(f"class: a quiet {a.workers}-core run: the decisions handed out in order to "
          f"{a.workers} workers take {quiet:.1f} s, plus the parent's "
          f"{used - judged:.1f} s = about {quiet + used - judged:.0f} s", flush=True)
    return costs


def cluster(costs: list[float], overhead: float | None) -> None:
    """What a cluster would take for the class's decisions (``costs``: their CPU)."""
    over = overhead if overhead is not None else 0.0
    judged, n = sum(costs), len(costs)
    for w in (10, 100):
        span = schedule([c + over for c in costs], w)
        print(f"class: {w} single-thread Dask workers: {span:.1f} s for the decisions "
              f"(each decision's CPU + {1000 * over:.1f} ms Dask overhead a task, handed out "
              f"in order to the first free worker; at least the longest decision, "
              f"{max(costs):.2f} s, and {judged / w:.1f} s of CPU each)", flush=True)
    print("class: " + cluster_estimate(n, judged, 100, over))


def status(key: str) -> int:
    """A field of /proc/self/status in KiB (VmRSS: resident now, VmHWM: its peak)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(key + ":"):
            return int(line.split()[1])
    raise KeyError(key)


def memory_child(folder: str, count: int, marks: list[int]) -> None:
    """Review the first ``count`` records of ``folder`` in this process at 1 world a
    decision; as each mark of records is passed, print the peak resident memory so far
    and the odds caches' entries (each bounded: 16,384)."""
    from tenleave_widget.analysis import odds

    caches = {n: getattr(odds, n) for n in ("_leaves", "_summary", "_append_costs")}
    files = sorted(str(p) for p in Path(folder).glob("*.json"))[:count]
    per = [0]
    t0, c0 = time.perf_counter(), cpu()
    left = sorted(marks)

    def seen(done: int, total: int) -> None:
        per[0] = per[0] or -(-total // count)  # the decisions of a record, about
        records = min(count, done * count // total)
        while left and records >= left[0]:
            print(json.dumps({"records": left.pop(0), "decisions": done,
                              "peak_kib": status("VmHWM"), "rss_kib": status("VmRSS"),
                              "caches": {n: c.cache_info().currsize
                                         for n, c in caches.items()},
                              "wall": time.perf_counter() - t0, "cpu": cpu() - c0}),
                  flush=True)

    c = review_many(files, workers=1, samples=1, seed=0, progress=seen)
    with open(os.devnull, "w") as out:  # the outputs too: --json and --report
        c.write_json(out)
        page = c.html()
    spool = c.games._file.tell() if hasattr(c.games, "_file") else 0
    print(json.dumps({"records": count, "outputs": True, "decisions": c.decisions,
                      "peak_kib": status("VmHWM"), "rss_kib": status("VmRSS"),
                      "spool_bytes": spool, "page_bytes": len(page),
                      "wall": time.perf_counter() - t0, "cpu": cpu() - c0}), flush=True)


class Counted(io.StringIO):
    """A text sink that only counts what is written to it."""

    chars = 0

    def write(self, text: str) -> int:
        self.chars += len(text)
        return len(text)


def saved_child(folder: str, count: int) -> None:
    """Bring together the first ``count`` records of ``folder``, each carrying its saved
    review (reused: nothing judged), and print the peak resident memory."""
    files = sorted(str(p) for p in Path(folder).glob("*.json"))[:count]
    t0 = time.perf_counter()
    r = review_many(files, workers=1, samples=1, seed=0)
    assert r.decisions == 0 and len(r.games) == count and not r.failures
    counter = Counted()
    r.write_json(counter)  # as tenleave review --json writes it: one game at a time
    size = counter.chars
    print(json.dumps({"records": count, "peak_kib": status("VmHWM"), "json": size,
                      "wall": time.perf_counter() - t0}), flush=True)


def memory(a: argparse.Namespace) -> None:
    counts = [int(c) for c in a.counts.split(",")]
    with tempfile.TemporaryDirectory() as d:
        make_games(Path(d), max(counts), seats=2)
        proc = subprocess.Popen([sys.executable, __file__, "--memory-child", d,
                                 str(max(counts)), a.counts], stdout=subprocess.PIPE,
                                text=True)
        assert proc.stdout is not None
        for line in proc.stdout:
            row = json.loads(line)
            if row.get("outputs"):
                print(f"memory (reviewed, 1 world), then the JSON and the report written: "
                      f"{row['records']:>5} records: peak RSS {row['peak_kib'] / 1024:.1f} "
                      f"MiB (the reviews spooled on disk: {row['spool_bytes']:,} bytes), "
                      f"wall {row['wall']:.0f} s, cpu {row['cpu']:.0f} s", flush=True)
                continue
            print(f"memory (reviewed, 1 world): {row['records']:>5} records, "
                  f"{row['decisions']:>6} decisions: peak RSS {row['peak_kib'] / 1024:.1f} "
                  f"MiB, odds caches {row['caches']}, wall {row['wall']:.0f} s, cpu "
                  f"{row['cpu']:.0f} s", flush=True)
        proc.wait()


def saved(a: argparse.Namespace) -> None:
    """Records with saved reviews: 10 small games reviewed once at 1 world, each saved
    with its review, then copied to the largest count of files."""
    from tenleave_widget.analysis.review import attach_review, review
    from tenleave_widget.engine.record import load_record

    counts = [int(c) for c in a.counts.split(",")]
    with tempfile.TemporaryDirectory() as d:
        base = make_games(Path(d), 10, seats=2)
        recs = [attach_review(load_record(f), review(f, samples=1)) for f in base]
        for f in base:
            os.remove(f)
        for k in range(max(counts)):
            save_record(recs[k % len(recs)], Path(d) / f"saved-{k:05d}.json")
        for n in counts:
            out = subprocess.run([sys.executable, __file__, "--saved-child", d, str(n)],
                                 check=True, capture_output=True, text=True).stdout
            row = json.loads(out.strip().splitlines()[-1])
            print(f"memory (saved reviews reused): {row['records']:>5} records: peak RSS "
                  f"{row['peak_kib'] / 1024:.1f} MiB, JSON {row['json']:,} bytes, wall "
                  f"{row['wall']:.1f} s", flush=True)


def main() -> None:
    if len(sys.argv) == 5 and sys.argv[1] == "--memory-child":
        memory_child(sys.argv[2], int(sys.argv[3]), [int(c) for c in sys.argv[4].split(",")])
        return
    if len(sys.argv) == 4 and sys.argv[1] == "--saved-child":
        saved_child(sys.argv[2], int(sys.argv[3]))
        return
    ap = argparse.ArgumentParser()
    ap.add_argument("--parts", default="single,dask,class,saved,memory")
    ap.add_argument("--repeats", type=int, default=1)
    ap.add_argument("--samples", type=int, default=None)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--dask-tasks", type=int, default=200)
    ap.add_argument("--games", type=int, default=30)
    ap.add_argument("--counts", default="10,100,200,300,400,500,600,700,800,900,1000")
    a = ap.parse_args()
    parts = a.parts.split(",")
    print(f"load average before: {os.getloadavg()}", flush=True)
    # the local pools first: after Dask's cluster this process has threads, so the pool
    # starts its workers from a fork server, whose children's CPU time getrusage does not
    # count (they are not this process's children)
    if "saved" in parts:
        saved(a)
    if "memory" in parts:
        memory(a)
    if "single" in parts:
        single(a)
    costs = a_class(a) if "class" in parts else None  # its pool before Dask's threads
    overhead = None
    if "dask" in parts:
        overhead = dask_overhead(a.dask_tasks)
        print(f"dask: overhead per task {1000 * overhead:.1f} ms", flush=True)
    if costs is not None:
        cluster(costs, overhead)
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
