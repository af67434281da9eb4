"""The ``tenleave`` command line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from helpers import random_game


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tenleave_widget", *args], capture_output=True, text=True
    )


def test_replay_prints_json(tmp_path: Path) -> None:
    g = random_game(4, seed=11)
    f = tmp_path / "g.json"
    f.write_text(json.dumps(g.to_record()))
    r = run("replay", str(f), "--turns", "7")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["turns_applied"] == 7 and out["finished"] is False and out["winners"] is None
    full = json.loads(run("replay", str(f)).stdout)
    assert full["finished"] is True and full["winners"] == g.winners


def test_replay_errors_exit_2_and_name_the_turn(tmp_path: Path) -> None:
    g = random_game(3, seed=2, turns=6)
    rec = g.to_record()
    rec["turns"][4]["seat"] = 9
    f = tmp_path / "bad.json"
    f.write_text(json.dumps(rec))
    r = run("replay", str(f))
    assert r.returncode == 2 and r.stdout == ""
    assert "turn 4" in r.stderr and len(r.stderr.strip().splitlines()) == 1
    f.write_text(json.dumps(g.to_record()))
    r = run("replay", str(f), "--turns", "99")
    assert r.returncode == 2 and r.stdout == "" and r.stderr.strip()


def test_simulate_json() -> None:
    r = run("simulate", "--players", "3", "--games", "30", "--seed", "4", "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["games"] == 30 and len(out["seats"]) == 3
    for s in out["seats"]:
        lo, hi = s["mean_penalty_ci95"]
        assert lo <= s["mean_penalty"] <= hi
    again = json.loads(run("simulate", "--players", "3", "--games", "30", "--seed", "4",
                           "--json").stdout)
    assert [s["mean_penalty"] for s in again["seats"]] == [
        s["mean_penalty"] for s in out["seats"]
    ]
    bad = run("simulate", "--players", "3", "--games", "3", "--bots", "random,smart,random")
    assert bad.returncode == 2 and "unknown bot" in bad.stderr


def test_evaluate_prints_the_whole_game_values(tmp_path: Path) -> None:
    g = random_game(3, seed=5, turns=8)
    f = tmp_path / "g.json"
    f.write_text(json.dumps(g.to_record()))
    seat = g.to_move
    assert seat is not None
    r = run("evaluate", str(f), "--seat", str(seat), "--samples", "12", "--seed", "3")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert {"seat", "turn", "samples", "moves", "best"} <= set(out)
    assert out["seat"] == seat and out["turn"] == 8 and out["samples"] == 12
    keys = {"turn", "expected_final_penalty", "ci95", "expected_margin", "margin_ci95",
            "win_probability", "immediate_expected_penalty"}
    assert all(keys <= set(m) for m in out["moves"])
    assert 0 <= out["best"] < len(out["moves"])
    from tenleave_widget import evaluate

    assert out == json.loads(json.dumps(evaluate(g, seat, budget=12, seed=3)))
    again = run("evaluate", str(f), "--seat", str(seat), "--turns", "8", "--samples", "12",
                "--seed", "3")
    assert json.loads(again.stdout) == out
    for bad in (["--seat", str((seat + 1) % 3)], ["--seat", "9"], ["--seat", "0", "--turns", "99"],
                ["--seat", str(seat), "--samples", "0"]):
        r = run("evaluate", str(f), *bad)
        assert r.returncode == 2 and r.stdout == "", bad
        assert len(r.stderr.strip().splitlines()) == 1, r.stderr
