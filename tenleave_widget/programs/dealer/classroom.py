"""The teacher's side of a dealer: every table's public summary, kept from the dealer's
``classroom``, ``table`` and ``created`` frames (:class:`ClassState`, no network in it),
the ``create`` frame of a new table (:func:`create_fields`), and the class's finished
records, for the class report.

>>> create_fields(3, bots=1, bot="greedy", token_change=False)
{'players': 3, 'bots': {'2': 'greedy'}, 'rules': {'daybreak_token_change': False}}
>>> progress({"turns_applied": 4, "view": {"dealt": [["1", "2"], ["3", "4"]]}})
(4, 4)
"""

from __future__ import annotations

import json
import threading
from typing import Any

from ...analysis.bots import check_bot
from ...engine.errors import TenLeaveError, excerpt
from ...engine.rules import MAX_SEATS, MIN_SEATS
from ...table.protocol import WidgetMessageError
from .wire import WIRE, WireError

__all__ = ["ClassState", "create_fields", "progress"]


def create_fields(players: object = 3, bots: object = 0, bot: object = "greedy",
                  token_change: object = True, idle: object = None) -> dict[str, Any]:
    """The fields of a ``create`` frame: ``players`` seats, the last ``bots`` of them
    played by the dealer's ``bot``; ``token_change`` False: the Human Defense variant
    with no new token between daybreak passes; ``idle``: seconds a student may take
    before a bot plays that turn (``None``: never). Raises :class:`WidgetMessageError`
    naming a bad argument."""
    if type(players) is not int or not MIN_SEATS <= players <= MAX_SEATS:
        raise WidgetMessageError(f"players must be {MIN_SEATS}..{MAX_SEATS}, not "
                                 f"{excerpt(players)}")
    if type(bots) is not int or not 0 <= bots < players:
        raise WidgetMessageError(f"bots must be 0..{players - 1} (a table keeps a student), "
                                 f"not {excerpt(bots)}")
    try:
        name = check_bot(bot)
    except TenLeaveError as e:
        raise WidgetMessageError(f"bot: {e}") from None
    if not isinstance(token_change, bool):
        raise WidgetMessageError(f"token_change must be True or False, not "
                                 f"{excerpt(token_change)}")
    fields: dict[str, Any] = {"players": players,
                              "bots": {str(s): name for s in range(players - bots, players)}}
    if not token_change:
        fields["rules"] = {"daybreak_token_change": False}
    if idle is not None:
        if isinstance(idle, bool) or not isinstance(idle, (int, float)) or not 0 < idle <= 86400:
            raise WidgetMessageError(f"idle must be seconds in (0, 86400] or None, not "
                                     f"{excerpt(idle)}")
        fields["idle"] = float(idle)
    return fields


def progress(summary: dict[str, Any]) -> tuple[int, int]:
    """How far a table's game is: (turns applied, turns of a whole game)."""
    total = sum(len(dealt) for dealt in summary["view"]["dealt"])
    return int(summary["turns_applied"]), total


class ClassState:
    """What the teacher's kernel knows of the class, from the dealer's frames: every
    table's summary (``tables``, by id, in the order they were made), the finished games'
    records once asked for (``records``), the last error (``error``: fault, message;
    ``errors`` counts them). ``version`` counts the changes. Thread-safe."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.tables: dict[str, dict[str, Any]] = {}
        self.records: dict[str, dict[str, Any]] | None = None
        self.hello = False
        self.error: tuple[str, str] | None = None
        self.errors = 0
        self.version = 0

    def receive(self, text: str) -> str:
        """Take one frame from the dealer; its kind. Raises :class:`WireError` for a frame
        that is not the protocol's."""
        try:
            msg = json.loads(text)
            kind = str(msg["kind"])
        except (ValueError, TypeError, KeyError):
            raise WireError("malformed", "the dealer sent a frame that is not "
                            "tenleave-wire/1") from None
        if msg.get("wire") != WIRE:
            raise WireError("version", f"the dealer speaks {excerpt(msg.get('wire'))}")
        with self.lock:
            if kind == "classroom":
                self.hello = True
                self.tables = {t["table"]: t for t in msg["tables"]}
            elif kind in ("table", "created"):
                self.tables[msg["table"]["table"]] = msg["table"]
            elif kind == "records":
                self.records = dict(msg["records"])
            elif kind == "error":
                self.error = (str(msg.get("fault")), str(msg.get("message")))
                self.errors += 1
            else:
                return kind
            self.version += 1
        return kind

    def snapshot(self) -> list[dict[str, Any]]:
        """Every table's summary, oldest first."""
        with self.lock:
            return list(self.tables.values())
