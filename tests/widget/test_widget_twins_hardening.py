"""The twin-game differential (``test_widget_secrets.py``: two records a seat cannot tell
apart must give that seat byte-for-byte the same widget) over what came later: branch
records (*Play on from here* with the seat's cards dealt again, its record and the
replay of it), locked replays (a lesson's moments for other views, refused switches),
and forged comm-level trait updates (what is refused and what is sent back)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from tenleave_widget import Game
from tenleave_widget.engine.record import names_record, public_digest
from tenleave_widget.widget import replay
from widget.test_widget_forged_updates import update
from widget.test_widget_secrets import REPLAY_CASES, normalized, swapped_record, widget_state

CASES = [c for c in range(len(REPLAY_CASES)) if not REPLAY_CASES[c][0].finished][:8]


def twins(case: int) -> tuple[int, dict[str, Any], dict[str, Any]]:
    game, seat = REPLAY_CASES[case]
    swap = swapped_record(game, seat, random.Random(case))
    assert swap is not None
    other = swap[0]
    assert Game.from_record(other).view(seat) == game.view(seat)
    return seat, game.to_record(), other


@pytest.mark.parametrize("case", CASES)
def test_a_branch_and_its_record_are_the_same_for_twins(case: int) -> None:
    seat, *records = twins(case)
    states, branch_records = [], []
    for rec in records:
        r = replay(rec, seat=seat, turn=len(rec["turns"]))
        b = r.play_from_here(human=seat, bots=["greedy"], redeal=True, seed=case, bot_delay=0)
        states.append(widget_state(b))
        o = b.table.offers
        if o["play_cards"]:
            b.send_intent({"kind": "play", "card": o["play_cards"][0],
                           "queue": o["play_queues"][0]})
            b.send_intent({"kind": "end"})
        states.append(widget_state(b))
        out = b.record()
        name = out["branch"]["from"]
        if name.startswith("public:"):  # a random salt: the same one for both twins
            assert names_record(name, rec)
            out["branch"]["from"] = public_digest(rec, "5a17ed00")
        branch_records.append(out)
        shown = replay(out, seat=seat)
        shown.goto(len(out["turns"]))
        states.append(widget_state(shown))
    assert branch_records[0] == branch_records[1]  # the re-deal is from the view alone
    half = len(states) // 2
    assert states[:half] == states[half:]


def lesson_for(rec: dict[str, Any], seat: int) -> dict[str, Any]:
    total = len(rec["turns"])
    others = [s for s in range(len(rec["players"])) if s != seat]
    return {"moments": [
        {"turn": t, "question": f"question {i}", "answer": f"answer {i}", "perspective": p}
        for i, (t, p) in enumerate(zip(range(0, total, max(1, total // 4)),
                                       [None, others[0], seat, None], strict=False))]}


@pytest.mark.parametrize("case", CASES)
def test_a_locked_replay_is_the_same_for_twins(case: int) -> None:
    seat, *records = twins(case)
    runs: list[list[Any]] = []
    for rec in records:
        w = replay(rec, seat=seat, lock=True, lesson=lesson_for(rec, seat))
        out: list[Any] = []
        for _ in w.lesson["moments"]:
            w.next_moment()
            out.append(widget_state(w))
            w.reveal()
            out.append(widget_state(w))
        for s in (None, *range(len(rec["players"]))):
            out.append(w.send_intent({"kind": "perspective", "seat": s}))
            out.append(widget_state(w))
        w.goto(len(rec["turns"]))
        out.append(widget_state(w))
        runs.append(out)
    assert runs[0] == runs[1]


FORGED: list[Any] = [None, 0, "x", [], {"figures": {}}, True, 2**70]


@pytest.mark.parametrize("case", CASES[:4])
def test_forged_trait_updates_are_answered_alike_for_twins(case: int) -> None:
    seat, *records = twins(case)
    runs: list[list[Any]] = []
    for rec in records:
        w = replay(rec, seat=seat, turn=len(rec["turns"]))
        out: list[Any] = []
        for key in sorted(w.table.keys):
            for value in FORGED:
                sent = update(w.table, {key: value})
                out.append(normalized(json.loads(json.dumps(sent, default=repr))))
        out.append(widget_state(w))
        runs.append(out)
    assert runs[0] == runs[1]
