"""The table's offers (what the seat on screen may click) from the engine's legal turns,
against the former way (one trial ``Game.preview`` copy per candidate step, about 25), in
one run, on the same positions: medians of the CPU time per call and their ratio.

    nice .venv/bin/python benchmarks/bench_offers.py [--games 20] [--repeats 3]

The positions: every turn of ``--games`` seeded random games of 2-5 seats, at the turn's
start and after each step of the turn then played (a play, a peek, a rotation, a wake),
each on a real hot-seat session. Both ways must give the same offers on every position
(checked; the run stops otherwise). Each position is timed with both ways alternately,
``--repeats`` times; the medians are over all the calls, the paired ratio is the median of
each position's new/former ratio.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from tenleave_widget import Game
from tenleave_widget.engine.errors import TenLeaveError
from tenleave_widget.engine.turn import TurnStep
from tenleave_widget.table.protocol import Offers
from tenleave_widget.table.session.config import check_config
from tenleave_widget.table.session.machine import Session
from tenleave_widget.table.session.offers import OffersSession, final_steps, offers, wake_why


def former_offers(session: OffersSession) -> Offers:
    """``offers`` as it was: each candidate step checked with a trial preview of the turn."""
    out: Offers = {
        "active": False, "play_cards": [], "play_queues": [], "peek": [], "rotate": [],
        "wake": False, "end": False, "reset": False, "undo": False, "again": False,
        "wake_why": "",
    }
    if session.mode.live and not session.busy:
        out["undo"] = session.mode.undo_refusal(session) is None
        out["again"] = session.live.finished and not session.covered
    if not session.my_turn():
        return out
    live = session.live
    seat = session.seat
    assert seat is not None
    pending = session.pending
    shown = session.shown()

    def legal(step: TurnStep) -> bool:
        try:
            live.preview([*pending, step])
        except TenLeaveError:
            return False
        return True

    played = any(s["kind"] == "play" for s in pending)
    acted = any(s["kind"] != "play" for s in pending)
    queues = range(live.queue_count)
    out["active"] = True
    if not played:
        cards = sorted(set(shown.hand(seat)))
        out["play_cards"] = cards
        if cards:
            out["play_queues"] = [
                q for q in queues if legal({"kind": "play", "card": cards[0], "queue": q})
            ]
    if not acted:
        out["peek"] = [
            [q, i] for q in queues for i in range(len(shown.queue_cards(q)))
            if legal({"kind": "peek", "queue": q, "position": i})
        ]
        out["rotate"] = [q for q in queues if legal({"kind": "rotate", "queue": q})]
        out["wake"] = not played and legal({"kind": "wake"})
        if not played and not out["wake"]:
            out["wake_why"] = wake_why([len(shown.queue_cards(q)) for q in queues])
    out["end"] = played
    out["reset"] = len(pending) > final_steps(pending)
    return out


def positions(games: int) -> list[Session]:
    """A hot-seat session per position (its screen uncovered), with the turn's steps so far."""
    out: list[Session] = []
    for seed in range(games):
        seats = 2 + seed % 4
        game, rng = Game(seats, seed=seed), random.Random(seed)
        while not game.finished:
            turn = game.legal_turns.sample(rng)
            steps = turn.steps()
            for k in range(len(steps)):
                s = Session(game.copy(), check_config(game, mode="hotseat",
                                                      humans=list(range(seats))))
                s.seat, s.covered = game.to_move, False
                for step in steps[:k]:
                    s.handle(step)
                out.append(s)
            game.apply(turn)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    sessions = positions(args.games)
    for s in sessions:
        assert offers(s) == former_offers(s), (s.pending, offers(s), former_offers(s))
    clock = time.process_time_ns
    new: list[float] = []
    old: list[float] = []
    ratios: list[float] = []
    for _ in range(args.repeats):
        for s in sessions:
            t0 = clock()
            offers(s)
            t1 = clock()
            former_offers(s)
            t2 = clock()
            new.append((t1 - t0) / 1e3)
            old.append((t2 - t1) / 1e3)
            ratios.append((t1 - t0) / max(t2 - t1, 1))
    print(f"{len(sessions)} positions ({args.games} games), {args.repeats} repeats; "
          "the same offers on every position")
    print(f"from LegalTurns:        median {statistics.median(new):7.1f} us CPU per call")
    print(f"trial previews (former): median {statistics.median(old):7.1f} us CPU per call")
    ratio = statistics.median(new) / statistics.median(old)
    print(f"ratio of the medians (new/former): {ratio:.2f}; "
          f"median paired ratio: {statistics.median(ratios):.2f}")


if __name__ == "__main__":
    main()
