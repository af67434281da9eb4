"""A class review's positions in the widget (widget/class_positions.py): each position
opens the replay widget at its turn from the mover's view; the practice set puts each
puzzle on a table where the student plays the seat to move and is judged."""

from __future__ import annotations

from pathlib import Path

import pytest

from tenleave_widget.engine.game import Game
from tenleave_widget.programs.class_review import ClassReview, review_many
from tenleave_widget.widget import Practice, open_position

TWO = str(Path(__file__).resolve().parents[2] / "examples" / "games" / "game-2-seats.json")


@pytest.fixture(scope="module")
def c() -> ClassReview:
    return review_many([TWO], samples=1, seed=5, workers=1)


def test_a_position_opens_at_its_turn_from_the_movers_view(c: ClassReview) -> None:
    for k, q in enumerate(c.positions()[:3]):
        w = open_position(c, k)
        assert w.mode == "replay" and w.perspective == q["seat"] and w.turn == q["turn"]
        # the position before the move, seen as the mover saw it when deciding
        truth = Game.from_record(TWO, turns=q["turn"])
        assert w.game.view(q["seat"]) == truth.view(q["seat"])
        assert w.game.to_move == q["seat"]
        assert Game.from_record(TWO).turns[q["turn"]].to_json() == q["played"]


def test_the_practice_set_is_played_on_a_table_and_judged(c: ClassReview) -> None:
    p = Practice(c, samples=1)
    assert len(p) == len(c.practice()) > 0
    z = p.puzzles[0]
    w = p.table(0)
    assert p.table(0) is w  # made once
    assert w.mode == "play" and w.game.turns_applied == z.turn and w.game.to_move == z.seat
    assert "turn" in p.question(0) and p.answer(0) is None and p.judge(0) is None
    for step in z.best.steps():  # the student finds the best move
        w.handle_intent(step)
    w.handle_intent({"kind": "end"})
    verdict = p.judge(0)
    assert verdict is not None and verdict["best"] is True and verdict["loss"] == 0.0
    assert p.score() == {"judged": 1, "best": 1, "mean_loss": 0.0}
    with pytest.raises(ValueError, match="puzzles 0.."):
        p.table(len(p))


def test_the_panels_of_a_positions_table_show_the_analysis_the_review_judged_with(
        c: ClassReview) -> None:
    """The moves panel of an opened position and of a practice table: the analysis of
    the review's budget and seed (from its cache: done at once), its ★ or "about equally
    good" set the analysis's."""
    from tenleave_widget.analysis.analyse import analyse, settings_for

    w = open_position(c, 0)
    q = c.positions()[0]
    w.send_intent({"kind": "measure", "measure": "game"})
    moves = w.panels["moves"]
    assert moves["done"]  # the review analysed this position: nothing left to compute
    a = analyse(w.game.view(q["seat"]), settings_for(1), seed=5)
    assert moves["worlds"] == a["worlds"] and moves["star"] == a["star"]
    marked = {a["decisions"][i]["group"] for i in a["equal"]}
    firsts: dict[int, str] = {}
    for d in a["decisions"]:
        firsts.setdefault(d["group"], d["key"])
    assert [m["best"] for m in moves["moves"]] == [g in marked for g in firsts]
    p = Practice(c, samples=1)
    t = p.table(0)
    z = p.puzzles[0]
    assert (t.session.lookahead.budget, t.session.lookahead.seed) == (1, 5)
    t.send_intent({"kind": "measure", "measure": "game"})
    b = analyse(t.game.view(z.seat), settings_for(1), seed=5)
    assert t.panels["moves"]["done"] and t.panels["moves"]["star"] == b["star"]
