"""The play-out policy benchmark's own parts (``benchmarks/bench_policy.py``): its paired
statistics, its rotating rollout policy (today's policy when it may not rotate, world by
world; a rotation only when it lowers the mover's penalty of a swat now), its patch of the
one analysis (undone after), and a tiny strength run written as the result file says."""

from __future__ import annotations

import importlib.util
import json
import random
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from tenleave_widget import Game
from tenleave_widget.analysis import analyse as analyse_module
from tenleave_widget.analysis.analyse import Settings, analyse
from tenleave_widget.analysis.bots import decide, make_bot
from tenleave_widget.analysis.lookahead import _moves_of
from tenleave_widget.analysis.playout import Policy, Simulator
from tenleave_widget.analysis.playout_position import Position, World
from tenleave_widget.analysis.playouts import KERNELS, play_outs

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_policy.py"


@pytest.fixture(scope="module")
def bench() -> Iterator[ModuleType]:
    """The benchmark as a module; the play-out kernel it registers is taken out after
    (the other tests see the package's kernels only)."""
    spec = importlib.util.spec_from_file_location("bench_policy", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_policy"] = module
    spec.loader.exec_module(module)
    yield module
    KERNELS.pop(module.ROTATING, None)
    sys.modules.pop("bench_policy", None)


def _position(n: int, seed: int) -> Position:
    g = Game(n, seed=seed)
    bots = [make_bot("greedy", 10 * seed + s) for s in range(n)]
    stop = random.Random(seed).randrange(5 * n)
    while g.turns_applied < stop:
        s = g.to_move
        assert s is not None
        g.push(decide(bots[s], g))
    assert g.to_move is not None
    return Position(g.view(g.to_move))


def test_paired_differences_and_when_they_separate(bench: ModuleType) -> None:
    def row(base: list[int], arm: list[int]) -> dict[str, object]:
        return {"today": {"penalty": base, "same": True}, "x": {"penalty": arm, "same": False}}

    rows = [row([10, 5, 5], [8, 5, 5]), row([6, 6, 6], [6, 6, 6]), row([9, 3, 3], [5, 3, 3])]
    p = bench.paired(rows, "x")
    assert p["deals"] == 3 and p["same_share"] == 0.0
    assert p["penalty_gain"][0] == pytest.approx(2.0)  # (2 + 0 + 4) / 3
    assert p["margin_gain"][0] == pytest.approx(2.0)  # the others' points did not move
    lo, hi = p["penalty_gain"][1:]
    assert lo < 2.0 < hi and p["separates"] is None  # three deals: too few to tell
    many = rows * 40
    assert bench.paired(many, "x")["separates"] == "better"
    swapped = [{"today": r["x"], "x": r["today"]} for r in many]
    worse = bench.paired(swapped, "x")
    assert worse["separates"] == "worse" and worse["penalty_gain"][0] == pytest.approx(-2.0)
    assert worse["same_share"] == 1.0


def test_candidates_are_paired_against_each_other_on_the_same_deals(bench: ModuleType
                                                                     ) -> None:
    def row(base: int, x: int, y: int) -> dict[str, object]:
        return {"seats": 3, "deal": 0,
                "today": {"penalty": [base, 4, 4], "same": True, "cpu": [0.01]},
                "x": {"penalty": [x, 4, 4], "same": False, "cpu": [0.01]},
                "y": {"penalty": [y, 4, 4], "same": False, "cpu": [0.01]}}

    # y scores 1 point fewer than x on every deal, both fewer than today
    rows = [row(9, 7, 6), row(8, 5, 4), row(6, 6, 5)] * 40
    b = bench.between(rows, ["x", "y"])
    assert list(b) == ["y-x"]
    assert b["y-x"]["penalty_gain"] == pytest.approx([1.0, 1.0, 1.0])
    assert b["y-x"]["margin_gain"][0] == pytest.approx(1.0)
    assert b["y-x"]["separates"] == "better"
    # the order of the arms names the sign
    assert bench.between(rows, ["y", "x"])["x-y"]["separates"] == "worse"
    mixed = [row(9, 7, 8), row(9, 8, 7)] * 40  # as good as each other
    assert bench.between(mixed, ["x", "y"])["y-x"]["separates"] is None
    # the strength figures carry them when there are two candidates or more
    bench.ARMS["x"] = bench.ARMS["y"] = bench.ARMS["explore0"]
    try:
        figures = bench.strength_figures(rows)
        assert figures["between"] == b
        assert "between" not in bench.strength_figures(
            [{k: v for k, v in r.items() if k != "y"} for r in rows])
    finally:
        del bench.ARMS["x"], bench.ARMS["y"]


@pytest.mark.parametrize("policy", [Policy(), Policy(explore=0.0, random_ties=False),
                                    Policy(explore=0.5)])
def test_the_rotating_play_out_without_rotations_is_todays_world_by_world(
        bench: ModuleType, policy: Policy) -> None:
    checked = 0
    for n in (2, 3, 4, 5):
        for seed in range(3):
            pos = _position(n, seed)
            sim = Simulator(pos, policy)
            memo: dict[tuple[int, int], object] = {}
            for w in range(12):
                world = World(pos, random.Random(w), pos.cards_left)
                mine = [list(q) for q in world.queues], [list(h) for h in world.hands]
                theirs = [list(q) for q in world.queues], [list(h) for h in world.hands]
                pen_a, pen_b = list(sim.start_penalty), list(sim.start_penalty)
                sim.play_out(*theirs, pen_a, pos.seat, pos.cards_left, world.chain, 0,
                             world.us)
                bench.rotating_play_out(sim, memo, *mine, pen_b, pos.seat, pos.cards_left,
                                        world.chain, 0, world.us, rotate=False)
                assert pen_b == pen_a
                checked += 1
    assert checked == 4 * 3 * 12


def _rise(sim: Simulator, queues: list[list[int]], tok: int, s: int, v: int, q: int,
          r: int, after: bool) -> int:
    """Seat ``s``'s penalty of a swat now after the turn, minus before it (plainly)."""
    def cost(qs: list[list[int]]) -> int:
        pen = [0] * sim.n
        for qq in qs:
            if qq:
                sim.swat_queue(list(qq), tok, pen)
        return pen[s]

    after_turn = [list(qq) for qq in queues]
    if r >= 0 and not after:
        after_turn[r].append(after_turn[r].pop(0))
    after_turn[q].append(v * 8 + s)
    if r >= 0 and after:
        after_turn[r].append(after_turn[r].pop(0))
    return cost(after_turn) - cost(queues)


def test_the_rotating_policy_rotates_only_to_lower_the_rise(bench: ModuleType) -> None:
    rotated = plain = 0
    for n in (3, 5):
        for seed in range(8):
            pos = _position(n, seed)
            sim = Simulator(pos, Policy(explore=0.0))
            memo: dict[tuple[int, int], object] = {}
            for w in range(6):
                world = World(pos, random.Random(w), pos.cards_left)
                queues = [list(q) for q in world.queues]
                hand = world.hands[pos.seat]
                tok = world.chain[0]
                held = [v for v in range(1, 6) if hand[v]]
                room = [i for i, q in enumerate(queues) if len(q) < sim.cap]
                least = min(_rise(sim, queues, tok, pos.seat, v, q, -1, False)
                            for v in held for q in room)
                v, q, r, after = bench.rotating_choice(sim, memo, queues, hand, pos.seat,
                                                       tok, 0.5, False)
                got = _rise(sim, queues, tok, pos.seat, v, q, r, after)
                if r >= 0:
                    rotated += 1
                    assert got < least
                    assert len(queues[r]) + (r == q and after) >= 2
                else:
                    plain += 1
                    assert got == least
    assert rotated > 0 and plain > 0


def test_the_rotating_kernel_plays_the_root_moves_as_the_seam_does(bench: ModuleType) -> None:
    pos = _position(3, 1)
    sim = Simulator(pos, Policy())
    worlds = [World(pos, random.Random(i), pos.cards_left) for i in range(4)]
    moves = [m for _, m in _moves_of(pos, rotations=True)][:6]
    out = play_outs(sim, moves, worlds, reference=True, kernel=bench.ROTATING)
    assert len(out) == 4 and all(len(row) == len(moves) + 1 for row in out)
    nxt = (pos.seat + 1) % 3
    memo: dict[tuple[int, int], object] = {}
    for world, row in zip(worlds, out, strict=True):
        for move, pen in zip(moves, row[:-1], strict=True):
            queues, hands = [list(q) for q in world.queues], [list(h) for h in world.hands]
            want = list(sim.start_penalty)
            k = sim.apply(move, queues, hands, want, pos.seat, pos.cards_left, world.chain, 0)
            assert k is not None
            bench.rotating_play_out(sim, memo, queues, hands, want, nxt, pos.cards_left - 1,
                                    world.chain, k, world.us)
            assert pen == want
        queues, hands = [list(q) for q in world.queues], [list(h) for h in world.hands]
        want = list(sim.start_penalty)
        bench.rotating_play_out(sim, memo, queues, hands, want, pos.seat, pos.cards_left,
                                world.chain, 0, world.us)
        assert row[-1] == want
    # with rotations the play-outs differ from today's somewhere
    today = play_outs(sim, moves, worlds, reference=True, kernel="scalar")
    assert today != out


def test_the_analysis_patch_is_undone_and_today_is_the_analysis(bench: ModuleType) -> None:
    g = Game(3, seed=4)
    for t in [["5", 0], ["1", 1], ["4*", 1], ["1", 0]]:
        g.apply({"seat": g.to_move, "play": t})
    view = g.view(g.to_move)
    small = Settings(first=4, batch=4, cap=8, judge_cap=8)
    plain = analyse(view, small)
    saved = vars(analyse_module)["Policy"], vars(analyse_module)["play_outs"]
    with bench.analysis_policy(bench.ARMS["today"]):
        assert analyse(view, small) == plain
    with bench.analysis_policy(bench.ARMS["explore0"]):
        assert vars(analyse_module)["Policy"]() == Policy(explore=0.0)
        other = analyse(view, small)
    assert (vars(analyse_module)["Policy"], vars(analyse_module)["play_outs"]) == saved
    assert other["digest"] == plain["digest"]  # the digest does not name the policy ...
    assert analyse(view, small) == plain  # ... so the cache was cleared on the way out


def test_compare_reads_the_best_in_the_reference(bench: ModuleType) -> None:
    def an(best: str, rows: list[tuple[str, int, float]]) -> dict[str, object]:
        ds = [{"key": k, "group": g, "vs_best": loss} for k, g, loss in rows]
        return {"decisions": ds, "best": [d["key"] for d in ds].index(best)}

    ref = an("0|play|3|0", [("0|play|3|0", 0, 0.0), ("0|play|3*|0", 0, 0.0),
                            ("0|play|1|1", 1, 0.2), ("0|play|5|1", 2, 1.5)])
    assert bench.compare(an("0|play|3*|0", [("0|play|3*|0", 0, 0.0)]), ref) == {
        "same": True, "loss": 0.0, "within_tie": True}
    assert bench.compare(an("0|play|1|1", [("0|play|1|1", 1, 0.0)]), ref) == {
        "same": False, "loss": 0.2, "within_tie": True}
    assert bench.compare(an("0|play|5|1", [("0|play|5|1", 2, 0.0)]), ref)["within_tie"] is False


def test_a_tiny_strength_run_writes_its_figures(bench: ModuleType, tmp_path: Path) -> None:
    out = tmp_path / "policy.json"
    rows = tmp_path / "rows.jsonl"
    res = bench.main(["strength", "--seats", "2", "--deals", "2", "--arms", "explore0",
                      "--minutes", "5", "--rows", str(rows), "--json", str(out)])
    saved = json.loads(out.read_text())
    assert saved == json.loads(json.dumps(res))
    assert saved["command"].startswith("python benchmarks/bench_policy.py strength")
    assert {"date", "machine", "load"} <= set(saved)
    two = saved["results"]["2"]
    assert two["deals"] == 2 and two["games"] == 4
    logged = [json.loads(line) for line in rows.read_text().splitlines()]
    assert [r["deal"] for r in logged] == [0, 1]
    assert all(r["today"]["same"] for r in logged)
    # the same deal, the same bots: the same game
    again = bench.deal_row(2, 1, ["explore0"])
    assert again["today"]["penalty"] == logged[1]["today"]["penalty"]
    assert again["explore0"]["penalty"] == logged[1]["explore0"]["penalty"]
    cand = two["candidates"]["explore0"]
    gains = [r["today"]["penalty"][0] - r["explore0"]["penalty"][0] for r in logged]
    assert cand["penalty_gain"][0] == pytest.approx(sum(gains) / 2)
    # the rows file gives the same figures again (pooled runs are summarised so)
    pooled = bench.main(["summarize", str(rows)])["results"]["2"]
    assert pooled == {k: v for k, v in two.items() if k != "wall_s"}


def test_the_other_seats_may_be_greedy_bots(bench: ModuleType) -> None:
    rows = [bench.deal_row(3, d, ["explore0"], "greedy") for d in range(3)]
    assert all(r["opponent"] == "greedy" for r in rows)
    # the greedy seats play as a greedy bot of the same seed does, in every arm
    for r in rows:
        d = r["deal"]
        g = Game(3, seed=bench.DEAL_SEED + d, first=d % 3)
        bots = [bench.PolicyBot(7 * d + 1, bench.ARMS["today"])]
        bots += [make_bot("greedy", 7 * d + 2 + i) for i in range(2)]
        while not g.finished:
            s = g.to_move
            assert s is not None
            g.push(decide(bots[s], g))
        assert g.penalty == r["today"]["penalty"]
    lookahead = [bench.deal_row(3, d, ["explore0"]) for d in range(3)]
    assert [r["today"]["penalty"] for r in rows] != [r["today"]["penalty"] for r in lookahead]
