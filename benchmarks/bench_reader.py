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

Which part of the reader brings its gain (an ablation, on the same deals, paired: see
:data:`VARIANTS`; ``--rows`` keeps each game's penalties)::

    nice -n 19 python benchmarks/bench_reader.py --games 1000 --seats 3 --workers 1 \
        --every 10 --opponents lookahead,lookahead \
        --variant nopeek uniformworlds afteronly worlds192 --rows rows.jsonl

The machine it was measured on was shared with other agents (load 5-7 on 2 cores):
CPU times per decision are per process and hold under load; wall times do not.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import signal
import statistics
import sys
import time
from collections.abc import Sequence
from typing import Any

from tenleave_widget.analysis.bots import (
    PEEK_FIRST,
    ROTATIONS,
    Bot,
    Legal,
    LookaheadBot,
    ReaderBot,
    decide,
    make_bot,
)
from tenleave_widget.analysis.infer import COSTS
from tenleave_widget.analysis.lookahead import Budget
from tenleave_widget.analysis.reader import dealer
from tenleave_widget.analysis.stats import mean_ci
from tenleave_widget.engine.game import Game
from tenleave_widget.engine.turn import Turn
from tenleave_widget.engine.view import View


class Clairvoyant(LookaheadBot):
    """A lookahead seat whose worlds are the true one (``truth``: every table card's value
    by key, set by the game loop before each decision). Benchmark only: it sees the game."""

    name = "clairvoyant"

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.truth: dict[int, int] = {}

    def _evaluate(self, view: View, **options: Any) -> Turn:
        truth = self.truth
        return super()._evaluate(view, deal=dealer(view, lambda rng: truth), **options)

    def choose(self, view: View, legal: Legal) -> Any:
        return super().choose(view, legal)


VARIANTS: dict[str, dict[str, Any]] = {
    "nopeek": {"peeks": False, "rotations": False},
    "uniformworlds": {"beta": 0.0, "peek_first": False, "rotations": False},
    "afteronly": {"peek_gain": float("inf"), "peek_first": False, "rotations": False},
    "worlds192": {"budget": Budget(samples=192, prune=2.0), "peek_first": False,
                  "rotations": False},
    "peekafter": {"peek_first": False, "rotations": False},
    "peekfirst": {"peek_first": True, "rotations": False},
    "peek0": {"peek_gain": 0.0, "peek_first": False, "rotations": False},
    "peekfirstuniform": {"peek_first": True, "beta": 0.0, "rotations": False},
    "peekoutcome": {"peek_first": True, "peek_card": "outcome", "rotations": False},
    "peekdecision": {"peek_first": True, "peek_card": "decision", "rotations": False},
    "rotate": {"peek_first": True, "rotations": True},
    **{cost: {"cost": cost, "peek_first": False, "rotations": False} for cost in COSTS},
}
"""The reader's variants (``ReaderBot``'s options), each played as one more game per deal.
The variants measured before the reader peeked first by default (``PEEK_FIRST``) keep
``peek_first=False``, and every variant measured before it rotated (``ROTATIONS``) keeps
``rotations=False``, so that the README's earlier commands play the same bots:
``peekafter``, the reader of that time (its plain play, then the free peek after it);
``nopeek``, the posterior worlds without any peek (the ablation of the peeks);
``uniformworlds``, the peeks valued on the uniform model's worlds (beta 0: the ablation of
the reading); ``afteronly``, the posterior worlds and only the free peek after the play
(no peek valued before it); ``worlds192``, twice the worlds per decision (the bare choice
and the peek valuation from 192 worlds instead of 96); ``peekfirst``, a peek before every
plain play (the valued one when it is worth the threshold, else the card the reader would
peek after: ``ReaderBot(peek_first=True)``, now the default reader); ``peek0``, the
threshold of a valued peek at 0 points instead of 0.1; ``peekfirstuniform``,
``peekfirst`` on the uniform model's worlds; ``peekoutcome`` and ``peekdecision``,
``peekfirst`` peeking, when no peek is worth the threshold, the card whose value explains
the most of the best move's margin, or of its differences from the other plays, instead of
the card whose value spreads the most (``ReaderBot(peek_card=...)``); ``rotate``, the
default reader weighing rotations too (``ReaderBot(rotations=True)``: it rotates instead
of peeking when a rotating turn beats its best plain play by ``ROTATE_GAIN``); a cost of
``infer`` (``one-swat``, ``lookahead``, ``fitted``), the players read by that cost."""


def _truth(g: Game) -> dict[int, int]:
    out: dict[int, int] = {}
    for q in g.view(None)["queues"]:
        for c in q:
            assert c["value"] is not None  # the teacher's view (seat None) shows every value
            out[int(c["key"])] = int(c["value"])
    return out


def play(n: int, game: int, kind: str, opponents: Sequence[str],
         variant: str | None = None) -> tuple[int, list[float]]:
    """Seat 0's final penalty in game ``game`` with ``kind`` in seat 0 (the reader as
    ``variant`` of :data:`VARIANTS`, if given); the CPU seconds of each of seat 0's
    decisions."""
    first = game % n
    g = Game(n, seed=100_000 + game, first=first)
    seat0: Bot
    if kind == "clairvoyant":
        seat0 = Clairvoyant(7 * game + 1)
    elif variant is not None:
        seat0 = ReaderBot(7 * game + 1, **VARIANTS[variant])
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


Row = tuple[int, int, int, list[float], dict[str, tuple[int, list[float]]]]
"""Seat 0's penalty with the reader, the lookahead bot, the clairvoyant; the reader's
CPU seconds per decision; per variant, its penalty and CPU seconds per decision."""


def _task(args: tuple[int, int, tuple[str, ...], tuple[str, ...]]) -> Row:
    n, game, opponents, variants = args
    r, times = play(n, game, "reader", opponents)
    la, _ = play(n, game, "lookahead", opponents)
    cv, _ = play(n, game, "clairvoyant", opponents)
    return r, la, cv, times, {v: play(n, game, "reader", opponents, v) for v in variants}


class _Serial:
    """The pool's ``imap`` in this process (``--workers 1``)."""

    def __enter__(self) -> _Serial:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def imap(self, f: Any, tasks: Sequence[Any], chunksize: int = 1) -> Any:
        return map(f, tasks)


def _worker() -> None:
    """A worker process's start: the default SIGTERM (the pool ends its workers with it: the
    run's own handler, inherited, left a worker hanging at the end of a run) and SIGINT
    ignored (Ctrl-C is the main process's)."""
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _p99(xs: Sequence[float]) -> float:
    return xs[min(len(xs) - 1, int(0.99 * len(xs)))]


def _running(rows: Sequence[Row], variants: Sequence[str]) -> str:
    """The running line: each player's gain over the lookahead bot so far (a variant's
    also against the default reader)."""
    parts = [f"reader {_ci(mean_ci([r[1] - r[0] for r in rows]))}"]
    for v in variants:
        parts.append(f"{v} {_ci(mean_ci([r[1] - r[4][v][0] for r in rows]))} "
                     f"(- reader {_ci(mean_ci([r[0] - r[4][v][0] for r in rows]))})")
    parts.append(f"clairvoyant {_ci(mean_ci([r[1] - r[2] for r in rows]))}")
    return ", ".join(parts)


def run(n: int, games: int, opponents: tuple[str, ...], workers: int,
        every: int = 0, variants: Sequence[str] = (),
        rows_file: str | None = None, start: int = 0) -> dict[str, Any]:
    """The figures of ``games`` games; ``every``: a running line on standard error every
    ``every`` games (0: none), so that a long run read half-way says where it stands;
    ``variants``: names of :data:`VARIANTS`, each one more game per deal; ``rows_file``:
    each game's penalties appended to it as a JSON line; ``start``: the first deal's number
    (deal ``i`` is ``Game(n, seed=100_000 + i)``: another ``start``, other deals)."""
    tasks = [(n, i, opponents, tuple(variants)) for i in range(start, start + games)]
    t0 = time.perf_counter()
    rows: list[Row] = []
    out = open(rows_file, "a") if rows_file else None  # noqa: SIM115 (closed below)
    pool_of = multiprocessing.get_context("fork").Pool
    with pool_of(workers, _worker) if workers > 1 else _Serial() as pool:
        try:
            for i, row in enumerate(pool.imap(_task, tasks, chunksize=1)):
                rows.append(row)
                if out is not None:
                    print(json.dumps({"seats": n, "opponents": list(opponents),
                                      "game": start + i, "peek_first": PEEK_FIRST,
                                      "rotations": ROTATIONS,
                                      "reader": row[0], "lookahead": row[1],
                                      "clairvoyant": row[2],
                                      **{v: row[4][v][0] for v in variants}}),
                          file=out, flush=True)
                if every and len(rows) % every == 0:
                    print(f"  {len(rows)} games: {_running(rows, variants)}, "
                          f"{time.perf_counter() - t0:.0f} s", file=sys.stderr, flush=True)
        except KeyboardInterrupt:  # Ctrl-C (SIGINT): the figures of the games played so far
            if len(rows) < 2:
                raise
            print(f"  interrupted after {len(rows)} of {games} games", file=sys.stderr,
                  flush=True)
        finally:
            if out is not None:
                out.close()
    games = len(rows)
    wall = time.perf_counter() - t0
    gain = [row[1] - row[0] for row in rows]
    head = [row[1] - row[2] for row in rows]
    times = sorted(t * 1000 for row in rows for t in row[3])
    g, glo, ghi = mean_ci(gain)
    h, hlo, hhi = mean_ci(head)
    per_variant: dict[str, Any] = {}
    for v in variants:
        vtimes = sorted(t * 1000 for row in rows for t in row[4][v][1])
        per_variant[v] = {
            "gain": list(mean_ci([row[1] - row[4][v][0] for row in rows])),
            "vs_reader": list(mean_ci([row[0] - row[4][v][0] for row in rows])),
            "mean": statistics.fmean(row[4][v][0] for row in rows),
            "ms_median": statistics.median(vtimes), "ms_p99": _p99(vtimes)}
    return {
        "seats": n, "opponents": list(opponents), "games": games,
        "reader_gain": [g, glo, ghi], "clairvoyant_gain": [h, hlo, hhi],
        "share": g / h if h else float("nan"),
        "reader_mean": statistics.fmean(row[0] for row in rows),
        "lookahead_mean": statistics.fmean(row[1] for row in rows),
        "decisions": len(times),
        "ms_median": statistics.median(times),
        "ms_p99": _p99(times),
        "wall_s": wall,
        "variants": per_variant,
    }


def summarize(rows_file: str) -> list[str]:
    """The table of a ``--rows`` file, per seat count and opponent set: each player's mean
    penalty in seat 0, its paired gain over the lookahead bot and over the reader (positive:
    fewer points), its share of the clairvoyant's gain; and with ``nopeek`` and
    ``uniformworlds`` both played, the 2 x 2 of the two parts of the reader that peeks
    after its play (``peekafter``; in rows written before ``PEEK_FIRST``, which say no
    ``peek_first``, the ``reader`` itself) — the lookahead bot is the cell with neither:
    each part's gain averaged over the other part's two levels, per game, and their
    interaction."""
    groups: dict[tuple[int, tuple[str, ...]], list[dict[str, Any]]] = {}
    with open(rows_file) as f:
        for line in f:
            r = json.loads(line)
            groups.setdefault((r["seats"], tuple(r["opponents"])), []).append(r)
    out: list[str] = []
    for (n, opp), rows in groups.items():
        players = [k for k in rows[0]
                   if k not in ("seats", "opponents", "game", "peek_first", "rotations")]
        h = mean_ci([r["lookahead"] - r["clairvoyant"] for r in rows])[0]
        out.append(f"{n} seats vs {'+'.join(opp)}, {len(rows)} games (seat 0's penalty; "
                   "gains: paired, positive = fewer points)")
        out.append(f"  {'player':<16} {'mean':>6}  {'better than lookahead':<22}  "
                   f"{'better than reader':<22}  share of clairvoyant")
        for p in players:
            if p == "lookahead":
                out.append(f"  {p:<16} {statistics.fmean(r[p] for r in rows):6.2f}")
                continue
            gain = mean_ci([r["lookahead"] - r[p] for r in rows])
            vs = mean_ci([r["reader"] - r[p] for r in rows])
            out.append(f"  {p:<16} {statistics.fmean(r[p] for r in rows):6.2f}  "
                       f"{_ci(gain):<22}  {_ci(vs) if p != 'reader' else '':<22}  "
                       f"{gain[0] / h if h else float('nan'):.0%}")
        full = "reader" if not rows[0].get("peek_first", False) else "peekafter"
        if {"nopeek", "uniformworlds", full} <= set(players):
            peeks = mean_ci([(r["nopeek"] - r[full] + r["lookahead"] - r["uniformworlds"])
                             / 2 for r in rows])
            reading = mean_ci([(r["uniformworlds"] - r[full] + r["lookahead"]
                                - r["nopeek"]) / 2 for r in rows])
            # the reader's gain minus the gains of each part alone
            both = mean_ci([r["nopeek"] + r["uniformworlds"] - r[full] - r["lookahead"]
                            for r in rows])
            out.append(f"  the peeks' gain {_ci(peeks)}; the posterior worlds' {_ci(reading)}; "
                       f"their interaction {_ci(both)}")
    return out


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
    ap.add_argument("--variant", nargs="+", choices=tuple(VARIANTS), default=[],
                    help="also these readers (one more game each per deal; see VARIANTS): "
                         "each one's gain, and its difference from the default reader")
    ap.add_argument("--start", type=int, default=0,
                    help="the first deal's number (default 0: deals 0, 1, ...; another "
                         "start plays fresh deals, e.g. to confirm a choice made on others)")
    ap.add_argument("--rows", default=None,
                    help="append each game's penalties to this file, one JSON line a game")
    ap.add_argument("--from-rows", default=None, metavar="FILE",
                    help="play nothing: print the table of a --rows file")
    a = ap.parse_args(argv)
    if a.from_rows is not None:
        print("\n".join(summarize(a.from_rows)))
        return
    for n in a.seats:
        if a.opponents:
            sets = [tuple(o.split(",")) for o in a.opponents]
        elif n == 3:
            sets = [("lookahead", "greedy"), ("lookahead", "lookahead")]
        else:
            sets = [("lookahead",) * (n - 1)]
        for opp in sets:
            out = run(n, a.games, opp, a.workers, a.every, a.variant, a.rows, a.start)
            h = out["clairvoyant_gain"][0]
            print(f"{n} seats vs {'+'.join(opp)}, {out['games']} games: reader better than "
                  f"lookahead by {_ci(out['reader_gain'])} points a game; clairvoyant "
                  f"{_ci(out['clairvoyant_gain'])}; share recovered {out['share']:.0%}; "
                  f"mean penalty reader {out['reader_mean']:.2f}, lookahead "
                  f"{out['lookahead_mean']:.2f}; reader CPU per decision median "
                  f"{out['ms_median']:.1f} ms, p99 {out['ms_p99']:.1f} ms "
                  f"({out['decisions']} decisions); wall {out['wall_s']:.0f} s",
                  flush=True)
            for v, f in out["variants"].items():
                print(f"  reader {v}: better than lookahead by {_ci(f['gain'])}; than the "
                      f"default reader by {_ci(f['vs_reader'])}; share recovered "
                      f"{f['gain'][0] / h if h else float('nan'):.0%}; mean penalty "
                      f"{f['mean']:.2f}; CPU per decision median {f['ms_median']:.1f} ms, "
                      f"p99 {f['ms_p99']:.1f} ms", flush=True)


def _ci(x: Sequence[float]) -> str:
    """A mean and its interval, ``(mean, low, high)``, as the report prints them."""
    return f"{x[0]:+.2f} [{x[1]:+.2f}, {x[2]:+.2f}]"

if __name__ == "__main__":
    main(sys.argv[1:])
