"""A class review's work: every decision of every record judged on every core (or a Dask
cluster), and each game's review assembled as its last decision comes in.

The unit of work is one decision (:func:`~tenleave_widget.analysis.review.judge_decision`,
a pure function of the mover's view, the turn played, the budget and the seed), so a long
game does not hold a run up and a single game uses every core too. Only the view and the
judged decision cross processes, and each decision's seed is the review's seed and its
turn: the results are the same, byte for byte, whatever runs them (this process, W
processes, Dask) and the same as :func:`~tenleave_widget.analysis.review.review` of each
record alone.
"""

from __future__ import annotations

import errno
import os
import stat
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...analysis.analyse import ANALYSIS_FORMAT
from ...analysis.review import (
    Decision,
    Review,
    TurnReview,
    assemble_review,
    decisions,
    judge_decision,
    saved_review,
)
from ...analysis.review.evaluator import check_budget
from ...engine.errors import TenLeaveError, one_line
from ...engine.record import RecordSource, record_digest, record_object
from ..pool import Runner, Task
from .kinds import kinds_of
from .spool import GameResult, GameSpool, reread
from .tally import ClassReview

__all__ = ["WINDOW", "record_files", "review_many", "scan_records", "shown_name"]

WINDOW = 2
"""Decisions in flight per worker: the one it judges and the next (it never waits for
one). A decision sent is that worker's to judge, so a deeper queue only unbalances the
end of a run: with the CPU times of the 3-seat sample's 30 decisions (0.02 to 2.6 s,
17.3 s in all), handed out in order to 2 workers, 4 in flight end after 8.96 s, 2 (or
1) after 8.68 s, where half the work is 8.67 s."""


def record_files(paths: Iterable[str | os.PathLike[str]]) -> list[str]:
    """The record files named: a folder gives its ``*.json`` files, sorted by name (what
    :func:`scan_records` keeps)."""
    return scan_records(paths)[0]


def scan_records(paths: Iterable[str | os.PathLike[str]]) -> tuple[list[str], list[str]]:
    """The record files named, and a line for each entry of a folder left out: a folder
    gives its ``*.json`` entries sorted by name, those that are regular files (or
    symbolic links to one); every other ``*.json`` entry — a folder, a device, a FIFO, a
    socket, a symbolic link that loops or leads nowhere — is named (:func:`shown_name`)
    with what it is. A path named directly is kept as it is (reading it says what is
    wrong)."""
    out: list[str] = []
    skipped: list[str] = []
    for p in paths:
        path = Path(p)
        if not os.path.isdir(p):  # not "": that is no folder (Path("") is ".")
            out.append(str(p))
            continue
        for f in sorted(path.glob("*.json")):
            what = _not_a_record(f)
            if what is None:
                out.append(str(f))
            else:
                skipped.append(f"{shown_name(str(f))}: skipped, {what}")
    return out, skipped


def _not_a_record(f: Path) -> str | None:
    """What the folder entry ``f`` is when it is not a regular file (followed through
    symbolic links), else None."""
    try:
        mode = os.stat(f).st_mode
    except OSError as e:
        if e.errno == errno.ELOOP:
            return "a symbolic link that loops"
        if f.is_symlink():
            return "a symbolic link to nothing"
        return f"cannot be read ({e.strerror or e})"
    if stat.S_ISREG(mode):
        return None
    kinds = ((stat.S_ISDIR, "a folder"), (stat.S_ISCHR, "a device"),
             (stat.S_ISBLK, "a device"), (stat.S_ISFIFO, "a FIFO"),
             (stat.S_ISSOCK, "a socket"))
    return next((what for test, what in kinds if test(mode)), "not a regular file")


def shown_name(name: str) -> str:
    """A file name as one printable line: each character that is not printable (a
    newline, a terminal escape, a byte that is not UTF-8) written as Python escapes it.

    >>> print(shown_name("two\\nlines\\x1b[2J.json"))
    two\\nlines\\x1b[2J.json
    """
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in name)


@dataclass
class _Pending:
    """A game being reviewed: what it needs besides its record, which is read again
    when its decisions are handed out and when it is assembled (so that memory holds
    the records of the games in flight only, not of the whole batch). Its decisions'
    kinds are worked out when they are handed out."""

    file: str
    source: RecordSource
    decisions: int
    digest: str
    kinds: list[list[str]] = field(default_factory=list)
    judged: dict[int, TurnReview] = field(default_factory=dict)

    def record(self) -> dict[str, Any]:
        return reread(self.file, self.source, self.digest)


_Job = tuple[int, Decision, int, int, str, str, float | str]
"""One decision to judge: the game's index, the decision, samples, seed, objective, model
and beta."""


def _judge(job: _Job) -> tuple[int, TurnReview]:
    """One unit of work (module level, so that a process pool can pickle it)."""
    gi, d, samples, seed, objective, model, beta = job
    return gi, judge_decision(d, samples=samples, seed=seed, objective=objective,
                              model=model, beta=beta)


def _same_judge(saved: Review) -> bool:
    """Whether a saved review was judged as this batch judges: every turn by the one
    analysis (a review saved by the earlier evaluator is judged again, so the batch says
    what the other places say)."""
    return all(t.analysis == ANALYSIS_FORMAT for t in saved.turns)


def review_many(
    records: Sequence[RecordSource] | Mapping[str, RecordSource],
    *,
    samples: int | None = None,
    seed: int = 0,
    objective: str = "margin",
    model: str = "uniform",
    beta: float | str = "fitted",
    workers: int | None = None,
    scheduler: str | None = None,
    client: Any = None,
    progress: bool | Callable[[int, int], None] = False,
    merge_copies: bool = False,
) -> ClassReview:
    """Review a batch of records (paths, record objects, or a mapping of names to
    either) and bring the reviews together (:class:`ClassReview`).

    Each record's review is the one :func:`~tenleave_widget.analysis.review.review` gives
    with the same ``samples``, ``seed``, ``objective``, ``model`` and ``beta`` — or the
    review saved in the record (reused, not recomputed) when it has a valid one of that
    objective, model and beta (an invalid one is ignored: the game is reviewed again). A
    record that fails to load is one line in :attr:`ClassReview.failures` (naming it) and
    the others go on. ``merge_copies``: copies of one game (the same
    :func:`~tenleave_widget.engine.record.record_digest`: a duplicate file, a symbolic
    link) are reviewed once, under the first name, and each other copy is one line in
    :attr:`ClassReview.merged` (else each is a game of the batch, as given). Names in
    those lines are escaped (:func:`shown_name`).
    Where the decisions are judged: ``workers`` local processes (default: every core; 1:
    this process), or a Dask cluster (``scheduler`` address or ``client``); the results
    are identical whatever runs them. ``progress``: a progress bar over decisions (tqdm)
    or a function called with (decisions done, decisions in all). Ctrl-C stops the work
    and its processes.

    Memory stays flat however many records: a record is read when its game is listed,
    when its decisions are handed out and when its review is assembled (a path is read
    again each time; a record object is referred to, not copied); each game's review
    goes to a :class:`GameSpool` on disk as soon as it is assembled; what the games say
    together is worked out in one pass over the spool, keeping 8 bytes a decision and
    the positions worth discussing so far.
    """
    budget = check_budget(samples, seed, objective, model, beta)
    inferred = model == "inferred"
    where = Runner(workers, scheduler, client, preload=[__name__])  # checked here
    named = (list(records.items()) if isinstance(records, Mapping)
             else [(str(r) if not isinstance(r, dict) else f"record {i + 1}", r)
                   for i, r in enumerate(records)])
    t0 = time.perf_counter()
    failures: list[str] = []
    merged: list[str] = []
    firsts: dict[str, str] = {}  # record digest -> the name of its first copy
    spool = GameSpool()
    slots: list[_Pending | None] = []  # the games still to review, by index
    for name, src in named:
        try:
            obj = record_object(src)
            ds = decisions(obj, history=inferred)
            try:
                saved = saved_review(obj) if "review" in obj else None
            except TenLeaveError:  # an edited or stale saved review: reviewed again
                saved = None
        except TenLeaveError as e:
            failures.append(f"{shown_name(name)}: {one_line(str(e))}")
            continue
        digest = record_digest(obj)
        if merge_copies and digest in firsts:  # a copy (a duplicate, a link): counted once
            merged.append(f"{shown_name(name)}: the same game as "
                          f"{shown_name(firsts[digest])}, reviewed once")
            del obj, ds, saved
            continue
        firsts[digest] = name
        gi = spool.slot()
        if saved is not None and (saved.objective, saved.model, saved.beta) == (
                objective, model, beta if inferred else "fitted") and _same_judge(saved):
            kinds = [kinds_of(d.view, d.played) for d in ds]  # kept at once
            spool.put(gi, GameResult(name, saved, True, kinds, digest, src))
            slots.append(None)
        else:
            slots.append(_Pending(name, src, len(ds), digest))
        del obj, ds, saved

    def handed_out(gi: int, p: _Pending) -> Iterator[_Job]:
        ds = decisions(p.record(), history=inferred)
        p.kinds = [kinds_of(d.view, d.played) for d in ds]
        for d in ds:
            yield (gi, d, budget, seed, objective, model, beta)

    # made as they are handed out, so that only the decisions in flight hold a view
    jobs = (job for gi, p in enumerate(slots) if p is not None and p.decisions
            for job in handed_out(gi, p))
    total = sum(p.decisions for p in slots if p is not None)

    def assemble(gi: int) -> None:
        p = slots[gi]
        assert p is not None
        judged = [p.judged[k] for k in range(p.decisions)]
        r = assemble_review(p.record(), judged, samples=budget, seed=seed,
                            objective=objective, model=model, beta=beta)
        spool.put(gi, GameResult(p.file, r, False, p.kinds, p.digest, p.source))
        slots[gi] = None

    for gi, p in enumerate(slots):  # a game without a decision
        if p is not None and not p.decisions:
            assemble(gi)
    where.most = total  # no more processes than decisions
    backend, used = _run(jobs, total, slots, where, progress, assemble)
    assert spool.complete(), "every game is assembled"
    return ClassReview(spool, failures, backend, used, time.perf_counter() - t0, total,
                       merged=merged)


def _run(
    jobs: Iterator[_Job],
    total: int,
    slots: list[_Pending | None],
    where: Runner,
    progress: bool | Callable[[int, int], None],
    assemble: Callable[[int], None],
) -> tuple[str, int]:
    bar: Any = None
    count = [0]

    def report(got: tuple[int, TurnReview]) -> None:
        gi, t = got
        p = slots[gi]
        assert p is not None
        p.judged[t.turn] = t
        if len(p.judged) == p.decisions:  # its last decision: the game's review now
            assemble(gi)
        count[0] += 1
        if bar is not None:
            bar.update(1)
        elif callable(progress):
            progress(count[0], total)

    def source() -> Task | None:
        job = next(jobs, None)
        return None if job is None else (_judge, (job,))

    with where:
        try:
            if progress is True and total:
                from tqdm.auto import tqdm

                bar = tqdm(total=total, unit="decision", desc="review", leave=False)
            where.run(source, report, WINDOW)
        finally:
            if bar is not None:
                bar.close()
    return where.backend, where.workers
