"""The typed errors of tenleave_widget: one scheme, every error a :class:`ValueError`.

``except ValueError`` catches them all, as with python-chess's ``IllegalMoveError``;
``except TenLeaveError`` catches exactly ours. An error leaves the game exactly as it was.

- :class:`SetupError`: bad arguments for setting up a game, a bot or a simulation
  (:class:`InvalidRulesError`, a malformed variant, is one);
- :class:`RecordError`: a malformed ``tenleave-record/1`` record or an illegal turn in one
  (``.turn`` names the turn);
- :class:`IllegalActionError`: a turn, or a step of one, that the rules do not allow now;
- :class:`InvalidViewError`: a malformed seat view handed to the odds;
- :class:`IntentError`: a malformed or forged message from the browser front end.

>>> from tenleave_widget import Game, IllegalActionError, SetupError
>>> g = Game(["Ana", "Ben"])
>>> try:
...     g.apply({"seat": 1, "play": ["1", 0]})
... except IllegalActionError as e:
...     print(e)
seat 1 cannot move: it is seat 0's turn
>>> try:
...     Game(6)
... except SetupError as e:
...     print(e)
a game has 2 to 5 seats, not 6
"""

from __future__ import annotations

import reprlib


class TenLeaveError(ValueError):
    """Base class of every error raised by tenleave_widget."""


class SetupError(TenLeaveError):
    """Bad arguments for setting up a game, a bot or a simulation."""


class InvalidRulesError(SetupError):
    """A rule-option set (a variant) that is malformed."""


class RecordError(TenLeaveError):
    """A ``tenleave-record/1`` record that is malformed or holds an illegal turn.

    ``turn`` is the 0-based index of the offending turn, or ``None`` when the record as a
    whole is at fault; ``reason`` is the message without the ``turn K:`` prefix.

    Args:
        message: what is wrong.
        turn: the 0-based index of the offending turn; ``None``: the whole record.

    Example:
        >>> str(RecordError("seat 1 cannot move", turn=3))
        'turn 3: seat 1 cannot move'
    """

    def __init__(self, message: str, turn: int | None = None) -> None:
        self.turn = turn
        self.reason = message
        super().__init__(f"turn {turn}: {message}" if turn is not None else message)


class IllegalActionError(TenLeaveError):
    """An action (a turn, or a step of one) that the rules do not allow right now."""


class InvalidViewError(TenLeaveError):
    """A seat view (``docs/view.md``) that is malformed or inconsistent."""


class IntentError(TenLeaveError):
    """A message from the browser front end that is malformed or forged (an unknown kind,
    a missing or mistyped field, an action for a seat the browser does not control)."""


class _JSONRepr(reprlib.Repr):
    """``reprlib`` that spells ``None``, ``True`` and ``False`` as JSON does (``null``,
    ``true``, ``false``): the values a message echoes mostly come from JSON."""

    def repr_NoneType(self, x: None, level: int) -> str:  # noqa: N802 (reprlib's naming)
        return "null"

    def repr_bool(self, x: bool, level: int) -> str:
        return "true" if x else "false"


def _short_repr() -> reprlib.Repr:
    r = _JSONRepr()
    r.maxlevel, r.maxstring, r.maxother, r.maxlong = 3, 80, 80, 80
    r.maxlist = r.maxtuple = r.maxdict = r.maxset = 6
    return r


_REPR = _short_repr()


def excerpt(value: object, limit: int = 60) -> str:
    """A short, escaped excerpt of ``value`` for an error message: its ``repr`` (control
    characters and escape codes escaped, nesting and length bounded), cut to at most
    ``limit`` characters.

    Every message that echoes input uses it, so a huge or hostile value never comes back
    whole (no multi-megabyte message, no raw newline or terminal escape code).

    Args:
        value: the value to quote (any object).
        limit: the most characters of the excerpt.

    Returns:
        The excerpt, e.g. ``"'3*'"``.

    Example:
        >>> excerpt("3*")
        "'3*'"
        >>> print(excerpt("red\\n\\x1b[31m"))
        'red\\n\\x1b[31m'
        >>> len(excerpt("x" * 10**6))
        60
        >>> excerpt(10**5000)
        '<an integer of 16610 bits>'
        >>> excerpt(None), excerpt([True, None, 1.5])
        ('null', '[true, null, 1.5]')
    """
    try:
        text = _REPR.repr(value)
    except (ValueError, RecursionError):  # an int too long to convert to text, or the like
        if isinstance(value, int):
            text = f"<an integer of {value.bit_length()} bits>"
        else:
            text = f"<{json_kind(value)}>"
    return text if len(text) <= limit else text[: limit - 3] + "..."


def json_kind(value: object) -> str:
    """What a (parsed JSON) value is, in JSON's words, for "must be an object, not ...":
    ``null`` for ``None``, never a Python type name such as ``NoneType``.

    Args:
        value: the value, as ``json.loads`` gives it.

    Returns:
        ``"an object"``, ``"an array"``, ``"a string"``, ``"a number"``, ``"true/false"``,
            ``"null"``, or ``"a Python <type>"`` for anything else.

    Example:
        >>> [json_kind(v) for v in ({}, [], "x", 1.5, 3, True, None)]
        ['an object', 'an array', 'a string', 'a number', 'a number', 'true/false', 'null']
        >>> json_kind(b"x")
        'a Python bytes'
    """
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true/false"
    for kinds, name in ((dict, "an object"), ((list, tuple), "an array"), (str, "a string"),
                        ((int, float), "a number")):
        if isinstance(value, kinds):
            return name
    return f"a Python {type(value).__name__}"


def shown(value: object) -> str:
    """An argument as an error message quotes it: a plain value (``None``, a number, a
    text, a list, a dict, bytes) by its :func:`excerpt`, anything else by its type alone,
    so an object's text (which could hold anything) never reaches the message.

    Args:
        value: the argument.

    Returns:
        Its excerpt, or ``"a <type>"`` (``"an <type>"`` before a vowel).

    Example:
        >>> shown(None), shown("x"), shown(object())
        ('null', "'x'", 'an object')
    """
    if value is None or isinstance(value, (str, int, float, list, tuple, dict, bytes)):
        return excerpt(value)
    name = type(value).__name__
    return f"{'an' if name[:1].lower() in 'aeiou' else 'a'} {name}"


def one_line(text: str, limit: int = 200) -> str:
    """``text`` as one printable line of at most ``limit`` characters (control characters
    escaped): the last guard before a message reaches a terminal or the table.

    Args:
        text: the text.
        limit: the most characters of the line (an ellipsis ends a longer one).

    Returns:
        The line.

    Example:
        >>> print(one_line("two\\nlines\\x1b[2J" + "x" * 300, 24))
        two\\nlines\\x1b[2Jxxxx...
    """
    text = "".join(c if c.isprintable() else repr(c)[1:-1] for c in text[: limit * 2])
    return text if len(text) <= limit else text[: limit - 3] + "..."
