"""The teacher's view of a dealer: ``classroom(url, token)``.

Create tables (seats, bots, the Human Defense variant), read each table's join code, who
sits where (connected or not) and how far its game is, and at the end open the class
report of every finished game (the class review of ``tenleave review DIR``, on the
records the dealer sends the teacher). The teacher sees only the public state of a game
in progress. This module only moves state between the link and the widgets: the class's
state is :mod:`tenleave_widget.programs.dealer.classroom`'s.
"""

from __future__ import annotations

import asyncio
import html
import threading
import time
from typing import TYPE_CHECKING, Any

import ipywidgets

from ..analysis.review import check_budget
from ..engine.errors import excerpt
from ..programs.class_review import review_many
from ..programs.dealer.classroom import ClassState, create_fields, progress
from ..programs.dealer.remote import ThreadLink, check_timeout, check_url, unanswered
from ..programs.dealer.wire import WireError
from ..table.protocol import WidgetMessageError
from .remote import on_loop
from .review_panel import _serving_loop

if TYPE_CHECKING:  # ssl is not in Pyodide's standard library until loaded
    from ssl import SSLContext

__all__ = ["Classroom", "classroom"]

BOTS = ("greedy", "random", "lookahead", "reader")


def tables_html(url: str, tables: list[dict[str, Any]]) -> str:
    """The tables as an HTML table: code, seats (a bot, a student connected or away, a
    free seat) and the game's progress. Every name is escaped."""
    if not tables:
        return "<p class='tl-class-empty'>No table yet: create one above.</p>"
    rows = []
    for t in tables:
        turns, total = progress(t)
        seats = []
        for s in t["seats"]:
            name = html.escape(s["name"])
            if s["kind"] == "bot":
                seats.append(f"<span class='tl-class-bot'>{name}</span>")
            elif not s["taken"]:
                seats.append("<span class='tl-class-free'>free</span>")
            else:
                state = "connected" if s["connected"] else "away"
                seats.append(f"<span class='tl-class-{state}' title='{state}'>{name}"
                             f"{'' if s['connected'] else ' (away)'}</span>")
        done = "finished" if t["finished"] else f"{turns} / {total} turns"
        rows.append(
            f"<tr data-table='{html.escape(t['table'])}'><td><code class='tl-class-code'>"
            f"{html.escape(t['code'])}</code></td><td>{' · '.join(seats)}</td>"
            f"<td><progress max='{total}' value='{turns}'></progress> {done}</td></tr>")
    return (f"<p>Students: <code>tw.join({html.escape(repr(url))}, CODE, NAME)</code></p>"
            "<table class='tl-class-tables'><thead><tr><th>Join code</th><th>Seats</th>"
            "<th>Game</th></tr></thead><tbody>" + "".join(rows) + "</tbody></table>")


class Classroom(ipywidgets.VBox):  # type: ignore[misc]
    """The teacher's classroom (build it with :func:`classroom`): :meth:`create` a table,
    :attr:`tables` (each table's public summary), :meth:`report` (the class report);
    :meth:`close` leaves."""

    def __init__(self, url: str, state: ClassState, link: ThreadLink,
                 loop: asyncio.AbstractEventLoop | None) -> None:
        self.url = url
        self.state = state
        self.link = link
        self._loop = loop
        self._lock = threading.RLock()
        self._version = -1
        self._errors = state.errors
        self.report_samples: int | None = None
        """Worlds per decision of the class report's review (``None``: the review's)."""
        self.players = ipywidgets.Dropdown(options=[2, 3, 4, 5], value=3, description="Seats")
        self.bots = ipywidgets.Dropdown(options=[0, 1, 2, 3, 4], value=0, description="Bots")
        self.bot = ipywidgets.Dropdown(options=list(BOTS), value="greedy", description="Bot")
        self.token_change = ipywidgets.Checkbox(
            value=True, description="Human Defense: a new token at each daybreak pass",
            indent=False, layout=ipywidgets.Layout(width="auto"))
        self.create_button = ipywidgets.Button(description="Create a table",
                                               button_style="primary")
        self.create_button.on_click(lambda _b: self._create_clicked())
        self.report_button = ipywidgets.Button(description="Class report")
        self.report_button.on_click(lambda _b: self._report_clicked())
        self.message = ipywidgets.HTML("")
        self.view = ipywidgets.HTML("")
        self.report_view = ipywidgets.HTML("")
        self.view.add_class("tl-classroom")
        form = ipywidgets.HBox([self.players, self.bots, self.bot])
        super().__init__([ipywidgets.HTML("<h3>Classroom</h3>"), form, self.token_change,
                          ipywidgets.HBox([self.create_button, self.report_button]),
                          self.message, self.view, self.report_view])
        self._take()

    @property
    def tables(self) -> list[dict[str, Any]]:
        """Every table's public summary (``code``, ``seats``, ``turns_applied``,
        ``finished``, ``view``), oldest first."""
        return self.state.snapshot()

    def create(self, players: int = 3, bots: int = 0, bot: str = "greedy",
               token_change: bool = True, idle: float | None = None) -> None:
        """Create a table (it appears in :attr:`tables` when the dealer answers).

        Args:
            players: the seats (2 to 5).
            bots: how many of them the dealer's bots play (the last seats).
            bot: which bot (``"greedy"``, ``"random"``, ``"lookahead"``, ``"reader"``).
            token_change: False for the Human Defense variant with no new token between
                daybreak passes.
            idle: seconds a student may take before a bot plays that turn (``None``:
                never).

        Raises:
            WidgetMessageError: a bad argument (named).
        """
        self.link.send("create", create_fields(players, bots, bot, token_change, idle))

    def report(self, samples: int | None = None, timeout: float = 20.0) -> Any:
        """Open the class report of every finished game below the tables: the class
        review (``tenleave review DIR``'s) of the records the dealer sends.

        Args:
            samples: worlds per decision of the review (default: the review's).
            timeout: seconds to wait for the dealer's records.

        Returns:
            The class review (:class:`~tenleave_widget.programs.class_review.ClassReview`).

        Raises:
            WidgetMessageError: no finished game yet, no answer within ``timeout``, or a
                ``timeout`` :func:`~..programs.dealer.remote.check_timeout` refuses.
            SetupError: ``samples`` is not one a review takes.
        """
        check_timeout(timeout)
        check_budget(samples, 0, "margin")
        with self.state.lock:
            self.state.records = None
        self.link.send("records", {})
        end = time.monotonic() + timeout
        while True:  # the link's thread takes the records in
            with self.state.lock:
                if self.state.records is not None:
                    break
            if time.monotonic() > end:
                raise WidgetMessageError(f"the dealer sent no records within {timeout:g} s")
            time.sleep(0.02)
        records = dict(self.state.records or {})
        if not records:
            raise WidgetMessageError("no game has finished yet: the report reads finished "
                                     "games")
        c = review_many({f"{name}.json": r for name, r in sorted(records.items())},
                        samples=samples, workers=1)
        page = c.html()
        self.report_view.value = (
            "<iframe class='tl-class-report' title='Class report' style='width:100%;"
            f"height:900px;border:0' srcdoc=\"{html.escape(page, quote=True)}\"></iframe>")
        return c

    def changed(self) -> None:
        """New frames came in (in the link's thread): show them on the kernel's loop."""
        on_loop(self._loop, self._take)

    def _take(self) -> None:
        with self._lock:
            if self.state.version == self._version:
                return
            self._version = self.state.version
            if self.state.errors != self._errors and self.state.error is not None:
                self._errors = self.state.errors
                fault, text = self.state.error
                self.message.value = (f"<p class='tl-class-error'>The dealer refused it "
                                      f"({html.escape(fault)}): {html.escape(text)}</p>")
            self.view.value = tables_html(self.url, self.tables)

    def _create_clicked(self) -> None:
        try:
            self.create(int(self.players.value), int(self.bots.value), str(self.bot.value),
                        bool(self.token_change.value))
            self.message.value = ""
        except WidgetMessageError as e:
            self.message.value = f"<p class='tl-class-error'>{html.escape(str(e))}</p>"

    def _report_clicked(self) -> None:
        self.message.value = "<p>Reviewing the class's finished games…</p>"
        try:
            c = self.report(self.report_samples)
        except WidgetMessageError as e:
            self.message.value = f"<p class='tl-class-error'>{html.escape(str(e))}</p>"
            return
        self.message.value = f"<p>The class report: {len(c.games)} finished game(s).</p>"

    def close(self) -> None:
        """Leave (the tables go on at the dealer's) and close the widget."""
        self.link.close()
        super().close()


def classroom(url: str, token: str, *, timeout: float = 10.0,
              ssl: SSLContext | None = None) -> Classroom:
    """The teacher's classroom at the dealer at ``url`` (``tenleave serve`` prints the
    line to type, with the teacher's ``token``).

    Args:
        url: the dealer's ``ws://`` or ``wss://`` address.
        token: the teacher's token.
        timeout: seconds to wait for the dealer's answer.
        ssl: the TLS context for a ``wss://`` address whose certificate the system
            does not trust.

    Returns:
        The classroom (:class:`Classroom`).

    Raises:
        WidgetMessageError: a bad argument; the dealer cannot be reached (said as soon as
            a first try fails, with why); or no answer within ``timeout``.
        WireError: the dealer refused the token (``bad-token``).
    """
    check_url(url)
    if not isinstance(token, str) or not token:
        raise WidgetMessageError(f"token must be the teacher's token (tenleave serve prints "
                                 f"it), not {excerpt(token)}")
    check_timeout(timeout)
    state = ClassState()
    answered = threading.Event()
    rooms: list[Classroom] = []
    hello = {"kind": "teacher", "token": token}

    def on_frame(text: str) -> None:
        kind = state.receive(text)
        if not answered.is_set():
            if kind in ("classroom", "error"):
                answered.set()
            if kind == "error":
                raise WireError(*(state.error or ("malformed", "")))  # ends the link
            return
        if rooms:
            rooms[0].changed()

    link = ThreadLink(url, hello, on_frame, lambda: None, ssl=ssl, again=lambda: hello)
    link.start()
    if not link.wait(answered, timeout):  # a first try that failed is said at once
        link.close()
        raise unanswered(url, timeout, link.fault)
    if not state.hello:
        link.close()
        raise WireError(*(state.error or ("malformed", "the dealer sent no classroom")))
    room = Classroom(url, state, link, _serving_loop())
    rooms.append(room)
    room.changed()
    return room
