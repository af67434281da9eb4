"""The dealer tests' harness: a real server on 127.0.0.1 (a free port) in the test's own
event loop, its clients, and players that choose from their view alone."""

from __future__ import annotations

import asyncio
import random
import re
import sys
import threading
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tenleave_widget.engine.turn import Turn
from tenleave_widget.programs.dealer.client import Client, plain_plays
from tenleave_widget.programs.dealer.dealer import Dealer, Randomness
from tenleave_widget.programs.dealer.server import run


@dataclass
class Served:
    """A running server: its dealer, address and teacher token."""

    dealer: Dealer
    url: str
    token: str
    loop: asyncio.AbstractEventLoop | None = None


@asynccontextmanager
async def served(store: Path | None = None, *, seed: int | None = None, bot_delay: float = 0,
                 records: Path | None = None, rate: float | None = None,
                 certfile: Path | None = None) -> AsyncIterator[Served]:
    """A dealer listening on 127.0.0.1 (any free port) until the block ends."""
    loop = asyncio.get_running_loop()
    stop: asyncio.Future[None] = loop.create_future()
    got: asyncio.Future[Served] = loop.create_future()

    def ready(dealer: Dealer, url: str, lines: list[str]) -> None:
        got.set_result(Served(dealer, url, dealer.teacher_token))

    task = loop.create_task(run(
        "127.0.0.1", 0, store=None if store is None else str(store),
        records=None if records is None else str(records), bot_delay=bot_delay,
        randomness=None if seed is None else Randomness(seed), ready=ready, stop=stop,
        certfile=None if certfile is None else str(certfile),
        **({} if rate is None else {"rate": rate, "burst": rate})))
    done, _ = await asyncio.wait([task, got], return_when=asyncio.FIRST_COMPLETED)
    if task in done:
        task.result()  # raises the server's error
    try:
        yield got.result()
    finally:
        stop.set_result(None)
        await task


async def teacher(url: str, token: str) -> Client:
    t = Client(url)
    await t.teacher(token)
    return t


async def table(url: str, token: str, players: int, **options: Any) -> dict[str, Any]:
    """Create a table as the teacher (a connection of its own, then closed)."""
    t = await teacher(url, token)
    summary = await t.create(players, **options)
    await t.close()
    return summary


def choose(view: Any, rng: random.Random) -> Turn:
    """A plain play chosen at random from the view alone."""
    plays = plain_plays(view)
    return plays[rng.randrange(len(plays))]


async def play_on(c: Client, rng: random.Random, until: int | None = None,
                  check: Any = None, timeout: float = 20.0) -> int:
    """Play ``c``'s seat from its views (:func:`choose`) until the game is over or
    ``until`` turns are applied; return how many turns it played. ``check(view)`` is
    called on each view it plays from."""
    played = 0
    last = -1
    while True:
        v = c.view
        if v is None or v["finished"] or (until is not None and v["turns_applied"] >= until):
            if v is not None:
                return played
        elif v["to_move"] == c.seat and v["turns_applied"] > last:
            if check is not None:
                check(v)
            last = v["turns_applied"]
            await c.play(choose(v, rng))
            played += 1
        await c.recv(timeout)


async def play_all(clients: list[Client], seed: int, until: int | None = None,
                   check: Any = None) -> list[int]:
    """Every client plays its seat at once (:func:`play_on`); the turns each played."""
    return list(await asyncio.gather(*(
        play_on(c, random.Random(seed + i), until, check) for i, c in enumerate(clients))))


@contextmanager
def served_in_thread(store: Path | None = None, *, seed: int | None = None,
                     bot_delay: float = 0, rate: float | None = None) -> Iterator[Served]:
    """:func:`served` in a thread of its own (its own event loop), for code that blocks
    (a notebook's table, a kernel): the server stops when the block ends (bounded)."""
    ready = threading.Event()
    stop = threading.Event()
    box: list[Any] = []

    async def main() -> None:
        async with served(store, seed=seed, bot_delay=bot_delay, rate=rate) as s:
            s.loop = asyncio.get_running_loop()
            box.append((s, s.loop))
            ready.set()
            await asyncio.to_thread(stop.wait, 120)

    def run_it() -> None:
        try:
            asyncio.run(main())
        except BaseException as e:  # noqa: BLE001 - handed to the test
            box.append(e)
            ready.set()

    thread = threading.Thread(target=run_it, name="dealer-test-server", daemon=True)
    thread.start()
    assert ready.wait(20), "the dealer did not start"
    if isinstance(box[0], BaseException):
        raise box[0]
    try:
        yield box[0][0]
    finally:
        stop.set()
        thread.join(20)


def call_in(s: Served, fn: Any) -> Any:
    """Run ``fn()`` on the server's loop (from another thread) and return its result."""
    return asyncio.run_coroutine_threadsafe(_call(fn), s.loop).result(10)  # type: ignore[arg-type]


async def _call(fn: Any) -> Any:
    return fn()


async def start_serve(store: Path, port: int = 0) -> tuple[Any, str, str]:
    """``tenleave serve`` as a process on ``store``: the process, its address and the
    teacher's token (from the two lines it prints)."""
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tenleave_widget", "serve", "--port", str(port), "--store",
        str(store), "--bot-delay", "0",
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    assert proc.stdout is not None
    first = (await asyncio.wait_for(proc.stdout.readline(), 60)).decode()
    second = (await asyncio.wait_for(proc.stdout.readline(), 60)).decode()
    assert first.startswith("Students connect to ws://127.0.0.1:"), first
    url = re.findall(r"ws://[0-9.:]+", first)[0]
    return proc, url, re.findall(r"'([^']+)'\)", second)[0]


class ServeProcess:
    """``tenleave serve`` as a process on ``store`` for code that blocks (a student's
    table): its address and teacher token from the lines it prints (within 60 s);
    :meth:`kill` (SIGKILL) and :meth:`stop` (SIGTERM, bounded) end it."""

    def __init__(self, store: Path, port: int = 0) -> None:
        import queue
        import subprocess

        self.proc = subprocess.Popen(
            [sys.executable, "-m", "tenleave_widget", "serve", "--port", str(port),
             "--store", str(store), "--bot-delay", "0"],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        lines: queue.Queue[str] = queue.Queue()

        def read() -> None:
            assert self.proc.stdout is not None
            for line in self.proc.stdout:
                lines.put(line)

        threading.Thread(target=read, daemon=True).start()
        try:
            first, second = lines.get(timeout=60), lines.get(timeout=60)
        except queue.Empty:
            self.kill()
            raise AssertionError("tenleave serve printed no address within 60 s") from None
        assert first.startswith("Students connect to ws://127.0.0.1:"), first
        self.url = re.findall(r"ws://[0-9.:]+", first)[0]
        self.port = int(self.url.rsplit(":", 1)[1])
        self.token = re.findall(r"'([^']+)'\)", second)[0]

    def kill(self) -> None:
        """SIGKILL, and wait for it (bounded)."""
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(30)

    def stop(self) -> int:
        """SIGTERM; the exit status (bounded)."""
        if self.proc.poll() is None:
            self.proc.terminate()
        return self.proc.wait(30)
