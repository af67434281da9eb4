"""Cards: values, backs, notation and the mosquito colours (RULES.md §1).

A card is written by its value, with ``*`` for a marked back: ``"3*"`` is a 3 with the
hint illustration, ``"5"`` a plain 5.

>>> parse_card("4*")
(4, True)
>>> card_back("5")
'plain'
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final, Literal, TypeAlias

from .errors import TenLeaveError, excerpt

COLOURS: tuple[str, ...] = ("red", "yellow", "green", "blue", "purple")
"""Seat i plays ``COLOURS[i]``."""

MARKED: Final = "marked"
PLAIN: Final = "plain"
Back: TypeAlias = Literal["marked", "plain"]
"""A card's back as a view writes it: ``"marked"`` (``*`` in the notation) or ``"plain"``."""

DEFAULT_DECK: tuple[str, ...] = ("1", "1", "2", "2", "3*", "3*", "4*", "4*", "5*", "5")
"""One colour's ten cards (RULES.md §1, variant ``deck``)."""


def parse_card(notation: object) -> tuple[int, bool]:
    """The value and back of a card notation.

    Args:
        notation: ``"1"`` to ``"5"``, with ``"*"`` for a marked back (``"3*"``).

    Returns:
        ``(value, marked)``.

    Raises:
        TenLeaveError: ``notation`` is not a card notation.

    Example:
        >>> parse_card("2"), parse_card("4*")
        ((2, False), (4, True))
    """
    if not isinstance(notation, str) or notation not in _PARSED:
        raise TenLeaveError(
            f"{excerpt(notation)} is not a card notation (1..5, '*' for a marked back)"
        )
    return _PARSED[notation]


def card_value(notation: str) -> int:
    """The value of a card notation: ``card_value("4*") == 4``.

    Args:
        notation: a card notation.

    Returns:
        The value, 1 to 5.

    Raises:
        TenLeaveError: ``notation`` is not a card notation.
    """
    return parse_card(notation)[0]


def card_back(notation: str) -> Back:
    """The back of a card notation, as a view writes it: ``"marked"`` or ``"plain"``.

    Args:
        notation: a card notation (``"4*"`` has a marked back).

    Raises:
        TenLeaveError: the notation is not one of a card.
    """
    return MARKED if parse_card(notation)[1] else PLAIN


def value_and_back(notation: str) -> tuple[int, Back]:
    """``(value, back)`` of a card notation, the back as a view writes it.

    Args:
        notation: a card notation.

    Returns:
        ``(value, back)``.

    Raises:
        TenLeaveError: ``notation`` is not a card notation.

    Example:
        >>> value_and_back("4*"), value_and_back("5")
        ((4, 'marked'), (5, 'plain'))
    """
    got = _VALUE_BACK.get(notation) if isinstance(notation, str) else None
    if got is None:
        parse_card(notation)  # raises, naming the notation
        raise AssertionError(notation)  # pragma: no cover
    return got


def count_backs(notations: Iterable[str]) -> tuple[int, int]:
    """``(marked, plain)``: how many of the card notations have each back.

    Args:
        notations: card notations.

    Returns:
        ``(marked, plain)``.

    Raises:
        TenLeaveError: one of them is not a card notation.

    Example:
        >>> count_backs(["3*", "1", "4*", "5"])
        (2, 2)
    """
    marked = total = 0
    for n in notations:
        marked += parse_card(n)[1]
        total += 1
    return marked, total - marked


def split_back(text: str) -> tuple[str, bool]:
    """A card written in notation split into its face and whether its back is marked,
    the face *not* checked: for the sketches' ``"?*"`` (a marked card of unknown value)
    and for messages that quote whatever was typed. :func:`parse_card` checks.

    Args:
        text: the card as written.

    Returns:
        ``(face, marked)``.

    Example:
        >>> split_back("3*"), split_back("?"), split_back("7*")
        (('3', True), ('?', False), ('7', True))
    """
    return text.rstrip("*"), text.endswith("*")


def card_notation(value: int, marked: bool) -> str:
    """The notation of a value and back: ``card_notation(3, True) == "3*"``.

    Args:
        value: the value, 1 to 5 (not checked).
        marked: whether the back is marked.

    Returns:
        The notation.
    """
    return f"{value}*" if marked else str(value)


_PARSED: dict[str, tuple[int, bool]] = {
    card_notation(v, m): (v, m) for v in range(1, 6) for m in (False, True)
}
_VALUE_BACK: dict[str, tuple[int, Back]] = {
    n: (v, MARKED if m else PLAIN) for n, (v, m) in _PARSED.items()
}
