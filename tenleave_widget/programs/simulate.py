"""Self-play at scale: per-seat mean penalty, win rate and paired differences with 95%
intervals, on one core, on every local core, or on a Dask cluster — game for game the
same results for the same seed.

>>> s = simulate(3, 40, seed=1, bots=["greedy", "random", "random"], workers=1)
>>> s.games, len(s.seats)
(40, 3)
>>> same = simulate(3, 40, seed=1, bots=["greedy", "random", "random"], workers=2)
>>> same.fingerprint == s.fingerprint and same.to_json()["seats"] == s.to_json()["seats"]
True
>>> mean, low, high = s.paired_difference(0, 1)  # greedy's penalty minus seat 1's
>>> low <= mean <= high
True

**Seeds.** Games are numbered 0, 1, 2 … and grouped in *seed blocks* of
:data:`BLOCK` consecutive games. Block ``k`` has its own generator,
``random.Random(f"{seed}/{k}")`` (a string seed: all its bits and its SHA-512 seed the
Mersenne Twister, the same on every platform and Python version) — the role
``numpy.random.SeedSequence(seed).spawn(...)`` plays elsewhere, one independent stream per
block, without importing NumPy (0.07 s of start-up for every command). That
generator draws, as the one-process simulation always did, one seed per bot and then one
deal seed per game of the block. So a game depends only on the seed, its number, the
players, the bots and ``rotate_first`` — never on how the games are split into tasks,
on the number of workers or on the backend.

**Work.** A task is a run of whole seed blocks. Task sizes adapt to the measured cost of
a game (about :data:`TASK_SECONDS` of work each, smaller towards the end so that the
workers finish together), at most two tasks per worker are in flight, and each task
returns integer sums only (penalties, squared penalties, wins, paired differences and
their squares): the statistics are merged exactly, in any order, and memory does not
grow with the number of games.
"""

from __future__ import annotations

import hashlib
import importlib
import math
import multiprocessing
import os
import random
import secrets
import signal
import struct
import sys
import threading
import time
import warnings
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..analysis.bots import Bot, RandomBot, check_bot, decide, make_bot
from ..analysis.stats import wilson
from ..engine.errors import SetupError, excerpt, one_line
from ..engine.game import Game
from ..engine.rules import MAX_SEATS, MIN_SEATS

BLOCK = 16
"""Games per seed block: the smallest unit of work (see the module docstring)."""

TASK_SECONDS = {"processes": 0.15, "dask": 0.5}
"""The work aimed at per task: far above the cost of handing a task to a local process
(well under a millisecond) or to a Dask worker (about a millisecond), small enough for a
lively progress bar and an even finish."""

INSTALL_DASK = "pip install 'tenleave_widget[distributed]'"

MAX_GAMES = 10**9
"""The most games one call plays (about a day of one core's work at the random bots'
speed): a bound that keeps every count an exact integer and every loop finite."""

WORKERS_PER_CORE = 4
"""``workers`` above the cores this process may use warns (more processes than cores
play no faster: the games are pure CPU work); above this many per core it is refused
(each process holds its own interpreter, tens of megabytes)."""


# ------------------------------------------------------------------ statistics
def mean_ci(xs: Sequence[float]) -> tuple[float, float, float]:
    """Mean with a normal-approximation 95% interval (sample standard deviation).

    >>> mean_ci([1, 2, 3])
    (2.0, 0.868..., 3.131...)
    """
    n = len(xs)
    return mean_ci_of_sums(n, sum(xs), sum(x * x for x in xs))


def mean_ci_of_sums(n: int, total: float, total_sq: float) -> tuple[float, float, float]:
    """:func:`mean_ci` from the count, the sum and the sum of squares (merged sums).

    >>> mean_ci_of_sums(3, 6, 14)
    (2.0, 0.868..., 3.131...)
    """
    if n == 0:
        return (math.nan, math.nan, math.nan)
    m = total / n
    if n < 2:
        return (m, m, m)
    # n*Σx² − (Σx)² is exact for the integer sums the simulation merges
    var = max(0.0, (n * total_sq - total * total) / (n * (n - 1)))
    h = 1.96 * math.sqrt(var / n)
    return (m, m - h, m + h)


@dataclass
class Sums:
    """The integer sums one task returns, merged in any order into the totals.

    ``diff[a][b]`` / ``diff_sq[a][b]`` (``a < b``) sum ``penalty[a] - penalty[b]`` and its
    square over the same games; ``fingerprint`` is the XOR of a 64-bit hash of each
    game's (number, penalties), so equal fingerprints mean the same games.
    """

    players: int
    games: int = 0
    total: list[int] = field(default_factory=list)
    total_sq: list[int] = field(default_factory=list)
    wins: list[int] = field(default_factory=list)
    diff: list[list[int]] = field(default_factory=list)
    diff_sq: list[list[int]] = field(default_factory=list)
    fingerprint: int = 0
    seconds: float = 0.0  # the task's own playing time (for sizing the next tasks)

    def __post_init__(self) -> None:
        n = self.players
        if not self.total:
            self.total, self.total_sq, self.wins = [0] * n, [0] * n, [0] * n
            self.diff = [[0] * n for _ in range(n)]
            self.diff_sq = [[0] * n for _ in range(n)]

    def add(self, number: int, pen: Sequence[int]) -> None:
        """Count one game (its number and its final penalties)."""
        n = self.players
        self.games += 1
        low = min(pen)
        total, total_sq, wins, diff, diff_sq = (
            self.total, self.total_sq, self.wins, self.diff, self.diff_sq
        )
        for a in range(n):
            p = pen[a]
            total[a] += p
            total_sq[a] += p * p
            if p == low:
                wins[a] += 1
            da, dsa = diff[a], diff_sq[a]
            for b in range(a + 1, n):
                d = p - pen[b]
                da[b] += d
                dsa[b] += d * d
        digest = hashlib.blake2b(struct.pack(f"<q{n}h", number, *pen), digest_size=8).digest()
        self.fingerprint ^= int.from_bytes(digest, "little")

    def merge(self, other: Sums) -> None:
        """Add another task's sums to these."""
        n = self.players
        self.games += other.games
        for a in range(n):
            self.total[a] += other.total[a]
            self.total_sq[a] += other.total_sq[a]
            self.wins[a] += other.wins[a]
            for b in range(a + 1, n):
                self.diff[a][b] += other.diff[a][b]
                self.diff_sq[a][b] += other.diff_sq[a][b]
        self.fingerprint ^= other.fingerprint
        self.seconds += other.seconds


@dataclass
class SeatStats:
    """One seat's results over the simulated games (from merged sums)."""

    bot: str
    games: int
    total: int  # the sum of the seat's final penalties
    total_sq: int
    wins: int  # games in which the seat is among the winners (a shared win counts)

    def mean_penalty(self) -> tuple[float, float, float]:
        """(mean, low, high): the mean penalty and its 95% confidence interval."""
        return mean_ci_of_sums(self.games, self.total, self.total_sq)

    def win_rate(self) -> tuple[float, float, float]:
        """(rate, low, high): the share of games won (shared wins count) with a 95% Wilson
        interval."""
        return wilson(self.wins, self.games)


@dataclass
class Stats:
    """The results of :func:`simulate`.

    ``seed`` reproduces the run (the one given, or the fresh entropy drawn when none was);
    ``backend`` is ``"serial"``, ``"processes"`` or ``"dask"`` and ``workers`` how many ran
    the games (the Dask cluster's threads); ``seconds`` is the whole run's wall-clock time.
    """

    players: int
    games: int
    seconds: float
    seats: list[SeatStats]
    seed: int = 0
    rotate_first: bool = False
    backend: str = "serial"
    workers: int = 1
    sums: Sums | None = None

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else float("inf")

    @property
    def fingerprint(self) -> str:
        """16 hex digits that identify the games played (see :class:`Sums`)."""
        return f"{self.sums.fingerprint:016x}" if self.sums is not None else ""

    def paired_difference(self, a: int, b: int) -> tuple[float, float, float]:
        """(mean, low, high): the mean of seat ``a``'s penalty minus seat ``b``'s over the
        same games, with its 95% interval (negative: ``a`` does better)."""
        if self.sums is None or a == b or not (0 <= a < self.players and 0 <= b < self.players):
            raise SetupError(f"no paired difference between seats {a} and {b}")
        lo_seat, hi_seat = min(a, b), max(a, b)
        total = self.sums.diff[lo_seat][hi_seat]
        m, lo, hi = mean_ci_of_sums(self.games, total, self.sums.diff_sq[lo_seat][hi_seat])
        return (m, lo, hi) if a < b else (-m, -hi, -lo)

    def to_json(self) -> dict[str, Any]:
        """Per seat: mean penalty, win rate and, in ``vs``, one paired difference per other
        seat (``{"seat": b, "mean_difference": ..., "ci95": [lo, hi]}``, this seat's penalty
        minus seat b's)."""
        out = []
        for i, s in enumerate(self.seats):
            m, lo, hi = s.mean_penalty()
            w, wlo, whi = s.win_rate()
            vs = []
            for j in range(self.players):
                if j != i:
                    d, dlo, dhi = self.paired_difference(i, j)
                    vs.append({"seat": j, "mean_difference": d, "ci95": [dlo, dhi]})
            out.append({
                "seat": i, "bot": s.bot,
                "mean_penalty": m, "mean_penalty_ci95": [lo, hi],
                "win_rate": w, "win_rate_ci95": [wlo, whi],
                "vs": vs,
            })
        return {
            "players": self.players, "games": self.games, "seed": self.seed,
            "rotate_first": self.rotate_first, "fingerprint": self.fingerprint,
            "backend": self.backend, "workers": self.workers,
            "seconds": self.seconds, "games_per_second": self.games_per_second,
            "seats": out,
        }

    def table(self) -> str:
        """A plain-text report: per seat, then the paired differences (row − column)."""
        lines = [
            f"{self.games} games, {self.players} seats, seed {self.seed}"
            f"{', first seat rotating' if self.rotate_first else ''}; "
            f"{self.games_per_second:,.0f} games/s on {self._where()}",
            f"{'seat':>4}  {'bot':<9} {'mean penalty (95% CI)':<26} {'win rate (95% CI)':<22}",
        ]
        for i, s in enumerate(self.seats):
            m, lo, hi = s.mean_penalty()
            w, wlo, whi = s.win_rate()
            lines.append(
                f"{i:>4}  {s.bot:<9} {m:6.2f} [{lo:6.2f}, {hi:6.2f}]      "
                f"{w:5.1%} [{wlo:5.1%}, {whi:5.1%}]"
            )
        lines.append("paired differences, row seat's penalty minus column seat's "
                     "(mean [95% CI]; negative: the row seat does better)")
        lines.append("    " + "".join(f"{'vs seat ' + str(j):>24}" for j in range(self.players)))
        for i in range(self.players):
            cells = []
            for j in range(self.players):
                if i == j:
                    cells.append(f"{'—':>24}")
                else:
                    d, lo, hi = self.paired_difference(i, j)
                    cells.append(f"{f'{d:+.2f} [{lo:+.2f}, {hi:+.2f}]':>24}")
            lines.append(f"{i:>4}" + "".join(cells))
        return "\n".join(lines)

    def _where(self) -> str:
        if self.backend == "serial":
            return "1 process"
        if self.backend == "processes":
            return f"{self.workers} local processes"
        return f"a Dask cluster ({self.workers} threads)"


# ------------------------------------------------------------------ playing games
def play_game(n: int, bots: Sequence[Bot], seed: int | None = None, first: int = 0) -> Game:
    """Self-play one complete game with one bot per seat (see :func:`bots.decide`)."""
    g = Game(n, seed=seed, first=first)
    push = g.push
    # the random bot's fast path: Game.random_turn draws what RandomBot.choose would
    fast = [b.rng if type(b) is RandomBot else None for b in bots]
    seat = g.to_move
    while seat is not None:  # push returns the next seat: no attribute read per turn
        rng = fast[seat]
        seat = push(g.random_turn(rng) if rng is not None else decide(bots[seat], g))
    return g


@dataclass(frozen=True)
class Plan:
    """What to play: everything a task needs besides its block numbers (small, picklable)."""

    players: int
    games: int
    seed: int
    bots: tuple[str, ...]
    rotate_first: bool


def _block_games(plan: Plan, block: int) -> Iterator[tuple[int, Game]]:
    """The games of seed block ``block``, in order, as (number, finished game)."""
    master = random.Random(f"{plan.seed}/{block}")
    seat_bots = [make_bot(b, master.randrange(2**32)) for b in plan.bots]
    n = plan.players
    for number in range(block * BLOCK, min((block + 1) * BLOCK, plan.games)):
        first = number % n if plan.rotate_first else 0
        yield number, play_game(n, seat_bots, seed=master.randrange(2**32), first=first)


def play_blocks(
    plan: Plan, start: int, stop: int, on_game: Callable[[], None] | None = None
) -> Sums:
    """Play seed blocks ``start`` … ``stop - 1`` and return their sums (a task)."""
    t0 = time.perf_counter()
    sums = Sums(plan.players)
    for block in range(start, stop):
        for number, g in _block_games(plan, block):
            sums.add(number, g.penalty)
            if on_game is not None:
                on_game()
    sums.seconds = time.perf_counter() - t0
    return sums


def simulated_game(
    players: int,
    number: int,
    *,
    seed: int,
    bots: Sequence[str] | None = None,
    rotate_first: bool = False,
) -> Game:
    """Game ``number`` of ``simulate(players, ..., seed=seed, bots=bots, ...)``, replayed
    (for a closer look, e.g. in the widget).

    >>> g = simulated_game(3, 5, seed=1)
    >>> g.finished, g.penalty == simulated_game(3, 5, seed=1).penalty
    (True, True)
    """
    if type(number) is not int or not 0 <= number < MAX_GAMES:
        raise SetupError(f"games are numbered from 0 to {MAX_GAMES - 1}, not {excerpt(number)}")
    names = _check(players, number + 1, bots)
    plan = Plan(players, number + 1, seed, tuple(names), rotate_first)
    for n, g in _block_games(plan, number // BLOCK):
        if n == number:
            return g
    raise AssertionError("unreachable")  # pragma: no cover


def _count(name: str, value: object, high: int, low: int = 1) -> int:
    """``value`` if it is an integer ``low..high`` (not a bool, a float or infinity),
    else a :class:`SetupError` naming the argument.

    >>> _count("games", float("inf"), MAX_GAMES)
    Traceback (most recent call last):
    ...
    tenleave_widget.engine.errors.SetupError: games must be a whole number 1..1000000000, not inf
    """
    if type(value) is not int or not low <= value <= high:
        raise SetupError(f"{name} must be a whole number {low}..{high}, not {excerpt(value)}")
    return value


def _check(players: object, games: object, bots: Sequence[str] | None) -> list[str]:
    if type(players) is not int or not MIN_SEATS <= players <= MAX_SEATS:
        raise SetupError(
            f"a game has {MIN_SEATS} to {MAX_SEATS} seats, not {excerpt(players)}"
        )
    _count("games", games, MAX_GAMES)
    if bots is not None and (
        isinstance(bots, (str, bytes)) or not isinstance(bots, Sequence)
        or not all(isinstance(b, str) for b in bots)
    ):
        raise SetupError(f"bots must be a list of bot names, not {excerpt(bots)}")
    names = list(bots) if bots is not None else ["random"] * players
    if len(names) != players:
        raise SetupError(f"{players} seats need {players} bots, not {len(names)}")
    for b in names:
        check_bot(b)
    return names


def check_workers(workers: object) -> int:
    """``workers`` checked: a whole number from 1 to :data:`WORKERS_PER_CORE` per core
    (:func:`local_cores`), with a ``RuntimeWarning`` above the core count.

    >>> check_workers(1)
    1
    >>> check_workers(1.5)
    Traceback (most recent call last):
    ...
    tenleave_widget.engine.errors.SetupError: workers must be a whole number 1..., not 1.5 (...)
    """
    cores = local_cores()
    if type(workers) is not int or not 1 <= workers <= WORKERS_PER_CORE * cores:
        raise SetupError(
            f"workers must be a whole number 1..{WORKERS_PER_CORE * cores}, not "
            f"{excerpt(workers)} (at most {WORKERS_PER_CORE} per core; {cores} here)"
        )
    n = workers
    if n > cores:
        warnings.warn(
            f"{n} workers on {cores} cores: more processes than cores play no faster",
            RuntimeWarning, stacklevel=3,
        )
    return n


# ------------------------------------------------------------------ backends
def check_where(workers: object, scheduler: str | None, client: Any) -> int | None:
    """Where the work runs, checked: ``workers`` local processes (:func:`check_workers`)
    or a Dask cluster (``scheduler`` or ``client``), never both (shared with the batch
    review). The workers, or ``None`` for the default."""
    if (scheduler is not None or client is not None) and workers is not None:
        raise SetupError("workers= sets local processes; a Dask cluster has its own "
                         "workers (give either workers or scheduler/client)")
    if scheduler is not None and client is not None:
        raise SetupError("give either scheduler= or client=, not both")
    return None if workers is None else check_workers(workers)


def local_cores() -> int:
    """The cores this process may run on (``--workers`` default)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


class _Tasks:
    """Hands out runs of seed blocks, sized from the measured cost of a game."""

    def __init__(self, blocks: int, slots: int, target: float) -> None:
        self.next, self.blocks, self.slots, self.target = 0, blocks, slots, target
        self.seconds, self.games = 0.0, 0

    def done(self, sums: Sums) -> None:
        self.seconds += sums.seconds
        self.games += sums.games

    def take(self) -> tuple[int, int] | None:
        if self.next >= self.blocks:
            return None
        left = self.blocks - self.next
        if self.games == 0:
            size = 1  # a probe: the cost of a game is not known yet
        else:
            per_block = self.seconds / self.games * BLOCK
            size = max(1, int(self.target / max(per_block, 1e-9)))
            size = min(size, max(1, math.ceil(left / (2 * self.slots))))  # an even finish
        start = self.next
        self.next = min(self.blocks, start + size)
        return start, self.next


_STOPS = {signal.SIGINT, signal.SIGTERM}


def _quiet_worker() -> None:
    """A worker's signals: Ctrl-C reaches the whole process group (a terminal, a Jupyter
    interrupt) and the parent alone handles it (it stops the workers), so a worker ignores
    SIGINT and prints no traceback; SIGTERM (the parent stopping it, or a SIGTERM to the
    whole group) ends it at once, silently — the default action, not a handler a forked
    worker inherited from the parent."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _STOPS)


@dataclass
class _Failed:
    """A task's exception, sent back to the parent (raised there)."""

    error: BaseException


def _worker(conn: Any, inherited: Sequence[Any] = ()) -> None:
    """A worker's loop: play the runs of seed blocks it is sent until told to stop (None)
    or until the parent is gone (its end of the pipe closed: ``inherited``, the parent's
    ends a forked worker holds copies of, are closed first, or they would keep the pipe
    open after the parent died)."""
    _quiet_worker()
    for other in inherited:
        other.close()
    while True:
        try:
            task = conn.recv()
        except (EOFError, OSError):  # the parent is gone
            return
        if task is None:
            return
        try:
            fn, args = task  # play_blocks, or another module's unit of work
            result: Any = fn(*args)
        except Exception as e:
            result = _Failed(e)
        try:
            try:
                conn.send(result)
            except Exception as e:  # an exception that does not pickle
                if isinstance(e, OSError):
                    raise
                conn.send(_Failed(RuntimeError(f"{type(result).__name__}: {result}")))
        except OSError:  # the parent is gone: nothing to tell
            return


def _pool_context() -> multiprocessing.context.BaseContext:
    """``fork`` (starts in milliseconds) where it is safe: Linux, no other Python thread
    running (the command line, scripts); ``forkserver`` in a process with threads (a
    Jupyter kernel); ``spawn`` elsewhere (macOS, Windows)."""
    if sys.platform.startswith("linux"):
        if threading.active_count() == 1:
            return multiprocessing.get_context("fork")
        ctx = multiprocessing.get_context("forkserver")
        ctx.set_forkserver_preload([__name__])
        return ctx
    return multiprocessing.get_context("spawn")


class _Workers:
    """Local worker processes, each with a pipe of its own.

    No lock or queue is shared between them (as in ``multiprocessing.Pool``, where a
    worker killed while waiting for a task holds the shared queue's lock, and stopping
    the pool then waits forever): any worker can be stopped at any moment, and
    :meth:`stop` ends them all at once.
    """

    def __init__(self, ctx: multiprocessing.context.BaseContext, workers: int) -> None:
        self.procs: list[Any] = []
        self.conns: list[Any] = []
        forked = ctx.get_start_method() == "fork"
        for _ in range(workers):
            mine, theirs = ctx.Pipe()
            inherited = [*self.conns, mine] if forked else []
            proc: Any = ctx.Process(  # type: ignore[attr-defined]
                target=_worker, args=(theirs, inherited), daemon=True
            )
            self.procs.append(proc)
            self.conns.append(mine)
            proc.start()
            theirs.close()

    def stop(self, now: bool) -> None:
        """Stop every worker: at once (SIGKILL: an error, Ctrl-C, SIGTERM) or, when the
        work is done, by telling each to stop (then SIGKILL after a second)."""
        if not now:
            for conn in self.conns:
                try:
                    conn.send(None)
                except OSError:
                    pass
        deadline = time.monotonic() + (0 if now else 1.0)
        for proc in self.procs:
            if proc.pid is None:
                continue
            proc.join(max(0.0, deadline - time.monotonic()))
            if proc.exitcode is None:
                proc.kill()
                proc.join()
        for conn in self.conns:
            conn.close()


def _start_pool(workers: int) -> _Workers:
    """``workers`` worker processes that ignore Ctrl-C.

    Started before any progress bar (tqdm runs a monitor thread, and fork is only safe
    without other threads), with SIGINT and SIGTERM blocked meanwhile: the processes
    started now (the workers, a fork server, multiprocessing's resource tracker) inherit
    the block until their signals are set, so a Ctrl-C or a SIGTERM during start-up
    reaches the parent alone, once every worker exists — and the parent stops them.
    """
    mask = hasattr(signal, "pthread_sigmask") and threading.current_thread() is \
        threading.main_thread()
    if mask:
        signal.pthread_sigmask(signal.SIG_BLOCK, _STOPS)
    pool = None
    try:
        pool = _Workers(_pool_context(), workers)
    finally:
        try:
            if mask:  # a signal that came meanwhile is handled here
                signal.pthread_sigmask(signal.SIG_UNBLOCK, _STOPS)
        except BaseException:
            if pool is not None:
                pool.stop(now=True)
            raise
    return pool


def _run_processes(pool: _Workers, plan: Plan, report: Callable[[Sums], None]) -> None:
    """Hand runs of seed blocks to the workers (two in flight each) until all are played."""
    from multiprocessing.connection import wait

    blocks = math.ceil(plan.games / BLOCK)
    tasks = _Tasks(blocks, len(pool.conns), TASK_SECONDS["processes"])
    pending = dict.fromkeys(range(len(pool.conns)), 0)
    index = {id(c): i for i, c in enumerate(pool.conns)}

    def submit(i: int) -> None:
        run = tasks.take()
        if run is not None:
            pool.conns[i].send((play_blocks, (plan, *run)))
            pending[i] += 1

    for _ in range(2):
        for i in pending:
            submit(i)
    while any(pending.values()):
        for ready in wait([pool.conns[i] for i, n in pending.items() if n]):
            i = index[id(ready)]
            try:
                got: Sums | _Failed = pool.conns[i].recv()
            except (EOFError, OSError):
                code = pool.procs[i].exitcode
                raise RuntimeError(
                    f"a worker process stopped before it finished (exit status {code})"
                ) from None
            pending[i] -= 1
            if isinstance(got, _Failed):
                raise got.error
            tasks.done(got)
            report(got)
            submit(i)


def dask_client(scheduler: str) -> Any:
    """A ``distributed.Client`` connected to ``scheduler`` (a clear error without Dask)."""
    try:
        distributed: Any = importlib.import_module("distributed")  # optional, untyped here
    except ImportError:
        raise SetupError(
            f"a Dask scheduler needs the optional Dask extra: {INSTALL_DASK}"
        ) from None
    if isinstance(scheduler, str) and scheduler.startswith("inproc://"):
        raise SetupError(
            f"{excerpt(scheduler)} is an in-process address, which another process cannot "
            "reach: give the address of a scheduler, such as tcp://host:8786"
        )
    if not isinstance(scheduler, str) or not scheduler.strip():
        raise SetupError(
            f"scheduler must be an address such as tcp://host:8786, not {excerpt(scheduler)}"
        )
    try:
        return distributed.Client(scheduler, timeout="10s")
    except Exception as e:  # OSError, TimeoutError, or ValueError for a malformed address
        raise SetupError(
            f"cannot reach the Dask scheduler at {excerpt(scheduler)}: "
            f"{one_line(str(e) or type(e).__name__, 100)} "
            "(give an address such as tcp://host:8786)"
        ) from None


def _run_dask(plan: Plan, client: Any, report: Callable[[Sums], None]) -> int:
    as_completed: Any = importlib.import_module("distributed").as_completed
    slots = max(1, int(sum(client.nthreads().values())))
    blocks = math.ceil(plan.games / BLOCK)
    tasks = _Tasks(blocks, slots, TASK_SECONDS["dask"])
    running: set[Any] = set()
    done = as_completed()

    def submit() -> None:
        run = tasks.take()
        if run is not None:
            f = client.submit(play_blocks, plan, *run, pure=False)
            running.add(f)
            done.add(f)

    try:
        for _ in range(2 * slots):
            submit()
        for f in done:
            running.discard(f)
            got = f.result()
            f.release()
            tasks.done(got)
            report(got)
            submit()
    finally:
        if running:  # an error or Ctrl-C: nothing is left running on the cluster
            client.cancel(list(running), force=True)
    return slots


# ------------------------------------------------------------------ simulate
def simulate(
    players: int,
    games: int,
    *,
    seed: int | None = None,
    bots: Sequence[str] | None = None,
    rotate_first: bool = False,
    progress: bool | Callable[[int], None] = False,
    workers: int | None = None,
    scheduler: str | None = None,
    client: Any = None,
) -> Stats:
    """Self-play ``games`` complete games and gather per-seat statistics.

    ``bots`` names one bot per seat (default: all random). With ``rotate_first`` the
    first seat moves round the table game by game (to cancel out a first-seat advantage);
    by default seat 0 always starts. ``progress`` shows a progress bar (tqdm; the notebook
    bar in Jupyter) or calls a function with the number of games done.

    Where the games run: ``workers`` local processes (default: every core this process
    may use; ``1`` plays in this process), or a Dask cluster — ``scheduler`` an address
    such as ``"tcp://host:8786"`` or ``client`` a ``distributed.Client`` (install with
    ``pip install 'tenleave_widget[distributed]'``; the cluster's workers need
    tenleave_widget installed too). The results are the same, game for game, whatever
    runs them. Ctrl-C (or stopping the cell) cancels the work and stops the processes.
    """
    names = _check(players, games, bots)
    workers = check_where(workers, scheduler, client)
    if seed is None:
        seed = secrets.randbits(128)  # fresh entropy, reported in Stats.seed
    plan = Plan(players, games, seed, tuple(names), rotate_first)
    total = Sums(players)
    t0 = time.perf_counter()
    own_client = pool = None
    if scheduler is not None:
        client = own_client = dask_client(scheduler)
    used = 1 if client is not None else min(workers or local_cores(), math.ceil(games / BLOCK))
    if used > 1:
        pool = _start_pool(used)  # before the bar's thread
    bar: Any = None
    finished = False

    def report(sums: Sums) -> None:
        total.merge(sums)
        if bar is not None:
            bar.update(sums.games)
        elif callable(progress):
            progress(total.games)

    try:
        if progress is True:
            from tqdm.auto import tqdm

            bar = tqdm(total=games, unit="game")
        if client is not None:
            backend, used = "dask", _run_dask(plan, client, report)
        else:
            if pool is not None:
                backend = "processes"
                _run_processes(pool, plan, report)
            else:
                backend, used = "serial", 1
                one = Sums(players)

                def tick() -> None:
                    one.games += 1  # counted for the bar only; the sums come at the end
                    if bar is not None:
                        bar.update(1)
                    elif callable(progress):
                        progress(one.games)

                ticking = bar is not None or callable(progress)
                played = play_blocks(plan, 0, math.ceil(games / BLOCK),
                                     tick if ticking else None)
                total.merge(played)
        finished = True
    finally:
        if pool is not None:  # done, an error, Ctrl-C or SIGTERM: no process is left
            pool.stop(now=not finished)
        if bar is not None:
            bar.close()
        if own_client is not None:
            own_client.close()
    dt = time.perf_counter() - t0
    seats = [
        SeatStats(b, total.games, total.total[i], total.total_sq[i], total.wins[i])
        for i, b in enumerate(names)
    ]
    return Stats(players, games, dt, seats, seed=seed, rotate_first=rotate_first,
                 backend=backend, workers=used, sums=total)
