"""The coach at the table (issue 23, item 1): ``coach="after"`` judges every human decision
with the review's own code, in the background, and tells it to that seat only."""

from __future__ import annotations

import asyncio
import random
import threading

import pytest

from tenleave_widget import Game
from tenleave_widget.analysis.review import review
from tenleave_widget.table.coach.verdicts import Coach
from tenleave_widget.table.session.config import check_config
from tenleave_widget.table.words.coach import MAYBE
from tenleave_widget.widget import TenLeaveWidget, WidgetMessageError, hotseat, play, replay

SAMPLES = 3


def human_turn(w: TenLeaveWidget, rng: random.Random) -> None:
    """The seat on screen plays a random card on a random queue and ends its turn."""
    offers = w.table.offers
    w.handle_intent({"kind": "play", "card": rng.choice(offers["play_cards"]),
                     "queue": rng.choice(offers["play_queues"])})
    w.handle_intent({"kind": "end"})


def coach_lines(w: TenLeaveWidget) -> list[str]:
    return [line for t in w.table.narration["turns"] for line in t["lines"]
            if line.startswith("Coach:")]


def test_a_coached_game_s_verdicts_are_its_review() -> None:
    rng = random.Random(5)
    w = play(players=2, human=0, bots=["greedy"], seed=5, bot_delay=0, coach="after",
             coach_samples=SAMPLES)
    said = []
    for _ in range(4):
        human_turn(w, rng)
        said.append(w.table.message["text"])
    assert len(w.verdicts) == 4 and {v["seat"] for v in w.verdicts} == {0}
    assert set(w.verdicts[0]) == {"turn", "seat", "played", "label", "near", "loss",
                                  "loss_ci95", "best"}
    r = review(w.record(), samples=SAMPLES, seed=0)
    assert w.verdicts == [Coach.as_verdict(t) for t in r.turns if t.seat == 0]
    assert coach_lines(w)  # the last decision, in words, in its turn's narration
    # a loss whose interval still reaches a harsher error label's bound says it may be that
    for v, words in zip(w.verdicts, said, strict=True):
        maybe = f"Coach: {v['label']} ({MAYBE[v['near']]})" if v["near"] in MAYBE else None
        assert (maybe is not None and maybe in words) or "(maybe" not in words, words
    assert sum("(maybe" in words for words in said) == 1  # "good (maybe a blunder)"
    assert w.table.message["text"].startswith("Coach:")
    assert "So far: 4 decisions" in w.table.message["text"]
    tally = w.tally()
    assert tally["decisions"] == 4 and sum(tally["labels"].values()) == 4
    assert tally["accuracy"] is None or 0 <= tally["accuracy"] <= 100


def test_undo_and_play_again_forget_the_verdicts_taken_back() -> None:
    rng = random.Random(2)
    w = play(players=2, human=0, bots=["random"], seed=2, bot_delay=0, coach="after",
             coach_samples=SAMPLES)
    human_turn(w, rng)
    human_turn(w, rng)
    assert [v["turn"] for v in w.verdicts] == [0, 2]
    assert w.table.offers["undo"]
    w.handle_intent({"kind": "undo"})
    assert [v["turn"] for v in w.verdicts] == [0]
    w.goto(0)
    assert w.verdicts == [] and coach_lines(w) == []


def test_the_coach_is_off_by_default_and_checked() -> None:
    w = play(players=2, human=0, bots=["random"], seed=1, bot_delay=0)
    human_turn(w, random.Random(1))
    assert w.verdicts == [] and coach_lines(w) == []
    with pytest.raises(WidgetMessageError, match="coach must be one of"):
        play(coach="loud")
    with pytest.raises(WidgetMessageError, match="coach_samples"):
        play(coach="after", coach_samples=0)
    with pytest.raises(WidgetMessageError, match="coach_samples"):
        hotseat(coach="after", coach_samples=True)  # type: ignore[arg-type]
    with pytest.raises(WidgetMessageError, match="not a human seat"):
        w.tally(1)


def test_hotseat_a_verdict_is_told_to_its_seat_only() -> None:
    rng = random.Random(3)
    h = hotseat(players=2, seed=3, coach="after", coach_samples=SAMPLES)
    human_turn(h, rng)  # seat 0 ends its turn: the cover is up for seat 1
    assert [v["seat"] for v in h.verdicts] == [0]
    assert h.table.cover["shown"] and coach_lines(h) == []
    assert "Coach" not in h.table.message["text"]
    h.handle_intent({"kind": "uncover"})
    assert h.perspective == 1 and coach_lines(h) == []  # seat 0's verdict is not seat 1's
    human_turn(h, rng)
    h.handle_intent({"kind": "uncover"})
    assert h.perspective == 0
    assert len(coach_lines(h)) == 1  # seat 0 sees its own, not seat 1's
    assert [v["seat"] for v in h.verdicts] == [0, 1]


def test_the_coach_judges_in_the_background() -> None:
    async def scenario() -> tuple[int, int, bool]:
        w = play(players=2, human=0, bots=["random"], seed=4, bot_delay=0, coach="after",
                 coach_samples=SAMPLES)
        human_turn(w, random.Random(4))
        right_after = len(w.verdicts)  # handle_intent returned before the verdict
        for _ in range(3000):  # not a timing test: wait until the verdict is in
            await asyncio.sleep(0.01)
            if w.verdicts:
                break
        return right_after, len(w.verdicts), coach_lines(w) != []

    results: list[tuple[int, int, bool]] = []
    thread = threading.Thread(target=lambda: results.append(asyncio.run(scenario())))
    thread.start()
    thread.join()
    assert results == [(0, 1, True)]


def test_a_replay_has_no_coach_but_a_branch_may() -> None:
    r = replay("examples/games/game-2-seats.json", turn=2)
    with pytest.raises(WidgetMessageError, match="the coach is for play"):
        TenLeaveWidget(r.game, mode="replay", coach="after")
    seat = r.game.to_move
    assert seat is not None
    w = r.play_from_here(human=seat, bots=["greedy"], bot_delay=0, coach="after",
                         coach_samples=SAMPLES)
    human_turn(w, random.Random(0))
    assert [(v["turn"], v["seat"]) for v in w.verdicts] == [(2, seat)]
    turns = review(w.record(), samples=SAMPLES, seed=0).turns
    assert w.verdicts == [Coach.as_verdict(turns[2])]


@pytest.mark.parametrize("coach", ["after", "before"])
def test_coach_samples_is_bounded_where_the_table_is_set_up(coach: str) -> None:
    """Over the review's bound (100,000 worlds) the table is not built: the error names
    ``coach_samples`` (not the review's ``samples``), in play, hot-seat and a branch."""
    for make in (lambda n: play(players=2, human=0, bots=["greedy"], bot_delay=0,
                                coach=coach, coach_samples=n),
                 lambda n: hotseat(players=2, coach=coach, coach_samples=n),
                 lambda n: replay("examples/games/game-2-seats.json", turn=3)
                 .play_from_here(human=0, bots=["greedy"], coach=coach, coach_samples=n)):
        for bad in (100_001, 10**30):
            with pytest.raises(WidgetMessageError,
                               match=r"^coach_samples must be a whole number 1\.\.100000"):
                make(bad)
    config = check_config(Game(2, seed=1), humans=[0], bots={1: "greedy"}, coach=coach,
                          coach_samples=100_000)  # the bound itself (no table: it would think)
    assert config.coach_samples == 100_000


def test_a_peek_first_is_coached_as_the_review_judges_it() -> None:
    """A human peeks at a card it cannot see, then plays: the coach judges the peek and
    the play made knowing the value (the one analysis's verdict), as the review does."""
    w = play(players=2, human=0, bots=["greedy"], seed=7, bot_delay=0, coach="after",
             coach_samples=SAMPLES)
    rng = random.Random(7)
    human_turn(w, rng)
    view = w.game.view(0)
    hidden = [(q, i) for q, queue in enumerate(view["queues"]) for i, c in enumerate(queue)
              if c["value"] is None]
    assert hidden and w.game.to_move == 0
    q, i = hidden[0]
    w.handle_intent({"kind": "peek", "queue": q, "position": i})
    offers = w.table.offers
    w.handle_intent({"kind": "play", "card": offers["play_cards"][0],
                     "queue": offers["play_queues"][0]})
    w.handle_intent({"kind": "end"})
    assert len(w.verdicts) == 2 and w.verdicts[1]["played"]["peek"] == [q, i]
    r = review(w.record(), samples=SAMPLES, seed=0)
    assert w.verdicts == [Coach.as_verdict(t) for t in r.turns if t.seat == 0]
