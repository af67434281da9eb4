"""Benchmark of the exact swat-risk odds (issue 3). Run on one core:

    taskset -c 1 python3 benchmarks/bench_odds.py

Positions: views of random seats in random games played by random turns (2-5 seats,
stopped at a random turn), plus the hardest kind, built directly from the view contract:
5 seats, 3 full queues, nothing known but the viewer's own cards (up to ~10^5 joint
arrangements), and the same with one queue at 3 cards on the viewer's turn (the hardest
move evaluations: every card x that queue). Each timed call starts cold
(``odds.clear_cache()``); the warm figures keep the memoised queue tables, as a
long-running session or a self-play loop does.

Prints median / p99 / worst per measure, the speed-up over the naive brute force of
the tests (``tests/naive_odds.py``) timed in this same process on the same positions,
and greedy-vs-random self-play games per second (3 seats).
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import cast

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from naive_odds import arrangements, naive_odds, random_view  # noqa: E402

from tenleave_widget.analysis import odds  # noqa: E402
from tenleave_widget.analysis.bots import decide, make_bot  # noqa: E402
from tenleave_widget.engine.game import Game  # noqa: E402
from tenleave_widget.engine.view import View  # noqa: E402


def played_view(seed: int) -> View:
    rng = random.Random(seed)
    seats = rng.randint(2, 5)
    g = Game(seats, seed=seed, first=rng.randrange(seats))
    stop = rng.randint(0, 10 * seats - 1)
    while not g.finished and g.turns_applied < stop:
        lt = g.legal_turns
        g.apply(lt[rng.randrange(len(lt))])
    on_turn = rng.random() < 0.5 and g.to_move is not None
    return g.view(g.to_move if on_turn else rng.randrange(seats))


def hard_view(seed: int, room: bool) -> View:
    rng = random.Random(seed)
    view = random_view(rng, players=5, full=True, peek_rate=0.0, omniscient_rate=0.0)
    seat = view["seat"]
    view["to_move"] = seat
    if room:  # take back the last card of one queue: 4 + 4 + 3, the viewer to move
        q = rng.randrange(3)
        card = view["queues"][q].pop()
        if card["owner"] == seat:
            notation = f"{card['value']}{'*' if card['back'] == 'marked' else ''}"
            view["hands"][seat]["cards"] = sorted(view["hands"][seat]["cards"] + [notation])
    # random_view writes the view contract (docs/view.md) as a plain dict, without the
    # engine's types (the naive reference shares nothing with the package)
    return cast(View, view)


REPEAT = 3


def timed(fn: Callable[[], object], cold: bool) -> float:
    """A call in milliseconds: the best of ``REPEAT`` calls (each cold when ``cold``),
    the garbage collector held off, as ``timeit`` does; on a shared machine the best of a
    few is the figure that measures the code rather than the neighbours."""
    best = float("inf")
    for _ in range(REPEAT):
        if cold:
            odds.clear_cache()
        gc.disable()
        t = time.perf_counter_ns()
        fn()
        best = min(best, (time.perf_counter_ns() - t) / 1e6)
        gc.enable()
    return best


def stats(ms: list[float]) -> str:
    ms = sorted(ms)
    p99 = ms[min(len(ms) - 1, int(0.99 * len(ms)))]
    return (
        f"n={len(ms):5d}  median {statistics.median(ms):7.3f} ms  p99 {p99:7.3f} ms  "
        f"worst {ms[-1]:7.3f} ms"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--played", type=int, default=1000, help="positions from played games")
    ap.add_argument("--hard", type=int, default=100, help="hardest positions of each kind")
    ap.add_argument("--naive", type=int, default=100, help="positions also run naively")
    ap.add_argument("--games", type=int, default=100, help="greedy-vs-random 3-seat games")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--repeat", type=int, default=3, help="time each call as the best of N")
    args = ap.parse_args()
    global REPEAT
    REPEAT = args.repeat

    played = [played_view(args.seed * 100_000 + i) for i in range(args.played)]
    hard = [hard_view(args.seed * 100_000 + i, room=False) for i in range(args.hard)]
    hard_room = [hard_view(args.seed * 100_000 + i, room=True) for i in range(args.hard)]
    views = played + hard + hard_room
    on_turn = [v for v in views if v["seat"] is not None and v["seat"] == v["to_move"]]
    print(
        f"{len(views)} positions ({len(played)} played, {2 * len(hard)} hardest), "
        f"{len(on_turn)} on the viewer's turn; largest "
        f"{max(arrangements(v) for v in views)} joint arrangements"
    )

    def odds_only(v: View) -> Callable[[], object]:
        return lambda: odds.seat_odds(v, moves=False)

    def full(v: View) -> Callable[[], object]:
        return lambda: odds.seat_odds(v)

    for label, cold in (("cold", True), ("warm", False)):
        if not cold:
            for v in views:  # warm the memo once
                odds.seat_odds(v)
        print(f"odds only        ({label}): {stats([timed(odds_only(v), cold) for v in views])}")
        print(f"odds + moves     ({label}): {stats([timed(full(v), cold) for v in on_turn])}")
    print(
        "hardest, odds    (cold): " + stats([timed(odds_only(v), True) for v in hard + hard_room])
    )
    print("hardest, + moves (cold): " + stats([timed(full(v), True) for v in hard_room]))

    # the naive brute force on the hardest positions and a sample of the others
    rng = random.Random(args.seed)
    ranked = sorted(views, key=arrangements, reverse=True)
    sample = ranked[: args.naive // 2] + rng.sample(ranked[args.naive // 2 :], args.naive // 2)
    ratios = []
    hardest = (0.0, 0.0, 0)
    for v in sample:
        fast = timed(odds_only(v), True)
        gc.disable()
        t = time.perf_counter_ns()
        naive_odds(v)
        slow = (time.perf_counter_ns() - t) / 1e6
        gc.enable()
        ratios.append(slow / fast)
        if slow > hardest[0]:
            hardest = (slow, fast, arrangements(v))
    print(
        f"naive brute force on {len(sample)} of them: speed-up median "
        f"{statistics.median(ratios):.0f}x, min {min(ratios):.1f}x; slowest naive "
        f"{hardest[0]:.0f} ms ({hardest[2]} arrangements) vs {hardest[1]:.3f} ms "
        f"= {hardest[0] / hardest[1]:.0f}x"
    )

    # greedy (one seat, rotating) against two random bots, 3 seats, engine included
    for label, cold in (("memo kept", False), ("memo cleared every greedy turn", True)):
        odds.clear_cache()
        penalties = [0.0, 0.0]
        start = time.perf_counter()
        for i in range(args.games):
            g = Game(3, seed=i)
            greedy = i % 3
            bots = [
                make_bot("greedy", i) if s == greedy else make_bot("random", 1000 * i + s)
                for s in range(3)
            ]
            while not g.finished:
                seat = g.to_move
                assert seat is not None
                if cold and seat == greedy:
                    odds.clear_cache()
                g.apply(decide(bots[seat], g))
            penalties[0] += g.penalty[greedy]
            penalties[1] += sum(g.penalty) - g.penalty[greedy]
        elapsed = time.perf_counter() - start
        print(
            f"self-play greedy vs 2 random, 3 seats ({label}): {args.games} games in "
            f"{elapsed:.2f} s = {args.games / elapsed:.0f} games/s; mean penalty greedy "
            f"{penalties[0] / args.games:.2f}, random {penalties[1] / (2 * args.games):.2f}"
        )


if __name__ == "__main__":
    main()
