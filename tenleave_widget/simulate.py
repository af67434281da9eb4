"""Self-play and statistics: mean penalty and win rate per seat with 95% intervals.

>>> s = simulate(3, 20, seed=1, bots=["random", "random", "random"])
>>> s.games, len(s.seats)
(20, 3)
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from .bots import BOT_NAMES, make_bot
from .errors import SetupError, excerpt
from .game import Game


@dataclass
class SeatStats:
    """One seat's results over the simulated games."""

    bot: str
    penalties: list[int] = field(default_factory=list)
    wins: int = 0  # games in which the seat is among the winners (a shared win counts)

    def mean_penalty(self) -> tuple[float, float, float]:
        """(mean, low, high): the mean penalty and its 95% confidence interval."""
        return mean_ci(self.penalties)

    def win_rate(self) -> tuple[float, float, float]:
        """(rate, low, high): the share of games won (shared wins count) with a 95% Wilson
        interval."""
        return wilson(self.wins, len(self.penalties))


@dataclass
class Stats:
    players: int
    games: int
    seconds: float
    seats: list[SeatStats]

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else float("inf")

    def to_json(self) -> dict[str, Any]:
        out = []
        for i, s in enumerate(self.seats):
            m, lo, hi = s.mean_penalty()
            w, wlo, whi = s.win_rate()
            out.append({
                "seat": i, "bot": s.bot,
                "mean_penalty": m, "mean_penalty_ci95": [lo, hi],
                "win_rate": w, "win_rate_ci95": [wlo, whi],
            })
        return {
            "players": self.players, "games": self.games, "seconds": self.seconds,
            "games_per_second": self.games_per_second, "seats": out,
        }

    def table(self) -> str:
        """A plain-text table."""
        lines = [
            f"{self.games} games, {self.players} seats, "
            f"{self.games_per_second:,.0f} games/s",
            f"{'seat':>4}  {'bot':<7} {'mean penalty (95% CI)':<26} {'win rate (95% CI)':<22}",
        ]
        for i, s in enumerate(self.seats):
            m, lo, hi = s.mean_penalty()
            w, wlo, whi = s.win_rate()
            lines.append(
                f"{i:>4}  {s.bot:<7} {m:6.2f} [{lo:6.2f}, {hi:6.2f}]      "
                f"{w:5.1%} [{wlo:5.1%}, {whi:5.1%}]"
            )
        return "\n".join(lines)


def mean_ci(xs: Sequence[float]) -> tuple[float, float, float]:
    """Mean with a normal-approximation 95% interval (sample standard deviation)."""
    n = len(xs)
    if n == 0:
        return (math.nan, math.nan, math.nan)
    m = sum(xs) / n
    if n < 2:
        return (m, m, m)
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1))
    h = 1.96 * sd / math.sqrt(n)
    return (m, m - h, m + h)


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float, float]:
    """A proportion with its Wilson score 95% interval."""
    if n == 0:
        return (math.nan, math.nan, math.nan)
    p = k / n
    den = 1 + z * z / n
    c = (p + z * z / (2 * n)) / den
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return (p, max(0.0, c - h), min(1.0, c + h))


def play_game(n: int, bots: Sequence[Any], seed: int | None = None, first: int = 0) -> Game:
    """Self-play one complete game with one bot per seat."""
    g = Game(n, seed=seed, first=first)
    push = g.push_legal
    while not g._finished:  # the attribute, not the property: one call less per turn
        push(bots[g._to_move].choose(g))
    return g


def simulate(
    players: int,
    games: int,
    *,
    seed: int | None = None,
    bots: Sequence[str] | None = None,
    rotate_first: bool = False,
    progress: bool | Callable[[int], None] = False,
) -> Stats:
    """Self-play ``games`` complete games and gather per-seat statistics.

    ``bots`` names one bot per seat (default: all random). With ``rotate_first`` the
    first seat moves round the table game by game (to cancel out a first-seat advantage);
    by default seat 0 always starts. ``progress`` shows a tqdm bar (or calls a function
    with the number of games done).
    """
    names = list(bots) if bots is not None else ["random"] * players
    if len(names) != players:
        raise SetupError(f"{players} seats need {players} bots, not {len(names)}")
    for b in names:
        if b not in BOT_NAMES:
            raise SetupError(f"unknown bot {excerpt(b)} (choose from {', '.join(BOT_NAMES)})")
    master = random.Random(seed)
    seat_bots = [make_bot(b, master.randrange(2**32)) for b in names]
    stats = [SeatStats(b) for b in names]
    bar: Any = None
    if progress is True:
        from tqdm.auto import tqdm

        bar = tqdm(total=games, unit="game")
    t0 = time.perf_counter()
    for i in range(games):
        first = i % players if rotate_first else 0
        g = play_game(players, seat_bots, seed=master.randrange(2**32), first=first)
        pen = g._penalty
        low = min(pen)
        for s in range(players):
            stats[s].penalties.append(pen[s])
            if pen[s] == low:
                stats[s].wins += 1
        if bar is not None:
            bar.update(1)
        elif callable(progress):
            progress(i + 1)
    dt = time.perf_counter() - t0
    if bar is not None:
        bar.close()
    return Stats(players, games, dt, stats)
