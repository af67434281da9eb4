"""Rule options — the (variant) choices of RULES.md — and their defaults.

>>> Rules().tokens["I+IV"]
(1, 4)
>>> Rules.from_json({"daybreak_token_change": False}).daybreak_token_change
False
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .cards import DEFAULT_DECK, parse_card
from .errors import InvalidRulesError, SetupError, excerpt

DEFAULT_TOKENS: dict[str, tuple[int, ...]] = {
    "I+II": (1, 2),
    "II+III": (2, 3),
    "III+IV": (3, 4),
    "I+IV": (1, 4),
}
"""The four Human Defense tokens: id -> positions (1 = position I, nearest SleepKid)."""

QUEUE_CAPACITY = 4
DECK_SIZE = 10
MIN_SEATS, MAX_SEATS = 2, 5
TARGET = 10
"""A queue's running total at which flipping stops, and the total of a swing and miss
(RULES.md §4)."""
MAX_TOKENS = 16
"""The most Human Defense tokens a variant may have (the printed game has 4)."""
MAX_TOKEN_ID_LENGTH = 16
"""The longest token id, in characters (the printed ones are at most 6: ``III+IV``)."""
MAX_DEFENSE = 128
"""The longest reveal order of tokens (``defense``) a game may list: more than any game
reveals (one token per round change: at most two per turn, and one per daybreak pass)."""
ROMAN: tuple[str, ...] = ("I", "II", "III", "IV")
"""The names of the positions in a queue, front (nearest SleepKid) first: ``ROMAN[i]``
names position ``i`` (0-based), as on the Human Defense tokens."""


_JOINERS = frozenset("\u200c\u200d")
"""Zero-width non-joiner and joiner: not "printable" to Python, but part of emoji
sequences and of words in several scripts, so allowed in names and notes."""


def text_fault(text: object, limit: int, *, newlines: bool = False) -> str | None:
    r"""What is wrong with ``text`` as a name or a note, or ``None``: it must be a string of
    1 to ``limit`` printable Unicode scalar values — no control character (a newline only
    with ``newlines``), no lone surrogate, no other invisible format character.

    Args:
        text: the value to check.
        limit: the most characters allowed.
        newlines: allow newlines (a note).

    Returns:
        What is wrong, as the end of a sentence naming the text; ``None`` if nothing is.

    Example:
        >>> text_fault("Zoë 🦟", 40) is None
        True
        >>> text_fault("\ud800", 40)
        "holds '\\ud800', a lone surrogate (not a character)"
        >>> text_fault("x" * 41, 40)
        'is 41 characters long; at most 40 are allowed'
    """
    if not isinstance(text, str):
        return f"must be a string, not {excerpt(text)}"
    if not text:
        return "must not be empty"
    if len(text) > limit:
        return f"is {len(text):,} characters long; at most {limit:,} are allowed"
    if text.isprintable():
        return None
    for c in text:
        if c.isprintable() or c in _JOINERS or (newlines and c == "\n"):
            continue
        if "\ud800" <= c <= "\udfff":
            return f"holds {excerpt(c)}, a lone surrogate (not a character)"
        return f"holds {excerpt(c)}, which is not a printable character"
    return None


def queue_count(seats: int) -> int:
    """2 queues for 2–3 seats, 3 for 4–5 (RULES.md §2).

    Args:
        seats: the number of seats.

    Returns:
        The number of queues.
    """
    return 2 if seats <= 3 else 3


@dataclass(frozen=True)
class Rules:
    """The variant options. ``Rules()`` is the printed game as RULES.md settles it.

    Args:
        deck: one colour's 10 card notations (``"3*"``: a marked 3).
        tokens: the Human Defense tokens: 2 to ``MAX_TOKENS`` ids, each with the queue
            positions (1 to 4) it guards.
        daybreak_token_change: whether a new token is revealed at each daybreak pass.

    Raises:
        InvalidRulesError: a deck or token that is malformed (the message names it).

    Example:
        >>> r = Rules(daybreak_token_change=False)
        >>> r.to_json(), Rules.from_json(r.to_json()) == r
        ({'daybreak_token_change': False}, True)
    """

    deck: tuple[str, ...] = DEFAULT_DECK
    tokens: dict[str, tuple[int, ...]] = field(default_factory=lambda: dict(DEFAULT_TOKENS))
    daybreak_token_change: bool = True

    def __post_init__(self) -> None:
        deck = self.deck
        if not isinstance(deck, (list, tuple)) or len(deck) != DECK_SIZE:
            raise InvalidRulesError(
                f"deck must list the {DECK_SIZE} card notations of one colour"
            )
        for c in deck:
            try:
                parse_card(c)
            except ValueError as e:
                raise InvalidRulesError(f"deck: {e}") from None
        object.__setattr__(self, "deck", tuple(deck))
        tokens = self.tokens
        if not isinstance(tokens, dict) or not 2 <= len(tokens) <= MAX_TOKENS:
            raise InvalidRulesError(
                f"tokens must be an object with 2 to {MAX_TOKENS} tokens"
                + (f", not {len(tokens):,}" if isinstance(tokens, dict) else "")
            )
        clean: dict[str, tuple[int, ...]] = {}
        for tid, pos in tokens.items():
            fault = text_fault(tid, MAX_TOKEN_ID_LENGTH)
            if fault is not None:
                raise InvalidRulesError(f"token id {excerpt(tid)} {fault}")
            if (
                not isinstance(pos, (list, tuple))
                or not pos
                or any(type(p) is not int or not 1 <= p <= QUEUE_CAPACITY for p in pos)
                or len(set(pos)) != len(pos)
            ):
                raise InvalidRulesError(
                    f"token {excerpt(tid)}: positions must be a non-empty list of distinct 1..4"
                )
            clean[tid] = tuple(sorted(pos))
        object.__setattr__(self, "tokens", clean)
        if not isinstance(self.daybreak_token_change, bool):
            raise InvalidRulesError("daybreak_token_change must be true or false")

    @classmethod
    def from_json(cls, obj: object) -> Rules:
        """Rules from a record's ``rules`` object (overrides of the defaults).

        Args:
            obj: the object: any of ``"deck"``, ``"tokens"`` and
                ``"daybreak_token_change"``; ``None`` or ``{}`` for the default rules.

        Returns:
            The rules.

        Raises:
            InvalidRulesError: ``obj`` is not an object, names an unknown option, or
                holds a malformed deck or token.

        Example:
            >>> Rules.from_json({"x": 1})
            Traceback (most recent call last):
            ...
            tenleave_widget.engine.errors.InvalidRulesError: unknown rule option(s): 'x'
        """
        if obj is None or obj == {}:
            return DEFAULT_RULES
        if not isinstance(obj, dict):
            raise InvalidRulesError("rules must be an object")
        unknown = set(obj) - {"deck", "tokens", "daybreak_token_change"}
        if unknown:
            names = ", ".join(excerpt(k, 30) for k in sorted(map(str, unknown))[:3])
            if len(unknown) > 3:
                names += f" and {len(unknown) - 3} more"
            raise InvalidRulesError(f"unknown rule option(s): {names}")
        kw: dict[str, Any] = {}
        if "deck" in obj:
            kw["deck"] = obj["deck"]
        if "tokens" in obj:
            kw["tokens"] = obj["tokens"]
        if "daybreak_token_change" in obj:
            kw["daybreak_token_change"] = obj["daybreak_token_change"]
        return cls(**kw)

    def to_json(self) -> dict[str, Any]:
        """The overrides of the defaults, as a record's ``rules`` object (``{}`` = defaults)."""
        out: dict[str, Any] = {}
        if self.deck != DEFAULT_DECK:
            out["deck"] = list(self.deck)
        if self.tokens != DEFAULT_TOKENS:
            out["tokens"] = {k: list(v) for k, v in self.tokens.items()}
        if not self.daybreak_token_change:
            out["daybreak_token_change"] = False
        return out

    def check_defense(self, defense: object) -> list[str]:
        """Check a reveal order of tokens (a record's ``defense``): a list of 1 to
        :data:`MAX_DEFENSE` known token ids, never the same twice in a row.

        Args:
            defense: the reveal order to check.

        Returns:
            The order, as a list.

        Raises:
            SetupError: ``defense`` is not such a list (a record reader reports it as a
                :class:`RecordError`).
        """
        if not isinstance(defense, (list, tuple)) or not 1 <= len(defense) <= MAX_DEFENSE:
            raise SetupError(f"'defense' must be a list of 1 to {MAX_DEFENSE} tokens")
        for i, t in enumerate(defense):
            if not isinstance(t, str) or t not in self.tokens:
                raise SetupError(f"'defense' names an unknown token {excerpt(t)}")
            if i and defense[i - 1] == t:
                raise SetupError(
                    f"'defense' lists {excerpt(t)} twice in a row (at {i - 1} and {i})"
                )
        return list(defense)

    def dealt(self, seats: int) -> tuple[str, ...]:
        """One seat's dealt cards: the deck, less one ``2`` in a 2-seat game (RULES.md §2).

        With a variant deck holding no plain ``2``, a marked ``2*`` is removed instead;
        with neither, nothing is removed.

        Args:
            seats: the number of seats.

        Returns:
            The notations, in deck order.

        Example:
            >>> len(Rules().dealt(2)), len(Rules().dealt(3))
            (9, 10)
        """
        deck = list(self.deck)
        if seats == 2:
            for c in ("2", "2*"):
                if c in deck:
                    del deck[len(deck) - 1 - deck[::-1].index(c)]
                    break
        return tuple(deck)


DEFAULT_RULES = Rules()
"""The default rules (shared: :class:`Rules` is immutable)."""
