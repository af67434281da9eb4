"""The contract between Python and the browser: the synced table state and the intents.

Python sends one :class:`TableState` (each key a traitlet of
:class:`~tenleave_widget.widget.table_widget.TableWidget`); the browser answers with an
:data:`Intent`. ``js/protocol.ts``, the same types in TypeScript, is GENERATED from this
module (and the TypedDicts it re-exports) by ``python tools/gen_protocol.py``: change the
types here, then run it; ``tests/table/test_protocol.py`` fails when the file is stale.

Every message from the browser is checked here, in one place (:func:`parse_intent`):
the browser is untrusted, so a malformed or forged message is refused with a
:class:`WidgetMessageError` naming the fault.

>>> parse_intent({"kind": "play", "card": "3*", "queue": 1})
{'kind': 'play', 'card': '3*', 'queue': 1}
>>> parse_intent({"kind": "play", "card": "3*"})
Traceback (most recent call last):
...
tenleave_widget.table.protocol.WidgetMessageError: a 'play' message needs 'queue'
"""

from __future__ import annotations

import types
from typing import (
    Annotated,
    Any,
    Literal,
    TypeAlias,
    TypedDict,
    Union,
    cast,
    get_args,
    get_origin,
    get_type_hints,
)

from ..engine.errors import IntentError, excerpt, json_kind
from ..engine.view import (  # the seat view is part of the contract too
    Back,
    EndEvent,
    FlippedCard,
    GameEvent,
    Hand,
    PeekEvent,
    PlayEvent,
    RotateEvent,
    SafeCard,
    SwatEvent,
    SwatQueue,
    TableCard,
    TokenEvent,
    View,
    ViewRules,
    WakeEvent,
)
from .panels.data import (  # the panel data is part of the contract (js/protocol.ts)
    CardChart,
    FigureJSON,
    MoveChart,
    MovesChart,
    OutcomeChart,
    PanelData,
    PanelFigure,
    SuggestCard,
    SuggestChart,
    TimelineChart,
)

__all__ = [
    "INTENTS",
    "Back",
    "SafeCard",
    "ViewRules",
    "CardChart",
    "FigureJSON",
    "BestMove",
    "CoachAsk",
    "CoachLook",
    "CoachState",
    "Cover",
    "EndEvent",
    "FlippedCard",
    "GameEvent",
    "Hand",
    "Intent",
    "LessonState",
    "Message",
    "MoveChart",
    "MovesChart",
    "Mode",
    "Narration",
    "Offers",
    "OutcomeChart",
    "PanelData",
    "PanelFigure",
    "PeekEvent",
    "PlayEvent",
    "RotateEvent",
    "SIZES",
    "ReplayState",
    "SuggestCard",
    "SuggestChart",
    "SwatCard",
    "SwatEvent",
    "SwatQueue",
    "SwatQueueWords",
    "SwatWords",
    "TableCard",
    "TableState",
    "TimelineChart",
    "TokenEvent",
    "TurnWords",
    "TypeScript",
    "View",
    "WakeEvent",
    "WidgetMessageError",
    "parse_intent",
]


class WidgetMessageError(IntentError):
    """A message from the browser that is malformed, forged, or not allowed right now
    (also: a bad argument to a widget entry point). An :class:`IntentError`, so a
    :class:`ValueError`; a step the rules refuse raises the engine's
    :class:`~tenleave_widget.engine.errors.IllegalActionError` instead."""


class TypeScript(str):
    """How a field is written in ``js/protocol.ts`` when TypeScript can say more than the
    Python type (the same JSON): ``Annotated[list[list[int]], TypeScript("[number,
    number][]")]``. Read by ``tools/gen_protocol.py``."""


Mode = Literal["play", "hotseat", "replay"]
# ------------------------------------------------------------- the rest of the state


class Offers(TypedDict):
    """What the viewing seat may do now (computed with the engine)."""

    active: bool
    play_cards: list[str]
    play_queues: list[int]
    peek: Annotated[list[list[int]], TypeScript("[number, number][]")]
    """The cards it may peek at, as ``[queue, position]`` pairs."""
    rotate: list[int]
    wake: bool
    end: bool
    reset: bool
    undo: bool
    again: bool
    """The game is over and may be played again (play and hot-seat modes)."""
    wake_why: str
    """Why *Wake SleepKid* is not offered at the start of the turn (a queue with fewer than
    two cards), in a student's words; ``""`` when it is offered or the turn has begun."""


class Message(TypedDict):
    id: int
    level: Literal["error", "info", ""]
    text: str


class SwatCard(TypedDict):
    owner: int
    card: str
    swatted: bool


class SwatQueueWords(TypedDict):
    queue: int
    cards: list[SwatCard]
    text: str


class SwatWords(TypedDict):
    reason: str
    title: str
    queues: list[SwatQueueWords]


class _TurnWordsBase(TypedDict):
    turn: int
    seat: int
    lines: list[str]
    """One line per public event of the turn, in words."""
    swats: list[SwatWords]
    """The swats of the turn, each queue's flips in order with a one-line explanation."""


class TurnWords(_TurnWordsBase, total=False):
    """One turn in words; ``pending`` marks the turn in progress."""

    pending: bool


class Narration(TypedDict):
    turns: list[TurnWords]
    roles: list[str]
    """Per seat, who plays it when that is a bot (``"greedy bot"``), else ``""``: the
    seat table names each bot's kind, so a table with two kinds of bot says which is
    which."""


class ReplayState(TypedDict):
    turn: int
    total: int
    note: str
    note_turn: int | None


class LessonState(TypedDict):
    """Replay of a record with a ``lesson`` (RULES.md §8; :mod:`.session.lesson`): the moment on
    the table. ``index`` counts from 0 (``None``: not started), ``turn`` is the turns
    played before its question, ``view`` whose view it is asked from, in words;
    ``question`` and ``answer`` only where that view may read them (the answer once
    ``revealed``); ``here``: the table shows the moment's position and view."""

    title: str
    index: int | None
    total: int
    turn: int | None
    view: str
    question: str
    answer: str
    revealed: bool
    here: bool


class Cover(TypedDict):
    shown: bool
    seat: int | None
    text: str


class BestMove(TypedDict):
    """Replay with a review, "show the best move": the best move of the position shown
    (from the mover's view; only when the viewer may see it), drawn on the table: the
    card, its queue and, when the best turn rotates a queue, which one (``rotate``) and
    whether before or after the play (``rotate_when``); both ``None`` otherwise; and
    whether the best turn wakes SleepKid before its play (``wake``)."""

    card: str
    queue: int
    rotate: int | None
    rotate_when: Literal["before", "after"] | None
    wake: bool
    text: str


class CoachAsk(TypedDict):
    """The coach's "Are you sure?" (``coach="before"``), shown before a turn ends: the
    words a student reads (``text``) and the analyst's detail (``detail``)."""

    text: str
    detail: str


class CoachLook(TypedDict):
    """At game over, a decision worth a second look: the turn (0-based, as the JSON) and
    its verdict in words."""

    turn: int
    text: str


class CoachState(TypedDict):
    """The coach at the table (:mod:`.coach.table`), as the seat on screen may see it."""

    mode: Literal["off", "after", "before"]
    control: bool
    """The table may change the coach (play and hot-seat; not behind the cover)."""
    ask: CoachAsk | None
    """"Are you sure?": the turn chosen loses more than the coach's threshold."""
    show: int | None
    """The turn of the seat's latest verdict with a better move ("Show me"), or null."""
    showing: int | None
    """"Show me" is on: the position before this turn is on the table, the better move
    drawn (``best``); null otherwise."""
    summary: str
    """At game over: the seat's tally in words, else ``""``."""
    looks: list[CoachLook]
    """At game over: the seat's decisions worth a second look (the largest losses)."""


class TableState(TypedDict):
    """Everything the table shows: one seat's projection of the session (or the
    teacher's view when chosen in replay mode). Each key is a synced traitlet."""

    view: View
    mode: Mode
    perspective: int | None
    offers: Offers
    pending: list[str]
    message: Message
    narration: Narration
    replay: ReplayState
    cover: Cover
    busy: bool
    show_odds: bool
    status: str
    panels: PanelData
    """The odds panels' data (``tenleave_widget.table.panels.data``), drawn by ``js/panels/``."""
    size: Literal["small", "medium", "large", "projector"]
    """The table's size (the size control); ``projector`` fits a 1280x720 screen."""
    best: BestMove | None
    """Replay with a review, or the coach's "Show me": the best move to draw (see
    :class:`BestMove`), else null."""
    coach: CoachState
    """The coach (play and hot-seat modes): its setting, its questions, its summary."""
    lesson: LessonState | None
    """Replay of a record with a lesson: the question on the table, else null."""


SIZES = ("small", "medium", "large", "projector")


# ------------------------------------------------------------------------ intents


class PlayIntent(TypedDict):
    kind: Literal["play"]
    card: str
    queue: int


class PeekIntent(TypedDict):
    kind: Literal["peek"]
    queue: int
    position: int


class RotateIntent(TypedDict):
    kind: Literal["rotate"]
    queue: int


class WakeIntent(TypedDict):
    kind: Literal["wake"]


class EndIntent(TypedDict):
    kind: Literal["end"]


class ResetIntent(TypedDict):
    kind: Literal["reset"]


class UndoIntent(TypedDict):
    kind: Literal["undo"]


class UncoverIntent(TypedDict):
    kind: Literal["uncover"]


class GotoIntent(TypedDict):
    kind: Literal["goto"]
    turn: int


class PerspectiveIntent(TypedDict):
    kind: Literal["perspective"]
    seat: int | None


class OddsIntent(TypedDict):
    kind: Literal["odds"]
    show: bool


class SizeIntent(TypedDict):
    kind: Literal["size"]
    size: str


class MeasureIntent(TypedDict):
    """The moves panel's switch: ``"swat"`` (one swat ahead) or ``"game"`` (whole game)."""

    kind: Literal["measure"]
    measure: str


class RationalityIntent(TypedDict):
    """*What their plays suggest*: how carefully the opponents are taken to play,
    ``"random"``, ``"careful"`` or ``"fitted"`` (learnt from their plays)."""

    kind: Literal["rationality"]
    level: str


class OddsModelIntent(TypedDict):
    """The queue odds read from the rules alone (``"uniform"``) or from the players'
    choices too (``"inferred"``)."""

    kind: Literal["odds_model"]
    model: str


class AgainIntent(TypedDict):
    """Play again: a new game with the same players (the game must be over)."""

    kind: Literal["again"]


class BranchIntent(TypedDict):
    """Replay: play on from the position shown, at a new table below the replay."""

    kind: Literal["branch"]


class CoachIntent(TypedDict):
    """The coach's control: ``"off"``, ``"after"`` or ``"before"``."""

    kind: Literal["coach"]
    mode: str


class ConfirmIntent(TypedDict):
    """The answer to the coach's "Are you sure?": ``"play"`` (play it anyway) or
    ``"back"`` (take it back)."""

    kind: Literal["confirm"]
    answer: str


class ShowMeIntent(TypedDict):
    """"Show me": the position before ``turn`` with the better move drawn (a turn the
    coach judged for the seat on screen, or the one it asks about); null: back to the
    game."""

    kind: Literal["showme"]
    turn: int | None


class DetailsIntent(TypedDict):
    """The panels' *Details* switch: the analyst's words and figures, or plain words."""

    kind: Literal["details"]
    show: bool


class MomentIntent(TypedDict):
    """Replay with a lesson: put moment ``index`` (from 0) on the table."""

    kind: Literal["moment"]
    index: int


class RevealIntent(TypedDict):
    """Replay with a lesson: show (past the turn) or hide the current moment's answer."""

    kind: Literal["reveal"]
    show: bool


class HelloIntent(TypedDict):
    """Sent by a table when it is drawn: Python answers ``{"kind": "connected"}`` (a
    table reopened from a saved notebook gets no answer and says it is not connected)."""

    kind: Literal["hello"]


Intent: TypeAlias = (
    PlayIntent | PeekIntent | RotateIntent | WakeIntent | EndIntent | ResetIntent | UndoIntent
    | UncoverIntent | GotoIntent | PerspectiveIntent | OddsIntent | SizeIntent | AgainIntent
    | HelloIntent | MeasureIntent | BranchIntent | CoachIntent | ConfirmIntent | ShowMeIntent
    | MomentIntent | RevealIntent | RationalityIntent | OddsModelIntent | DetailsIntent
)
"""A message from the browser (what a click sends)."""

StepIntent: TypeAlias = PlayIntent | PeekIntent | RotateIntent | WakeIntent
"""The intents that are steps of a turn (the engine's step grammar)."""


def _fields(cls: type) -> dict[str, tuple[type, ...]]:
    """The fields of an intent TypedDict (without ``kind``) and the Python types each
    may hold (``int | None`` -> ``(int, NoneType)``)."""
    out: dict[str, tuple[type, ...]] = {}
    for name, hint in get_type_hints(cls).items():
        if name == "kind":
            continue
        if get_origin(hint) in (Union, types.UnionType):
            out[name] = tuple(get_args(hint))
        else:
            out[name] = (hint,)
    return out


INTENTS: dict[str, dict[str, tuple[type, ...]]] = {
    get_args(get_type_hints(cls)["kind"])[0]: _fields(cls) for cls in get_args(Intent)
}
"""Each intent kind and its fields' types, read from the TypedDicts above."""


MAX_FIELDS = 8
"""The most fields a message may have (an intent has at most three)."""
MAX_TEXT = 32
"""The longest text a message's field name or value may be (a card notation, a kind)."""
MAX_NUMBER = 10**6
"""The largest integer (in size) a message may hold (a turn, a seat, a queue, a position)."""


def check_shape(intent: object) -> dict[str, Any]:
    """``intent`` if it is a flat object of a few short fields, each a short string, a
    small integer, true/false or null; else raise :class:`WidgetMessageError`. Nothing
    of the message is walked, converted or echoed whole before this check, so a forged
    message (huge, nested thousands deep, a number of thousands of digits) is refused
    here, in one short message.

    >>> try:
    ...     check_shape({"kind": "goto", "turn": 10**5000})
    ... except ValueError as e:
    ...     print(e)
    'turn' is out of range: <an integer of 16610 bits>
    """
    if not isinstance(intent, dict):
        raise WidgetMessageError(f"a message must be an object, not {json_kind(intent)}")
    if len(intent) > MAX_FIELDS:
        raise WidgetMessageError(
            f"a message has at most {MAX_FIELDS} fields, not {len(intent)}"
        )
    for name, value in intent.items():
        if not isinstance(name, str) or len(name) > MAX_TEXT:
            raise WidgetMessageError(f"a field name must be a short text, not {excerpt(name)}")
        if isinstance(value, str):
            if len(value) > MAX_TEXT:
                raise WidgetMessageError(
                    f"{excerpt(name)} is too long ({len(value)} characters): {excerpt(value)}"
                )
        elif isinstance(value, int) and not isinstance(value, bool):
            if not -MAX_NUMBER <= value <= MAX_NUMBER:
                raise WidgetMessageError(f"{excerpt(name)} is out of range: {excerpt(value)}")
        elif value is not None and not isinstance(value, bool):
            raise WidgetMessageError(
                f"{excerpt(name)} must be a text, an integer, true/false or null, "
                f"not {json_kind(value)}"
            )
    return intent


def parse_intent(intent: object) -> Intent:
    """``intent`` checked against the protocol; raise :class:`WidgetMessageError` naming
    the fault (a malformed shape — see :func:`check_shape` —, an unknown kind, a missing
    or extra field, a wrong type)."""
    intent = check_shape(intent)
    kind = intent.get("kind")
    if not isinstance(kind, str) or kind not in INTENTS:
        raise WidgetMessageError(f"unknown message kind {excerpt(kind)}")
    fields = INTENTS[kind]
    extra = set(intent) - set(fields) - {"kind"}
    if extra:
        raise WidgetMessageError(
            f"unexpected field(s) in a {kind!r} message: {excerpt(sorted(map(str, extra)))}"
        )
    for name, allowed in fields.items():
        if name not in intent:
            raise WidgetMessageError(f"a {kind!r} message needs {name!r}")
        value = intent[name]
        if isinstance(value, bool) and bool not in allowed:
            raise WidgetMessageError(f"{name!r} must not be a boolean")
        if not isinstance(value, allowed):
            raise WidgetMessageError(f"{name!r} has the wrong type: {excerpt(value)}")
    return cast(Intent, dict(intent))
