"""The coach's words: a rotation names the card it moves only where the seat knows it
(a twin-game differential proves a hidden value is never named), and where the one
analysis has no separated best the question, the verdict and *Show me* say "about equally
good" and name the moves, never a firm ranking; *Show me* outlines the analysis's best."""

from __future__ import annotations

import dataclasses
import json
import random
import re
from typing import Any

import pytest
from helpers import random_game

from tenleave_widget import Game
from tenleave_widget.analysis.analyse import analyse, settings_for
from tenleave_widget.analysis.review import ScreenLoss
from tenleave_widget.analysis.review.text import decision_text
from tenleave_widget.engine.turn import Turn
from tenleave_widget.table.coach.check import CoachCheck
from tenleave_widget.table.coach.verdicts import Coach, Judged
from tenleave_widget.table.words.coach import MOST_NAMED, about_points
from tenleave_widget.widget import TenLeaveWidget, play
from widget.test_widget_secrets import widget_state

SAMPLES = 3


def hidden_front_twins(count: int) -> list[tuple[Game, Game, int, int]]:
    """Positions of 2-3 seats, the seat to move ``seat``, with a queue ``q`` of at least
    2 cards whose front card the seat does not know, and the same game with that card
    swapped for another card of its owner with the same back, also on the table and
    unknown to the seat (so the owner's hand, and what the seat knows, are the same):
    ``(game, twin, seat, q)``."""
    out: list[tuple[Game, Game, int, int]] = []
    seed = 0
    while len(out) < count:
        seed += 1
        g = random_game(2 + seed % 2, seed=seed, turns=4 + seed % 9)
        seat = g.to_move
        if seat is None or g.finished:
            continue
        record = g.to_record()
        view = g.view(seat)
        hidden = [c for queue in view["queues"] for c in queue
                  if c["owner"] != seat and c["value"] is None]
        found = None
        for q, queue in enumerate(view["queues"]):
            front = queue[0] if len(queue) >= 2 else None
            if front is None or front["value"] is not None:
                continue
            mine = record["turns"][front["key"]]["play"][0]
            for c in hidden:
                other = record["turns"][c["key"]]["play"][0]
                if c["key"] != front["key"] and c["owner"] == front["owner"] and \
                        other != mine and other.endswith("*") == mine.endswith("*"):
                    rec = json.loads(json.dumps(record))
                    rec["turns"][front["key"]]["play"][0] = other
                    rec["turns"][c["key"]]["play"][0] = mine
                    found = (Game.from_record(rec), q)
                    break
            if found:
                break
        if found is None:
            continue
        twin, q = found
        assert twin.view(seat) == view and twin.view(None) != g.view(None)
        out.append((g, twin, seat, q))
    return out


TWINS = hidden_front_twins(6)


def rotating(turn: Turn, q: int) -> Turn:
    """``turn`` with queue ``q`` rotated after its play: the better move the coach names."""
    return turn._replace(peek=None, wake=False, rotate=q, extra="after")


def patched_coach(monkeypatch: pytest.MonkeyPatch, q: int) -> None:
    """The coach judges every turn a mistake of 3 points against the same play followed by
    rotating queue ``q`` (asks about it first, with ``coach="before"``): the words to name
    that queue's front card, whatever the analysis of the position would say."""
    judge = Coach.judge

    def fake_judge(self: Coach, d: Any) -> Judged:
        v = judge(self, d)
        r = dataclasses.replace(v["review"], best=rotating(d.played, q), label="mistake",
                                loss=3.0, loss_ci95=(2.5, 3.5))
        return {**v, "review": r, **Coach.as_verdict(r), "equal": []}

    def fake_loss(self: CoachCheck, k: int, seat: int, turn: Turn) -> ScreenLoss:
        return ScreenLoss(turn, rotating(turn, q), 3.0, (2.5, 3.5), False)

    monkeypatch.setattr(Coach, "judge", fake_judge)
    monkeypatch.setattr(CoachCheck, "loss", fake_loss)
    monkeypatch.setattr(CoachCheck, "equal", lambda self, k, seat: [])


def table(game: Game, seat: int) -> TenLeaveWidget:
    bots = {s: "random" for s in range(game.seats) if s != seat}
    w = TenLeaveWidget(game, mode="play", humans=[seat], bots=bots, bot_delay=0, seed=1,
                       coach="before", coach_samples=SAMPLES, show_odds=False)
    w.coach_threshold = 0.0
    return w


def coach_lines(w: TenLeaveWidget) -> list[str]:
    return [line for t in w.table.narration["turns"] for line in t["lines"]
            if line.startswith("Coach:")]


def public(w: TenLeaveWidget) -> Any:
    """The game's public history (what any seat may see of it)."""
    return [w.game.events(k) for k in range(w.game.turns_applied)]


@pytest.mark.parametrize("case", range(len(TWINS)))
def test_a_hidden_front_card_is_never_named(case: int,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    game, twin, seat, q = TWINS[case]
    patched_coach(monkeypatch, q)
    a, b = table(game, seat), table(twin, seat)
    o = a.table.offers
    move = {"kind": "play", "card": o["play_cards"][0], "queue": o["play_queues"][0]}
    for w in (a, b):
        w.handle_intent(move)
        w.handle_intent({"kind": "end"})
    ask = a.table.coach["ask"]
    assert ask is not None and "(its front card goes to the back)" in ask["text"], ask
    assert widget_state(a) == widget_state(b)
    for w in (a, b):
        w.handle_intent({"kind": "showme", "turn": game.turns_applied})
    assert a.table.best is not None and a.table.best["rotate"] == q
    assert widget_state(a) == widget_state(b)
    for w in (a, b):
        w.handle_intent({"kind": "showme", "turn": None})
        w.handle_intent({"kind": "confirm", "answer": "play"})
    said = [line for line in coach_lines(a) if "rotate" in line]
    assert said and all("(its front card goes to the back)" in line for line in said), said
    assert coach_lines(a) == coach_lines(b)
    if public(a) == public(b):  # the bots' swats may show the swapped cards: then they differ
        assert widget_state(a) == widget_state(b)


def test_a_known_front_card_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    """The seat's own card at the front of a queue (the seat knows it): the coach says
    which card goes from the front to the back."""
    for seed in range(1, 200):
        g = random_game(2, seed=seed, turns=3 + seed % 7)
        seat = g.to_move
        if seat is None or g.finished:
            continue
        view = g.view(seat)
        q = next((i for i, queue in enumerate(view["queues"])
                  if len(queue) >= 2 and queue[0]["owner"] == seat), None)
        if q is not None:
            break
    else:
        raise AssertionError("no position with the seat's own card in front")
    value = view["queues"][q][0]["value"]
    patched_coach(monkeypatch, q)
    w = table(g, seat)
    o = w.table.offers
    w.handle_intent({"kind": "play", "card": o["play_cards"][0], "queue": o["play_queues"][0]})
    w.handle_intent({"kind": "end"})
    ask = w.table.coach["ask"]
    assert ask is not None and f"(your {value} goes from the front to the back)" in ask["text"]
    w.handle_intent({"kind": "confirm", "answer": "play"})
    assert any(f"(your {value} goes from the front to the back)" in line
               for line in coach_lines(w)), coach_lines(w)


def named(text: str, moves: list[str]) -> bool:
    """Whether ``text`` names the moves (the first :data:`MOST_NAMED`, then "N more")."""
    shown = moves[:MOST_NAMED]
    more = len(moves) - len(shown)
    return all(m in text for m in shown) and (more <= 0 or f"{more} more" in text)


def test_about_equally_good_where_the_analysis_has_no_separated_best() -> None:
    """A coached game's every verdict, against the one analysis of its position: where it
    has no ★ the verdict names the moves about as good as the best and says so; where it
    has one, it names the best alone. Both cases are met."""
    rng = random.Random(7)
    w = play(players=2, human=0, bots=["greedy"], seed=7, bot_delay=0, coach="after",
             coach_samples=SAMPLES)
    while not w.game.finished:
        o = w.table.offers
        w.handle_intent({"kind": "play", "card": rng.choice(o["play_cards"]),
                         "queue": rng.choice(o["play_queues"])})
        w.handle_intent({"kind": "end"})
    kinds = set()
    lines = {t["turn"]: next(x for x in t["lines"] if x.startswith("Coach:"))
             for t in w.table.narration["turns"] if any(x.startswith("Coach:")
                                                         for x in t["lines"])}
    for v in w.verdicts:
        k = v["turn"]
        a = analyse(w.session.history[k].view(0), settings_for(SAMPLES), seed=0)
        equal = list(dict.fromkeys(decision_text(a["decisions"][i], words=True)
                                   for i in a["equal"]))
        line = lines.get(k)
        if line is None:  # the narration tells the latest turns only
            continue
        if not a["star"] and len(equal) > 1:
            kinds.add("tie")
            assert "about equally good" in line, (line, equal)
            assert named(line, [e for e in equal
                                if e != decision_text(a["decisions"][0], words=True)
                                or v["label"] != "best"]) or v["label"] == "best", line
        else:
            kinds.add("star")
            assert "about equally good" not in line, line
    assert kinds, lines


def test_show_me_outlines_the_analysis_best_and_names_the_ties() -> None:
    """The question's *Show me* draws the analysis's best (the moves panel's first
    decision); without a ★ its words say "about equally good" and name the others, with
    one they name the best alone. The human plays the analysis's worst move each turn
    (asked about), until both cases are met."""
    seen = set()
    for seed in range(1, 6):
        w = play(players=2, human=0, bots=["greedy"], seed=seed, bot_delay=0, coach="before",
                 coach_samples=SAMPLES)
        w.coach_threshold = 0.0
        while not w.game.finished and len(seen) < 2:
            k = w.game.turns_applied
            a = analyse(w.session.live.view(0), settings_for(SAMPLES), seed=0)
            worst = a["decisions"][-1]["turn"]
            w.handle_intent({"kind": "play", "card": worst["play"][0],
                             "queue": worst["play"][1]})
            w.handle_intent({"kind": "end"})
            ask = w.table.coach["ask"]
            top = a["decisions"][0]
            if ask is not None and top["kind"] != "peek first":
                w.handle_intent({"kind": "showme", "turn": k})
                best = w.table.best
                assert best is not None
                assert [best["card"], best["queue"]] == top["turn"]["play"]
                assert best["rotate"] == top["turn"].get("rotate")
                equal = list(dict.fromkeys(decision_text(a["decisions"][i], words=True)
                                           for i in a["equal"]))
                if a["star"] or len(equal) < 2:
                    seen.add("star")
                    assert best["text"].startswith("The better move: "), best["text"]
                    assert "about equally good" not in ask["text"] + w.table.status
                else:
                    seen.add("tie")
                    assert best["text"].startswith("About equally good: "), best["text"]
                    assert named(best["text"], [f"{equal[0]} (outlined)", *equal[1:]]), \
                        best["text"]
                    assert "(about equally good)" in ask["text"] and named(ask["text"], equal)
                    assert "about equally good" in w.table.status
                w.handle_intent({"kind": "showme", "turn": None})
            if ask is not None:
                w.handle_intent({"kind": "confirm", "answer": "play"})
        if len(seen) == 2:
            break
    assert seen == {"star", "tie"}, seen


def test_the_question_and_the_verdict_say_the_same_points() -> None:
    """One truth in the student's words too: the question's "about N points" is the
    verdict's that follows the turn (the figures themselves: test_coach_before)."""
    from widget.test_coach_before import asked_table

    w, _ = asked_table()
    text = w.table.coach["ask"]["text"]
    w.handle_intent({"kind": "confirm", "answer": "play"})
    v = w.verdicts[0]
    points = about_points(float(v["loss"]))
    assert re.search(rf"{points} better\.$", text), (text, v["loss"])
    assert any(points in line for line in coach_lines(w)), coach_lines(w)
