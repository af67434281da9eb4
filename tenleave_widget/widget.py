"""The Jupyter widget: a thin adapter between the engine and the browser.

Python owns the game. The browser (``js/``, bundled into ``static/``) draws what it is
given and sends *intents* (``{"kind": "play", "card": "3*", "queue": 1}``); every intent is
checked here with the engine, and an illegal or forged one is answered with a visible
message and changes nothing.

What reaches the browser is only ever a seat view (``docs/view.md``) or the teacher's
omniscient view when explicitly chosen, the odds of that view, and words made from public
events. The game itself, its history (undo, replay) and other seats' knowledge stay in
Python.

>>> w = play(players=3, human=0, bots=["greedy", "random"], seed=1, bot_delay=0)
>>> w.handle_intent({"kind": "play", "card": "2", "queue": 0})
>>> w.handle_intent({"kind": "end"})
>>> w.game.turns_applied, w.game.to_move          # both bots answered at once
(3, 0)
>>> w.send_intent({"kind": "play", "card": "9", "queue": 0})
False
>>> w.table.message["level"]
'error'
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Literal

import anywidget
import ipywidgets
import traitlets

from .bots import BOT_NAMES, make_bot
from .errors import IllegalActionError, TenLeaveError
from .game import Game
from .odds import seat_odds
from .panels import Panels, TimelinePoint
from .record import save_record
from .turn import Turn

__all__ = [
    "TableWidget",
    "TenLeaveWidget",
    "WidgetMessageError",
    "describe_turn",
    "hotseat",
    "play",
    "public_view",
    "replay_widget",
]

STATIC = Path(__file__).parent / "static"
ROMAN = ("I", "II", "III", "IV", "V", "VI")
Mode = Literal["play", "hotseat", "replay"]
KINDS: dict[str, dict[str, type | tuple[type, ...]]] = {
    "play": {"card": str, "queue": int},
    "peek": {"queue": int, "position": int},
    "rotate": {"queue": int},
    "wake": {},
    "end": {},
    "reset": {},
    "undo": {},
    "uncover": {},
    "goto": {"turn": int},
    "perspective": {"seat": (int, type(None))},
    "odds": {"show": bool},
}


class WidgetMessageError(IllegalActionError):
    """A message from the browser that is malformed, forged, or not allowed right now."""


class TableWidget(anywidget.AnyWidget):
    """The card table: draws ``view`` and sends intents. State only, no logic: the
    controller (:class:`TenLeaveWidget`) fills these traitlets."""

    _esm = STATIC / "widget.js"
    _css = STATIC / "widget.css"

    view = traitlets.Dict().tag(sync=True)
    mode = traitlets.Unicode("play").tag(sync=True)
    perspective = traitlets.Int(None, allow_none=True).tag(sync=True)
    offers = traitlets.Dict().tag(sync=True)
    pending = traitlets.List(traitlets.Unicode()).tag(sync=True)
    message = traitlets.Dict({"id": 0, "level": "", "text": ""}).tag(sync=True)
    narration = traitlets.Dict({"turns": list[Any]()}).tag(sync=True)
    replay = traitlets.Dict({"turn": 0, "total": 0, "note": "", "note_turn": None}).tag(sync=True)
    cover = traitlets.Dict({"shown": False, "seat": None, "text": ""}).tag(sync=True)
    busy = traitlets.Bool(False).tag(sync=True)
    show_odds = traitlets.Bool(True).tag(sync=True)
    status = traitlets.Unicode("").tag(sync=True)

    def __init__(self, **kwargs: Any) -> None:
        if not (STATIC / "widget.js").exists():
            raise RuntimeError(
                "the widget's front end is not built: run `pip install -e .` "
                "(or `npm install && npm run build`) in the repository"
            )
        super().__init__(**kwargs)


# ------------------------------------------------------------------------ words


def public_view(view: Mapping[str, Any]) -> dict[str, Any]:
    """``view`` with every face-down value and every hand removed: what anyone may see
    (shown behind the hot-seat cover)."""
    out = dict(view)
    out["queues"] = [[{**c, "value": None} for c in q] for q in view["queues"]]
    out["hands"] = [{**h, "cards": None} for h in view["hands"]]
    return out


def _name(players: Sequence[str], seat: int) -> str:
    return players[seat] if 0 <= seat < len(players) else f"seat {seat + 1}"


def _value(card: str) -> int:
    return int(card.rstrip("*"))


def _swat_line(sq: Mapping[str, Any], token: str, players: Sequence[str]) -> str:
    """One queue of a swat in words, e.g. ``4 + 4 + 2 = 10 — swing and miss: all escape``."""
    if sq["single"] is not None:
        c = sq["single"]
        owner = _name(players, c["owner"])
        return f"one card left: {owner}'s {_value(c['card'])} escapes unflipped"
    flipped = sq["flipped"]
    if not flipped:
        return "empty: nothing to swat"
    values = [_value(c["card"]) for c in flipped]
    total = sq["total"]
    sums = " + ".join(str(v) for v in values)
    hit = [c for c in flipped if c["key"] in sq["swatted"]]
    hits = " and ".join(f"the {_value(c['card'])} ({_name(players, c['owner'])})" for c in hit)
    if sq["outcome"] == "exact":
        return f"{sums} = 10 — swing and miss: all escape"
    if sq["outcome"] == "under":
        return f"{sums} = {total} < 10 — the highest is swatted: {hits}"
    if not hit:
        return f"{sums} = {total} > 10 — Human Defense {token} swats nothing here: all escape"
    return f"{sums} = {total} > 10 — Human Defense {token} swats {hits}"


REASONS = {
    "wake": "SleepKid wakes and swats",
    "full": "Every queue is full: SleepKid wakes and swats",
    "daybreak": "Daybreak: SleepKid swats",
}


def describe_turn(
    events: Sequence[Mapping[str, Any]],
    players: Sequence[str],
    token_before: str,
    viewer: int | None = None,
) -> dict[str, Any]:
    """A turn's public events in words: ``{"lines": [...], "swats": [...]}``. Each swat is
    ``{"reason", "title", "queues": [{"queue", "cards": [{"owner", "card", "swatted"}],
    "text"}]}``, in flip order, for the table to reveal one queue after another.

    >>> ev = [{"kind": "swat", "reason": "wake", "queues": [{"queue": 0, "flipped": [
    ...     {"key": 0, "owner": 0, "card": "1"}, {"key": 1, "owner": 1, "card": "5*"},
    ...     {"key": 2, "owner": 2, "card": "5"}], "total": 11, "outcome": "over",
    ...     "swatted": [0, 1], "single": None}]}]
    >>> describe_turn(ev, ["Ana", "Ben", "Cy"], "I+II")["swats"][0]["queues"][0]["text"]
    '1 + 5 + 5 = 11 > 10 — Human Defense I+II swats the 1 (Ana) and the 5 (Ben)'
    """
    token = token_before
    lines: list[str] = []
    swats: list[dict[str, Any]] = []

    def who(seat: int) -> str:
        return "You" if seat == viewer else _name(players, seat)

    for e in events:
        kind = e["kind"]
        if kind == "peek":
            lines.append(
                f"{who(e['seat'])} peeked at queue {e['queue'] + 1}, "
                f"position {ROMAN[e['position']]}."
            )
        elif kind == "rotate":
            lines.append(
                f"{who(e['seat'])} rotated queue {e['queue'] + 1}: its front card went to the back."
            )
        elif kind == "wake":
            lines.append(f"{who(e['seat'])} woke SleepKid!")
        elif kind == "play":
            lines.append(f"{who(e['seat'])} played a {e['back']} card on queue {e['queue'] + 1}.")
        elif kind == "swat":
            title = REASONS.get(e["reason"], "SleepKid swats")
            lines.append(f"{title}.")
            swats.append(
                {
                    "reason": e["reason"],
                    "title": f"{title} (Human Defense {token})",
                    "queues": [
                        {
                            "queue": sq["queue"],
                            "cards": [
                                {"owner": c["owner"], "card": c["card"],
                                 "swatted": c["key"] in sq["swatted"]}
                                for c in ([sq["single"]] if sq["single"] else sq["flipped"])
                            ],
                            "text": _swat_line(sq, token, players),
                        }
                        for sq in e["queues"]
                    ],
                }
            )
        elif kind == "token":
            token = e["token"]
            lines.append(f"New Human Defense token: {token}.")
        elif kind == "end":
            names = " and ".join(_name(players, s) for s in e["winners"])
            verb = "wins" if len(e["winners"]) == 1 else "win"
            lines.append(f"The game is over: {names} {verb}.")
    return {"lines": lines, "swats": swats}


def _token_before(game: Game, events: Sequence[Mapping[str, Any]]) -> str:
    """The current token before the turn whose ``events`` are the game's last."""
    reveals = sum(1 for e in events if e["kind"] == "token")
    revealed = game.defense
    return revealed[len(revealed) - 1 - reveals]


def _check_intent(intent: object) -> dict[str, Any]:
    """Validate a message's shape; raise :class:`WidgetMessageError` naming the fault."""
    if not isinstance(intent, dict):
        raise WidgetMessageError(f"a message must be an object, not {type(intent).__name__}")
    kind = intent.get("kind")
    if not isinstance(kind, str) or kind not in KINDS:
        raise WidgetMessageError(f"unknown message kind {kind!r}")
    fields = KINDS[kind]
    extra = set(intent) - set(fields) - {"kind"}
    if extra:
        raise WidgetMessageError(f"unexpected field(s) in a {kind!r} message: {sorted(extra)}")
    for name, typ in fields.items():
        if name not in intent:
            raise WidgetMessageError(f"a {kind!r} message needs {name!r}")
        value = intent[name]
        if isinstance(value, bool) and typ is not bool:
            raise WidgetMessageError(f"{name!r} must not be a boolean")
        if not isinstance(value, typ):
            raise WidgetMessageError(f"{name!r} has the wrong type: {value!r}")
    return dict(intent)


def _step_text(step: Mapping[str, Any]) -> str:
    kind = step["kind"]
    if kind == "play":
        return f"played {step['card']} on queue {step['queue'] + 1}"
    if kind == "peek":
        return f"peeked at queue {step['queue'] + 1}, position {ROMAN[step['position']]}"
    if kind == "rotate":
        return f"rotated queue {step['queue'] + 1}"
    return "woke SleepKid"


def _is_seat(game: Game, seat: object) -> bool:
    return type(seat) is int and 0 <= seat < game.seats


def _check_humans(game: Game, humans: object) -> list[int]:
    """The human seats, sorted; raise :class:`WidgetMessageError` naming a bad one."""
    if isinstance(humans, (str, bytes)) or not isinstance(humans, Sequence):
        raise WidgetMessageError(f"humans must be a list of seats, not {humans!r}")
    for s in humans:
        if not _is_seat(game, s):
            raise WidgetMessageError(
                f"human seat {s!r} does not exist (seats 0..{game.seats - 1})"
            )
    return sorted(set(humans))


def _check_bots(game: Game, bots: object, humans: Sequence[int]) -> dict[int, str]:
    """The bot of each bot seat; raise :class:`WidgetMessageError` naming a bad one."""
    if bots is None:
        return {}
    if not isinstance(bots, Mapping):
        raise WidgetMessageError(f"bots must map seats to bot names, not {bots!r}")
    out: dict[int, str] = {}
    for s, name in bots.items():
        if not _is_seat(game, s):
            raise WidgetMessageError(f"bot seat {s!r} does not exist (seats 0..{game.seats - 1})")
        if s in humans:
            raise WidgetMessageError(f"seat {s} cannot be both human and bot")
        if name not in BOT_NAMES:
            raise WidgetMessageError(
                f"unknown bot {name!r} for seat {s} (choose from {', '.join(BOT_NAMES)})"
            )
        out[s] = name
    return out


def _build_history(game: Game) -> list[Game]:
    """The position after every turn of ``game``: ``history[t]`` is the game after t turns."""
    start = game.copy()
    while start.turns_applied:
        start.undo()
    history = [start]
    for t in game.turns[:-1]:
        nxt = history[-1].copy()
        nxt.apply(t)
        history.append(nxt)
    if game.turns_applied:
        history.append(game.copy())
    return history


def _final_steps(pending: Sequence[Mapping[str, Any]]) -> int:
    """How many of a turn's pending steps are final: every step up to and including the
    last peek or wake (what they showed cannot be unseen)."""
    keep = 0
    for i, step in enumerate(pending):
        if step["kind"] in ("peek", "wake"):
            keep = i + 1
    return keep


# ------------------------------------------------------------------- controller


class TenLeaveWidget(ipywidgets.VBox):  # type: ignore[misc]
    """The table and its odds panels for one game, in play, hot-seat or replay mode.

    Build it with :func:`play`, :func:`hotseat` or :func:`replay_widget`. Scripting API:
    :meth:`load`, :meth:`save`, :meth:`goto`, :attr:`game`, :attr:`turn`,
    :meth:`set_perspective`, :meth:`handle_intent` (what a browser click sends).
    """

    def __init__(
        self,
        game: Game,
        *,
        mode: Mode = "play",
        humans: Sequence[int] = (0,),
        bots: Mapping[int, str] | None = None,
        perspective: int | None = None,
        turn: int | None = None,
        bot_delay: float = 0.5,
        seed: int | None = None,
        show_odds: bool = True,
    ) -> None:
        if not isinstance(game, Game):
            raise WidgetMessageError(f"game must be a Game, not {type(game).__name__}")
        if mode not in ("play", "hotseat", "replay"):
            raise WidgetMessageError(
                f"unknown mode {mode!r} (choose from 'play', 'hotseat', 'replay')"
            )
        if isinstance(bot_delay, bool) or not isinstance(bot_delay, (int, float)) or not (
            0 <= bot_delay < float("inf")
        ):
            raise WidgetMessageError(
                f"bot_delay must be a number of seconds >= 0, not {bot_delay!r}"
            )
        if seed is not None and type(seed) is not int:
            raise WidgetMessageError(f"seed must be an integer or None, not {seed!r}")
        if not isinstance(show_odds, bool):
            raise WidgetMessageError(f"show_odds must be True or False, not {show_odds!r}")
        self.mode: Mode = mode
        self.bot_delay = float(bot_delay)
        self._seed = seed
        self._humans = _check_humans(game, humans) if mode != "replay" else []
        self._bot_names = _check_bots(game, bots, self._humans)
        self._bots = {
            s: make_bot(name, None if seed is None else seed * 10 + s)
            for s, name in self._bot_names.items()
        }
        total = game.turns_applied
        if mode == "replay":
            if perspective is not None and not _is_seat(game, perspective):
                raise WidgetMessageError(
                    f"perspective must be a seat 0..{game.seats - 1} or None (the teacher's "
                    f"view), not {perspective!r}"
                )
            if turn is not None and not (type(turn) is int and 0 <= turn <= total):
                raise WidgetMessageError(f"turn must be an integer 0..{total}, not {turn!r}")
        else:
            if not self._humans:
                raise WidgetMessageError(f"{mode} mode needs at least one human seat")
            missing = [
                s for s in range(game.seats) if s not in self._humans and s not in self._bots
            ]
            if missing:
                raise WidgetMessageError(f"seats {missing} are neither human nor bot")
            if perspective is not None:
                raise WidgetMessageError(
                    "perspective is for replay mode: in play the table shows the human seat's "
                    "view"
                )
            if turn is not None:
                raise WidgetMessageError(
                    "turn is for replay mode: play continues from the game's last turn"
                )
        self._history: list[Game] = _build_history(game)
        self._turn = len(self._history) - 1 if turn is None else turn
        self._pending: list[dict[str, Any]] = []
        self._preview: Game | None = None
        self._generation = 0
        self._busy = False
        self._covered = False
        self._msg_id = 0
        self._expected: dict[tuple[int, int], float] = {}
        # (seat,) whose view the odds figure holds, None while it holds no seat's data
        self._panels_hold: tuple[int | None] | None = None
        if mode == "replay":
            self._seat = perspective
        else:
            first_human = next(
                (s for s in self._order_from(self._live.to_move) if s in self._humans),
                self._humans[0],
            )
            self._seat = first_human
        self.table = TableWidget(mode=mode, show_odds=show_odds)
        self._panels = Panels(game.players, game.view(None)["colours"], game.queue_count)
        self._panel_box = ipywidgets.Box(
            [self._panels.figure], layout=ipywidgets.Layout(display="" if show_odds else "none")
        )
        super().__init__([self.table, self._panel_box])
        self.table.on_msg(self._on_table_msg)
        self._refresh()
        if mode != "replay":
            self._run_bots()

    # ----------------------------------------------------------- public API
    @property
    def game(self) -> Game:
        """A copy of the current game: the live game, or the replay at the chosen turn."""
        return self._current().copy()

    @property
    def table_game(self) -> Game:
        """A copy of the position on the table: :attr:`game` plus the steps of the turn in
        progress (a peek, the card just played), not yet ended."""
        return self._shown().copy()

    @property
    def turn(self) -> int:
        """The number of turns played at the position shown."""
        return self._turn

    @property
    def figure(self) -> Any:
        """The Plotly ``FigureWidget`` of the odds panels."""
        return self._panels.figure

    @property
    def perspective(self) -> int | None:
        """The seat whose view is shown (``None``: the teacher's omniscient view)."""
        return self._seat

    def set_perspective(self, seat: int | None) -> None:
        """Replay mode: show the table as ``seat`` sees it, or everything (``None``)."""
        self.handle_intent({"kind": "perspective", "seat": seat})

    def goto(self, turn: int) -> None:
        """Replay mode: show the position after ``turn`` turns. Play mode: take back every
        turn after ``turn`` (the bots then move again if it is their turn)."""
        if self.mode == "replay":
            self.handle_intent({"kind": "goto", "turn": turn})
            return
        if type(turn) is not int or not 0 <= turn <= len(self._history) - 1:
            raise WidgetMessageError(f"turn must be 0..{len(self._history) - 1}, not {turn!r}")
        self._cancel_bots()
        self._take_back_to(turn)
        self._after_turn()

    def load(self, record: Any, turn: int | None = None) -> None:
        """Load a ``tenleave-record/1`` (object or path). Replay mode shows turn ``turn``
        (default 0); play mode continues from the record's end (``turn`` must be left out).

        Everything is checked before anything changes: on an error (an invalid record,
        other players, a bad ``turn``) the widget is exactly as it was."""
        game = Game.from_record(record)
        if game.players != self._live.players or game.queue_count != self._live.queue_count:
            raise WidgetMessageError(
                "the record has other players; build a new widget with replay_widget(record)"
            )
        total = game.turns_applied
        if self.mode == "replay":
            shown = 0 if turn is None else turn
            if type(shown) is not int or not 0 <= shown <= total:
                raise WidgetMessageError(f"turn must be an integer 0..{total}, not {turn!r}")
        elif turn is not None:
            raise WidgetMessageError(
                "turn is for replay mode: play continues from the record's end "
                "(then goto(n) takes turns back)"
            )
        else:
            shown = total
        history = _build_history(game)
        # nothing has changed so far; from here on nothing raises
        self._cancel_bots()
        self._history = history
        self._turn = shown
        self._pending = []
        self._preview = None
        self._expected.clear()
        self._say("")
        if self.mode == "replay":
            self._refresh()
        else:
            self._after_turn()

    def record(self) -> dict[str, Any]:
        """The whole game as a ``tenleave-record/1`` object (with its notes)."""
        return dict(self._live.to_record())

    def save(self, path: str | Path) -> None:
        """Save :meth:`record` as JSON."""
        save_record(self.record(), path)

    def handle_intent(self, intent: object) -> None:
        """Apply one browser intent, or raise a :class:`TenLeaveError` (nothing changed)."""
        msg = _check_intent(intent)
        kind = msg["kind"]
        handler = getattr(self, f"_do_{kind}")
        handler(msg)

    def send_intent(self, intent: object) -> bool:
        """As a click would: apply the intent, or show the error on the table. True if applied."""
        try:
            self.handle_intent(intent)
        except TenLeaveError as e:
            self._say(str(e), "error")
            return False
        return True

    # ------------------------------------------------------------ internals
    @property
    def _live(self) -> Game:
        return self._history[-1]

    def _order_from(self, seat: int | None) -> list[int]:
        n = self._live.seats
        start = 0 if seat is None else seat
        return [(start + k) % n for k in range(n)]

    def _current(self) -> Game:
        if self.mode == "replay":
            return self._history[self._turn]
        return self._history[-1]

    def _shown(self) -> Game:
        """The position on the table: the current game, with the pending steps done."""
        if self._preview is not None:
            return self._preview
        return self._current()

    def _on_table_msg(self, _widget: Any, content: Any, _buffers: Any) -> None:
        self.send_intent(content)

    def _say(self, text: str, level: str = "info") -> None:
        self._msg_id += 1
        self.table.message = {"id": self._msg_id, "level": level, "text": text}

    def _my_turn(self) -> bool:
        g = self._live
        return (
            self.mode != "replay"
            and not self._covered
            and not self._busy
            and not g.finished
            and g.to_move == self._seat
            and g.to_move in self._humans
        )

    def _require_turn(self) -> None:
        if self.mode == "replay":
            raise WidgetMessageError("this is a replay: use the turn controls")
        if self._covered:
            raise WidgetMessageError("the screen is covered: the next player must uncover it")
        g = self._live
        if g.finished:
            raise WidgetMessageError("the game is over")
        if self._busy or g.to_move != self._seat or g.to_move not in self._humans:
            mover = _name(g.players, g.to_move or 0)
            raise WidgetMessageError(f"it is not your turn: {mover} is to move")

    # intents -------------------------------------------------------------
    def _step(self, step: dict[str, Any]) -> None:
        self._require_turn()
        preview = self._live.preview([*self._pending, step])  # raises IllegalActionError
        self._pending.append(step)
        self._preview = preview
        self._say("")
        self._refresh()

    def _do_play(self, msg: dict[str, Any]) -> None:
        self._step({"kind": "play", "card": msg["card"], "queue": msg["queue"]})

    def _do_peek(self, msg: dict[str, Any]) -> None:
        self._step({"kind": "peek", "queue": msg["queue"], "position": msg["position"]})

    def _do_rotate(self, msg: dict[str, Any]) -> None:
        self._step({"kind": "rotate", "queue": msg["queue"]})

    def _do_wake(self, _msg: dict[str, Any]) -> None:
        self._step({"kind": "wake"})

    def _do_reset(self, _msg: dict[str, Any]) -> None:
        """Drop the steps of the turn in progress that revealed nothing. A peek or a wake is
        final (the card was seen, the swat happened), and so is every step before it: only
        the steps after the last peek/wake are dropped."""
        self._require_turn()
        pending = self._pending
        if not pending:
            raise WidgetMessageError("nothing to take back in this turn")
        keep = _final_steps(pending)
        if keep == len(pending):
            last = pending[keep - 1]
            what = (
                "you peeked at a card and have seen it"
                if last["kind"] == "peek" else "SleepKid has woken and swatted"
            )
            then = (
                "end the turn" if any(s["kind"] == "play" for s in pending)
                else "play a card, then end the turn"
            )
            raise WidgetMessageError(f"this turn cannot be started again: {what}; {then}")
        kept = pending[:keep]
        self._preview = self._live.preview(kept) if kept else None
        self._pending = kept
        if kept:
            what = "peek" if kept[-1]["kind"] == "peek" else "wake"
            self._say(f"Your {what} stays (it cannot be taken back); the steps after it were.")
        else:
            self._say("")
        self._refresh()

    def _do_end(self, _msg: dict[str, Any]) -> None:
        self._require_turn()
        seat = self._live.to_move
        assert seat is not None
        turn = Turn.from_steps(seat, list(self._pending))  # raises if there is no play yet
        self._apply(turn)
        self._say("")
        self._after_turn()

    def _do_undo(self, _msg: dict[str, Any]) -> None:
        refusal = self._undo_refusal()
        if refusal is not None:
            raise WidgetMessageError(refusal)
        human = self._humans[0]
        turns = self._live.turns
        last = max(i for i, t in enumerate(turns) if t.seat == human)
        self._cancel_bots()
        self._take_back_to(last)
        self._say("Your last turn was taken back.")
        self._after_turn()

    def _do_uncover(self, _msg: dict[str, Any]) -> None:
        if not self._covered:
            raise WidgetMessageError("the screen is not covered")
        self._covered = False
        self._say("")
        self._refresh()

    def _do_goto(self, msg: dict[str, Any]) -> None:
        if self.mode != "replay":
            raise WidgetMessageError("go-to-turn is for replay mode")
        turn = msg["turn"]
        total = len(self._history) - 1
        if not 0 <= turn <= total:
            raise WidgetMessageError(f"turn must be 0..{total}, not {turn}")
        self._turn = turn
        self._say("")
        self._refresh()

    def _do_perspective(self, msg: dict[str, Any]) -> None:
        if self.mode != "replay":
            raise WidgetMessageError("the perspective can only be changed in replay mode")
        seat = msg["seat"]
        if seat is not None and not 0 <= seat < self._live.seats:
            raise WidgetMessageError(f"seat {seat} does not exist")
        self._seat = seat
        self._say("")
        self._refresh()

    def _do_odds(self, msg: dict[str, Any]) -> None:
        show = bool(msg["show"])
        self.table.show_odds = show
        self._panel_box.layout.display = "" if show else "none"
        if show:
            self._refresh_panels()

    # turns ----------------------------------------------------------------
    def _apply(self, turn: Turn) -> None:
        game = self._live.copy()
        game.apply(turn)
        self._history.append(game)
        self._turn = len(self._history) - 1
        self._pending = []
        self._preview = None

    def _undo_refusal(self) -> str | None:
        """Why undo is not allowed now, or ``None``. Undo takes back the human's last turn,
        the bots' answers and the steps of the turn in progress; it is refused when any of
        them revealed a face-down value the human has seen: a swat (wake, automatic wake,
        daybreak) or a peek by the human."""
        if self.mode != "play" or len(self._humans) != 1:
            return "undo is for one player against bots"
        human = self._humans[0]
        live = self._live
        mine = [i for i, t in enumerate(live.turns) if t.seat == human]
        if not mine:
            return "there is no turn of yours to take back"
        why = "cannot undo: {} (face-down values were shown), so it cannot be taken back"
        for step in self._pending:
            if step["kind"] == "peek":
                return why.format("you peeked at a card in this turn")
            if step["kind"] == "wake":
                return why.format("you woke SleepKid in this turn")
        for i in range(mine[-1], live.turns_applied):
            for e in live.events(i):
                if e["kind"] == "swat":
                    who = "your" if live.turns[i].seat == human else (
                        f"{_name(live.players, live.turns[i].seat)}'s"
                    )
                    return why.format(f"SleepKid swatted in {who} turn {i + 1}")
                if e["kind"] == "peek" and e["seat"] == human:
                    return why.format(f"you peeked at a card in turn {i + 1}")
        return None

    def _take_back_to(self, turn: int) -> None:
        """Forget every turn after ``turn`` turns, the turn in progress and the odds
        cached for the abandoned line."""
        del self._history[turn + 1 :]
        self._expected = {k: v for k, v in self._expected.items() if k[0] <= turn}
        self._turn = turn
        self._pending = []
        self._preview = None

    def _after_turn(self) -> None:
        """After a turn (or a take-back): cover the screen for the next human in hot-seat
        mode, refresh, then let the bots move."""
        g = self._live
        nxt = g.to_move
        if self.mode == "hotseat" and nxt in self._humans and nxt != self._seat:
            self._seat = nxt
            self._covered = True
        self._refresh()
        self._run_bots()

    def _cancel_bots(self) -> None:
        self._generation += 1
        self._busy = False

    def _run_bots(self) -> None:
        g = self._live
        if g.finished or g.to_move not in self._bots:
            if self._busy:
                self._busy = False
                self._refresh()
            return
        self._busy = True
        generation = self._generation
        loop: asyncio.AbstractEventLoop | None = None
        if self.bot_delay > 0:
            try:
                loop = asyncio.get_running_loop()
            except RuntimeError:
                loop = None
        if loop is None:
            while self._bot_move(generation):
                pass
            self._busy = False
            self._refresh()
            return
        self._refresh()
        last = g.events()
        delay = self.bot_delay * (4 if any(e["kind"] == "swat" for e in last) else 1)
        loop.call_later(delay, self._bot_tick, generation)

    def _bot_move(self, generation: int) -> bool:
        """Let the bot to move play one turn; False when no bot is to move."""
        g = self._live
        if generation != self._generation or g.finished or g.to_move not in self._bots:
            return False
        seat = g.to_move
        assert seat is not None
        turn = self._bots[seat].choose(g.copy())
        self._apply(turn)
        if self.mode == "hotseat":
            nxt = self._live.to_move
            if nxt in self._humans and nxt != self._seat:
                self._seat = nxt
                self._covered = True
        return True

    def _bot_tick(self, generation: int) -> None:
        try:
            moved = self._bot_move(generation)
        except TenLeaveError as e:  # a bot that cannot move: say so, stop waiting
            self._busy = False
            self._say(f"the bot could not move: {e}", "error")
            self._refresh()
            return
        if not moved:
            return
        self._refresh()
        self._run_bots()

    # drawing --------------------------------------------------------------
    def _viewer_view(self, game: Game) -> dict[str, Any]:
        view = game.view(self._seat)
        return public_view(view) if self._covered else view

    def _narration(self) -> dict[str, Any]:
        shown = self._shown()
        players = shown.players
        viewer = self._seat
        turns: list[dict[str, Any]] = []
        if self._covered:
            return {"turns": []}
        if self.mode == "replay":
            indices = [self._turn - 1] if self._turn > 0 else []
        else:
            live = self._live
            played = [t.seat for t in live.turns]
            start = len(played) - 1
            while start > 0 and played[start] != viewer and len(played) - start < live.seats:
                start -= 1
            indices = list(range(max(start, 0), len(played)))
        game = self._current()
        for i in indices:
            after = self._history[i + 1] if self.mode != "replay" else game
            events = after.events(i)
            entry = describe_turn(events, players, _token_before(after, events), viewer)
            entry["turn"] = i
            entry["seat"] = after.turns[i].seat
            turns.append(entry)
        if self._preview is not None:
            events = self._preview.events()
            entry = describe_turn(events, players, _token_before(self._preview, events), viewer)
            entry["turn"] = self._live.turns_applied
            entry["seat"] = self._seat
            entry["pending"] = True
            turns.append(entry)
        return {"turns": turns}

    def _offers(self) -> dict[str, Any]:
        offers: dict[str, Any] = {
            "active": False, "play_cards": [], "play_queues": [], "peek": [], "rotate": [],
            "wake": False, "end": False, "reset": False, "undo": False,
        }
        if self.mode == "play" and not self._busy:
            offers["undo"] = self._undo_refusal() is None
        if not self._my_turn():
            return offers
        live = self._live
        seat = self._seat
        assert seat is not None
        pending = self._pending
        shown = self._shown()

        def legal(step: dict[str, Any]) -> bool:
            try:
                live.preview([*pending, step])
            except TenLeaveError:
                return False
            return True

        played = any(s["kind"] == "play" for s in pending)
        acted = any(s["kind"] != "play" for s in pending)
        offers["active"] = True
        if not played:
            cards = sorted(set(shown.hand(seat)))
            offers["play_cards"] = cards
            if cards:
                offers["play_queues"] = [
                    q for q in range(live.queue_count)
                    if legal({"kind": "play", "card": cards[0], "queue": q})
                ]
        if not acted:
            sizes = [len(shown.queue_cards(q)) for q in range(live.queue_count)]
            offers["peek"] = [
                [q, i] for q in range(live.queue_count) for i in range(sizes[q])
                if legal({"kind": "peek", "queue": q, "position": i})
            ]
            offers["rotate"] = [
                q for q in range(live.queue_count) if legal({"kind": "rotate", "queue": q})
            ]
            offers["wake"] = not played and legal({"kind": "wake"})
        offers["end"] = played
        offers["reset"] = len(pending) > _final_steps(pending)
        return offers

    def _status(self) -> str:
        g = self._shown()
        players = g.players
        if self._covered:
            return f"Pass the screen to {_name(players, self._seat or 0)}."
        if g.finished:
            winners = g.winners or []
            low = g.penalty[winners[0]] if winners else 0
            names = " and ".join(_name(players, s) for s in winners)
            return f"Game over: {names} {'wins' if len(winners) == 1 else 'win'} with {low}."
        mover = g.to_move
        assert mover is not None
        if self.mode == "replay":
            return f"Turn {self._turn + 1}: {_name(players, mover)} to move."
        if mover == self._seat and mover in self._humans:
            if self._busy:
                return "Wait…"
            if any(s["kind"] == "play" for s in self._pending):
                return "You played: peek or rotate now if you like, then end the turn."
            text = f"Your turn, {_name(players, mover)}: choose a card, then a queue."
            refusal = self._undo_refusal() if self.mode == "play" else None
            if refusal is not None and refusal.startswith("cannot undo"):
                text += " (No undo: a swat or your peek has shown cards since your last turn.)"
            return text
        if mover in self._bots:
            return f"{_name(players, mover)} ({self._bot_names[mover]} bot) is thinking…"
        return f"{_name(players, mover)}'s turn."

    def _replay_state(self) -> dict[str, Any]:
        if self.mode != "replay":
            return {"turn": self._turn, "total": self._turn, "note": "", "note_turn": None}
        notes = self._live.notes
        note_turn = self._turn - 1 if self._turn > 0 else None
        note = notes.get(note_turn, "") if note_turn is not None else ""
        if note and self._seat is not None:
            # A note is free text by the teacher: it may name values this seat does not
            # know, so a seat's view only says that there is one.
            note = "(a teacher's note: switch to the teacher's view to read it)"
        return {
            "turn": self._turn,
            "total": len(self._history) - 1,
            "note": note,
            "note_turn": note_turn if note else None,
        }

    def _refresh(self) -> None:
        """Push the table state to the browser, then the panels."""
        if self._preview is not None and not self._pending:
            self._preview = None
        shown = self._shown()
        with self.table.hold_sync():
            self.table.view = self._viewer_view(shown)
            self.table.perspective = self._seat
            self.table.pending = [_step_text(s) for s in self._pending]
            self.table.offers = self._offers()
            self.table.narration = self._narration()
            self.table.replay = self._replay_state()
            cover: dict[str, Any] = {
                "shown": self._covered,
                "seat": self._seat if self._covered else None,
                "text": (
                    f"Pass the screen to {_name(shown.players, self._seat or 0)}. "
                    "Everyone else: look away."
                    if self._covered else ""
                ),
            }
            self.table.cover = cover
            self.table.busy = self._busy
            self.table.status = self._status()
        self._refresh_panels()

    def _expected_at(self, turn: int, seat: int) -> float:
        key = (turn, seat)
        got = self._expected.get(key)
        if got is None:
            game = self._history[turn]
            odds = seat_odds(game.view(seat), moves=False)
            got = game.penalty[seat] + float(odds["expected_penalty"][seat])
            self._expected[key] = got
        return got

    def _refresh_panels(self) -> None:
        seat = self._seat
        if self._covered or not self.table.show_odds:
            # Behind the hot-seat cover, or once another seat (or the teacher) is viewing,
            # the figure must hold nothing of the previous view: empty it even when the
            # odds are hidden (hidden panels are still synced to the browser). Otherwise
            # the update below replaces every trace.
            hold = self._panels_hold
            if hold is not None and (self._covered or hold[0] != seat):
                self._panels.update(None, None, [], "")
                self._panels_hold = None
            return
        shown = self._shown()
        view = shown.view(seat)
        odds: dict[str, Any] = dict(seat_odds(view))
        if any(s["kind"] == "play" for s in self._pending):
            odds.pop("moves", None)
        elif self._pending:  # after a peek, rotate or wake, waking is no longer legal
            odds["moves"] = [m for m in odds.get("moves", []) if not m.get("wake")]
        if seat is None and shown.to_move is not None:
            mover_odds = seat_odds(shown.view(shown.to_move))
            odds["moves"] = mover_odds.get("moves", [])
            odds["seat"] = shown.to_move
        last = self._turn if self.mode == "replay" else len(self._history) - 1
        timeline = [
            TimelinePoint(
                t,
                self._history[t].penalty,
                None if seat is None else self._expected_at(t, seat),
            )
            for t in range(last + 1)
        ]
        who = "the teacher's view" if seat is None else f"{_name(shown.players, seat)}'s view"
        title = f"Odds — {who}, after {shown.turns_applied} turns"
        self._panels.update(view, odds, timeline, title)
        self._panels_hold = (seat,)


# ---------------------------------------------------------------- entry points


def play(
    players: int | Sequence[str] = 3,
    human: int | Sequence[int] = 0,
    bots: Sequence[str] = ("greedy", "random"),
    *,
    seed: int | None = None,
    first: int = 0,
    bot_delay: float = 0.5,
    show_odds: bool = True,
) -> TenLeaveWidget:
    """A game against bots (one human seat) or hot-seat (several human seats).

    ``bots`` names the bots of the other seats in seat order (``"greedy"``, ``"random"``),
    repeated if there are more seats than names. Bots move after the human, ``bot_delay``
    seconds apart so that a person can follow. With one human, the widget offers undo.
    """
    game = _new_game(players, seed, first)
    if isinstance(human, int) and not isinstance(human, bool):
        humans: list[Any] = [human]
    elif isinstance(human, Sequence) and not isinstance(human, (str, bytes)):
        humans = list(human)
    else:
        raise WidgetMessageError(f"human must be a seat or a list of seats, not {human!r}")
    humans = _check_humans(game, humans)
    others = [s for s in range(game.seats) if s not in humans]
    if isinstance(bots, str):
        names = [bots]
    elif isinstance(bots, Sequence) and all(isinstance(b, str) for b in bots):
        names = list(bots)
    else:
        raise WidgetMessageError(f"bots must be a list of bot names, not {bots!r}")
    if others and not names:
        raise WidgetMessageError(
            f"seats {others} need bots: pass bots=[...] or make them human"
        )
    if len(names) > len(others):
        raise WidgetMessageError(f"{len(names)} bots for {len(others)} non-human seats")
    assignment = {s: names[k % len(names)] for k, s in enumerate(others)}
    mode: Mode = "hotseat" if len(humans) > 1 else "play"
    return TenLeaveWidget(
        game, mode=mode, humans=humans, bots=assignment, bot_delay=bot_delay, seed=seed,
        show_odds=show_odds,
    )


def hotseat(
    players: int | Sequence[str] = 2, *, seed: int | None = None, show_odds: bool = False
) -> TenLeaveWidget:
    """Every seat human, on one screen, with a cover between seats."""
    game = _new_game(players, seed, 0)
    return TenLeaveWidget(
        game, mode="hotseat", humans=list(range(game.seats)), bots={}, seed=seed,
        show_odds=show_odds,
    )


def replay_widget(
    record: Any, *, seat: int | None = None, turn: int = 0, show_odds: bool = True
) -> TenLeaveWidget:
    """A record (object or path) in replay mode: step through its turns, from the teacher's
    view (``seat=None``, everything shown) or one seat's view."""
    game = Game.from_record(record)
    if seat is not None and not _is_seat(game, seat):
        raise WidgetMessageError(
            f"seat must be 0..{game.seats - 1} or None (the teacher's view), not {seat!r}"
        )
    if type(turn) is not int or not 0 <= turn <= game.turns_applied:
        raise WidgetMessageError(
            f"turn must be an integer 0..{game.turns_applied}, not {turn!r}"
        )
    return TenLeaveWidget(game, mode="replay", perspective=seat, turn=turn, show_odds=show_odds)


def _new_game(players: Any, seed: Any, first: Any) -> Game:
    """A new game for :func:`play` / :func:`hotseat`; a bad argument raises
    :class:`WidgetMessageError` naming it."""
    if seed is not None and type(seed) is not int:
        raise WidgetMessageError(f"seed must be an integer or None, not {seed!r}")
    if not (type(players) is int or (
        isinstance(players, Sequence) and not isinstance(players, (str, bytes))
    )):
        raise WidgetMessageError(
            f"players must be a number of seats or a list of names, not {players!r}"
        )
    try:
        return Game(players, seed=seed, first=first)
    except TenLeaveError as e:
        raise WidgetMessageError(str(e)) from None
