"""The moves panel's whole-game values (issue 9, item 4): filled in slices from the mover's
view, cancelled when the position changes, ranked by the switch, the best marked."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest

from tenleave_widget import Game
from tenleave_widget.analysis.lookahead import Budget, evaluate_view
from tenleave_widget.engine.errors import TenLeaveError
from tenleave_widget.table.panels.lookahead import Thinker
from tenleave_widget.table.session.config import check_config
from tenleave_widget.table.session.machine import Session
from tenleave_widget.widget import TenLeaveWidget, play


def session(budget: int = 16, seed: int = 3) -> Session:
    g = Game(["Ana", "Ben", "Cy"], seed=seed)
    for _ in range(4):  # a few turns in: cards on the table, some unknown to Ana
        g.apply(g.legal_turns[len(g.legal_turns) // 3])
    assert g.to_move is not None
    bots = {o: "greedy" for o in range(3) if o != g.to_move}  # moved only by a runner
    s = Session(g, check_config(g, humans=[g.to_move], bots=bots))
    s.lookahead.enabled, s.lookahead.budget = True, budget
    return s


def moves(s: Session) -> dict[str, Any]:
    return dict(s.state()["panels"]["moves"])


def test_values_fill_in_progressively_then_match_the_views_evaluation() -> None:
    s = session(budget=24)
    first = moves(s)
    assert (first["worlds"], first["target"]) == (0, 24)
    assert all(m["margin"] is None and m["final"] is None for m in first["moves"])
    seen = []
    while not s.lookahead.advance(s, ms=0):  # one world per slice
        seen.append(moves(s)["worlds"])
    assert seen == list(range(1, 24))
    done = moves(s)
    assert done["worlds"] == 24
    # the same figures as evaluating the mover's view (never the game) directly
    ev = s.lookahead.evaluation
    assert ev is not None
    direct = evaluate_view(s.shown().view(s.seat), Budget(samples=24), ev_seed(s),
                           rotations=False)
    plays = {f"{m['turn']['play'][0]} on queue {m['turn']['play'][1] + 1}": m
             for m in direct["moves"] if "wake" not in m["turn"]}
    wakes = [m for m in direct["moves"] if m["turn"].get("wake")]
    for row in done["moves"]:
        if row["label"] == "wake SleepKid":  # waking, then the best play after the swat
            m = min(wakes, key=lambda m: m["expected_margin"])
        else:
            m = plays[row["label"]]
        assert row["margin"] == round(m["expected_margin"], 3)
        assert row["final"] == round(m["expected_final_penalty"], 3)
        assert row["margin_ci95"] == [round(x, 3) for x in m["margin_ci95"]]
        lo, hi = row["final_ci95"]
        assert lo <= row["final"] <= hi
    # the one-swat values are kept as they were
    assert sorted((m["label"], m["expected_penalty"]) for m in done["moves"]) == \
        sorted((m["label"], m["expected_penalty"]) for m in first["moves"])


def ev_seed(s: Session) -> int:
    """The seed the panel used (the same position gets the same numbers)."""
    import random

    key = s.lookahead._key
    assert key is not None
    return random.Random(
        f"tenleave-panel/{s.config.seed}/{key[0]}/{key[2]}/{key[3]}/{key[4]}"
    ).getrandbits(64)


def test_the_switch_ranks_by_the_whole_game_and_marks_its_best() -> None:
    s = session(budget=16)
    while not s.lookahead.advance(s):
        pass
    swat = moves(s)
    assert swat["measure"] == "swat"
    low = min(m["expected_penalty"] for m in swat["moves"])
    assert [m["best"] for m in swat["moves"]] == \
        [m["expected_penalty"] <= low + 1e-9 for m in swat["moves"]]
    s.handle({"kind": "measure", "measure": "game"})
    game = moves(s)
    assert game["measure"] == "game"
    margins = [m["margin"] for m in game["moves"]]
    assert margins == sorted(margins)
    assert [m["best"] for m in game["moves"]] == [x == margins[0] for x in margins]
    assert game["moves"][0]["best"]
    # the switch changes the ranking, not the evaluation
    assert game["worlds"] == 16 and s.lookahead.evaluation is not None
    before = s.state()
    with pytest.raises(TenLeaveError, match="measure must be one of swat, game"):
        s.handle({"kind": "measure", "measure": "both"})
    assert s.state() == before


def test_a_position_change_cancels_the_evaluation() -> None:
    s = session(budget=40)
    s.lookahead.advance(s, ms=0.001)
    ev = s.lookahead.evaluation
    assert ev is not None and 0 < ev.worlds < 40
    shown = moves(s)
    card = s.state()["offers"]["play_cards"][0]
    s.handle({"kind": "play", "card": card, "queue": 0})  # a card played: no moves shown
    assert s.lookahead.advance(s) is True
    assert s.lookahead.evaluation is None
    assert moves(s)["target"] == 0 and moves(s)["moves"] == []
    # back to the same position (the turn taken back): its evaluation goes on where it
    # was, the panel as it was until it has more
    s.handle({"kind": "reset"})
    assert moves(s) == shown
    s.lookahead.advance(s, ms=0.001)
    again = s.lookahead.evaluation
    assert again is ev and again.worlds > shown["worlds"]
    # the same worlds as a fresh evaluation of the position plays
    while not s.lookahead.advance(s):
        pass
    fresh = session(budget=40)
    while not fresh.lookahead.advance(fresh):
        pass
    assert moves(s) == moves(fresh)
    # a peek changes the view: a new evaluation of the plays left (waking is not legal)
    peeks = s.state()["offers"]["peek"]
    if peeks:
        q, i = peeks[0]
        s.handle({"kind": "peek", "queue": q, "position": i})
        while not s.lookahead.advance(s):
            pass
        assert s.lookahead.evaluation is not again
        rows = moves(s)["moves"]
        assert rows and all(m["margin"] is not None for m in rows)
        assert all(m["label"] != "wake SleepKid" for m in rows)


def test_another_seats_moves_are_not_evaluated_in_a_seats_view() -> None:
    g = Game(["Ana", "Ben"], seed=5)
    s = Session(g, check_config(g, humans=[0], bots={1: "greedy"}))
    s.lookahead.enabled = True
    s.handle({"kind": "play", "card": s.state()["offers"]["play_cards"][0], "queue": 0})
    s.handle({"kind": "end"})  # Ben (a bot) is to move: Ana sees none of his moves
    assert s.lookahead.advance(s) is True
    assert s.lookahead.evaluation is None and moves(s)["moves"] == []


def test_the_thinker_fills_the_panel_on_a_running_loop_and_follows_the_position() -> None:
    s = session(budget=24)
    pushes: list[int] = []

    def changed() -> None:
        pushes.append(moves(s)["worlds"])

    async def main() -> None:
        thinker = Thinker(s, changed)
        thinker.kick()
        await asyncio.sleep(0)  # one slice
        first = s.lookahead.evaluation
        card = s.state()["offers"]["play_cards"][0]
        s.handle({"kind": "play", "card": card, "queue": 0})
        s.state()  # shown (as the controller does after every intent): no moves now
        assert s.lookahead.evaluation is None
        s.handle({"kind": "reset"})
        thinker.kick()
        for _ in range(2000):
            await asyncio.sleep(0.005)
            ev = s.lookahead.evaluation
            if ev is not None and ev.done:
                break
        assert s.lookahead.evaluation is first  # taken back: the same evaluation went on

    asyncio.run(main())
    # (the evaluation may have ended in the chunk under way while the turn was previewed:
    # then the panel came back full, with no chunk of its own to push)
    assert pushes == sorted(pushes) and all(0 < n <= 24 for n in pushes)
    assert moves(s)["worlds"] == 24


def test_the_thinker_pushes_each_chunk_until_the_evaluation_is_done() -> None:
    s = session(budget=24)
    pushes: list[int] = []

    async def main() -> None:
        Thinker(s, lambda: pushes.append(moves(s)["worlds"])).kick()
        for _ in range(2000):
            await asyncio.sleep(0.005)
            ev = s.lookahead.evaluation
            if ev is not None and ev.done and pushes and pushes[-1] == 24:
                break

    asyncio.run(main())
    assert pushes and pushes[-1] == 24 and pushes == sorted(pushes)


def test_the_widget_thinks_in_a_script_and_offers_the_lookahead_bot() -> None:
    g = Game(["Ana", "Ben", "Cy"], seed=2)
    w = TenLeaveWidget(g, humans=[0], bots={1: "lookahead", 2: "greedy"}, bot_delay=0, seed=1)
    w.session.lookahead.budget = 8
    assert w.panels["moves"]["worlds"] == 0
    w.think()
    assert w.panels["moves"]["worlds"] == 8
    assert w.send_intent({"kind": "play", "card": w.table.offers["play_cards"][0],
                          "queue": 0})
    assert w.send_intent({"kind": "end"})
    assert w.game.turns_applied >= 3  # the lookahead and greedy bots answered
    assert w.game.to_move == 0


def test_a_bare_session_computes_nothing_the_export_draws_it_as_before() -> None:
    g = Game(["Ana", "Ben"], seed=5)
    s = Session(g, check_config(g, humans=[0], bots={1: "greedy"}))
    assert s.lookahead.advance(s) is True and s.lookahead.evaluation is None
    chart = moves(s)
    assert chart["target"] == 0 and chart["moves"]
    assert all(m["margin"] is None for m in chart["moves"])


def run_in_thread(scenario: Any) -> Any:
    """``asyncio.run(scenario())`` in a thread of its own (another test may leave this
    thread's loop running)."""
    results: list[Any] = []
    thread = threading.Thread(target=lambda: results.append(asyncio.run(scenario())))
    thread.start()
    thread.join()
    return results[0]


def test_a_lookahead_bot_thinks_in_a_worker_thread_on_a_running_loop() -> None:
    """Its turn is the one it plays without a loop (same seed, same position), applied on
    the loop; while it thinks the loop keeps running (the ticks counted); a position
    change while it thinks drops its turn."""
    script = play(players=3, human=0, bots=["lookahead", "greedy"], seed=4, bot_delay=0)
    script.handle_intent({"kind": "play", "card": "2", "queue": 0})
    script.handle_intent({"kind": "end"})
    expected = [t.to_json() for t in script.game.turns]

    async def scenario() -> tuple[list[Any], int, int, list[Any]]:
        w = play(players=3, human=0, bots=["lookahead", "greedy"], seed=4, bot_delay=0.01)
        w.handle_intent({"kind": "play", "card": "2", "queue": 0})
        w.handle_intent({"kind": "end"})
        ticks = 0
        for _ in range(3000):  # not a timing test: wait until the bots are done
            await asyncio.sleep(0.001)
            ticks += 1
            if not w.table.busy:
                break
        turns = [t.to_json() for t in w.game.turns]
        # undo while the lookahead bot thinks: its decision is dropped
        w.handle_intent({"kind": "play", "card": w.table.offers["play_cards"][0],
                         "queue": 1})
        w.handle_intent({"kind": "end"})
        await asyncio.sleep(0.02)  # the bot is thinking (in the worker thread)
        w.handle_intent({"kind": "undo"})
        after_undo = w.game.turns_applied
        for _ in range(200):
            await asyncio.sleep(0.005)
        return turns, ticks, after_undo, [t.to_json() for t in w.game.turns]

    turns, ticks, after_undo, final = run_in_thread(scenario)
    assert turns == expected
    assert ticks > 1
    assert after_undo == 3 and final == expected


def test_the_widget_checks_bot_names_with_the_engines_one_check() -> None:
    from tenleave_widget.engine.errors import IntentError

    with pytest.raises(IntentError, match=r"seat 1: unknown bot 'smart' \(choose from "
                       r"random, greedy, lookahead, reader\)"):
        play(players=2, human=0, bots=["smart"])
    w = play(players=2, human=0, bots=["lookahead"], bot_delay=0)
    assert w.session.bots == {1: "lookahead"}
