"""The moves panel's whole-game values: the one analysis of the mover's view at the turn's
start (the coach's and the review's), filled in slices, cancelled when the position changes,
ranked by the switch, the ★ only where the analysis separates the best."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest
from helpers import WAIT_S, until

from tenleave_widget import Game
from tenleave_widget.analysis import analyse as one
from tenleave_widget.analysis.analyse import analyse, settings_for
from tenleave_widget.engine.errors import TenLeaveError
from tenleave_widget.table import tasks
from tenleave_widget.table.panels.lookahead import SEED, Thinker, decision_label
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


def the_analysis(s: Session) -> dict[str, Any]:
    """The one analysis of the position the panel shows (what the coach and the review
    read): the mover's view at the turn's start, the panel's budget, the review's seed."""
    g = s.current()
    assert g.to_move is not None
    return dict(analyse(g.view(g.to_move), settings_for(s.lookahead.budget), seed=SEED))


def test_values_fill_in_progressively_then_are_the_one_analysis() -> None:
    one.clear_cache()
    s = session(budget=8)
    s.handle({"kind": "measure", "measure": "game"})
    first = moves(s)
    assert (first["worlds"], first["target"], first["done"]) == (0, 128, False)
    assert all(m["margin"] is None and not m["best"] for m in first["moves"])
    seen = []
    while not s.lookahead.advance(s, ms=0):  # one chunk of worlds a slice
        now = moves(s)
        assert not now["done"] and not now["star"] and not any(m["best"] for m in now["moves"])
        seen.append(now["worlds"])
    assert seen and seen == sorted(seen) and seen[0] > 0  # partial figures came in
    done = moves(s)
    a = the_analysis(s)  # (from the cache the panel filled: the same figures)
    assert done["done"] and done["worlds"] == a["worlds"] == done["target"]
    # one row per group of decisions that play out alike, in the analysis's order
    firsts: dict[int, Any] = {}
    for d in a["decisions"]:
        firsts.setdefault(d["group"], d)
    assert [m["label"] for m in done["moves"]] == [decision_label(d) for d in firsts.values()]
    marked = {a["decisions"][i]["group"] for i in a["equal"]}
    for row, d in zip(done["moves"], firsts.values(), strict=True):
        assert row["kind"] == d["kind"]
        assert row["worse"] == round(d["vs_best"], 3)
        assert row["worse_ci95"] == [round(x, 3) for x in d["vs_best_ci95"]]
        assert row["margin"] == round(d["expected_margin"], 3)
        assert row["best"] == (d["group"] in marked)
    assert done["star"] == a["star"]
    assert {m["kind"] for m in done["moves"]} >= {"play", "play then rotate", "peek first"}


def test_the_panel_and_the_coach_share_one_analysis_both_ways() -> None:
    """The panel's default budget and seed are the review's (the coach's): what one
    analysed, the other reads from the cache."""
    from tenleave_widget.analysis.review.evaluator import DEFAULT_SAMPLES
    from tenleave_widget.table.coach.verdicts import COACH_SEED

    assert SEED == COACH_SEED
    one.clear_cache()
    s = session(budget=DEFAULT_SAMPLES)
    while not s.lookahead.advance(s):
        pass
    g = s.current()
    assert g.to_move is not None
    digest = one.view_digest(g.view(g.to_move), settings=settings_for(DEFAULT_SAMPLES))
    assert one._cached(digest) is not None  # the panel's analysis, for the coach
    # the other way: a position analysed first is done in the panel at once
    one.clear_cache()
    fresh = session(budget=DEFAULT_SAMPLES)
    the_analysis(fresh)
    fresh.lookahead.sync(fresh)
    ev = fresh.lookahead.evaluation
    assert ev is not None and ev.done and moves(fresh)["done"]


def test_the_switch_ranks_by_the_whole_game_and_marks_its_best() -> None:
    s = session(budget=8)
    while not s.lookahead.advance(s):
        pass
    swat = moves(s)
    assert swat["measure"] == "swat"
    low = min(m["expected_penalty"] for m in swat["moves"])
    assert [m["best"] for m in swat["moves"]] == \
        [m["expected_penalty"] <= low + 1e-9 for m in swat["moves"]]
    assert {m["kind"] for m in swat["moves"]} <= {"play", "wake"}
    s.handle({"kind": "measure", "measure": "game"})
    game = moves(s)
    assert game["measure"] == "game"
    a = the_analysis(s)
    assert game["moves"][0]["worse"] == 0.0 and game["moves"][0]["best"]
    assert game["star"] == a["star"]
    if game["star"]:
        assert sum(m["best"] for m in game["moves"]) == 1
    # the switch changes the ranking, not the analysis
    assert game["worlds"] == swat["worlds"] and s.lookahead.evaluation is not None
    before = s.state()
    with pytest.raises(TenLeaveError, match="measure must be one of swat, game"):
        s.handle({"kind": "measure", "measure": "both"})
    assert s.state() == before


def test_a_position_change_cancels_the_analysis() -> None:
    one.clear_cache()
    s = session(budget=40)
    s.lookahead.advance(s, ms=0)
    ev = s.lookahead.evaluation
    assert ev is not None and 0 < ev.worlds and not ev.done
    shown = moves(s)
    card = s.state()["offers"]["play_cards"][0]
    s.handle({"kind": "play", "card": card, "queue": 0})  # a card played: no moves shown
    assert s.lookahead.advance(s) is True
    assert s.lookahead.evaluation is None
    assert moves(s)["target"] == 0 and moves(s)["moves"] == []
    # back to the same position (the turn taken back): its analysis goes on where it
    # was, the panel as it was until it has more
    s.handle({"kind": "reset"})
    assert moves(s) == shown
    s.lookahead.advance(s, ms=0)
    again = s.lookahead.evaluation
    assert again is ev and again.worlds > shown["worlds"]
    # the analysis a fresh panel gives the position (the cache cleared: played again)
    while not s.lookahead.advance(s):
        pass
    one.clear_cache()
    fresh = session(budget=40)
    while not fresh.lookahead.advance(fresh):
        pass
    assert moves(s) == moves(fresh)


def test_the_steps_of_a_turn_keep_the_analysis_and_show_what_follows_them() -> None:
    s = session(budget=8)
    s.handle({"kind": "measure", "measure": "game"})
    while not s.lookahead.advance(s):
        pass
    ev = s.lookahead.evaluation
    a = the_analysis(s)
    mover = s.current().to_move
    assert mover is not None
    start = s.current().view(mover)["queues"]
    peeks = [(q, i) for q, i in s.state()["offers"]["peek"] if start[q][i]["value"] is None]
    assert peeks  # a card the mover cannot see: a peek first
    q, i = peeks[0]
    s.handle({"kind": "peek", "queue": q, "position": i})
    assert s.lookahead.advance(s) is True and s.lookahead.evaluation is ev  # not again
    rows = moves(s)["moves"]
    value = s.shown().view(mover)["queues"][q][i]["value"]
    peek = next(d for d in a["decisions"] if d["kind"] == "peek first"
                and d["turn"]["peek"] == [q, i])
    branch = next(b for b in peek["then"] if b["value"] == value)
    card, queue = branch["turn"]["play"]
    assert [m["label"] for m in rows] == [f"having seen a {value}: {card} on queue {queue + 1}"]
    assert rows[0]["worse"] == round(peek["vs_best"], 3)
    # a rotation first (in a fresh table: a peek is final): the plays after it
    s = session(budget=8)
    s.handle({"kind": "measure", "measure": "game"})
    s.handle({"kind": "rotate", "queue": 0})
    while not s.lookahead.advance(s):
        pass
    rows = moves(s)["moves"]
    assert rows and all(m["kind"] == "rotate first" and m["label"].startswith("rotate queue 1")
                        for m in rows)


def test_another_seats_moves_are_not_evaluated_in_a_seats_view() -> None:
    g = Game(["Ana", "Ben"], seed=5)
    s = Session(g, check_config(g, humans=[0], bots={1: "greedy"}))
    s.lookahead.enabled = True
    s.handle({"kind": "play", "card": s.state()["offers"]["play_cards"][0], "queue": 0})
    s.handle({"kind": "end"})  # Ben (a bot) is to move: Ana sees none of his moves
    assert s.lookahead.advance(s) is True
    assert s.lookahead.evaluation is None and moves(s)["moves"] == []

def test_the_thinker_fills_the_panel_on_a_running_loop_and_follows_the_position() -> None:
    one.clear_cache()
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
        # done, and its last figures published to the panel (the thinker pushes them on
        # the loop once the chunk under way comes back)
        await until(lambda: s.lookahead.evaluation is not None
                    and s.lookahead.evaluation.done and moves(s)["done"])
        assert s.lookahead.evaluation is first  # taken back: the same evaluation went on

    asyncio.run(main())
    # (the analysis may have ended in the chunk under way while the turn was previewed:
    # then the panel came back full, with no chunk of its own to push)
    assert pushes == sorted(pushes) and all(n > 0 for n in pushes)
    assert moves(s)["done"] and moves(s)["worlds"] == the_analysis(s)["worlds"]


def test_the_thinker_pushes_each_chunk_until_the_analysis_is_done() -> None:
    one.clear_cache()
    s = session(budget=24)
    pushes: list[tuple[int, bool]] = []

    async def main() -> None:
        Thinker(s, lambda: pushes.append((moves(s)["worlds"], moves(s)["done"]))).kick()
        await until(lambda: bool(pushes) and pushes[-1][1])  # the final figures pushed

    asyncio.run(main())
    assert pushes and pushes[-1][1] and not any(done for _, done in pushes[:-1])
    assert [n for n, _ in pushes] == sorted(n for n, _ in pushes)
    assert moves(s)["moves"] and moves(s)["worlds"] == the_analysis(s)["worlds"]


def test_the_widget_thinks_in_a_script_and_offers_the_lookahead_bot() -> None:
    g = Game(["Ana", "Ben", "Cy"], seed=2)
    w = TenLeaveWidget(g, humans=[0], bots={1: "lookahead", 2: "greedy"}, bot_delay=0, seed=1)
    w.session.lookahead.budget = 8
    assert w.panels["moves"]["worlds"] == 0
    w.think()
    assert w.panels["moves"]["done"] and w.panels["moves"]["worlds"] >= 8
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
        loop = asyncio.get_running_loop()
        deadline = loop.time() + WAIT_S
        while loop.time() < deadline:  # not a timing test: wait until the bots are done
            await asyncio.sleep(0.001)
            ticks += 1
            if not w.table.busy:
                break
        turns = [t.to_json() for t in w.game.turns]
        # undo while the lookahead bot thinks: its decision is dropped. The worker is held
        # until the undo, so that the bot's decision (queued behind it) cannot be applied
        # first however quickly it is made
        gate = threading.Event()
        tasks.WORKER.submit(gate.wait, WAIT_S)
        w.handle_intent({"kind": "play", "card": w.table.offers["play_cards"][0],
                         "queue": 1})
        w.handle_intent({"kind": "end"})
        await asyncio.sleep(0.02)  # past the bot's delay (0.01 s): its decision is queued
        w.handle_intent({"kind": "undo"})
        after_undo = w.game.turns_applied
        gate.set()
        for _ in range(200):
            await asyncio.sleep(0.005)
        return turns, ticks, after_undo, [t.to_json() for t in w.game.turns]

    turns, ticks, after_undo, final = run_in_thread(scenario)
    assert turns == expected
    assert ticks > 1
    assert after_undo == 3 and final == expected


def test_a_new_position_reaches_the_page_with_its_first_figures_in_one_state() -> None:
    """On a running loop, once a table's first analysis came back, the state that shows
    the human's next position (after the bots' turns) already carries the analysis's
    first figures: its first step, the same figures as the one analysis's first step of
    that view; the figures fill in after it. The table's first state does not wait for
    its first analysis."""
    one.clear_cache()

    async def scenario() -> tuple[list[tuple[int, int | None, int]], Any, Any]:
        w = play(players=3, human=0, bots=["greedy", "random"], seed=4, bot_delay=0)
        assert w.panels["moves"]["worlds"] == 0  # the first state: no figures yet
        await until_async(lambda: w.panels["moves"]["done"])
        shown: list[tuple[int, int | None, int]] = []
        push = w.table.show

        def spy(state: Any) -> None:
            shown.append((state["view"]["turns_applied"], state["view"]["to_move"],
                          state["panels"]["moves"]["worlds"]))
            push(state)

        w.table.show = spy  # type: ignore[method-assign]
        w.handle_intent({"kind": "play", "card": w.table.offers["play_cards"][0],
                         "queue": 0})
        w.handle_intent({"kind": "end"})
        g = w.game
        assert g.to_move == 0
        first = one.Analysing(g.view(0), w.session.lookahead.settings, seed=SEED)
        first.step()
        # the panel's figures as the state carried them, before any chunk came back
        figures = w.session.lookahead.result
        await until_async(lambda: w.session.lookahead.evaluation is not None
                          and w.session.lookahead.evaluation.done)
        return shown, figures, first.figures()

    shown, figures, expected = run_in_thread(scenario)
    position = [s for s in shown if s[0] == 3 and s[1] == 0]
    assert position and position[0][2] == one.FIRST_STEP  # the first state of it
    assert figures == expected


def test_prime_leaves_an_analysis_the_worker_has_in_hand() -> None:
    """The first step is played on the loop only for an analysis no chunk has taken: with
    a chunk of the new analysis waiting in the worker, it is left to that chunk (never two
    threads stepping one analysis)."""
    one.clear_cache()
    s = session(budget=16)

    async def main() -> int:
        thinker = Thinker(s, lambda: None)
        thinker.kick()
        await until_async(lambda: moves(s)["done"])  # the first analysis came back
        s.lookahead.budget = 24  # another analysis of the position
        gate = threading.Event()
        tasks.WORKER.submit(gate.wait, WAIT_S)  # the worker held: the chunk waits
        thinker.kick()
        ev = s.lookahead.evaluation
        assert ev is not None
        thinker.prime()
        worlds = ev.worlds
        gate.set()
        await until_async(lambda: moves(s)["done"])
        return worlds

    assert run_in_thread(main) == 0


async def until_async(ready: Any) -> None:
    """Wait on the running loop until ``ready()`` (bounded by the suite's wait)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + WAIT_S
    while not ready():
        assert loop.time() < deadline, "not ready in time"
        await asyncio.sleep(0.005)


def test_the_widget_checks_bot_names_with_the_engines_one_check() -> None:
    from tenleave_widget.engine.errors import IntentError

    with pytest.raises(IntentError, match=r"seat 1: unknown bot 'smart' \(choose from "
                       r"random, greedy, lookahead, reader\)"):
        play(players=2, human=0, bots=["smart"])
    w = play(players=2, human=0, bots=["lookahead"], bot_delay=0)
    assert w.session.bots == {1: "lookahead"}
