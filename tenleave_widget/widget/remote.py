"""A student's seat at a dealer's table: ``join(url, code, name)``.

The table is today's table (:class:`~.controller.TenLeaveWidget`: the card table, its
odds panels, the moves panel, the coach) on a game the student's kernel does not hold: the
dealer (``tenleave serve``) keeps it and sends this seat its view only. The kernel keeps
that view with its public history (:class:`~..programs.dealer.remote.RemoteSeat`) and
shows the stand-in game rebuilt from it, whose every face-down value the seat cannot see
is a made-up one of the same back, never the real one; the panels and the coach read the
seat's view of it, which is the seat's view of the real game. Turns (and peeks and wakes,
whose cards the dealer shows) go to the dealer, which checks them; the table moves when
the dealer's frames come back. A dropped line is resumed with the seat's token. There is
no undo.

This module only moves state between the link and the table: the game source is
:mod:`tenleave_widget.programs.dealer.remote`.
"""

from __future__ import annotations

import asyncio
import sys
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, cast

from ..engine.errors import TenLeaveError, excerpt
from ..engine.record import check_name
from ..programs.dealer.remote import (
    BrowserLink,
    RemoteSeat,
    RemoteSession,
    ThreadLink,
    check_timeout,
    check_url,
    unanswered,
)
from ..programs.dealer.stand_in import stand_in
from ..programs.dealer.wire import WireError
from ..table.protocol import WidgetMessageError
from .controller import TenLeaveWidget
from .review_panel import _serving_loop

if TYPE_CHECKING:  # ssl is not in Pyodide's standard library until loaded
    from ssl import SSLContext

__all__ = ["RemoteTable", "join", "join_async", "on_loop"]


def on_loop(loop: asyncio.AbstractEventLoop | None, take: Callable[[], None]) -> None:
    """Call ``take`` on ``loop`` (the kernel's, from another thread), or at once when
    there is none (a script, a test)."""
    if loop is not None and not loop.is_closed():
        loop.call_soon_threadsafe(take)
    else:
        take()


class RemoteTable(TenLeaveWidget):
    """A student's table at the dealer's (build it with :func:`join`): ``seat``, ``code``
    and ``token`` (the seat's, to come back to it from another kernel: ``join(url,
    token=...)``); :meth:`drop` cuts the line (a fault, for tests); :meth:`close` leaves."""

    session_class = RemoteSession

    def __init__(self, remote: RemoteSeat, link: ThreadLink | BrowserLink,
                 loop: asyncio.AbstractEventLoop | None, **options: Any) -> None:
        self.remote = remote
        self.link = link
        self._loop = loop
        self._lock = threading.RLock()
        self._version = -1
        self._errors = 0
        assert remote.seat is not None
        with self._lock:
            game = remote.game()
            # every seat is played elsewhere (students, the dealer's bots): none here
            super().__init__(game, mode="play", humans=list(range(game.seats)), bots={},
                             bot_delay=0, **options)
            self.session.seat = remote.seat  # the view shown: this seat's, always
            self.remote_session.outbox = link.send
            self._take()

    @property
    def remote_session(self) -> RemoteSession:
        return cast(RemoteSession, self.session)

    @property
    def seat(self) -> int:
        """The seat this kernel plays."""
        assert self.remote.seat is not None
        return self.remote.seat

    @property
    def code(self) -> str | None:
        """The table's join code."""
        return self.remote.code

    @property
    def token(self) -> str | None:
        """The seat's token: it resumes this seat (keep it to yourself)."""
        return self.remote.token

    def handle_intent(self, intent: object) -> None:
        with self._lock:
            super().handle_intent(intent)

    def changed(self) -> None:
        """New frames came in (called in the link's thread): take them in on the kernel's
        event loop when there is one, else at once."""
        on_loop(self._loop, self._take)

    def _take(self) -> None:
        """Show the dealer's latest state on the table (a refusal first, in words)."""
        with self._lock:
            version, view, steps, reveal = self.remote.snapshot()
            if version == self._version or view is None:
                return
            self._version = version
            session = self.remote_session
            if self.remote.errors != self._errors:
                self._errors = self.remote.errors
                assert self.remote.error is not None
                session.refused(*self.remote.error)
            try:
                game = stand_in(view, reveal)
            except TenLeaveError:  # a state that does not fit its history: ask again
                self.link.drop()
                return
            session.adopt(game, steps)
            self._refresh()
            self._coach.kick()

    def goto(self, turn: int) -> None:
        raise WidgetMessageError("a game at the dealer's has no take-backs")

    def load(self, record: Any, turn: int | None = None) -> None:
        raise WidgetMessageError("the dealer keeps this table's game: no other can be loaded")

    def record(self) -> dict[str, Any]:
        raise WidgetMessageError("the dealer keeps this game's record (the teacher's class "
                                 "report reads it): this kernel holds only your view")

    def drop(self) -> None:
        """Cut the line to the dealer as a network fault would: the table resumes its
        seat with its token."""
        self.link.drop()

    def close(self) -> None:
        """Leave the table (the seat stays yours: its token resumes it) and close the
        widget."""
        self.link.close()
        super().close()


def join(url: str, code: str | None = None, name: str | None = None, *,
         token: str | None = None, seat: int | None = None, show_odds: bool = True,
         coach: str = "off", coach_samples: int | None = None, size: str | None = None,
         timeout: float = 10.0, ssl: SSLContext | None = None) -> RemoteTable:
    """Sit at a table of the dealer at ``url`` (``tenleave serve`` prints it) with its
    join ``code``, as ``name``; or come back to a seat with its ``token``.

    Args:
        url: the dealer's ``ws://`` or ``wss://`` address.
        code: the table's join code (the teacher's classroom shows it).
        name: the name the other players see.
        token: instead of ``code`` and ``name``: the seat's token (``w.token``).
        seat: a free seat to take (default: the first free one).
        show_odds: show the odds panels beside the table.
        coach: as :func:`~.entry.play`'s (``"off"``, ``"after"``, ``"before"``).
        coach_samples: the coach's worlds per decision (default: the review's).
        size: ``"small"``, ``"medium"``, ``"large"`` or ``"projector"``.
        timeout: seconds to wait for the dealer's answer.
        ssl: the TLS context for a ``wss://`` address whose certificate the system
            does not trust.

    Returns:
        The table (:class:`RemoteTable`), once the dealer has seated this kernel.

    Raises:
        WidgetMessageError: a bad argument; the dealer cannot be reached (said as soon as
            a first try fails, with why: nothing listens there, an unknown host, not a
            dealer, ...); or no answer within ``timeout``.
        WireError: the dealer refused (``w.fault``: ``bad-code``, ``table-full``,
            ``bad-token``, ...), in its words.
    """
    hello = _hello(url, code, name, token, seat, timeout)
    j = _Joining()
    j.link = ThreadLink(url, hello, j.on_frame, lambda: j.remote.token, ssl=ssl)
    j.link.start()
    j.link.wait(j.answered, timeout)  # a first try that failed is said at once
    return j.table(url, timeout, _serving_loop(), show_odds=show_odds, coach=coach,
                   coach_samples=coach_samples, size=size)


async def join_async(url: str, code: str | None = None, name: str | None = None, *,
                     token: str | None = None, seat: int | None = None,
                     show_odds: bool = True, coach: str = "off",
                     coach_samples: int | None = None, size: str | None = None,
                     timeout: float = 10.0) -> RemoteTable:
    """:func:`join` for a kernel that must not block while it waits for the dealer: in
    JupyterLite (Pyodide), ``w = await join_async(url, code, name)``, the link then being
    the browser's own WebSocket (:class:`~..programs.dealer.remote.BrowserLink`); in
    CPython the same as :func:`join`, awaited.

    Args:
        url: the dealer's ``ws://`` or ``wss://`` address.
        code: the table's join code.
        name: the name the other players see.
        token: instead of ``code`` and ``name``: the seat's token.
        seat: a free seat to take (default: the first free one).
        show_odds: show the odds panels beside the table.
        coach: as :func:`~.entry.play`'s.
        coach_samples: the coach's worlds per decision (default: the review's).
        size: ``"small"``, ``"medium"``, ``"large"`` or ``"projector"``.
        timeout: seconds to wait for the dealer's answer.

    Returns:
        The table (:class:`RemoteTable`).

    Raises:
        WidgetMessageError: a bad argument; the dealer cannot be reached (said as soon as
            a first try fails, with why: nothing listens there, an unknown host, not a
            dealer, ...); or no answer within ``timeout``.
        WireError: the dealer refused (its ``fault``), in its words.
    """
    hello = _hello(url, code, name, token, seat, timeout)
    j = _Joining()
    browser = sys.platform == "emscripten"
    if browser:
        j.link = BrowserLink(url, hello, j.on_frame, lambda: j.remote.token)
    else:
        j.link = ThreadLink(url, hello, j.on_frame, lambda: j.remote.token)
    j.link.start()
    end = time.monotonic() + timeout
    while not j.answered.is_set() and time.monotonic() < end and not (
            j.link.fault and not j.link.connects):  # a first try that failed: at once
        await asyncio.sleep(0.02)  # the page's loop (or the link's thread) answers
    return j.table(url, timeout, None if browser else asyncio.get_running_loop(),
                   show_odds=show_odds, coach=coach, coach_samples=coach_samples, size=size)


def _hello(url: object, code: object, name: object, token: object, seat: object,
           timeout: object) -> dict[str, Any]:
    """The first frame's fields of a join (or a resume), every argument checked; raises
    :class:`WidgetMessageError` naming a bad one."""
    check_url(url)
    if token is not None:
        if not isinstance(token, str) or code is not None or name is not None:
            raise WidgetMessageError("give a seat's token alone, or a join code and a name")
        hello: dict[str, Any] = {"kind": "resume", "token": token}
    else:
        if not isinstance(code, str) or not code.strip():
            raise WidgetMessageError(f"code must be the table's join code, not {excerpt(code)}")
        try:
            check_name(name)
        except TenLeaveError as e:
            raise WidgetMessageError(f"name: {e}") from None
        hello = {"kind": "join", "code": code, "name": name}
        if seat is not None:
            if type(seat) is not int:
                raise WidgetMessageError(f"seat must be a seat number, not {excerpt(seat)}")
            hello["seat"] = seat
    check_timeout(timeout)
    return hello


class _Joining:
    """A join under way: the seat's state, whether the dealer has answered, the link, and
    the table once built (later frames go to it)."""

    def __init__(self) -> None:
        self.remote = RemoteSeat()
        self.answered = threading.Event()
        self.link: ThreadLink | BrowserLink | None = None
        self.tables: list[RemoteTable] = []

    def on_frame(self, text: str) -> None:
        kind = self.remote.receive(text)
        if kind == "resync":
            assert self.link is not None
            self.link.drop()
            return
        if not self.answered.is_set():
            if kind == "error" and self.remote.seat is None:
                self.answered.set()
                raise WireError(*(self.remote.error or ("malformed", "")))  # ends the link
            if kind == "state":
                self.answered.set()
            return
        if self.tables:
            self.tables[0].changed()

    def table(self, url: str, timeout: float, loop: asyncio.AbstractEventLoop | None,
              **options: Any) -> RemoteTable:
        """The table, once the dealer has answered; raises as :func:`join` says."""
        assert self.link is not None
        if not self.answered.is_set():
            self.link.close()
            raise unanswered(url, timeout, self.link.fault)
        remote = self.remote
        if remote.view is None or remote.seat is None:
            self.link.close()
            fault, message = remote.error or ("malformed", "the dealer sent no table")
            raise WireError(fault, message)
        w = RemoteTable(remote, self.link, loop, **options)
        self.tables.append(w)
        w.changed()  # what came in meanwhile
        return w
