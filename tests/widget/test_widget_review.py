"""The review panel of the replay widget: computed in the background, cached, saved with
the record, clicked through; a seat's view shows that seat's decisions only."""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import pytest

from tenleave_widget import load_record
from tenleave_widget.analysis.review import Review
from tenleave_widget.engine.turn import Turn
from tenleave_widget.table.panels.figures import REVIEW_SYMBOLS
from tenleave_widget.table.protocol import BestMove
from tenleave_widget.widget import play, replay

pytestmark = pytest.mark.slow  # every test reviews a whole game, in the widget

GAME = Path(__file__).resolve().parents[2] / "examples" / "games" / "game-3-seats.json"
T = TypeVar("T")


def in_fresh_thread(scenario: Callable[[], T]) -> T:
    """Run ``scenario`` in a thread of its own, which has no event loop: earlier tests in
    the session (Playwright's sync API, a kernel client) may leave a loop marked running
    in the main thread, and the review panel schedules on a running loop."""
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(scenario).result()


def review_lines(w: object) -> list[str]:
    state = w.session.state()  # type: ignore[attr-defined]
    return [line for t in state["narration"]["turns"] for line in t["lines"]
            if line.startswith("Review:")]


def test_review_in_replay_mode_labels_graph_summary_best_move(tmp_path: Path) -> None:
    in_fresh_thread(lambda: review_in_replay_mode(tmp_path))


def review_in_replay_mode(tmp_path: Path) -> None:
    w = replay(GAME, turn=17)
    panel = w.review_panel
    assert panel is not None and w.review_result is None and review_lines(w) == []
    w.review(samples=2, seed=1)  # no running loop here: computed at once
    r = w.review_result
    assert r is not None and len(r.turns) == 30
    # the graph (a panel of the table): one trace per seat, a point per decision; a click
    # on one sends the goto intent of its turn (customdata)
    graph = w.figures()["review"]
    seats = [t for t in graph.data if t.meta != "key"]  # the rest: the markers' key
    assert [len(t.x) for t in seats] == [10, 10, 10]
    turn = int(seats[0].customdata[4])
    assert w.send_intent({"kind": "goto", "turn": turn}) and w.turn == turn
    panel.jump(12)
    assert w.turn == 12
    # the narration labels the decision just shown; the summary names every seat
    (line,) = review_lines(w)
    assert r.turns[11].label in line or "forced" in line
    assert all(name in panel.summary.value for name in r.players)
    # "show the best move": the status line names the best move of the position shown
    w.show_best()
    best = r.turns[12].best
    assert f"Best move for {r.players[r.turns[12].seat]} here:" in w.session.state()["status"]
    assert best.card in w.session.state()["status"]
    # in the table's words: its queues are numbered from 1, as the table labels them
    assert f"{best.card} on queue {best.queue + 1}" in w.session.state()["status"]
    drawn = w.session.state()["best"]
    assert drawn is not None and (drawn["card"], drawn["queue"]) == (best.card, best.queue)
    assert w.table.best == drawn  # synced to the table, which draws it
    # saved with the record, and read back by replay
    f = tmp_path / "reviewed.json"
    w.save(f)
    assert load_record(f)["review"]["format"] == "tenleave-review/1"
    again = replay(f, turn=3)
    assert again.review_result is not None
    assert again.review_result.to_json() == r.to_json()
    assert len([t for t in again.figures()["review"].data if t.meta != "key"]) == 3


def test_the_best_move_carries_its_rotation() -> None:
    in_fresh_thread(best_move_rotation)


def reviewed_sample_showing_best() -> tuple[Any, Review, list[tuple[Turn, BestMove]]]:
    """The 3-seat sample in replay, reviewed at 6 worlds (seed 0), "show the best move"
    on: the widget, the review and, for every position in the teacher's view, the judged
    best turn with the best move drawn there (checked to be the table's too)."""
    w = replay(GAME, turn=0)
    w.review(samples=6, seed=0)
    r = w.review_result
    assert r is not None
    w.show_best()
    pairs = []
    for turn, judged in enumerate(r.turns):
        w.goto(turn)
        drawn = w.session.best_move()
        assert drawn is not None and w.table.best == drawn, turn
        assert (drawn["card"], drawn["queue"]) == (judged.best.card, judged.best.queue), turn
        pairs.append((judged.best, drawn))
    return w, r, pairs


def best_move_rotation() -> None:
    """The best move drawn on the table names the queue its turn rotates, and when (the
    sample game reviewed has best turns with a rotation before the play, after it, and
    without one)."""
    w, r, pairs = reviewed_sample_showing_best()
    seen = set()
    for turn, (best, drawn) in enumerate(pairs):
        assert drawn["rotate"] == best.rotate, turn
        when = None if best.rotate is None else best.extra
        assert drawn["rotate_when"] == when, turn
        seen.add(when)
    assert seen == {None, "before", "after"}
    # a seat's view: another seat's best move (and its rotation) is not sent at all
    rotating = next(k for k, j in enumerate(r.turns) if j.best.rotate is not None)
    w.set_perspective((r.turns[rotating].seat + 1) % len(r.players))
    w.goto(rotating)
    assert w.session.state()["best"] is None and w.table.best is None


def test_the_best_move_carries_its_wake() -> None:
    in_fresh_thread(best_move_wake)


def best_move_wake() -> None:
    """The best move drawn on the table says whether its turn wakes SleepKid first (the
    sample game reviewed has best turns that wake and that do not); another seat's view
    gets no best move, so not its wake either."""
    w, r, pairs = reviewed_sample_showing_best()
    for turn, (best, drawn) in enumerate(pairs):
        assert drawn["wake"] is best.wake, turn
    assert {drawn["wake"] for _best, drawn in pairs} == {True, False}
    waking = next(k for k, j in enumerate(r.turns) if j.best.wake)
    w.set_perspective((r.turns[waking].seat + 1) % len(r.players))
    w.goto(waking)
    assert w.session.best_move() is None and w.table.best is None
    w.set_perspective(r.turns[waking].seat)
    drawn = w.session.best_move()
    assert drawn is not None and drawn["wake"] is True


def test_a_seats_view_shows_only_its_own_decisions() -> None:
    in_fresh_thread(a_seats_view)


def a_seats_view() -> None:
    w = replay(GAME, turn=0)
    w.review(samples=2, seed=1)
    w.show_best()
    w.set_perspective(1)
    panel = w.review_panel
    assert panel is not None
    assert [t.name for t in w.figures()["review"].data if t.meta != "key"] == ["Ben"]
    assert "Ana" not in panel.summary.value and "Ben" in panel.summary.value
    r = w.review_result
    assert r is not None
    for turn in range(1, 31):
        w.goto(turn)
        lines = review_lines(w)
        mover = r.turns[turn - 1].seat
        assert bool(lines) == (mover == 1), turn
        status = w.session.state()["status"]
        if turn < 30 and r.turns[turn].seat != 1:
            assert "Best move" not in status and w.session.state()["best"] is None
    w.set_perspective(None)
    assert len([t for t in w.figures()["review"].data if t.meta != "key"]) == 3


def test_the_review_runs_in_the_background_and_the_table_answers_meanwhile() -> None:
    w = replay(GAME, turn=0)
    panel = w.review_panel
    assert panel is not None

    async def scenario() -> list[int]:
        w.review(samples=8, seed=2)
        assert panel.running and panel.button.disabled
        moved = []
        deadline = time.monotonic() + 300
        while w.review_result is None:
            assert time.monotonic() < deadline
            t = (w.turn + 1) % 31
            w.send_intent({"kind": "goto", "turn": t})  # a click while it works
            moved.append(w.turn)
            await asyncio.sleep(0.05)
        return moved

    # On a loop of its own, in a thread of its own (see in_fresh_thread).
    moved = in_fresh_thread(lambda: asyncio.run(scenario()))
    assert len(moved) >= 2  # the table answered clicks while the review worked
    assert w.review_result is not None and not panel.running and not panel.button.disabled
    assert panel.progress.value == 30 and panel.progress.layout.display == "none"


def test_no_review_outside_replay_mode() -> None:
    w = play(players=2, human=0, bots=["random"], seed=1, bot_delay=0)
    assert w.review_panel is None
    with pytest.raises(ValueError, match="replay mode"):
        w.review()
    assert "review" not in json.dumps(w.record())


def test_a_failed_review_is_shown_and_the_panel_stays_usable() -> None:
    in_fresh_thread(a_failed_review)


def a_failed_review() -> None:
    """A bad argument is refused before anything is shown; a review that fails on its
    way says so, and the panel is usable again."""
    from unittest import mock

    import tenleave_widget.widget.review_panel as review_panel

    w = replay(GAME, turn=0)
    panel = w.review_panel
    assert panel is not None
    with pytest.raises(ValueError, match="samples"):
        w.review(samples=0)
    assert not panel.running and not panel.button.disabled
    assert panel.summary.value == "" and panel.progress.layout.display == "none"

    def broken(*args: object, **kwargs: object) -> Review:
        raise RuntimeError("the worlds ran out")

    with mock.patch.object(review_panel, "review", broken), \
            pytest.raises(RuntimeError, match="the worlds ran out"):
        w.review(samples=2)
    assert not panel.running and not panel.button.disabled
    assert "The review failed" in panel.summary.value and "the worlds ran out" in \
        panel.summary.value and w.review_result is None


def test_a_loop_marked_running_but_not_running_does_not_swallow_the_review() -> None:
    """Playwright's sync API between calls, or a nested run left behind, leaves a loop
    marked running in a thread that no longer runs its callbacks: the review must not be
    handed to it (it would never arrive); it is computed at once instead."""
    def scenario() -> None:
        loop = asyncio.new_event_loop()
        asyncio._set_running_loop(loop)  # what such a leftover looks like from here
        try:
            w = replay(GAME, turn=0)
            w.review(samples=2, seed=1)
            assert w.review_result is not None and len(w.review_result.turns) == 30
            assert w.review_panel is not None and not w.review_panel.running
        finally:
            asyncio._set_running_loop(None)
            loop.close()

    in_fresh_thread(scenario)


def figure_widgets(widget: object) -> list[object]:
    """Every Plotly FigureWidget among ``widget`` and its children, depth first."""
    import plotly.graph_objects as go

    found = [widget] if isinstance(widget, go.FigureWidget) else []
    for child in getattr(widget, "children", ()):
        found += figure_widgets(child)
    return found


def test_the_graph_is_a_panel_of_the_table_not_a_figure_widget(tmp_path: Path) -> None:
    """A FigureWidget carries plotly.js (~5 MB) into a notebook saved with widget state:
    the review's graph is a figure of the table's panels instead (issue 20), drawn by the
    table's own bundle, there once a review is computed or read back."""
    def scenario() -> None:
        w = replay(GAME, turn=3)
        assert "review" not in w.table.panels["figures"]
        w.goto(20)
        w.set_perspective(1)
        w.review(samples=2, seed=1)
        assert figure_widgets(w) == []
        traces = w.table.panels["figures"]["review"]["figure"]["data"]
        assert [t["name"] for t in traces if t.get("meta") != "key"] == ["Ben"]
        key = [t["name"] for t in traces if t.get("meta") == "key"]  # the markers' key
        assert key and set(key) <= set(REVIEW_SYMBOLS)
        w.set_perspective(None)
        traces = w.table.panels["figures"]["review"]["figure"]["data"]
        assert len([t for t in traces if t.get("meta") != "key"]) == 3
        hovers = [h for t in traces for h in t.get("hovertext", [])]
        assert hovers and all(len(line) <= 44 for h in hovers for line in h.split("<br>"))
        w.handle_intent({"kind": "odds", "show": False})  # the odds hidden: the review stays
        assert list(w.table.panels["figures"]) == ["review"]
        f = tmp_path / "reviewed.json"
        w.save(f)
        again = replay(f, turn=0)  # a saved review draws its graph at once
        assert "review" in again.table.panels["figures"] and figure_widgets(again) == []

    in_fresh_thread(scenario)
