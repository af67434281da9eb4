"""Side channels and hostile front-end messages (issue 14, items 1, 2, 3, 4 and 6).

* Undo probing: an undo that takes back a bot's answer deals the cards the human cannot
  see again (issue 21), so "play, end the turn, watch the bots, undo" asks another world
  every time; what the bots answer after the first undo does not depend on the cards the
  position had (tests/widget/test_widget_probing.py holds the whole attack).
* Replay in a seat's view with the odds hidden: the (still synced) panels hold nothing of
  another position — differential: two records that a seat cannot tell apart at the shown
  turn give the same widget state, whatever was shown before.
* A forged message — huge, deeply nested, a huge integer, odd keys — is refused with one
  short message on the table, never a traceback; a successful action clears the error.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from helpers import random_game
from ipywidgets import Widget

from tenleave_widget import Game, play, replay
from widget.test_widget_secrets import normalized

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "games"
SHORT = 200  # the longest message text we accept on the table


# ---------------------------------------------------------------- 1. undo probing


def bot_answers(w: Any, since: int) -> str:
    """The bots' turns after turn ``since`` (kernel side: the face-down cards too)."""
    return json.dumps(w.record()["turns"][since:])


def probe(w: Any, intents: list[dict[str, Any]], times: int) -> list[str]:
    """Play ``intents`` (a whole turn), watch the bots answer, undo; ``times`` times, or
    until an answer swats (what a swat showed cannot be taken back: no undo is offered,
    and the game stays after that answer)."""
    since = w.game.turns_applied + 1
    answers = []
    for _ in range(times):
        for intent in intents:
            assert w.send_intent(intent), w.table.message
        answers.append(bot_answers(w, since))
        if not w.table.offers["undo"]:
            break
        assert w.send_intent({"kind": "undo"}), w.table.message
    return answers


def probe_along_a_game(bot: str, seed: int | None) -> list[list[Any]]:
    """Undo-probe the bots' answers at several positions along one game: the game (kernel
    side) after each undo, at each position where the human cannot see every card."""
    w = play(players=4, human=0, bots=[bot], seed=seed, bot_delay=0, show_odds=False)
    rng = random.Random(seed)
    out = []
    for _ in range(6):
        offers = w.table.offers
        if w.game.finished or not offers["undo"] and w.game.turns_applied:
            break
        turn = [{"kind": "play", "card": rng.choice(offers["play_cards"]),
                 "queue": rng.choice(offers["play_queues"])}, {"kind": "end"}]
        w.send_intent(turn[0])
        w.send_intent(turn[1])
        if not w.table.offers["undo"]:
            break  # a swat showed cards: this answer cannot be probed
        w.send_intent({"kind": "undo"})
        view = w.table.view
        worlds = []
        swatted = False
        for _ in range(8):
            probe(w, turn, 1)
            if not w.table.offers["undo"] and w.table.view != view:
                swatted = True  # this deal's answer swatted: the game went on from it
                break
            assert w.table.view == view  # the human sees the same position after each undo
            worlds.append(w.game.to_record()["turns"])
        if len(worlds) > 1 and any(c["value"] is None for q in view["queues"] for c in q):
            out.append(worlds)  # (with nothing hidden, nothing to deal again)
        if swatted:
            break
        w.send_intent(turn[0])
        w.send_intent(turn[1])
    return out


def test_undo_probing_asks_another_world_each_time() -> None:
    """Random and greedy bots, seeded or not: the same play probed again and again is
    answered from cards dealt again at every undo (the human's view stays the same)."""
    probed = redealt = 0
    for bot in ("random", "greedy"):
        for seed in (3, 11, None):
            for worlds in probe_along_a_game(bot, seed):
                probed += 1
                redealt += len({json.dumps(w) for w in worlds}) > 1
    assert probed >= 5 and redealt == probed, (probed, redealt)


def test_probing_by_goto_gets_the_same_answer_too() -> None:
    w = play(players=3, human=0, bots=["random"], seed=5, bot_delay=0)
    assert w.send_intent({"kind": "play", "card": "2", "queue": 0})
    assert w.send_intent({"kind": "end"})
    first = bot_answers(w, 1)
    for _ in range(6):
        w.goto(0)
        assert w.send_intent({"kind": "play", "card": "2", "queue": 0})
        assert w.send_intent({"kind": "end"})
        assert bot_answers(w, 1) == first


def twin_positions() -> Iterator[tuple[dict[str, Any], dict[str, Any]]]:
    """Pairs of records, seat 0 to move, that seat 0 cannot tell apart: a bot's face-down
    card on the table swapped with a card of the same back in that bot's hand."""
    for seed in range(400):
        g = random_game(3, seed=seed, turns=6)
        if g.to_move != 0:
            continue
        rec = g.to_record()
        view = g.view(0)
        for q in view["queues"]:
            for c in q:
                if c["owner"] == 0 or c["value"] is not None:
                    continue
                card = rec["turns"][c["key"]]["play"][0]
                for other in sorted(set(g.hand(c["owner"]))):
                    if other != card and other.endswith("*") == card.endswith("*"):
                        twin = json.loads(json.dumps(rec))
                        twin["turns"][c["key"]]["play"][0] = other
                        tg = Game.from_record(twin)
                        assert tg.view(0) == view and tg.hand(c["owner"]) != g.hand(c["owner"])
                        yield rec, twin


def probe_table(rec: dict[str, Any], times: int) -> list[str] | None:
    """Undo-probe the random bots' answers to one turn of seat 0 after ``rec``; None when
    the answer cannot be taken back (it swatted)."""
    w = play(players=3, human=0, bots=["random"], seed=7, bot_delay=0, show_odds=False)
    w.load(rec)
    offers = w.table.offers
    turn = [{"kind": "play", "card": offers["play_cards"][0],
             "queue": offers["play_queues"][0]}, {"kind": "end"}]
    for intent in turn:
        assert w.send_intent(intent)
    if not w.table.offers["undo"]:
        return None
    assert w.send_intent({"kind": "undo"})
    return probe(w, turn, times)


def test_the_issues_distinguisher_gets_nothing_after_one_undo() -> None:
    """The attack of issue 14: in two positions identical for seat 0 (a bot's hidden cards
    re-dealt), probe the random bot's answer by undo and compare how often it plays a
    marked card. After the first undo both positions are the same game (the cards seat 0
    cannot see were dealt again from its view): the 40 answers are the same in both, so
    they cannot tell the positions apart; the one answer before the first undo is all a
    game without undo gives."""
    pairs = 0
    for twins in twin_positions():
        probes = [probe_table(rec, 40) for rec in twins]
        if None in probes:
            continue
        assert probes[0] == probes[1]
        pairs += 1
        if pairs == 2:
            break
    assert pairs == 2


# ---------------------------------------------------------------- 2. hidden odds in replay


def widget_state(w: Any) -> Any:
    """Everything synced to the browser (and saved with a notebook) by ``w`` and every
    widget it holds, found by walking the widgets' traits — hidden ones included (a
    Plotly figure also with the data it sent after its first state)."""
    states: list[Any] = []
    seen: set[str] = set()
    todo: list[Widget] = [w]
    while todo:
        x = todo.pop(0)
        if x.model_id in seen:
            continue
        seen.add(x.model_id)
        state = x.get_state()
        states.append({k: v for k, v in state.items() if k not in ("_esm", "_css")})
        if hasattr(x, "to_plotly_json"):
            states.append(x.to_plotly_json())
        for name in x.keys:
            value = getattr(x, name)
            for item in value if isinstance(value, (list, tuple)) else [value]:
                if isinstance(item, Widget):
                    todo.append(item)
    return normalized(json.loads(json.dumps(states, sort_keys=True, default=repr)))


def spoiler_twin(rec: dict[str, Any], seat: int, early: int, late: int) -> dict[str, Any]:
    """``rec`` with two cards of one opponent swapped: both unknown to ``seat`` after
    ``early`` turns (face down and unpeeked, or still in hand), so that ``seat``'s view
    there is the same, while its view after ``late`` turns differs."""
    g_early = Game.from_record(rec, turns=early)
    g_late = Game.from_record(rec, turns=late)
    known_early = {c["key"] for q in g_early.view(seat)["queues"] for c in q
                   if c["value"] is not None}
    turns = rec["turns"]
    for k1 in range(early):
        for k2 in range(k1 + 1, len(turns)):
            a, b = turns[k1], turns[k2]
            if a["seat"] == seat or a["seat"] != b["seat"] or k1 in known_early \
                    or k2 in known_early:
                continue
            c1, c2 = a["play"][0], b["play"][0]
            if c1 == c2 or c1.endswith("*") != c2.endswith("*"):
                continue
            twin = json.loads(json.dumps(rec))
            twin["turns"][k1]["play"][0], twin["turns"][k2]["play"][0] = c2, c1
            try:
                t_early = Game.from_record(twin, turns=early)
                t_late = Game.from_record(twin, turns=late)
            except ValueError:
                continue
            if t_early.view(seat) == g_early.view(seat) and \
                    t_late.view(seat) != g_late.view(seat):
                return twin
    raise AssertionError("no spoiler twin")


def replay_cases() -> list[tuple[dict[str, Any], int, int, int]]:
    example = json.loads((EXAMPLES / "game-3-seats.json").read_text())
    cases = [(example, 0, 3, 25)]
    for seed in range(3):
        g = random_game(2 + seed, seed=40 + seed)
        cases.append((g.to_record(), seed % g.seats, 4, g.turns_applied - 2))
    return cases


def test_hidden_odds_in_replay_hold_nothing_of_another_turn() -> None:
    """The issue's steps — the odds shown at a late turn, switched off, back to an early
    turn — on the issue's game and on random games: two records that the seat cannot tell
    apart at the early turn (but can at the late one) leave the same synced state."""
    for rec, seat, early, late in replay_cases():
        twin = spoiler_twin(rec, seat, early, late)
        a = replay(rec, seat=seat, turn=late)
        b = replay(twin, seat=seat, turn=late)
        for w in (a, b):
            assert w.send_intent({"kind": "odds", "show": False})
            w.goto(early)
        assert a.table.view == b.table.view
        assert widget_state(a) == widget_state(b), (seat, early, late)


def test_the_spoiler_switch_in_replay_keeps_nothing_behind() -> None:
    """The teacher's view (the spoiler) at the late turn with the odds shown, back to a
    seat, the odds off, back to the early turn: nothing of the teacher's view nor of the
    late turn stays in the synced state."""
    rec, seat, early, late = replay_cases()[0]
    twin = spoiler_twin(rec, seat, early, late)
    states: list[list[Any]] = [[], []]
    for r, out in zip((rec, twin), states, strict=True):
        w = replay(r, seat=None, turn=late)  # the spoiler, odds shown
        w.set_perspective(seat)
        assert w.send_intent({"kind": "odds", "show": False})
        w.goto(early)
        out.append(widget_state(w))
        w.set_perspective(None)  # the spoiler again, with the odds hidden...
        w.goto(late)
        w.set_perspective(seat)  # ...and back
        w.goto(early)
        out.append(widget_state(w))
    assert states[0] == states[1]


# ---------------------------------------------------------------- 3, 4. forged messages


def deep(n: int) -> Any:
    out: Any = "x"
    for _ in range(n):
        out = [out]
    return out


def deep_dict(n: int) -> Any:
    out: Any = 0
    for _ in range(n):
        out = {"k": out}
    return out


BIG = 10**5000
FORGED: list[Any] = [
    {"kind": "play", "card": "x" * 10_000_000, "queue": 0},
    {"kind": "play", "card": "3*", "queue": "\x1b[2J" * 1_000_000},
    {"kind": "k" * 10_000_000},
    {"kind": "play", "card": "1", "queue": 0, "x" * 1_000_000: 1},
    {"kind": "play", "card": "1", "queue": 0, **{f"f{i}": i for i in range(100_000)}},
    {"kind": "play", "card": deep(2000), "queue": 0},
    {"kind": deep(5000)},
    {"kind": "goto", "turn": deep_dict(3000)},
    {"kind": "goto", "turn": BIG},
    {"kind": "goto", "turn": -BIG},
    {"kind": "perspective", "seat": BIG},
    {"kind": "play", "card": "1", "queue": BIG},
    {"kind": "peek", "queue": 0, "position": BIG},
    {"kind": "rotate", "queue": -BIG},
    {"kind": "odds", "show": [True] * 1_000_000},
    {"kind": "play", "card": "1", "queue": 0, 7: "a non-string key"},
    {"kind": "play", "card": "1", "queue": 0, None: 1, (1, 2): 3},
    {"kind": "play", "card": "1", "queue": 1.5},
    {"kind": "play", "card": "1", "queue": float("nan")},
    {"kind": "rationality", "level": "x" * 1_000_000},  # what their plays suggest (issue 19)
    {"kind": "rationality", "level": "omniscient"},
    {"kind": "rationality", "level": 4.0},
    {"kind": "rationality"},
    {"kind": "odds_model", "model": "truth"},
    {"kind": "odds_model", "model": ["inferred"] * 100_000},
    {"kind": "odds_model", "model": "inferred", "seat": 1},
    deep(3000),
    deep_dict(3000),
    "x" * 10_000_000,
    [BIG],
    BIG,
    None,
]


def widgets() -> list[Any]:
    rec = random_game(3, seed=9).to_record()
    return [
        play(players=3, human=0, bots=["random"], seed=2, bot_delay=0),
        replay(rec, seat=1, turn=10),
    ]


def test_a_forged_message_ends_as_one_short_message_on_the_table() -> None:
    """Every forged message, in play and in replay: refused, one short printable message
    on the table, nothing changed; ``handle_intent`` raises a ValueError."""
    tables = widgets()
    for intent in FORGED:
        for w in tables:
            before = (w.record(), w.table.view, w.table.offers, w.table.panels)
            message_id = w.table.message["id"]
            assert w.send_intent(intent) is False
            message = w.table.message
            assert message["level"] == "error" and message["id"] > message_id
            assert 0 < len(message["text"]) <= SHORT and message["text"].isprintable(), \
                message["text"][:300]
            assert (w.record(), w.table.view, w.table.offers, w.table.panels) == before
            with pytest.raises(ValueError):
                w.handle_intent(intent)


def test_a_forged_message_from_the_comm_is_answered_on_the_table() -> None:
    """What arrives from the browser goes through the same door (the comm handler)."""
    w = widgets()[0]
    for intent in (deep(2000), {"kind": "goto", "turn": BIG}, {"kind": "x" * 10**6}):
        message_id = w.table.message["id"]
        w.table._handle_custom_msg(intent, [])
        assert w.table.message["id"] > message_id
        assert len(w.table.message["text"]) <= SHORT


# ---------------------------------------------------------------- 6. errors are cleared


def assert_cleared(w: Any, action: str) -> None:
    assert w.table.message["level"] != "error", (action, w.table.message)


def error(w: Any) -> None:
    assert not w.send_intent({"kind": "play", "card": "9", "queue": 0})
    assert w.table.message["level"] == "error"


def test_a_successful_action_clears_the_previous_error() -> None:
    w = play(players=3, human=0, bots=["random"], seed=4, bot_delay=0)
    for intent in (
        {"kind": "odds", "show": False},
        {"kind": "odds", "show": True},
        {"kind": "play", "card": "2", "queue": 0},
        {"kind": "reset"},
        {"kind": "play", "card": "1", "queue": 1},
        {"kind": "end"},
        {"kind": "undo"},
    ):
        error(w)
        assert w.send_intent(intent), (intent, w.table.message)
        assert_cleared(w, json.dumps(intent))
    error(w)
    w.goto(0)
    assert_cleared(w, "goto in play")
    r = replay(random_game(3, seed=1).to_record(), seat=0, turn=5)
    for intent in (
        {"kind": "odds", "show": False},
        {"kind": "odds", "show": True},
        {"kind": "goto", "turn": 7},
        {"kind": "perspective", "seat": 1},
    ):
        assert not r.send_intent({"kind": "goto", "turn": 999})
        assert r.table.message["level"] == "error"
        assert r.send_intent(intent)
        assert_cleared(r, json.dumps(intent))
