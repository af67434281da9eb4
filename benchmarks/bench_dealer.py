"""The dealer server under a class's load, and through faults, on loopback.

    .venv/bin/python benchmarks/bench_dealer.py [--tables 1 10 20 40] [--fsync-tables 10]
        [--faults-tables 10] [--paced-tables 10 40] [--pace 1.0] [--games 1]
        [--seconds 240] [--out benchmarks/results/dealer.json]

Each run starts ``tenleave serve`` as its own process (``--store`` in a temporary folder,
``--bot-delay 0``), a teacher creates the tables (3, 4 and 5 seats in turn: 10 tables are
40 seats), and one client per seat, all in this process, plays whole games as fast as it
can: a plain play chosen at random from its own view the moment its view says it is to
move.

``flood`` (one run per ``--tables`` figure, no faults; ``--games N``: N runs of it, each
a whole game per table on a fresh server, their turns pooled into one row, so the p99 of
10 tables is over 390 N turns): the latency from a turn sent to the
last of its table's views received (every seat's ``state`` frame for it), p50 / p99 / max
over every turn; the server's CPU time (user + system) per turn and its peak resident
memory (psutil, sampled every 50 ms); the CPU time of this process (every client
together); turns a second. "Tables per process" is the largest
count run whose p99 stays within the aim (50 ms). ``--fsync-tables``: the same with the
server's ``--fsync`` (every turn waits for the disk; the event loop with it).
``--paced-tables``: the same, each client thinking ``--pace`` seconds a turn on average
(0.5 to 1.5 times it, at random) before it plays, as a class does: the latency then is
the server's answer at a class's pace, not under a flood.

``faults`` (``--faults-tables``): the same games while, every 0.25 s, a random client's
connection is cut (it resumes its seat with its token) and the server is killed with
SIGKILL twice (at a third and at two thirds of the turns) and started again on the same
store. In this run a share of the turns (``--peeks``, 0.3) begin with a peek at a card the
seat cannot see, sent as a ``step`` frame: the dealer shows the card, and only then does
the client play its turn (keeping the peek) — the kills wait at their mark between the two,
so a server dies with peeks shown and not yet played. Then every table's record file must
exist and replay in the engine to its end with every turn (3-5 seats x 10 cards), each
seat's turn k must be one that seat sent for turn k, every peek the dealer showed a seat
must be in that seat's turn of the record (none forgotten by a restart or a reconnect),
and no client may ever see a game go back (a turn lost). The counts are written out and
the exit status is 1 if any is not 0.

Each phase stops by itself (``--seconds``, then whatever is unfinished counts as lost).
The results go to ``--out`` (JSON) and a summary to stdout. The machine is shared: the load
average is printed before and after.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import random
import re
import signal
import socket
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psutil  # type: ignore[import-untyped]
from websockets.exceptions import WebSocketException

from tenleave_widget.engine.game import Game
from tenleave_widget.engine.record import load_record
from tenleave_widget.engine.rules import DEFAULT_RULES
from tenleave_widget.engine.turn import Turn
from tenleave_widget.programs.dealer.client import Client, plain_plays

AIM_P99_MS = 50.0
SEATS = (3, 4, 5)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """``tenleave serve`` in a process of its own, on a fixed port and store."""

    def __init__(self, folder: Path, fsync: bool = False) -> None:
        self.fsync = fsync
        self.port = free_port()
        self.store = folder / "class.db"
        self.records = folder / "class-records"
        self.log = folder / "server.log"
        self.proc: asyncio.subprocess.Process | None = None
        self.token = ""
        self.url = f"ws://127.0.0.1:{self.port}"
        self.peak_rss = 0
        self.cpu = 0.0  # CPU seconds of the processes already ended

    async def start(self) -> None:
        """Start it and wait for its lines (the teacher's token in them)."""
        with open(self.log, "ab") as err:
            self.proc = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "tenleave_widget", "serve", "--port", str(self.port),
                "--store", str(self.store), "--bot-delay", "0",
                *(["--fsync"] if self.fsync else []),
                stdout=asyncio.subprocess.PIPE, stderr=err)
        assert self.proc.stdout is not None
        while True:
            line = (await asyncio.wait_for(self.proc.stdout.readline(), 60)).decode()
            if not line:
                raise RuntimeError(f"the server ended: see {self.log}")
            m = re.search(r"tw\.classroom\('[^']*', '([^']+)'\)", line)
            if m:
                self.token = m.group(1)
                return

    def sample(self) -> float:
        """The server's CPU seconds so far (this process and the ended ones); records
        its peak memory."""
        if self.proc is None or self.proc.returncode is not None:
            return self.cpu
        try:
            p = psutil.Process(self.proc.pid)
            self.peak_rss = max(self.peak_rss, p.memory_info().rss)
            t = p.cpu_times()
            return self.cpu + float(t.user + t.system)
        except psutil.NoSuchProcess:
            return self.cpu

    async def kill(self) -> None:
        """SIGKILL, no warning."""
        assert self.proc is not None
        self.cpu = self.sample()
        self.proc.send_signal(signal.SIGKILL)
        await self.proc.wait()

    async def stop(self) -> None:
        if self.proc is not None and self.proc.returncode is None:
            self.cpu = self.sample()
            self.proc.send_signal(signal.SIGTERM)
            await self.proc.wait()


@dataclass
class Seat:
    """One student: its table, seat, token, what it sent for each turn and saw."""

    table: str
    code: str
    seat: int
    players: int
    client: Client | None = None
    token: str | None = None
    sent: dict[int, list[dict[str, Any]]] = field(default_factory=dict)
    shown: dict[int, list[dict[str, Any]]] = field(default_factory=dict)
    """Turn index -> the steps the dealer showed this seat in that turn (its peek)."""
    high: int = 0  # the most turns applied it has seen
    went_back: int = 0  # times a view showed fewer turns than already seen
    reconnects: int = 0
    errors: dict[str, int] = field(default_factory=dict)
    done: bool = False


@dataclass
class Run:
    server: Server
    seats: list[Seat]
    sent_at: dict[tuple[str, int], float] = field(default_factory=dict)
    got: dict[tuple[str, int], list[float]] = field(default_factory=dict)
    tainted: set[tuple[str, int]] = field(default_factory=set)  # turns a fault touched
    marks: list[int] = field(default_factory=list)  # the turn counts the server dies at
    kills: int = 0

    def kill_due(self) -> bool:
        """A kill's mark is reached and the kill not done yet: clients hold their turns,
        so the kill happens at its mark however fast the tables play."""
        return self.kills < len(self.marks) and self.turns() >= self.marks[self.kills]

    def turns(self) -> int:
        by_table: dict[str, int] = {}
        for s in self.seats:
            by_table[s.table] = max(by_table.get(s.table, 0), s.high)
        return sum(by_table.values())


async def create_tables(server: Server, count: int) -> list[Seat]:
    teacher = Client(server.url)
    await teacher.teacher(server.token)
    seats: list[Seat] = []
    for i in range(count):
        if i and i % 30 == 0:  # a connection may send 40 frames at once, 20 a second
            await teacher.close()
            teacher = Client(server.url)
            await teacher.teacher(server.token)
        n = SEATS[i % len(SEATS)]
        t = await teacher.create(n)
        seats += [Seat(t["table"], t["code"], s, n) for s in range(n)]
    await teacher.close()
    return seats


def hidden(view: Any) -> list[tuple[int, int]]:
    """The places of the cards on the table whose value the view's seat does not know
    (each may be peeked at)."""
    return [(q, p) for q, queue in enumerate(view["queues"])
            for p, card in enumerate(queue) if card["value"] is None]


async def play(run: Run, s: Seat, rng: random.Random, deadline: float,
               pace: float = 0.0, peeks: float = 0.0) -> None:
    """Play seat ``s`` to the end of its game, resuming after every cut connection;
    ``pace``: seconds it thinks before each turn (a class's pace, not the fastest);
    ``peeks``: the share of its turns that begin with a peek (a ``step`` frame, then the
    turn once the dealer has shown the card)."""
    loop = asyncio.get_running_loop()
    while not s.done and loop.time() < deadline:
        c = s.client
        try:
            if c is None:
                c = Client(run.server.url)
                if s.token is None:
                    await c.join(s.code, f"Student {s.seat + 1}", s.seat)
                    s.token = c.token
                else:
                    await c.resume(s.token)
                    s.reconnects += 1
                    await c.send("ping")  # plays once the resume's frames are in (pong)
                syncing = s.token is not None and s.reconnects > 0
                s.client = c
                last = -1  # the turn index last sent on this connection
                kept_here: dict[int, list[dict[str, Any]]] = {}
                """The peeks the dealer shows on this connection: a resumed seat plays
                from what the dealer sends again, not from what it remembers."""
                c.frames = []
                assert c.view is not None
                see(run, s, c.view["turns_applied"], loop.time(), fresh=True)
            while True:
                v = c.view
                assert v is not None
                if v["finished"]:
                    s.done = True
                    await c.close()
                    return
                k = v["turns_applied"]
                if v["to_move"] == s.seat and k != last and not syncing:
                    last = k
                    kept = kept_here.get(k)
                    places = hidden(v)
                    if kept is None and places and rng.random() < peeks:
                        q, p = rng.choice(places)  # the turn follows the dealer's answer
                        await c.send("step", steps=[{"kind": "peek", "queue": q,
                                                     "position": p}], at=k)
                    else:
                        while run.kill_due() and loop.time() < deadline:
                            await asyncio.sleep(0.01)
                        if pace > 0:
                            await asyncio.sleep(pace * (0.5 + rng.random()))
                        play = rng.choice(plain_plays(v))
                        peek = None if kept is None else (kept[0]["queue"],
                                                          kept[0]["position"])
                        turn = Turn(play.seat, play.card, play.queue, peek=peek).to_json()
                        s.sent.setdefault(k, []).append(dict(turn))
                        run.sent_at[(s.table, k)] = loop.time()
                        await c.play(dict(turn), k)
                msg = await c.recv(timeout=max(0.1, deadline - loop.time()))
                c.frames.clear()
                if msg["kind"] == "state" and "steps" in msg:  # a peek shown (or shown
                    # again on resuming): the turn now, keeping it
                    s.shown[msg["view"]["turns_applied"]] = msg["steps"]
                    kept_here[msg["view"]["turns_applied"]] = msg["steps"]
                    last = -1
                elif msg["kind"] == "pong":
                    syncing = False
                elif msg["kind"] == "state":
                    see(run, s, msg["view"]["turns_applied"], loop.time())
                elif msg["kind"] == "error":
                    s.errors[msg["fault"]] = s.errors.get(msg["fault"], 0) + 1
                    if msg["fault"] in ("stale", "not-your-turn"):
                        continue
        except (WebSocketException, OSError, asyncio.TimeoutError, AssertionError):
            if s.client is not None:
                run.tainted.add((s.table, s.high))
            s.client = None  # a turn sent when the line was cut may or may not have
            # been applied: the view on resume says which (and the turn is sent again)
            await asyncio.sleep(0.05 + rng.random() * 0.1)


def see(run: Run, s: Seat, k: int, now: float, fresh: bool = False) -> None:
    """Seat ``s`` saw a view with ``k`` turns applied at ``now``."""
    if k < s.high:
        s.went_back += 1
    if not fresh and k >= 1:
        run.got.setdefault((s.table, k - 1), []).append(now)
    s.high = max(s.high, k)
    if fresh:
        run.tainted.add((s.table, k - 1))


def latencies(run: Run, players: dict[str, int]) -> list[float]:
    """Milliseconds from each turn sent to the last of its table's views received."""
    out = []
    for (table, k), t0 in run.sent_at.items():
        got = run.got.get((table, k), [])
        if (table, k) in run.tainted or len(got) != players[table]:
            continue
        out.append((max(got) - t0) * 1000)
    return out


async def chaos(run: Run, rng: random.Random, total: int, kills: int, deadline: float) -> int:
    """Cut a random client's connection every 0.25 s; SIGKILL and restart the server when
    the tables have played each of ``kills`` evenly spaced fractions of ``total`` turns
    (the clients hold their turns from the mark until the server is back). Returns the
    kills done."""
    loop = asyncio.get_running_loop()
    run.marks = [total * (i + 1) // (kills + 1) for i in range(kills)]
    next_cut = loop.time() + 0.25
    while loop.time() < deadline and not all(s.done for s in run.seats):
        await asyncio.sleep(0.01)
        if loop.time() >= next_cut:
            next_cut += 0.25
            live = [s for s in run.seats if s.client is not None and s.client.ws is not None]
            if live:
                victim = rng.choice(live)
                ws = victim.client.ws if victim.client is not None else None
                if ws is not None:
                    ws.transport.abort()  # the student's laptop drops off the network
        if run.kill_due():
            await run.server.kill()
            await asyncio.sleep(0.3)
            await run.server.start()
            run.kills += 1
    return run.kills


async def one_run(folder: Path, tables: int, seconds: float, faults: bool,
                  seed: int = 1, fsync: bool = False, pace: float = 0.0,
                  peeks: float = 0.0) -> dict[str, Any]:
    folder.mkdir(parents=True, exist_ok=True)
    server = Server(folder, fsync)
    await server.start()
    seats = await create_tables(server, tables)
    run = Run(server, seats)
    players = {s.table: s.players for s in seats}
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    total = sum(n * len(DEFAULT_RULES.dealt(n)) for n in players.values())

    async def sampler() -> None:
        while True:
            server.sample()
            await asyncio.sleep(0.05)

    cpu0 = server.sample()
    clients0 = time.process_time()
    t0 = time.perf_counter()
    watch = loop.create_task(sampler())
    tasks = [loop.create_task(play(run, s, random.Random(seed * 1000 + i), deadline, pace,
                                   peeks))
             for i, s in enumerate(seats)]
    kills = 0
    if faults:
        kills = await chaos(run, random.Random(seed), total, 2, deadline)
    await asyncio.gather(*tasks)
    wall = time.perf_counter() - t0
    cpu = server.sample() - cpu0
    clients_cpu = time.process_time() - clients0
    watch.cancel()
    await server.stop()
    lat = latencies(run, players)
    out: dict[str, Any] = {
        "tables": tables, "fsync": fsync, "pace_s": pace, "peeks": peeks,
        "clients": len(seats),
        "turns": run.turns(),
        "expected_turns": total,
        "wall_s": round(wall, 2), "turns_per_s": round(run.turns() / wall, 1),
        "server_cpu_s": round(cpu, 2),
        "server_cpu_ms_per_turn": round(1000 * cpu / max(1, run.turns()), 3),
        "server_cpu_share": round(cpu / wall, 3),
        "server_peak_rss_mib": round(server.peak_rss / 2**20, 1),
        "clients_cpu_s": round(clients_cpu, 2),  # this process: every client together
        "latency_turns_measured": len(lat),
    }
    out.update(quantiles(lat))
    if faults:
        out.update(check(run, server.records, kills))
    out["latencies_ms"] = lat
    return out


def quantiles(lat: list[float]) -> dict[str, float]:
    """p50, p99 and the max of latencies in milliseconds (none for no latency)."""
    if not lat:
        return {}
    q = statistics.quantiles(lat, n=100, method="inclusive") if len(lat) > 1 else [lat[0]] * 99
    return {"p50_ms": round(q[49], 2), "p99_ms": round(q[98], 2), "max_ms": round(max(lat), 2)}


def pooled(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """Runs of one configuration (``--games``) as one row: counts and times summed, the
    peak memory the largest, the latencies' quantiles over every run's turns."""
    lat = [x for r in runs for x in r.pop("latencies_ms")]
    if len(runs) == 1:
        return dict(runs[0], games_per_table=1)
    first = runs[0]
    turns = sum(r["turns"] for r in runs)
    wall = sum(r["wall_s"] for r in runs)
    cpu = sum(r["server_cpu_s"] for r in runs)
    out = {k: first[k] for k in ("tables", "fsync", "pace_s", "peeks", "clients")}
    out.update(
        games_per_table=len(runs), turns=turns,
        expected_turns=sum(r["expected_turns"] for r in runs), wall_s=round(wall, 2),
        turns_per_s=round(turns / wall, 1), server_cpu_s=round(cpu, 2),
        server_cpu_ms_per_turn=round(1000 * cpu / max(1, turns), 3),
        server_cpu_share=round(cpu / wall, 3),
        server_peak_rss_mib=max(r["server_peak_rss_mib"] for r in runs),
        clients_cpu_s=round(sum(r["clients_cpu_s"] for r in runs), 2),
        latency_turns_measured=len(lat), **quantiles(lat))
    return out


def check(run: Run, records: Path, kills: int) -> dict[str, Any]:
    """The fault run's counts: games lost, turns lost or not the seat's, invalid records."""
    games: dict[str, list[Seat]] = {}
    for s in run.seats:
        games.setdefault(s.table, []).append(s)
    lost_games = invalid = foreign = peeks_lost = 0
    for table, seats in games.items():
        path = records / f"{table}.json"
        if not path.exists():
            lost_games += 1
            continue
        try:
            record = load_record(path)
            game = Game.from_record(record)
        except ValueError:
            invalid += 1
            continue
        n = len(seats)
        if not game.finished or len(record["turns"]) != n * len(DEFAULT_RULES.dealt(n)):
            invalid += 1
        for k, turn in enumerate(record["turns"]):
            mine = seats[turn["seat"]].sent.get(k, [])
            if dict(turn) not in mine:
                foreign += 1
            shown = seats[turn["seat"]].shown.get(k)
            if shown is not None and turn.get("peek") != [shown[0]["queue"],
                                                          shown[0]["position"]]:
                peeks_lost += 1
    return {
        "server_kills": kills,
        "client_reconnects": sum(s.reconnects for s in run.seats),
        "games_lost": lost_games,
        "records_invalid": invalid,
        "turns_not_sent_by_their_seat": foreign,
        "peeks_shown": sum(len(s.shown) for s in run.seats),
        "peeks_not_in_the_record": peeks_lost,
        "views_that_went_back": sum(s.went_back for s in run.seats),
        "errors_seen": {f: sum(s.errors.get(f, 0) for s in run.seats)
                        for f in sorted({f for s in run.seats for f in s.errors})},
    }


def within_aim(runs: list[dict[str, Any]]) -> int:
    """The most tables of the runs such that that run and every run of fewer tables
    played every turn with p99 within the aim (0: none)."""
    held = 0
    for r in sorted(runs, key=lambda r: r["tables"]):
        if r.get("p99_ms", 1e9) > AIM_P99_MS or r["turns"] != r["expected_turns"]:
            break
        held = r["tables"]
    return held


def machine() -> str:
    """The CPU model and the system, for the results file."""
    model = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{model}, {os.cpu_count()} cores, {platform.system()} {platform.release()}"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tables", type=int, nargs="*", default=[1, 10, 20, 40])
    ap.add_argument("--faults-tables", type=int, default=10)
    ap.add_argument("--seconds", type=float, default=240.0)
    ap.add_argument("--fsync-tables", type=int, nargs="*", default=[10],
                    help="load runs with --fsync (a disk wait at every turn)")
    ap.add_argument("--paced-tables", type=int, nargs="*", default=[],
                    help="load runs whose clients think --pace seconds a turn (on average)")
    ap.add_argument("--pace", type=float, default=1.0)
    ap.add_argument("--games", type=int, default=1,
                    help="runs (a whole game per table each) pooled per load figure")
    ap.add_argument("--peeks", type=float, default=0.3,
                    help="the share of the fault run's turns that begin with a peek")
    ap.add_argument("--out", default="benchmarks/results/dealer.json")
    args = ap.parse_args(argv)
    print(f"load average before: {os.getloadavg()}")
    result: dict[str, Any] = {
        "command": " ".join(["benchmarks/bench_dealer.py", *(sys.argv[1:] if argv is None
                                                               else argv)]),
        "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "machine": machine(), "aim_p99_ms": AIM_P99_MS, "cores": os.cpu_count(),
        "load_before": os.getloadavg(), "flood": [], "flood_fsync": [], "paced": [],
        "faults": None}
    with tempfile.TemporaryDirectory() as d:
        for i, tables in enumerate(args.tables):
            folder = Path(d) / f"load{i}"
            folder.mkdir()
            r = pooled([asyncio.run(one_run(folder / str(g), tables, args.seconds,
                                            faults=False, seed=1 + g))
                        for g in range(args.games)])
            print(json.dumps(r))
            result["flood"].append(r)
        for i, tables in enumerate(args.fsync_tables):
            folder = Path(d) / f"fsync{i}"
            folder.mkdir()
            r = pooled([asyncio.run(one_run(folder / str(g), tables, args.seconds,
                                            faults=False, seed=1 + g, fsync=True))
                        for g in range(args.games)])
            print(json.dumps(r))
            result["flood_fsync"].append(r)
        for i, tables in enumerate(args.paced_tables):
            folder = Path(d) / f"paced{i}"
            folder.mkdir()
            r = pooled([asyncio.run(one_run(folder / str(g), tables, args.seconds,
                                            faults=False, seed=1 + g, pace=args.pace))
                        for g in range(args.games)])
            print(json.dumps(r))
            result["paced"].append(r)
        if args.faults_tables:
            folder = Path(d) / "faults"
            folder.mkdir()
            r = pooled([asyncio.run(one_run(folder, args.faults_tables, args.seconds,
                                            faults=True, peeks=args.peeks))])
            print(json.dumps(r))
            result["faults"] = r
    result["tables_per_process_within_aim"] = within_aim(result["flood"])
    result["paced_tables_within_aim"] = within_aim(result["paced"])
    result["load_after"] = os.getloadavg()
    before, after = result["load_before"], result["load_after"]
    result["load"] = (f"load average {before[0]:.1f} / {before[1]:.1f} / {before[2]:.1f} "
                      f"before, {after[0]:.1f} / {after[1]:.1f} / {after[2]:.1f} after "
                      f"({os.cpu_count()} shared cores)")
    print(f"load average after: {os.getloadavg()}")
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(result, indent=2) + "\n")
    f = result["faults"]
    bad = f is not None and any(f[k] for k in ("games_lost", "records_invalid",
                                               "turns_not_sent_by_their_seat",
                                               "peeks_not_in_the_record",
                                               "views_that_went_back"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
