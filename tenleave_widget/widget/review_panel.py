"""The review panel of replay mode: compute a game review without freezing the table,
then the per-seat summary and "show the best move". The evaluation graph is one of the
table's own panels (``review`` in ``PanelData.figures``,
:func:`~tenleave_widget.table.panels.figures.review_figure`), drawn by the table's bundled
plotly.js: a click on a point sends the ``goto`` intent, so the review works wherever the
table does (marimo included), and no ``FigureWidget`` (plotly.js, ~5 MB, in a saved
notebook) is made.

The review (:func:`tenleave_widget.analysis.review.review_steps`, a chunk of worlds per
step) runs as a :mod:`~tenleave_widget.table.tasks` job: in a thread of its own, or without
threads (Pyodide) a step per slice of the kernel's event loop; its progress and its result
are handed to that loop (``call_soon_threadsafe``, the task's future), which updates the
widgets, so the table keeps answering clicks meanwhile (without threads: between two
chunks). Without a loop that runs this code (a script, a test) it runs at once. Once
computed, the review is kept by the session (the narration labels each decision with it),
saved with the record by :meth:`TenLeaveWidget.save`, and read back from a saved record by
``replay``.

What a seat's view may show: every figure of the review is judged from the mover's view
and names the cards it played and should have played, so in a seat's view the panel and
the narration show that seat's own decisions only; the teacher's view shows them all.
"""

from __future__ import annotations

import asyncio
import html
import logging
import sys
from collections.abc import Callable
from typing import Any

import ipywidgets

from ..analysis.review import DEFAULT_SAMPLES, Review, check_budget, review, review_steps
from ..table import tasks
from ..table.session.machine import Session
from ..table.words.review_breakdown import breakdown_words, summary_table
from .owned import KernelOwned, owned

__all__ = ["ReviewPanel"]

log = logging.getLogger(__name__)

def _serving_loop() -> asyncio.AbstractEventLoop | None:
    """The event loop running this very code (a kernel's cell or comm message, an asyncio
    program's task), or None.

    A loop merely *marked* running in this thread does not count: Playwright's sync API
    between two calls, or a nested run left behind, leaves one whose callbacks wait until
    something resumes it, and a result handed to it would never arrive. Code a loop really
    runs runs in one of its tasks (ipykernel executes cells and comm messages in one).
    Under Pyodide the loop is the browser's own (its callbacks are the page's timers): it
    always runs, and the kernel hands a comm message (a click on *Review this game*) to
    the widget outside any task, so there the loop counts without one.
    """
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        return None
    if sys.platform == "emscripten":
        return loop
    return loop if asyncio.current_task(loop) is not None else None


class ReviewPanel(KernelOwned, ipywidgets.VBox):  # type: ignore[misc]
    """The review controls and the per-seat summary of a replay (the evaluation graph is
    a panel of the table).

    ``goto(turn)`` moves the table (the controller's); ``changed()`` refreshes it.

    Args:
        session: the table's session.
        goto: moves the table to a turn (the controller's).
        changed: refreshes the table.
    """

    def __init__(self, session: Session, goto: Callable[[int], None],
                 changed: Callable[[], None]) -> None:
        self.session = session
        self._goto = goto
        self._changed = changed
        self._worker: tasks.Task[Review] | None = None
        self._running = False
        # kernel-owned controls (.owned): a front end sets the two values only
        value = frozenset({"value"})
        self.samples = owned(ipywidgets.BoundedIntText, value)(
            value=DEFAULT_SAMPLES, min=1, max=100_000, description="worlds",
            layout=owned(ipywidgets.Layout)(width="160px"),
        )
        # its whole label (a fixed width cut it to "Review this ga…")
        self.button = owned(ipywidgets.Button)(
            description="Review this game", icon="search",
            layout=owned(ipywidgets.Layout)(width="auto"))
        self.button.on_click(lambda _b: self.start())
        self.best = owned(ipywidgets.Checkbox, value)(
            value=False, description="show the best move", indent=False)
        self.best.observe(self._on_best, names="value")
        self.progress = owned(ipywidgets.IntProgress)(
            min=0, max=max(1, session.live.turns_applied), description="reviewing",
            layout=owned(ipywidgets.Layout)(display="none"),
        )
        self.summary = owned(ipywidgets.HTML)()
        super().__init__([
            owned(ipywidgets.HBox)([self.button, self.samples, self.best, self.progress]),
            self.summary,
        ])
        self.add_class("tl-review")
        self.button.add_class("tl-review-start")
        self.best.add_class("tl-review-best")
        self._shown: tuple[int | None, int, bool] | None = None
        self.refresh()

    # ------------------------------------------------------------------ computing
    @property
    def running(self) -> bool:
        """A review is being computed (until its result or failure is shown)."""
        return self._running

    def start(self, samples: int | None = None, seed: int = 0) -> None:
        """Review the record: as a background job when the kernel's loop runs (progress
        shown, the table stays responsive), else at once.

        Args:
            samples: worlds per decision (default: the panel's control).
            seed: the review's seed.
        """
        if self.running:
            return
        k = int(self.samples.value) if samples is None else samples
        check_budget(k, seed, "margin")  # before anything is shown
        record = self.session.live.to_record()
        total = len(record["turns"])
        self.progress.max = max(1, total)
        self.progress.value = 0
        self.progress.layout.display = ""
        self.button.disabled = True
        self._running = True
        loop = _serving_loop()
        if loop is None:
            try:
                result = review(record, samples=k, seed=seed,
                                progress=lambda done, _t: self._progress(done))
            except Exception as e:
                self._failed(f"{type(e).__name__}: {e}")
                raise
            self._finish(result)
            return
        running = loop

        def report(done: int, _total: int) -> None:
            running.call_soon_threadsafe(self._progress, done)

        work = review_steps(record, samples=k, seed=seed, progress=report)  # a chunk a step
        self._worker = task = tasks.run(loop, work, thread="tenleave-review")
        task.future.add_done_callback(self._ended)

    def _ended(self, future: asyncio.Future[Review]) -> None:
        """On the loop: the review's result, or its failure, shown (a cancelled one: nothing)."""
        if future.cancelled():
            return
        error = future.exception()
        if error is None:
            self._finish(future.result())
            return
        log.error("the review failed", exc_info=error)
        self._failed(f"{type(error).__name__}: {error}")

    def _progress(self, done: int) -> None:
        self.progress.value = done

    def _failed(self, why: str) -> None:
        self._running = False
        self.progress.layout.display = "none"
        self.button.disabled = False
        self.summary.value = f"<b>The review failed:</b> {html.escape(why)}"

    def _finish(self, result: Review) -> None:
        self._running = False
        self.progress.layout.display = "none"
        self.button.disabled = False
        self.set_review(result)

    def set_review(self, result: Review | None) -> None:
        """Show ``result`` (a computed or saved review), or nothing.

        Args:
            result: the review, or ``None`` for none.
        """
        self.session.review = result
        self._shown = None
        self._changed()

    # ------------------------------------------------------------------ showing
    def _on_best(self, change: dict[str, Any]) -> None:
        self.session.show_best = bool(change["new"])
        self._changed()

    def jump(self, turn: int) -> None:
        """Show the position of the decision at ``turn`` (what a click on its point does).

        Args:
            turn: the decision's turn.
        """
        self._goto(turn)

    def refresh(self) -> None:
        """Redraw for the session's review and viewing seat (only what that seat may see)."""
        session = self.session
        r = session.review
        self.button.description = "Review again" if r is not None else "Review this game"
        self.best.disabled = r is None
        # how many sampled worlds: the analyst's setting, shown with Details (a class's
        # table shows the button and "show the best move" alone)
        self.samples.layout.display = "" if session.details else "none"
        key = (session.seat, id(r), session.details)
        if r is None:
            self.summary.value = ""
            self._shown = None
            return
        if self._shown == key:
            return
        self._shown = key
        seats = range(len(r.players)) if session.seat is None else [session.seat]
        self.summary.value = summary_table(r, seats, session.details) + "".join(
            f"<p class='tl-review-result'>{html.escape(line)}</p>"  # each result, in words
            for line in breakdown_words(r, list(seats)))
