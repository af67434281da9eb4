"""simulate: the same seed gives the same games on every backend (one process, local
processes started by fork or by a fork server, a Dask LocalCluster started here), the
streamed statistics equal the ones computed from every game, and Ctrl-C leaves nothing
running."""

from __future__ import annotations

import _thread
import contextlib
import json
import multiprocessing
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from typing import Any

import psutil
import pytest

from tenleave_widget.engine.errors import SetupError
from tenleave_widget.programs.pool import pool_context
from tenleave_widget.programs.simulate import (
    BLOCK,
    Stats,
    Sums,
    mean_ci,
    simulate,
    simulated_game,
    wilson,
)

BOTS = ["greedy", "random", "random"]
GAMES = 3 * BLOCK + 5  # a partial last seed block


def same(a: Stats, b: Stats) -> None:
    """Everything but the timing and the backend is identical."""
    ja, jb = a.to_json(), b.to_json()
    for key in ("seconds", "games_per_second", "backend", "workers"):
        ja.pop(key), jb.pop(key)
    assert ja == jb
    assert a.fingerprint == b.fingerprint and len(a.fingerprint) == 16


@pytest.fixture(scope="module")
def serial() -> Stats:
    return simulate(3, GAMES, seed=7, bots=BOTS, rotate_first=True, workers=1)


@pytest.fixture(scope="module")
def cluster() -> Iterator[Any]:
    import distributed  # the optional extra, which `make test` installs
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as c:
        yield c


def test_the_streamed_statistics_equal_those_of_every_game(serial: Stats) -> None:
    pens = [simulated_game(3, i, seed=7, bots=BOTS, rotate_first=True).penalty
            for i in range(GAMES)]
    assert serial.backend == "serial" and serial.games == GAMES
    direct = Sums(3)
    for i, p in enumerate(pens):
        direct.add(i, p)
    assert serial.sums is not None and serial.fingerprint == f"{direct.fingerprint:016x}"
    for s in range(3):
        col = [p[s] for p in pens]
        assert serial.seats[s].mean_penalty() == pytest.approx(mean_ci(col))
        wins = sum(p[s] == min(p) for p in pens)
        assert serial.seats[s].win_rate() == wilson(wins, GAMES)
        for t in range(3):
            if s != t:
                diffs = [p[s] - p[t] for p in pens]
                assert serial.paired_difference(s, t) == pytest.approx(mean_ci(diffs))
    # the first seat rotates game by game
    assert [simulated_game(3, i, seed=7, rotate_first=True).first for i in range(4)] == [
        0, 1, 2, 0]


def workers_left(before: set[int]) -> list[Any]:
    """The multiprocessing children started since ``before`` still running (the module's
    Dask cluster has its own)."""
    return [p for p in multiprocessing.active_children() if p.pid not in before]


def children() -> set[int]:
    return {p.pid for p in multiprocessing.active_children() if p.pid is not None}


@pytest.mark.filterwarnings("ignore:3 workers on 2 cores")  # 3 workers on a 2-core machine
def test_local_processes_play_the_same_games(serial: Stats) -> None:
    before = children()
    for workers in (2, 3):
        seen: list[int] = []
        par = simulate(3, GAMES, seed=7, bots=BOTS, rotate_first=True, workers=workers,
                       progress=seen.append)
        assert par.backend == "processes" and par.workers == workers
        same(serial, par)
        assert seen == sorted(seen) and seen[-1] == GAMES
    assert workers_left(before) == []


def test_a_fork_server_plays_the_same_games_when_threads_run(serial: Stats) -> None:
    # a process with threads (a Jupyter kernel) must not fork: the fork-server path
    stop = threading.Event()
    t = threading.Thread(target=stop.wait)
    t.start()
    try:
        assert pool_context().get_start_method() == "forkserver"
        same(serial, simulate(3, GAMES, seed=7, bots=BOTS, rotate_first=True, workers=2))
    finally:
        stop.set()
        t.join()


@pytest.mark.slow
def test_a_dask_cluster_plays_the_same_games(serial: Stats, cluster: Any) -> None:
    from distributed import Client

    seen: list[int] = []
    with Client(cluster) as client:
        by_client = simulate(3, GAMES, seed=7, bots=BOTS, rotate_first=True, client=client,
                             progress=seen.append)
        assert by_client.backend == "dask" and by_client.workers == 2
        same(serial, by_client)
        assert seen[-1] == GAMES
    by_address = simulate(3, GAMES, seed=7, bots=BOTS, rotate_first=True,
                          scheduler=cluster.scheduler_address)
    same(serial, by_address)


def test_other_seeds_give_other_games_and_no_seed_is_reproducible() -> None:
    a = simulate(3, 40, seed=1, workers=1)
    b = simulate(3, 40, seed=2, workers=1)
    assert a.fingerprint != b.fingerprint
    fresh = simulate(3, 40, workers=1)
    assert fresh.seed > 2**64  # fresh entropy, reported
    same(fresh, simulate(3, 40, seed=fresh.seed, workers=2))


def test_memory_is_sums_not_lists(serial: Stats) -> None:
    assert serial.sums is not None
    for value in vars(serial.sums).values():
        if isinstance(value, list):
            assert len(value) == 3  # one entry per seat, whatever the number of games


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(SetupError, match=r"workers must be a whole number 1\.\.\d+, not 0"):
        simulate(3, 10, workers=0)
    with pytest.raises(SetupError, match="either workers or scheduler"):
        simulate(3, 10, workers=2, scheduler="tcp://127.0.0.1:1")
    with pytest.raises(SetupError, match="unknown bot"):
        simulate(3, 10, bots=["random", "smart", "random"])
    with pytest.raises(SetupError, match="2 to 5 seats"):
        simulate(6, 10)
    with pytest.raises(SetupError, match="numbered from 0"):
        simulated_game(3, -1, seed=1)
    with pytest.raises(SetupError, match="no paired difference"):
        simulate(2, 5, seed=1, workers=1).paired_difference(0, 0)


def test_counts_are_finite_whole_numbers_named_in_the_error() -> None:
    """simulate's counts are checked at the API (issue 21): no OverflowError from inf, no
    TypeError from inside multiprocessing for workers=1.5."""
    cores = len(os.sched_getaffinity(0))
    for kwargs, needle in [
        ({"games": float("inf")}, "games must be a whole number 1..1000000000, not inf"),
        ({"games": 1e3}, "games must be a whole number"),
        ({"games": True}, "games must be a whole number 1..1000000000, not true"),
        ({"games": 0}, "games must be a whole number"),
        ({"games": 10**9 + 1}, "games must be a whole number"),
        ({"games": 10, "workers": 1.5}, f"workers must be a whole number 1..{4 * cores}, not 1.5"),
        ({"games": 10, "workers": float("nan")}, "workers must be a whole number"),
        ({"games": 10, "workers": "2"}, f"workers must be a whole number 1..{4 * cores}, not '2'"),
        ({"games": 10, "workers": 4 * cores + 1},
         f"at most 4 per core; {cores} here"),
        ({"games": 10, "players": 3.0}, "2 to 5 seats, not 3.0"),
        ({"games": 10, "bots": "greedy"}, "bots must be a list of bot names"),
        ({"games": 10, "workers": None, "scheduler": ""}, "scheduler must be an address"),
        ({"games": 10, "scheduler": 8786}, "scheduler must be an address"),
    ]:
        args = {"players": 3, **kwargs}
        with pytest.raises(SetupError) as e:
            simulate(args.pop("players"), args.pop("games"), **args)
        assert needle in str(e.value), (kwargs, str(e.value))
    with pytest.raises(SetupError, match="numbered from 0 to 999999999"):
        simulated_game(3, 10**9, seed=1)
    with pytest.warns(RuntimeWarning, match=f"{cores + 1} workers on {cores} cores"):
        s = simulate(3, 2 * BLOCK, seed=1, workers=cores + 1)
    assert s.games == 2 * BLOCK


@pytest.mark.parametrize("address", ["notaurl", "", "inproc://x", "tcp://:0"])
def test_a_malformed_scheduler_address_is_a_setup_error(address: str) -> None:
    with pytest.raises(SetupError, match="tcp://host:8786"):
        simulate(3, 10, scheduler=address)


def test_without_dask_a_scheduler_says_how_to_install_it(monkeypatch: Any) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # as if not installed
    with pytest.raises(SetupError, match=r"pip install 'tenleave_widget\[distributed\]'"):
        simulate(3, 10, scheduler="tcp://127.0.0.1:8786")
    code = ("import sys; sys.modules['distributed'] = None; "
            "from tenleave_widget.programs.cli import main; "
            "sys.exit(main(['simulate', '--players', '3', '--games', '5', "
            "'--scheduler', 'tcp://127.0.0.1:8786']))")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       timeout=60)
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.count("\n") == 1 and "tenleave_widget[distributed]" in r.stderr


@pytest.mark.slow
def test_cli_reports_paired_differences() -> None:
    run = [sys.executable, "-m", "tenleave_widget", "simulate", "--players", "3",
           "--games", "60", "--seed", "3", "--bots", "greedy,random,random"]
    out = json.loads(subprocess.run([*run, "--json", "--workers", "2"], capture_output=True,
                                    text=True, check=True, timeout=120).stdout)
    assert out["workers"] == 2 and out["backend"] == "processes"
    for s in out["seats"]:
        assert [v["seat"] for v in s["vs"]] == [t for t in range(3) if t != s["seat"]]
        for v in s["vs"]:
            lo, hi = v["ci95"]
            assert lo <= v["mean_difference"] <= hi
            back = next(w for w in out["seats"][v["seat"]]["vs"] if w["seat"] == s["seat"])
            assert back["mean_difference"] == -v["mean_difference"]
    one = json.loads(subprocess.run([*run, "--json", "--workers", "1"], capture_output=True,
                                    text=True, check=True, timeout=120).stdout)
    assert one["seats"] == out["seats"] and one["fingerprint"] == out["fingerprint"]
    text = subprocess.run(run, capture_output=True, text=True, check=True, timeout=120).stdout
    assert "paired differences" in text and "vs seat 2" in text
    bad = subprocess.run([*run, "--workers", "0"], capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and "workers must be a whole number 1.." in bad.stderr


@pytest.mark.parametrize("sig, whom, code, line", [
    (signal.SIGINT, "group", 130, "tenleave: interrupted"),  # Ctrl-C in a terminal
    (signal.SIGTERM, "group", 143, "tenleave: terminated"),  # a service manager's stop
    (signal.SIGTERM, "parent", 143, "tenleave: terminated"),  # kill PID
])
@pytest.mark.parametrize("after", [0.0, 0.5])  # as the workers start; into the games
def test_a_signal_stops_the_command_and_its_processes_at_once(
    sig: int, whom: str, code: int, line: str, after: float
) -> None:
    """Ctrl-C or SIGTERM: its exit status, one line, no traceback, and every worker gone at
    once (before issue 21, SIGTERM left the workers running ~1.7 s, printing four
    BrokenPipe tracebacks)."""
    p = subprocess.Popen(
        [sys.executable, "-m", "tenleave_widget", "simulate", "--players", "3", "--games",
         "100000000", "--workers", "2"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
    )
    try:
        parent = psutil.Process(p.pid)
        deadline = time.monotonic() + 60
        while len(parent.children()) < 2 and time.monotonic() < deadline:
            time.sleep(0.01)
        time.sleep(after)
        children = parent.children(recursive=True)
        assert len(children) >= 2, "the workers did not start"
        if whom == "group":
            os.killpg(p.pid, sig)
        else:
            p.send_signal(sig)
        t0 = time.monotonic()
        _, err = p.communicate(timeout=20)
        assert time.monotonic() - t0 < 10
        assert p.returncode == code, err[-2000:]
        assert err.strip().splitlines()[-1].split("\r")[-1] == line
        assert "Traceback" not in err and "Error" not in err, err[-2000:]
        gone, alive = psutil.wait_procs(children, timeout=2)
        assert alive == []
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()


def tasks_on(cluster: Any) -> int:
    """How many tasks the cluster's scheduler holds."""
    from distributed import Client

    with Client(cluster) as client:
        return int(client.run_on_scheduler(lambda dask_scheduler: len(dask_scheduler.tasks)))


@pytest.mark.parametrize("sig, code, line", [
    (signal.SIGINT, 130, "tenleave: interrupted"),
    (signal.SIGTERM, 143, "tenleave: terminated"),
])
def test_a_signal_stops_simulate_on_a_dask_cluster(
    sig: int, code: int, line: str, cluster: Any
) -> None:
    """SIGINT or SIGTERM while ``simulate --scheduler`` runs on a cluster (a LocalCluster
    on 127.0.0.1 started here): its exit status, one line, no traceback, and the tasks it
    submitted cancelled on the cluster."""
    address = cluster.scheduler_address
    assert address.startswith("tcp://127.0.0.1:")
    assert tasks_on(cluster) == 0
    p = subprocess.Popen(
        [sys.executable, "-m", "tenleave_widget", "simulate", "--players", "3", "--games",
         "100000000", "--scheduler", address],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 60
        while tasks_on(cluster) == 0 and p.poll() is None and time.monotonic() < deadline:
            time.sleep(0.1)
        assert p.poll() is None and tasks_on(cluster) > 0, "no task reached the cluster"
        p.send_signal(sig)
        t0 = time.monotonic()
        _, err = p.communicate(timeout=30)
        assert time.monotonic() - t0 < 20
        assert p.returncode == code, err[-2000:]
        assert err.strip().splitlines()[-1].split("\r")[-1] == line
        assert "Traceback" not in err and "Error" not in err, err[-2000:]
        deadline = time.monotonic() + 20
        while tasks_on(cluster) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert tasks_on(cluster) == 0, "tasks were left on the cluster"
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()


@pytest.mark.slow
def test_the_workers_of_a_killed_command_end_by_themselves() -> None:
    """SIGKILL cannot be handled: the workers see their pipe close and end after their
    task (a forked worker closes its copies of the parent's pipe ends), silently."""
    p = subprocess.Popen(
        [sys.executable, "-m", "tenleave_widget", "simulate", "--players", "3", "--games",
         "100000000", "--workers", "2"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
    )
    children: list[psutil.Process] = []
    try:
        parent = psutil.Process(p.pid)
        deadline = time.monotonic() + 60
        while len(parent.children()) < 2 and time.monotonic() < deadline:
            time.sleep(0.01)
        time.sleep(0.5)
        children = parent.children(recursive=True)
        assert len(children) >= 2, "the workers did not start"
        p.kill()
        _, err = p.communicate(timeout=30)  # the workers share stderr: it closes with them
        gone, alive = psutil.wait_procs(children, timeout=20)
        assert alive == []
        assert "Traceback" not in err and "Error" not in err, err[-2000:]
    finally:
        for c in children:
            with contextlib.suppress(psutil.NoSuchProcess):
                c.kill()
        if p.poll() is None:
            p.kill()
            p.wait()


def interrupt_after(seconds: float) -> threading.Timer:
    timer = threading.Timer(seconds, _thread.interrupt_main)  # as a stopped cell does
    timer.start()
    return timer


def test_a_stopped_cell_stops_the_local_processes() -> None:
    before = children()
    timer = interrupt_after(1.0)
    with pytest.raises(KeyboardInterrupt):
        simulate(3, 100_000_000, workers=2)
    timer.join()
    assert workers_left(before) == []


@pytest.mark.slow
def test_a_stopped_cell_cancels_the_dask_tasks(cluster: Any) -> None:
    from distributed import Client

    with Client(cluster) as client:
        timer = interrupt_after(2.0)
        with pytest.raises(KeyboardInterrupt):
            simulate(3, 100_000_000, client=client)
        timer.join()
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            left = client.run_on_scheduler(lambda dask_scheduler: len(dask_scheduler.tasks))
            if left == 0:
                break
            time.sleep(0.1)
        assert left == 0, "tasks were left on the cluster"


def test_the_seeding_is_the_documented_one() -> None:
    # block k: random.Random(f"{seed}/{k}") draws one seed per bot, then one per game
    import random

    from tenleave_widget.analysis.bots import make_bot
    from tenleave_widget.programs.simulate import play_game

    number = BLOCK + 3  # the fourth game of block 1
    master = random.Random(f"{7}/{1}")
    bots = [make_bot(b, master.randrange(2**32)) for b in BOTS]
    for i in range(BLOCK, number + 1):
        g = play_game(3, bots, seed=master.randrange(2**32), first=i % 3)
    assert g.penalty == simulated_game(3, number, seed=7, bots=BOTS, rotate_first=True).penalty
    assert g.to_record() == simulated_game(
        3, number, seed=7, bots=BOTS, rotate_first=True).to_record()
