"""The replay's history (every position of a game) built in one forward pass, against the
former way (undo to the start, then apply each turn), in one run: medians and their ratio.

    .venv/bin/python benchmarks/bench_history.py [--rounds 40]
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from tenleave_widget import Game
from tenleave_widget.table.session.history import build_history

GAME = Path(__file__).resolve().parents[1] / "examples" / "games" / "game-5-seats.json"


def undo_then_apply(game: Game) -> list[Game]:
    """The former build_history: n undos (each a replay), then a checked apply per turn."""
    start = game.copy()
    while start.turns_applied:
        start.undo()
    history = [start]
    for t in game.turns[:-1]:
        nxt = history[-1].copy()
        nxt.apply(t)
        history.append(nxt)
    if game.turns_applied:
        history.append(game.copy())
    return history


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=40)
    args = ap.parse_args()
    g = Game.from_record(GAME)
    assert undo_then_apply(g) == build_history(g)
    old, new = [], []
    for _ in range(args.rounds):  # alternated, so both see the same machine load
        t0 = time.perf_counter()
        undo_then_apply(g)
        old.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        build_history(g)
        new.append(time.perf_counter() - t0)
    mo, mn = statistics.median(old), statistics.median(new)
    print(f"{GAME.name} ({g.turns_applied} turns), medians of {args.rounds}: "
          f"undo+apply {1000 * mo:.2f} ms, one pass {1000 * mn:.2f} ms, ratio {mn / mo:.2f}")


if __name__ == "__main__":
    main()
