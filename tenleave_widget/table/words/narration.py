"""Turns in words: the public events of a turn as lines and swat explanations.

Made from public events only (a play names the back, never the value), so a seat's
narration holds nothing it does not know.

>>> ev = [{"kind": "swat", "reason": "wake", "queues": [{"queue": 0, "flipped": [
...     {"key": 0, "owner": 0, "card": "1"}, {"key": 1, "owner": 1, "card": "5*"},
...     {"key": 2, "owner": 2, "card": "5"}], "total": 11, "outcome": "over",
...     "swatted": [0, 1], "single": None}]}]
>>> describe_turn(ev, ["Ana", "Ben", "Cy"], "I+II")["swats"][0]["queues"][0]["text"]
"1 + 5 + 5 = 11 > 10 — Human Defense I+II swats Ana's 1 and Ben's 5"
"""

from __future__ import annotations

from collections.abc import Sequence

from ...engine.cards import card_value
from ...engine.game import Game
from ...engine.rules import ROMAN, TARGET
from ...engine.turn import TurnStep
from ...engine.view import FlippedCard, GameEvent, SafeCard, SwatEvent, SwatQueue
from ..protocol import SwatWords, TurnWords

__all__ = ["REASONS", "describe_turn", "seat_name", "step_text", "token_before"]

REASONS = {
    "wake": "SleepKid wakes and swats",
    "full": "Every queue is full: SleepKid wakes and swats",
    "daybreak": "Daybreak: SleepKid swats",
}


def seat_name(players: Sequence[str], seat: int) -> str:
    """The player's name, or ``seat N`` (1-based) for a seat that has none."""
    return players[seat] if 0 <= seat < len(players) else f"seat {seat + 1}"


def and_list(items: Sequence[str]) -> str:
    """Items in words: ``a``, ``a and b``, ``a, b and c``.

    >>> and_list(["Ana", "Cy", "Dee"])
    'Ana, Cy and Dee'
    """
    items = list(items)
    if not items:
        return ""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


NUMBERS = {2: "two", 3: "three", 4: "four"}


def cards_words(cards: Sequence[FlippedCard | SafeCard], players: Sequence[str]) -> str:
    """Swatted cards in plain words, identical ones counted: ``Ana's two 3s and Ben's 5``.

    >>> cards_words([{"owner": 0, "card": "3*"}, {"owner": 0, "card": "3"},
    ...              {"owner": 1, "card": "5"}], ["Ana", "Ben"])
    "Ana's two 3s and Ben's 5"
    """
    counted: dict[tuple[int, int], int] = {}
    for c in cards:
        key = (int(c["owner"]), card_value(c["card"]))
        counted[key] = counted.get(key, 0) + 1
    words = [
        f"{seat_name(players, owner)}'s {value}" if n == 1
        else f"{seat_name(players, owner)}'s {NUMBERS.get(n, str(n))} {value}s"
        for (owner, value), n in counted.items()
    ]
    return and_list(words)


def _swat_line(sq: SwatQueue, token: str, players: Sequence[str]) -> str:
    """One queue of a swat in words, e.g. ``4 + 4 + 2 = 10 — swing and miss: all escape``."""
    if sq["single"] is not None:
        c = sq["single"]
        owner = seat_name(players, c["owner"])
        return f"one card left: {owner}'s {card_value(c['card'])} escapes unflipped"
    flipped = sq["flipped"]
    if not flipped:
        return "empty: nothing to swat"
    values = [card_value(c["card"]) for c in flipped]
    total = sq["total"]
    sums = " + ".join(str(v) for v in values)
    hit = [c for c in flipped if c["key"] in sq["swatted"]]
    hits = cards_words(hit, players)
    if sq["outcome"] == "exact":
        return f"{sums} = {TARGET} — swing and miss: all escape"
    if sq["outcome"] == "under":
        return f"{sums} = {total} < {TARGET} — the highest is swatted: {hits}"
    if not hit:
        return f"{sums} = {total} > {TARGET} — Human Defense {token} swats nothing here: all escape"
    return f"{sums} = {total} > {TARGET} — Human Defense {token} swats {hits}"


def _swat_words(e: SwatEvent, token: str, players: Sequence[str]) -> SwatWords:
    title = REASONS.get(e["reason"], "SleepKid swats")
    return {
        "reason": e["reason"],
        "title": f"{title} (Human Defense {token})",
        "queues": [
            {
                "queue": sq["queue"],
                "cards": [
                    {"owner": c["owner"], "card": c["card"], "swatted": c["key"] in sq["swatted"]}
                    for c in ([sq["single"]] if sq["single"] else sq["flipped"])
                ],
                "text": _swat_line(sq, token, players),
            }
            for sq in e["queues"]
        ],
    }


def describe_turn(
    events: Sequence[GameEvent],
    players: Sequence[str],
    token_before: str,
    viewer: int | None = None,
    turn: int = 0,
    seat: int = 0,
) -> TurnWords:
    """Turn ``turn`` (played by ``seat``) from its public events, in words:
    ``{"turn", "seat", "lines": [...], "swats": [...]}``. Each swat is ``{"reason",
    "title", "queues": [{"queue", "cards": [{"owner", "card", "swatted"}], "text"}]}``, in
    flip order, for the table to reveal one queue after another. ``viewer`` is "You".
    ``turn`` is the record's index, from 0: the page shows it as turn ``turn + 1``, as it
    counts every turn a person reads ("Turn 17 (Ben): ...")."""
    token = token_before
    lines: list[str] = []
    swats: list[SwatWords] = []

    def who(s: int) -> str:
        return "You" if s == viewer else seat_name(players, s)

    for e in events:
        if e["kind"] == "peek":
            lines.append(
                f"{who(e['seat'])} peeked at queue {e['queue'] + 1}, "
                f"position {ROMAN[e['position']]}."
            )
        elif e["kind"] == "rotate":
            lines.append(
                f"{who(e['seat'])} rotated queue {e['queue'] + 1}: its front card went to the back."
            )
        elif e["kind"] == "wake":
            lines.append(f"{who(e['seat'])} woke SleepKid!")
        elif e["kind"] == "play":
            lines.append(f"{who(e['seat'])} played a {e['back']} card on queue {e['queue'] + 1}.")
        elif e["kind"] == "swat":
            lines.append(f"{REASONS.get(e['reason'], 'SleepKid swats')}.")
            swats.append(_swat_words(e, token, players))
        elif e["kind"] == "token":
            token = e["token"]
            lines.append(f"New Human Defense token: {token}.")
        elif e["kind"] == "end":
            names = and_list([seat_name(players, s) for s in e["winners"]])
            verb = "wins" if len(e["winners"]) == 1 else "share the win"
            lines.append(f"The game is over: {names} {verb}.")
    return {"turn": turn, "seat": seat, "lines": lines, "swats": swats}


def token_before(game: Game, events: Sequence[GameEvent]) -> str:
    """The current token before the turn whose ``events`` are ``game``'s last."""
    reveals = sum(1 for e in events if e["kind"] == "token")
    revealed = game.defense
    return revealed[len(revealed) - 1 - reveals]


def step_text(step: TurnStep) -> str:
    """A step of the turn in progress, e.g. ``played 3* on queue 2``."""
    if step["kind"] == "play":
        return f"played {step['card']} on queue {step['queue'] + 1}"
    if step["kind"] == "peek":
        return f"peeked at queue {step['queue'] + 1}, position {ROMAN[step['position']]}"
    if step["kind"] == "rotate":
        return f"rotated queue {step['queue'] + 1}"
    return "woke SleepKid"
