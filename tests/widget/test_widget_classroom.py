"""What issue 11 added to the widget's Python side: play again, the size control, the
kernel's answer to a drawn table, winners in plain words, and the panels' data."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tenleave_widget import Game
from tenleave_widget.table.words.narration import and_list
from tenleave_widget.widget import WidgetMessageError, hotseat, play, replay

GAMES = Path(__file__).resolve().parents[2] / "examples" / "games"


def finished_vs_bots(seed: int = 3) -> Any:
    w = play(players=["Ana", "Ben", "Cy"], human=0, bots=["greedy", "random"], seed=seed,
             bot_delay=0)
    while not w.game.finished:
        offers = w.table.offers
        w.handle_intent({"kind": "play", "card": offers["play_cards"][0],
                         "queue": offers["play_queues"][0]})
        w.handle_intent({"kind": "end"})
    return w


def test_play_again_starts_a_new_game_with_the_same_players() -> None:
    w = finished_vs_bots()
    old = w.game
    assert "Game over" in w.table.status
    w.handle_intent({"kind": "again"})
    new = w.game
    assert new.players == old.players and new.turns_applied == 0 and not new.finished
    assert new.to_move == 0 and w.table.offers["active"]  # Ana (the human) starts again
    assert "Game 2" in w.table.message["text"]
    assert w.table.panels["timeline"]["turns"] == [0]


def test_play_again_is_refused_before_the_end_and_in_a_replay() -> None:
    w = play(players=3, human=0, bots=["greedy", "random"], seed=1, bot_delay=0)
    with pytest.raises(WidgetMessageError, match="not over yet"):
        w.handle_intent({"kind": "again"})
    r = replay(GAMES / "game-3-seats.json")
    with pytest.raises(WidgetMessageError, match="replay"):
        r.handle_intent({"kind": "again"})


def test_size_control() -> None:
    w = play(players=3, human=0, bots=["greedy", "random"], seed=1, bot_delay=0)
    assert w.table.size == "medium"
    w.size = "projector"
    assert w.table.size == "projector" and w.size == "projector"
    with pytest.raises(WidgetMessageError, match="size must be one of"):
        w.handle_intent({"kind": "size", "size": "huge"})
    assert w.table.size == "projector"


def test_a_drawn_table_is_told_the_kernel_is_there() -> None:
    w = play(players=3, human=0, bots=["greedy", "random"], seed=1, bot_delay=0)
    sent: list[Any] = []
    w.table.send = lambda content, buffers=None: sent.append(content)  # type: ignore[method-assign]
    w.table._handle_msg({"content": {"data": {"method": "custom",
                                              "content": {"kind": "hello"}}},
                         "buffers": []})
    assert sent == [{"kind": "connected"}]


def test_winners_in_plain_words() -> None:
    assert and_list(["Ana", "Cy", "Dee"]) == "Ana, Cy and Dee"
    record = json.loads((GAMES / "game-4-seats.json").read_text())
    r = replay(record, turn=len(record["turns"]))
    g = Game.from_record(record)
    names = and_list([record["players"][s] for s in g.winners or []])
    low = g.penalty[(g.winners or [0])[0]]
    verb = "wins" if len(g.winners or []) == 1 else "share the win"
    assert r.table.status == f"Game over: {names} {verb} with {low}."
    assert r.table.panels["state"] == "finished" and names in r.table.panels["message"]


def test_panels_in_the_teachers_view_show_the_movers_moves() -> None:
    r = replay(GAMES / "game-3-seats.json", seat=None, turn=4)
    moves = r.table.panels["moves"]
    assert moves["seat"] == r.game.to_move and moves["moves"]
    r.set_perspective((r.game.to_move + 1) % 3)  # another seat: not its turn
    assert r.table.panels["moves"]["moves"] == []
    assert r.table.panels["moves"]["empty"]


def test_hotseat_panels_hidden_behind_the_cover() -> None:
    h = hotseat(players=["Ana", "Ben"], seed=1, show_odds=True)
    h.handle_intent({"kind": "play", "card": "1", "queue": 0})
    h.handle_intent({"kind": "end"})
    assert h.table.cover["shown"]
    assert h.table.panels["state"] == "hidden" and "passed" in h.table.panels["message"]


# ------------------------------------------------ every message a click can show, in plain words

CLICKS_BY_MODE = {
    "play": ("play", "peek", "rotate", "wake", "end", "reset", "undo", "again"),
    "hotseat": ("play", "peek", "rotate", "wake", "end", "reset", "uncover", "again"),
    "replay": ("play", "peek", "rotate", "wake", "end", "reset"),
}


def _clicks(w: Any) -> list[dict[str, Any]]:
    """Every intent a control of the table could send now (any card, queue, position)."""
    nq = len(w.table.view["queues"])
    out: list[dict[str, Any]] = []
    for kind in CLICKS_BY_MODE[w.table.mode]:
        if kind == "play":
            out += [{"kind": "play", "card": c, "queue": q}
                    for c in ("1", "2", "3*", "4*", "5", "5*") for q in range(nq)]
        elif kind == "peek":
            out += [{"kind": "peek", "queue": q, "position": i}
                    for q in range(nq) for i in range(4)]
        elif kind == "rotate":
            out += [{"kind": "rotate", "queue": q} for q in range(nq)]
        else:
            out.append({"kind": kind})
    return out


def shown_messages() -> dict[str, dict[str, Any]]:
    """The error messages the table shows, clicking every control in many positions."""
    import random

    from tenleave_widget.widget import hotseat as hot

    found: dict[str, dict[str, Any]] = {}
    rng = random.Random(11)
    makers = [
        lambda s: play(players=2 + s % 4, human=0, bots=["greedy", "random", "greedy", "random"]
                       [: 1 + s % 4], seed=s, bot_delay=0),
        lambda s: hot(players=2 + s % 4, seed=s),
        lambda s: replay(GAMES / f"game-{2 + s % 4}-seats.json", turn=s % 20),
    ]
    for seed in range(8):
        for make in makers:
            w = make(seed)
            for _ in range(40):
                for intent in rng.sample(_clicks(w), 6):
                    if not w.send_intent(intent) and w.table.message["level"] == "error":
                        found.setdefault(w.table.message["text"], intent)
                o = w.table.offers
                if w.table.cover["shown"]:
                    w.handle_intent({"kind": "uncover"})
                elif o["active"] and o["play_cards"]:
                    if o["peek"] and rng.random() < 0.5:
                        q, i = rng.choice(o["peek"])
                        w.handle_intent({"kind": "peek", "queue": q, "position": i})
                    w.handle_intent({"kind": "play", "card": rng.choice(o["play_cards"]),
                                     "queue": rng.choice(w.table.offers["play_queues"])})
                    w.handle_intent({"kind": "end"})
                elif w.table.mode == "replay":
                    w.goto(min(w.turn + 1, w.table.replay["total"]))
    return found


NOT_PLAIN = [
    (r"[\[\]{}]", "brackets"),
    (r"\bqueue 0\b|\bqueues? \d+\.\.\d+", "0-based queue numbers"),
    (r"\bseat \d", "seat numbers"),
    (r"additional action", "rulebook words"),
    (r"\(s\)", "programmer plurals"),
    (r"\bNone\b|\bTrue\b|\bFalse\b|'[^' ]*'(?!s)", "Python values"),
    (r"\d\*", "card notation"),
]


@pytest.mark.slow
def test_every_message_a_click_can_show_is_in_plain_words() -> None:
    import re

    from tenleave_widget.table.words.errors import GENERIC

    found = shown_messages()
    assert len(found) >= 12  # the search reaches the table's refusals
    for text, intent in found.items():
        assert text != GENERIC, f"no plain words for what {intent} caused"
        assert text[0].isupper() and text.endswith("."), text
        for pattern, what in NOT_PLAIN:
            assert not re.search(pattern, text), f"{what} in {text!r} (from {intent})"
