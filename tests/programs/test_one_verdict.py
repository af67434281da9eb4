"""One verdict per position, as a contract: on every decision of the four sample games and
of games of random, greedy, lookahead and reader bots at 2 to 5 seats, ``tenleave
evaluate``'s best, the review's best and the puzzle's answer are the same decision, and
the played decision's loss and label are the same in the review, the class review (one
worker or two), ``tenleave review`` and the analysis's own verdict — byte for byte."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tenleave_widget import Game
from tenleave_widget.analysis import analyse as an
from tenleave_widget.analysis.bots import make_bot
from tenleave_widget.analysis.review import decisions, puzzles, review
from tenleave_widget.programs.class_review import review_many
from tenleave_widget.programs.cli import main
from tenleave_widget.programs.simulate import play_game

pytestmark = pytest.mark.slow

SAMPLES = 16
"""A small budget for every consumer alike (the contract holds for any one budget): 16
worlds first, the fewest on which the analysis calls anything separated."""
GAMES = Path(__file__).resolve().parents[2] / "examples" / "games"


def records() -> dict[str, dict[str, Any]]:
    out = {}
    for f in sorted(GAMES.glob("game-*-seats.json")):
        rec = json.loads(f.read_text())
        rec.pop("review", None)
        out[f.stem] = rec
    for seats, bot, seed in [(3, "random", 1), (4, "greedy", 2), (2, "lookahead", 3),
                             (3, "reader", 4), (5, "random", 5)]:
        g = play_game(seats, [make_bot(bot, seed=seed + s) for s in range(seats)], seed=seed)
        out[f"{bot}-{seats}"] = g.to_record()
    return out


@pytest.fixture(scope="module")
def recs() -> dict[str, dict[str, Any]]:
    return records()


def test_every_consumer_names_the_same_best_and_the_same_loss(
        recs: dict[str, dict[str, Any]], tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    s = an.settings_for(SAMPLES)
    files = []
    for name, rec in recs.items():
        f = tmp_path / f"{name}.json"
        f.write_text(json.dumps(rec))
        files.append(str(f))
    positions = 0
    reviews = {}
    for name, rec in recs.items():
        r = review(rec, samples=SAMPLES)
        reviews[name] = r
        ds = decisions(rec)
        for d, t in zip(ds, r.turns, strict=True):
            positions += 1
            a = an.analyse(d.view, s)
            # tenleave evaluate: the same analysis, best first
            assert main(["evaluate", files[list(recs).index(name)], "--seat", str(d.played.seat),
                         "--turns", str(d.turn), "--samples", str(SAMPLES), "--json"]) == 0
            out = json.loads(capsys.readouterr().out)
            assert out == json.loads(json.dumps(a))
            best = a["decisions"][0]
            # the review's best is the analysis's best decision (or one played alike)
            assert an.decision_key(d.view, t.best.to_json()) in {
                x["key"] for x in a["decisions"] if x["group"] == best["group"]}
            # the played decision's loss and label: the analysis's verdict's
            v = an.judge(d.view, d.played.to_json(), s, seen=d.seen)
            assert (t.loss, list(t.loss_ci95)) == (v["loss"], v["loss_ci95"])
            assert t.label == ("best" if a["forced"] else v["label"])
        # a puzzle's answer is the review's best, and judged the best
        for z in puzzles(rec, r):
            assert z.best == r.turns[z.turn].best
            assert z.judge(z.best)["best"] is True
    assert positions >= 200
    # the class review, on one worker and on two, and tenleave review: the same JSON
    one = review_many(recs, samples=SAMPLES, workers=1)
    two = review_many(recs, samples=SAMPLES, workers=2)
    assert json.dumps(one.to_json()) == json.dumps(two.to_json())
    for g in one.games:
        assert json.dumps(g.review.to_json()) == json.dumps(reviews[g.file].to_json())
    assert main(["review", *files, "--json", "--samples", str(SAMPLES), "--workers", "1",
                 "--no-progress"]) == 0
    cli = json.loads(capsys.readouterr().out)
    by_file = [{k: v for k, v in g.items() if k != "file"} for g in cli["games"]]
    assert by_file == [json.loads(json.dumps(reviews[name].to_json())) for name in recs]


def test_a_sample_games_review_and_its_puzzles_agree_at_the_default_budget() -> None:
    """The default budget (every front end's): the 3-seat sample's review and its puzzles
    name the analysis's best; its saved review loads back the same."""
    rec = json.loads((GAMES / "game-3-seats.json").read_text())
    rec.pop("review", None)
    r = review(rec)
    for d, t in zip(decisions(rec), r.turns, strict=True):
        a = an.analyse(d.view)
        assert an.decision_key(d.view, t.best.to_json()) in {
            x["key"] for x in a["decisions"] if x["group"] == a["decisions"][0]["group"]}
    from tenleave_widget.analysis.review import attach_review, saved_review

    again = saved_review(attach_review(Game.from_record(rec).to_record(), r))
    assert json.dumps(again.to_json()) == json.dumps(r.to_json())
