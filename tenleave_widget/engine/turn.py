"""A turn: one card played, plus at most one additional action (RULES.md §3).

A :class:`Turn` is what a seat does on its turn, exactly as a ``tenleave-record/1`` turn
object says it:

>>> t = Turn.from_json({"seat": 1, "peek": [1, 0], "extra": "before", "play": ["5", 0]})
>>> t
Turn(seat=1, card='5', queue=0, peek=(1, 0), rotate=None, wake=False, extra='before')
>>> t.to_json()
{'seat': 1, 'play': ['5', 0], 'peek': [1, 0]}
>>> [s["kind"] for s in t.steps()]
['peek', 'play']
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal, NamedTuple, TypeAlias, TypedDict

from .errors import IllegalActionError, excerpt, json_kind

BEFORE = "before"
AFTER = "after"


class _TurnObjectBase(TypedDict):
    seat: int
    play: list[str | int]
    """``[card notation, queue]``, a JSON pair: :func:`play_pair` reads it."""


class TurnObject(_TurnObjectBase, total=False):
    """A record turn object (RULES.md §8) as :meth:`Turn.to_json` writes it: at most one
    of ``wake`` (true), ``peek`` (``[queue, position]``) and ``rotate`` (a queue), and
    ``extra`` only when ``"after"``."""

    wake: bool
    peek: list[int]
    rotate: int
    extra: str


class PlayStep(TypedDict):
    kind: Literal["play"]
    card: str
    queue: int


class PeekStep(TypedDict):
    kind: Literal["peek"]
    queue: int
    position: int


class RotateStep(TypedDict):
    kind: Literal["rotate"]
    queue: int


class WakeStep(TypedDict):
    kind: Literal["wake"]


TurnStep: TypeAlias = PlayStep | PeekStep | RotateStep | WakeStep
"""One step of a turn in the widget's vocabulary (:func:`parse_steps`'s grammar; the
table's intents of the same kinds have the same shape)."""


def play_pair(play: Sequence[str | int]) -> tuple[str, int]:
    """The card notation and the queue of a ``play`` pair (a turn object's, or a move's of
    the odds), as written by this package.

    Args:
        play: ``[notation, queue]`` (the queue may be any integer-like value).

    Returns:
        ``(notation, queue)`` as ``(str, int)``.

    Example:
        >>> play_pair(["4*", 1])
        ('4*', 1)
    """
    card, queue = play
    return str(card), int(queue)


def _is_int(x: object) -> bool:
    return type(x) is int  # JSON booleans are not integers


class Turn(NamedTuple):
    """One whole turn. ``extra`` says whether ``peek``/``rotate`` comes before or after the
    play; it is ``"before"`` whenever there is no additional action or the seat wakes.

    Attributes:
        seat: the seat that plays it.
        card: the notation of the card played (``"3*"``: a marked 3).
        queue: the queue it is played to.
        peek: ``(queue, position)`` of the card peeked at, or ``None``.
        rotate: the queue rotated, or ``None``.
        wake: whether the seat wakes SleepKid.
        extra: ``"before"`` or ``"after"``: when the peek or rotation happens.

    Example:
        >>> t = Turn(0, "2", 1, rotate=1, extra="after")
        >>> t.action, t.to_json()
        ('rotate', {'seat': 0, 'play': ['2', 1], 'rotate': 1, 'extra': 'after'})
    """

    seat: int
    card: str
    queue: int
    peek: tuple[int, int] | None = None
    rotate: int | None = None
    wake: bool = False
    extra: str = BEFORE

    @property
    def action(self) -> str:
        """``"peek"``, ``"rotate"``, ``"wake"`` or ``"none"``."""
        if self.wake:
            return "wake"
        if self.peek is not None:
            return "peek"
        if self.rotate is not None:
            return "rotate"
        return "none"

    def normalized(self) -> Turn:
        """The same turn with ``extra`` set to ``"before"`` where it does not matter."""
        if self.extra != BEFORE and (self.wake or (self.peek is None and self.rotate is None)):
            return self._replace(extra=BEFORE)
        return self

    def to_json(self) -> TurnObject:
        """The record turn object (``extra`` only when ``"after"``)."""
        out: TurnObject = {"seat": self.seat, "play": [self.card, self.queue]}
        if self.wake:
            out["wake"] = True
        elif self.peek is not None:
            out["peek"] = [self.peek[0], self.peek[1]]
        elif self.rotate is not None:
            out["rotate"] = self.rotate
        if self.extra == AFTER and not self.wake and self.action != "none":
            out["extra"] = AFTER
        return out

    @classmethod
    def from_json(cls, obj: object) -> Turn:
        """Parse a record turn object (RULES.md §8); unknown keys are ignored.

        Args:
            obj: the object, e.g. ``{"seat": 0, "play": ["3*", 1], "peek": [1, 0]}``.

        Returns:
            The turn (not checked against a position:
            :meth:`~tenleave_widget.engine.game.Game.apply` does that).

        Raises:
            IllegalActionError: ``obj`` is not a well-formed turn object (the message
                names the fault).

        Example:
            >>> Turn.from_json({"seat": 0, "play": ["3*", 1], "wake": True}).action
            'wake'
        """
        if not isinstance(obj, dict):
            raise IllegalActionError(f"a turn must be an object, not {json_kind(obj)}")
        seat = obj.get("seat")
        if not _is_int(seat):
            raise IllegalActionError(f"'seat' must be an integer, not {excerpt(seat)}")
        play = obj.get("play")
        if (
            not isinstance(play, list)
            or len(play) != 2
            or not isinstance(play[0], str)
            or not _is_int(play[1])
        ):
            raise IllegalActionError(f"'play' must be [card notation, queue], not {excerpt(play)}")
        peek: tuple[int, int] | None = None
        rotate: int | None = None
        wake = False
        present = [k for k in ("peek", "rotate", "wake") if k in obj]
        if len(present) > 1:
            raise IllegalActionError(
                f"a turn takes at most one of peek, rotate and wake, not {' and '.join(present)}"
            )
        if "peek" in obj:
            p = obj["peek"]
            if not isinstance(p, list) or len(p) != 2 or not all(_is_int(x) for x in p):
                raise IllegalActionError(f"'peek' must be [queue, position], not {excerpt(p)}")
            peek = (p[0], p[1])
        if "rotate" in obj:
            r = obj["rotate"]
            if not _is_int(r):
                raise IllegalActionError(f"'rotate' must be a queue index, not {excerpt(r)}")
            rotate = r
        if "wake" in obj:
            if obj["wake"] is not True:
                raise IllegalActionError(
                    "'wake' must be true (leave the key out for no wake), not "
                    f"{excerpt(obj['wake'])}"
                )
            wake = True
        extra = obj.get("extra", BEFORE)
        if extra not in (BEFORE, AFTER):
            raise IllegalActionError(
                f"'extra' must be \"before\" or \"after\", not {excerpt(extra)}"
            )
        assert isinstance(seat, int) and isinstance(play[1], int)
        return cls(seat, play[0], play[1], peek, rotate, wake, str(extra)).normalized()

    def steps(self) -> list[TurnStep]:
        """The turn as ordered steps (the widget's vocabulary; see :meth:`from_steps`)."""
        return [step_json(step) for step in self.parsed_steps()]

    def parsed_steps(self) -> tuple[Step, ...]:
        """The turn as ordered steps in the form :func:`parse_steps` gives: hashable and
        cheap to compare (the table's offers match them against the steps taken so far).

        >>> t = Turn(0, "2", 1, rotate=1, extra=AFTER)
        >>> t.parsed_steps(), tuple(parse_steps(t.steps())) == t.parsed_steps()
        ((('play', '2', 1), ('rotate', 1, None)), True)
        """
        play: Step = ("play", self.card, self.queue)
        if self.wake:
            return (("wake", None, None), play)
        if self.peek is not None:
            extra: Step = ("peek", self.peek[0], self.peek[1])
        elif self.rotate is not None:
            extra = ("rotate", self.rotate, None)
        else:
            return (play,)
        return (extra, play) if self.extra == BEFORE else (play, extra)

    @classmethod
    def from_steps(cls, seat: int, steps: Sequence[TurnStep]) -> Turn:
        """Build a seat's turn from ordered steps (the grammar of :func:`parse_steps`).

        Args:
            seat: the seat that plays the turn.
            steps: the step objects in order (``{"kind": "play", "card": "2", "queue":
                1}``, ``{"kind": "rotate", "queue": 1}``, ...); one of them a play.

        Returns:
            The turn (not checked against a position).

        Raises:
            IllegalActionError: the steps are malformed or hold no play.

        Example:
            >>> Turn.from_steps(0, [{"kind": "play", "card": "2", "queue": 1},
            ...                     {"kind": "rotate", "queue": 1}]).to_json()
            {'seat': 0, 'play': ['2', 1], 'rotate': 1, 'extra': 'after'}
        """
        obj: dict[str, Any] = {"seat": seat}
        played = False
        for kind, a, b in parse_steps(steps):
            if kind == "play":
                obj["play"] = [a, b]
                played = True
                continue
            obj[kind] = [a, b] if kind == "peek" else a if kind == "rotate" else True
            obj["extra"] = AFTER if played else BEFORE
        if not played:
            raise IllegalActionError("the turn has no play yet")
        return cls.from_json(obj)


Step = tuple[str, Any, Any]
"""A parsed step: ``("play", card, queue)``, ``("peek", queue, position)``,
``("rotate", queue, None)`` or ``("wake", None, None)``; the values are not checked yet."""

STEP_KINDS = ("play", "peek", "rotate", "wake")


def step_json(step: Step) -> TurnStep:
    """A parsed step written back as the widget's step object (:func:`parse_steps` undone).

    Args:
        step: a parsed step, as :func:`parse_steps` gives it.

    Returns:
        The step object.

    Example:
        >>> step_json(("peek", 1, 0)), step_json(("wake", None, None))
        ({'kind': 'peek', 'queue': 1, 'position': 0}, {'kind': 'wake'})
    """
    kind, a, b = step
    if kind == "play":
        return {"kind": "play", "card": a, "queue": b}
    if kind == "peek":
        return {"kind": "peek", "queue": a, "position": b}
    if kind == "rotate":
        return {"kind": "rotate", "queue": a}
    return {"kind": "wake"}


def parse_steps(steps: object) -> list[Step]:
    """The one grammar of a turn written as ordered steps (the widget's vocabulary), shared
    by :meth:`Turn.from_steps` and ``Game.preview``. Each step is one of
    ``{"kind": "peek", "queue": q, "position": i}``, ``{"kind": "rotate", "queue": q}``,
    ``{"kind": "wake"}``, ``{"kind": "play", "card": "3*", "queue": q}``: at most one play,
    at most one additional action or wake, a wake only before the play. A prefix of a turn
    (no play yet) parses too.

    Args:
        steps: the list of step objects, in order.

    Returns:
        One parsed :data:`Step` per step; the values (cards, queues) are not checked
        against a position.

    Raises:
        IllegalActionError: ``steps`` is not such a list (the message names the step).

    Example:
        >>> parse_steps([{"kind": "peek", "queue": 1, "position": 0}, {"kind": "play",
        ...              "card": "5", "queue": 0}])
        [('peek', 1, 0), ('play', '5', 0)]
        >>> parse_steps([{"kind": "play", "card": "5", "queue": 0}, {"kind": "wake"}])
        Traceback (most recent call last):
        ...
        tenleave_widget.engine.errors.IllegalActionError: wake is allowed only before playing
    """
    if not isinstance(steps, list):
        raise IllegalActionError("steps must be a list")
    out: list[Step] = []
    played = extra = False
    for st in steps:
        if not isinstance(st, dict):
            raise IllegalActionError(f"a step must be an object, not {excerpt(st)}")
        kind = st.get("kind")
        if kind == "play":
            if played:
                raise IllegalActionError("a turn plays exactly one card")
            played = True
            out.append(("play", st.get("card"), st.get("queue")))
        elif kind in ("peek", "rotate", "wake"):
            if extra:
                raise IllegalActionError("a turn takes at most one additional action or wake")
            extra = True
            if kind == "wake":
                if played:
                    raise IllegalActionError("wake is allowed only before playing")
                out.append(("wake", None, None))
            elif kind == "peek":
                out.append(("peek", st.get("queue"), st.get("position")))
            else:
                out.append(("rotate", st.get("queue"), None))
        else:
            raise IllegalActionError(f"unknown step kind {excerpt(kind)}")
    return out
