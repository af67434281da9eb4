"""Background work with and without threads (issue 25): table/tasks.py, and the widget
run the way Pyodide runs it — no thread can start — on CPython, by forcing the no-thread
path: a whole game against a lookahead bot with the moves panel thinking, and a review."""

from __future__ import annotations

import asyncio
import contextlib
import json
import sys
import threading
import time
from collections.abc import Callable, Generator
from pathlib import Path
from typing import Any, TypeVar

import pytest

from tenleave_widget.analysis.analyse import clear_cache
from tenleave_widget.analysis.review import review, review_steps
from tenleave_widget.engine.record import load_record
from tenleave_widget.table import tasks
from tenleave_widget.widget import play, replay

GAME = Path(__file__).resolve().parents[2] / "examples" / "games" / "game-2-seats.json"
T = TypeVar("T")


def in_fresh_thread(scenario: Callable[[], T], monkeypatch: pytest.MonkeyPatch | None = None,
                    threads: bool = True) -> T:
    """``scenario()`` in a thread of its own (earlier tests may leave this thread's loop
    marked running); ``threads=False``: as under Pyodide, no other thread may start
    meanwhile (``RuntimeError``) and the module's switch says so."""
    go = threading.Event()
    out: list[Any] = []

    def body() -> None:
        go.wait()
        try:
            out.append(scenario())
        except BaseException as e:  # noqa: BLE001 - raised in the test's thread
            out.append(e)

    def refuse(self: threading.Thread) -> None:
        raise RuntimeError("can't start new thread")

    thread = threading.Thread(target=body)
    thread.start()
    assert monkeypatch is not None or threads
    with contextlib.ExitStack() as stack:
        if not threads and monkeypatch is not None:
            m = stack.enter_context(monkeypatch.context())
            m.setattr(tasks, "THREADS", False)
            m.setattr(threading.Thread, "start", refuse)
        go.set()
        thread.join()
    if isinstance(out[0], BaseException):
        raise out[0]
    return out[0]  # type: ignore[no-any-return]


def counting(n: int, where: list[str]) -> Generator[None, None, int]:
    total = 0
    for i in range(n):
        where.append(threading.current_thread().name)
        total += i
        time.sleep(0.001)
        yield
    return total


def test_a_job_in_the_worker_thread_or_its_own() -> None:
    async def main() -> tuple[int, str, list[str], list[str]]:
        loop = asyncio.get_running_loop()
        shared: list[str] = []
        own: list[str] = []
        a = await tasks.run(loop, counting(5, shared)).future
        b = await tasks.run(loop, lambda: threading.current_thread().name).future
        await tasks.run(loop, counting(3, own), thread="tenleave-probe").future
        return a, b, shared, own

    a, b, shared, own = in_fresh_thread(lambda: asyncio.run(main()))
    assert a == 10 and set(shared) == {b} and b.startswith("tenleave-think")
    assert own == ["tenleave-probe"] * 3


def test_without_threads_the_loop_runs_between_slices(monkeypatch: pytest.MonkeyPatch) -> None:
    async def main() -> tuple[int, int, int, list[str]]:
        loop = asyncio.get_running_loop()
        beats = 0

        async def heartbeat() -> None:
            nonlocal beats
            while True:
                beats += 1
                await asyncio.sleep(0)

        beat = asyncio.create_task(heartbeat())
        where: list[str] = []
        task = tasks.run(loop, counting(60, where))  # 60 ms of slices: a few loop turns
        result = await task.future
        during = beats
        plain = await tasks.run(loop, lambda: 7).future
        beat.cancel()
        return result, during, plain, where

    result, during, plain, where = in_fresh_thread(lambda: asyncio.run(main()), monkeypatch,
                                                   threads=False)
    assert result == sum(range(60)) and plain == 7
    assert set(where) == {where[0]} and not where[0].startswith("tenleave")
    assert during >= 2  # the loop had turns while the job ran


def test_under_pyodide_the_next_slices_wait_for_a_timer(monkeypatch: pytest.MonkeyPatch) -> None:
    """Under Pyodide ``call_soon`` is a message the worker runs ahead of the page's (a click
    waited for many slices): between two runs of slices the job waits for a timer of
    ``GAP_S`` instead, and its result is the same."""
    later: list[float] = []

    async def main() -> int:
        loop = asyncio.get_running_loop()
        plain = loop.call_later

        def spy(delay: float, *args: Any, **kw: Any) -> asyncio.TimerHandle:
            later.append(delay)
            return plain(delay, *args, **kw)

        loop.call_later = spy  # type: ignore[method-assign]
        return await tasks.run(loop, counting(60, [])).future  # 60 ms: a few runs of slices

    with monkeypatch.context() as m:
        m.setattr(sys, "platform", "emscripten")
        result = in_fresh_thread(lambda: asyncio.run(main()), monkeypatch, threads=False)
    assert result == sum(range(60))
    assert len(later) >= 2 and set(later) == {tasks.GAP_S} and tasks.GAP_S > 0.003


def test_a_review_steps_a_slice_of_evaluation_at_a_time() -> None:
    """The review's steps (what the loop runs between two clicks without threads) are its
    analyses' chunks of worlds, several per decision, not a whole decision each."""
    record = load_record(GAME)
    steps = review_steps(record, samples=8, seed=1)
    n = 0
    while True:
        try:
            next(steps)
        except StopIteration as end:
            result = end.value
            break
        n += 1
    decisions = len(record["turns"])
    assert len(result.turns) == decisions and n >= 2 * decisions
    clear_cache()
    assert json.dumps(result.to_json()) == json.dumps(review(record, samples=8, seed=1).to_json())


def test_wait_finishes_now_cancel_drops_the_rest_failures_reach_the_future(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def broken() -> Generator[None, None, int]:
        yield
        raise ValueError("no good")

    async def main() -> tuple[int, int, bool, str]:
        loop = asyncio.get_running_loop()
        where: list[str] = []
        now = tasks.run(loop, counting(50, where)).wait()  # no loop turn needed
        left: list[str] = []
        dropped = tasks.run(loop, counting(50, left))
        await asyncio.sleep(0)
        dropped.cancel()
        await asyncio.sleep(0.05)
        failed = tasks.run(loop, broken())
        try:
            await failed.future
        except ValueError as e:
            why = str(e)
        return now, len(left), dropped.done(), why

    for threads in (True, False):
        now, ran, done, why = in_fresh_thread(lambda: asyncio.run(main()), monkeypatch,
                                              threads=threads)
        assert now == sum(range(50)) and ran < 50 and done and why == "no good"


def human_turns(w: Any) -> None:
    """The human's turn: the last card offered on the first queue offered."""
    offers = w.table.offers
    w.handle_intent({"kind": "play", "card": offers["play_cards"][-1],
                     "queue": offers["play_queues"][0]})
    w.handle_intent({"kind": "end"})


@pytest.mark.slow
def test_a_whole_game_against_bots_without_threads(monkeypatch: pytest.MonkeyPatch) -> None:
    """The lookahead bot decides and the moves panel fills in on the loop: the same game
    as a script plays (the bots answer by position), the panel's values came in."""
    def options() -> dict[str, Any]:
        return {"players": 3, "human": 0, "bots": ["lookahead", "greedy"], "seed": 6}

    script = play(**options(), bot_delay=0)
    script.session.lookahead.budget = 8
    while not script.game.finished:
        human_turns(script)
    expected = [t.to_json() for t in script.game.turns]

    async def scenario() -> tuple[list[Any], int]:
        w = play(**options(), bot_delay=0.001)
        w.session.lookahead.budget = 8
        filled = 0
        while not w.game.finished:
            for _ in range(20000):  # not a timing test: wait for the bots and the panel
                await asyncio.sleep(0.001)
                feed = w.session.lookahead
                ev = feed.evaluation
                if not w.table.busy and (ev is None or ev.done and feed.chunk is None):
                    break
            if w.game.finished:
                break
            filled += w.table.panels["moves"]["done"]
            human_turns(w)
        return [t.to_json() for t in w.game.turns], filled

    turns, filled = in_fresh_thread(lambda: asyncio.run(scenario()), monkeypatch,
                                    threads=False)
    assert turns == expected
    assert filled >= 5  # the whole-game values were drawn at the human's positions


@pytest.mark.slow
def test_a_review_without_threads_answers_between_decisions(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Without threads the review runs a decision per slice of the loop: a click (the goto
    intent, as a comm message would bring it) is handled while it is under way, the table
    follows at once, and the review is the threaded one, byte for byte."""
    direct = json.dumps(review(load_record(GAME), samples=1, seed=1).to_json())

    def scenario(click: bool) -> Callable[[], tuple[str, list[tuple[int, int, int]], int]]:
        async def main() -> tuple[str, list[tuple[int, int, int]], int]:
            clear_cache()  # else the direct review's analyses answer every decision at once
            w = replay(GAME, turn=5)
            panel = w.review_panel
            assert panel is not None
            w.review(samples=1, seed=1)
            assert panel.running  # started on the loop, not at once
            answered: list[tuple[int, int, int]] = []  # (turn shown, synced turn, judged)
            for _ in range(60000):
                await asyncio.sleep(0.001)
                if not panel.running:
                    break
                if click and not answered and panel.progress.value >= 1:
                    w.send_intent({"kind": "goto", "turn": 12})
                    answered.append((w.turn, w.table.replay["turn"], panel.progress.value))
            assert w.review_result is not None and panel.progress.value == panel.progress.max
            return json.dumps(w.review_result.to_json()), answered, panel.progress.max
        return lambda: asyncio.run(main())

    threaded, _, _ = in_fresh_thread(scenario(click=False))
    sliced, answered, total = in_fresh_thread(scenario(click=True), monkeypatch,
                                              threads=False)
    assert sliced == threaded == direct
    assert total == len(json.loads(direct)["turns"]) > 2
    ((shown, synced, judged),) = answered
    assert shown == synced == 12 and 1 <= judged < total  # answered mid-review


def test_under_pyodide_a_click_outside_any_task_reviews_on_the_loop(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Pyodide's kernel hands a comm message (the *Review this game* click) to the widget
    outside any asyncio task; its loop is the browser's and always runs, so the review
    goes to the loop there (before, it ran at once inside the click: the kernel busy for
    the whole review) and its result is the review's."""
    direct = json.dumps(review(load_record(GAME), samples=1, seed=1).to_json())

    def scenario() -> tuple[bool, str]:
        loop = asyncio.new_event_loop()
        w = replay(GAME, turn=0)
        panel = w.review_panel
        assert panel is not None
        started: list[bool] = []

        def click() -> None:  # a plain callback of the loop, as Pyodide's comm handler
            w.review(samples=1, seed=1)
            started.append(panel.running)

        async def until_done() -> None:
            loop.call_soon(click)
            while not started or panel.running:
                await asyncio.sleep(0.001)

        try:
            loop.run_until_complete(until_done())
        finally:
            loop.close()
        assert w.review_result is not None
        return started[0], json.dumps(w.review_result.to_json())

    with monkeypatch.context() as m:
        m.setattr(sys, "platform", "emscripten")
        in_background, result = in_fresh_thread(scenario, monkeypatch, threads=False)
    assert in_background and result == direct
