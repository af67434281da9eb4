"""The game review (``tenleave_widget.analysis.review``) and ``tenleave review``."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from helpers import random_game

from tenleave_widget import Game, RecordError, Turn
from tenleave_widget.analysis import analyse as an
from tenleave_widget.analysis.review import (
    LABELS,
    THRESHOLDS,
    decisions,
    review,
    turn_text,
    wake_luck,
)
from tenleave_widget.analysis.review.luck import _turn_luck
from tenleave_widget.analysis.review.results import _label

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "games"
ANALYSED_KEYS = {"expected_margin", "best_expected_margin", "near", "analysis"}
"""The keys a turn judged by the one analysis adds (``near`` only near a bound)."""
TURN_KEYS = {
    "turn", "seat", "played", "expected_final_penalty", "best", "best_expected_final_penalty",
    "loss", "loss_ci95", "label", "forced",
}


def wake_game() -> Game:
    """A game that ends with a chosen wake on the last card (wake swat, then daybreak)."""
    g = random_game(2, seed=5)
    for seed in range(200):
        g = random_game(2, seed=seed)
        if g.turns[-1].wake:
            return g
    raise AssertionError("no random 2-seat game ends with a wake")  # pragma: no cover


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_swat_penalties_add_up_to_the_final_penalties(seats: int) -> None:
    for seed in range(6):
        g = random_game(seats, seed=seed)
        wakes = wake_luck(g.to_record())
        assert wakes and wakes[-1].kind == "daybreak"
        for s in range(seats):
            assert sum(w.actual[s] for w in wakes) == g.penalty[s]
        kinds = {w.kind for w in wakes}
        assert kinds <= {"wake", "full", "daybreak"}


def test_the_omniscient_view_expects_exactly_what_happens() -> None:
    """Replaying each swat's expectation from the teacher's view (every value known) gives
    exactly the actual penalties: the positions before each swat, and between daybreak
    passes (cards moved up, flipped cards gone face up, new tokens), are rebuilt right."""
    games = [random_game(n, seed=s) for n in (2, 3, 4, 5) for s in range(5)] + [wake_game()]
    passes = 0
    for g in games:
        h = Game.from_record(g.to_record(), turns=0)
        for k, t in enumerate(g.turns):
            before = h.copy()
            h.apply(t)
            for w in _turn_luck(before, t, h, k, viewers=[None] * g.seats):
                passes += w.kind == "daybreak"
                assert w.expected == pytest.approx(w.actual, abs=1e-9), (k, w)
    assert passes > len(games)  # several daybreak passes per game were checked


def test_luck_is_from_each_seats_own_view() -> None:
    g = Game(["Ana", "Ben"], seed=3, defense=["I+II", "II+III"])
    for turn in [{"seat": 0, "play": ["5", 0]}, {"seat": 1, "play": ["1", 0]},
                 {"seat": 0, "play": ["4*", 1]}, {"seat": 1, "play": ["2", 1]},
                 {"seat": 0, "wake": True, "play": ["1", 0]}]:
        g.apply(turn)
    (w,) = wake_luck(g.to_record())
    # Ana knows her 5 and 4; each of Ben's plain cards is, to her, a 1, 2 or 5 with
    # probability 1/2, 1/4, 1/4 (his plain cards are 1 1 2 5 in a 2-seat game). Queue 0
    # (5 + x) swats her 5 unless x = 5 (exactly 10); queue 1 (4 + y) swats her 4 unless
    # y = 5: 5 * 3/4 + 4 * 3/4 = 6.75. Ben's 1 behind Ana's plain card is swatted only on
    # a tie (her 1, probability 1/2); his 2 behind her marked card never: 0.5.
    assert w.turn == 4 and w.kind == "wake" and w.actual == [9, 0]
    assert w.expected == pytest.approx([6.75, 0.5])
    assert w.luck == pytest.approx([2.25, -0.5])


def test_labels_follow_the_thresholds() -> None:
    for objective, bounds in THRESHOLDS.items():
        assert list(bounds) == sorted(bounds)
        assert _label(0.0, objective) == "best"
        for name, bound in zip(LABELS, bounds, strict=False):
            assert _label(bound, objective) == name
            assert _label(bound * 1.01 + 1e-9, objective) == LABELS[LABELS.index(name) + 1]


def test_turn_text() -> None:
    g = Game(3, seed=1)
    texts = {turn_text(t) for t in g.legal_turns}
    assert "1 q1" in texts and "1 q0" not in texts  # queues numbered from 1, as on the table
    assert {turn_text(t, words=True) for t in g.legal_turns} >= {"1 on queue 1",
                                                                     "5 on queue 2"}


def check_review_json(out: dict[str, object], rec: dict[str, object]) -> None:
    assert set(out) == {"players", "objective", "turns", "wakes", "seats"}
    turns = out["turns"]
    assert isinstance(turns, list) and isinstance(rec["turns"], list)
    assert len(turns) == len(rec["turns"])
    for k, (t, played) in enumerate(zip(turns, rec["turns"], strict=True)):
        assert TURN_KEYS <= set(t) <= TURN_KEYS | ANALYSED_KEYS
        assert t["turn"] == k and t["seat"] == played["seat"] and t["played"] == played
        assert t["loss"] >= 0 and t["label"] in LABELS and isinstance(t["forced"], bool)
        lo, hi = t["loss_ci95"]
        assert lo <= t["loss"] <= hi
        assert t["best"]["seat"] == t["seat"]
    seats = out["seats"]
    assert isinstance(seats, list)
    for s in seats:
        assert set(s) == {"seat", "mean_loss", "labels", "luck", "accuracy"}
        assert set(s["labels"]) == set(LABELS)
        assert sum(s["labels"].values()) == sum(1 for t in turns if t["seat"] == s["seat"])
        assert s["accuracy"] is None or 0 <= s["accuracy"] <= 100
    wakes = out["wakes"]
    assert isinstance(wakes, list)
    for w in wakes:
        assert set(w) == {"turn", "kind", "luck"} and len(w["luck"]) == len(seats)


@pytest.mark.slow
def test_review_of_a_sample_game() -> None:
    rec = json.loads((EXAMPLES / "game-3-seats.json").read_text())
    seen: list[tuple[int, int]] = []
    r = review(rec, samples=4, seed=4, progress=lambda done, total: seen.append((done, total)))
    out = r.to_json()
    check_review_json(out, rec)
    assert seen == [(k + 1, 30) for k in range(30)]
    # the review is reproducible for a fixed seed, and keeps the record's notes
    assert review(rec, samples=4, seed=4).to_json() == out
    assert r.notes == {int(k): v for k, v in rec["notes"].items()}
    text = r.table()
    assert " ".join(rec["notes"]["6"].split()) in " ".join(text.split()) and "luck" in text
    # luck: per seat the sum over the swats
    for s in r.seats:
        assert s.luck == pytest.approx(sum(w["luck"][s.seat] for w in out["wakes"]))
        assert s.final_penalty == Game.from_record(rec).penalty[s.seat]


@pytest.mark.slow
def test_review_by_win_probability() -> None:
    """``objective="win_probability"``: losses are drops in the chance of winning (0 to 1),
    labelled by that objective's thresholds where their interval clears them; the JSON
    names the objective. It is the one analysis ranked by that objective: the verdict of
    :func:`~tenleave_widget.analysis.analyse.judge` with it, figure for figure."""
    rec = json.loads((EXAMPLES / "game-3-seats.json").read_text())
    r = review(rec, samples=4, seed=4, objective="win_probability")
    out = r.to_json()
    check_review_json(out, rec)
    assert out["objective"] == "win_probability"
    unforced = [t for t in r.turns if not t.forced]
    assert unforced and all(0.0 <= t.loss <= 1.0 for t in r.turns)
    assert all(t.analysis == an.ANALYSIS_FORMAT for t in r.turns)
    win = an.OBJECTIVE_BOUNDS["win_probability"]
    for t in unforced:
        assert t.label in {an.label_of(t.loss, *t.loss_ci95, tied, win)[0]
                           for tied in (True, False)}
    for d in decisions(rec)[:6]:
        v = an.judge(d.view, d.played.to_json(), an.settings_for(4), seed=4, seen=d.seen,
                     objective="win_probability")
        t = r.turns[d.turn]
        assert (t.loss, list(t.loss_ci95), t.near) == (v["loss"], v["loss_ci95"], v["near"])
        assert v["analysis"]["objective"] == "win_probability"
        # the margin's analysis of the same position is another digest
        assert v["analysis"]["digest"] != an.analyse(d.view, an.settings_for(4), seed=4)["digest"]
    with pytest.raises(ValueError, match="objective must be one of"):
        review(rec, samples=4, objective="points")


@pytest.mark.slow
def test_review_of_a_partial_record() -> None:
    rec = random_game(4, seed=3, turns=9).to_record()
    out = review(rec, samples=4).to_json()
    check_review_json(out, rec)


def test_invalid_record_is_rejected_before_any_work() -> None:
    rec = random_game(3, seed=2, turns=6).to_record()
    rec["turns"][4]["seat"] = 9
    calls: list[int] = []
    with pytest.raises(RecordError, match="turn 4"):
        review(rec, progress=lambda d, t: calls.append(d))
    assert calls == []
    with pytest.raises(ValueError, match="samples"):
        review(random_game(2, seed=1).to_record(), samples=0)


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tenleave_widget", *args], capture_output=True, text=True
    )


@pytest.mark.slow
def test_cli_review(tmp_path: Path) -> None:
    f = EXAMPLES / "game-2-seats.json"
    r = run("review", str(f), "--json", "--seed", "3", "--samples", "4")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    check_review_json(out, json.loads(f.read_text()))
    table = run("review", str(f), "--no-progress", "--samples", "4")
    assert table.returncode == 0 and "accuracy" in table.stdout and "luck" in table.stdout
    bad = tmp_path / "bad.json"
    rec = random_game(3, seed=2, turns=6).to_record()
    rec["turns"][4]["seat"] = 9
    bad.write_text(json.dumps(rec))
    for args in [(str(bad),), (str(tmp_path / "missing.json"),), (str(f), "--samples", "0")]:
        e = run("review", *args)
        assert e.returncode == 2 and e.stdout == "", args
        assert len(e.stderr.strip().splitlines()) == 1 and e.stderr.startswith("tenleave: ")
    assert "turn 4" in run("review", str(bad)).stderr


def test_the_evaluators_hooks_for_the_review() -> None:
    """``evaluate_view(..., turns=..., per_world=True)``: a subset of the decisions, valued
    on the same worlds as the full list (the same seed), with per-world results whose
    means are the reported figures."""
    from tenleave_widget.analysis.lookahead import evaluate_view

    g = random_game(3, seed=8, turns=7)
    view = g.view(g.to_move)
    full = evaluate_view(view, 12, seed=5, per_world=True)
    pick = [full["moves"][i]["turn"] for i in (0, 3, len(full["moves"]) - 1)]
    part = evaluate_view(view, 12, seed=5, per_world=True, turns=pick)
    assert [m["turn"] for m in part["moves"]] == pick
    for m in part["moves"]:
        same = next(x for x in full["moves"] if x["turn"] == m["turn"])
        assert m["margin_samples"] == same["margin_samples"] and len(m["margin_samples"]) == 12
        assert sum(m["penalty_samples"]) / 12 == pytest.approx(m["expected_final_penalty"])
        assert sum(m["margin_samples"]) / 12 == pytest.approx(m["expected_margin"])
        assert sum(m["win_samples"]) / 12 == pytest.approx(m["win_probability"])
    with pytest.raises(ValueError, match="turns"):
        evaluate_view(view, 4, seed=5, turns=[{"seat": 9, "play": ["1", 0]}])
    assert "margin_samples" not in evaluate_view(view, 4, seed=5)["moves"][0]


def test_a_played_turn_is_judged_as_the_decision_the_evaluator_values() -> None:
    from tenleave_widget.analysis.review import decision
    from tenleave_widget.engine.turn import Turn

    peek = Turn(1, "3*", 0, peek=(1, 2), extra="after")
    assert decision(peek) == Turn(1, "3*", 0)
    other = Turn(0, "2", 0, rotate=1, extra="after")
    assert decision(other) == Turn(0, "2", 0, rotate=1)
    same = Turn(0, "2", 1, rotate=1, extra="after")
    assert decision(same) == same
    wake = Turn(0, "2", 1, wake=True)
    assert decision(wake) == wake
    # every legal turn of random positions maps to a valued decision (no AssertionError)
    from tenleave_widget.analysis.lookahead import evaluate_view

    for seed in range(4):
        g = random_game(3, seed=seed, turns=8 + seed)
        valued = {Turn.from_json(m["turn"]) for m in evaluate_view(g.view(g.to_move), 1,
                                                                     seed=1)["moves"]}
        assert {decision(t) for t in g.legal_turns} == valued


@pytest.mark.slow
def test_forced_decisions_are_labelled_best() -> None:
    rec = json.loads((EXAMPLES / "game-3-seats.json").read_text())
    r = review(rec, samples=4, seed=1)
    forced = [t for t in r.turns if t.forced]
    assert forced and all(t.label == "best" and t.loss < THRESHOLDS["margin"][0] for t in forced)
    assert r.turns[-1].forced  # in this game every place for the last card ends alike


@pytest.mark.slow
def test_decisions_and_luck_explain_the_result() -> None:
    """final penalty = expected at the first decision + what the decisions changed + luck
    + the rest. The rest is what the other seats' decisions and the cards revealed between
    a seat's decisions changed, and the estimator's noise: zero on average. Over 36
    seat-games (12 three-seat games of greedy and random bots, samples=8) its mean is
    within its 95% interval of zero (and below 1.5 points), and it varies less than the
    result around the start's expectation: luck and decisions explain part of the spread."""
    import random
    import statistics

    from tenleave_widget.analysis.bots import make_bot
    from tenleave_widget.programs.simulate import mean_ci, play_game

    rng = random.Random(11)
    surprise, rest = [], []
    for i in range(12):
        names = ["greedy", "greedy", "random"] if i % 2 else ["greedy"] * 3
        bots = [make_bot(b, rng.randrange(2**32)) for b in names]
        g = play_game(3, bots, seed=rng.randrange(2**32), first=i % 3)
        r = review(g.to_record(), samples=8, seed=i)
        for s in r.seats:
            assert s.start_expected is not None and s.final_penalty == g.penalty[s.seat]
            surprise.append(s.final_penalty - s.start_expected)
            rest.append(s.other)
    m, lo, hi = mean_ci(rest)
    assert lo <= 0 <= hi and abs(m) < 1.5, (m, lo, hi)
    assert statistics.stdev(rest) < statistics.stdev(surprise)


def test_a_review_saved_with_the_record(tmp_path: Path) -> None:
    from tenleave_widget import Game, load_record, save_record
    from tenleave_widget.analysis.review import attach_review, saved_review

    rec = json.loads((EXAMPLES / "game-2-seats.json").read_text())
    rec["notes"] = {"3": "a note to keep"}
    assert saved_review(rec) is None
    r = review(rec, samples=2, seed=9)
    saved = attach_review(rec, r)
    assert "review" not in rec and saved["notes"] == rec["notes"]
    f = tmp_path / "reviewed.json"
    save_record(saved, f)
    back = load_record(f)
    # an older reader ignores the section (RULES.md §8: unknown top-level keys)
    assert Game.from_record(back).to_record() == Game.from_record(rec).to_record()
    again = saved_review(f)
    assert again is not None and again.to_json() == r.to_json()
    assert [s.cost for s in again.seats] == pytest.approx([s.cost for s in r.seats])
    assert again.notes == {3: "a note to keep"} and (again.samples, again.seed) == (2, 9)
    # a review of another game (an edited record) is refused, naming the remedy
    edited = json.loads(json.dumps(back))
    edited["turns"] = edited["turns"][:-1]
    with pytest.raises(RecordError, match="review the record again"):
        saved_review(edited)
    broken = json.loads(json.dumps(back))
    del broken["review"]["turns"][0]["loss"]
    with pytest.raises(RecordError, match="'review'"):
        saved_review(broken)


@pytest.mark.slow
def test_the_random_bot_loses_far_more_than_the_lookahead_bot() -> None:
    """Six 2-seat games of the random bot against the lookahead bot (with rotations, so
    it weighs every decision the review weighs), first seat alternating, reviewed at
    samples=16: the random bot's mean loss per unforced decision is at least 3x the
    lookahead bot's (measured: about 3.5 against 0.1 points)."""
    import random
    import statistics

    from tenleave_widget.analysis.bots import LookaheadBot, make_bot
    from tenleave_widget.programs.simulate import play_game

    rng = random.Random(3)
    losses: dict[str, list[float]] = {"random": [], "lookahead": []}
    for i in range(6):
        names = ["random", "lookahead"] if i % 2 == 0 else ["lookahead", "random"]
        bots = [
            LookaheadBot(seed=rng.randrange(2**32), rotations=True) if b == "lookahead"
            else make_bot(b, rng.randrange(2**32)) for b in names
        ]
        g = play_game(2, bots, seed=rng.randrange(2**32))
        r = review(g.to_record(), samples=16, seed=i)
        for t in r.turns:
            if not t.forced:
                losses[names[t.seat]].append(t.loss)
    rnd, look = statistics.mean(losses["random"]), statistics.mean(losses["lookahead"])
    assert len(losses["random"]) >= 30 and len(losses["lookahead"]) >= 30
    assert rnd >= 3 * look and rnd > 1.0, (rnd, look)


@pytest.mark.slow
def test_puzzles_from_a_reviewed_game() -> None:
    from tenleave_widget.analysis.review import puzzles

    rec = json.loads((EXAMPLES / "game-3-seats.json").read_text())
    r = review(rec, samples=4, seed=2)
    every = puzzles(rec, r, min_gap=0.0)
    assert [p.turn for p in every] == [t.turn for t in r.turns if not t.forced]
    clear = puzzles(rec, r)
    assert all(p.gap >= THRESHOLDS["margin"][2] for p in clear)
    p = max(every, key=lambda p: p.loss)  # the worst decision of the game
    g = Game.from_record(p.record)
    assert g.turns_applied == p.turn and g.to_move == p.seat and "notes" not in p.record
    right = p.judge(p.best)
    assert right["best"] and right["loss"] == 0
    wrong = p.judge(p.played, samples=4)
    assert not wrong["best"] and wrong["loss"] > 0 and "better by" in wrong["text"]
    with pytest.raises(ValueError, match="not a legal turn"):
        p.judge(Turn(p.seat, "1", 7))
    # each answer is the review's verdict on that turn, the label it may still have said
    judged = {t.turn: t for t in r.turns}
    for q in every:
        t, said = judged[q.turn], q.judge(q.played)
        assert (said["loss"], said["loss_ci95"]) == (t.loss, list(t.loss_ci95))
        if not said["best"]:
            assert f"{t.label} (or " in said["text"] if t.near else "(or " not in said["text"]


# ------------------------------------------------------------------ an edited saved review
# Issue 21, item 7: of 31 edits of a record's review section, 9 were refused, 18 accepted
# as genuine and 4 crashed replay with an OverflowError or an IndexError. Each is
# now a RecordError asking for a new review, naming the judged turn where one is at fault.


@pytest.fixture(scope="module")
def reviewed() -> dict[str, Any]:
    """The 2-seat sample with its review saved (2 worlds per decision: about a second)."""
    from tenleave_widget.analysis.review import attach_review

    rec = json.loads((EXAMPLES / "game-2-seats.json").read_text())
    out: dict[str, Any] = json.loads(json.dumps(attach_review(rec, review(rec, samples=2,
                                                                          seed=9))))
    return out


def _first(rec: dict[str, Any], want: Callable[[dict[str, Any]], bool]) -> int:
    return next(k for k, t in enumerate(rec["review"]["turns"]) if want(t))


def _labelled_best(rec: dict[str, Any]) -> int:
    return _first(rec, lambda t: t["label"] == "best" and not t["forced"])


def _a_mistake(rec: dict[str, Any]) -> int:
    return _first(rec, lambda t: t["label"] in ("mistake", "blunder") and t["best"] != t["played"])


def _tight(rec: dict[str, Any]) -> int:
    """A judged turn whose loss's interval reaches no harsher label."""
    return _first(rec, lambda t: t.get("near") is None and "analysis" in t)


def _best_played(rec: dict[str, Any]) -> int:
    return _first(rec, lambda t: t["best"] == t["played"] and not t["forced"])


def _not_in_hand(rec: dict[str, Any]) -> int:
    """A late turn, its best move made a card its seat no longer holds."""
    k = len(rec["turns"]) - 2
    t = rec["review"]["turns"][k]
    g = Game.from_record(rec, turns=k)
    gone = next(c for c in g.rules.deck if c not in g.hand(t["seat"]))
    t["best"] = {"seat": t["seat"], "play": [gone, 0]}
    return k


Edit = Callable[[dict[str, Any]], "int | None"]


def _set(where: Callable[[dict[str, Any]], int], key: str, value: Any) -> Edit:
    """Set ``key`` of the judged turn that ``where`` picks; the edit names that turn."""
    def edit(rec: dict[str, Any]) -> int:
        k = where(rec)
        rec["review"]["turns"][k][key] = value
        return k
    return edit


def _interval(where: Callable[[dict[str, Any]], int], below: float, above: float) -> Edit:
    """Give the judged turn that ``where`` picks the interval from ``below`` under its
    loss to ``above`` over it."""
    def edit(rec: dict[str, Any]) -> int:
        k = where(rec)
        t = rec["review"]["turns"][k]
        t["loss_ci95"] = [t["loss"] - below, t["loss"] + above]
        return k
    return edit


def _top(key: str, value: Any) -> Edit:
    def edit(rec: dict[str, Any]) -> None:
        rec["review"][key] = value
    return edit


def _do(change: Callable[[dict[str, Any]], Any], turn: Callable[[dict[str, Any]], int | None]
        ) -> Edit:
    def edit(rec: dict[str, Any]) -> int | None:
        k = turn(rec)
        change(rec["review"])
        return k
    return edit


def _zero(rec: dict[str, Any]) -> int:
    return 0


def _none(rec: dict[str, Any]) -> None:
    return None


def _first_wake(rec: dict[str, Any]) -> int:
    return int(rec["review"]["wakes"][0]["turn"])


def _swap_ci(t: dict[str, Any]) -> None:
    t["loss_ci95"] = t["loss_ci95"][::-1]


EDITS: dict[str, Edit] = {
    # refused before
    "refused: format": _top("format", "tenleave-review/2"),
    "refused: objective": _top("objective", "elo"),
    "refused: a turn fewer": _do(lambda r: r["turns"].pop(), _none),
    "refused: turn renumbered": _set(lambda r: 0, "turn", 5),
    "refused: another turn played": _set(lambda r: 1, "played",
                                         {"seat": 1, "play": ["2", 0]}),
    "refused: unknown label": _set(lambda r: 0, "label", "brilliant"),
    "refused: loss missing": _do(lambda r: r["turns"][0].pop("loss"), _zero),
    "refused: luck changed": _do(lambda r: r["wakes"][0]["luck"].__setitem__(0, 9.5),
                                 _first_wake),
    "refused: wakes missing": _do(lambda r: r.pop("wakes"), _none),
    # accepted as genuine before
    "accepted: best labelled blunder": _set(_labelled_best, "label", "blunder"),
    "accepted: mistake labelled best": _set(_a_mistake, "label", "best"),
    "accepted: loss 99": _set(_a_mistake, "loss", 99),
    "accepted: loss -5": _set(_a_mistake, "loss", -5),
    "accepted: loss '1.5'": _set(_a_mistake, "loss", "1.5"),
    "accepted: loss NaN": _set(_a_mistake, "loss", float("nan")),
    "accepted: best 9 on queue 8": _set(_a_mistake, "best", {"seat": 1, "play": ["9", 7]}),
    "accepted: best not in hand": _not_in_hand,
    "accepted: forced 'yes'": _set(_a_mistake, "forced", "yes"),
    "accepted: forced mistake": _set(_a_mistake, "forced", True),
    "accepted: expected penalty -3": _set(_a_mistake, "expected_final_penalty", -3),
    "accepted: expected penalty NaN": _set(_a_mistake, "expected_final_penalty",
                                           float("nan")),
    "accepted: interval NaN": _set(_a_mistake, "loss_ci95", [float("nan")] * 2),
    "accepted: interval inverted": _do(lambda r: _swap_ci(r["turns"][1]), lambda r: 1),
    "accepted: samples -1": _top("samples", -1),
    "accepted: seed 1.5": _top("seed", 1.5),
    "accepted: players renamed": _top("players", ["Eve", "Ben"]),
    "accepted: summary edited": _do(lambda r: r["seats"][0].__setitem__("mean_loss", 0.0),
                                    _none),
    # crashed replay before
    "crashed: samples Infinity": _top("samples", float("inf")),
    "crashed: a 400-digit loss": _set(_a_mistake, "loss", 10**400),
    "crashed: best peeks at [99, 99]": _do(
        lambda r: r["turns"][0].__setitem__("best", {**r["turns"][0]["played"],
                                                     "peek": [99, 99]}), _zero),
    "crashed: a 400-digit expected penalty": _set(_a_mistake, "best_expected_final_penalty",
                                                  -(10**400)),
}
MORE_EDITS: dict[str, Edit] = {
    "gap -1": _set(_a_mistake, "gap", -1),
    "reference '8'": _set(_a_mistake, "reference", "8"),
    "loss 1e400 (infinite)": _set(_a_mistake, "loss", float("inf")),
    "interval off centre": _set(_a_mistake, "loss_ci95", [0.0, 50.0]),
    "interval shorter above the loss than below": _interval(_a_mistake, 0.3, 0.1),
    "the best played with an interval below 0": _interval(_best_played, 0.5, 0.5),
    "swat of another kind": _do(lambda r: r["wakes"][0].__setitem__("kind", "daybreak"),
                                _first_wake),
    "best peeks though the earlier evaluator judged": _do(
        lambda r: (r["turns"][1].pop("analysis", None),
                   r["turns"][1].__setitem__("best", {**r["turns"][1]["best"],
                                                      "peek": [1, 0]})), lambda r: 1),
    "judged by an unknown analysis": _do(
        lambda r: r["turns"][1].__setitem__("analysis", "tenleave-analysis/9"), lambda r: 1),
    "near no label": _do(lambda r: r["turns"][1].__setitem__("near", "awful"), lambda r: 1),
    "near a label its interval does not reach": _set(_tight, "near", "blunder"),
    "review not an object": lambda rec: rec.__setitem__("review", []),
    "seed of 30 digits": _top("seed", 10**30),
}


def _refused(rec: dict[str, Any], turn: int | None) -> None:
    from tenleave_widget import replay
    from tenleave_widget.analysis.review import saved_review

    before = json.dumps(rec)
    for read in (saved_review, replay):
        with pytest.raises(RecordError) as e:
            read(rec)  # type: ignore[operator]
        msg = str(e.value)
        assert "review the record again" in msg and "'review'" in msg, msg
        assert "\n" not in msg and len(msg) <= 240 and msg.isprintable(), msg
        assert e.value.turn == turn, msg
    assert json.dumps(rec) == before  # the record as it was


@pytest.mark.parametrize("name", list(EDITS))
def test_an_edited_saved_review_is_refused(name: str, reviewed: dict[str, Any]) -> None:
    assert len(EDITS) == 31
    rec = json.loads(json.dumps(reviewed))
    turn = EDITS[name](rec)
    _refused(rec, turn)


@pytest.mark.parametrize("name", list(MORE_EDITS))
def test_more_edits_of_a_saved_review_are_refused(name: str,
                                                  reviewed: dict[str, Any]) -> None:
    rec = json.loads(json.dumps(reviewed))
    turn = MORE_EDITS[name](rec)
    _refused(rec, turn)


def test_a_genuine_saved_review_is_accepted_from_a_dict_and_a_file(
    reviewed: dict[str, Any], tmp_path: Path
) -> None:
    from tenleave_widget import save_record
    from tenleave_widget.analysis.review import saved_review

    again = saved_review(reviewed)
    assert again is not None and again.to_saved() == reviewed["review"]
    f = tmp_path / "r.json"
    save_record(reviewed, f)
    from_file = saved_review(f)
    assert from_file is not None and from_file.to_json() == again.to_json()
    # NaN written into the file is not JSON: refused when it is read
    f.write_text(f.read_text().replace('"loss": 0.0', '"loss": NaN', 1))
    with pytest.raises(RecordError, match="not JSON: NaN"):
        saved_review(f)


# ------------------------------------------------------- judged by the inferred model


def _strip_judge(out: dict[str, Any]) -> dict[str, Any]:
    """A review's JSON without what the inferred model adds (``model``, ``beta``, each
    turn's ``beta``): the shape every review shares."""
    rest = {k: v for k, v in out.items() if k not in ("model", "beta")}
    rest["turns"] = [{k: v for k, v in t.items() if k != "beta"} for t in out["turns"]]
    return rest


@pytest.mark.slow
def test_a_review_by_the_inferred_model_says_so() -> None:
    """``model="inferred"``: the JSON names the model and the beta asked for, each turn the
    betas read (per opponent of the mover); the text report says who judged. The
    uniform model's review is unchanged: no such key, no such line."""
    rec = json.loads((EXAMPLES / "game-2-seats.json").read_text())
    r = review(rec, samples=4, seed=4, model="inferred")
    out = r.to_json()
    assert out["model"] == "inferred" and out["beta"] == "fitted"
    check_review_json(_strip_judge(out), rec)
    for t in out["turns"]:
        assert set(t["beta"]) == {str(1 - t["seat"])}
        assert all(0.0 <= b <= 32.0 for b in t["beta"].values())
    assert any(b > 1.0 for t in out["turns"] for b in t["beta"].values())  # greedy-like bots
    assert review(rec, samples=4, seed=4, model="inferred").to_json() == out  # reproducible
    assert "judged by: the inferred model" in r.table().splitlines()[1]
    fixed = review(rec, samples=4, seed=4, model="inferred", beta=4.0).to_json()
    assert fixed["beta"] == 4.0 and all(t["beta"] == {str(1 - t["seat"]): 4.0}
                                        for t in fixed["turns"])
    plain = review(rec, samples=4, seed=4)
    assert plain.to_json() == review(rec, samples=4, seed=4, model="uniform").to_json()
    assert "model" not in plain.to_json() and "judged by" not in plain.table()
    for bad, match in [({"model": "bayes"}, "model must be one of uniform, inferred"),
                       ({"model": "inferred", "beta": -1.0}, "beta must be a number"),
                       ({"model": "inferred", "beta": "smart"}, "beta must be a number")]:
        with pytest.raises(ValueError, match=match):
            review(rec, samples=4, **bad)


def test_the_inferred_judge_deals_its_worlds_from_the_posterior(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Ben (seat 1) put a marked card where a swat would take it: at beta 32 it is a 3
    (``infer`` gives it 1.0 to 4 places), where the uniform model gives a 3 only 0.4.
    Every world the inferred judge of Ana's next decision samples has that card a 3."""
    from tenleave_widget.analysis import review as review_module
    from tenleave_widget.analysis.infer import infer, with_history
    from tenleave_widget.analysis.reader import dealer

    g = Game(["Ana", "Ben"], seed=1)
    g.apply({"seat": 0, "play": ["5", 0]})
    g.apply({"seat": 1, "play": ["3*", 0]})
    g.apply({"seat": 0, "play": ["1", 1]})
    g.apply({"seat": 1, "play": ["2", 1]})
    post = infer(with_history(g, 0), beta=32.0)["cards"]
    assert [(c["key"], round(c["inferred"]["3"], 4), c["uniform"]["3"]) for c in post
            if c["key"] == 1] == [(1, 1.0, 0.4)]
    from tenleave_widget.analysis import analyse

    worlds: list[Any] = []
    analyse.clear_cache()
    monkeypatch.setattr(analyse, "dealer",
                        lambda view, sample: dealer(view, sample, record=worlds))
    g.apply({"seat": 0, "play": ["1", 0]})
    last = review_module.decisions(g, history=True)[-1]
    assert last.turn == 4 and "history" in last.view
    judged = review_module.judge_decision(last, samples=4, model="inferred", beta=32.0)
    assert judged.beta == {"1": 32.0}
    assert len(worlds) >= analyse.MIN_WORLDS and all(w[1] == 3 for w in worlds)
    with pytest.raises(ValueError, match="public history"):
        review_module.judge_decision(review_module.decisions(g)[-1], samples=4,
                                     model="inferred")


@pytest.mark.slow
def test_a_review_by_the_inferred_model_saved_with_the_record() -> None:
    """Saved and read back, a review by the inferred model keeps its model and betas; an
    edit of either is refused, and a batch reuses it only for the same model and beta."""
    from tenleave_widget.analysis.review import attach_review, saved_review
    from tenleave_widget.engine.errors import RecordError
    from tenleave_widget.programs.class_review import review_many

    rec = random_game(3, seed=2, turns=8).to_record()
    r = review(rec, samples=2, seed=1, model="inferred")
    saved = json.loads(json.dumps(attach_review(rec, r)))
    again = saved_review(saved)
    assert again is not None and again.to_json() == r.to_json() and again.model == "inferred"
    edits: list[Callable[[dict[str, Any]], None]] = [
        lambda s: s.pop("model"),
        lambda s: s.pop("beta"),
        lambda s: s.update(model="bayes"),
        lambda s: s.update(beta=-2),
        lambda s: s["turns"][3].pop("beta"),
        lambda s: s["turns"][3].update(beta={"0": 1.0}),
        lambda s: s["turns"][3]["beta"].update({"1": "high"} if s["turns"][3]["seat"] != 1
                                               else {"0": "high"}),
    ]
    for edit in edits:
        broken = json.loads(json.dumps(saved))
        edit(broken["review"])
        with pytest.raises(RecordError, match="review the record again"):
            saved_review(broken)
    plain = json.loads(json.dumps(attach_review(rec, review(rec, samples=2, seed=1))))
    plain["review"]["turns"][0]["beta"] = {"1": 0.0, "2": 0.0}
    with pytest.raises(RecordError, match="uniform model has no 'beta'"):
        saved_review(plain)
    batch = review_many([saved], samples=2, seed=1, model="inferred", workers=1)
    assert batch.games[0].reused and batch.to_json() == r.to_json()
    other = review_many([saved], samples=2, seed=1, model="inferred", beta=2.0, workers=1)
    assert not other.games[0].reused and other.to_json()["beta"] == 2.0
    assert not review_many([saved], samples=2, seed=1, workers=1).games[0].reused


def test_many_records_by_the_inferred_model_are_each_their_review_alone() -> None:
    from tenleave_widget.programs.class_review import review_many

    recs = [random_game(3, seed=s, turns=6).to_record() for s in (3, 4)]
    batch = review_many(recs, samples=2, seed=5, model="inferred", beta=2.0, workers=1)
    for g, rec in zip(batch.games, recs, strict=True):
        assert g.review.to_json() == review(rec, samples=2, seed=5, model="inferred",
                                            beta=2.0).to_json()
    assert "judged by: the inferred model" in batch.table().splitlines()[1]


@pytest.mark.slow
def test_cli_review_by_the_inferred_model() -> None:
    f = EXAMPLES / "game-2-seats.json"
    r = run("review", str(f), "--json", "--samples", "2", "--model", "inferred", "--beta", "4")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["model"] == "inferred" and out["beta"] == 4.0
    assert out == review(json.loads(f.read_text()), samples=2, model="inferred",
                         beta=4.0).to_json()
    text = run("review", str(f), "--no-progress", "--samples", "2", "--model", "inferred")
    assert text.returncode == 0 and "judged by: the inferred model" in text.stdout
    for args in [("--model", "bayes"), ("--model", "inferred", "--beta", "smart"),
                 ("--model", "inferred", "--beta", "-1")]:
        e = run("review", str(f), "--samples", "2", *args)
        assert e.returncode == 2 and e.stdout == "", args
        assert len(e.stderr.strip().splitlines()) == 1 and e.stderr.startswith("tenleave: ")


def test_a_reviews_totals_and_means_are_summed_exactly() -> None:
    """Totals and means are exactly rounded sums (``math.fsum``): the same bits in any
    order and on any Python (3.12's ``sum`` of floats rounds differently from 3.11's), so
    a review is byte-identical wherever it is made. Ten losses and costs of 0.1: a plain
    left-to-right sum on 3.11 gives 0.9999999999999999."""
    import dataclasses
    from fractions import Fraction

    from tenleave_widget.analysis.review.results import _summaries

    rec = json.loads((EXAMPLES / "game-2-seats.json").read_text())
    r = review(rec, samples=4, seed=4)
    first = next(t for t in r.turns if t.seat == 0)
    turns = [dataclasses.replace(first, loss=0.1, expected_final_penalty=0.1, reference=0.0,
                                 forced=False)] * 10
    (mine, _) = _summaries(2, turns, [], "margin", [0, 0])
    assert mine.cost == float(Fraction(0.1) * 10) == 1.0
    assert mine.mean_loss == 0.1
    samples = an._Samples()
    samples.g.update((w, 0.1) for w in range(10))
    assert samples.mean() == 0.1
