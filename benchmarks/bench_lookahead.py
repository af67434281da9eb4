"""Benchmarks of the lookahead evaluation and bot (issue 9): strength and speed.

Strength (paired, per game), e.g. the headline aim::

    nice -n 10 python3 benchmarks/bench_lookahead.py strength --players 3 --games 2000

One ``lookahead`` bot in seat 0 against ``--opponent`` bots (default greedy) in the other
seats, the first seat rotating game by game. For each other seat j, the mean over games
of (j's penalty - the lookahead seat's penalty) with a 95% interval: positive means the
lookahead bot scores that many points fewer than j in the same games (and against the
mean of the other seats, ``vs_mean_of_others``). Also its win rate
(shared wins count) with a Wilson interval. ``--opponent lookahead`` is self-play: then
the first-seat advantage is reported (the first seat's penalty minus the mean of the
others', same games). Each decision of the lookahead seat is timed (CPU time of the
process: ``time.process_time``), so the run also gives the per-decision median / p99 /
worst over the decisions of whole games.

Runs on different seeds are pooled from their per-game logs (``--log``)::

    python3 benchmarks/bench_lookahead.py summarize run1.jsonl run2.jsonl

Speed, one position at a fixed sample count, against the naive reference (deep-copying
the game per world and per move, playing the same policy through ``Game.apply``)::

    nice -n 10 python3 benchmarks/bench_lookahead.py naive --samples 16
"""

from __future__ import annotations

import argparse
import copy
import json
import math
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tenleave_widget.analysis.bots import BOT_BUDGET, LookaheadBot, bot_budget, decide, make_bot  # noqa: E402
from tenleave_widget.analysis.lookahead import Budget, evaluate_view  # noqa: E402
from tenleave_widget.analysis.stats import wilson  # noqa: E402
from tenleave_widget.engine.game import Game  # noqa: E402
from tenleave_widget.engine.turn import Turn  # noqa: E402
from tenleave_widget.programs.simulate import mean_ci  # noqa: E402


def _budget(args: argparse.Namespace) -> Budget:
    prune = None if args.no_prune else args.prune
    return Budget(samples=args.samples or bot_budget(args.players).samples, prune=prune)


def _bots(args: argparse.Namespace, rng: random.Random) -> list[Any]:
    """One game's bots: the lookahead bot in seat 0 and ``--opponent`` in the others, each
    with its own seed from ``rng``."""
    def bot(name: str) -> Any:
        if name != "lookahead":
            return make_bot(name, rng.randrange(2**32))
        return LookaheadBot(rng.randrange(2**32), budget=_budget(args), objective=args.objective,
                            rotations=args.rotations, redecide=not args.no_redecide)

    return [bot("lookahead")] + [bot(args.opponent) for _ in range(1, args.players)]


def strength(args: argparse.Namespace) -> dict[str, Any]:
    """``--games`` games of the lookahead bot in seat 0, the first seat rotating; every
    game's bots seeded afresh (a decision's random numbers follow from its bot's seed and
    the turn, so bots kept across games would give every game the same numbers)."""
    n = args.players
    master = random.Random(args.seed)
    pens: list[list[int]] = []
    firsts: list[int] = []
    times: list[float] = []
    t0 = time.perf_counter()
    out = open(args.log, "w") if args.log else None  # noqa: SIM115
    for i in range(args.games):
        first = i % n
        t_game = len(times)
        bots = _bots(args, master)
        g = Game(n, seed=master.randrange(2**32), first=first)
        while not g.finished:
            s = g.to_move
            assert s is not None
            if s == 0:
                c0 = time.process_time()
                t = decide(bots[0], g)
                times.append(time.process_time() - c0)
            else:
                t = decide(bots[s], g)
            g.push(t) if t in g.legal_turns else g.apply(t)
        pens.append(g.penalty)
        firsts.append(first)
        if out is not None:
            out.write(json.dumps({"game": i, "first": first, "penalty": g.penalty,
                                  "cpu": times[t_game:]}) + "\n")
            out.flush()
        if args.progress and (i + 1) % args.progress == 0:
            print(f"{i + 1} games, {time.perf_counter() - t0:.0f} s: "
                  f"{summary(pens, firsts, times, n)['vs']}", file=sys.stderr, flush=True)
    res = summary(pens, firsts, times, n)
    res.update({
        "players": n, "games": args.games, "opponent": args.opponent, "seed": args.seed,
        "objective": args.objective, "samples": _budget(args).samples,
        "prune": _budget(args).prune, "rotations": args.rotations,
        "redecide": not args.no_redecide,
        "seconds": time.perf_counter() - t0,
    })
    return res


def summary(pens: list[list[int]], firsts: list[int], times: list[float], n: int
            ) -> dict[str, Any]:
    vs = []
    for j in range(1, n):
        m, lo, hi = mean_ci([p[j] - p[0] for p in pens])
        vs.append({"seat": j, "mean_difference": m, "ci95": [lo, hi]})
    others = mean_ci([(sum(p) - p[0]) / (n - 1) - p[0] for p in pens])
    mine = mean_ci([p[0] for p in pens])
    wins = sum(1 for p in pens if p[0] == min(p))
    w, wlo, whi = wilson(wins, len(pens))
    seats = []
    for s in range(n):
        ms, lo, hi = mean_ci([p[s] for p in pens])
        seats.append({"seat": s, "mean_penalty": ms, "ci95": [lo, hi],
                      "win_rate": sum(1 for p in pens if p[s] == min(p)) / len(pens)})
    fa = mean_ci([p[f] - (sum(p) - p[f]) / (n - 1) for p, f in zip(pens, firsts, strict=True)])
    ts = sorted(times)
    speed = {}
    if ts:
        speed = {
            "decisions": len(ts),
            "median_ms": 1000 * statistics.median(ts),
            "p99_ms": 1000 * ts[min(len(ts) - 1, math.ceil(0.99 * len(ts)) - 1)],
            "worst_ms": 1000 * ts[-1],
        }
    return {
        "lookahead_mean_penalty": [mine[0], [mine[1], mine[2]]],
        "vs": vs,
        "vs_mean_of_others": [others[0], [others[1], others[2]]],
        "win_rate": [w, [wlo, whi]],
        "seats": seats,
        "first_seat_advantage": [fa[0], [fa[1], fa[2]]],
        "decision_cpu": speed,
    }


# ------------------------------------------------------------------------- naive reference


def naive_evaluate(game: Game, samples: int, seed: int) -> list[float]:
    """The reference: per world, deep-copy the game, then per move deep-copy that world and
    play the same greedy-like policy (every card visible, one turn in ten at random)
    through the engine's checked ``apply``. It plays the true world each time instead of a
    re-dealt one (dealing costs little next to the play-outs). Returns the mean final
    penalty of the seat per move (plain plays)."""
    seat = game.to_move
    assert seat is not None
    rng = random.Random(seed)
    plays = [t for t in game.legal_turns if t.action == "none"]
    totals = [0.0] * len(plays)
    for _ in range(samples):
        world = copy.deepcopy(game)
        for i, t in enumerate(plays):
            g = copy.deepcopy(world)
            g.apply(t)
            while not g.finished:
                g.apply(_greedy_omniscient(g, rng))
            totals[i] += g.penalty[seat]
    return [t / samples for t in totals]


def _swat_cost(cards: list[tuple[int, str]], positions: tuple[int, ...], seat: int) -> int:
    total, flipped = 0, []
    for o, c in cards:
        flipped.append((o, int(c[:1])))
        total += int(c[:1])
        if total >= 10:
            break
    if total == 10:
        return 0
    if total < 10:
        top = max((v for _, v in flipped), default=0)
        return sum(v for o, v in flipped if v == top and o == seat)
    return sum(flipped[p - 1][1] for p in positions
               if p <= len(flipped) and flipped[p - 1][0] == seat)


def _greedy_omniscient(g: Game, rng: random.Random) -> Turn:
    s = g.to_move
    assert s is not None
    plays = [t for t in g.legal_turns if t.action == "none"]
    if rng.random() < 0.1:
        return plays[rng.randrange(len(plays))]
    positions = g.rules.tokens[g.token]
    queues = [g.queue_cards(q) for q in range(g.queue_count)]
    base = [_swat_cost(q, positions, s) for q in queues]
    best: list[Turn] = []
    low = math.inf
    for t in plays:
        d = _swat_cost([*queues[t.queue], (s, t.card)], positions, s) - base[t.queue]
        if d < low:
            low, best = d, [t]
        elif d == low:
            best.append(t)
    return best[rng.randrange(len(best))]


def naive(args: argparse.Namespace) -> dict[str, Any]:
    rng = random.Random(args.seed)
    g = Game(3, seed=args.seed)
    bots = [make_bot("greedy", seed=rng.randrange(2**32)) for _ in range(3)]
    while g.turns_applied < args.turn:
        g.apply(decide(bots[g.to_move or 0], g))
    view = g.view(g.to_move)
    budget = Budget(samples=args.samples)
    evaluate_view(view, budget, seed=1, rotations=False)  # warm the memoised tables
    reps = []
    for r in range(args.repeat):
        c0 = time.process_time()
        ev = evaluate_view(view, budget, seed=r, rotations=False)
        reps.append(time.process_time() - c0)
    c0 = time.process_time()
    naive_evaluate(g, args.samples, seed=1)
    t_naive = time.process_time() - c0
    fast = statistics.median(reps)
    return {
        "position": f"3 seats, greedy self-play, after {args.turn} turns",
        "moves": len(ev["moves"]),
        "naive_moves": sum(1 for t in g.legal_turns if t.action == "none"),
        "samples": args.samples,
        "lookahead_ms": 1000 * fast, "naive_ms": 1000 * t_naive, "ratio": t_naive / fast,
    }


def summarize(args: argparse.Namespace) -> dict[str, Any]:
    """Pool the per-game logs (``--log``) of one or more runs (different seeds)."""
    pens: list[list[int]] = []
    firsts: list[int] = []
    times: list[float] = []
    for path in args.logs:
        with open(path) as f:
            for line in f:
                g = json.loads(line)
                pens.append(g["penalty"])
                firsts.append(g["first"])
                times.extend(g.get("cpu", []))
    res = summary(pens, firsts, times, len(pens[0]))
    res.update({"games": len(pens), "logs": args.logs})
    return res


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="command", required=True)
    s = sub.add_parser("strength")
    s.add_argument("--players", type=int, default=3)
    s.add_argument("--games", type=int, default=2000)
    s.add_argument("--opponent", default="greedy")
    s.add_argument("--seed", type=int, default=1)
    s.add_argument("--samples", type=int, default=0)
    s.add_argument("--prune", type=float, default=BOT_BUDGET.prune)
    s.add_argument("--no-prune", action="store_true")
    s.add_argument("--objective", default="margin")
    s.add_argument("--rotations", action="store_true")
    s.add_argument("--no-redecide", action="store_true",
                   help="wake turns whole (the play chosen before the swat)")
    s.add_argument("--progress", type=int, default=0)
    s.add_argument("--log", default=None, help="write one JSON line per game")
    nv = sub.add_parser("naive")
    nv.add_argument("--samples", type=int, default=16)
    nv.add_argument("--turn", type=int, default=9)
    nv.add_argument("--seed", type=int, default=3)
    nv.add_argument("--repeat", type=int, default=5)
    sm = sub.add_parser("summarize")
    sm.add_argument("logs", nargs="+")
    args = p.parse_args()
    run = {"strength": strength, "naive": naive, "summarize": summarize}[args.command]
    res = run(args)
    print(json.dumps(res, indent=1))


if __name__ == "__main__":
    main()
