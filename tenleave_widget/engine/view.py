"""The seat view (``tenleave-view/1``, ``docs/view.md``): its types, and the projection of
a game's state for one seat (python-chess's and boardgame.io's "player view") — what
:meth:`Game.view <tenleave_widget.engine.game.Game.view>` and :meth:`Game.events
<tenleave_widget.engine.game.Game.events>` return.

The projection is pure: it reads a game (:class:`ViewSource`, the state as ``game.py``
keeps it) and changes nothing. No face-down value the seat does not know is in a view
(RULES.md §9). The types are the contract with the browser too: :mod:`..table.protocol`
re-exports them and ``tools/gen_protocol.py`` writes them into the generated
``js/protocol.ts``.

>>> from tenleave_widget.engine.game import Game
>>> g = Game(2, seed=1)
>>> g.apply({"seat": 0, "play": ["4*", 0]})
>>> v = g.view(1)
>>> v["format"], v["queues"][0][0]["value"], g.view(0)["queues"][0][0]["value"]
('tenleave-view/1', None, 4)
>>> [e["kind"] for e in v["events"]]
['play']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal, Protocol, TypeAlias, TypedDict, TypeGuard

from .cards import COLOURS, MARKED, PLAIN, Back
from .errors import IllegalActionError, InvalidViewError, excerpt, shown
from .rules import QUEUE_CAPACITY, Rules
from .swat import outcome as swat_outcome

__all__ = [
    "VIEW_FORMAT", "Back", "EndEvent", "Event", "FlippedCard", "GameEvent", "Hand", "History",
    "PeekEvent", "PlayEvent", "RotateEvent", "SafeCard", "SwatEvent", "SwatQueue",
    "TableCard", "TokenEvent", "View", "ViewRules", "ViewSource", "ViewWithHistory",
    "WakeEvent", "check_view", "events_json", "has_history", "rules_view", "seat_view",
]

VIEW_FORMAT = "tenleave-view/1"

Event = tuple[Any, ...]
"""One event as the engine's executor records it (card ids, not keys): ``("play", seat,
queue, card)``, ``("peek", seat, queue, position, card)``, ``("rotate", seat, queue)``,
``("wake", seat)``, ``("swat", reason, [(queue, flipped, total, swatted, single), ...])``,
``("token", token)``, ``("end", winners)``. :func:`events_json` projects it."""

class TableCard(TypedDict):
    key: int
    owner: int
    back: Back
    value: int | None
    peeked_by: list[int]


class Hand(TypedDict):
    size: int
    marked: int
    plain: int
    cards: list[str] | None


class SafeCard(TypedDict):
    owner: int
    card: str


class FlippedCard(TypedDict):
    key: int
    owner: int
    card: str


class SwatQueue(TypedDict):
    """One queue of a swat: its cards flipped in order, their total and what came of it."""

    queue: int
    flipped: list[FlippedCard]
    total: int
    outcome: Literal["under", "exact", "over", "empty", "single"]
    swatted: list[int]
    """The keys of the cards swatted."""
    single: FlippedCard | None
    """In a daybreak pass, the one card of a queue holding exactly one (it escapes without a
    flip; the outcome is ``"single"``); else null."""


class PeekEvent(TypedDict):
    kind: Literal["peek"]
    seat: int
    queue: int
    position: int
    key: int


class RotateEvent(TypedDict):
    kind: Literal["rotate"]
    seat: int
    queue: int


class WakeEvent(TypedDict):
    kind: Literal["wake"]
    seat: int


class PlayEvent(TypedDict):
    kind: Literal["play"]
    seat: int
    queue: int
    back: Back
    key: int


class SwatEvent(TypedDict):
    kind: Literal["swat"]
    reason: Literal["wake", "full", "daybreak"]
    queues: list[SwatQueue]


class TokenEvent(TypedDict):
    kind: Literal["token"]
    token: str


class EndEvent(TypedDict):
    kind: Literal["end"]
    winners: list[int]


GameEvent: TypeAlias = (
    PeekEvent | RotateEvent | WakeEvent | PlayEvent | SwatEvent | TokenEvent | EndEvent
)
"""One event of the last turn, as the engine reports it (``Game.view``'s ``events``)."""


class ViewRules(TypedDict):
    deck: list[str]
    tokens: dict[str, list[int]]
    daybreak_token_change: bool


class View(TypedDict):
    """A seat's view, ``tenleave-view/1`` (``docs/view.md``), as :meth:`Game.view` makes it."""

    format: str
    seat: int | None
    players: list[str]
    colours: list[str]
    first: int
    rules: ViewRules
    queue_capacity: int
    turns_applied: int
    to_move: int | None
    finished: bool
    token: str
    token_positions: list[int]
    queues: list[list[TableCard]]
    hands: list[Hand]
    dealt: list[list[str]]
    swatted: list[list[str]]
    safe: list[SafeCard]
    penalty: list[int]
    winners: list[int] | None
    events: list[GameEvent]


class History(TypedDict):
    """The public history of a game: the first Human Defense token and each turn's public
    events (``Game.events(k)``, as a view's ``events`` lists them)."""

    token: str
    turns: list[list[GameEvent]]


class ViewWithHistory(View):
    """A seat's view with one more key, its public ``history`` (``docs/view.md``): what
    the inference reads (:func:`~tenleave_widget.analysis.infer.with_history` makes it).
    It holds nothing the seat does not know."""

    history: History


_VIEW_KEYS = ("seat", "to_move", "finished", "token", "queues", "hands", "dealt", "penalty")
"""The keys every reader of a view needs (beside ``format``)."""


def check_view(view: object, what: str = "a seat's view") -> View:
    """``view`` if it has the shape of a ``tenleave-view/1`` object: a mapping whose
    ``format`` is :data:`VIEW_FORMAT`, with a seat, whose turn it is, the token, the
    queues, hands, dealt cards and penalties. What the keys hold is checked by each reader.

    Args:
        view: what was passed as a view.
        what: how the error message calls it.

    Returns:
        ``view``.

    Raises:
        InvalidViewError: ``view`` is not a mapping, has another format, or lacks a key
            (the message names it). Anything but plain JSON values is named by its type,
            so the message never echoes an object's contents.

    Example:
        >>> try:
        ...     check_view(None)
        ... except InvalidViewError as e:
        ...     print(e)
        a seat's view must be a tenleave-view/1 object (Game.view(seat)), not null
    """
    if not isinstance(view, Mapping):
        raise InvalidViewError(f"{what} must be a {VIEW_FORMAT} object (Game.view(seat)), "
                               f"not {shown(view)}")
    if view.get("format") != VIEW_FORMAT:
        raise InvalidViewError(f"{what}: 'format' must be {VIEW_FORMAT!r}, not "
                               f"{excerpt(view.get('format'))}")
    missing = [k for k in _VIEW_KEYS if k not in view]
    if missing:
        raise InvalidViewError(f"{what} has no {', '.join(map(repr, missing))}")
    return view  # type: ignore[return-value]


def has_history(view: View) -> TypeGuard[ViewWithHistory]:
    """Whether ``view`` carries its public history (a bot that reads the players gets it
    at the start of a turn, not after a wake or a peek).

    Args:
        view: a seat's view.

    Returns:
        ``True`` if it has a ``history``.
    """
    return "history" in view


# ------------------------------------------------------------------- the projection


class ViewSource(Protocol):
    """What the projection reads of a game: engine/game.py's ``Game``, whose state it is
    (card ids are ``seat * d + index in the dealt list``; see :class:`.legal.Tables`). Read
    only: a view never changes the game."""

    @property
    def players(self) -> list[str]: ...
    @property
    def first(self) -> int: ...
    @property
    def rules(self) -> Rules: ...
    @property
    def to_move(self) -> int | None: ...
    @property
    def token(self) -> str: ...
    @property
    def winners(self) -> list[int] | None: ...
    @property
    def _n(self) -> int: ...
    @property
    def _d(self) -> int: ...
    @property
    def _dealt(self) -> tuple[str, ...]: ...
    @property
    def _notes(self) -> list[str]: ...
    @property
    def _marked(self) -> list[bool]: ...
    @property
    def _vals(self) -> list[int]: ...
    @property
    def _peeks(self) -> list[int]: ...
    @property
    def _keys(self) -> list[int]: ...
    @property
    def _queues(self) -> list[list[int]]: ...
    @property
    def _hands(self) -> list[int]: ...
    @property
    def _swatted(self) -> list[list[int]]: ...
    @property
    def _safe(self) -> list[int]: ...
    @property
    def _penalty(self) -> list[int]: ...
    @property
    def _tokpos(self) -> tuple[int, ...]: ...
    @property
    def _finished(self) -> bool: ...
    @property
    def _turns(self) -> Sequence[object]: ...
    @property
    def _events(self) -> list[list[Event]]: ...
    def _hand_list(self, mask: int) -> list[str]: ...


def rules_view(rules: Rules) -> ViewRules:
    """Every option of a variant, defaults included (a view's ``rules``).

    Args:
        rules: the variant.

    Returns:
        The view's ``rules`` object.
    """
    return {
        "deck": list(rules.deck),
        "tokens": {k: list(v) for k, v in rules.tokens.items()},
        "daybreak_token_change": rules.daybreak_token_change,
    }


def knows(game: ViewSource, seat: int | None, card_id: int) -> bool:
    """Whether ``seat`` (``None``: the teacher) knows the value of card ``card_id``: its own
    card, or one it peeked at.

    Args:
        game: the game.
        seat: the seat; ``None`` for the teacher.
        card_id: the card's id.

    Returns:
        ``True`` when the seat knows the value.
    """
    return seat is None or card_id // game._d == seat or bool(game._peeks[card_id] >> seat & 1)


def seat_view(game: ViewSource, seat: int | None) -> View:
    """What a seat knows (RULES.md §9), as the ``tenleave-view/1`` object of
    ``docs/view.md``.

    Args:
        game: the game (or position) to view.
        seat: the seat; ``None`` gives the teacher's omniscient view.

    Returns:
        The view.

    Raises:
        IllegalActionError: ``seat`` is not a seat of the game.
    """
    n = game._n
    if seat is not None and (type(seat) is not int or not 0 <= seat < n):
        raise IllegalActionError(
            f"seat {excerpt(seat)} does not exist (seats 0..{n - 1})"
        )
    d = game._d
    notes = game._notes
    marked = game._marked
    vals = game._vals
    peeks = game._peeks
    keys = game._keys

    def peekers(c: int) -> list[int]:
        m = peeks[c]
        return [s for s in range(n) if m >> s & 1]

    queues: list[list[TableCard]] = [
        [
            {
                "key": keys[c],
                "owner": c // d,
                "back": MARKED if marked[c] else PLAIN,
                "value": vals[c] if knows(game, seat, c) else None,
                "peeked_by": peekers(c),
            }
            for c in qq
        ]
        for qq in game._queues
    ]
    hands: list[Hand] = []
    for s in range(n):
        h = game._hands[s]
        ids = [s * d + j for j in range(d) if h >> j & 1]
        nm = sum(1 for c in ids if marked[c])
        hands.append(
            {
                "size": len(ids),
                "marked": nm,
                "plain": len(ids) - nm,
                "cards": game._hand_list(h) if seat is None or seat == s else None,
            }
        )
    events = game._events
    return {
        "format": VIEW_FORMAT,
        "seat": seat,
        "players": list(game.players),
        "colours": list(COLOURS[:n]),
        "first": game.first,
        "rules": rules_view(game.rules),
        "queue_capacity": QUEUE_CAPACITY,
        "turns_applied": len(game._turns),
        "to_move": game.to_move,
        "finished": game._finished,
        "token": game.token,
        "token_positions": list(game._tokpos),
        "queues": queues,
        "hands": hands,
        "dealt": [sorted(game._dealt) for _ in range(n)],
        "swatted": [sorted(notes[c] for c in pile) for pile in game._swatted],
        "safe": [{"owner": c // d, "card": notes[c]} for c in game._safe],
        "penalty": list(game._penalty),
        "winners": game.winners,
        "events": events_json(game, events[-1] if events else []),
    }


def events_json(game: ViewSource, events: list[Event]) -> list[GameEvent]:
    """The public events of one turn (a view's ``events``): cards by key, values only of
    the cards a swat flips face up.

    Args:
        game: the game.
        events: the turn's events, as the engine records them.

    Returns:
        The public events.
    """
    d = game._d
    keys = game._keys
    notes = game._notes

    def card(c: int) -> FlippedCard:
        return {"key": keys[c], "owner": c // d, "card": notes[c]}

    out: list[GameEvent] = []
    for e in events:
        kind = e[0]
        if kind == "peek":
            out.append({"kind": "peek", "seat": e[1], "queue": e[2], "position": e[3],
                        "key": keys[e[4]]})
        elif kind == "rotate":
            out.append({"kind": "rotate", "seat": e[1], "queue": e[2]})
        elif kind == "wake":
            out.append({"kind": "wake", "seat": e[1]})
        elif kind == "play":
            c = e[3]
            out.append({"kind": "play", "seat": e[1], "queue": e[2],
                        "back": MARKED if game._marked[c] else PLAIN, "key": keys[c]})
        elif kind == "swat":
            qs: list[SwatQueue] = []
            for q, flipped, total, sw, single in e[2]:
                outcome: Literal["under", "exact", "over", "empty", "single"]
                if single is not None:
                    outcome = "single"
                elif not flipped:
                    outcome = "empty"
                else:
                    outcome = swat_outcome(total)
                qs.append({
                    "queue": q,
                    "flipped": [card(c) for c in flipped],
                    "total": total,
                    "outcome": outcome,
                    "swatted": [keys[c] for c in sw],
                    "single": card(single) if single is not None else None,
                })
            out.append({"kind": "swat", "reason": e[1], "queues": qs})
        elif kind == "token":
            out.append({"kind": "token", "token": e[1]})
        elif kind == "end":
            out.append({"kind": "end", "winners": e[1]})
    return out
