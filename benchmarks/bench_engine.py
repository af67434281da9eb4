"""Engine benchmark: complete random self-play games per second, on one core.

    .venv/bin/python benchmarks/bench_engine.py [--seconds 1.0] [--repeats 7]

For 2, 3, 4 and 5 seats it plays complete games with the random bot (uniform over the
legal turns) through the self-play path (``Game.random_turn`` + ``Game.push``, what
``simulate`` runs) and through the checked public path (``legal_turns.sample`` +
``Game.apply``, what a user or the widget runs). Each figure is the median of
``--repeats`` timed rounds; rounds of the two paths are interleaved so that the ratio
between them holds on a noisy shared machine.

Instruction count of one 3-seat game (steady where wall-clock time is not)::

    valgrind --tool=callgrind .venv/bin/python benchmarks/bench_engine.py --fixed-games 300
    valgrind --tool=callgrind .venv/bin/python benchmarks/bench_engine.py --fixed-games 0
    # (difference of the two "Collected" totals) / 300

(``--fixed-path checked`` plays them on the checked path; ``bench_compare.py --callgrind``
runs all four for two trees in one go and prints the ratio.)
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

from tenleave_widget import Game

# the unchecked executor: Game.push (before issue 18 it was Game.push_legal, and push was
# the checked apply), so that bench_compare.py measures the same path in an older tree
_PUSH = getattr(Game, "push_legal", Game.push)


def fast_turn(g: Game, rng: random.Random) -> None:
    _PUSH(g, g.random_turn(rng))


def checked_turn(g: Game, rng: random.Random) -> None:
    g.apply(g.legal_turns.sample(rng))


def games_per_second(
    seats: int, seconds: float, seed: int, turn: Callable[[Game, random.Random], None]
) -> float:
    rng = random.Random(seed)
    n = 0
    t0 = time.perf_counter()
    while True:
        g = Game(seats, seed=n + seed)
        while not g.finished:
            turn(g, rng)
        n += 1
        dt = time.perf_counter() - t0
        if dt >= seconds:
            return n / dt


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=1.0, help="length of one timed round")
    ap.add_argument("--repeats", type=int, default=7)
    ap.add_argument(
        "--fixed-games", type=int, default=None, metavar="N",
        help="only play N complete 3-seat games on the self-play path and exit (run it under "
        "valgrind --tool=callgrind with N and with 0: the difference / N is the "
        "instruction count of one game, steady on a noisy machine)",
    )
    ap.add_argument("--fixed-path", choices=("self-play", "checked"), default="self-play",
                    help="the path --fixed-games plays on")
    args = ap.parse_args()
    if args.fixed_games is not None:
        rng = random.Random(1)
        turn = fast_turn if args.fixed_path == "self-play" else checked_turn
        for n in range(args.fixed_games):
            g = Game(3, seed=n)
            while not g.finished:
                turn(g, rng)
        return
    print(f"{'seats':>5} {'self-play games/s':>18} {'checked games/s':>16} {'ratio':>6}")
    for seats in (2, 3, 4, 5):
        fast: list[float] = []
        checked: list[float] = []
        for r in range(args.repeats):
            fast.append(games_per_second(seats, args.seconds, 1000 * r, fast_turn))
            checked.append(games_per_second(seats, args.seconds, 1000 * r, checked_turn))
        f, c = statistics.median(fast), statistics.median(checked)
        print(f"{seats:>5} {f:>18,.0f} {c:>16,.0f} {f / c:>6.2f}")


if __name__ == "__main__":
    main()
