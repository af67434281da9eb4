"""The reader bot: registered everywhere bots are named, a pure function of its view (with
the public history), its worlds dealt from the posterior, and a peek valued honestly."""

from __future__ import annotations

import copy
import json
import random
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from helpers import random_game

from analysis.test_lookahead import permuted
from tenleave_widget import Game
from tenleave_widget.analysis.bots import (
    BOT_NAMES,
    PEEK_FIRST,
    ROTATIONS,
    Peek,
    ReaderBot,
    decide,
    make_bot,
    wake_plays,
)
from tenleave_widget.analysis.infer import Inference, infer, with_history
from tenleave_widget.analysis.position import evaluate_view
from tenleave_widget.analysis.reader import (
    BELIEF_COST,
    PEEK_CARDS,
    Belief,
    dealer,
    peek_card,
    peek_values,
    revealed,
)
from tenleave_widget.analysis.worlds import Hidden
from tenleave_widget.engine.errors import SetupError
from tenleave_widget.engine.turn import Turn
from tenleave_widget.programs.simulate import simulate

# Seat 0 to move in a 2-seat game (seed 2, the reader against a greedy bot): Ben's plain
# card at queue 1, position III (turn 5) is a 2 or a 5; knowing it changes the best play.
PEEK_RECORD = {
    "format": "tenleave-record/1", "players": ["Ana", "Ben"], "first": 0, "rules": {},
    "defense": ["I+II"],
    "turns": [{"seat": 0, "play": ["4*", 0]}, {"seat": 1, "play": ["1", 0]},
              {"seat": 0, "play": ["5", 1], "peek": [0, 1], "extra": "after"},
              {"seat": 1, "play": ["1", 0]},
              {"seat": 0, "play": ["5*", 1], "peek": [0, 2], "extra": "after"},
              {"seat": 1, "play": ["2", 1]}],
}


def test_the_reader_is_a_bot_by_name_and_plays_whole_games() -> None:
    assert "reader" in BOT_NAMES
    assert make_bot("reader", seed=1).name == "reader"
    stats = simulate(2, 1, seed=3, bots=["reader", "greedy"], workers=1)
    assert stats.games == 1
    g = Game(3, seed=5)
    bots = [ReaderBot(1, budget=16), make_bot("greedy", 2), make_bot("random", 3)]
    peeks = 0
    while not g.finished:
        turn = decide(bots[g.to_move], g)  # checked legal
        peeks += g.to_move == 0 and turn.peek is not None
        g.push(turn)
    assert peeks > 0  # it peeks (free information) where the lookahead bot never does


@pytest.mark.slow
def test_the_reader_plays_from_the_command_line_and_in_the_widget() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "tenleave_widget", "simulate", "--players", "2", "--games", "1",
         "--seed", "1", "--bots", "reader,greedy", "--workers", "1", "--json",
         "--no-progress"], capture_output=True, text=True, check=False)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["seats"][0]["bot"] == "reader"
    from tenleave_widget.widget.entry import play

    w = play(players=2, human=0, bots=["reader"], seed=4, bot_delay=0)
    assert w.session.bots == {1: "reader"}
    w.handle_intent({"kind": "play", "card": w.table.offers["play_cards"][0], "queue": 0})
    w.handle_intent({"kind": "end"})
    assert w.game.turns_applied == 2  # the reader answered


def test_the_reader_decides_from_its_view_only() -> None:
    """Swapping a card the seat cannot see (table <-> its owner's hand) leaves its view and
    public history alone, and so its choice, its evaluation and its peek values."""
    done = 0
    for seed in range(30):
        g = random_game(3, seed=seed, turns=5 + seed % 6)
        seat = g.to_move
        assert seat is not None
        h = permuted(g, seat)
        if h is None:
            continue
        assert h.view(None) != g.view(None)
        a, b = with_history(g, seat), with_history(h, seat)
        assert a == b
        ra, rb = ReaderBot(seed, budget=16), ReaderBot(seed, budget=16)
        assert ra.choose(a, g.legal_turns) == rb.choose(b, h.legal_turns)
        assert ra.last == rb.last and ra.last_peeks == rb.last_peeks
        done += 1
        if done == 4:
            break
    assert done == 4


def assert_samples_follow(worlds: list[dict[int, int]], post: Inference, tol: float) -> None:
    """Each card's sampled value frequencies are its posterior chances, within ``tol``."""
    for card in post["cards"]:
        freq = Counter(w[card["key"]] for w in worlds)
        for v, p in card["inferred"].items():
            assert abs(freq[int(v)] / len(worlds) - p) < tol


def test_its_worlds_are_the_posterior_and_fit_the_view() -> None:
    g = random_game(3, seed=11, turns=11)
    seat = g.to_move
    assert seat is not None
    view = with_history(g, seat)
    belief = Belief(view, beta=4.0, seed=0, samples=256)
    post = infer(view, beta=4.0, seed=0, samples=256)
    rng = random.Random(1)
    worlds = [belief.sample(rng) for _ in range(4000)]
    assert_samples_follow(worlds, post, 0.04)
    # the lookahead's sampler: every world fits the uniform model's pools
    plain = g.view(seat)
    deal = dealer(plain, belief.sample)
    hidden = Hidden(plain, hands=True)
    for _ in range(50):
        table, hands = deal(rng)
        for g_, pool in enumerate(hidden.counts):
            assert Counter(table[g_]) + Counter(hands[g_]) == Counter(pool)
    # conditioning on a seen value: the worlds that agree with it, the card itself known
    first, other = 6, 9  # two of seat 1's marked cards: one seen, the other's odds move
    assert [c["owner"] for c in post["cards"] if c["key"] in (first, other)] == [1, 1]
    v = "3"
    fixed = belief.condition({first: int(v)})
    assert first not in fixed.unknown and other in fixed.unknown
    agree = [w[other] for w in worlds if w[first] == int(v)]
    seen = Counter(fixed.sample(rng)[other] for _ in range(len(worlds)))
    for value, count in Counter(agree).items():
        assert abs(seen[value] / len(worlds) - count / len(agree)) < 0.05


def test_a_uniform_belief_conditions_on_what_was_seen() -> None:
    """A belief with no weighed worlds (the uniform model, or beta 0: the bench's
    ``uniformworlds`` reader) conditions on a seen value by fixing it (it raised before)."""
    g = Game.from_record(PEEK_RECORD)
    view = with_history(g, 0)
    key = int(g.view(0)["queues"][1][2]["key"])
    for belief in (Belief.uniform(g.view(0)), Belief(view, beta=0.0, seed=0)):
        assert all(not part.support for part in belief.parts) and key in belief.unknown
        fixed = belief.condition({key: 2})
        assert key not in fixed.unknown
        rng = random.Random(0)
        for _ in range(20):
            world = fixed.sample(rng)
            assert key not in world and set(world) == fixed.unknown


def test_its_cost_is_the_one_swat_unless_told() -> None:
    """The reader's (and the inferred review's) worlds read the players by the one-swat
    cost (BELIEF_COST), not infer's default; told ``cost``, by that one — the worlds then
    follow that posterior."""
    g = Game(3, seed=3)
    bots = [make_bot(k, 30 + s) for s, k in enumerate(["greedy", "lookahead", "greedy"])]
    while g.turns_applied < 9:
        g.apply(decide(bots[g.to_move or 0], g))
    seat = g.to_move
    assert seat is not None
    view = with_history(g, seat)
    assert BELIEF_COST == "one-swat" and ReaderBot(1).cost == BELIEF_COST
    for cost in (BELIEF_COST, "fitted"):
        belief = Belief(view, seed=0, cost=cost)
        post = infer(view, seed=0, samples=128, cost=cost)
        rng = random.Random(2)
        assert_samples_follow([belief.sample(rng) for _ in range(3000)], post, 0.04)
    bot = ReaderBot(1, cost="fitted")
    assert bot.belief(view).beta == Belief(view, seed=bot._seed(view, ":infer") % 2**31,
                                           cost="fitted").beta


def test_a_peek_that_changes_the_best_play_is_valued_and_taken() -> None:
    g = Game.from_record(PEEK_RECORD)
    card = g.view(0)["queues"][1][2]
    assert card["owner"] == 1 and card["value"] is None and card["back"] == "plain"
    # two worlds the seat cannot tell apart: the card is a 2 (the record) or a 5
    swapped = copy.deepcopy(PEEK_RECORD)
    swapped["turns"][5]["play"][0] = "5"
    h = Game.from_record(swapped)
    assert h.view(0) == g.view(0) and with_history(h, 0) == with_history(g, 0)
    best_after: dict[str, object] = {}
    for name, game in (("2", g), ("5", h)):
        bot = ReaderBot(2)
        choice = bot.choose(with_history(game, 0), game.legal_turns)
        assert choice == Peek(1, 2)  # it peeks there, before its play
        assert bot.last_peeks[0].gain > 0.1
        after = game.preview([{"kind": "peek", "queue": 1, "position": 2}])
        assert revealed(after.view(0))[card["key"]] == int(name)
        best_after[name] = bot.choose(after.view(0), wake_plays(after))
        turn = decide(ReaderBot(2), game)
        assert turn.peek == (1, 2) and turn in game.legal_turns
    assert best_after["2"] != best_after["5"]  # what it saw changed its play


def _positions(count: int, least: int, spread: int) -> Iterator[tuple[int, Game, Any]]:
    """Per seed below ``count``, a 3-seat game after ``least + seed % spread`` random turns
    and the view, with history, of its seat to move."""
    for seed in range(count):
        g = random_game(3, seed=seed, turns=least + seed % spread)
        seat = g.to_move
        assert seat is not None
        yield seed, g, with_history(g, seat)


def test_peek_first_peeks_before_the_play_the_card_it_would_peek_after() -> None:
    """With ``peek_first`` (the default), a turn whose best peek is worth no more than the
    threshold still peeks — before the play, at the card the reader with
    ``peek_first=False`` peeks after it (the one its worlds spread the most), so that the
    play is chosen knowing it; a wake stays a wake; ``peeks=False`` never peeks."""
    assert PEEK_FIRST and ReaderBot(1).peek_first
    done = 0
    for seed, g, view in _positions(40, 4, 8):
        plain = ReaderBot(seed, budget=16, rotations=False, peek_gain=float("inf"),
                          peek_first=False)
        first = ReaderBot(seed, budget=16, rotations=False, peek_gain=float("inf"))
        never = ReaderBot(seed, budget=16, rotations=False, peeks=False)
        a, b = plain.choose(view, g.legal_turns), first.choose(view, g.legal_turns)
        c = never.choose(view, g.legal_turns)
        assert plain.last == first.last == never.last  # the same bare evaluation
        assert not isinstance(c, Peek) and (c == "wake" or c.peek is None)
        if a == "wake":
            assert b == "wake"
            continue
        assert not isinstance(a, Peek)
        if a.peek is None:  # nothing to peek: the same play
            assert b == a
            continue
        assert a.extra == "after" and b == Peek(*a.peek)
        turn = decide(ReaderBot(seed, budget=16, rotations=False, peek_gain=float("inf")), g)
        assert turn in g.legal_turns and turn.peek == a.peek and turn.extra != "after"
        done += 1
        if done == 3:
            break
    assert done == 3


def test_peek_card_by_spread_by_outcome_and_by_decision() -> None:
    """Which card the reader peeks when no peek is worth its threshold: three unseen cards
    over eight worlds. Card 1's value spreads the most (1 or 5) and changes nothing; card 2
    (3 or 4) decides the best move's margin; card 3 (2 or 3) decides how the other play
    compares with it. Each measure picks its own card; with nothing to measure by, the
    spread; an unknown measure is a typed error."""
    view: Any = {"queues": [[{"key": 1, "value": None}, {"key": 2, "value": None}],
                            [{"key": 4, "value": 2}, {"key": 3, "value": None}]]}
    worlds = [{1: 1 + 4 * (w % 2), 2: 3 + (w // 2) % 2, 3: 2 + (w // 4) % 2} for w in range(8)]
    best = [float(w[2]) for w in worlds]  # the best move's margin follows card 2
    other = [b + 1 + 2 * (w[3] - 2) for b, w in zip(best, worlds, strict=True)]
    ev: Any = {"best": 0, "moves": [
        {"turn": {"seat": 0, "play": ["1", 0]}, "samples": 8, "margin_samples": best},
        {"turn": {"seat": 0, "play": ["1", 1]}, "samples": 8, "margin_samples": other},
        {"turn": {"seat": 0, "wake": True}, "samples": 8, "margin_samples": [9.0] * 8}]}
    assert PEEK_CARDS == ("spread", "outcome", "decision")
    assert peek_card(view, ev, worlds) == (0, 0)  # card 1: "spread" is the default
    assert peek_card(view, ev, worlds, "outcome") == (0, 1)  # card 2
    assert peek_card(view, ev, worlds, "decision") == (1, 1)  # card 3
    unsampled: Any = {**ev, "moves": [{**m, "samples": 4} for m in ev["moves"]]}
    for how in PEEK_CARDS:  # the moves not played in every world: the spread decides
        assert peek_card(view, unsampled, worlds, how) == (0, 0)
    assert peek_card({"queues": [[{"key": 4, "value": 2}]]}, ev, worlds, "outcome") is None
    with pytest.raises(SetupError, match="peek card: one of spread, outcome, decision"):
        peek_card(view, ev, worlds, "nearest")
    with pytest.raises(SetupError, match="peek_card must be one of"):
        ReaderBot(1, peek_card="nearest")
    assert ReaderBot(1).peek_card == "spread"


def test_rotations_rotate_only_when_a_rotating_turn_beats_every_plain_play() -> None:
    """``rotations=True``: the reader's bare evaluation weighs rotating turns too; it plays
    its best turn when that rotates and beats its best plain play by more than
    ``rotate_gain`` (forgoing the peek), else it goes on as without rotations (a peek
    before its best plain play); on by default (``ROTATIONS``); ``rotations=False`` weighs
    no rotating move."""
    assert ROTATIONS and ReaderBot(1).rotations
    done = 0
    for seed, g, view in _positions(60, 3, 9):
        eager = ReaderBot(seed, budget=16, rotations=True, rotate_gain=-1.0, peek_gain=1e9)
        a = eager.choose(view, g.legal_turns)
        assert eager.last is not None
        best = Turn.from_json(eager.last["moves"][eager.last["best"]]["turn"])
        if best.rotate is None or best.wake:
            continue
        assert a == best and a in g.legal_turns  # rotating: no peek
        shy = ReaderBot(seed, budget=16, rotations=True, rotate_gain=1e9, peek_gain=1e9)
        b = shy.choose(view, g.legal_turns)
        assert shy.last == eager.last  # the same evaluation, another threshold
        assert isinstance(b, Peek) or (b != "wake" and b.rotate is None)
        off = ReaderBot(seed, budget=16, rotations=False)
        off.choose(view, g.legal_turns)
        assert off.last is not None
        assert not any("rotate" in m["turn"] for m in off.last["moves"])
        turn = decide(ReaderBot(seed, budget=16, rotations=True, rotate_gain=-1.0), g)
        assert turn in g.legal_turns
        done += 1
        if done == 3:
            break
    assert done == 3


def test_peek_values_cross_fit_and_say_nothing_without_a_choice() -> None:
    g = random_game(3, seed=4, turns=6)
    seat = g.to_move
    assert seat is not None
    view = g.view(seat)
    worlds: list[dict[int, int]] = []
    ev = evaluate_view(view, 24, 1, rotations=False, per_world=True,
                       deal=dealer(view, Belief.uniform(view).sample, worlds))
    assert len(worlds) == 24
    values = peek_values(view, ev, worlds)
    unseen = {c["key"] for q in view["queues"] for c in q if c["value"] is None}
    assert {p.key for p in values} == unseen
    assert all(p.worlds == 24 for p in values)
    assert values == sorted(values, key=lambda p: (-p.gain, p.queue, p.position))
    one = {**ev, "moves": ev["moves"][:1]}  # one move: nothing to decide better
    assert "wake" not in one["moves"][0]["turn"]
    got = peek_values(view, one, worlds)
    assert got and all(p.gain == pytest.approx(0.0) for p in got)


def test_evaluate_with_the_inferred_model() -> None:
    from tenleave_widget.analysis.position import evaluate
    g = Game.from_record(PEEK_RECORD)
    plain = evaluate(g, 0, budget=16, seed=1)
    assert evaluate(g, 0, budget=16, seed=1, model="uniform") == plain  # the default
    inferred = evaluate(g, 0, budget=16, seed=1, model="inferred", beta=8.0)
    assert inferred["model"] == "inferred" and inferred["beta"] == {"1": 8.0}
    assert "model" not in plain
    assert [m["turn"] for m in inferred["moves"]] == [m["turn"] for m in plain["moves"]]
    assert inferred["moves"] != plain["moves"]  # other worlds: Ben's greedy plays read
    with pytest.raises(SetupError, match="model must be 'uniform' or 'inferred'"):
        evaluate(g, 0, budget=4, model="poker")
    # read by the one-swat cost unless told (the reader bot's): cost="fitted" reads otherwise
    assert inferred["cost"] == "one-swat"
    assert evaluate(g, 0, budget=16, seed=1, model="inferred", beta=8.0,
                    cost="one-swat") == inferred
    fitted = evaluate(g, 0, budget=16, seed=1, model="inferred", cost="fitted")
    assert fitted["cost"] == "fitted" and fitted["model"] == "inferred"
    with pytest.raises(SetupError, match="cost must be one of"):
        evaluate(g, 0, budget=4, model="inferred", cost="clever")


@pytest.mark.slow
def test_tenleave_evaluate_model_inferred(tmp_path: object) -> None:
    from pathlib import Path

    path = Path(str(tmp_path)) / "g.json"
    path.write_text(json.dumps(PEEK_RECORD))

    def run(*extra: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "tenleave_widget", "evaluate", str(path),
                               "--seat", "0", "--samples", "8", "--json", *extra],
                              capture_output=True, text=True, check=False)

    base, uniform = run(), run("--model", "uniform")
    assert base.returncode == 0 and base.stdout == uniform.stdout  # byte-identical
    inferred = run("--model", "inferred", "--beta", "4")
    assert inferred.returncode == 0, inferred.stderr
    assert json.loads(inferred.stdout)["beta"] == {"1": 4.0}
    bad = run("--model", "inferred", "--beta", "-1")
    assert bad.returncode == 2 and bad.stdout == "" and len(bad.stderr.splitlines()) == 1
    fitted = run("--model", "inferred", "--beta", "4", "--cost", "fitted")
    assert fitted.returncode == 0, fitted.stderr
    assert json.loads(fitted.stdout)["cost"] == "fitted"
    assert json.loads(inferred.stdout)["cost"] == "one-swat"  # the default
    bad = run("--model", "inferred", "--cost", "clever")
    assert bad.returncode == 2 and bad.stdout == "" and len(bad.stderr.splitlines()) == 1
    assert "--cost must be one of" in bad.stderr
