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
ROMAN: tuple[str, ...] = ("I", "II", "III", "IV")
"""The names of the positions in a queue, front (nearest SleepKid) first: ``ROMAN[i]``
names position ``i`` (0-based), as on the Human Defense tokens."""


def queue_count(seats: int) -> int:
    """2 queues for 2–3 seats, 3 for 4–5 (RULES.md §2)."""
    return 2 if seats <= 3 else 3


@dataclass(frozen=True)
class Rules:
    """The variant options. ``Rules()`` is the printed game as RULES.md settles it."""

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
        if not isinstance(tokens, dict) or len(tokens) < 2:
            raise InvalidRulesError("tokens must be an object with at least 2 tokens")
        clean: dict[str, tuple[int, ...]] = {}
        for tid, pos in tokens.items():
            if not isinstance(tid, str) or not tid:
                raise InvalidRulesError(f"token id {excerpt(tid)} must be a non-empty string")
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
        """Rules from a record's ``rules`` object (overrides of the defaults)."""
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

    def full_json(self) -> dict[str, Any]:
        """Every option, defaults included (for views)."""
        return {
            "deck": list(self.deck),
            "tokens": {k: list(v) for k, v in self.tokens.items()},
            "daybreak_token_change": self.daybreak_token_change,
        }

    def check_defense(self, defense: object) -> list[str]:
        """Check a reveal order of tokens (a record's ``defense``): a non-empty list of
        known token ids, never the same twice in a row. Raises :class:`SetupError`
        (a record reader reports it as a :class:`RecordError`).
        """
        if not isinstance(defense, (list, tuple)) or not defense:
            raise SetupError("'defense' must be a non-empty list of tokens")
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
