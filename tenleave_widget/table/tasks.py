"""Background work with or without threads: the one way the widget computes off the loop.

A *job* is a zero-argument callable (one slice) or a generator (a slice per ``next``; what
it returns is the job's result). :func:`run` starts it from code the event loop runs
(a kernel's cell or comm message) and gives a :class:`Task`, whose ``future`` is done on
that loop: callbacks added to it run on the loop, where the widgets may be touched.

- *With threads* (CPython): the job runs in the worker thread (:data:`WORKER`, one for
  the widget's thinking, so two jobs never share the interpreter at once) or in a thread of
  its own (``thread=``), with a short pause between a generator's slices so the loop
  takes the interpreter at once instead of waiting for the switch interval.
- *Without threads* (Pyodide, ``sys.platform == "emscripten"``, where a thread cannot
  start; or :data:`THREADS` set to False): the slices run on the loop itself, as many
  as fit in :data:`SLICE_MS`, then the loop handles what came in (messages, clicks) and
  the next slices follow (under Pyodide after a timer of :data:`GAP_S`, see there). A
  plain callable is one slice: the loop waits for it.

The module is pure Python (no Jupyter): the table's evaluation, the bot runner and the
review panel share it.

>>> import asyncio
>>> def count(n):
...     total = 0
...     for i in range(n):
...         total += i
...         yield
...     return total
>>> async def main():
...     return await run(asyncio.get_running_loop(), count(5)).future
>>> asyncio.run(main())
10
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import sys
import threading
import time
from collections.abc import Callable, Generator
from typing import Any, Generic, TypeVar

__all__ = ["GAP_S", "SLICE_MS", "THREADS", "WORKER", "Task", "chunk", "run", "threads"]

T = TypeVar("T")

Job = Generator[Any, None, T] | Callable[[], T]
"""A job: a generator of slices returning the result, or a callable run in one slice."""

THREADS = sys.platform != "emscripten"
"""Whether jobs run in threads (False under Pyodide). Set it to False to force the
no-thread path on CPython (the tests do)."""

SLICE_MS = 15.0
"""Without threads: how long the loop runs a job's slices before it handles anything else."""

GAP_S = 0.004
"""Under Pyodide: the next slices of a job wait for a timer of this many seconds. Pyodide's
``call_soon`` is a message the kernel's worker posts to itself, and Chromium runs those
ahead of the page's messages: with ``call_soon`` between slices a click during a review
waited for many slices (about 0.6 s median, 2 s max in the Lite site), with the timer it
is read after the slice under way. ``call_later`` under 3 ms is ``call_soon`` there."""

CHUNK_MS = 100.0
"""A chunk of a long job (:func:`chunk`): how long it runs before the others' turn."""

PAUSE_S = 0.0005
"""With threads: the worker's pause between two slices of a generator job."""

WORKER = concurrent.futures.ThreadPoolExecutor(max_workers=1,
                                               thread_name_prefix="tenleave-think")
"""The one worker thread of the widget's thinking: the moves panel's evaluation and the
lookahead bots' decisions, one at a time (no thread starts before the first job)."""


def threads() -> bool:
    """Whether :func:`run` uses threads now (:data:`THREADS`, never under Pyodide).

    >>> threads() == (THREADS and sys.platform != "emscripten")
    True
    """
    return THREADS and sys.platform != "emscripten"


class Task(Generic[T]):
    """A job under way: ``future`` is done on the loop with its result (or its exception);
    :meth:`wait` has the result now; :meth:`cancel` drops the rest of it."""

    def __init__(self, future: asyncio.Future[T], finish: Callable[[], T],
                 stop: Callable[[], None]) -> None:
        self.future = future
        self._finish = finish
        self._stop = stop

    def done(self) -> bool:
        """The job has ended (its result, its failure or its cancellation is in)."""
        return self.future.done()

    def wait(self) -> T:
        """The job's result, now: with threads, waits for the thread; without, runs its
        remaining slices here (a script's or a test's way of finishing it)."""
        return self._finish()

    def cancel(self) -> None:
        """Drop the rest of the job (a slice under way in a thread ends first)."""
        self._stop()
        self.future.cancel()


def _step(job: Generator[Any, None, T]) -> tuple[bool, T | None]:
    """One slice of a generator job: (ended, its result if ended)."""
    try:
        next(job)
    except StopIteration as stop:
        return True, stop.value
    return False, None


def chunk(job: Generator[Any, None, T], ms: float
          ) -> Generator[None, None, tuple[bool, T | None]]:
    """A part of a long generator ``job`` as a job of its own: its slices for about ``ms``
    milliseconds, then (ended, its result if ended). Run chunk after chunk in the
    :data:`WORKER` (``run(loop, chunk(job, ms))`` again until it ended), a long job takes
    turns there with the others (the panel's evaluation, a bot's decision) instead of
    running in a thread of its own: one thread thinks at a time, and the loop is not
    made later than by one (``benchmarks/bench_widget_blocking.py --coach``).

    >>> def count():
    ...     yield
    ...     yield
    ...     return 7
    >>> def result(part):
    ...     try:
    ...         while True:
    ...             next(part)
    ...     except StopIteration as end:
    ...         return end.value
    >>> job = count()
    >>> result(chunk(job, 0.0)), result(chunk(job, 1e6))
    ((False, None), (True, 7))
    """
    end = time.perf_counter() + ms / 1000
    while True:
        ended, value = _step(job)
        if ended:
            return True, value
        if time.perf_counter() >= end:
            return False, None
        yield


def _drive(job: Job[T], stopped: threading.Event) -> T:
    """In a thread: the whole job, pausing between slices."""
    if not isinstance(job, Generator):
        return job()
    while True:
        ended, value = _step(job)
        if ended:
            return value  # type: ignore[return-value]
        if stopped.is_set():
            job.close()
            raise concurrent.futures.CancelledError()
        time.sleep(PAUSE_S)


def run(loop: asyncio.AbstractEventLoop, job: Job[T], *, thread: str | None = None) -> Task[T]:
    """Start ``job`` from code ``loop`` runs; its :class:`Task` (see the module docstring).
    ``thread``: with threads, a thread of its own of that name instead of :data:`WORKER`
    (a long job that should not hold back the thinking)."""
    if threads():
        return _threaded(loop, job, thread)
    return _sliced(loop, job)


def _threaded(loop: asyncio.AbstractEventLoop, job: Job[T], name: str | None) -> Task[T]:
    stopped = threading.Event()
    inner: concurrent.futures.Future[T]
    if name is None:
        inner = WORKER.submit(_drive, job, stopped)
    else:
        inner = concurrent.futures.Future()

        def work() -> None:
            if not inner.set_running_or_notify_cancel():
                return
            try:
                inner.set_result(_drive(job, stopped))
            except BaseException as e:  # noqa: BLE001 - handed to whoever waits
                inner.set_exception(e)

        threading.Thread(target=work, name=name, daemon=True).start()
    return Task(asyncio.wrap_future(inner, loop=loop), inner.result, stopped.set)


def _later(loop: asyncio.AbstractEventLoop, then: Callable[[], None]) -> None:
    """``then`` on ``loop`` once what came in meanwhile was handled (:data:`GAP_S`)."""
    if sys.platform == "emscripten":
        loop.call_later(GAP_S, then)
    else:
        loop.call_soon(then)


def _sliced(loop: asyncio.AbstractEventLoop, job: Job[T]) -> Task[T]:
    future: asyncio.Future[T] = loop.create_future()

    def settle(budget: float | None) -> None:
        """Run slices for ``budget`` seconds (None: to the end) and settle the future."""
        end = None if budget is None else time.perf_counter() + budget
        try:
            if not isinstance(job, Generator):
                future.set_result(job())
                return
            while True:
                ended, value = _step(job)
                if ended:
                    future.set_result(value)  # type: ignore[arg-type]
                    return
                if end is not None and time.perf_counter() >= end:
                    _later(loop, slices)
                    return
        except Exception as e:  # noqa: BLE001 - handed to whoever waits
            future.set_exception(e)

    def slices() -> None:
        if not future.done():
            settle(SLICE_MS / 1000)

    def finish() -> T:
        if not future.done():
            settle(None)
        return future.result()

    def stop() -> None:
        if isinstance(job, Generator):
            job.close()

    loop.call_soon(slices)
    return Task(future, finish, stop)
