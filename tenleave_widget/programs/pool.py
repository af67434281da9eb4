"""Where the work runs: one process, local worker processes, or a Dask cluster — the one
runner that :mod:`~tenleave_widget.programs.simulate` (runs of seed blocks) and
:mod:`~tenleave_widget.programs.class_review` (decisions) hand their units of work to.

A unit of work is a module-level function and its arguments (picklable), handed out one
at a time by a *source* (a function that gives the next task, or ``None`` when there is
none left: it may size the next task from the results so far), with a few in flight per
worker so that no worker waits; each result goes to ``report`` in this process, in the
order the results come. The caller makes its results independent of that order (each
task carries its own seed), so whatever runs the work gives the same results.

>>> done = []
>>> tasks = iter([(pow, (2, 3)), (pow, (3, 2))])
>>> with Runner(workers=1) as r:
...     r.run(lambda: next(tasks, None), done.append)
>>> r.backend, r.workers, done
('serial', 1, [8, 9])

Stopping: the runner is a context manager; leaving it with the work done tells each
worker to stop, leaving it any other way (an error, Ctrl-C, SIGTERM) kills them at once,
and cancels whatever still runs on a Dask cluster.
"""

from __future__ import annotations

import importlib
import multiprocessing
import os
import signal
import sys
import threading
import time
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from types import TracebackType
from typing import Any

from ..engine.errors import SetupError, excerpt, one_line

__all__ = ["INSTALL_DASK", "WORKERS_PER_CORE", "Runner", "Task", "check_where",
           "check_workers", "dask_client", "local_cores", "start_pool"]

INSTALL_DASK = "pip install 'tenleave_widget[distributed]'"

WORKERS_PER_CORE = 4
"""``workers`` above the cores this process may use warns (more processes than cores
play no faster: the games are pure CPU work); above this many per core it is refused
(each process holds its own interpreter, tens of megabytes)."""


def check_workers(workers: object) -> int:
    """``workers`` checked: a whole number from 1 to :data:`WORKERS_PER_CORE` per core
    (:func:`local_cores`), with a ``RuntimeWarning`` above the core count.

    >>> check_workers(1)
    1
    >>> check_workers(1.5)
    Traceback (most recent call last):
    ...
    tenleave_widget.engine.errors.SetupError: workers must be a whole number 1..., not 1.5 (...)
    """
    cores = local_cores()
    if type(workers) is not int or not 1 <= workers <= WORKERS_PER_CORE * cores:
        raise SetupError(
            f"workers must be a whole number 1..{WORKERS_PER_CORE * cores}, not "
            f"{excerpt(workers)} (at most {WORKERS_PER_CORE} per core; {cores} here)"
        )
    n = workers
    if n > cores:
        warnings.warn(
            f"{n} workers on {cores} cores: more processes than cores play no faster",
            RuntimeWarning, stacklevel=4,  # the caller of simulate(), review_many()
        )
    return n


def check_where(workers: object, scheduler: str | None, client: Any) -> int | None:
    """Where the work runs, checked: ``workers`` local processes (:func:`check_workers`)
    or a Dask cluster (``scheduler`` or ``client``), never both (shared with the batch
    review). The workers, or ``None`` for the default."""
    if (scheduler is not None or client is not None) and workers is not None:
        raise SetupError("workers= sets local processes; a Dask cluster has its own "
                         "workers (give either workers or scheduler/client)")
    if scheduler is not None and client is not None:
        raise SetupError("give either scheduler= or client=, not both")
    return None if workers is None else check_workers(workers)


def local_cores() -> int:
    """The cores this process may run on (``--workers`` default)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


_STOPS = {signal.SIGINT, signal.SIGTERM}


def _quiet_worker() -> None:
    """A worker's signals: Ctrl-C reaches the whole process group (a terminal, a Jupyter
    interrupt) and the parent alone handles it (it stops the workers), so a worker ignores
    SIGINT and prints no traceback; SIGTERM (the parent stopping it, or a SIGTERM to the
    whole group) ends it at once, silently — the default action, not a handler a forked
    worker inherited from the parent."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _STOPS)


@dataclass
class Failed:
    """A task's exception, sent back to the parent (raised there)."""

    error: BaseException


def _worker(conn: Any, inherited: Sequence[Any] = ()) -> None:
    """A worker's loop: play the runs of seed blocks it is sent until told to stop (None)
    or until the parent is gone (its end of the pipe closed: ``inherited``, the parent's
    ends a forked worker holds copies of, are closed first, or they would keep the pipe
    open after the parent died)."""
    _quiet_worker()
    for other in inherited:
        other.close()
    while True:
        try:
            task = conn.recv()
        except (EOFError, OSError):  # the parent is gone
            return
        if task is None:
            return
        try:
            fn, args = task  # a unit of work: a module-level function and its arguments
            result: Any = fn(*args)
        except Exception as e:
            result = Failed(e)
        try:
            try:
                conn.send(result)
            except Exception as e:  # an exception that does not pickle
                if isinstance(e, OSError):
                    raise
                conn.send(Failed(RuntimeError(f"{type(result).__name__}: {result}")))
        except OSError:  # the parent is gone: nothing to tell
            return


def pool_context(preload: Sequence[str] = ()) -> multiprocessing.context.BaseContext:
    """``fork`` (starts in milliseconds) where it is safe: Linux, no other Python thread
    running (the command line, scripts); ``forkserver`` in a process with threads (a
    Jupyter kernel); ``spawn`` elsewhere (macOS, Windows)."""
    if sys.platform.startswith("linux"):
        if threading.active_count() == 1:
            return multiprocessing.get_context("fork")
        ctx = multiprocessing.get_context("forkserver")
        ctx.set_forkserver_preload([__name__, *preload])
        return ctx
    return multiprocessing.get_context("spawn")


class Workers:
    """Local worker processes, each with a pipe of its own.

    No lock or queue is shared between them (as in ``multiprocessing.Pool``, where a
    worker killed while waiting for a task holds the shared queue's lock, and stopping
    the pool then waits forever): any worker can be stopped at any moment, and
    :meth:`stop` ends them all at once.
    """

    def __init__(self, ctx: multiprocessing.context.BaseContext, workers: int) -> None:
        self.procs: list[Any] = []
        self.conns: list[Any] = []
        forked = ctx.get_start_method() == "fork"
        for _ in range(workers):
            mine, theirs = ctx.Pipe()
            inherited = [*self.conns, mine] if forked else []
            proc: Any = ctx.Process(  # type: ignore[attr-defined]
                target=_worker, args=(theirs, inherited), daemon=True
            )
            self.procs.append(proc)
            self.conns.append(mine)
            proc.start()
            theirs.close()

    def stop(self, now: bool) -> None:
        """Stop every worker: at once (SIGKILL: an error, Ctrl-C, SIGTERM) or, when the
        work is done, by telling each to stop (then SIGKILL after a second)."""
        if not now:
            for conn in self.conns:
                try:
                    conn.send(None)
                except OSError:
                    pass
        deadline = time.monotonic() + (0 if now else 1.0)
        for proc in self.procs:
            if proc.pid is None:
                continue
            proc.join(max(0.0, deadline - time.monotonic()))
            if proc.exitcode is None:
                proc.kill()
                proc.join()
        for conn in self.conns:
            conn.close()


def start_pool(workers: int, preload: Sequence[str] = ()) -> Workers:
    """``workers`` worker processes that ignore Ctrl-C.

    Started before any progress bar (tqdm runs a monitor thread, and fork is only safe
    without other threads), with SIGINT and SIGTERM blocked meanwhile: the processes
    started now (the workers, a fork server, multiprocessing's resource tracker) inherit
    the block until their signals are set, so a Ctrl-C or a SIGTERM during start-up
    reaches the parent alone, once every worker exists — and the parent stops them.
    """
    mask = hasattr(signal, "pthread_sigmask") and threading.current_thread() is \
        threading.main_thread()
    if mask:
        signal.pthread_sigmask(signal.SIG_BLOCK, _STOPS)
    pool = None
    try:
        pool = Workers(pool_context(preload), workers)
    finally:
        try:
            if mask:  # a signal that came meanwhile is handled here
                signal.pthread_sigmask(signal.SIG_UNBLOCK, _STOPS)
        except BaseException:
            if pool is not None:
                pool.stop(now=True)
            raise
    return pool


def dask_client(scheduler: str) -> Any:
    """A ``distributed.Client`` connected to ``scheduler`` (a clear error without Dask)."""
    try:
        distributed: Any = importlib.import_module("distributed")  # optional, untyped here
    except ImportError:
        raise SetupError(
            f"a Dask scheduler needs the optional Dask extra: {INSTALL_DASK}"
        ) from None
    if isinstance(scheduler, str) and scheduler.startswith("inproc://"):
        raise SetupError(
            f"{excerpt(scheduler)} is an in-process address, which another process cannot "
            "reach: give the address of a scheduler, such as tcp://host:8786"
        )
    if not isinstance(scheduler, str) or not scheduler.strip() or not _host_and_port(scheduler):
        raise SetupError(
            f"scheduler must be an address such as tcp://host:8786, not {excerpt(scheduler)}"
        )
    try:
        return distributed.Client(scheduler, timeout="10s")
    except Exception as e:  # OSError, TimeoutError, or ValueError for a malformed address
        raise SetupError(
            f"cannot reach the Dask scheduler at {excerpt(scheduler)}: "
            f"{one_line(str(e) or type(e).__name__, 100)} "
            "(give an address such as tcp://host:8786)"
        ) from None


def _host_and_port(address: str) -> bool:
    """Whether a ``tcp://`` or ``tls://`` address names a host and a port 1..65535 (other
    schemes are left to Dask). Checked before connecting: Dask would try
    ``tcp://h:999999`` or ``tcp://:0`` for its whole 10-second timeout."""
    scheme, sep, rest = address.partition("://")
    if not sep or scheme not in ("tcp", "tls"):
        return True
    host, colon, port = rest.rpartition(":")
    return bool(colon and host.strip("[]") and port.isdigit() and 0 < int(port) < 65536)


Task = tuple[Callable[..., Any], tuple[Any, ...]]
"""A unit of work: a module-level function (picklable by name) and its arguments."""


class Runner:
    """Runs units of work where they are asked to run (see the module docstring).

    ``workers`` local processes (``None``: every core this process may use; never more
    than :attr:`most`, which may be set before entering; 1: this process), or a Dask
    cluster (``scheduler`` an address, or ``client`` a ``distributed.Client``; a client
    made from an address is closed on leaving). Entering starts the processes — before
    any progress bar, whose thread would make forking unsafe — and ``backend``
    (``"serial"``, ``"processes"`` or ``"dask"``) and ``workers`` (processes, or the
    cluster's threads) say where the work runs. ``preload``: modules a fork server
    imports once for all its workers.
    """

    def __init__(self, workers: int | None = None, scheduler: str | None = None,
                 client: Any = None, *, most: int | None = None,
                 preload: Sequence[str] = ()) -> None:
        self._asked = check_where(workers, scheduler, client)
        self._scheduler, self.client = scheduler, client
        self.most, self._preload = most, preload
        self._own_client: Any = None
        self.pool: Workers | None = None
        self.backend, self.workers = "serial", 1
        self.finished = False

    def __enter__(self) -> Runner:
        if self._scheduler is not None:
            self.client = self._own_client = dask_client(self._scheduler)
        if self.client is not None:
            self.backend = "dask"
            self.workers = max(1, int(sum(self.client.nthreads().values())))
            return self
        n = self._asked or local_cores()
        if self.most is not None:
            n = max(1, min(n, self.most))
        if n > 1:
            self.pool = start_pool(n, self._preload)
            self.backend, self.workers = "processes", n
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 tb: TracebackType | None) -> None:
        try:
            if self.pool is not None:  # done, an error, Ctrl-C or SIGTERM: none is left
                self.pool.stop(now=not self.finished or kind is not None)
        finally:
            if self._own_client is not None:
                self._own_client.close()

    def run(self, source: Callable[[], Task | None], report: Callable[[Any], None],
            window: int = 2) -> None:
        """Run the tasks ``source`` gives until it gives ``None``, ``window`` in flight
        per worker (per thread on Dask), each result to ``report`` as it comes."""
        if self.client is not None:
            _run_dask(self.client, self.workers, source, report, window)
        elif self.pool is not None:
            _run_processes(self.pool, source, report, window)
        else:
            while (task := source()) is not None:
                fn, args = task
                report(fn(*args))
        self.finished = True


def _run_processes(pool: Workers, source: Callable[[], Task | None],
                   report: Callable[[Any], None], window: int) -> None:
    from multiprocessing.connection import wait

    pending = dict.fromkeys(range(len(pool.conns)), 0)
    index = {id(c): i for i, c in enumerate(pool.conns)}

    def submit(i: int) -> None:
        task = source()
        if task is not None:
            pool.conns[i].send(task)
            pending[i] += 1

    for _ in range(window):
        for i in pending:
            submit(i)
    while any(pending.values()):
        for ready in wait([pool.conns[i] for i, n in pending.items() if n]):
            i = index[id(ready)]
            try:
                got = pool.conns[i].recv()
            except (EOFError, OSError):
                code = pool.procs[i].exitcode
                raise RuntimeError(
                    f"a worker process stopped before it finished (exit status {code})"
                ) from None
            pending[i] -= 1
            if isinstance(got, Failed):
                raise got.error
            report(got)
            submit(i)


def _run_dask(client: Any, slots: int, source: Callable[[], Task | None],
              report: Callable[[Any], None], window: int) -> None:
    as_completed: Any = importlib.import_module("distributed").as_completed
    running: set[Any] = set()
    done = as_completed()

    def submit() -> None:
        task = source()
        if task is not None:
            fn, args = task
            f = client.submit(fn, *args, pure=False)
            running.add(f)
            done.add(f)

    try:
        for _ in range(window * slots):
            submit()
        for f in done:
            running.discard(f)
            got = f.result()
            f.release()
            report(got)
            submit()
    finally:
        if running:  # an error or Ctrl-C: nothing is left running on the cluster
            client.cancel(list(running), force=True)
