"""Bots decide from a seat's view through the step-wise protocol of
tenleave_widget.analysis.bots."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from tenleave_widget import Game, IllegalActionError, SetupError, Turn
from tenleave_widget.analysis.bots import (
    BOT_NAMES,
    WAKE,
    GreedyBot,
    Legal,
    RandomBot,
    decide,
    make_bot,
    wake_plays,
)
from tenleave_widget.programs.simulate import play_game, simulate

REFERENCE = Path(__file__).parents[1] / "data" / "greedy_games.json"


def reference_games() -> dict[str, Any]:
    """The same games as tests/data/greedy_games.json (recorded with main before the
    view protocol: see its "about")."""
    out = []
    for players in (2, 3, 4, 5):
        for k, lineup in enumerate((["greedy"] * players, ["greedy", "random"] * 3)):
            lineup = lineup[:players]
            for seed in range(3):
                master = random.Random(1000 * players + 10 * k + seed)
                bots = [make_bot(b, master.randrange(2**32)) for b in lineup]
                for i in range(2):
                    g = play_game(players, bots, seed=master.randrange(2**32), first=i % players)
                    out.append({"bots": lineup, "record": g.to_record(), "penalty": g.penalty})
    return {"games": out}


def test_greedy_plays_the_same_games_as_before_the_view_protocol() -> None:
    ref = json.loads(REFERENCE.read_text())
    now = reference_games()
    assert len(now["games"]) == len(ref["games"]) == 48
    wakes = 0
    for a, b in zip(now["games"], ref["games"], strict=True):
        assert a == {k: b[k] for k in a}
        wakes += sum(1 for t in a["record"]["turns"] if t.get("wake"))
    assert wakes > 0, "the reference must exercise the wake-then-replan path"


class Spy:
    """Records what it is shown; plays like the greedy bot."""

    name = "spy"

    def __init__(self) -> None:
        self.inner = GreedyBot(1)
        self.calls: list[tuple[dict[str, Any], Legal]] = []

    def choose(self, view: Any, legal: Legal) -> Turn | str:
        self.calls.append((view, legal))
        return self.inner.choose(view, legal)


def test_a_bot_sees_only_its_view_and_the_legal_turns() -> None:
    spy = Spy()
    for seed in range(40):
        g = Game(3, seed=seed)
        while not g.finished:
            seat = g.to_move
            spy.calls.clear()
            t = decide(spy, g) if seat == 1 else g.legal_turns.sample(random.Random(seed))
            if seat == 1:
                for view, legal in spy.calls:
                    assert not isinstance(view, Game) and not isinstance(legal, Game)
                    assert view["seat"] == 1 and view["hands"][0]["cards"] is None
                if len(spy.calls) == 2:  # a wake: asked again after the swat, plays only
                    after, plays = spy.calls[1]
                    assert t.wake and after["events"][0] == {"kind": "wake", "seat": 1}
                    assert t._replace(wake=False) in plays
                    assert all(p.action == "none" for p in plays)
            g.apply(t)


def test_decide_wakes_then_replans() -> None:
    class Waker:
        """Wakes as soon as it may, then plays the last legal play."""

        name = "waker"

        def __init__(self) -> None:
            self.woke = False

        def choose(self, view: Any, legal: Legal) -> Turn | str:
            if self.woke:
                return legal[len(legal) - 1]
            if all(len(q) >= 2 for q in view["queues"]):
                self.woke = True
                return WAKE
            return legal[0]

    g = Game(2, seed=3)
    bot = Waker()
    while not bot.woke:
        t = decide(bot, g)
        if not bot.woke:
            g.apply(t)
    assert t.wake and t._replace(wake=False) == wake_plays(g.preview([{"kind": "wake"}]))[-1]
    assert t in g.legal_turns


def test_decide_rejects_a_bad_choice_and_a_finished_game() -> None:
    class Bad:
        name = "bad"

        def __init__(self, answer: object) -> None:
            self.answer = answer

        def choose(self, view: Any, legal: Legal) -> Any:
            return self.answer

    g = Game(3, seed=1)
    with pytest.raises(IllegalActionError, match="not a legal turn"):
        decide(Bad(Turn(0, "9", 0)), g)
    with pytest.raises(IllegalActionError, match="cannot wake"):
        decide(Bad(WAKE), g)  # no queue holds 2 cards yet
    with pytest.raises(IllegalActionError, match="seat 2 cannot move"):
        decide(RandomBot(1), g, seat=2)
    while not g.finished:
        g.apply(decide(RandomBot(2), g))
    with pytest.raises(IllegalActionError, match="game is over"):
        decide(RandomBot(1), g)


def test_a_bot_decides_from_a_seats_view_never_the_omniscient_one() -> None:
    from tenleave_widget.engine.errors import InvalidViewError

    g = Game(3, seed=1)
    for name in ("greedy", "lookahead"):
        with pytest.raises(InvalidViewError, match="a seat's view"):
            make_bot(name, 0).choose(g.view(None), g.legal_turns)


def test_random_bot_draws_what_the_fast_path_draws() -> None:
    g = Game(4, seed=9)
    bot, rng = RandomBot(5), random.Random(5)
    while not g.finished:
        t = decide(bot, g)
        assert t == g.random_turn(rng)
        g.apply(t)


def test_bot_names_checked_in_one_place() -> None:
    assert BOT_NAMES == ("random", "greedy", "lookahead", "reader")
    with pytest.raises(SetupError, match="unknown bot 'smart'"):
        make_bot("smart")
    with pytest.raises(SetupError, match="unknown bot 'smart'"):
        simulate(2, 1, bots=["random", "smart"])
