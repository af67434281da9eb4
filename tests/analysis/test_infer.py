"""The inference model (``tenleave_widget.analysis.infer``): its exact posterior is the one a
naive enumeration of every world through the engine gives, beta 0 is the uniform model
exactly, the sampler converges to the exact posterior, and it is a pure function of what
the seat can see."""

from __future__ import annotations

import copy
import itertools
import json
import math
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from helpers import random_game

import tenleave_widget.analysis.infer as infer_module
from analysis.test_lookahead import permuted
from tenleave_widget import Game, Turn
from tenleave_widget.analysis.bots import decide, make_bot
from tenleave_widget.analysis.infer import infer, inferred_odds, public_history, with_history
from tenleave_widget.analysis.odds import move_evaluation, seat_odds
from tenleave_widget.analysis.position import position_infer, position_odds
from tenleave_widget.engine.errors import InvalidViewError, SetupError
from tenleave_widget.programs.cli import tidy_numbers

# ------------------------------------------------------------------ a naive reference


def _notation(value: int, back: str) -> str:
    return f"{value}*" if back == "marked" else str(value)


def _choices(view: dict[str, Any], plays_only: bool, kind: str = "one-swat",
             turn: int = 0) -> list[tuple[Any, float]]:
    moves = move_evaluation(view)
    out = [("wake" if m.get("wake") else tuple(m["play"]), float(m["expected_penalty"]))
           for m in moves if not (plays_only and m.get("wake"))]
    if kind == "one-swat":
        return out
    from tenleave_widget.analysis.lookahead import evaluate_view

    margin: dict[Any, float] = {}
    ev = evaluate_view(view, infer_module.LOOKAHEAD_COST_WORLDS, turn, rotations=False)
    for m in ev["moves"]:
        key = "wake" if m["turn"].get("wake") else tuple(m["turn"]["play"])
        margin[key] = min(margin.get(key, math.inf), m["expected_margin"])
    return [(key, margin[key]) for key, _ in out]


def _p_choice(view: dict[str, Any], chosen: Any, plays_only: bool, beta: float,
              kind: str = "one-swat", turn: int = 0) -> float:
    options = _choices(view, plays_only, kind, turn)
    low = min(c for _, c in options)
    z = sum(math.exp(-beta * (c - low)) for _, c in options)
    return sum(math.exp(-beta * (c - low)) for m, c in options if m == chosen) / z


Grid = list[tuple[float, float]] | list[tuple[float, float, str]]
"""An opponent's beta in the naive reference: (beta, prior probability) pairs, or
(beta, prior probability, the cost read at that beta) triples."""


Naive = tuple[dict[int, dict[int, float]], dict[tuple[int, str], dict[int, float]],
              dict[int, float], list[tuple[dict[int, int], float]]]


def naive_posterior(g: Game, seat: int, beta: dict[int, Grid], skip: int | None = None) -> Naive:
    """Every world of ``seat``'s uniform model (ordered draws of labelled cards, equal
    value tuples merged), replayed in the engine with the record's turns and those values;
    each opponent's choices scored from the engine's view of it at that moment, for every
    beta of its grid, and the beta integrated out with its prior. Returns the posterior
    per unknown key, the expected value counts per unseen hand, each opponent's
    posterior mean beta and every world (key -> value) with its posterior probability.
    ``skip``: the index of a turn whose choices are not read (the evidence without it)."""
    view = g.view(seat)
    rec = g.to_record()
    places: dict[tuple[int, str], list[int]] = {}
    for queue in view["queues"]:
        for c in queue:
            if c["value"] is None:
                places.setdefault((c["owner"], c["back"]), []).append(c["key"])
    hands = {(o, b): view["hands"][o][b] for o in range(g.seats) if o != seat
             for b in ("marked", "plain") if view["hands"][o][b]}
    pools: dict[tuple[int, str], list[int]] = {}
    for key in set(places) | set(hands):
        o, b = key
        left = Counter(c for c in view["dealt"][o] if c.endswith("*") == (b == "marked"))
        left -= Counter(view["swatted"][o])
        left -= Counter(e["card"] for e in view["safe"] if e["owner"] == o)
        left -= Counter(_notation(c["value"], c["back"]) for q in view["queues"] for c in q
                        if c["owner"] == o and c["value"] is not None)
        pools[key] = [int(c[0]) for c in left.elements()]
    backs = {c["key"]: c["back"] for q in view["queues"] for c in q}
    keys = sorted(places)
    options = [Counter(itertools.permutations(pools[k], len(places[k]))) for k in keys]
    post: dict[int, Counter[int]] = {x: Counter() for k in keys for x in places[k]}
    mean = {o: 0.0 for o in beta}
    total = 0.0
    worlds: list[tuple[dict[int, int], float]] = []
    for combo in itertools.product(*(list(o.items()) for o in options)):
        world = {x: v for k, (values, _) in zip(keys, combo, strict=True)
                 for x, v in zip(places[k], values, strict=True)}
        rec2 = copy.deepcopy(rec)
        for x, v in world.items():
            rec2["turns"][x]["play"][0] = _notation(v, backs[x])
        h = Game.from_record(rec2, turns=0)
        like = {o: [1.0] * len(grid) for o, grid in beta.items()}
        for i, raw in enumerate(rec2["turns"]):
            t = Turn.from_json(raw)
            o = t.seat
            if o != seat and i != skip:
                play = (t.card, t.queue)
                for j, (rate, _, *how) in enumerate(beta[o]):
                    k = (how or ["one-swat"])[0]
                    if t.wake:
                        p = _p_choice(h.view(o), "wake", False, rate, k, i)
                        p *= _p_choice(h.preview([{"kind": "wake"}]).view(o), play, True, rate,
                                       k, i)
                    elif t.action != "none" and t.extra == "before":
                        p = _p_choice(h.preview(t.steps()[:1]).view(o), play, True, rate, k, i)
                    else:
                        p = _p_choice(h.view(o), play, False, rate, k, i)
                    like[o][j] *= p
            h.apply(t)
        weight = float(math.prod(n for _, n in combo))
        given: dict[int, float] = {}
        for o, grid in beta.items():
            m = sum(g[1] * x for g, x in zip(grid, like[o], strict=True))
            given[o] = sum(g[0] * g[1] * x for g, x in zip(grid, like[o], strict=True)) / m
            weight *= m
        total += weight
        worlds.append((world, weight))
        for o in beta:
            mean[o] += weight * given[o]
        for x, v in world.items():
            post[x][v] += weight  # type: ignore[assignment]
    cards = {x: {v: w / total for v, w in sorted(c.items())} for x, c in post.items()}
    counts: dict[tuple[int, str], dict[int, float]] = {}
    for k in hands:
        expected = Counter(pools[k])
        out = {v: float(c) for v, c in expected.items()}
        for x in places.get(k, []):
            for v, p in cards[x].items():
                out[v] -= p
        counts[k] = {v: out[v] for v in sorted(out)}
    return (cards, counts, {o: m / total for o, m in mean.items()},
            [(w, x / total) for w, x in worlds])


def bot_game(kinds: list[str], seed: int, turns: int) -> Game:
    g = Game(len(kinds), seed=seed, first=seed % len(kinds))
    bots = [make_bot(k, seed=seed * 10 + i) for i, k in enumerate(kinds)]
    while not g.finished and g.turns_applied < turns:
        s = g.to_move
        assert s is not None
        g.apply(decide(bots[s], g))
    return g


def worlds_of(g: Game, seat: int) -> int:
    view = g.view(seat)
    places: Counter[tuple[int, str]] = Counter(
        (c["owner"], c["back"]) for q in view["queues"] for c in q if c["value"] is None)
    return math.prod(5 ** n for n in places.values())


def small_positions() -> Iterator[tuple[Game, int]]:
    """Positions of random and greedy games (2 and 3 seats, peeks, rotations and wakes
    among them) where the naive enumeration stays small."""
    for seed in range(60):
        if seed % 3 == 0:
            g = random_game(2 + seed % 2, seed=seed, turns=4 + seed % 9)
        else:
            g = bot_game(["greedy", "random", "greedy"][: 2 + seed % 2], seed, 4 + seed % 11)
        for seat in range(g.seats):
            if g.to_move is not None and worlds_of(g, seat) <= 700:
                yield g, seat


# ------------------------------------------------------------------------------ exact


def test_exact_posterior_is_the_naive_one() -> None:
    """The exact posterior (patched views of a replayed public history) equals the naive
    one (every world replayed in the engine from the record), to rounding: for given betas
    and for fitted ones (the beta integrated out on its grid, its posterior mean)."""
    checked = kinds = 0
    actions: Counter[str] = Counter()
    for g, seat in small_positions():
        fitted = checked % 3 == 2
        betas = {o: (0.7 if o % 2 else 3.0) for o in range(g.seats) if o != seat}
        out = infer(with_history(g, seat), beta="fitted" if fitted else betas, cost="one-swat")
        assert all(f["method"] in ("exact", "uniform") for f in out["opponents"])
        grid = list(zip(infer_module.BETA_GRID, infer_module.BETA_PRIOR, strict=True))
        cards, counts, means, _ = naive_posterior(
            g, seat, {o: grid if fitted else [(b, 1.0)] for o, b in betas.items()})
        for f in out["opponents"]:
            assert f["fitted"] == fitted
            assert f["beta"] == pytest.approx(means[f["seat"]], rel=1e-9)
        assert {c["key"] for c in out["cards"]} == set(cards)
        for c in out["cards"]:
            want = cards[c["key"]]
            assert set(c["inferred"]) == {str(v) for v in want} | set(c["uniform"])
            for v, p in c["inferred"].items():
                assert p == pytest.approx(want.get(int(v), 0.0), abs=1e-9)
        for hb in out["hands"]:
            want_counts = counts[(hb["owner"], hb["back"])]
            for v, p in hb["inferred"].items():
                assert p * hb["size"] == pytest.approx(want_counts[int(v)], abs=1e-9)
        kinds += any(c["inferred"] != c["uniform"] for c in out["cards"])
        actions.update(t.action for t in g.turns)
        checked += 1
        if checked >= 14:
            break
    assert checked >= 14 and kinds >= 6, (checked, kinds)
    assert actions["peek"] and actions["rotate"] and actions["wake"], actions


def test_the_cost_fitted_per_opponent_is_the_naive_mixture() -> None:
    """``cost="fitted"``: each opponent is read by the one-swat cost or by its lookahead
    margin, which one integrated out with its beta (prior: 0.9 at beta 0, the rest spread
    evenly over both costs' grids) — the exact posterior equals the naive enumeration's
    with that mixed grid; a given beta is read by the one-swat cost, as by default."""
    rest = infer_module.BETA_GRID[1:]
    share = (1 - infer_module.BETA_PRIOR[0]) / (2 * len(rest))
    mixed = [(0.0, infer_module.BETA_PRIOR[0], "one-swat")] + [
        (b, share, k) for k in ("one-swat", "lookahead") for b in rest]
    checked = 0
    for g, seat in small_positions():
        if worlds_of(g, seat) > 40 or not any(t.seat != seat for t in g.turns):
            continue
        view = with_history(g, seat)
        out = infer(view, cost="fitted")
        assert json.dumps(infer(view, beta=2.0, cost="fitted")) == json.dumps(
            infer(view, beta=2.0, cost="one-swat"))
        cards, _, means, _ = naive_posterior(
            g, seat, {o: mixed for o in range(g.seats) if o != seat})
        for f in out["opponents"]:
            assert f["beta"] == pytest.approx(means[f["seat"]], rel=1e-9)
            assert sum(f["reading"].values()) == pytest.approx(1.0)
        for c in out["cards"]:
            for v, p in c["inferred"].items():
                assert p == pytest.approx(cards[c["key"]].get(int(v), 0.0), abs=1e-9)
        checked += 1
        if checked >= 4:
            break
    assert checked >= 4


def test_the_fitted_cost_reads_each_kind_of_player_by_its_own_cost() -> None:
    """Read with ``cost="fitted"``, a greedy player is read by the one-swat cost and a
    random one as random (a lookahead player, in one game, can come out any way: its
    four-world margin explains it only a little better; ``bench_infer.py`` measures it)."""
    g = Game(3, seed=5)
    kinds = ["lookahead", "greedy", "random"]
    bots = [make_bot(k, s) for s, k in enumerate(kinds)]
    while g.turns_applied < 24:
        g.apply(decide(bots[g.to_move or 0], g))
    for seat in range(3):
        out = infer(with_history(g, seat), cost="fitted")
        assert out["model"].startswith("softmax of the one-swat expected penalty or of")
        for f in out["opponents"]:
            read = f["reading"]
            best = max(read, key=read.__getitem__)
            want = {"greedy": "one-swat", "random": "random"}.get(kinds[f["seat"]], best)
            assert best == want and read[best] > 0.9 or kinds[f["seat"]] == "lookahead", f


def test_beta_zero_is_the_uniform_model_exactly() -> None:
    """With beta 0 every inferred distribution is its uniform one, byte for byte, and the
    uniform one is what is left of the owner's cards of that back (RULES.md §9)."""
    seen = 0
    for seed in range(12):
        g = random_game(2 + seed % 4, seed=seed, turns=3 + 2 * seed)
        for seat in range(g.seats):
            out = infer(with_history(g, seat), beta=0)
            assert all(f["method"] == "uniform" and f["beta"] == 0.0 for f in out["opponents"])
            for c in out["cards"] + out["hands"]:
                assert json.dumps(c["inferred"]) == json.dumps(c["uniform"])
                assert sum(c["uniform"].values()) == pytest.approx(1.0)
                seen += 1
            view = g.view(seat)
            for c in out["cards"]:
                card = view["queues"][c["queue"]][c["position"]]
                assert (card["key"], card["owner"], card["back"], card["value"]) == (
                    c["key"], c["owner"], c["back"], None)
    assert seen > 100


def test_every_unseen_card_is_listed_once() -> None:
    g = bot_game(["random", "greedy", "random", "greedy"], 5, 17)
    for seat in range(4):
        view = g.view(seat)
        out = infer(with_history(g, seat), beta=2.0)
        hidden = [c["key"] for q in view["queues"] for c in q if c["value"] is None]
        assert [c["key"] for c in out["cards"]] == hidden
        sizes = {(h["owner"], h["back"]): h["size"] for h in out["hands"]}
        for o in range(4):
            for b in ("marked", "plain"):
                assert sizes.get((o, b), 0) == (0 if o == seat else view["hands"][o][b])
        assert out["seat"] == seat and out["turn"] == 17
        assert set(out["beta"]) == {str(o) for o in range(4) if o != seat}


# --------------------------------------------------------------- what the seat knows


def permuted_positions(count: int) -> Iterator[tuple[Game, Game, int]]:
    """(game, the game with two of an opponent's cards swapped between the table and its
    hand — invisible to the seat, so the public history is the same —, the seat)."""
    done = 0
    for seed in range(200):
        kinds = [["greedy", "random"], ["random", "greedy", "greedy"],
                 ["greedy", "random", "greedy", "random"]][seed % 3]
        g = bot_game(kinds, seed, 5 + seed % 13)
        for seat in range(g.seats):
            h = permuted(g, seat)
            if h is not None:
                yield g, h, seat
                done += 1
                if done == count:
                    return
                break


@pytest.mark.slow
def test_permuting_the_unknown_cards_changes_nothing() -> None:
    """Swapping what the seat cannot see (consistently with its view) leaves every byte of
    the output the same: the inference reads the view and its public history only."""
    changed = 0
    for g, h, seat in permuted_positions(14):
        assert h.view(None) != g.view(None)
        assert with_history(h, seat) == with_history(g, seat)
        for beta in (2.5, "fitted"):
            a = json.dumps(infer(with_history(g, seat), beta=beta, seed=3))
            b = json.dumps(infer(with_history(h, seat), beta=beta, seed=3))
            assert a == b
        changed += a != json.dumps(infer(with_history(g, seat), beta=0, seed=3))
    assert changed >= 7


# ------------------------------------------------------------------------------ errors


def test_bad_input_is_a_typed_error() -> None:
    g = bot_game(["greedy", "greedy", "random"], 2, 6)
    view = with_history(g, 0)
    with pytest.raises(InvalidViewError, match="history"):
        infer(g.view(0))
    with pytest.raises(InvalidViewError, match="seat"):
        infer(with_history(g, 0) | {"seat": None})
    for bad in (-1, "keen", True, math.inf, {7: 1.0}, {1: -2}):
        with pytest.raises(SetupError, match="beta"):
            infer(view, beta=bad)
    with pytest.raises(SetupError, match="samples"):
        infer(view, samples=0)
    short = copy.deepcopy(view)
    short["history"]["turns"].pop()
    with pytest.raises(InvalidViewError, match="history has 5 turns"):
        infer(short)
    other = copy.deepcopy(view)
    other["history"]["token"] = next(t for t in ("I+II", "II+III") if t != view["token"]
                                     and t != public_history(g)["token"])
    with pytest.raises(InvalidViewError, match="history"):
        infer(other)
    moved = copy.deepcopy(view)
    play = next(e for e in moved["history"]["turns"][1] if e["kind"] == "play")
    play["queue"] = 1 - play["queue"]
    with pytest.raises(InvalidViewError, match="history"):
        infer(moved)
    assert view == with_history(g, 0)  # not modified


# ------------------------------------------------------------------------------ sampled


def _marginals(out: dict[str, Any]) -> dict[tuple[str, int, str], dict[str, float]]:
    got = {("card", c["key"], c["back"]): c["inferred"] for c in out["cards"]}
    got.update({("hand", h["owner"], h["back"]): h["inferred"] for h in out["hands"]})
    return got


def test_the_sampler_converges_to_the_exact_posterior(monkeypatch: pytest.MonkeyPatch) -> None:
    """Importance sampling from the uniform model (forced by a zero enumeration limit)
    agrees with the exact enumeration within its noise, and reports its ESS."""
    checked = 0
    for seed in range(40):
        g = bot_game(["greedy", "random", "greedy"], seed, 9 + seed % 8)
        seat = seed % 3
        view = with_history(g, seat)
        exact = infer(view, beta=1.0)
        if not any(c["inferred"] != c["uniform"] for c in exact["cards"]):
            continue
        monkeypatch.setattr(infer_module, "EXACT_LIMIT", 0)
        sampled = infer(view, beta=1.0, samples=3000, seed=seed)
        monkeypatch.undo()
        informed = [f for f in sampled["opponents"] if f["method"] == "sampled"]
        assert informed and not sampled["fallback"]
        ess = sampled["effective_samples"]
        assert ess is not None and infer_module.ESS_FLOOR < ess <= 3000
        assert ess == min(f["effective_samples"] for f in informed)  # type: ignore[type-var]
        want, got = _marginals(dict(exact)), _marginals(dict(sampled))
        assert want.keys() == got.keys()
        for k in want:
            for v, p in want[k].items():
                assert got[k][v] == pytest.approx(p, abs=2.5 / math.sqrt(ess)), (seed, k, v)
        checked += 1
        if checked == 5:
            break
    assert checked == 5


def test_a_collapsed_sample_falls_back_visibly(monkeypatch: pytest.MonkeyPatch) -> None:
    """Strong evidence (beta 32 against a greedy seat's many choices) and few worlds: the
    effective sample size collapses; the component falls back to the uniform model and
    says so."""
    g = bot_game(["greedy", "greedy"], 1, 11)
    view = with_history(g, 0)
    monkeypatch.setattr(infer_module, "EXACT_LIMIT", 0)
    out = infer(view, beta=32.0, samples=40, seed=1)
    fit = out["opponents"][0]
    assert out["fallback"] and fit["fallback"] and fit["method"] == "sampled"
    assert fit["effective_samples"] is not None and fit["effective_samples"] < 16
    assert out["effective_samples"] == fit["effective_samples"]
    for c in out["cards"] + out["hands"]:
        assert c["inferred"] == c["uniform"]
    monkeypatch.undo()
    exact = infer(view, beta=32.0)
    assert not exact["fallback"] and exact["opponents"][0]["method"] == "exact"
    assert any(c["inferred"] != c["uniform"] for c in exact["cards"])


def test_sampled_output_is_pure_in_the_view(monkeypatch: pytest.MonkeyPatch) -> None:
    """The sampled path too: the same view and seed give the same bytes, whatever the
    hidden cards really are; another seed gives other worlds."""
    monkeypatch.setattr(infer_module, "EXACT_LIMIT", 0)
    done = 0
    for g, h, seat in permuted_positions(6):
        a = json.dumps(infer(with_history(g, seat), beta=1.5, seed=4, samples=200))
        assert a == json.dumps(infer(with_history(h, seat), beta=1.5, seed=4, samples=200))
        other = json.dumps(infer(with_history(g, seat), beta=1.5, seed=5, samples=200))
        done += a != other
    assert done >= 3


# ------------------------------------------------------------------------------ fitted


def test_fitted_beta_reads_random_and_greedy_players() -> None:
    """Fitted from each opponent's own choices: a random player's beta comes out near 0
    (the model falls back to uniform by itself), a greedy player's large; an opponent
    that has not chosen yet keeps the prior's mean."""
    for seed, kinds in enumerate([["random", "greedy", "random"],
                                  ["greedy", "random", "greedy", "random"]]):
        g = bot_game(kinds, seed, 10**6)
        h = Game.from_record(g.to_record(), turns=g.turns_applied - 3)
        out = infer(with_history(h, 0), beta="fitted")
        for f in out["opponents"]:
            assert f["fitted"] and f["decisions"] >= 9
            if kinds[f["seat"]] == "random":
                assert f["beta"] < 0.5, f
            else:
                assert f["beta"] > 8.0, f
        assert out["beta"] == {str(f["seat"]): f["beta"] for f in out["opponents"]}
    prior_mean = sum(b * p for b, p in zip(infer_module.BETA_GRID, infer_module.BETA_PRIOR,
                                           strict=True))
    first = infer(with_history(Game(3, seed=1), 0), beta="fitted")
    assert [f["beta"] for f in first["opponents"]] == pytest.approx([prior_mean, prior_mean])
    assert [f["method"] for f in first["opponents"]] == ["uniform", "uniform"]


# --------------------------------------------------------------------------------- CLI


def _as_printed(value: object) -> object:
    """``value`` as the CLI prints it: JSON, floats to 12 significant digits."""
    return tidy_numbers(json.loads(json.dumps(value)))


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tenleave_widget", *args],
                          capture_output=True, text=True)


def test_cli_infer_prints_the_json_of_position_infer(tmp_path: Path) -> None:
    g = bot_game(["greedy", "random", "greedy"], 4, 40)
    f = tmp_path / "g.json"
    f.write_text(json.dumps(g.to_record()))
    r = _cli("infer", str(f), "--seat", "1", "--turns", "11", "--beta", "2.5", "--seed", "3")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    want = position_infer(g.to_record(), 1, 11, beta=2.5, seed=3)
    assert out == _as_printed(want)
    assert out["seat"] == 1 and out["turn"] == 11 and out["beta"] == {"0": 2.5, "2": 2.5}
    assert {"cards", "effective_samples", "hands", "opponents"} <= set(out)
    fitted = json.loads(_cli("infer", str(f), "--seat", "0").stdout)
    assert fitted == _as_printed(position_infer(g, 0, beta="fitted"))
    assert fitted["turn"] == g.turns_applied and all(f["fitted"] for f in fitted["opponents"])


def test_cli_infer_and_odds_read_the_players_by_the_cost_asked(tmp_path: Path) -> None:
    """``--cost C`` is ``cost=C`` of ``position_infer`` / ``position_odds`` (the default:
    ``fitted``); the uniform odds ignore it, byte for byte; a cost that is not one of
    ``infer``'s is one line on stderr, exit 2, with or without the inferred model."""
    g = bot_game(["greedy", "random", "greedy"], 4, 40)
    f = tmp_path / "g.json"
    f.write_text(json.dumps(g.to_record()))
    base = ["--seat", "1", "--turns", "11"]
    swat = _cli("infer", str(f), *base, "--cost", "one-swat")
    assert swat.returncode == 0, swat.stderr
    assert json.loads(swat.stdout) == _as_printed(
        position_infer(g.to_record(), 1, 11, cost="one-swat"))
    fitted = json.loads(_cli("infer", str(f), *base).stdout)
    assert fitted == json.loads(_cli("infer", str(f), *base, "--cost", "fitted").stdout)
    assert json.loads(swat.stdout)["model"] != fitted["model"]  # it says how it read them
    odds = _cli("odds", str(f), *base, "--model", "inferred", "--beta", "2", "--cost", "one-swat")
    assert odds.returncode == 0, odds.stderr
    assert json.loads(odds.stdout) == _as_printed(
        position_odds(g.to_record(), 1, 11, model="inferred", beta=2.0, cost="one-swat"))
    # the uniform model reads no players: --cost without --model inferred is refused
    refused = _cli("odds", str(f), *base, "--cost", "lookahead")
    assert refused.returncode == 2 and refused.stdout == ""
    assert len(refused.stderr.splitlines()) == 1 and "--model inferred" in refused.stderr
    for command in (["infer"], ["odds", "--model", "inferred"]):
        bad = _cli(command[0], str(f), *base, *command[1:], "--cost", "clever")
        assert bad.returncode == 2 and bad.stdout == "", bad.stderr
        assert len(bad.stderr.splitlines()) == 1 and "--cost must be one of one-swat" \
            in bad.stderr and "clever" in bad.stderr


def test_cli_infer_errors_are_one_line_exit_2(tmp_path: Path) -> None:
    g = bot_game(["greedy", "random"], 2, 8)
    f = tmp_path / "g.json"
    f.write_text(json.dumps(g.to_record()))
    for args, says in ((["--seat", "0", "--beta", "keen"], "fitted"),
                       (["--seat", "0", "--beta", "-1"], "beta"),
                       (["--seat", "0", "--beta", "nan"], "beta"),
                       (["--seat", "5"], "seat 5"),
                       (["--seat", "0", "--turns", "99"], "turn"),
                       (["--beta", "1"], "--seat")):
        r = _cli("infer", str(f), *args)
        assert r.returncode == 2 and r.stdout == "", (args, r)
        assert says in r.stderr and len(r.stderr.strip().splitlines()) == 1, (args, r.stderr)


# -------------------------------------------------------------------------------- odds


def _close(a: Any, b: Any, tol: float = 1e-9) -> None:
    """Two odds JSON objects equal, numbers to ``tol``."""
    if isinstance(a, dict):
        assert isinstance(b, dict) and a.keys() == b.keys(), (a, b)
        for k in a:
            _close(a[k], b[k], tol)
    elif isinstance(a, list):
        assert isinstance(b, list) and len(a) == len(b)
        for x, y in zip(a, b, strict=True):
            _close(x, y, tol)
    elif isinstance(a, float) and not isinstance(b, bool):
        assert a == pytest.approx(b, abs=tol)
    else:
        assert a == b


def test_inferred_odds_are_the_mixture_over_every_world() -> None:
    """The odds under the posterior equal the naive mixture: every world of the naive
    enumeration, its table filled in (one exact swat), weighted by its posterior."""
    checked = with_moves = moved = 0
    for g, seat in small_positions():
        betas = {o: 2.0 for o in range(g.seats) if o != seat}
        got = inferred_odds(with_history(g, seat), beta=betas)
        *_, worlds = naive_posterior(g, seat, {o: [(b, 1.0)] for o, b in betas.items()})
        view = g.view(seat)
        mixed: Any = None
        for world, p in worlds:
            filled = {**view, "queues": [[{**c, "value": world.get(c["key"], c["value"])}
                                          for c in q] for q in view["queues"]]}
            one = json.loads(json.dumps(seat_odds(filled)))
            for q, qo in enumerate(one["queues"]):
                for c, orig in zip(qo["cards"], view["queues"][q], strict=True):
                    c["value"] = orig["value"]
            mixed = _scaled(one, p) if mixed is None else _added(mixed, _scaled(one, p))
        assert got["model"] == "inferred" and set(got) >= {"inference", "queues"}
        plain = {k: v for k, v in got.items() if k not in ("model", "inference")}
        for qo in plain["queues"]:  # the naive mixture lists every total of every world
            qo["total"] = {t: p for t, p in qo["total"].items() if p > 0}
        for qo in mixed["queues"]:
            qo["total"] = {t: qo["total"][t] for t in sorted(qo["total"], key=int)
                           if qo["total"][t] > 0}
        _close(plain, mixed)
        checked += 1
        with_moves += "moves" in plain
        moved += plain["expected_penalty"] != pytest.approx(
            seat_odds(view)["expected_penalty"], abs=1e-6)
        if checked == 10:
            break
    assert checked == 10 and with_moves >= 3 and moved >= 3, (with_moves, moved)


def _scaled(x: Any, p: float) -> Any:
    if isinstance(x, dict):
        return {k: _scaled(v, p) for k, v in x.items()}
    if isinstance(x, list):
        return [_scaled(v, p) for v in x]
    if isinstance(x, float):  # probabilities and penalties (seats and values are ints)
        return x * p
    return x


def _added(a: Any, b: Any) -> Any:
    if isinstance(a, dict):
        keys = list(a) + [k for k in b if k not in a]
        return {k: _added(a[k], b[k]) if k in a and k in b else a.get(k, b.get(k))
                for k in keys}
    if isinstance(a, list):
        return [_added(x, y) for x, y in zip(a, b, strict=True)]
    if isinstance(a, float):
        return a + b
    return a


def test_inferred_odds_with_beta_zero_are_the_uniform_odds() -> None:
    """With beta 0 the odds read both ways agree (to rounding); the default model is the
    uniform one, byte for byte."""
    for seed in range(10):
        g = random_game(2 + seed % 4, seed=seed, turns=4 + 3 * seed)
        for seat in range(g.seats):
            uniform = seat_odds(g.view(seat))
            assert json.dumps(position_odds(g, seat)) == json.dumps(uniform)
            assert json.dumps(position_odds(g, seat, model="uniform", beta=3.0)) == \
                json.dumps(uniform)
            got = position_odds(g, seat, model="inferred", beta=0)
            assert got["inference"]["beta"] == {str(o): 0.0 for o in range(g.seats) if o != seat}
            _close({k: v for k, v in got.items() if k not in ("model", "inference")},
                   json.loads(json.dumps(uniform)), 1e-12)
    with pytest.raises(SetupError, match="model"):
        position_odds(g, 0, model="clever")


def test_cli_odds_model_inferred(tmp_path: Path) -> None:
    g = bot_game(["greedy", "random", "greedy"], 6, 14)
    f = tmp_path / "g.json"
    f.write_text(json.dumps(g.to_record()))
    r = _cli("odds", str(f), "--seat", "2", "--model", "inferred", "--beta", "3")
    assert r.returncode == 0, r.stderr
    want = position_odds(g.to_record(), 2, model="inferred", beta=3.0)
    assert json.loads(r.stdout) == _as_printed(want)
    plain = _cli("odds", str(f), "--seat", "2")
    assert json.loads(plain.stdout) == _as_printed(seat_odds(g.view(2)))
    bad = _cli("odds", str(f), "--seat", "2", "--model", "clever")
    assert bad.returncode == 2 and bad.stdout == "" and len(bad.stderr.splitlines()) == 1


def test_a_greedy_seat_always_makes_the_cheapest_choice_the_model_reads() -> None:
    """The decisions the model reads are the greedy bot's own: in its true view it always
    chose a decision of the lowest one-swat cost (so beta -> infinity is that bot);
    a random seat often did not."""
    from tenleave_widget.analysis.infer import observed_choices

    worse = Counter[str]()
    count = Counter[str]()
    for seed in range(6):
        kinds = ["greedy", "random", "greedy"]
        g = bot_game(kinds, seed, 10**6)
        for seat, turn, costs, chosen in observed_choices(g):
            kind = kinds[seat]
            count[kind] += 1
            if costs[chosen] > min(costs) + 1e-12:
                worse[kind] += 1
            assert 0 <= turn < g.turns_applied and g.turns[turn].seat == seat
    assert worse["greedy"] == 0 and count["greedy"] >= 100
    assert worse["random"] > count["random"] / 3


def test_the_lookahead_cost_is_the_lookahead_margin_from_the_choosers_view() -> None:
    """``cost="lookahead"``: each opponent decision's cost is ``evaluate_view``'s expected
    margin from that opponent's own view then (LOOKAHEAD_COST_WORLDS worlds, the turn as
    its seed; waking: its best play after) — the view rebuilt from the public history and
    the world equals the engine's."""
    from tenleave_widget.analysis.lookahead import evaluate_view

    g = Game(3, seed=11)
    bots = [make_bot("lookahead", s) for s in range(3)]
    while g.turns_applied < 10:
        g.apply(decide(bots[g.to_move or 0], g))
    read = infer_module.observed_choices(g, cost="lookahead")
    plain = infer_module.observed_choices(g)
    assert [(s, t, c) for s, t, _, c in read] == [(s, t, c) for s, t, _, c in plain]
    h = Game.from_record(g.to_record(), turns=0)
    starts = {}
    for k, t in enumerate(g.turns):
        starts.setdefault(k, h.view(t.seat))
        h.apply(t)
    checked = 0
    for (_seat, turn, costs, _), (_, _, one, _) in zip(read, plain, strict=True):
        if len(costs) != len(one) or g.turns[turn].wake:
            continue  # the moment after a wake: not the turn's start
        ev = evaluate_view(starts[turn], infer_module.LOOKAHEAD_COST_WORLDS, turn,
                           rotations=False)
        margin: dict[tuple[Any, ...], float] = {}
        for m in ev["moves"]:
            key = ("wake",) if m["turn"].get("wake") else ("play", *m["turn"]["play"])
            margin[key] = min(margin.get(key, math.inf), m["expected_margin"])
        moves = move_evaluation(starts[turn])
        assert costs == [margin[("wake",) if m.get("wake") else ("play", *m["play"])]
                         for m in moves]
        checked += 1
    assert checked >= 8
    out = infer(with_history(g, 0), cost="lookahead")
    assert out["model"] == "softmax of the lookahead margin (4 worlds)"
    assert infer(with_history(g, 0), cost="one-swat")["model"] == (
        "softmax of the one-swat expected penalty")
    assert infer(with_history(g, 0))["model"].startswith(
        "softmax of the one-swat expected penalty or of the lookahead margin")
    assert infer(with_history(g, 0), beta=1.0)["model"] == (
        "softmax of the one-swat expected penalty")  # a given beta: the one-swat scale
    mixed = infer(with_history(g, 0), beta={1: 1.0, 2: 0.5}, cost={1: "lookahead"})
    assert mixed["model"] == "softmax of each opponent's own cost (seat 1: lookahead, seat 2: " \
        "one-swat)"
    for bad in ("two-swat", {1: "two-swat"}):
        with pytest.raises(SetupError, match="cost must be one of one-swat, lookahead, fitted"):
            infer(with_history(g, 0), cost=bad)
    with pytest.raises(SetupError, match="cost names seat 0, which is not an opponent"):
        infer(with_history(g, 0), cost={0: "lookahead"})
