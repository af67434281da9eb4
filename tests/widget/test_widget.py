"""The widget adapter: intents in -> engine state out; illegal and forged intents change
nothing; the modes (vs bots, hot-seat, replay) and the Python scripting API."""

from __future__ import annotations

import asyncio
import copy
import json
import threading
from pathlib import Path
from typing import Any

import pytest
from helpers import random_game

from tenleave_widget import Game, Turn
from tenleave_widget.engine.errors import TenLeaveError
from tenleave_widget.table.words.narration import describe_turn
from tenleave_widget.widget import TenLeaveWidget, WidgetMessageError, hotseat, play, replay

GAMES = Path(__file__).resolve().parents[2] / "examples" / "games"


def snapshot(w: TenLeaveWidget) -> Any:
    """Everything observable of a widget except the message line."""
    state = {k: v for k, v in w.table.get_state().items() if k not in ("message",)}
    return json.loads(json.dumps(
        [state, w.game.to_record(), w.turn], sort_keys=True, default=str
    ))


def human_vs_bots(seed: int = 1) -> TenLeaveWidget:
    return play(players=["Ana", "Ben", "Cy"], human=0, bots=["greedy", "random"], seed=seed,
                bot_delay=0)


# ------------------------------------------------------------------ intents -> engine


def test_play_and_end_applies_the_turn_and_the_bots_answer() -> None:
    w = human_vs_bots()
    before = w.game
    w.handle_intent({"kind": "play", "card": "3*", "queue": 1})
    assert w.game == before  # nothing applied before the turn ends
    assert w.table.view["queues"][1][-1]["value"] == 3  # but the table shows the card played
    assert w.table.offers["end"] and not w.table.offers["play_cards"]
    w.handle_intent({"kind": "end"})
    g = w.game
    assert g.turns[0] == Turn(0, "3*", 1)
    assert g.turns_applied == 3 and g.to_move == 0  # both bots moved
    expected = before.copy()
    for t in g.turns:
        expected.apply(t)
    assert g == expected
    assert w.table.view == g.view(0)


def test_peek_before_and_rotate_after() -> None:
    w = human_vs_bots(seed=3)
    w.handle_intent({"kind": "play", "card": "1", "queue": 0})
    w.handle_intent({"kind": "end"})
    queue, position = w.table.offers["peek"][0]
    w.handle_intent({"kind": "peek", "queue": queue, "position": position})
    card = w.table.view["queues"][queue][position]
    assert card["value"] is not None and 0 in card["peeked_by"]
    assert w.table.offers["rotate"] == [] and w.table.offers["wake"] is False
    w.handle_intent({"kind": "play", "card": "2", "queue": 1})
    w.handle_intent({"kind": "end"})
    assert w.game.turns[3] == Turn(0, "2", 1, peek=(queue, position))
    # rotate after the play
    w.handle_intent({"kind": "play", "card": "5", "queue": 0})
    rotate = w.table.offers["rotate"][0]  # a queue of 2 cards or more (the bots' doing)
    w.handle_intent({"kind": "rotate", "queue": rotate})
    w.handle_intent({"kind": "end"})
    assert w.game.turns[6] == Turn(0, "5", 0, rotate=rotate, extra="after")


def test_wake_is_offered_only_when_legal_and_swats() -> None:
    g = Game(["Ana", "Ben"], seed=2)
    for t in [(0, "1", 0), (1, "1", 0), (0, "2", 1), (1, "2", 1)]:
        g.apply(Turn(*t))
    w = TenLeaveWidget(g, mode="play", humans=[0], bots={1: "random"}, bot_delay=0)
    assert w.table.offers["wake"]
    w.handle_intent({"kind": "wake"})
    assert any(e["kind"] == "swat" for e in w.table.view["events"])
    assert not w.table.offers["wake"] and not w.table.offers["peek"]
    swats = w.table.narration["turns"][-1]["swats"]
    assert swats and swats[0]["queues"][0]["text"].startswith("1 + 1 = 2 < 10")
    w.handle_intent({"kind": "play", "card": "3*", "queue": 0})
    w.handle_intent({"kind": "end"})
    assert w.game.turns[4] == Turn(0, "3*", 0, wake=True)
    fresh = TenLeaveWidget(Game(2, seed=2), mode="play", humans=[0], bots={1: "random"},
                           bot_delay=0)
    assert not fresh.table.offers["wake"]
    assert not fresh.send_intent({"kind": "wake"})


def test_reset_takes_back_the_steps_of_the_turn() -> None:
    w = human_vs_bots()
    start = snapshot(w)
    w.handle_intent({"kind": "play", "card": "4*", "queue": 0})
    w.handle_intent({"kind": "reset"})
    assert snapshot(w) == start


# ---------------------------------------------------- illegal and forged intents

FORGED: list[Any] = [
    "play",
    None,
    [1, 2],
    {},
    {"kind": "teleport"},
    {"kind": 3},
    {"kind": "play", "card": "3*"},
    {"kind": "play", "card": "3*", "queue": "1"},
    {"kind": "play", "card": "3*", "queue": True},
    {"kind": "play", "card": 3, "queue": 0},
    {"kind": "play", "card": "3*", "queue": 0, "seat": 1},
    {"kind": "play", "card": "9", "queue": 0},
    {"kind": "play", "card": "3*", "queue": 7},
    {"kind": "play", "card": "3*", "queue": -1},
    {"kind": "peek", "queue": 0, "position": 0},
    {"kind": "peek", "queue": 0, "position": 3.0},
    {"kind": "rotate", "queue": 0},
    {"kind": "wake"},
    {"kind": "end"},
    {"kind": "reset"},
    {"kind": "undo"},
    {"kind": "uncover"},
    {"kind": "goto", "turn": 0},
    {"kind": "perspective", "seat": None},
    {"kind": "perspective", "seat": 1},
    {"kind": "odds"},
]


@pytest.mark.parametrize("intent", FORGED, ids=[repr(f)[:40] for f in FORGED])
def test_forged_or_illegal_intent_changes_nothing(intent: Any) -> None:
    w = human_vs_bots()
    before = snapshot(w)
    message_id = w.table.message["id"]
    assert w.send_intent(intent) is False
    assert w.table.message["level"] == "error" and w.table.message["text"]
    assert w.table.message["id"] == message_id + 1
    assert snapshot(w) == before
    with pytest.raises(TenLeaveError):
        w.handle_intent(intent)


def test_every_error_is_a_value_error() -> None:
    assert issubclass(WidgetMessageError, ValueError)


def test_second_play_and_second_action_are_refused() -> None:
    w = human_vs_bots(seed=4)
    w.handle_intent({"kind": "play", "card": "1", "queue": 0})
    w.handle_intent({"kind": "end"})
    w.handle_intent({"kind": "play", "card": "2", "queue": 0})
    w.handle_intent({"kind": "peek", "queue": 0, "position": 0})
    state = snapshot(w)
    for intent in (
        {"kind": "play", "card": "1", "queue": 1},
        {"kind": "peek", "queue": 0, "position": 1},
        {"kind": "rotate", "queue": 0},
        {"kind": "wake"},
    ):
        assert not w.send_intent(intent)
        assert snapshot(w) == state


def test_out_of_turn_intents_are_refused() -> None:
    w = play(players=3, human=1, bots=["random"], seed=2, bot_delay=0)
    assert w.game.to_move == 1  # seat 0's bot has moved
    # A hot-seat game: seat 1 must not act for seat 0.
    h = hotseat(players=2, seed=1)
    h.handle_intent({"kind": "play", "card": "1", "queue": 0})
    h.handle_intent({"kind": "end"})
    assert h.table.cover["shown"]
    state = snapshot(h)
    assert not h.send_intent({"kind": "play", "card": "1", "queue": 0})
    assert snapshot(h) == state


def test_finished_game_refuses_play() -> None:
    g = random_game(2, seed=9)
    assert g.finished
    w = TenLeaveWidget(g, mode="play", humans=[0], bots={1: "random"}, bot_delay=0)
    state = snapshot(w)
    assert not w.send_intent({"kind": "play", "card": "1", "queue": 0})
    assert "over" in w.table.message["text"]
    assert snapshot(w) == state
    assert w.table.status.startswith("Game over")


# ----------------------------------------------------------------- bots and undo


def test_undo_takes_back_the_humans_last_turn() -> None:
    w = human_vs_bots(seed=5)
    w.handle_intent({"kind": "play", "card": "2", "queue": 0})
    w.handle_intent({"kind": "end"})
    after_first = w.game
    w.handle_intent({"kind": "play", "card": "4*", "queue": 1})
    w.handle_intent({"kind": "end"})
    assert w.table.offers["undo"]
    w.handle_intent({"kind": "undo"})
    # the same position as Ana sees it (the cards she cannot see are dealt again)
    assert w.game.view(0) == after_first.view(0) and w.game.turns_applied == 3
    assert w.table.view == after_first.view(0)
    w.handle_intent({"kind": "undo"})
    assert w.game.turns_applied == 0
    assert not w.table.offers["undo"]


@pytest.mark.parametrize(("bots", "pushes"), [(["greedy", "random"], [3]),
                                               (["lookahead", "greedy"], [1, 3]),
                                               (["greedy", "lookahead"], [1, 3])])
def test_bots_that_answer_at_once_are_shown_once_after_their_turns(
        bots: list[str], pushes: list[int]) -> None:
    """With no delay, quick bots' turns and the human's come in one state (the page draws
    the human's next position once); a table with a bot that thinks (lookahead), first or
    second, waits for it with the human's own turn on the table."""
    w = play(players=3, human=0, bots=bots, seed=4, bot_delay=0)
    shown: list[int] = []
    push = w.table.show

    def spy(state: Any) -> None:
        shown.append(state["view"]["turns_applied"])
        push(state)

    w.table.show = spy  # type: ignore[method-assign]
    w.handle_intent({"kind": "play", "card": w.table.offers["play_cards"][0], "queue": 0})
    shown.clear()
    w.handle_intent({"kind": "end"})
    assert shown == pushes and w.game.to_move == 0


def test_bots_move_first_when_the_human_is_not_first() -> None:
    w = play(players=4, human=2, bots=["greedy", "random"], seed=3, bot_delay=0)
    assert [t.seat for t in w.game.turns] == [0, 1]
    assert w.game.to_move == 2 and w.table.offers["active"]


def test_bots_are_paced_on_a_running_event_loop() -> None:
    async def scenario() -> tuple[int, int, bool]:
        w = play(players=3, human=0, bots=["greedy", "random"], seed=1, bot_delay=0.01)
        w.handle_intent({"kind": "play", "card": "2", "queue": 0})
        w.handle_intent({"kind": "end"})
        right_after = w.game.turns_applied
        busy = w.table.busy
        for _ in range(500):  # not a timing test: wait until the bots are done
            await asyncio.sleep(0.01)
            if not w.table.busy:
                break
        return right_after, w.game.turns_applied, busy

    # In a thread of its own: other tests (nbclient) may leave this thread's loop running.
    results: list[tuple[int, int, bool]] = []
    thread = threading.Thread(target=lambda: results.append(asyncio.run(scenario())))
    thread.start()
    thread.join()
    right_after, later, busy = results[0]
    assert right_after == 1 and busy  # the bots had not moved yet
    assert later == 3


def test_a_whole_game_against_bots() -> None:
    w = human_vs_bots(seed=8)
    while not w.game.finished:
        offers = w.table.offers
        w.handle_intent({"kind": "play", "card": offers["play_cards"][-1],
                         "queue": offers["play_queues"][0]})
        w.handle_intent({"kind": "end"})
    assert w.table.view["finished"] and w.table.status.startswith("Game over")
    assert w.table.view["winners"] == w.game.winners


# --------------------------------------------------------------------------- hot-seat


def test_hotseat_covers_the_screen_between_players() -> None:
    h = hotseat(players=["Ana", "Ben", "Cy"], seed=2, show_odds=True)
    assert not h.table.cover["shown"] and h.perspective == 0
    h.handle_intent({"kind": "play", "card": "3*", "queue": 0})
    h.handle_intent({"kind": "end"})
    assert h.table.cover["shown"] and h.perspective == 1
    view = h.table.view
    assert all(hand["cards"] is None for hand in view["hands"])
    assert all(c["value"] is None for q in view["queues"] for c in q)
    assert h.table.panels["state"] == "hidden"  # the panels are empty behind the cover
    assert not h.table.panels["outcome"] and not h.table.panels["timeline"]["turns"]
    assert not h.table.offers["active"]
    h.handle_intent({"kind": "uncover"})
    assert h.table.view == h.game.view(1)
    assert h.table.offers["active"]


# ----------------------------------------------------------------------------- replay


def test_replay_matches_the_engine_at_every_turn() -> None:
    record = json.loads((GAMES / "game-3-seats.json").read_text())
    r = replay(record)
    total = len(record["turns"])
    assert r.table.replay["total"] == total and r.turn == 0
    for seat in (None, 0, 2):
        r.set_perspective(seat)
        for t in range(total + 1):
            r.goto(t)
            assert r.table.view == Game.from_record(record, turns=t).view(seat)
            assert r.game == Game.from_record(record, turns=t)
    r.set_perspective(None)
    r.goto(7)
    assert r.table.replay["note"] == record["notes"]["6"]
    assert r.table.replay["note_turn"] == 6
    r.set_perspective(1)  # a seat's view does not show the teacher's free text
    assert r.table.replay["note"] != record["notes"]["6"]
    with pytest.raises(WidgetMessageError):
        r.goto(total + 1)
    assert not r.send_intent({"kind": "play", "card": "1", "queue": 0})


def test_replay_odds_follow_the_seat_and_the_turn() -> None:
    record = json.loads((GAMES / "game-4-seats.json").read_text())
    r = replay(record, seat=2, turn=9)
    from tenleave_widget.analysis.odds import seat_odds

    odds = seat_odds(Game.from_record(record, turns=9).view(2))
    panels = r.table.panels
    assert [q["p_over"] for q in panels["outcome"]] == [q["p_over"] for q in odds["queues"]]
    assert panels["timeline"]["turns"] == list(range(10))
    assert panels["timeline"]["viewer"] == 2 and None not in panels["timeline"]["expected"]


def test_load_save_goto_and_current_game(tmp_path: Path) -> None:
    r = replay(GAMES / "game-2-seats.json", seat=None)
    r.goto(5)
    assert r.game == Game.from_record(GAMES / "game-2-seats.json", turns=5)
    out = tmp_path / "saved.json"
    r.save(out)
    saved = json.loads(out.read_text())
    original = json.loads((GAMES / "game-2-seats.json").read_text())
    assert saved["turns"] == original["turns"]
    assert saved["notes"] == original["notes"]
    r.load(out)
    assert r.turn == 0
    w = human_vs_bots()
    w.handle_intent({"kind": "play", "card": "1", "queue": 0})
    w.handle_intent({"kind": "end"})
    w.save(tmp_path / "live.json")
    w2 = human_vs_bots()
    w2.load(tmp_path / "live.json")
    assert w2.game.turns == w.game.turns
    w2.goto(1)
    assert w2.game.turns_applied == 3  # rewound to after turn 1, then the bots moved again


def test_spoiler_switch_hides_and_shows_the_panels() -> None:
    w = human_vs_bots()
    w.handle_intent({"kind": "odds", "show": False})
    assert not w.table.show_odds and w.table.panels["state"] == "hidden"
    assert "show odds" in w.table.panels["message"]
    w.handle_intent({"kind": "play", "card": "1", "queue": 0})
    assert w.table.panels["state"] == "hidden"  # hidden panels are not computed
    w.handle_intent({"kind": "odds", "show": True})
    assert w.table.panels["state"] == "live" and w.table.panels["outcome"]


def test_panels_follow_the_game_and_stay_small() -> None:
    w = human_vs_bots(seed=6)
    for _ in range(4):
        offers = w.table.offers
        w.handle_intent({"kind": "play", "card": offers["play_cards"][0],
                         "queue": offers["play_queues"][-1]})
        w.handle_intent({"kind": "end"})
    timeline = w.table.panels["timeline"]
    assert timeline["turns"] == list(range(w.game.turns_applied + 1))
    assert [row[-1] for row in timeline["penalty"]] == w.game.penalty
    figures = json.dumps(w.table.panels["figures"])
    assert len(json.dumps(w.table.panels)) - len(figures) < 8_000  # the panels' data
    assert len(figures) < 24_000  # the figures' JSON: no chart library in the state


def test_panel_moves_are_the_odds_move_evaluation_best_first() -> None:
    from tenleave_widget.analysis.odds import seat_odds

    w = human_vs_bots(seed=2)
    moves = seat_odds(w.game.view(0))["moves"]
    shown = [m["expected_penalty"] for m in w.table.panels["moves"]["moves"]]
    assert sorted(shown) == shown
    assert shown == sorted(m["expected_penalty"] for m in moves)
    assert w.table.panels["moves"]["seat"] == 0


# ----------------------------------------------------------------------------- words


def _swat(flipped: list[tuple[int, str]], total: int, outcome: str, swatted: list[int]) -> Any:
    return {"kind": "swat", "reason": "full", "queues": [{
        "queue": 0, "flipped": [{"key": k, "owner": k % 3, "card": c} for k, c in flipped],
        "total": total, "outcome": outcome, "swatted": swatted, "single": None}]}


@pytest.mark.parametrize(
    ("event", "text"),
    [
        (_swat([(0, "4*"), (1, "4*"), (2, "2")], 10, "exact", []),
         "4 + 4 + 2 = 10 — swing and miss: all escape"),
        (_swat([(0, "1"), (1, "5*"), (2, "5")], 11, "over", [0, 1]),
         "1 + 5 + 5 = 11 > 10 — Human Defense I+II swats Ana's 1 and Ben's 5"),
        (_swat([(0, "2"), (1, "3*")], 5, "under", [1]),
         "2 + 3 = 5 < 10 — the highest is swatted: Ben's 3"),
        (_swat([(0, "3*"), (3, "3*"), (1, "1")], 7, "under", [0, 3]),
         "3 + 3 + 1 = 7 < 10 — the highest is swatted: Ana's two 3s"),
        (_swat([(0, "5"), (1, "5*")], 10, "exact", []), "5 + 5 = 10 — swing and miss: all escape"),
        (_swat([], 0, "empty", []), "empty: nothing to swat"),
    ],
)
def test_swat_explanations(event: Any, text: str) -> None:
    words = describe_turn([event], ["Ana", "Ben", "Cy"], "I+II")
    assert words["swats"][0]["queues"][0]["text"] == text


def test_token_changes_between_daybreak_passes_are_followed() -> None:
    ev = [
        _swat([(0, "5"), (1, "5*"), (2, "4*")], 14, "over", [1, 2]),
        {"kind": "token", "token": "II+III"},
        _swat([(0, "5"), (1, "5*"), (2, "4*")], 14, "over", [1, 2]),
    ]
    words = describe_turn(ev, ["Ana", "Ben", "Cy"], "I+II")
    assert "Human Defense I+II" in words["swats"][0]["queues"][0]["text"]
    assert "Human Defense II+III" in words["swats"][1]["queues"][0]["text"]
    assert "New Human Defense token: II+III." in words["lines"]


def test_errors_for_bad_construction() -> None:
    with pytest.raises(ValueError):
        play(players=3, human=0, bots=["greedy", "random", "random"])
    with pytest.raises(ValueError):
        play(players=3, human=0, bots=[])
    with pytest.raises(ValueError):
        play(players=3, human=0, bots=["chess-engine"])
    with pytest.raises(TenLeaveError):
        replay(GAMES / "game-2-seats.json", seat=4)


def test_record_is_a_copy() -> None:
    w = human_vs_bots()
    rec = w.record()
    rec2 = copy.deepcopy(rec)
    rec["turns"].append({"seat": 0, "play": ["1", 0]})
    assert w.record() == rec2


# ------------------------------------------- what was seen cannot be taken back


def wake_position() -> Game:
    """Two seats, every queue holding two cards: Ana (seat 0) may wake."""
    g = Game(["Ana", "Ben"], seed=2)
    for t in [(0, "1", 0), (1, "1", 0), (0, "2", 1), (1, "2", 1)]:
        g.apply(Turn(*t))
    return g


def vs_random(game: Game) -> TenLeaveWidget:
    # seeded: an unseeded random bot made these tests depend on luck
    return TenLeaveWidget(game, mode="play", humans=[0], bots={1: "random"}, bot_delay=0, seed=1)


def test_reset_after_a_peek_keeps_the_peek() -> None:
    w = vs_random(wake_position())
    w.handle_intent({"kind": "peek", "queue": 0, "position": 1})  # Ben's 1
    assert not w.table.offers["reset"]
    peeked = snapshot(w)
    assert not w.send_intent({"kind": "reset"})  # nothing to drop: the peek is final
    text = w.table.message["text"].lower()
    assert "peeked" in text and "play a card" in text
    assert snapshot(w) == peeked
    # no second peek after a refused reset
    assert not w.send_intent({"kind": "peek", "queue": 1, "position": 1})
    assert snapshot(w) == peeked
    w.handle_intent({"kind": "play", "card": "3*", "queue": 0})
    assert w.table.offers["reset"]
    w.handle_intent({"kind": "reset"})  # drops the play only
    assert snapshot(w) == peeked
    assert w.table.pending == ["peeked at queue 1, position II"]
    assert "stays" in w.table.message["text"]
    assert w.table_game == w.game.preview([{"kind": "peek", "queue": 0, "position": 1}])
    w.handle_intent({"kind": "play", "card": "4*", "queue": 1})
    w.handle_intent({"kind": "end"})
    assert w.game.turns[4] == Turn(0, "4*", 1, peek=(0, 1))


def test_reset_after_a_wake_keeps_the_wake() -> None:
    w = vs_random(wake_position())
    w.handle_intent({"kind": "wake"})
    woke = snapshot(w)
    assert not w.table.offers["reset"]
    assert not w.send_intent({"kind": "reset"})
    assert "woken" in w.table.message["text"]
    assert snapshot(w) == woke
    w.handle_intent({"kind": "play", "card": "5", "queue": 1})
    w.handle_intent({"kind": "reset"})
    assert snapshot(w) == woke
    assert w.table_game == w.game.preview([{"kind": "wake"}])


def test_reset_after_play_then_peek_is_refused() -> None:
    w = vs_random(wake_position())
    w.handle_intent({"kind": "play", "card": "3*", "queue": 0})
    w.handle_intent({"kind": "peek", "queue": 1, "position": 0})
    state = snapshot(w)
    assert not w.table.offers["reset"]
    assert not w.send_intent({"kind": "reset"})
    assert "end the turn" in w.table.message["text"].lower()
    assert snapshot(w) == state


def test_reset_drops_a_play_and_a_rotate() -> None:
    w = vs_random(wake_position())
    start = snapshot(w)
    w.handle_intent({"kind": "rotate", "queue": 0})
    w.handle_intent({"kind": "play", "card": "3*", "queue": 0})
    assert w.table.offers["reset"]
    w.handle_intent({"kind": "reset"})
    assert snapshot(w) == start


def test_undo_is_refused_after_the_humans_peek() -> None:
    w = vs_random(wake_position())
    w.handle_intent({"kind": "peek", "queue": 0, "position": 1})
    w.handle_intent({"kind": "play", "card": "3*", "queue": 0})
    w.handle_intent({"kind": "end"})
    assert w.game.turns_applied == 6
    assert not any(e["kind"] == "swat" for t in range(4, 6) for e in w.game.events(t))
    assert not w.table.offers["undo"]
    state = snapshot(w)
    message_id = w.table.message["id"]
    assert not w.send_intent({"kind": "undo"})
    assert w.table.message["id"] == message_id + 1 and w.table.message["level"] == "error"
    assert "peeked" in w.table.message["text"]
    assert snapshot(w) == state
    with pytest.raises(WidgetMessageError):
        w.handle_intent({"kind": "undo"})


def test_undo_is_refused_after_the_humans_wake() -> None:
    w = vs_random(wake_position())
    w.handle_intent({"kind": "wake"})
    w.handle_intent({"kind": "play", "card": "3*", "queue": 0})
    w.handle_intent({"kind": "end"})
    state = snapshot(w)
    assert not w.table.offers["undo"]
    assert not w.send_intent({"kind": "undo"})
    assert "swatted" in w.table.message["text"]
    assert snapshot(w) == state


def test_undo_is_refused_after_a_bots_automatic_wake() -> None:
    g = Game(["Ana", "Ben"], seed=2)
    for t in [(0, "1", 0), (1, "1", 0), (0, "2", 0), (1, "2", 0), (0, "1", 1), (1, "1", 1)]:
        g.apply(Turn(*t))
    w = vs_random(g)
    w.handle_intent({"kind": "play", "card": "3*", "queue": 1})  # Ben must fill queue 2
    w.handle_intent({"kind": "end"})
    assert any(e["kind"] == "swat" for e in w.game.events(7))
    state = snapshot(w)
    assert not w.table.offers["undo"]
    assert not w.send_intent({"kind": "undo"})
    assert "Ben's turn 8" in w.table.message["text"]
    assert "No undo" in w.table.status
    assert snapshot(w) == state


def test_undo_is_refused_during_a_turn_with_a_peek() -> None:
    w = human_vs_bots(seed=5)
    w.handle_intent({"kind": "play", "card": "2", "queue": 0})
    w.handle_intent({"kind": "end"})
    assert w.table.offers["undo"]
    q, i = w.table.offers["peek"][0]
    w.handle_intent({"kind": "peek", "queue": q, "position": i})
    assert not w.table.offers["undo"]
    state = snapshot(w)
    assert not w.send_intent({"kind": "undo"})
    assert snapshot(w) == state


def test_undo_after_turns_that_revealed_nothing_still_works() -> None:
    w = human_vs_bots(seed=1)
    w.handle_intent({"kind": "play", "card": "2", "queue": 0})
    w.handle_intent({"kind": "end"})
    before = w.game
    w.handle_intent({"kind": "play", "card": "4*", "queue": 0})
    w.handle_intent({"kind": "rotate", "queue": 0})
    w.handle_intent({"kind": "end"})
    events = [e for t in range(3, 6) for e in w.game.events(t)]
    assert not any(e["kind"] == "swat" for e in events)
    assert {"kind": "peek", "seat": 2} in [{k: e[k] for k in ("kind", "seat")} for e in events]
    assert w.table.offers["undo"]  # a bot's peek showed the human nothing
    w.handle_intent({"kind": "undo"})
    assert w.game == before


# ------------------------------------------------------ the timeline after undo


def expected_line(w: TenLeaveWidget, seat: int) -> list[float]:
    from tenleave_widget.analysis.odds import seat_odds

    out = []
    for t in range(w.game.turns_applied + 1):
        g = Game.from_record(w.record(), turns=t)
        out.append(g.penalty[seat] + float(seat_odds(g.view(seat), moves=False)
                                           ["expected_penalty"][seat]))
    return out


def timeline_trace(w: TenLeaveWidget) -> list[float]:
    return list(w.table.panels["timeline"]["expected"])


def test_timeline_follows_the_new_line_after_undo_and_goto() -> None:
    w = human_vs_bots(seed=5)
    w.handle_intent({"kind": "play", "card": "1", "queue": 0})
    w.handle_intent({"kind": "end"})
    w.handle_intent({"kind": "play", "card": "5", "queue": 0})
    w.handle_intent({"kind": "end"})
    abandoned = timeline_trace(w)
    assert abandoned == pytest.approx(expected_line(w, 0))
    w.handle_intent({"kind": "undo"})
    w.handle_intent({"kind": "play", "card": "4*", "queue": 1})
    w.handle_intent({"kind": "end"})
    fresh = expected_line(w, 0)
    assert fresh[4:] != pytest.approx(abandoned[4:])  # the lines differ after turn 3
    assert timeline_trace(w) == pytest.approx(fresh)
    line = timeline_trace(w)
    w.goto(3)  # take back the last turn and the bots' answers; the bots answer again
    w.handle_intent({"kind": "play", "card": "1", "queue": 1})
    w.handle_intent({"kind": "end"})
    fresh = expected_line(w, 0)
    assert fresh[4:] != pytest.approx(line[4:])
    assert timeline_trace(w) == pytest.approx(fresh)


# ------------------------------------------------- panel (c) after a pending step


@pytest.mark.parametrize(
    "step",
    [{"kind": "peek", "queue": 0, "position": 1}, {"kind": "rotate", "queue": 1},
     {"kind": "wake"}],
)
def test_panel_moves_drop_wake_once_it_is_no_longer_legal(step: dict[str, Any]) -> None:
    w = vs_random(wake_position())
    def labels() -> list[str]:
        return [m["label"] for m in w.table.panels["moves"]["moves"]]

    assert "wake SleepKid" in labels()
    w.handle_intent(step)
    assert not w.table.offers["wake"]
    assert "wake SleepKid" not in labels()
    if step["kind"] != "wake":
        assert len(labels()) > 0  # the plays are still ranked


# ---------------------------------------------------------------- load is atomic


def test_a_failed_load_leaves_the_widget_as_it_was(tmp_path: Path) -> None:
    record = json.loads((GAMES / "game-2-seats.json").read_text())
    short = {**record, "turns": record["turns"][:5]}
    r = replay(record, seat=0, turn=7)
    before = snapshot(r)
    for bad in (10, -1, 1.5, True, "3"):
        with pytest.raises(WidgetMessageError):
            r.load(short, turn=bad)
        assert snapshot(r) == before
    other = json.loads((GAMES / "game-3-seats.json").read_text())
    with pytest.raises(WidgetMessageError):
        r.load(other)
    broken = {**record, "turns": [*record["turns"][:3], {"seat": 0, "play": ["9", 0]}]}
    with pytest.raises(TenLeaveError):
        r.load(broken)
    assert snapshot(r) == before
    r.goto(len(record["turns"]))  # still works
    r.load(short, turn=5)
    assert r.turn == 5 and r.table.replay["total"] == 5
    w = human_vs_bots()
    state = snapshot(w)
    live = w.record()
    with pytest.raises(WidgetMessageError):
        w.load(live, turn=0)  # play mode continues from the record's end
    assert snapshot(w) == state


# --------------------------------------------------------------- typed errors


@pytest.mark.parametrize(
    "kwargs",
    [{"turn": 1.5}, {"turn": True}, {"turn": "2"}, {"turn": 999}, {"turn": -1},
     {"seat": 1.0}, {"seat": True}, {"seat": 2}, {"seat": -1}],
)
def test_replay_bad_arguments_are_widget_errors(kwargs: dict[str, Any]) -> None:
    with pytest.raises(WidgetMessageError):
        replay(GAMES / "game-2-seats.json", **kwargs)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"mode": "tournament"},
        {"humans": [5]},
        {"humans": [True]},
        {"humans": 0},
        {"humans": [], "bots": {0: "random", 1: "random"}},
        {"bots": {}},
        {"bots": {1: "chess-engine"}},
        {"bots": {0: "random", 1: "random"}},
        {"bots": {7: "random", 1: "random"}},
        {"bots": ["random"]},
        {"bot_delay": -1},
        {"bot_delay": "fast"},
        {"seed": "x"},
        {"show_odds": "yes"},
        {"perspective": 1},
        {"turn": 0},
        {"mode": "replay", "perspective": 9},
        {"mode": "replay", "turn": 2.5},
        {"mode": "replay", "turn": 99},
    ],
)
def test_widget_bad_arguments_are_widget_errors(kwargs: dict[str, Any]) -> None:
    args: dict[str, Any] = {"mode": "play", "humans": [0], "bots": {1: "random"},
                            "bot_delay": 0, **kwargs}
    with pytest.raises(WidgetMessageError):
        TenLeaveWidget(Game(2, seed=1), **args)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"bots": ["greedy", "random", "random"]},
        {"bots": []},
        {"bots": ["chess-engine"]},
        {"bots": [3]},
        {"players": 1},
        {"players": None},
        {"players": 2.5},
        {"human": 7},
        {"human": "0"},
        {"human": True},
        {"first": 9},
        {"seed": "x"},
        {"bot_delay": -0.5},
    ],
)
def test_play_bad_arguments_are_widget_errors(kwargs: dict[str, Any]) -> None:
    args: dict[str, Any] = {"players": 3, "human": 0, "bots": ["greedy", "random"], **kwargs}
    with pytest.raises(WidgetMessageError):
        play(**args)


def test_hotseat_bad_arguments_are_widget_errors() -> None:
    for kwargs in ({"players": 6}, {"players": "Ana"}, {"seed": 1.5}, {"show_odds": None}):
        with pytest.raises(WidgetMessageError):
            hotseat(**kwargs)  # type: ignore[arg-type]
