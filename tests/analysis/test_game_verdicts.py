"""One "best" (issue 22, point 4): the sample games' notes agree with the game review.

The notes explain a decision with the exact odds of the next swat ("the safest play",
"the cheaper of the two"), which look one swat ahead; only a verdict sentence, taken from
the review of the same game at the default budget, calls a move best, good or a mistake.
Here each decision of the sample games that a note explains is judged again as the review
of the game at the default budget and seed judges it (``judge_decision``, which the whole
review calls for each of its turns) and every verdict is checked against the review's
label within its interval, its figures and its best move; every other note may not judge.
"""

from __future__ import annotations

import importlib.util
import json
import math
import re
import sys
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from tenleave_widget import Turn
from tenleave_widget.analysis.review import (
    LABELS,
    THRESHOLDS,
    TurnReview,
    decisions,
    judge_decision,
    turn_text,
)

GAMES = Path(__file__).resolve().parents[2] / "examples" / "games"
FILES = sorted(GAMES.glob("game-*-seats.json"))

VERDICT = re.compile(
    r"The game review \(it plays the rest of the game out many times, from (?P<name>\w+)'s "
    r"view\) calls (?P=name)'s move (?P<label>the best|good|an inaccuracy|a mistake|a blunder)"
    r"(?:: here every move was worth about the same"
    r"|: the best was (?P<best>.+?), which would have left (?P=name) about (?P<loss>\d+\.\d) "
    r"points better off against the others \(between (?P<lo>-?\d+\.\d) and (?P<hi>-?\d+\.\d), "
    r"19 times in 20\))?\."
)
JUDGING = re.compile(r"\b(best|good|inaccuracy|inaccurate|mistakes?|blunders?)\b", re.I)
"""Words that call a move good or bad: only a verdict may use them."""


def _load(path: Path) -> dict[str, Any]:
    rec: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return rec


def _make_games() -> Any:
    if "make_games" in sys.modules:
        return sys.modules["make_games"]
    sys.path.insert(0, str(GAMES))
    spec = importlib.util.spec_from_file_location("make_games", GAMES / "make_games.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules["make_games"] = mod
    spec.loader.exec_module(mod)
    return mod


def _bounds(label: str) -> tuple[float, float]:
    """The losses (points of margin) a label covers."""
    edges = [-math.inf, *THRESHOLDS["margin"], math.inf]
    i = LABELS.index(label)
    return edges[i], edges[i + 1]


def check(note: str, judged: Any, name: str) -> list[str]:
    """What is wrong with a note's verdicts about a decision (``judged``: its
    :class:`TurnReview`, or ``None`` when the turn was not reviewed), and with any word
    outside them that judges a move."""
    problems = []
    for m in VERDICT.finditer(note):
        label = m["label"].split()[-1]
        if judged is None:
            problems.append("a verdict on a turn the review did not judge")
            continue
        lo, hi = judged.loss_ci95
        a, b = _bounds(label)
        if m["name"] != name:
            problems.append(f"the verdict names {m['name']}, the mover is {name}")
        # the review's own label (a decision tied with the best is "best" whatever its
        # point estimate), or a label whose range meets the review's interval
        if label != judged.label and not (a < hi and lo <= b):
            problems.append(f"{label}, the review says {judged.label} "
                            f"(loss {judged.loss:.2f} [{lo:.2f}, {hi:.2f}])")
        if m["loss"] is not None:
            if not lo - 0.05 <= float(m["loss"]) <= hi + 0.05:
                problems.append(f"a loss of {m['loss']} outside [{lo:.2f}, {hi:.2f}]")
            best = re.sub(r"(\d)\*", r"\1", turn_text(judged.best, words=True))
            if m["best"] != best:
                problems.append(f"the best named is {m['best']}, the review's is {best}")
    rest = VERDICT.sub("", note)
    problems += [f"{w!r} outside a verdict" for w in JUDGING.findall(rest)]
    return problems


@cache
def _judged(path: Path) -> dict[int, TurnReview]:
    """The review's judgement of each decision a note explains (the default budget and
    seed, as make_games.py --review)."""
    rec = _load(path)
    every = decisions(rec)
    return {i: judge_decision(every[i]) for i in _make_games().decision_turns(rec)}


def test_the_check_can_fail() -> None:
    mg = _make_games()
    judged = Turn.from_json({"seat": 1, "play": ["5", 0], "rotate": 0, "extra": "after"})

    class Judged:
        label, loss, loss_ci95, best = "blunder", 5.75, (5.38, 6.13), judged

    said = mg.verdict("Ben", {"label": "blunder", "loss": 5.75, "loss_ci95": [5.38, 6.13],
                              "forced": False, "best": judged.to_json()})
    assert check(said, Judged, "Ben") == []
    assert check(said.replace("a blunder", "good"), Judged, "Ben")
    assert check(said.replace("about 5.8", "about 2.0"), Judged, "Ben")
    assert check(said.replace("then rotate queue 1", "then rotate queue 2"), Judged, "Ben")
    assert check(said, Judged, "Cy")
    assert check(said, None, "Ben")
    assert check("Ben's best play was 3 on queue 1.", Judged, "Ben")


@pytest.mark.slow
@pytest.mark.parametrize("path", FILES, ids=[f.name for f in FILES])
def test_the_notes_agree_with_the_review(path: Path) -> None:
    rec = _load(path)
    judgements = _judged(path)
    verdicts = 0
    for key, note in rec["notes"].items():
        i = int(key)
        judged = judgements.get(i)
        name = rec["players"][rec["turns"][i]["seat"]]
        assert check(note, judged, name) == [], (path.name, key)
        verdicts += len(VERDICT.findall(note))
    # every decision the notes explain carries the review's verdict
    mg = _make_games()
    for i in mg.decision_turns(rec):
        assert VERDICT.search(rec["notes"][str(i)]), (path.name, i)
    assert verdicts == len(mg.decision_turns(rec)) > 0


def test_the_stored_verdicts_are_the_notes() -> None:
    """The notes' verdicts come from reviews.json (made by make_games.py --review): every
    decision turn of every game is in it, with a label."""
    mg = _make_games()
    for path in FILES:
        rec = _load(path)
        stored = mg.reviewed(len(rec["players"]))
        assert sorted(stored) == mg.decision_turns(rec), path.name
        assert all(v["label"] in LABELS for v in stored.values())
