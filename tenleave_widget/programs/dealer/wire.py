"""The dealer's protocol, ``tenleave-wire/1`` (``docs/wire.md``): its frames, their
encoding, and the validation of what a client sends.

Every frame is one JSON object in one WebSocket text message, with ``"wire":
"tenleave-wire/1"`` and a ``"kind"``. The server encodes its frames one way only
(:func:`encode`: sorted keys, no spaces), so two games a seat cannot tell apart give that
seat the same bytes.

>>> parse(b'{"wire": "tenleave-wire/1", "kind": "turn", "at": 0, "turn": {"play": ["1", 0]}}')
{'wire': 'tenleave-wire/1', 'kind': 'turn', 'at': 0, 'turn': {'play': ['1', 0]}}
>>> try:
...     parse("[1, 2]")
... except WireError as e:
...     print(e.fault, "-", e)
malformed - a frame is a JSON object, not an array
>>> encode({"kind": "error", "wire": WIRE, "fault": "flood", "message": "too many"})
'{"fault":"flood","kind":"error","message":"too many","wire":"tenleave-wire/1"}'
"""

from __future__ import annotations

import json
from typing import Any, Final

from ...engine.errors import TenLeaveError, excerpt, json_kind
from ...engine.game import Game
from ...engine.view import View

WIRE: Final = "tenleave-wire/1"
"""The protocol's name and version: every frame carries it."""

DEFAULT_PORT: Final = 8765
"""The port ``tenleave serve`` listens on unless told another."""

MAX_FRAME: Final = 8 * 1024
"""The largest frame a client may send, in bytes: a larger one is refused with the fault
``too-large`` (the connection is kept). A turn is under 200 bytes."""

HARD_MAX_FRAME: Final = 64 * 1024
"""Past this many bytes the WebSocket layer closes the connection (code 1009) without
reading the frame: no frame that large is ever parsed."""

CLIENT_KINDS: Final = ("join", "resume", "teacher", "create", "records", "step", "turn", "undo",
                        "ping")
"""The kinds a client may send (``docs/wire.md``)."""

SERVER_KINDS: Final = ("seated", "state", "classroom", "table", "created", "records", "error",
                        "pong")
"""The kinds the server sends."""

FAULTS: Final = {
    "malformed": "not a JSON object in UTF-8 text",
    "version": "the frame's 'wire' is not tenleave-wire/1",
    "unknown-kind": "a kind the protocol does not have",
    "bad-field": "a field missing or of the wrong type",
    "too-large": "a frame over MAX_FRAME bytes",
    "flood": "more frames than the rate limit allows (the connection is closed)",
    "not-seated": "a turn before joining a table",
    "bad-token": "a seat or teacher token that opens nothing",
    "bad-code": "a join code that names no table",
    "table-full": "no free seat at that table",
    "forbidden": "a teacher's kind from a seat, or a second hello",
    "wrong-seat": "a turn for another seat than the connection's",
    "stale": "a turn whose 'at' is not the number of turns applied (a replay, a retry)",
    "steps-kept": "a turn or steps that drop a peek or a wake already done this turn",
    "not-your-turn": "a turn when another seat is to move, or after the end",
    "illegal-turn": "a turn the rules do not allow now",
    "no-undo": "a take-back: networked games have none",
    "store": "the turn could not be stored (it was not applied)",
}
"""Every fault an error frame can name, and what it means."""


class WireError(TenLeaveError):
    """A client frame the server refuses: ``fault`` is one of :data:`FAULTS`; the message
    says what was wrong and names no card the sender has not seen."""

    def __init__(self, fault: str, message: str) -> None:
        assert fault in FAULTS, fault
        self.fault = fault
        super().__init__(message)


def encode(frame: dict[str, Any]) -> str:
    """The one encoding of a frame: JSON, keys sorted, no spaces, UTF-8 as is."""
    return json.dumps(frame, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                      allow_nan=False)


def frame(kind: str, **fields: Any) -> dict[str, Any]:
    """A server frame of ``kind`` (one of :data:`SERVER_KINDS`) with ``fields``."""
    assert kind in SERVER_KINDS, kind
    return {"wire": WIRE, "kind": kind, **fields}


def error_frame(e: WireError) -> dict[str, Any]:
    """The error frame for ``e``: its fault and its message."""
    return frame("error", fault=e.fault, message=str(e))


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def parse(data: str | bytes) -> dict[str, Any]:
    """A client frame, parsed and checked for its envelope (``wire``, ``kind``); the
    fields of its kind are checked by :func:`field`. Raises :class:`WireError`
    (``too-large``, ``malformed``, ``version``, ``unknown-kind``)."""
    size = len(data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data)
    if size > MAX_FRAME:
        raise WireError("too-large", f"a frame is at most {MAX_FRAME} bytes, not {size}")
    try:
        obj = json.loads(data, parse_constant=_no_constant)
    except (ValueError, RecursionError):
        raise WireError("malformed", "a frame is one JSON object in UTF-8 text") from None
    if not isinstance(obj, dict):
        raise WireError("malformed", f"a frame is a JSON object, not {json_kind(obj)}")
    if obj.get("wire") != WIRE:
        raise WireError("version", f"'wire' must be {WIRE!r}, not {excerpt(obj.get('wire'))}")
    kind = obj.get("kind")
    if kind not in CLIENT_KINDS:
        raise WireError("unknown-kind",
                        f"unknown kind {excerpt(kind)} (kinds: {', '.join(CLIENT_KINDS)})")
    return obj


def field(obj: dict[str, Any], name: str, kind: type | tuple[type, ...],
          limit: int | None = None) -> Any:
    """``obj[name]``, which must be of ``kind`` (booleans are not integers) and, for a
    string, at most ``limit`` characters; raises :class:`WireError` (``bad-field``)."""
    value = obj.get(name)
    ok = isinstance(value, kind) and not (isinstance(value, bool) and bool not in (
        kind if isinstance(kind, tuple) else (kind,)))
    if ok and limit is not None and isinstance(value, str) and len(value) > limit:
        ok = False
    if not ok:
        raise WireError("bad-field", f"{obj.get('kind')}: {name!r} must be "
                        f"{_type_name(kind)}{'' if limit is None else f' (≤ {limit})'}, "
                        f"not {excerpt(value)}")
    return value


def _type_name(kind: type | tuple[type, ...]) -> str:
    kinds = kind if isinstance(kind, tuple) else (kind,)
    names = {str: "a string", int: "an integer", dict: "an object", list: "an array",
             bool: "true or false"}
    return " or ".join(names.get(k, k.__name__) for k in kinds)


def public_view(game: Game) -> View:
    """What every seat and the teacher may see of a game: a seat view with no seat, no
    face-down value and no hand's cards (``seat`` is ``None``). The public events of the
    last turn are kept (they name only flipped cards).

    >>> g = Game(2, seed=1)
    >>> g.apply({"seat": 0, "play": ["4*", 0]})
    >>> v = public_view(g)
    >>> v["seat"], v["queues"][0][0]["value"], v["hands"][0]["cards"]
    (None, None, None)
    """
    view = game.view(0)
    view["seat"] = None
    for queue in view["queues"]:
        for card in queue:
            card["value"] = None
    for hand in view["hands"]:
        hand["cards"] = None
    return view
