"""How long the widget's thinking blocks the kernel's event loop (issue 9, item 4).

Two measurements on an asyncio loop, in Python (no browser), over the human's positions
of whole games (3 seats: the human plays greedy's choice, the bots are lookahead and
greedy, as in ``play(bots=["lookahead", "greedy"])``):

* **the moves panel's evaluation**: it runs in the worker thread (the :class:`Thinker`);
  a heartbeat task on the loop (``asyncio.sleep(0.001)`` in a loop) measures how late the
  loop answers meanwhile (the panels' data is rebuilt on the loop after each chunk);
* **what their plays suggest** (issue 19): the panel's reading (the chances, the biggest
  change, and the queue odds read from their plays: the switch on) runs in the worker
  thread (the :class:`Reader`); the loop's lateness meanwhile, against the reading's own
  duration run on the loop (how long the loop would be blocked without the thread), over
  the human's positions of whole games against two greedy bots;
* **a lookahead bot's decision**: in the widget it runs in a worker thread; a heartbeat
  task on the loop (``asyncio.sleep(0.001)`` in a loop) measures how late the loop answers
  while the bot thinks, against the decision's own duration run on the loop (how long
  the loop would be blocked without the thread).

    nice -n 10 .venv/bin/python benchmarks/bench_widget_blocking.py --games 4

``--coach off,after,before`` measures the panel's part with each setting of the coach
(issue 23), the same positions in one run: with ``"before"`` the loop's lateness is
measured until the coach's screen of the decision is done too; with either, each human
turn is then judged in the background.

Prints medians, 99th percentiles and maxima in milliseconds, and a JSON line.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import time

from tenleave_widget import Game
from tenleave_widget.analysis.bots import decide as engine_decide
from tenleave_widget.analysis.bots import make_bot
from tenleave_widget.table.tasks import WORKER
from tenleave_widget.widget import TenLeaveWidget
from tenleave_widget.widget.bot_runner import decide


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def summary(values: list[float]) -> dict[str, float]:
    return {"n": len(values), "median": round(statistics.median(values), 2),
            "p99": round(pct(values, 0.99), 2), "max": round(max(values), 2)}


async def heartbeat(lateness: list[float], stop: asyncio.Event) -> None:
    while not stop.is_set():
        t = time.perf_counter()
        await asyncio.sleep(0.001)
        lateness.append((time.perf_counter() - t) * 1000 - 1.0)


class Heartbeat:
    """A heartbeat task on the running loop until :meth:`stop`."""

    def __init__(self, lateness: list[float]) -> None:
        self.event = asyncio.Event()
        self.task = asyncio.create_task(heartbeat(lateness, self.event))

    async def stop(self) -> None:
        self.event.set()
        await self.task


async def panel_blocking(games: int, coach: str = "off") -> list[float]:
    """The loop's lateness while the moves panel's evaluation runs (the Thinker, in the
    worker thread), over the human's positions of whole games; with ``coach="before"``
    until the coach's screen of the decision is done too (never asked: each human turn
    is judged in the background)."""
    lateness: list[float] = []
    for seed in range(games):
        w = TenLeaveWidget(Game(3, seed=seed), humans=[0], bots={1: "greedy", 2: "greedy"},
                           bot_delay=0, seed=seed, coach=coach)
        w.coach_threshold = float(10**9)
        check = w.session.coach.check
        while not w.game.finished:
            stop = asyncio.Event()
            beat = asyncio.create_task(heartbeat(lateness, stop))
            w._thinker.kick()
            w._check.kick()
            feed = w.session.lookahead
            while (feed.evaluation is not None and (
                    feed.chunk is not None or not feed.evaluation.done)) or (
                    coach == "before" and check.result is None):
                await asyncio.sleep(0.005)
            stop.set()
            await beat
            human_plays(w, seed)
    return lateness


def human_plays(w: TenLeaveWidget, seed: int) -> None:
    """The human (seat 0) plays greedy's choice (judged by the coach, if on); the bots
    answer."""
    before = w.game
    turn = engine_decide(make_bot("greedy", seed=seed), before, 0)
    w.session.apply(turn)
    w.session.coach.ended(before.turns_applied, before.view(0), turn)
    w._coach.kick()
    w._bots.start()
    w._refresh()


async def suggest_blocking(games: int) -> dict[str, list[float]]:
    """The panel's readings: on the loop (the block it would be) and in the worker thread
    (the loop's lateness meanwhile)."""
    own: list[float] = []
    lateness: list[float] = []
    for seed in range(games):
        w = TenLeaveWidget(Game(3, seed=seed), humans=[0], bots={1: "greedy", 2: "greedy"},
                           bot_delay=0, seed=seed)
        w.session.lookahead.enabled = False  # the reading alone
        feed = w.session.suggest
        feed.odds_model = "inferred"
        while not w.game.finished:
            while w.session.bot_to_move() is not None:  # the bots' answers first
                await asyncio.sleep(0.005)
            target = feed.target(w.session)
            if isinstance(target, tuple):
                key, game, s = target
                t = time.perf_counter()
                job = feed.job(key, game, s)
                while True:
                    try:
                        next(job)
                    except StopIteration:
                        break
                own.append((time.perf_counter() - t) * 1000)
                feed.readings.clear()
                beat = Heartbeat(lateness)
                w._reader.kick()
                while feed.chunk is not None or key not in feed.readings:
                    await asyncio.sleep(0.001)
                await beat.stop()
            human_plays(w, seed)
    return {"reading_on_loop": own, "loop_lateness_while_panel_reads": lateness}


async def bot_blocking(games: int) -> dict[str, list[float]]:
    """A lookahead bot's decisions: on the loop (the block it would be) and in the worker
    thread (the loop's lateness meanwhile)."""
    own: list[float] = []
    lateness: list[float] = []
    loop = asyncio.get_running_loop()
    for seed in range(games):
        g = Game(3, seed=seed)
        while not g.finished:
            seat = g.to_move
            assert seat is not None
            bot = make_bot("lookahead", seed=seed)
            t = time.perf_counter()
            turn = decide(bot, g, seat)
            own.append((time.perf_counter() - t) * 1000)
            stop = asyncio.Event()
            beat = asyncio.create_task(heartbeat(lateness, stop))
            again = await loop.run_in_executor(WORKER, decide, make_bot("lookahead", seed=seed),
                                               g.copy(), seat)
            stop.set()
            await beat
            assert again == turn
            g.apply(turn)
    return {"decision_on_loop": own, "loop_lateness_while_thread_thinks": lateness}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--only", choices=["panel", "suggest", "bot"], default=None,
                        help="one measurement only")
    parser.add_argument("--coach", default="off",
                        help="the panel's part with the coach: off, after, before, or a list")
    args = parser.parse_args()
    result: dict[str, dict[str, float]] = {}
    if args.only in (None, "panel"):
        for coach in args.coach.split(","):
            name = "loop_lateness_while_panel_thinks" + (
                "" if coach == "off" else f"_coach_{coach}")
            result[name] = summary(asyncio.run(panel_blocking(args.games, coach)))
    if args.only in (None, "suggest"):
        result.update({k: summary(v) for k, v in asyncio.run(suggest_blocking(args.games)).items()})
    if args.only in (None, "bot"):
        result.update({k: summary(v) for k, v in asyncio.run(bot_blocking(args.games)).items()})
    for name, s in result.items():
        print(f"{name:48s} n={s['n']:5d}  median {s['median']:7.2f} ms  p99 {s['p99']:7.2f} ms"
              f"  max {s['max']:7.2f} ms")
    print(json.dumps(result))


if __name__ == "__main__":
    main()
