"""The reader bot against the default lookahead bot in the same seat, on the same deals.

Each game is played three times on the same deal (the same seed: the same hands, the same
Human Defense tokens), first seat rotating with the game number: seat 0 is the ``reader``,
then the default ``lookahead`` bot, then a *clairvoyant* lookahead seat (its worlds are the
true one: only the future tokens and the play-outs' random numbers are sampled — the upper
bound of what reading the cards can give). The other seats are the same bots with the same
seeds in all three. Reported: the mean paired difference in seat 0's final penalty,
lookahead minus reader (positive: the reader scores fewer points), and lookahead minus
clairvoyant, each with its 95% interval; the share of the clairvoyant headroom the reader
recovers; the reader's CPU time per decision (``time.process_time`` of the whole
decision, peeks and inference included: the median and the 99th percentile).

Run (games per opponent set; 2 worker processes; ``--every N`` prints a running estimate
every N games, and Ctrl-C or SIGTERM prints the figures of the games played so far)::

    nice python benchmarks/bench_reader.py --games 300 --seats 3 --workers 2

The machine it was measured on was shared with other agents (load 5-7 on 2 cores):
CPU times per decision are per process and hold under load; wall times do not.
"""

from __future__ import annotations

import argparse
import multiprocessing
import signal
import statistics
import sys
import time
from collections.abc import Mapping, Sequence
from typing import Any

from tenleave_widget.analysis.bots import Bot, Legal, LookaheadBot, ReaderBot, decide, make_bot
from tenleave_widget.analysis.infer import COSTS
from tenleave_widget.analysis.reader import dealer
from tenleave_widget.analysis.stats import mean_ci
from tenleave_widget.engine.game import Game
from tenleave_widget.engine.turn import Turn


class Clairvoyant(LookaheadBot):
    """A lookahead seat whose worlds are the true one (``truth``: every table card's value
    by key, set by the game loop before each decision). Benchmark only: it sees the game."""

    name = "clairvoyant"

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.truth: dict[int, int] = {}

    def _evaluate(self, view: Mapping[str, Any], **options: Any) -> Turn:
        truth = self.truth
        return super()._evaluate(view, deal=dealer(view, lambda rng: truth), **options)

    def choose(self, view: Mapping[str, Any], legal: Legal) -> Any:
        return super().choose(view, legal)


def _truth(g: Game) -> dict[int, int]:
    return {int(c["key"]): int(c["value"]) for q in g.view(None)["queues"] for c in q}


def play(n: int, game: int, kind: str, opponents: Sequence[str],
         cost: str | None = None) -> tuple[int, list[float]]:
    """Seat 0's final penalty in game ``game`` with ``kind`` in seat 0 (the reader reading
    by ``cost``, if given); the CPU seconds of each of seat 0's decisions."""
    first = game % n
    g = Game(n, seed=100_000 + game, first=first)
    seat0: Bot
    if kind == "clairvoyant":
        seat0 = Clairvoyant(7 * game + 1)
    elif cost is not None:
        seat0 = ReaderBot(7 * game + 1, cost=cost)
    else:
        seat0 = make_bot(kind, 7 * game + 1)
    bots = [seat0] + [make_bot(b, 7 * game + 2 + i) for i, b in enumerate(opponents)]
    times: list[float] = []
    while not g.finished:
        s = g.to_move
        assert s is not None
        if s == 0:
            if isinstance(seat0, Clairvoyant):
                seat0.truth = _truth(g)
            t0 = time.process_time()
            turn = decide(bots[0], g)
            times.append(time.process_time() - t0)
        else:
            turn = decide(bots[s], g)
        g.push(turn)
    return int(g.view(None)["penalty"][0]), times


Row = tuple[int, int, int, list[float], int | None, list[float]]
"""Seat 0's penalty with the reader, the lookahead bot, the clairvoyant; the reader's
CPU seconds per decision; the variant reader's penalty and CPU seconds (or None, [])."""


def _task(args: tuple[int, int, tuple[str, ...], str | None]) -> Row:
    n, game, opponents, variant = args
    r, times = play(n, game, "reader", opponents)
    la, _ = play(n, game, "lookahead", opponents)
    cv, _ = play(n, game, "clairvoyant", opponents)
    if variant is None:
        return r, la, cv, times, None, []
    v, vtimes = play(n, game, "reader", opponents, variant)
    return r, la, cv, times, v, vtimes


class _Serial:
    """The pool's ``imap`` in this process (``--workers 1``)."""

    def __enter__(self) -> _Serial:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def imap(self, f: Any, tasks: Sequence[Any], chunksize: int = 1) -> Any:
        return map(f, tasks)


def run(n: int, games: int, opponents: tuple[str, ...], workers: int,
        every: int = 0, variant: str | None = None) -> dict[str, Any]:
    """The figures of ``games`` games; ``every``: a running line on standard error every
    ``every`` games (0: none), so that a long run read half-way says where it stands;
    ``variant``: a fourth game per deal, the reader reading the players by that cost."""
    tasks = [(n, i, opponents, variant) for i in range(games)]
    t0 = time.perf_counter()
    rows: list[Row] = []
    with multiprocessing.get_context("fork").Pool(workers) if workers > 1 else _Serial() as pool:
        try:
            for row in pool.imap(_task, tasks, chunksize=1):
                rows.append(row)
                if every and len(rows) % every == 0:
                    g, lo, hi = mean_ci([row[1] - row[0] for row in rows])
                    h, hlo, hhi = mean_ci([row[1] - row[2] for row in rows])
                    more = ""
                    if variant is not None:
                        vg, vlo, vhi = mean_ci([row[1] - (row[4] or 0) for row in rows])
                        more = f"variant {vg:+.2f} [{vlo:+.2f}, {vhi:+.2f}], "
                    print(f"  {len(rows)} games: reader {g:+.2f} [{lo:+.2f}, {hi:+.2f}], "
                          f"{more}clairvoyant {h:+.2f} [{hlo:+.2f}, {hhi:+.2f}], "
                          f"{time.perf_counter() - t0:.0f} s", file=sys.stderr, flush=True)
        except KeyboardInterrupt:  # Ctrl-C (SIGINT): the figures of the games played so far
            if len(rows) < 2:
                raise
            print(f"  interrupted after {len(rows)} of {games} games", file=sys.stderr,
                  flush=True)
    games = len(rows)
    wall = time.perf_counter() - t0
    gain = [row[1] - row[0] for row in rows]
    head = [row[1] - row[2] for row in rows]
    times = sorted(t * 1000 for row in rows for t in row[3])
    g, glo, ghi = mean_ci(gain)
    h, hlo, hhi = mean_ci(head)
    extra: dict[str, Any] = {}
    if variant is not None:
        vtimes = sorted(t * 1000 for row in rows for t in row[5])
        extra = {"variant": variant,
                 "variant_gain": list(mean_ci([row[1] - (row[4] or 0) for row in rows])),
                 "variant_vs_reader": list(mean_ci([row[0] - (row[4] or 0) for row in rows])),
                 "variant_ms_median": statistics.median(vtimes),
                 "variant_ms_p99": vtimes[min(len(vtimes) - 1, int(0.99 * len(vtimes)))]}
    return {**extra,
        "seats": n, "opponents": list(opponents), "games": games,
        "reader_gain": [g, glo, ghi], "clairvoyant_gain": [h, hlo, hhi],
        "share": g / h if h else float("nan"),
        "reader_mean": statistics.fmean(row[0] for row in rows),
        "lookahead_mean": statistics.fmean(row[1] for row in rows),
        "decisions": len(times),
        "ms_median": statistics.median(times),
        "ms_p99": times[min(len(times) - 1, int(0.99 * len(times)))],
        "wall_s": wall,
    }


def _stop(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def main(argv: Sequence[str] | None = None) -> None:
    # a background run (SIGINT ignored) is stopped by SIGTERM: both end the run with the
    # figures of the games played so far
    signal.signal(signal.SIGINT, _stop)
    signal.signal(signal.SIGTERM, _stop)
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--seats", type=int, nargs="+", default=[3])
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--every", type=int, default=0,
                    help="a running estimate on standard error every N games")
    ap.add_argument("--opponents", nargs="+", default=None,
                    help="one opponent set, comma-separated (default: at 3 seats "
                         "lookahead,greedy and lookahead,lookahead; else all lookahead)")
    ap.add_argument("--variant", choices=COSTS, default=None,
                    help="also a reader reading the players by this cost (infer's), on the "
                         "same deals: its gain, and its difference from the default reader")
    a = ap.parse_args(argv)
    for n in a.seats:
        if a.opponents:
            sets = [tuple(o.split(",")) for o in a.opponents]
        elif n == 3:
            sets = [("lookahead", "greedy"), ("lookahead", "lookahead")]
        else:
            sets = [("lookahead",) * (n - 1)]
        for opp in sets:
            out = run(n, a.games, opp, a.workers, a.every, a.variant)
            h = out["clairvoyant_gain"][0]
            print(f"{n} seats vs {'+'.join(opp)}, {out['games']} games: reader better than "
                  f"lookahead by {_ci(out['reader_gain'])} points a game; clairvoyant "
                  f"{_ci(out['clairvoyant_gain'])}; share recovered {out['share']:.0%}; "
                  f"mean penalty reader {out['reader_mean']:.2f}, lookahead "
                  f"{out['lookahead_mean']:.2f}; reader CPU per decision median "
                  f"{out['ms_median']:.1f} ms, p99 {out['ms_p99']:.1f} ms "
                  f"({out['decisions']} decisions); wall {out['wall_s']:.0f} s",
                  flush=True)
            if a.variant is not None:
                v = out["variant_gain"][0]
                print(f"  reader reading by cost {a.variant}: better than lookahead by "
                      f"{_ci(out['variant_gain'])}; than the default reader by "
                      f"{_ci(out['variant_vs_reader'])}; share recovered "
                      f"{v / h if h else float('nan'):.0%}; CPU per decision median "
                      f"{out['variant_ms_median']:.1f} ms, p99 {out['variant_ms_p99']:.1f} ms",
                      flush=True)


def _ci(x: Sequence[float]) -> str:
    """A mean and its interval, ``(mean, low, high)``, as the report prints them."""
    return f"{x[0]:+.2f} [{x[1]:+.2f}, {x[2]:+.2f}]"

if __name__ == "__main__":
    main(sys.argv[1:])
