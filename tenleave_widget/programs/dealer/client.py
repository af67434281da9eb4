"""A ``tenleave-wire/1`` client (asyncio): join a table, resume a seat, play turns, or
watch and create tables as the teacher. The tests, the benchmark and the notebook's remote
table speak to the dealer through it.

>>> c = Client("ws://127.0.0.1:1")
>>> c.seat is None and c.view is None
True
"""

from __future__ import annotations

import asyncio
import json
from ssl import SSLContext
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

from ...engine.turn import Turn
from ...engine.view import View
from .wire import WIRE


class Client:
    """One connection to a dealer at ``url`` (``ssl``: the TLS context for a ``wss://``
    address whose certificate the system does not trust). After :meth:`join` or :meth:`resume`,
    ``seat``, ``token`` and ``view`` (the latest ``state``) are set; every frame received
    is kept in ``frames`` (as the exact text), in order."""

    def __init__(self, url: str, ssl: SSLContext | None = None) -> None:
        self.url = url
        self.ssl = ssl
        self.ws: ClientConnection | None = None
        self.seat: int | None = None
        self.token: str | None = None
        self.table: str | None = None
        self.code: str | None = None
        self.view: View | None = None
        self.frames: list[str] = []

    async def open(self) -> None:
        """Open the connection (raises :class:`OSError` when the server is not there)."""
        if self.ssl is None:
            self.ws = await connect(self.url, max_size=None, open_timeout=5)
        else:
            self.ws = await connect(self.url, max_size=None, open_timeout=5, ssl=self.ssl)

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
            self.ws = None

    async def send(self, kind: str, **fields: Any) -> None:
        """Send a frame of ``kind`` with ``fields``."""
        await self.send_text(json.dumps({"wire": WIRE, "kind": kind, **fields}))

    async def send_text(self, text: str | bytes) -> None:
        """Send raw text (or bytes), as a hostile client would."""
        assert self.ws is not None, "not open"
        await self.ws.send(text)

    async def recv(self, timeout: float = 10.0) -> dict[str, Any]:
        """The next frame, parsed (kept in ``frames``; ``state`` updates ``view``)."""
        assert self.ws is not None, "not open"
        text = await asyncio.wait_for(self.ws.recv(), timeout)
        assert isinstance(text, str)
        self.frames.append(text)
        msg: dict[str, Any] = json.loads(text)
        kind = msg.get("kind")
        if kind == "state":
            self.view = msg["view"]
        elif kind == "seated":
            self.seat, self.table, self.code = msg["seat"], msg["table"], msg["code"]
            self.token = msg.get("token", self.token)
        return msg

    async def expect(self, kind: str, timeout: float = 10.0) -> dict[str, Any]:
        """The next frame, which must be of ``kind`` (else :class:`AssertionError`)."""
        msg = await self.recv(timeout)
        if msg.get("kind") != kind:
            raise AssertionError(f"expected a {kind!r} frame, got {msg}")
        return msg

    async def join(self, code: str, name: str, seat: int | None = None) -> None:
        """Take a free seat (``seat``, or the first) at the table with join ``code``:
        ``seated``, then ``state``."""
        await self.open()
        await self.send("join", code=code, name=name, **({} if seat is None else {"seat": seat}))
        await self.expect("seated")
        await self.expect("state")

    async def resume(self, token: str | None = None) -> None:
        """Return to the seat of ``token`` (default: this client's): ``seated`` and the
        full state again."""
        await self.open()
        await self.send("resume", token=token or self.token)
        await self.expect("seated")
        await self.expect("state")

    async def play(self, turn: Turn | dict[str, Any], at: int | None = None) -> None:
        """Send a turn (the record's turn object) for turn ``at`` (default: the number of
        turns applied in the latest view)."""
        obj = dict(turn.to_json()) if isinstance(turn, Turn) else turn
        if at is None:
            assert self.view is not None, "no view yet"
            at = self.view["turns_applied"]
        await self.send("turn", turn=obj, at=at)

    async def teacher(self, token: str) -> dict[str, Any]:
        """Say hello as the teacher; the ``classroom`` frame."""
        await self.open()
        await self.send("teacher", token=token)
        return await self.expect("classroom")

    async def create(self, players: int, **options: Any) -> dict[str, Any]:
        """Create a table (teacher only): the new table's summary (its ``code``, ...)."""
        await self.send("create", players=players, **options)
        while True:
            msg = await self.recv()
            if msg["kind"] in ("created", "error"):
                if msg["kind"] == "error":
                    raise AssertionError(msg["message"])
                return dict(msg["table"])


def plain_plays(view: View) -> list[Turn]:
    """The plain plays (no additional action) open to the view's seat when it is to move:
    each distinct card of its hand onto each queue with room — read from the view alone."""
    seat = view["seat"]
    if seat is None or view["to_move"] != seat:
        return []
    cards = sorted(set(view["hands"][seat]["cards"] or []))
    rooms = [q for q, queue in enumerate(view["queues"]) if len(queue) < view["queue_capacity"]]
    return [Turn(seat, c, q) for c in cards for q in rooms]
