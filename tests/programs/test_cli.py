"""The ``tenleave`` command line."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from helpers import random_game


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tenleave_widget", *args], capture_output=True, text=True,
        timeout=120,
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


@pytest.mark.slow
def test_evaluate_prints_the_one_analysis(tmp_path: Path) -> None:
    from tenleave_widget.analysis.analyse import KINDS, analyse, clear_cache, settings_for

    g = random_game(3, seed=5, turns=8)
    f = tmp_path / "g.json"
    f.write_text(json.dumps(g.to_record()))
    seat = g.to_move
    assert seat is not None
    r = run("evaluate", str(f), "--seat", str(seat), "--samples", "12", "--seed", "3", "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert {"format", "digest", "seat", "turn", "worlds", "decisions", "best", "star",
            "equal"} <= set(out)
    assert out["format"] == "tenleave-analysis/1"
    assert out["seat"] == seat and out["turn"] == 8 and out["worlds"] >= 12
    keys = {"kind", "turn", "key", "expected_margin", "margin_ci95", "vs_best", "vs_best_ci95",
            "expected_final_penalty", "final_penalty_ci95", "win_probability",
            "immediate_expected_penalty", "worlds"}
    assert all(keys <= set(d) and d["kind"] in KINDS for d in out["decisions"])
    assert out["best"] == 0 and 0 in out["equal"]
    # the same figures as the analysis in this process (the seed is the position's)
    clear_cache()
    assert out == json.loads(json.dumps(analyse(g.view(seat), settings_for(12), seed=3)))
    again = run("evaluate", str(f), "--seat", str(seat), "--turns", "8", "--samples", "12",
                "--seed", "3", "--json")
    assert json.loads(again.stdout) == out
    # without --json: a table, one line per decision, best first, the turn counted from 1
    table = run("evaluate", str(f), "--seat", str(seat), "--samples", "12", "--seed", "3")
    assert table.returncode == 0, table.stderr
    lines = table.stdout.splitlines()
    assert lines[0].startswith(f"{g.players[seat]} to move on turn 9 (after 8 turns played)")
    rows = [line for line in lines if line.split(" ")[0][:1].isdigit() or
            line.startswith(("wake", "rotate", "peek"))]
    assert len(rows) == len(out["decisions"]) and "best" in rows[0]
    assert f"{out['decisions'][0]['expected_margin']:+.2f}" in rows[0]
    assert any(line.startswith("best: ") for line in lines) == out["star"]
    assert "final penalty and one swat are penalties" in table.stdout
    assert max(len(line) for line in lines) <= 100
    for bad in (["--seat", str((seat + 1) % 3)], ["--seat", "9"], ["--seat", "0", "--turns", "99"],
                ["--seat", str(seat), "--samples", "0"]):
        r = run("evaluate", str(f), *bad)
        assert r.returncode == 2 and r.stdout == "", bad
        assert len(r.stderr.strip().splitlines()) == 1, r.stderr


# ---------------------------------------------------------------------- no traceback, ever
# (issue 21, item 6): a closed pipe, a full disk, a malformed scheduler address and a signal
# at any moment each end in a documented exit status and at most one line on stderr.

COMMAND = [sys.executable, "-m", "tenleave_widget"]


def record_file(tmp_path: Path) -> Path:
    f = tmp_path / "g.json"
    f.write_text(json.dumps(random_game(3, seed=5, turns=9).to_record()))
    return f


def no_traceback(err: str) -> None:
    assert "Traceback" not in err and "Exception ignored" not in err, err[-2000:]
    assert err.count("\n") <= 1, err[-2000:]


def test_a_closed_pipe_ends_quietly_with_141(tmp_path: Path) -> None:
    f = record_file(tmp_path)
    for args in (["replay", str(f)], ["odds", str(f), "--seat", "0"], ["--help"],
                 ["simulate", "--players", "3", "--games", "20", "--workers", "1"]):
        read, write = os.pipe()
        os.close(read)  # the reader is gone before the first byte (as `| head -c0`)
        try:
            r = subprocess.run([*COMMAND, *args], stdout=write, stderr=subprocess.PIPE,
                               text=True, timeout=60)
        finally:
            os.close(write)
        assert r.returncode == 141 and r.stderr == "", (args, r.returncode, r.stderr[-2000:])


def test_a_closed_pipe_after_the_first_byte(tmp_path: Path) -> None:
    # `tenleave simulate ... | head -c1` with more output than a pipe holds
    p = subprocess.Popen([*COMMAND, "simulate", "--players", "5", "--games", "20",
                          "--workers", "1"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert p.stdout is not None and p.stderr is not None
    try:
        assert p.stdout.read(1)
        p.stdout.close()
        err = p.stderr.read().decode()
        p.wait(timeout=60)
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
    assert p.returncode in (0, 141), p.returncode  # 0: it had written all before the close
    assert err == ""


def test_a_full_disk_is_one_line_and_exit_2(tmp_path: Path) -> None:
    f = record_file(tmp_path)
    for args in (["replay", str(f)], ["--help"],
                 ["simulate", "--players", "3", "--games", "20", "--workers", "1"]):
        with open("/dev/full", "w") as full:
            r = subprocess.run([*COMMAND, *args], stdout=full, stderr=subprocess.PIPE,
                               text=True, timeout=60)
        assert r.returncode == 2, (args, r.stderr[-2000:])
        assert r.stderr == "tenleave: cannot write the output: No space left on device\n"
    # a page that cannot be written names the page
    r = run("export", str(f), "--html", str(tmp_path / "no" / "such" / "dir" / "g.html"))
    assert r.returncode == 2 and r.stdout == "", r.stderr
    assert r.stderr.startswith("tenleave: ") and "g.html" in r.stderr
    no_traceback(r.stderr)


@pytest.mark.parametrize("address", ["notaurl", "", "inproc://x", "tcp://", "tcp://h:999999"])
def test_a_malformed_scheduler_address_is_one_line(address: str) -> None:
    r = subprocess.run([*COMMAND, "simulate", "--players", "3", "--games", "5", "--scheduler",
                        address], capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and r.stdout == "", r.stderr[-2000:]
    assert r.stderr.startswith("tenleave: ") and "tcp://host:8786" in r.stderr
    no_traceback(r.stderr)


def caught_signals(pid: int) -> int:
    """The signals process ``pid`` has handlers for (Linux: /proc/PID/status)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("SigCgt:"):
            return int(line.split()[1], 16)
    raise AssertionError("no SigCgt line")


def handlers_installed(p: subprocess.Popen[bytes], deadline: float) -> None:
    """Wait until the command has installed its SIGTERM handler (its first act)."""
    while not caught_signals(p.pid) & (1 << (signal.SIGTERM - 1)):
        assert p.poll() is None and time.monotonic() < deadline, "no handler installed"
        time.sleep(0.001)


def stopped(p: subprocess.Popen[bytes], sig: int) -> tuple[int, str]:
    p.send_signal(sig)
    _, err = p.communicate(timeout=30)
    return p.returncode, err.decode()


@pytest.mark.parametrize("sig, code, line", [
    (signal.SIGINT, 130, "tenleave: interrupted\n"),
    (signal.SIGTERM, 143, "tenleave: terminated\n"),
])
@pytest.mark.parametrize("delay", [0.0, 0.01, 0.03, 0.08])
def test_a_signal_during_start_up(tmp_path: Path, sig: int, code: int, line: str,
                                  delay: float) -> None:
    """From its first act on, the command turns a signal into its exit status and one line,
    whatever it is doing: importing, parsing, reading, replaying."""
    f = record_file(tmp_path)
    p = subprocess.Popen([*COMMAND, "odds", str(f), "--seat", "0"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        handlers_installed(p, time.monotonic() + 30)
        time.sleep(delay)
        returncode, err = stopped(p, sig)
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
    if returncode == 0:  # finished before the signal came (a fast machine): nothing to say
        assert err == ""
        return
    assert (returncode, err) == (code, line)


def signalled_in_set_name(sig: int) -> None:
    """A class being made (an import at start-up) is signalled inside ``__set_name__``,
    where Python 3.11 wraps the handler's exception in a RuntimeError."""
    class Field:
        def __set_name__(self, owner: type, name: str) -> None:
            os.kill(os.getpid(), sig)
            time.sleep(5)  # the handler raises here, at once

    type("Record", (), {"field": Field()})


def signalled_in_del(sig: int) -> None:
    """An object being finalised (a ``__del__`` the garbage collector runs during an
    import) is signalled, where Python can only report the handler's exception as
    "Exception ignored" and carry on."""
    class Handle:
        def __del__(self) -> None:
            os.kill(os.getpid(), sig)
            time.sleep(5)  # the handler raises here, at once

    Handle()  # dropped at once: its __del__ runs here


@pytest.mark.parametrize("where", [signalled_in_set_name, signalled_in_del])
@pytest.mark.parametrize("sig, code, line", [
    (signal.SIGINT, 130, "tenleave: interrupted\n"),
    (signal.SIGTERM, 143, "tenleave: terminated\n"),
])
def test_a_signal_python_wraps_or_drops_is_still_the_signal(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], sig: int,
        code: int, line: str, where: Callable[[int], None]) -> None:
    """Wherever the handler's exception is raised, the command ends with the signal's
    status and its one line, not as an internal error nor with a line from Python."""
    from tenleave_widget.programs import cli

    def command(argv: object) -> int:
        where(sig)
        return 0

    monkeypatch.setattr(cli, "_command", command)
    assert cli.main(["odds", "-"]) == code
    assert capsys.readouterr().err == line


@pytest.mark.parametrize("sig, code, line", [
    (signal.SIGINT, 130, "tenleave: interrupted"),
    (signal.SIGTERM, 143, "tenleave: terminated"),
])
def test_a_signal_while_it_prints(sig: int, code: int, line: str) -> None:
    """Once the progress bar is on stderr (the command is mid-work)."""
    p = subprocess.Popen([*COMMAND, "simulate", "--players", "3", "--games", "1000000",
                          "--workers", "1"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert p.stderr is not None
    try:
        assert p.stderr.read(1)
        returncode, err = stopped(p, sig)
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
    assert returncode == code
    assert err.strip().splitlines()[-1].split("\r")[-1] == line and "Traceback" not in err


def test_bounded_workers_warn_above_the_cores_and_refuse_above_four_per_core() -> None:
    cores = len(os.sched_getaffinity(0))
    base = [*COMMAND, "simulate", "--players", "3", "--games", "20", "--seed", "1", "--json"]
    r = subprocess.run([*base, "--workers", str(cores + 1)], capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 0 and json.loads(r.stdout)["games"] == 20
    assert r.stderr == (f"tenleave: warning: {cores + 1} workers on {cores} cores: more "
                        "processes than cores play no faster\n")
    for bad in (str(4 * cores + 1), "0", "-3"):
        r = subprocess.run([*base, "--workers", bad], capture_output=True, text=True,
                           timeout=60)
        assert r.returncode == 2 and r.stdout == ""
        assert f"workers must be a whole number 1..{4 * cores}, not {bad}" in r.stderr
        assert r.stderr.count("\n") == 1


def test_samples_are_bounded_naming_the_bound(tmp_path: Path) -> None:
    f = record_file(tmp_path)
    seat = str(random_game(3, seed=5, turns=9).to_move)
    for command in (["evaluate", str(f), "--seat", seat], ["review", str(f)]):
        r = run(*command, "--samples", "100001")
        assert r.returncode == 2 and r.stdout == "", r.stderr
        assert "100000" in r.stderr and r.stderr.count("\n") == 1, r.stderr


def test_evaluate_reads_standard_input(tmp_path: Path) -> None:
    g = random_game(3, seed=5, turns=8)
    text = json.dumps(g.to_record())
    f = tmp_path / "g.json"
    f.write_text(text)
    args = ["--seat", str(g.to_move), "--samples", "8", "--seed", "1", "--json"]
    r = subprocess.run([*COMMAND, "evaluate", "-", *args], input=text, capture_output=True,
                       text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout) == json.loads(run("evaluate", str(f), *args).stdout)
    assert "- for standard input" in " ".join(run("evaluate", "--help").stdout.split())


def test_an_internal_error_is_one_line_and_exit_1(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import tenleave_widget.analysis.position as position_module
    from tenleave_widget.programs.cli import main

    def broken(*args: object, **kwargs: object) -> None:
        raise ZeroDivisionError("a bug\nin two lines")

    monkeypatch.setattr(position_module, "position", broken)
    before = signal.getsignal(signal.SIGTERM)
    assert main(["replay", str(record_file(tmp_path))]) == 1
    out, err = capsys.readouterr()
    assert out == "" and err == ("tenleave: internal error: ZeroDivisionError: a bug\\nin two "
                                 "lines (please report it; TENLEAVE_TRACEBACK=1 shows the "
                                 "traceback)\n")
    assert signal.getsignal(signal.SIGTERM) is before  # called from Python: restored
    monkeypatch.setenv("TENLEAVE_TRACEBACK", "1")
    with pytest.raises(ZeroDivisionError):
        main(["replay", str(record_file(tmp_path))])


def test_odds_prints_tidy_numbers() -> None:
    # The exact odds of this position sum to float noise (0.6399999999999999, ...) when
    # printed raw.
    game = Path(__file__).parents[2] / "examples" / "games" / "game-3-seats.json"
    r = run("odds", str(game), "--seat", "0", "--turns", "5")
    assert r.returncode == 0, r.stderr
    numbers = re.findall(r"-?\d+\.\d+(?:e-?\d+)?", r.stdout)
    assert numbers and all(len(n.split("e")[0].lstrip("-").replace(".", "").lstrip("0")) <= 12
                           for n in numbers), [n for n in numbers if len(n) > 14]
    out = json.loads(r.stdout)
    assert out["queues"][1]["cards"][1]["p_swatted"] == 0.64
