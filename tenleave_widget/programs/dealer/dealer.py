"""The dealer: every table's authoritative game, who sits where, and what each connection
is sent — the protocol's meaning, with no network in it (:mod:`.server` puts it on
WebSockets). It runs on one asyncio event loop; nothing here is thread-safe.

A connection (:class:`Conn`) is anything with ``send(text)`` and ``close(code, reason)``.
A seat's connection is sent only frames made from :meth:`Game.view` of its seat; the
teacher's, only :func:`.wire.public_view` of each table. Each applied turn is committed to
the :class:`.store.Store` before any frame about it is sent.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import logging
import random
import secrets
import sqlite3
import string
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol, cast

from ...analysis.bots import Bot, check_bot, check_bot_delay, decide, make_bot
from ...analysis.infer import with_history
from ...engine.errors import SetupError, TenLeaveError, excerpt
from ...engine.game import Game
from ...engine.record import check_name, save_record
from ...engine.rules import DEFAULT_RULES, MAX_SEATS, MIN_SEATS, Rules
from ...engine.turn import Turn, TurnStep, parse_steps, step_json
from .store import Store, StoredTable
from .wire import WireError, encode, error_frame, field, frame, parse, public_view

log = logging.getLogger("tenleave.dealer")

CODE_ALPHABET = "".join(c for c in string.ascii_uppercase + string.digits if c not in "IO01")
"""The join codes' letters (no I, O, 0 or 1: read aloud and typed without confusion)."""
CODE_LENGTH = 6
TOKEN_BYTES = 24
"""A seat or teacher token's random bytes: 192 bits (``secrets.token_urlsafe``)."""
RATE = 20.0
"""Frames a second a connection may send on average ..."""
BURST = 40.0
"""... and at once; past that, one ``flood`` error frame and the connection is closed."""
FLOOD_CLOSE = 1008  # WebSocket close code "policy violation"
DEFAULT_IDLE_BOT = "greedy"
MAX_STEPS = 4
"""The most steps a ``step`` frame may hold (a turn has at most three: play, peek or
rotate or wake, in some order)."""
REVEALING = ("peek", "wake")
"""The steps that show a face-down value: once done, the turn keeps them."""


def _keeps(raw: dict[str, Any], steps: list[dict[str, Any]]) -> bool:
    """Whether the turn ``raw`` (a record's turn object) begins with ``steps`` (the kept
    steps of the turn in progress, ending with a peek or a wake)."""
    try:
        turn = Turn.from_json(raw)
    except TenLeaveError:
        return True  # the engine names what is wrong with it (illegal-turn)
    done = [s.get("kind") for s in steps]
    played = "play" in done
    if "wake" in done and not turn.wake:
        return False
    last = steps[-1]
    if last.get("kind") == "peek" and (
            turn.peek != (last.get("queue"), last.get("position"))
            or turn.extra != ("after" if played else "before")):
        return False
    if played:
        play = next(s for s in steps if s.get("kind") == "play")
        return (turn.card, turn.queue) == (play.get("card"), play.get("queue"))
    return True


class Conn(Protocol):
    """One client connection, as the dealer sees it."""

    def send(self, text: str) -> None: ...

    def close(self, code: int, reason: str) -> None: ...


class Randomness:
    """Where tokens, codes, table ids and game seeds come from: :mod:`secrets` (the
    default). ``Randomness(seed)`` is a seeded stand-in for tests that compare runs
    byte for byte; never for a real class."""

    def __init__(self, seed: int | None = None) -> None:
        self._rng = None if seed is None else random.Random(seed)

    def token(self) -> str:
        """A fresh token of :data:`TOKEN_BYTES` random bytes, URL-safe."""
        if self._rng is None:
            return secrets.token_urlsafe(TOKEN_BYTES)
        return self._rng.randbytes(TOKEN_BYTES).hex()

    def code(self) -> str:
        """A fresh join code of :data:`CODE_LENGTH` letters."""
        pick = secrets.choice if self._rng is None else self._rng.choice
        return "".join(pick(CODE_ALPHABET) for _ in range(CODE_LENGTH))

    def seed(self) -> int:
        """A game seed (its token draws): 64 random bits."""
        return secrets.randbits(64) if self._rng is None else self._rng.getrandbits(64)


def token_hash(token: str) -> str:
    """The stored form of a token (SHA-256, hex): the store never holds a seat's token."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


class Client:
    """The dealer's state for one connection: its role once it has said hello (``seat``
    or ``teacher``), its table and seat, and its rate-limit bucket."""

    def __init__(self, conn: Conn, clock: Callable[[], float]) -> None:
        self.conn = conn
        self.role: str | None = None
        self.table: Table | None = None
        self.seat: int | None = None
        self.clock = clock
        self.tokens = BURST
        self.stamp = clock()
        self.closed = False

    def allow(self, rate: float, burst: float) -> bool:
        """Take one frame from the bucket; ``False`` when it is empty (a flood)."""
        now = self.clock()
        self.tokens = min(burst, self.tokens + (now - self.stamp) * rate)
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True

    def send(self, obj: dict[str, Any]) -> None:
        if not self.closed:
            self.conn.send(encode(obj))


class Table:
    """One table: its game, join code, configuration, seats and connections."""

    def __init__(self, table_id: str, code: str, config: dict[str, Any]) -> None:
        self.id = table_id
        self.code = code
        self.config = config
        n = int(config["players"])
        self.bots: dict[int, str] = {int(k): v for k, v in config.get("bots", {}).items()}
        names = [f"{self.bots[s]} bot" if s in self.bots else f"Seat {s + 1}"
                 for s in range(n)]
        rules = Rules.from_json(config["rules"]) if config.get("rules") else DEFAULT_RULES
        self.game = Game(names, rules=rules, first=int(config.get("first", 0)),
                         seed=int(config["seed"]))
        self.hashes: dict[int, str] = {}  # seat -> token hash, for the seats taken
        self.clients: dict[int, Client] = {}  # seat -> its connection, if connected
        self.idle: float | None = config.get("idle")
        self.idle_bot = str(config.get("idle_bot", DEFAULT_IDLE_BOT))
        seed = int(config.get("bot_seed", config["seed"]))
        self.players: dict[int, Bot] = {s: make_bot(b, seed + s) for s, b in self.bots.items()}
        self.stand_ins: dict[int, Bot] = {}
        self.pending: asyncio.Task[None] | None = None
        self.pending_at = -1
        self.stand_in_turns = 0
        self.steps: list[dict[str, Any]] = []
        """The steps the seat to move has taken this turn up to its last peek or wake
        (``step`` frames), as stored: a turn must keep them (they revealed a face-down
        value)."""

    @property
    def humans(self) -> list[int]:
        """The seats students sit at (not the bots')."""
        return [s for s in range(self.game.seats) if s not in self.bots]

    def summary(self) -> dict[str, Any]:
        """The public state of the table for the teacher: who sits where, how far the
        game is, and its public view."""
        g = self.game
        seats = []
        for s in range(g.seats):
            seats.append({
                "name": g.players[s],
                "kind": "bot" if s in self.bots else "human",
                "bot": self.bots.get(s),
                "taken": s in self.hashes,
                "connected": s in self.clients,
            })
        return {"table": self.id, "code": self.code, "seats": seats,
                "turns_applied": g.turns_applied, "finished": g.finished,
                "view": public_view(g)}


class Dealer:
    """Every table of one server: created by the teacher, joined with a code, resumed
    with a seat token, all stored in ``store``.

    ``records``: the folder finished games are written to as ``tenleave-record/1`` files
    (``<table>.json``), or ``None``. ``bot_delay``: seconds a bot waits before its turn.
    ``randomness``: where tokens come from (:class:`Randomness`). ``rate``/``burst``: the
    flood limit per connection."""

    def __init__(self, store: Store, records: Path | None = None, *, bot_delay: float = 0.5,
                 randomness: Randomness | None = None, rate: float = RATE,
                 burst: float = BURST, teacher_token: str | None = None,
                 clock: Callable[[], float] | None = None) -> None:
        self.store = store
        self.records = records
        self.bot_delay = check_bot_delay(bot_delay)
        self.random = randomness or Randomness()
        self.rate = rate
        self.burst = burst
        self.clock = clock or (lambda: asyncio.get_running_loop().time())
        self.tables: dict[str, Table] = {}
        self.by_code: dict[str, Table] = {}
        self.by_hash: dict[str, tuple[Table, int]] = {}
        self.teachers: list[Client] = []
        if records is not None:
            records.mkdir(parents=True, exist_ok=True)
        token = teacher_token or store.meta("teacher_token")
        if token is None:
            token = self.random.token()
            store.set_meta("teacher_token", token)
        self.teacher_token = token
        for stored in store.tables():
            self._load(stored)

    # ---------------------------------------------------------------- restart
    def _load(self, stored: StoredTable) -> None:
        table = Table(stored.id, stored.code, stored.config)
        for seat, (h, name) in stored.seats.items():
            table.hashes[seat] = h
            table.game.players[seat] = name
            self.by_hash[h] = (table, seat)
        for k, raw in enumerate(stored.turns):
            try:
                table.game.apply(Turn.from_json(raw))
            except TenLeaveError as e:  # a store written by another version, or edited
                raise SetupError(f"the store's table {stored.id} has an illegal turn {k}: "
                                 f"{e}") from None
        if stored.steps:  # the turn in progress's peek or wake, as it was shown
            try:
                table.game.preview(cast(list[TurnStep], stored.steps))
            except TenLeaveError as e:
                raise SetupError(f"the store's table {stored.id} has illegal steps for turn "
                                 f"{table.game.turns_applied}: {e}") from None
            table.steps = stored.steps
        self.tables[table.id] = table
        self.by_code[table.code] = table
        if table.game.finished:
            self._write_record(table)

    def start(self) -> None:
        """Start the bots of every loaded table (call on the running loop)."""
        for table in self.tables.values():
            self._schedule(table)

    # ------------------------------------------------------------- connections
    def connect(self, conn: Conn) -> Client:
        """A new connection: its :class:`Client` (no role yet)."""
        return Client(conn, self.clock)

    def disconnect(self, client: Client) -> None:
        """The connection is gone: its seat is free for a reconnect with its token."""
        client.closed = True
        if client.role == "teacher" and client in self.teachers:
            self.teachers.remove(client)
        table, seat = client.table, client.seat
        if table is not None and seat is not None and table.clients.get(seat) is client:
            del table.clients[seat]
            self._tell_teachers(table)

    def receive(self, client: Client, data: str | bytes) -> None:
        """Handle one frame from ``client``: every refusal is one error frame (and, for a
        flood, the connection closed); the game is then unchanged."""
        if client.closed:
            return
        if not client.allow(self.rate, self.burst):
            client.send(error_frame(WireError(
                "flood", f"more than {self.burst:g} frames at once or {self.rate:g} a "
                "second: the connection is closed")))
            client.closed = True
            client.conn.close(FLOOD_CLOSE, "flood: too many frames")
            self.disconnect(client)
            return
        try:
            msg = parse(data)
            getattr(self, "_on_" + msg["kind"])(client, msg)
        except WireError as e:
            client.send(error_frame(e))

    # ------------------------------------------------------------------ hellos
    def _hello(self, client: Client) -> None:
        if client.role is not None:
            raise WireError("forbidden", "this connection has already said who it is")

    def _on_join(self, client: Client, msg: dict[str, Any]) -> None:
        self._hello(client)
        code = field(msg, "code", str, 32).strip().upper()
        name = field(msg, "name", str, 200)
        try:
            check_name(name)
        except TenLeaveError as e:
            raise WireError("bad-field", f"join: {e}") from None
        table = self.by_code.get(code)
        if table is None:
            raise WireError("bad-code", f"no table has the join code {excerpt(code)}")
        free = [s for s in table.humans if s not in table.hashes]
        if "seat" in msg:
            seat = field(msg, "seat", int)
            if seat not in free:
                raise WireError("table-full", f"seat {seat} of table {table.code} is not free "
                                f"(free: {free or 'none'})")
        elif not free:
            raise WireError("table-full", f"table {table.code} has no free seat")
        else:
            seat = free[0]
        token = self.random.token()
        h = token_hash(token)
        self.store.add_seat(table.id, seat, h, name)
        table.hashes[seat] = h
        self.by_hash[h] = (table, seat)
        table.game.players[seat] = name
        for other, c in list(table.clients.items()):  # the new name is in their views
            c.send(self._state(table, other))
        self._sit(client, table, seat, token)

    def _on_resume(self, client: Client, msg: dict[str, Any]) -> None:
        self._hello(client)
        token = field(msg, "token", str, 200)
        h = token_hash(token)
        found = self.by_hash.get(h)
        if found is None or not hmac.compare_digest(found[0].hashes[found[1]], h):
            raise WireError("bad-token", "that token opens no seat")
        table, seat = found
        old = table.clients.get(seat)
        if old is not None:
            old.closed = True
            old.conn.close(1000, "the seat was resumed from another connection")
            self.disconnect(old)
        self._sit(client, table, seat, None)

    def _sit(self, client: Client, table: Table, seat: int, token: str | None) -> None:
        client.role, client.table, client.seat = "seat", table, seat
        table.clients[seat] = client
        fields: dict[str, Any] = {"table": table.id, "code": table.code, "seat": seat}
        if token is not None:
            fields["token"] = token
        client.send(frame("seated", **fields))
        # the full state: the view with its public history (all a seat's client needs to
        # rebuild its table: .stand_in); later frames carry each turn's events
        client.send(frame("state", table=table.id, seat=seat,
                          view=with_history(table.game, seat)))
        if table.steps and table.game.to_move == seat:  # its turn in progress, as it was
            client.send(self._preview(table, seat))
        self._tell_teachers(table)
        self._schedule(table)

    def _on_teacher(self, client: Client, msg: dict[str, Any]) -> None:
        self._hello(client)
        token = field(msg, "token", str, 200)
        if not hmac.compare_digest(token_hash(token), token_hash(self.teacher_token)):
            raise WireError("bad-token", "that is not the teacher's token")
        client.role = "teacher"
        self.teachers.append(client)
        client.send(frame("classroom", tables=[t.summary() for t in self.tables.values()]))

    def _on_ping(self, client: Client, msg: dict[str, Any]) -> None:
        client.send(frame("pong"))

    # ----------------------------------------------------------------- teacher
    def _on_create(self, client: Client, msg: dict[str, Any]) -> None:
        if client.role != "teacher":
            raise WireError("forbidden", "only the teacher creates tables")
        config = self.table_config(msg)
        table = self.create(config)
        client.send(frame("created", table=table.summary()))
        self._tell_teachers(table, skip=client)

    def _on_records(self, client: Client, msg: dict[str, Any]) -> None:
        """The teacher asks for the class's finished games: their records (every card in
        them is face up by the end), by table."""
        if client.role != "teacher":
            raise WireError("forbidden", "only the teacher reads the class's records")
        client.send(frame("records", records={
            t.id: dict(t.game.to_record()) for t in self.tables.values() if t.game.finished}))

    def table_config(self, msg: dict[str, Any]) -> dict[str, Any]:
        """A table's stored configuration from a ``create`` frame (``players``; optional
        ``bots``: seat -> bot name, ``rules``, ``first``, ``idle`` seconds, ``idle_bot``);
        raises :class:`WireError` naming the bad field."""
        players = field(msg, "players", int)
        if not MIN_SEATS <= players <= MAX_SEATS:
            raise WireError("bad-field", f"create: a table has {MIN_SEATS} to {MAX_SEATS} "
                            f"seats, not {players}")
        config: dict[str, Any] = {"players": players}
        bots = msg.get("bots", {})
        if not isinstance(bots, dict):
            raise WireError("bad-field", "create: 'bots' must be an object (seat -> bot)")
        config["bots"] = {}
        for k, v in bots.items():
            if not (k.isdigit() and int(k) < players):
                raise WireError("bad-field", f"create: no seat {excerpt(k)} at {players}")
            try:
                config["bots"][str(int(k))] = check_bot(v)
            except SetupError as e:
                raise WireError("bad-field", f"create: {e}") from None
        if "rules" in msg:
            try:
                config["rules"] = Rules.from_json(field(msg, "rules", dict)).to_json()
            except TenLeaveError as e:
                raise WireError("bad-field", f"create: {e}") from None
        first = msg.get("first", 0)
        if type(first) is not int or not 0 <= first < players:
            raise WireError("bad-field", f"create: 'first' must be a seat, not {excerpt(first)}")
        config["first"] = first
        if msg.get("idle") is not None:
            idle = msg["idle"]
            if isinstance(idle, bool) or not isinstance(idle, (int, float)) or not \
                    0 < idle <= 86400:
                raise WireError("bad-field", f"create: 'idle' must be seconds in (0, 86400], "
                                f"not {excerpt(idle)}")
            config["idle"] = float(idle)
        if "idle_bot" in msg:
            try:
                config["idle_bot"] = check_bot(msg["idle_bot"])
            except SetupError as e:
                raise WireError("bad-field", f"create: {e}") from None
        return config

    def create(self, config: dict[str, Any]) -> Table:
        """A new table from ``config`` (:meth:`table_config`'s), stored, with a fresh join
        code and game seed."""
        config = dict(config, seed=self.random.seed())
        table_id = "t" + self.random.token()[:12].replace("-", "x").replace("_", "y")
        code = self.random.code()
        while code in self.by_code:
            code = self.random.code()
        table = Table(table_id, code, config)
        self.store.add_table(table_id, code, config)
        self.tables[table_id] = table
        self.by_code[code] = table
        self._schedule(table)
        return table

    # ------------------------------------------------------------------- turns
    def _on_undo(self, client: Client, msg: dict[str, Any]) -> None:
        raise WireError("no-undo", "a networked game has no take-backs")

    def _mover(self, client: Client, msg: dict[str, Any]) -> tuple[Table, int]:
        """The table and seat of a ``step`` or ``turn`` frame, checked: seated, ``at`` the
        turns applied, the seat to move."""
        table, seat = client.table, client.seat
        if client.role != "seat" or table is None or seat is None:
            raise WireError("not-seated", "join a table (or resume your seat) before playing")
        g = table.game
        at = field(msg, "at", int)
        if at != g.turns_applied:
            raise WireError("stale", f"this {msg['kind']} is for turn {at}, but "
                            f"{g.turns_applied} turns are applied: it was not played")
        if g.to_move != seat:
            raise WireError("not-your-turn", "the game is over" if g.finished else
                            f"it is seat {g.to_move}'s turn, not yours")
        return table, seat

    def _on_step(self, client: Client, msg: dict[str, Any]) -> None:
        """The steps of the turn in progress so far, when the last one reveals something
        (a peek, a wake): done on a copy of the game (``Game.preview``) and answered, to
        this seat only, with its view of that copy and the steps (a ``state`` with
        ``steps``). Steps ending in a peek or a wake are committed to the store before
        that answer (a store failure: the fault ``store``, nothing kept); later steps and
        the turn must keep them, across a reconnect or a restart."""
        table, seat = self._mover(client, msg)
        steps = field(msg, "steps", list)
        if not 0 < len(steps) <= MAX_STEPS or not all(isinstance(s, dict) for s in steps):
            raise WireError("bad-field", f"step: 'steps' must be 1 to {MAX_STEPS} step "
                            "objects")
        if steps[:len(table.steps)] != table.steps:
            raise WireError("steps-kept", "the steps must begin with those already done this "
                            f"turn ({len(table.steps)}: a peek or a wake is not taken back)")
        try:
            table.game.preview(steps)  # the engine checks each step (parse_steps)
        except TenLeaveError as e:
            raise WireError("illegal-turn", f"illegal step: {e}") from None
        steps = [dict(step_json(s)) for s in parse_steps(steps)]  # as the engine reads them
        if steps[-1]["kind"] in REVEALING:
            # stored before the card is shown: a restart cannot take the peek back
            try:
                self.store.set_steps(table.id, table.game.turns_applied, steps)
            except sqlite3.Error as e:
                log.error("table %s: steps of turn %d not stored: %s", table.id,
                          table.game.turns_applied, e)
                raise WireError("store", "the server could not store the step: try "
                                "again") from None
            table.steps = steps
        client.send(self._preview(table, seat, steps))

    def _preview(self, table: Table, seat: int,
                 steps: list[dict[str, Any]] | None = None) -> dict[str, Any]:
        """The ``state`` frame of the turn in progress: ``seat``'s view of the game with
        ``steps`` (default: the kept ones) done, and the steps."""
        steps = table.steps if steps is None else steps
        return frame("state", table=table.id, seat=seat,
                     view=table.game.preview(cast(list[TurnStep], steps)).view(seat),
                     steps=steps)

    def _on_turn(self, client: Client, msg: dict[str, Any]) -> None:
        table, seat = client.table, client.seat
        raw = field(msg, "turn", dict)
        if "seat" not in raw:
            raw = dict(raw, seat=seat)
        if client.role == "seat" and (raw["seat"] != seat or type(raw["seat"]) is not int):
            raise WireError("wrong-seat", f"this connection plays seat {seat}, not "
                            f"{excerpt(raw['seat'])}")
        table, seat = self._mover(client, msg)
        if table.steps and not _keeps(raw, table.steps):
            raise WireError("steps-kept", "this turn drops the peek or wake already done "
                            "this turn: it was not played")
        self.play(table, raw)

    def play(self, table: Table, raw: dict[str, Any] | Turn) -> None:
        """Apply a turn at ``table`` through the engine's checked path, commit it, then
        tell every seat and the teacher; raises :class:`WireError` (``illegal-turn``,
        ``store``) with the game unchanged."""
        g = table.game
        k = g.turns_applied
        try:
            g.apply(raw)
        except TenLeaveError as e:
            raise WireError("illegal-turn", f"illegal turn: {e}") from None
        turn = g.turns[-1].to_json()
        try:
            self.store.add_turn(table.id, k, dict(turn))
        except sqlite3.Error as e:
            g.undo()
            log.error("table %s: turn %d not stored: %s", table.id, k, e)
            raise WireError("store", "the server could not store the turn: try again") from None
        table.steps = []
        if g.finished:
            self.store.finish(table.id)
            self._write_record(table)
        self._broadcast(table)
        self._schedule(table)

    def _write_record(self, table: Table) -> None:
        if self.records is not None:
            path = self.records / f"{table.id}.json"
            if not path.exists():
                save_record(dict(table.game.to_record()), path)

    # ------------------------------------------------------------------- sends
    def _state(self, table: Table, seat: int) -> dict[str, Any]:
        return frame("state", table=table.id, seat=seat, view=table.game.view(seat))

    def _broadcast(self, table: Table) -> None:
        for seat, client in list(table.clients.items()):
            client.send(self._state(table, seat))
        self._tell_teachers(table)

    def _tell_teachers(self, table: Table, skip: Client | None = None) -> None:
        if self.teachers:
            msg = frame("table", table=table.summary())
            for t in list(self.teachers):
                if t is not skip:
                    t.send(msg)

    # -------------------------------------------------------------------- bots
    def _schedule(self, table: Table) -> None:
        """Start the bot (or the idle seat's stand-in) for the seat to move, if any."""
        g = table.game
        if g.finished:
            return
        k = g.turns_applied
        if table.pending is not None and not table.pending.done() and \
                table.pending is not asyncio.current_task():
            if table.pending_at == k:
                return
            table.pending.cancel()
        seat = g.to_move
        assert seat is not None
        if seat in table.players:
            delay = self.bot_delay
            bot = table.players[seat]
        elif table.idle is not None:
            delay = table.idle
            bot = table.stand_ins.setdefault(
                seat, make_bot(table.idle_bot, int(table.config["seed"]) + 100 + seat))
        else:
            table.pending = None
            return
        table.pending_at = k
        table.pending = asyncio.get_running_loop().create_task(
            self._bot_turn(table, seat, k, bot, delay))

    async def _bot_turn(self, table: Table, seat: int, k: int, bot: Bot, delay: float) -> None:
        if delay > 0:
            await asyncio.sleep(delay)
        g = table.game
        if g.turns_applied != k:
            return
        copy = g.copy()
        try:
            turn = await asyncio.to_thread(decide, bot, copy, seat)
        except Exception as e:  # a bot's bug must not stall the table: a random turn
            log.error("table %s: the %s bot failed at turn %d: %r", table.id, bot.name, k, e)
            turn = decide(make_bot("random", k), copy, seat)
        if g.turns_applied != k:  # a student's turn got there first
            return
        if table.steps and not _keeps(dict(turn.to_json()), table.steps):
            # an idle student's peek or wake stays: the stand-in plays on from it
            turn = next(t for t in g.legal_turns if _keeps(dict(t.to_json()), table.steps))
        if seat not in table.players:
            table.stand_in_turns += 1
        try:
            self.play(table, turn)
        except WireError as e:  # a store failure: the bot tries again later
            log.error("table %s: the bot's turn %d failed: %s", table.id, k, e)
