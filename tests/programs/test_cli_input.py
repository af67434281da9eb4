"""Hostile input to the ``tenleave`` command and the record reader (issue 14, items 3 and 5).

Whatever the input — a special file, a huge or duplicated field, escape codes in a name,
a malformed command line — the answer is exit status 2, nothing on stdout and one short,
printable line on stderr; a record the format allows (a UTF-8 BOM, standard input) is read.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from helpers import random_game

from tenleave_widget import Game, TenLeaveError, load_record

LIMIT = 10 * 1024 * 1024  # the documented record size limit (10 MiB)
HOSTILE = "\x1b[31mred\n\x1b]0;title\x07\u202e" + "x" * 100_000
SHORT = 240  # the longest error line we accept


def run(
    *args: str, stdin: bytes | None = None, timeout: float = 60
) -> subprocess.CompletedProcess[str]:
    """The command in a child limited to 2 GiB of memory (so a reader without a size cap
    fails there instead of exhausting the machine)."""

    def limit_memory() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))

    r = subprocess.run(
        [sys.executable, "-m", "tenleave_widget", *args], capture_output=True,
        input=stdin, timeout=timeout, preexec_fn=limit_memory,
    )
    return subprocess.CompletedProcess(
        r.args, r.returncode, r.stdout.decode("utf-8", "replace"),
        r.stderr.decode("utf-8", "replace"),
    )


def assert_one_clean_line(r: subprocess.CompletedProcess[str], *needles: str) -> None:
    assert r.returncode == 2, (r.returncode, r.stderr[:500])
    assert r.stdout == ""
    assert r.stderr.endswith("\n") and r.stderr.count("\n") == 1, r.stderr[:500]
    line = r.stderr[:-1]
    assert line.startswith("tenleave: ") and "usage" not in line
    assert len(line) <= SHORT and line.isprintable(), line[:500]
    for needle in needles:
        assert needle in line, line


def record_text() -> str:
    return json.dumps(random_game(3, seed=5, turns=9).to_record())


# ---------------------------------------------------------------------- special files


def test_a_character_device_is_refused_in_one_line() -> None:
    assert_one_clean_line(run("replay", "/dev/zero"), "/dev/zero", "not a regular file")
    assert_one_clean_line(run("odds", "/dev/zero", "--seat", "0"), "not a regular file")


def test_a_fifo_without_writer_is_refused_without_blocking(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    assert_one_clean_line(run("replay", str(fifo), timeout=20), "not a regular file")


def test_a_directory_and_a_missing_file_are_refused_in_one_line(tmp_path: Path) -> None:
    assert_one_clean_line(run("replay", str(tmp_path)), "not a regular file")
    assert_one_clean_line(run("replay", str(tmp_path / "nope.json")), "cannot read")


def test_records_are_read_up_to_the_documented_size_limit(tmp_path: Path) -> None:
    text = record_text()
    f = tmp_path / "big.json"
    f.write_bytes(text.encode() + b" " * (LIMIT - len(text)))  # exactly the limit
    ok = run("replay", str(f))
    assert ok.returncode == 0, ok.stderr
    assert json.loads(ok.stdout) == json.loads(run("replay", "-", stdin=text.encode()).stdout)
    f.write_bytes(text.encode() + b" " * (LIMIT + 1 - len(text)))
    assert_one_clean_line(run("replay", str(f)), "10 MiB")
    with pytest.raises(TenLeaveError, match="10 MiB"):
        load_record(f)
    # standard input too, without reading all of an endless stream
    assert_one_clean_line(run("replay", "-", stdin=b" " * (3 * LIMIT)), "10 MiB")
    assert "10 MiB" in run("replay", "--help").stdout


# ---------------------------------------------------------------------- JSON text


def test_duplicate_keys_are_refused_naming_the_key(tmp_path: Path) -> None:
    text = record_text()
    forged = '{"format": "bogus", ' + text[1:]
    f = tmp_path / "dup.json"
    f.write_text(forged)
    assert_one_clean_line(run("replay", str(f)), "duplicate", "'format'")
    with pytest.raises(TenLeaveError, match="duplicate key 'format'"):
        load_record(f)
    # in a nested object too (a turn with two plays)
    rec = json.loads(text)
    rec["turns"] = []
    nested = json.dumps(rec)[:-1] + ', "turns": [{"seat": 0, "play": ["1", 0], ' \
        '"play": ["2", 1]}]}'
    f.write_text(nested.replace('"turns": [], ', ""))
    assert_one_clean_line(run("replay", str(f)), "duplicate key 'play'")
    # a hostile duplicated key is named by a short escaped excerpt
    key = json.dumps(HOSTILE[:5000])  # escaped as JSON, raw once parsed
    f.write_text("{" + key + ": 1, " + key + ": 2}")
    assert_one_clean_line(run("replay", str(f)), "duplicate key")


def test_a_utf8_bom_is_accepted(tmp_path: Path) -> None:
    text = record_text()
    plain, bom = tmp_path / "plain.json", tmp_path / "bom.json"
    plain.write_text(text, encoding="utf-8")
    bom.write_bytes(b"\xef\xbb\xbf" + text.encode())
    r = run("replay", str(bom))
    assert r.returncode == 0, r.stderr
    assert r.stdout == run("replay", str(plain)).stdout
    assert load_record(bom) == json.loads(text)
    assert Game.from_record(bom) == Game.from_record(plain)


def test_a_dash_reads_the_record_from_standard_input(tmp_path: Path) -> None:
    text = record_text()
    f = tmp_path / "g.json"
    f.write_text(text)
    for args in (["replay", "--turns", "4"], ["odds", "--seat", "1"]):
        r = run(args[0], "-", *args[1:], stdin=b"\xef\xbb\xbf" + text.encode())
        assert r.returncode == 0, r.stderr
        assert r.stdout == run(args[0], str(f), *args[1:]).stdout
    assert_one_clean_line(run("replay", "-", stdin=b'{"format": "x"'), "not JSON")


# ---------------------------------------------------------------------- the command line


@pytest.mark.parametrize("args", [
    [],
    ["replay"],
    ["bogus"],
    ["odds", "g.json"],
    ["replay", "g.json", "--turns", "x"],
    ["replay", "g.json", "--turns", "1" * 5000],
    ["replay", "g.json", "--colour", HOSTILE[:2000]],
    ["simulate", "--players", "three", "--games", "3"],
])
def test_argument_errors_are_one_line(args: list[str]) -> None:
    assert_one_clean_line(run(*args))


def test_help_still_prints_the_usage() -> None:
    r = run("--help")
    assert r.returncode == 0 and r.stdout.startswith("usage: tenleave")
    # ...and a usage error says where to find it, on its one line
    assert_one_clean_line(run("replay"), "tenleave replay --help")


def test_a_hostile_bot_name_is_echoed_short_and_escaped() -> None:
    r = run("simulate", "--players", "3", "--games", "3",
            "--bots", "random,random," + HOSTILE[:5000])
    assert_one_clean_line(r, "unknown bot", "\\x1b")


# ---------------------------------------------------------------------- short messages


def test_a_huge_or_escaped_value_is_echoed_as_a_short_excerpt(tmp_path: Path) -> None:
    rec = json.loads(record_text())
    f = tmp_path / "r.json"
    for path, value, needle in [
        (["first"], "x" * 2_000_000, "'first'"),
        (["rules"], {HOSTILE: 1, "evil\n\x1b[2J": 2}, "unknown rule option"),
        (["format"], HOSTILE, "'format'"),
        (["turns", 3, "play", 0], HOSTILE, "turn 3"),
        (["defense", 1], HOSTILE, "'defense'"),
        (["notes"], {HOSTILE: "x"}, "'notes'"),
    ]:
        forged = json.loads(json.dumps(rec))
        target = forged
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
        f.write_text(json.dumps(forged))
        assert_one_clean_line(run("replay", str(f)), needle)


def walk(obj: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """The path of every value in a JSON object (the root excluded)."""
    out: list[tuple[Any, ...]] = []
    items = obj.items() if isinstance(obj, dict) else enumerate(obj) \
        if isinstance(obj, list) else []
    for k, v in items:
        out.append((*path, k))
        out += walk(v, (*path, k))
    return out


def replaced(obj: Any, path: tuple[Any, ...], value: Any, rename: bool = False) -> Any:
    obj = json.loads(json.dumps(obj))
    target = obj
    for key in path[:-1]:
        target = target[key]
    if rename:
        target[value] = target.pop(path[-1])
    else:
        target[path[-1]] = value
    return obj


def deep(n: int) -> list[Any]:
    out: list[Any] = []
    for _ in range(n):
        out = [out]
    return out


def test_every_record_error_is_one_short_printable_line() -> None:
    """Every value (and every key) of a record replaced by something hostile: a huge
    string with escape codes, a 5,000-digit integer, a list nested 3,000 deep. Loading it
    either works or raises one of our errors with a short printable message."""
    rec = random_game(4, seed=8, turns=14).to_record()
    rec["rules"] = {"daybreak_token_change": False}
    rec["notes"] = {"2": "a note"}
    hostile_values: list[Any] = [HOSTILE, 10**5000, -(10**5000), deep(3000)]
    checked = 0
    for path in walk(rec):
        cases = [replaced(rec, path, v) for v in hostile_values]
        if isinstance(path[-1], str):
            cases.append(replaced(rec, path, HOSTILE, rename=True))
        for forged in cases:
            try:
                Game.from_record(forged)
            except TenLeaveError as e:
                msg = str(e)
                assert len(msg) <= SHORT and msg.isprintable(), (path, msg[:300])
                checked += 1
    assert checked > 200


def test_excerpt_is_short_escaped_and_total() -> None:
    from tenleave_widget.engine.errors import excerpt

    assert excerpt("3*") == "'3*'" and excerpt(7) == "7"
    for value in (HOSTILE, [HOSTILE] * 50, {HOSTILE: HOSTILE}, deep(5000), 10**5000,
                  -(10**5000), b"\x00" * 10**6, 1e308):
        text = excerpt(value)
        assert len(text) <= 60 and text.isprintable(), text
    assert excerpt(HOSTILE, limit=20) == "'\\x1b[31mred\\n\\x1..."


@pytest.mark.parametrize("args", [
    ["odds", "--seat", "0", "--beta", "2"],
    ["odds", "--seat", "0", "--beta", "fitted"],
    ["odds", "--seat", "0", "--cost", "lookahead"],
    ["odds", "--seat", "0", "--model", "uniform", "--beta", "0"],
    ["review", "--beta", "2"],
    ["evaluate", "--seat", "0", "--beta", "1.5"],
    ["evaluate", "--seat", "0", "--cost", "fitted"],
])
def test_beta_and_cost_without_the_inferred_model_are_refused(
        tmp_path: Path, args: list[str]) -> None:
    """They would be ignored: one line naming the fix, nothing printed on stdout."""
    f = tmp_path / "g.json"
    f.write_text(record_text())
    flag = next(a for a in args if a in ("--beta", "--cost"))
    assert_one_clean_line(run(args[0], str(f), *args[1:]),
                          f"{flag} is for --model inferred", "add --model inferred")


def test_beta_with_the_inferred_model_still_works(tmp_path: Path) -> None:
    f = tmp_path / "g.json"
    f.write_text(record_text())
    for beta in ([], ["--beta", "2"]):
        r = run("odds", str(f), "--seat", "0", "--model", "inferred", *beta)
        assert r.returncode == 0 and json.loads(r.stdout)["seat"] == 0, r.stderr[:300]


def test_review_of_a_folder_names_every_entry_it_skips_and_merges_copies(
        tmp_path: Path) -> None:
    """Hostile names are escaped, every ``*.json`` entry that is not a record file is named
    on a line of its own, and copies of one game (a duplicate, a symbolic link) are
    reviewed once, the copies named."""
    d = tmp_path / "class"
    d.mkdir()
    rec = record_text()
    (d / "a.json").write_text(rec)
    (d / "b-copy.json").write_text(rec)
    (d / "c-link.json").symlink_to(d / "a.json")
    (d / "two\nlines\x1b[2J.json").write_text("x")
    (d / "folder.json").mkdir()
    (d / "loop.json").symlink_to(d / "loop.json")
    (d / "nowhere.json").symlink_to(d / "missing")
    (d / "device.json").symlink_to("/dev/null")
    os.mkfifo(d / "fifo.json")
    r = run("review", str(d), "--samples", "2", "--no-progress", "--workers", "1",
            "--json", timeout=120)
    assert r.returncode == 0, r.stderr[:500]
    lines = r.stderr.splitlines()
    assert all(line.isprintable() and line.startswith("tenleave: ") for line in lines)
    assert "\x1b" not in r.stderr and "\x1b" not in r.stdout
    said = "\n".join(lines)
    for name, what in (("folder.json", "a folder"), ("loop.json", "loops"),
                       ("nowhere.json", "to nothing"), ("device.json", "a device"),
                       ("fifo.json", "a FIFO")):
        assert sum(name in line and what in line for line in lines) == 1, (name, said)
    assert sum("two\\nlines\\x1b[2J.json" in line for line in lines) == 1, said
    for copy in ("b-copy.json", "c-link.json"):
        assert sum(copy in line and "the same game as" in line and "a.json" in line
                   for line in lines) == 1, said
    assert len(lines) == 8, said
    games = json.loads(r.stdout)["games"]
    assert [Path(g["file"]).name for g in games] == ["a.json"]
