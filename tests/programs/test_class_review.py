"""Batch review (issue 24): review_many and ``tenleave review FILE_OR_DIR...``."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from tenleave_widget.analysis.review import (
    LABELS,
    THRESHOLDS,
    attach_review,
    decision,
    review,
    turn_text,
)
from tenleave_widget.engine.record import load_record
from tenleave_widget.engine.turn import Turn
from tenleave_widget.programs.class_review import (
    KINDS,
    ClassReview,
    kinds_of,
    record_files,
    review_many,
)
from tenleave_widget.programs.cli import main

GAMES = Path(__file__).resolve().parents[2] / "examples" / "games"
TWO = str(GAMES / "game-2-seats.json")
THREE = str(GAMES / "game-3-seats.json")
BUDGET = {"samples": 1, "seed": 5}


@pytest.fixture(scope="module")
def serial() -> ClassReview:
    return review_many([TWO, THREE], workers=1, **BUDGET)


@pytest.fixture(scope="module")
def clearer() -> ClassReview:
    """The same games on a larger budget (8 worlds per decision): at 1 the analysis's
    simultaneous intervals separate no best from its runner-up by the mistake bound."""
    return review_many([TWO, THREE], workers=1, samples=8, seed=5)


def dumps(obj: Any) -> str:
    return json.dumps(obj, sort_keys=True)


def test_each_game_is_its_review_alone(serial: ClassReview) -> None:
    assert serial.backend == "serial"
    for g, f in zip(serial.games, [TWO, THREE], strict=True):
        assert g.file == f and not g.reused
        assert dumps(g.review.to_json()) == dumps(review(f, **BUDGET).to_json())


def test_processes_give_the_same_bytes(serial: ClassReview) -> None:
    seen: list[tuple[int, int]] = []
    par = review_many([TWO, THREE], workers=2, progress=lambda d, t: seen.append((d, t)),
                      **BUDGET)
    assert par.backend == "processes" and par.workers == 2
    assert dumps(par.to_json()) == dumps(serial.to_json())
    total = sum(len(g.review.turns) for g in serial.games)
    assert seen == [(k, total) for k in range(1, total + 1)]


def test_another_seed_differs(serial: ClassReview) -> None:
    other = review_many([TWO], workers=1, samples=1, seed=6)
    assert dumps(other.games[0].review.to_json()) != dumps(serial.games[0].review.to_json())


def test_a_record_that_fails_is_named_and_the_others_go_on(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "tenleave-record/1", "players": ["A"]}')
    c = review_many([str(bad), TWO, str(tmp_path / "missing.json")], workers=1, **BUDGET)
    assert [g.file for g in c.games] == [TWO]
    assert len(c.failures) == 2
    assert c.failures[0].startswith(f"{bad}: ") and "\n" not in c.failures[0]
    assert c.failures[1].startswith(f"{tmp_path / 'missing.json'}: ")


def test_saved_reviews_are_reused(serial: ClassReview) -> None:
    rec = attach_review(load_record(TWO), serial.games[0].review)
    calls: list[int] = []
    c = review_many({"saved": rec}, workers=1, progress=lambda d, t: calls.append(d),
                    samples=3, seed=99)
    assert c.games[0].reused and c.decisions == 0 and calls == []
    assert dumps(c.games[0].review.to_json()) == dumps(serial.games[0].review.to_json())


def test_players_add_up(serial: ClassReview) -> None:
    players = {p["name"]: p for p in serial.players()}
    assert set(players) == {"Ana", "Ben", "Cy"}
    assert players["Ana"]["games"] == 2 and players["Cy"]["games"] == 1
    turns = [t for g in serial.games for t in g.review.turns]
    assert sum(p["decisions"] for p in players.values()) == len(turns)
    for name, p in players.items():
        assert sum(p["labels"].values()) == p["decisions"]
        assert set(p["labels"]) == set(LABELS)
        assert p["luck_adjusted"] == pytest.approx(p["penalty"] - p["luck"])
        assert len(p["trend"]) == p["games"]
        lo, hi = p["mean_loss_ci95"]
        assert lo <= p["mean_loss"] <= hi
        seats = [(g, g.review.players.index(name)) for g in serial.games
                 if name in g.review.players]
        luck = sum(g.review.seats[s].luck for g, s in seats)
        assert p["luck"] == pytest.approx(luck)
        losses = [t.loss for g, s in seats for t in g.review.turns
                  if t.seat == s and not t.forced]
        assert p["mean_loss"] == pytest.approx(sum(losses) / len(losses))


def test_kinds_taxonomy() -> None:
    empty = {"queue_capacity": 4, "queues": [[], []]}
    full = {"queue_capacity": 4, "queues": [[{}, {}], [{}, {}]]}
    assert kinds_of(empty, Turn(0, "1", 0)) == ["play only", "low card", "plain card",
                                               "early in a round"]
    assert kinds_of(full, Turn(0, "4*", 1, peek=(0, 1))) == ["peek", "high card",
                                                             "marked card", "late in a round"]
    assert kinds_of(empty, Turn(0, "3*", 1, rotate=0))[:2] == ["rotate", "low card"]
    assert kinds_of(full, Turn(0, "5", 0, wake=True))[:3] == ["wake", "high card",
                                                              "plain card"]


def test_kinds_count_unforced_decisions(serial: ClassReview) -> None:
    rows = {k["kind"]: k for k in serial.kinds()}
    assert list(rows) == [k for k in KINDS if k in rows]
    unforced = [t for g in serial.games for t in g.review.turns if not t.forced]
    for family in (("wake", "peek", "rotate", "play only"), ("high card", "low card"),
                   ("marked card", "plain card"), ("early in a round", "late in a round")):
        assert sum(rows[k]["decisions"] for k in family if k in rows) == len(unforced)
        mean = sum(rows[k]["mean_loss"] * rows[k]["decisions"] for k in family if k in rows)
        assert mean == pytest.approx(sum(t.loss for t in unforced))


def test_positions_are_the_largest_losses_then_the_clearest_bests_once(
        clearer: ClassReview) -> None:
    serial = clearer
    twice = ClassReview([serial.games[0], serial.games[0], serial.games[1]])
    pos = twice.positions(limit=1000, bests=0)
    keys = [(q["file"], q["turn"]) for q in pos]
    assert len(keys) == len(set(keys))
    losses = [q["loss"] for q in pos]
    assert losses == sorted(losses, reverse=True) and all(x > 0 for x in losses)
    every = [t.loss for g in serial.games for t in g.review.turns if not t.forced and t.loss > 0]
    assert sorted(losses) == sorted(every)
    # the clearest bests: one move beat the next by the mistake bound, found or not
    bound = THRESHOLDS["margin"][2]
    clear = [t for g in serial.games for t in g.review.turns if not t.forced and t.gap >= bound]
    assert clear, "the samples have clear positions at this budget"
    both = twice.positions(limit=3, bests=1000)
    assert [q["why"][0] for q in both[:3]] == ["largest loss"] * 3
    rest = both[3:]
    assert all(q["why"] == ["clearest best"] for q in rest)
    assert [q["gap"] for q in rest] == sorted((q["gap"] for q in rest), reverse=True)
    listed = {(q["game"], q["turn"]) for q in both}
    assert all(q["gap"] >= bound for q in rest) and len(listed) == len(both)
    # every clear position is listed once, marked as such even when it was a large loss
    assert sum("clearest best" in q["why"] for q in both) == len(clear)
    for q in both:
        t = twice.games[q["game"]].review.turns[q["turn"]]
        assert q["found"] == (decision(t.played) == decision(t.best))
        assert q["best_text"] == turn_text(t.best, words=True)


def test_the_practice_set_is_the_positions_as_puzzles_easiest_first(
        serial: ClassReview, tmp_path: Path) -> None:
    practice = serial.practice(limit=4, bests=3)
    pos = serial.positions(limit=4, bests=3)
    assert len(practice) == len(pos)
    assert {(z.turn, z.seat, z.loss) for z in practice} == {
        (q["turn"], q["seat"], q["loss"]) for q in pos}
    gaps = [z.gap for z in practice]
    assert gaps == sorted(gaps, reverse=True)  # the clearer the best, the easier
    for z in practice:
        assert len(z.record["turns"]) == z.turn and "notes" not in z.record
    easiest = practice[0]  # the best move is judged best, another against it
    assert easiest.judge(easiest.best, samples=1)["best"] is True
    # a record given as a path is read again, and must be the game reviewed
    moved = tmp_path / "two.json"
    shutil.copy(TWO, moved)
    c = review_many([str(moved)], workers=1, **BUDGET)
    assert c.practice()
    rec = load_record(THREE)
    moved.write_text(json.dumps(rec))
    with pytest.raises(ValueError, match="changed after"):
        c.practice()


def test_bad_arguments_are_typed_errors() -> None:
    with pytest.raises(ValueError, match="workers"):
        review_many([TWO], workers=0)
    with pytest.raises(ValueError, match="either"):
        review_many([TWO], workers=2, scheduler="tcp://127.0.0.1:1")
    with pytest.raises(ValueError, match="samples"):
        review_many([TWO], samples=0)


def test_cli_many_records(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "class"
    folder.mkdir()
    shutil.copy(TWO, folder / "a.json")
    shutil.copy(THREE, folder / "b.json")
    (folder / "broken.json").write_text("{")
    page = tmp_path / "report.html"
    rc = main(["review", str(folder), "--samples", "1", "--seed", "5", "--workers", "1",
               "--json", "--report", str(page)])
    out, err = capsys.readouterr()
    assert rc == 0
    assert err.count("\n") == 1 and "broken.json" in err
    obj = json.loads(out)
    assert set(obj) == {"games", "players", "kinds", "positions"}
    assert [g["file"] for g in obj["games"]] == record_files([folder])[:2]
    text = page.read_text()
    # one page: its charts' figures as JSON and plotly.js inline, nothing to fetch
    # (tests/browser/test_class_report_page.py opens it offline and counts the requests)
    assert "Ana" in text and "<script src" not in text and "default-src 'none'" in text
    assert text.count("<script") == 2


def test_cli_one_record_keeps_its_object(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["review", TWO, "--samples", "1", "--seed", "5", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == review(TWO, **BUDGET).to_json()


def test_cli_nothing_to_review(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["review", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no *.json record" in err


def test_cli_only_broken_records_is_one_line(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    for name in ("a.json", "b.json"):
        (tmp_path / name).write_text("[1]")
    assert main(["review", str(tmp_path), "--no-progress"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1
    assert "no record could be reviewed" in err and "a.json" in err and "(and 1 more)" in err


def test_an_edited_saved_review_is_reviewed_again(serial: ClassReview) -> None:
    rec = attach_review(load_record(TWO), serial.games[0].review)
    rec["review"]["turns"][0]["loss"] = 99.0
    c = review_many([rec], workers=1, **BUDGET)
    assert not c.games[0].reused and c.failures == []
    assert dumps(c.games[0].review.to_json()) == dumps(serial.games[0].review.to_json())


def test_an_empty_name_is_not_the_current_folder() -> None:
    assert record_files([""]) == [""]


@pytest.mark.slow
def test_a_dask_cluster_gives_the_same_bytes(serial: ClassReview) -> None:
    import distributed  # the optional extra, which `make test` installs

    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        with distributed.Client(cluster) as client:
            by_client = review_many([TWO, THREE], client=client, **BUDGET)
        by_address = review_many([TWO], scheduler=cluster.scheduler_address, **BUDGET)
    assert by_client.backend == "dask" and by_client.workers == 2
    assert dumps(by_client.to_json()) == dumps(serial.to_json())
    assert dumps(by_address.games[0].review.to_json()) == dumps(
        serial.games[0].review.to_json())


def test_ctrl_c_stops_the_review_and_its_processes() -> None:
    import os
    import signal
    import subprocess
    import sys
    import time

    import psutil

    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    proc = subprocess.Popen(
        [sys.executable, "-m", "tenleave_widget", "review", str(GAMES), "--workers", "2"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    try:
        parent = psutil.Process(proc.pid)
        deadline = time.monotonic() + 120
        while len(parent.children()) < 2 and time.monotonic() < deadline:
            time.sleep(0.2)
        kids = parent.children(recursive=True)
        assert len(kids) >= 2
        time.sleep(1.0)  # the workers busy with their first decisions
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130
    assert err.decode().rstrip().splitlines()[-1].split("\r")[-1].strip() == \
        "tenleave: interrupted"
    gone, alive = psutil.wait_procs(kids, timeout=10)
    assert alive == []


def test_cli_standard_input_keeps_its_place(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    import io
    import sys

    shutil.copy(THREE, tmp_path / "a.json")  # (a copy of the same game would be merged)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(Path(TWO).read_bytes())))
    assert main(["review", "-", str(tmp_path), "--samples", "1", "--seed", "5",
                 "--workers", "1", "--json", "--no-progress"]) == 0
    games = json.loads(capsys.readouterr().out)["games"]
    assert [g["file"] for g in games] == ["-", str(tmp_path / "a.json")]
    assert games[0] == {"file": "-", **review(TWO, **BUDGET).to_json()}


def every_position(games: list[Any], limit: int, bests: int) -> list[dict[str, Any]]:
    """The positions worth discussing by sorting every decision (what the batch gave
    before it streamed its games), to check the bounded pass against."""
    bound = THRESHOLDS[games[0].review.objective][2]
    rows = [(i, t) for i, g in enumerate(games) for t in g.review.turns if not t.forced]
    losses = sorted((r for r in rows if r[1].loss > 0),
                    key=lambda r: (-r[1].loss, r[0], r[1].turn))
    clear = sorted((r for r in rows if r[1].gap >= bound),
                   key=lambda r: (-r[1].gap, r[0], r[1].turn))
    out: dict[str, dict[str, Any]] = {}
    for rows_of, why, most in ((losses, "largest loss", limit), (clear, "clearest best", bests)):
        taken = 0
        for i, t in rows_of:
            if taken == most:
                break
            sig = f"{games[i].digest or i}:{t.turn}"
            if sig in out:
                if why not in out[sig]["why"]:
                    out[sig]["why"].append(why)
                continue
            taken += 1
            out[sig] = {"game": i, "turn": t.turn, "loss": t.loss, "gap": t.gap, "why": [why]}
    return list(out.values())


def test_the_bounded_pass_lists_what_sorting_everything_lists(serial: ClassReview) -> None:
    """Games with made-up losses and gaps (many ties, games given twice) give the same
    positions, in the same order, as the sort of every decision, at every cut."""
    import random
    from dataclasses import replace

    rng = random.Random(7)
    games = []
    for k in range(14):
        g = serial.games[k % 2]
        turns = [replace(t, loss=rng.choice([0.0, 0.5, 1.0, 2.5, 4.0, rng.random() * 6]),
                         gap=rng.choice([0.0, 1.0, 2.0, 3.0, rng.random() * 5]))
                 for t in g.review.turns]
        games.append(replace(g, review=replace(g.review, turns=turns), digest=f"d{k}"))
    games += [games[3], games[0], games[9]]  # given twice: listed once
    c = ClassReview(games)
    for limit, bests in [(10, 5), (0, 3), (1, 1), (3, 0), (2, 7), (7, 2), (1000, 1000)]:
        got = [{k: q[k] for k in ("game", "turn", "loss", "gap", "why")}
               for q in c.positions(limit, bests)]
        assert got == every_position(games, limit, bests), (limit, bests)


def test_a_batch_keeps_its_reviews_on_disk(serial: ClassReview) -> None:
    """Memory stays flat: after the batch, no review is left in memory (each game is read
    back from the spool when asked for), and the JSON written one game at a time is the
    JSON object's text."""
    import gc
    import io

    from tenleave_widget.analysis.review import Review
    from tenleave_widget.programs.class_review import GameSpool

    def reviews() -> int:
        gc.collect()
        return sum(isinstance(o, Review) for o in gc.get_objects())

    before = reviews()
    c = review_many([TWO, THREE, TWO], workers=1, **BUDGET)
    assert isinstance(c.games, GameSpool) and len(c.games) == 3
    out = io.StringIO()
    c.write_json(out)
    c.table()
    c.html()
    assert reviews() == before
    assert out.getvalue() == json.dumps(c.to_json())
    assert dumps(c.games[1].review.to_json()) == dumps(serial.games[1].review.to_json())
    assert [g.file for g in c.games[::2]] == [TWO, TWO] and c.games[-1].source == TWO
    with pytest.raises(IndexError):
        c.games[3]
    c.games.close()
    with pytest.raises(ValueError):
        c.games[0]


def test_the_batch_says_which_model_judged(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 19 item 6: the report, the JSON and the text of a batch say which model
    judged its games (the rules alone, or the players read, with beta)."""
    from helpers import random_game

    for s in (3, 4):
        (tmp_path / f"g{s}.json").write_text(
            json.dumps(random_game(3, seed=s, turns=6).to_record()))
    page = tmp_path / "report.html"
    args = ["review", str(tmp_path), "--samples", "2", "--seed", "5", "--workers", "1",
            "--no-progress", "--report", str(page)]
    assert main([*args, "--json", "--model", "inferred", "--beta", "2"]) == 0
    obj = json.loads(capsys.readouterr().out)
    assert list(obj)[:3] == ["model", "beta", "games"]
    assert (obj["model"], obj["beta"]) == ("inferred", 2.0)
    assert all((g["model"], g["beta"]) == ("inferred", 2.0) for g in obj["games"])
    words = "the inferred model (the hidden cards as the players&#x27; choices suggest; beta 2)"
    assert f'<p id="judged-by">Judged by {words}.</p>' in page.read_text()
    assert main([*args, "--model", "inferred"]) == 0  # the text: beta fitted
    text = capsys.readouterr().out.splitlines()
    assert text[1] == ("judged by: the inferred model (the hidden cards as the players' "
                       "choices suggest; each opponent's rationality beta fitted from its "
                       "own choices so far)")
    assert "beta fitted from its own choices so far).</p>" in page.read_text()
    assert main([*args, "--json"]) == 0  # the uniform model: its object as it always was
    obj = json.loads(capsys.readouterr().out)
    assert list(obj) == ["games", "players", "kinds", "positions"]
    assert all("model" not in g for g in obj["games"])
    assert ("Judged by the rules alone (the uniform model: every card a player could not "
            "see equally likely).") in page.read_text()


def test_a_batch_by_several_models_names_each(serial: ClassReview) -> None:
    """Put together by hand from reviews by different models: the batch names no one model
    (its games still do), and the report lists each."""
    from dataclasses import replace

    other = replace(serial.games[1], review=replace(serial.games[1].review, model="inferred",
                                                    beta=4.0))
    c = ClassReview([serial.games[0], other])
    assert serial.judged_by() == ("uniform", "fitted") and c.judged_by() is None
    assert "model" not in c.to_json()
    assert c.summary()["judged_by"].startswith("the rules alone (") and \
        c.summary()["judged_by"].endswith("; the inferred model (the hidden cards as the "
                                          "players' choices suggest; beta 4)")


@pytest.mark.parametrize(("report", "said"), [
    ("", "the path to write must be a file's path (a text or a Path), not ''"),
    ("out", "cannot write the report to out: it is a folder (name a file in it, such as "
            "report.html)"),
    ("no/report.html", "cannot write the report to no/report.html: there is no folder no"),
])
def test_a_report_that_cannot_be_written_is_said_before_the_review(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        report: str, said: str) -> None:
    import tenleave_widget.programs.class_review as class_review

    def no_review(*args: object, **kwargs: object) -> None:
        raise AssertionError("the review ran before the report's path was checked")

    monkeypatch.setattr(class_review, "review_many", no_review)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "out").mkdir()
    rc = main(["review", str(THREE), "--no-progress", "--report", report])
    assert (rc, capsys.readouterr().err) == (2, f"tenleave: {said}\n")
    assert [p.name for p in tmp_path.iterdir()] == ["out"] and not any((tmp_path / "out").iterdir())
