"""A remote seat: the game source of a student's table whose game the dealer keeps.

The student's kernel holds only what its seat may know: the seat's view with its public
history, kept up to date from the dealer's ``state`` frames (:class:`RemoteSeat`, no
network in it), and rebuilt into a stand-in game (:func:`.stand_in.stand_in`) that the
table, its panels and its coach read as they read any game. :class:`RemoteSession` is the
table's session for such a game: a step that reveals a face-down value (a peek, a wake)
and every ended turn go to the dealer instead of being done on the stand-in, and the
table moves on when the dealer's frames come back. There is no undo. :class:`ThreadLink`
carries the frames on a WebSocket in a thread of its own, and resumes the seat with its
token when the line drops.

>>> seat = RemoteSeat()
>>> seat.receive('{"wire": "tenleave-wire/1", "kind": "error", "fault": "bad-code", '
...              '"message": "no table has the join code \\'X\\'"}')
'error'
>>> seat.error
('bad-code', "no table has the join code 'X'")
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, cast

from ...engine.errors import TenLeaveError, excerpt
from ...engine.game import Game
from ...engine.turn import Turn, TurnStep
from ...engine.view import View, ViewWithHistory
from ...table.protocol import StepIntent, WidgetMessageError
from ...table.session.history import build_history
from ...table.session.machine import Session
from .stand_in import stand_in
from .wire import WIRE, WireError

if TYPE_CHECKING:  # ssl is not in Pyodide's standard library until loaded
    from ssl import SSLContext

__all__ = ["BrowserLink", "RemoteSeat", "RemoteSession", "ThreadLink", "check_url"]

log = logging.getLogger("tenleave.remote")

REVEALING = ("peek", "wake")
"""The steps the dealer does (they show a face-down value the stand-in cannot know)."""


def check_url(url: object) -> str:
    """``url``, a dealer's address (``ws://`` or ``wss://``); raises
    :class:`WidgetMessageError` naming it otherwise.

    >>> check_url("ws://127.0.0.1:8765")
    'ws://127.0.0.1:8765'
    >>> try:
    ...     check_url("http://x")
    ... except WidgetMessageError as e:
    ...     print(str(e)[:40])
    url must be a dealer's ws:// or wss:// a
    """
    if not isinstance(url, str) or not url.startswith(("ws://", "wss://")) or len(url) > 2000:
        raise WidgetMessageError("url must be a dealer's ws:// or wss:// address (the line "
                                 f"`tenleave serve` prints), not {excerpt(url)}")
    return url


MAX_TIMEOUT = 3600.0
"""The longest wait for a dealer's answer, in seconds."""


def check_timeout(timeout: object) -> float:
    """``timeout``, seconds to wait for a dealer: a number in (0, :data:`MAX_TIMEOUT`];
    raises :class:`WidgetMessageError` naming it otherwise (NaN, an infinite or huge
    wait, which no clock can time, included).

    >>> check_timeout(10)
    10.0
    """
    if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or not (
            0 < timeout <= MAX_TIMEOUT):
        raise WidgetMessageError(f"timeout must be seconds, more than 0 and at most "
                                 f"{MAX_TIMEOUT:g}, not {excerpt(timeout)}")
    return float(timeout)


class RemoteSeat:
    """What a student's kernel knows of its seat, from the dealer's frames: the seat, its
    token, the table's code, the seat's view with its public history (``view``), the turn
    in progress's kept steps and the view of them (``steps``, ``reveal``), and the last
    error frame (``error``: fault, message). ``version`` counts the changes. Thread-safe
    (a lock around every change and :meth:`snapshot`)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.seat: int | None = None
        self.token: str | None = None
        self.table: str | None = None
        self.code: str | None = None
        self.view: ViewWithHistory | None = None
        self.steps: list[TurnStep] = []
        self.reveal: View | None = None
        self.error: tuple[str, str] | None = None
        self.errors = 0
        self.version = 0

    def receive(self, text: str) -> str:
        """Take one frame from the dealer; its kind (``"resync"`` when a state does not
        follow the one before: the seat must be resumed for the full state). Raises
        :class:`WireError` (``malformed``) for a frame that is not the protocol's."""
        try:
            msg = json.loads(text)
            kind = msg["kind"]
        except (ValueError, TypeError, KeyError):
            raise WireError("malformed", "the dealer sent a frame that is not "
                            "tenleave-wire/1") from None
        if msg.get("wire") != WIRE:
            raise WireError("version", f"the dealer speaks {excerpt(msg.get('wire'))}, not "
                            f"{WIRE}")
        with self.lock:
            if kind == "seated":
                self.seat, self.table, self.code = msg["seat"], msg["table"], msg["code"]
                self.token = msg.get("token", self.token)
            elif kind == "state":
                if not self._state(msg):
                    return "resync"
            elif kind == "error":
                self.error = (str(msg.get("fault")), str(msg.get("message")))
                self.errors += 1
            else:
                return str(kind)
            self.version += 1
        return str(kind)

    def _state(self, msg: dict[str, Any]) -> bool:
        view = msg["view"]
        if "steps" in msg:  # the turn in progress (this seat's), its steps done
            self.steps, self.reveal = list(msg["steps"]), view
            return True
        if "history" in view:  # the full state (after joining or resuming)
            self.view, self.steps, self.reveal = view, [], None
            return True
        if self.view is None or view["seat"] != self.view["seat"]:
            return False
        turns = list(self.view["history"]["turns"])
        if view["turns_applied"] == len(turns) + 1:
            turns.append(list(view["events"]))
        elif view["turns_applied"] != len(turns):
            return False
        self.view = cast(ViewWithHistory,
                         {**view, "history": {**self.view["history"], "turns": turns}})
        self.steps, self.reveal = [], None
        return True

    def snapshot(self) -> tuple[int, ViewWithHistory | None, list[TurnStep], View | None]:
        """(``version``, ``view``, ``steps``, ``reveal``) as they are now."""
        with self.lock:
            return self.version, self.view, list(self.steps), self.reveal

    def game(self) -> Game:
        """The stand-in game of the latest view (with the turn in progress's reveals)."""
        _, view, _, reveal = self.snapshot()
        if view is None:
            raise WidgetMessageError("the dealer has not sent the table yet")
        return stand_in(view, reveal)


class RemoteSession(Session):
    """The session of a table whose game the dealer keeps (see the module). ``outbox``
    sends a frame (kind, fields) to the dealer; the widget sets it. ``waiting`` is True
    from a frame sent until the dealer's answer has been taken in (:meth:`adopt`)."""

    outbox: Callable[[str, dict[str, Any]], None] | None = None
    waiting = False
    awaiting: tuple[str, int, int] = ("", 0, 0)
    """The kind of the frame sent last, its ``at`` and its number of steps."""

    def turn_refusal(self) -> str | None:
        if self.waiting:
            return "waiting for the dealer to answer"
        return super().turn_refusal()

    def _step(self, step: StepIntent) -> None:
        if step["kind"] not in REVEALING:
            super()._step(step)
            return
        self._require_turn()
        steps: list[TurnStep] = [*self.pending, step.copy()]
        self.live.preview(steps)  # the legality only: the stand-in's values are not real
        self._send("step", {"steps": steps, "at": self.live.turns_applied})
        self.say("Asking the dealer…")

    def _undo(self) -> None:
        raise WidgetMessageError("a game at the dealer's has no take-backs")

    def _again(self) -> None:
        raise WidgetMessageError("the teacher starts the next game at the dealer's")

    def apply(self, turn: Turn) -> None:
        """Send the ended turn to the dealer (the table moves when the dealer's state
        comes back); the stand-in is not played on."""
        self._send("turn", {"turn": dict(turn.to_json()), "at": self.live.turns_applied})

    def _send(self, kind: str, fields: dict[str, Any]) -> None:
        if self.outbox is None:
            raise WidgetMessageError("this table is not connected to a dealer")
        self.outbox(kind, fields)
        self.waiting = True
        self.awaiting = (kind, int(fields["at"]), len(fields.get("steps", ())))

    def answered(self, game: Game, steps: list[TurnStep]) -> bool:
        """Whether the dealer's state (``game``, ``steps``) answers the frame sent last:
        the steps done, or the turn (or any turn) applied since."""
        kind, at, count = self.awaiting
        return game.turns_applied > at or (kind == "step" and len(steps) >= count)

    def adopt(self, game: Game, steps: list[TurnStep]) -> None:
        """Take in the dealer's latest: ``game`` (the stand-in) as the line of play, and
        ``steps`` of the turn in progress as the dealer kept them."""
        self.cancel_bots()
        waiting = self.waiting and not self.answered(game, steps)
        same_turn = game.turns_applied == self.live.turns_applied
        self.history = build_history(game)
        self.turn = len(self.history) - 1
        if waiting:  # the table keeps the steps it shows until the answer
            pass
        elif same_turn and self.pending[:len(steps)] == steps:
            # a frame about something else (a name, a resumed line): the student's steps
            # since the dealer's last stay on the table
            self.preview = game.preview(self.pending) if self.pending else None
        else:
            self.pending = list(steps)
            self.preview = game.preview(steps) if steps else None
        self.waiting = waiting
        self.mode.after_turn(self)

    def refused(self, fault: str, message: str) -> None:
        """The dealer refused the last frame: say why; the table goes back to the dealer's
        state (:meth:`adopt` follows)."""
        self.waiting = False
        self.say(f"The dealer refused it ({fault}): {message}", "error")


def unanswered(url: str, timeout: float, fault: str | None) -> WidgetMessageError:
    """The error of a dealer that did not answer: why it could not be reached (a link's
    ``fault``), or that it said nothing within ``timeout`` seconds."""
    return WidgetMessageError(f"cannot reach the dealer at {url}: {fault}" if fault else
                              f"the dealer at {url} did not answer within {timeout:g} s")


def why_not(e: BaseException) -> str:
    """Why a try to connect to a dealer failed, in words a student can act on: nothing
    listens there, an unknown host, a certificate not trusted, something that is not a
    dealer, no answer; else the system's own words."""
    import socket
    import ssl

    from websockets.exceptions import InvalidHandshake, InvalidURI

    if isinstance(e, ConnectionRefusedError):
        return "nothing listens at that address and port: is tenleave serve running there?"
    if isinstance(e, socket.gaierror):
        return "that host name is not known: check the address tenleave serve printed"
    if isinstance(e, ssl.SSLCertVerificationError):
        return (f"its TLS certificate is not trusted ({e.verify_message}): pass ssl= a "
                "context that trusts it")
    if isinstance(e, ssl.SSLError):
        return (f"the TLS handshake failed ({e.reason or e}): does the dealer serve wss:// "
                "(tenleave serve --certfile)? Else use ws://")
    if isinstance(e, InvalidURI):
        return "that is not a WebSocket address: use the one tenleave serve printed"
    if isinstance(e, InvalidHandshake):
        return ("something answers there, but not a dealer: use the address tenleave serve "
                "printed, not a web page's")
    if isinstance(e, (TimeoutError, asyncio.TimeoutError)):
        return "no answer to the connection within 5 s"
    if isinstance(e, OSError) and e.strerror:
        return e.strerror
    return type(e).__name__


class ThreadLink:
    """One seat's WebSocket to the dealer at ``url``, in a daemon thread with its own
    event loop: sends ``hello`` (a ``join`` or ``resume`` frame's fields) first, hands every
    frame received to ``on_frame`` (in the thread), and when the line drops, resumes the
    seat with ``token()`` (or says ``again()``'s hello: the teacher's) retrying every
    ``retry`` seconds, until :meth:`close`. ``ssl``:
    the TLS context for a ``wss://`` address whose certificate the system does not
    trust. ``on_status`` is told ``"connected"``, ``"reconnecting"`` and ``"closed"``."""

    def __init__(self, url: str, hello: dict[str, Any], on_frame: Callable[[str], None],
                 token: Callable[[], str | None], *, ssl: SSLContext | None = None,
                 on_status: Callable[[str], None] | None = None, retry: float = 0.5,
                 again: Callable[[], dict[str, Any]] | None = None) -> None:
        self.url = url
        self.hello = hello
        self.again = again or (lambda: {"kind": "resume", "token": self.token()})
        self.on_frame = on_frame
        self.token = token
        self.ssl = ssl
        self.on_status = on_status or (lambda status: None)
        self.retry = retry
        self.connects = 0
        self.failures = 0
        self.fault: str | None = None
        """Why the last try to connect failed, in words (None once connected)."""
        self._tried = threading.Event()  # the first try has ended, connected or not
        self._loop: asyncio.AbstractEventLoop | None = None
        self._queue: asyncio.Queue[str] | None = None
        self._ws: Any = None
        self._closed = threading.Event()
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._run, name="tenleave-dealer-link",
                                        daemon=True)

    def start(self) -> None:
        """Start the thread (it connects at once)."""
        self._thread.start()
        self._ready.wait(5)

    def wait(self, answered: threading.Event, timeout: float) -> bool:
        """Wait at most ``timeout`` seconds for ``answered`` (the dealer's first answer),
        but no longer than the first try to connect if it failed (its :attr:`fault` says
        why); whether the dealer answered."""
        end = time.monotonic() + timeout
        self._tried.wait(timeout)
        if self.fault is None or self.connects:
            answered.wait(max(0.0, end - time.monotonic()))
        return answered.is_set()

    def send(self, kind: str, fields: dict[str, Any]) -> None:
        """Send a frame of ``kind`` with ``fields`` (from any thread; queued while the line
        is down and sent when it is back)."""
        text = json.dumps({"wire": WIRE, "kind": kind, **fields})
        loop, queue = self._loop, self._queue
        if loop is not None and queue is not None and not self._closed.is_set():
            loop.call_soon_threadsafe(queue.put_nowait, text)

    def drop(self) -> None:
        """Cut the connection as a network fault would (the link resumes the seat)."""
        loop, ws = self._loop, self._ws
        if loop is not None and ws is not None:
            loop.call_soon_threadsafe(ws.transport.abort)

    def close(self) -> None:
        """Close the connection for good and end the thread (waits for it, at most 5 s)."""
        self._closed.set()
        loop, ws = self._loop, self._ws
        if loop is not None and ws is not None:
            try:
                loop.call_soon_threadsafe(lambda: asyncio.ensure_future(ws.close()))
            except RuntimeError:  # the thread has ended already
                pass
        self._thread.join(5)

    def _run(self) -> None:
        asyncio.run(self._main())

    async def _main(self) -> None:
        from websockets.asyncio.client import connect
        from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

        self._loop = asyncio.get_running_loop()
        self._queue = asyncio.Queue()
        self._ready.set()
        first = True
        while not self._closed.is_set():
            hello = self.hello if first else self.again()
            try:
                kwargs: dict[str, Any] = {"max_size": None, "open_timeout": 5}
                if self.ssl is not None:
                    kwargs["ssl"] = self.ssl
                async with connect(self.url, **kwargs) as ws:
                    self._ws = ws
                    self.connects += 1
                    self.fault = None
                    self._tried.set()
                    kind = hello["kind"]
                    fields = {k: v for k, v in hello.items() if k != "kind"}
                    await ws.send(json.dumps({"wire": WIRE, "kind": kind, **fields}))
                    first = False
                    self.on_status("connected")
                    writer = asyncio.ensure_future(self._write(ws))
                    try:
                        async for text in ws:
                            if isinstance(text, str):
                                self._hand(text)
                            if self._closed.is_set():
                                break
                    finally:
                        writer.cancel()
            except (OSError, ConnectionClosed, asyncio.TimeoutError, InvalidHandshake) as e:
                log.info("the dealer's line dropped: %r", e)
                if self._ws is None:
                    self.fault = why_not(e)
            except InvalidURI as e:  # no try can succeed
                self.fault = why_not(e)
                break
            except TenLeaveError as e:  # the seat cannot go on (a refused join)
                log.info("the seat stopped: %s", e)
                break
            finally:
                self._tried.set()
            self._ws = None
            if self._closed.is_set():
                break
            self.on_status("reconnecting")
            try:
                await asyncio.wait_for(asyncio.to_thread(self._closed.wait, self.retry),
                                       self.retry + 1)
            except asyncio.TimeoutError:
                pass
        self.on_status("closed")

    def _hand(self, text: str) -> None:
        """Hand a frame on; a refusal that ends the seat (:class:`TenLeaveError`) ends the
        link, any other failure is logged and the link goes on."""
        try:
            self.on_frame(text)
        except TenLeaveError:
            raise
        except Exception:  # noqa: BLE001 - the line must outlive a bug in one frame
            log.exception("a frame from the dealer could not be taken in")
            self.failures += 1

    async def _write(self, ws: Any) -> None:
        assert self._queue is not None
        while True:
            text = await self._queue.get()
            await ws.send(text)


class BrowserLink:
    """One seat's WebSocket to the dealer through the browser's own ``WebSocket`` (for a
    kernel in the browser, Pyodide, where Python cannot open a socket): the same duties
    as :class:`ThreadLink` (``hello`` first, every frame to ``on_frame``, a dropped line
    resumed every ``retry`` seconds until :meth:`close`), on the page's event loop, with
    no thread. Frames sent while the line is down are queued."""

    def __init__(self, url: str, hello: dict[str, Any], on_frame: Callable[[str], None],
                 token: Callable[[], str | None], *, retry: float = 0.5,
                 again: Callable[[], dict[str, Any]] | None = None) -> None:
        self.url = url
        self.hello = hello
        self.on_frame = on_frame
        self.token = token
        self.retry = retry
        self.again = again or (lambda: {"kind": "resume", "token": self.token()})
        self.connects = 0
        self.failures = 0
        self.fault: str | None = None
        """The browser's WebSocket tells no reason a try failed: always None."""
        self._ws: Any = None
        self._queue: list[str] = []
        self._closed = False
        self._proxies: list[Any] = []

    def start(self) -> None:
        """Open the connection (its answers come in on the page's loop)."""
        self._open(self.hello)

    def _open(self, hello: dict[str, Any]) -> None:
        import importlib

        js: Any = importlib.import_module("js")  # the page's globals (Pyodide only)
        create_proxy = importlib.import_module("pyodide.ffi").create_proxy

        ws = js.WebSocket.new(self.url)
        self._ws = ws

        def opened(_event: Any) -> None:
            self.connects += 1
            ws.send(json.dumps({"wire": WIRE, **hello}))
            queued, self._queue = self._queue, []
            for text in queued:
                ws.send(text)

        def message(event: Any) -> None:
            if isinstance(event.data, str):
                try:
                    self.on_frame(event.data)
                except TenLeaveError:  # the seat cannot go on (a refused join)
                    self.close()
                except Exception:  # noqa: BLE001 - the line must outlive a bug in one frame
                    log.exception("a frame from the dealer could not be taken in")
                    self.failures += 1

        def closed(_event: Any) -> None:
            if self._ws is ws and not self._closed:
                self._ws = None
                reopen = create_proxy(lambda: self._open(self.again()))
                self._proxies.append(reopen)
                js.setTimeout(reopen, int(self.retry * 1000))

        for name, fn in (("onopen", opened), ("onmessage", message), ("onclose", closed)):
            proxy = create_proxy(fn)
            self._proxies.append(proxy)
            setattr(ws, name, proxy)

    def send(self, kind: str, fields: dict[str, Any]) -> None:
        """Send a frame of ``kind`` with ``fields`` (queued while the line is down)."""
        text = json.dumps({"wire": WIRE, "kind": kind, **fields})
        ws = self._ws
        if ws is not None and ws.readyState == 1:
            ws.send(text)
        elif not self._closed:
            self._queue.append(text)

    def drop(self) -> None:
        """Cut the connection as a network fault would (the link resumes the seat)."""
        if self._ws is not None:
            self._ws.close()

    def close(self) -> None:
        """Close the connection for good."""
        self._closed = True
        if self._ws is not None:
            self._ws.close()
