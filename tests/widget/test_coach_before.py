"""The coach asks before a bad move (issue 23, item 1, ``coach="before"``), its control on
the table, "Show me" and the game-over summary (items 1's control, 3 and 4)."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from tenleave_widget.analysis.analyse import Analysis, analyse, settings_for
from tenleave_widget.table.coach.check import ASK_LOSS
from tenleave_widget.table.coach.verdicts import COACH_SEED
from tenleave_widget.widget import TenLeaveWidget, WidgetMessageError, hotseat, play

SAMPLES = 3
DEALS = (2, 3, 5, 6)
"""Deals (``play``'s seeds) tried for a position with a clear blunder, in order."""


def lead_in(seed: int = 2, turns: int = 1) -> tuple[TenLeaveWidget, int]:
    """A 2-seat table against a greedy bot whose human plays its first ``turns`` turns
    (the first card offered, on the first queue offered) with the coach off, then turns
    the coach to "before": the table and the turn the human is to play. (On a first turn
    no move is clearly worse than the best at these budgets: the queues are empty.)"""
    w = play(players=2, human=0, bots=["greedy"], seed=seed, bot_delay=0,
             coach_samples=SAMPLES)
    for _ in range(turns):
        o = w.table.offers
        w.handle_intent({"kind": "play", "card": o["play_cards"][0],
                         "queue": o["play_queues"][0]})
        w.handle_intent({"kind": "end"})
    w.handle_intent({"kind": "coach", "mode": "before"})
    assert w.table.offers["active"] and w.table.coach["mode"] == "before"
    return w, w.game.turns_applied


def analysis_of(w: TenLeaveWidget) -> Analysis:
    """The one analysis of the human's position at the coach's budget and seed (the
    analysis the coach's question reads)."""
    return analyse(w.session.live.view(0), settings_for(SAMPLES), seed=COACH_SEED)


def asked_table() -> tuple[TenLeaveWidget, dict[str, Any]]:
    """A table whose coach asks, at its default threshold, about the human's turn: on the
    first of a few deals whose position has a play the analysis finds a blunder (more
    than twice the threshold worse than the best), that play, the question pending. The
    table and the play that was asked."""
    for seed in DEALS:
        w, _k = lead_in(seed)
        assert w.coach_threshold == ASK_LOSS
        a = analysis_of(w)
        worst = max((d for d in a["decisions"] if d["kind"] == "play"),
                    key=lambda d: d["vs_best"])
        if worst["vs_best"] <= 2 * ASK_LOSS:
            continue
        card, queue = worst["turn"]["play"]
        move = {"kind": "play", "card": card, "queue": queue}
        w.handle_intent(move)
        w.handle_intent({"kind": "end"})
        if w.table.coach["ask"] is None:
            raise AssertionError(f"a blunder was not asked about: {worst}")
        return w, move
    raise AssertionError("no deal has a blunder to ask about")


def test_a_move_about_as_good_as_the_best_is_not_asked() -> None:
    """The question's other side: a play the analysis cannot tell from its best (another
    decision in its ``equal``, less than a point worse) is played without a question at
    the coach's threshold, and its verdict follows."""
    for seed in DEALS:
        w, k = lead_in(seed)
        a = analysis_of(w)
        top = a["decisions"][0]["group"]
        near = [a["decisions"][i] for i in a["equal"]
                if a["decisions"][i]["kind"] == "play" and a["decisions"][i]["group"] != top
                and a["decisions"][i]["vs_best"] < 1]
        if near:
            break
    else:
        raise AssertionError("no deal has a play about as good as the best")
    assert w.coach_threshold == ASK_LOSS
    card, queue = min(near, key=lambda d: d["vs_best"])["turn"]["play"]
    w.handle_intent({"kind": "play", "card": card, "queue": queue})
    w.handle_intent({"kind": "end"})
    assert w.table.coach["ask"] is None and w.game.turns_applied >= k + 2
    assert [v["turn"] for v in w.verdicts] == [k]
    assert w.verdicts[0]["label"] in ("best", "good", "inaccuracy")


def test_end_turn_asks_first_and_take_it_back_undoes_the_choice() -> None:
    w, move = asked_table()
    k = w.game.turns_applied
    ask = w.table.coach["ask"]
    assert ask["text"].startswith("Are you sure? ") and ask["text"].endswith(" better.")
    # what to do differently and its worth in whole points; the figures behind Details
    assert re.search(r"(Instead: |Then |Rotate ).*, (about \d+ points?|less than a point) "
                     r"better\.$", ask["text"]), ask["text"]
    assert "interval" in ask["detail"] and "interval" not in ask["text"]
    assert w.game.turns_applied == k and w.table.pending  # the turn is held, not played
    assert not w.table.offers["active"] and not w.table.offers["end"]
    with pytest.raises(WidgetMessageError, match="answer the coach first"):
        w.handle_intent({"kind": "end"})
    with pytest.raises(WidgetMessageError, match="answer the coach first"):
        w.handle_intent({"kind": "play", "card": move["card"], "queue": move["queue"]})
    w.handle_intent({"kind": "confirm", "answer": "back"})
    assert w.table.coach["ask"] is None and w.table.pending == [] and w.game.turns_applied == k
    assert move["card"] in w.table.view["hands"][0]["cards"]  # back in the hand
    assert w.table.offers["active"] and "Taken back" in w.table.message["text"]
    # the same move again: asked again; played anyway, then judged as in "after"
    w.handle_intent(move)
    w.handle_intent({"kind": "end"})
    assert w.table.coach["ask"] == ask
    w.handle_intent({"kind": "confirm", "answer": "play"})
    assert w.table.coach["ask"] is None and w.game.turns_applied >= k + 2
    assert w.record()["turns"][k]["play"] == [move["card"], move["queue"]]
    assert [v["turn"] for v in w.verdicts] == [k]


def test_the_answers_are_checked() -> None:
    w = play(players=2, human=0, bots=["greedy"], seed=1, bot_delay=0, coach="before",
             coach_samples=SAMPLES)
    with pytest.raises(WidgetMessageError, match="has not asked anything"):
        w.handle_intent({"kind": "confirm", "answer": "play"})
    w2, _ = asked_table()
    k = w2.game.turns_applied
    for bad in ("yes", "", "PLAY"):
        with pytest.raises(WidgetMessageError, match="the answer must be"):
            w2.handle_intent({"kind": "confirm", "answer": bad})
    for forged in ({"kind": "confirm"}, {"kind": "confirm", "answer": 1},
                   {"kind": "confirm", "answer": "play", "turn": 0},
                   {"kind": "coach", "mode": None}, {"kind": "showme"},
                   {"kind": "showme", "turn": "0"}):
        with pytest.raises(WidgetMessageError):
            w2.handle_intent(forged)
    assert w2.table.coach["ask"] is not None and w2.game.turns_applied == k  # unchanged
    assert not w2.send_intent({"kind": "confirm", "answer": "maybe"})
    assert w2.table.message["level"] == "error"


def test_a_screen_not_ready_lets_the_turn_pass_and_says_so() -> None:
    w = play(players=2, human=0, bots=["greedy"], seed=5, bot_delay=0, coach="before",
             coach_samples=SAMPLES)
    w.coach_threshold = 0.0
    o = w.table.offers
    w.handle_intent({"kind": "play", "card": o["play_cards"][0], "queue": 0})
    w.session.coach.check.forget()  # as if the screen were still running
    w.handle_intent({"kind": "end"})
    assert w.game.turns_applied >= 1 and w.table.coach["ask"] is None
    assert [v["turn"] for v in w.verdicts] == [0]  # the verdict still follows


def test_the_coach_control_changes_the_coach() -> None:
    w = play(players=2, human=0, bots=["greedy"], seed=2, bot_delay=0, coach_samples=SAMPLES)
    assert w.table.coach["mode"] == "off" and w.table.coach["control"]
    for mode in ("after", "before", "off", "before"):
        w.handle_intent({"kind": "coach", "mode": mode})
        assert w.table.coach["mode"] == mode
    with pytest.raises(WidgetMessageError, match="the coach must be one of"):
        w.handle_intent({"kind": "coach", "mode": "loud"})
    assert w.table.coach["mode"] == "before"
    w.handle_intent({"kind": "coach", "mode": "after"})
    o = w.table.offers
    w.handle_intent({"kind": "play", "card": o["play_cards"][0], "queue": 0})
    w.handle_intent({"kind": "end"})
    assert [v["turn"] for v in w.verdicts] == [0]


def test_a_replay_has_no_coach_control() -> None:
    r = play(players=2, human=0, bots=["greedy"], seed=2, bot_delay=0)
    from tenleave_widget.widget import replay
    rw = replay(r.record())
    assert rw.table.coach["control"] is False
    with pytest.raises(WidgetMessageError, match="the coach is for play"):
        rw.handle_intent({"kind": "coach", "mode": "after"})


def test_show_me_draws_the_better_move_on_the_position_before_the_turn() -> None:
    w, move = asked_table()
    k = w.game.turns_applied
    w.handle_intent({"kind": "showme", "turn": k})
    c = w.table.coach
    assert c["showing"] == k and c["ask"] is not None
    best = w.table.best
    assert best is not None and best["text"].startswith(("The better move: ",
                                                         "About equally good: "))
    assert best["card"] in w.table.view["hands"][0]["cards"]  # before the turn: in hand
    assert w.table.pending and "outlined" in w.table.status
    w.handle_intent({"kind": "showme", "turn": None})
    assert w.table.coach["showing"] is None and w.table.best is None
    with pytest.raises(WidgetMessageError, match="no better move"):
        w.handle_intent({"kind": "showme", "turn": k + 5})
    w.handle_intent({"kind": "confirm", "answer": "play"})
    # after the turn: the verdict's "Show me" moves the table back to the turn's position
    v = w.verdicts[0]
    assert v["turn"] == k and v["best"] != v["played"]
    assert w.table.coach["show"] == k
    w.handle_intent({"kind": "showme", "turn": k})
    assert w.table.view["turns_applied"] == k and not w.table.offers["active"]
    assert w.table.best is not None and w.table.best["card"] == v["best"]["play"][0]
    w.handle_intent({"kind": "showme", "turn": None})
    assert w.table.view["turns_applied"] == w.game.turns_applied


def play_out(w: TenLeaveWidget, rng: random.Random) -> None:
    """The humans play random moves to the end (answering the coach: play it anyway)."""
    while not w.game.finished:
        if w.table.cover["shown"]:
            w.handle_intent({"kind": "uncover"})
        if w.table.coach["ask"] is not None:
            w.handle_intent({"kind": "confirm", "answer": "play"})
            continue
        o = w.table.offers
        w.handle_intent({"kind": "play", "card": rng.choice(o["play_cards"]),
                         "queue": rng.choice(o["play_queues"])})
        w.handle_intent({"kind": "end"})


def test_game_over_summary_and_second_looks() -> None:
    w = play(players=2, human=0, bots=["greedy"], seed=7, bot_delay=0, coach="after",
             coach_samples=2)
    play_out(w, random.Random(7))
    c = w.table.coach
    t = w.tally(0)
    assert c["summary"].startswith(f"Your game: {t['decisions']} decisions")
    worth = [v for v in w.verdicts if v["label"] in ("inaccuracy", "mistake", "blunder")
             and v["best"] != v["played"]]
    assert len(c["looks"]) == min(3, len(worth))
    assert [x["turn"] for x in c["looks"]] == sorted(x["turn"] for x in c["looks"])
    for look in c["looks"]:
        assert look["text"].startswith(f"Turn {look['turn'] + 1}: ")
        w.handle_intent({"kind": "showme", "turn": look["turn"]})
        assert w.table.view["turns_applied"] == look["turn"]
        assert w.table.best is not None and not w.table.view["finished"]
        # the log under the board tells the turns that led to that board, not the last ones
        told = [t["turn"] for t in w.table.narration["turns"]]
        assert told == list(range(told[0] if told else 0, look["turn"])), (told, look)
    w.handle_intent({"kind": "showme", "turn": None})
    assert w.table.view["finished"]


def test_hotseat_the_question_and_the_summary_are_the_seats_own() -> None:
    h = hotseat(players=2, seed=3, coach="before", coach_samples=2)
    h.coach_threshold = 0.0
    rng = random.Random(3)
    asked = 0
    while not h.game.finished:
        if h.table.cover["shown"]:
            c = h.table.coach
            assert c["ask"] is None and c["show"] is None and c["summary"] == ""
            assert not c["control"]
            h.handle_intent({"kind": "uncover"})
        if h.table.coach["ask"] is not None:
            asked += 1
            h.handle_intent({"kind": "confirm", "answer": "play"})
            continue
        o = h.table.offers
        h.handle_intent({"kind": "play", "card": rng.choice(o["play_cards"]),
                         "queue": rng.choice(o["play_queues"])})
        h.handle_intent({"kind": "end"})
    assert asked > 0
    seat = h.perspective
    assert seat is not None
    looks = h.table.coach["looks"]
    assert all(h.verdicts[[v["turn"] for v in h.verdicts].index(x["turn"])]["seat"] == seat
               for x in looks)
    other = [v["turn"] for v in h.verdicts if v["seat"] != seat]
    with pytest.raises(WidgetMessageError, match="no better move"):
        h.handle_intent({"kind": "showme", "turn": other[0]})


def test_the_question_and_the_verdict_after_it_give_the_same_figures() -> None:
    """One truth: "Are you sure?" quotes the verdict that follows the turn."""
    w, _ = asked_table()
    detail = w.table.coach["ask"]["detail"]
    w.handle_intent({"kind": "confirm", "answer": "play"})
    v = w.verdicts[0]
    lo, hi = v["loss_ci95"]
    assert f"{v['loss']:.2f} points" in detail and f"{lo:.2f} to {hi:.2f}" in detail, \
        (detail, v["loss"], v["loss_ci95"])
