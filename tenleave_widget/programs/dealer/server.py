"""``tenleave serve``: the dealer (:mod:`.dealer`) on WebSockets, with the ``websockets``
library's asyncio server — a WebSocket-only server needs nothing more (no HTTP pages, no
ASGI stack): one small, well-kept dependency.

Each connection has its own queue of outgoing frames, written by its own task, so a slow
student never holds up a table; a connection whose queue passes :data:`MAX_BACKLOG`
frames is closed (its seat waits for a reconnect). A plain HTTP request (a browser opened
on the address) gets one line saying what the address is for.
"""

from __future__ import annotations

import asyncio
import logging
import socket
import ssl
from collections.abc import Callable
from http import HTTPStatus
from pathlib import Path
from typing import Any

from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Request, Response

from ...analysis.bots import check_bot_delay
from ...engine.errors import SetupError, excerpt
from .dealer import BURST, RATE, Dealer, Randomness
from .store import Store
from .wire import DEFAULT_PORT, HARD_MAX_FRAME, WIRE

MAX_BACKLOG = 512
"""Frames waiting for one slow connection before it is closed."""

log = logging.getLogger("tenleave.dealer")


class _Socket:
    """A connection as the dealer sees it: ``send`` queues a frame, ``close`` queues the
    close after the frames before it."""

    def __init__(self, ws: ServerConnection) -> None:
        self.ws = ws
        self.queue: asyncio.Queue[str | tuple[int, str]] = asyncio.Queue()

    def send(self, text: str) -> None:
        if self.queue.qsize() >= MAX_BACKLOG:
            self.queue.put_nowait((1013, "too far behind: reconnect"))
        else:
            self.queue.put_nowait(text)

    def close(self, code: int, reason: str) -> None:
        self.queue.put_nowait((code, reason))

    async def write(self) -> None:
        """Send the queued frames in order until a close is queued."""
        while True:
            item = await self.queue.get()
            if isinstance(item, tuple):
                await self.ws.close(*item)
                return
            await self.ws.send(item)


def handler(dealer: Dealer) -> Callable[[ServerConnection], Any]:
    """The WebSocket handler: every frame to the dealer, in order, until the connection
    ends."""

    async def handle(ws: ServerConnection) -> None:
        sock = _Socket(ws)
        client = dealer.connect(sock)
        writer = asyncio.get_running_loop().create_task(sock.write())
        try:
            async for message in ws:
                dealer.receive(client, message)
                if writer.done():
                    break
        except ConnectionClosed:
            pass
        finally:
            dealer.disconnect(client)
            if not writer.done():
                writer.cancel()
            try:
                await writer
            except (asyncio.CancelledError, ConnectionClosed):
                pass

    return handle


def _plain_http(ws: ServerConnection, request: Request) -> Response | None:
    if request.headers.get("Upgrade", "").lower() == "websocket":
        return None
    return ws.respond(HTTPStatus.OK, f"This is a 10 to Leave dealer ({WIRE}). Join a table "
                      "from a notebook: tw.join(this address, code, name).\n")


def lan_address() -> str:
    """This machine's address on its local network (no packet is sent), or its name."""
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        s.connect(("10.255.255.255", 1))
        return str(s.getsockname()[0])
    except OSError:
        return socket.gethostname()
    finally:
        s.close()


def tls_context(certfile: str | None, keyfile: str | None) -> ssl.SSLContext | None:
    """The server's TLS context from a certificate (and key) file, or ``None`` without
    one; raises :class:`SetupError` naming a file that cannot be used."""
    if certfile is None:
        if keyfile is not None:
            raise SetupError("--keyfile needs --certfile")
        return None
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    try:
        ctx.load_cert_chain(certfile, keyfile)
    except (OSError, ssl.SSLError) as e:
        raise SetupError(f"cannot use the certificate {certfile!r}: {e}") from None
    return ctx


def records_folder(store: str | None, records: str | None) -> Path | None:
    """Where finished games are written: ``records``, or beside the store file
    (``class.db`` -> ``class-records/``), or nowhere for an in-memory store."""
    if records is not None:
        return Path(records)
    if store is None:
        return None
    p = Path(store)
    return p.with_name(p.stem + "-records")


async def run(host: str = "127.0.0.1", port: int = DEFAULT_PORT, *, store: str | None = None,
              records: str | None = None, certfile: str | None = None,
              keyfile: str | None = None, bot_delay: float = 0.5,
              fsync: bool = False, randomness: Randomness | None = None,
              rate: float = RATE, burst: float = BURST,
              ready: Callable[[Dealer, str, list[str]], None] | None = None,
              stop: asyncio.Future[None] | None = None) -> None:
    """Run the dealer until ``stop`` is done (forever without one). ``ready`` gets the
    dealer, the address students connect to and the lines that say so, once the port is
    open. ``fsync``: each turn waits for the disk too (:class:`.store.Store`).
    ``randomness``: where tokens come from (:class:`.dealer.Randomness`);
    ``rate``/``burst``: the flood limit of each connection. Raises
    :class:`SetupError` for a store or certificate that cannot be used, :class:`OSError`
    for an address that cannot be bound, and :class:`SetupError` for a port outside
    0..65535 or a bot delay :func:`~tenleave_widget.analysis.bots.check_bot_delay`
    refuses, before anything is opened."""
    if isinstance(port, bool) or not isinstance(port, int) or not 0 <= port <= 65535:
        raise SetupError(f"the port must be a whole number 0..65535 (0: any free port), "
                         f"not {excerpt(port)}")
    check_bot_delay(bot_delay)
    tls = tls_context(certfile, keyfile)
    try:
        db = Store(store if store is not None else ":memory:", fsync=fsync)
    except Exception as e:  # sqlite3.Error: not a database, unwritable folder
        raise SetupError(f"cannot open the store {store!r}: {e}") from None
    try:
        dealer = Dealer(db, records_folder(store, records), bot_delay=bot_delay,
                        randomness=randomness, rate=rate, burst=burst)
        server: Server
        async with serve(handler(dealer), host, port, ssl=tls, max_size=HARD_MAX_FRAME,
                         process_request=_plain_http) as server:
            dealer.start()
            bound = server.sockets[0].getsockname()[1] if server.sockets else port
            if ready is not None:
                url, lines = announce(host, bound, tls is not None, dealer, store)
                ready(dealer, url, lines)
            await (stop if stop is not None else asyncio.get_running_loop().create_future())
    finally:
        db.close()


def announce(host: str, port: int, tls: bool, dealer: Dealer,
             store: str | None) -> tuple[str, list[str]]:
    """The address students connect to, and the lines ``tenleave serve`` prints once it
    listens: where students connect, the teacher's token, where the games are kept."""
    where = lan_address() if host in ("0.0.0.0", "", "::") else host
    url = f"{'wss' if tls else 'ws'}://{where}:{port}"
    only = " (this machine only: --host 0.0.0.0 opens it to the classroom network)" \
        if host in ("127.0.0.1", "localhost", "::1") else ""
    kept = f"games kept in {store}" if store else "games kept in memory only (--store PATH " \
        "keeps them)"
    return url, [
        f"Students connect to {url} : tw.join({url!r}, CODE, NAME){only}",
        f"Teacher: tw.classroom({url!r}, {dealer.teacher_token!r}) creates tables; {kept}; "
        f"{len(dealer.tables)} table(s) loaded",
    ]
