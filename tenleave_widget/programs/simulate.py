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
import math
import random
import secrets
import struct
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..analysis.bots import Bot, RandomBot, check_bot, decide, make_bot
from ..analysis.stats import wilson
from ..engine.errors import SetupError, excerpt
from ..engine.game import Game
from ..engine.rules import MAX_SEATS, MIN_SEATS
from .pool import Runner, Task

BLOCK = 16
"""Games per seed block: the smallest unit of work (see the module docstring)."""

TASK_SECONDS = {"processes": 0.15, "dask": 0.5}
"""The work aimed at per task: far above the cost of handing a task to a local process
(well under a millisecond) or to a Dask worker (about a millisecond), small enough for a
lively progress bar and an even finish."""

MAX_GAMES = 10**9
"""The most games one call plays (about a day of one core's work at the random bots'
speed): a bound that keeps every count an exact integer and every loop finite."""


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


# ------------------------------------------------------------------ backends
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
    if seed is None:
        seed = secrets.randbits(128)  # fresh entropy, reported in Stats.seed
    plan = Plan(players, games, seed, tuple(names), rotate_first)
    total = Sums(players)
    t0 = time.perf_counter()
    bar: Any = None
    blocks = math.ceil(games / BLOCK)

    def report(sums: Sums) -> None:
        total.merge(sums)
        if bar is not None:
            bar.update(sums.games)
        elif callable(progress):
            progress(total.games)

    with Runner(workers, scheduler, client, most=blocks, preload=[__name__]) as where:
        try:
            if progress is True:
                from tqdm.auto import tqdm

                bar = tqdm(total=games, unit="game")
            if where.backend != "serial":
                tasks = _Tasks(blocks, where.workers, TASK_SECONDS[where.backend])

                def source() -> Task | None:
                    run = tasks.take()
                    return None if run is None else (play_blocks, (plan, *run))

                def merge(sums: Sums) -> None:
                    tasks.done(sums)
                    report(sums)

                where.run(source, merge)
            else:
                one = Sums(players)

                def tick() -> None:
                    one.games += 1  # counted for the bar only; the sums come at the end
                    if bar is not None:
                        bar.update(1)
                    elif callable(progress):
                        progress(one.games)

                ticking = bar is not None or callable(progress)
                total.merge(play_blocks(plan, 0, blocks, tick if ticking else None))
        finally:
            if bar is not None:
                bar.close()
    dt = time.perf_counter() - t0
    seats = [
        SeatStats(b, total.games, total.total[i], total.total_sq[i], total.wins[i])
        for i, b in enumerate(names)
    ]
    return Stats(players, games, dt, seats, seed=seed, rotate_first=rotate_first,
                 backend=where.backend, workers=where.workers, sums=total)
