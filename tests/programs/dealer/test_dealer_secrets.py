"""Secret on the wire: twin games — the same from seat P's view, different in what P
cannot see — give P byte-identical message streams, over whole games at 2–5 seats, with
bots, a reconnect, error frames and every seat's peeks and wakes sent as ``step`` frames
(the dealer's answers) in them; from the position (a turn, or a peek or wake of P's in
it) where P's own view of the twins first differs (a swapped card flipped in a swat or
peeked at, at the latest at daybreak) each frame is exactly the engine's view of P,
nothing more. Forged and replayed frames from every seat change nothing.

The twins come from the existing differential's generator (``swapped_record``: two of an
opponent's face-down cards that P does not know, swapped), replayed whole through the
server by a client at every seat; and from a scripted opponent whose two cards of one back
change places, with the project's bots at the other seats.
"""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Callable
from typing import Any

import pytest
from helpers import random_game
from widget.test_widget_secrets import swapped_record

from tenleave_widget import Game
from tenleave_widget.analysis.infer import with_history
from tenleave_widget.engine.game import DEFAULT_NAMES
from tenleave_widget.engine.rules import DEFAULT_RULES
from tenleave_widget.engine.turn import Turn
from tenleave_widget.programs.dealer.client import Client
from tenleave_widget.programs.dealer.wire import WIRE, encode, frame, public_view

from .harness import choose, served, table

Policy = Callable[[int, dict[str, Any]], dict[str, Any]]
"""A scripted seat: (seat, its view when it is to move) -> the turn object it sends."""

W = '"wire":"tenleave-wire/1"'


def revealing(turn: dict[str, Any]) -> list[dict[str, Any]]:
    """The steps of a turn object up to its peek or wake (what a client sends as a
    ``step`` frame before the turn), or ``[]`` when it shows no face-down card."""
    steps = [dict(x) for x in Turn.from_json(turn).steps()]
    shown = [i for i, x in enumerate(steps) if x["kind"] in ("peek", "wake")]
    return steps[:shown[0] + 1] if shown else []


def p_choice(seat: int, view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """P's turn from its view: a plain play, a third of the time with a peek (before) at
    a card it does not know; a wake is :func:`play_twin`'s (its play follows the swat)."""
    turn = dict(choose(view, rng).to_json())
    hidden = [[q, i] for q, queue in enumerate(view["queues"])
              for i, card in enumerate(queue) if card["value"] is None]
    if hidden and rng.random() < 0.35:
        turn["peek"] = hidden[rng.randrange(len(hidden))]
    return turn


def hostile(seat: int, n: int, at: int) -> list[str]:
    """Bad frames P sends on its turn: each answered by one error frame (every turn and
    step among them is illegal whatever the position: no card 9, no queue 9)."""
    other = (seat + 1) % n
    turn = "{" + W + f',"kind":"turn","at":{at},"turn":{{"seat":{seat},'
    step = "{" + W + f',"kind":"step","at":{at},"steps":'
    return [
        "{oops",
        "{" + W + ',"kind":"deal"}',
        "{" + W + f',"kind":"turn","at":{at},"turn":{{"seat":{other},"play":["1",0]}}}}',
        turn + '"play":["5*",9]}}',
        turn + '"play":["9",0]}}',
        turn + '"play":["1",9],"peek":[0,0]}}',
        turn + '"play":["4*",9],"rotate":0}}',
        turn + '"play":["2",9],"wake":true}}',
        "{" + W + f',"kind":"turn","at":{at - 1},"turn":{{"seat":{seat},"play":["1",0]}}}}',
        "{" + W + ',"kind":"undo"}',
        "{" + W + ',"kind":"create","players":2}',
        "{" + W + ',"kind":"ping","pad":"' + "x" * 9000 + '"}',
        step + '[{"kind":"peek","queue":9,"position":0}]}',
        step + '[{"kind":"peek","queue":0,"position":9}]}',
        step + '[{"kind":"play","card":"9","queue":0},{"kind":"peek","queue":0,"position":0}]}',
        step + '[{"kind":"wake"},{"kind":"play","card":"5*","queue":9}]}',
        step + '[{"kind":"rotate","queue":9}]}',
        step + '"peek"}',
        "{" + W + f',"kind":"step","at":{at - 1},"steps":[{{"kind":"wake"}}]}}',
    ]


async def play_twin(n: int, p: int, first: int, bots: dict[int, str],
                    policies: dict[int, Policy], seed: int) -> tuple[list[str], dict[str, Any]]:
    """One game on a fresh server: P (seat ``p``) plays by its policy if it has one, else
    from its view (seeded: :func:`p_choice`, or a wake when it may, a fifth of the time),
    sends its hostile frames on its first and third turns and drops and resumes its
    connection on its second; the ``policies`` play the other seats, the ``bots`` play in
    the server. A turn with a peek or a wake is sent as a ``step`` frame first (the
    dealer's answer taken in), then the turn.
    Returns P's frames (the exact text) and the game's record."""
    async with served(seed=seed) as s:
        t = await table(s.url, s.token, n, first=first,
                        bots={str(k): v for k, v in bots.items()})
        game = s.dealer.tables[t["table"]].game
        seats = sorted(q for q in policies if q != p)
        pc = Client(s.url)
        await pc.join(t["code"], DEFAULT_NAMES[p], p)
        others = {}
        for q in seats:  # one at a time: P is told of each join in this order
            c = Client(s.url)
            await c.join(t["code"], DEFAULT_NAMES[q], q)
            others[q] = c
        assert pc.seat == p and [c.seat for c in others.values()] == seats
        for _ in seats:
            await pc.expect("state")

        async def sit(q: int, c: Client) -> None:
            """Play seat q; P (the observer) errs and reconnects on its way."""
            rng = random.Random(seed)
            last, mine = -1, 0
            while True:
                v = c.view
                assert v is not None
                if v["finished"]:
                    return
                if v["to_move"] == q and v["turns_applied"] > last:
                    last = v["turns_applied"]
                    mine += 1
                    if q == p and mine in (1, 3):
                        for text in hostile(p, n, last):
                            await c.send_text(text)
                            await c.expect("error")
                    if q == p and mine == 2:  # away and back: the full state again
                        await c.close()  # (the client keeps its frames across the two)
                        await c.resume()
                    v = c.view
                    assert v is not None
                    own = policies.get(q)
                    wake = own is None and rng.random() < 0.2 and \
                        all(len(x) >= 2 for x in v["queues"])
                    turn = own(q, dict(v)) if own else p_choice(q, dict(v), rng)
                    steps = [{"kind": "wake"}] if wake else revealing(turn)
                    if steps:
                        await c.send("step", steps=steps, at=last)
                        answer = await c.expect("state")
                        while "steps" not in answer:  # a name sent before (a later join)
                            assert answer["view"]["turns_applied"] == last
                            answer = await c.expect("state")
                        assert answer["steps"] == steps
                        if wake:  # the card is played after the swat
                            turn = dict(choose(answer["view"], rng).to_json(), wake=True)
                    await c.play(turn, last)
                await c.recv()

        await asyncio.gather(sit(p, pc), *(sit(q, c) for q, c in others.items()))
        for c in others.values():
            await c.close()
        await pc.close()
        assert game.finished
        return pc.frames, dict(game.to_record())


def positions(record: dict[str, Any], p: int) -> list[tuple[tuple[int, int], Any]]:
    """P's view in the engine at every position of a record's game: after each count of
    turns (``(k, 0)``), and in each of P's turns once its peek or wake is done
    (``(k, 1)``)."""
    out: list[tuple[tuple[int, int], Any]] = []
    for k in range(len(record["turns"]) + 1):
        g = Game.from_record(record, k)
        out.append(((k, 0), g.view(p)))
        if k < len(record["turns"]) and g.to_move == p:
            steps = revealing(record["turns"][k])
            if steps:
                out.append(((k, 1), g.preview(steps).view(p)))
    return out


def position(text: str) -> tuple[int, int]:
    """The position a frame to P belongs to (``(-1, 0)``: before any state)."""
    msg = json.loads(text)
    if msg["kind"] != "state":
        return (-1, 0)
    return (msg["view"]["turns_applied"], 1 if "steps" in msg else 0)


def check_twins(frames: list[list[str]], records: list[dict[str, Any]], p: int) -> int:
    """The two streams to P are byte-identical up to the first frame whose view of P
    differs in the engine (a turn, or P's own peek or wake); every state frame is exactly
    the engine's view of P (with P's own kept steps done, for the dealer's answers to
    them), nothing of another seat's steps. Returns how many peeks and wakes (any seat's)
    were done before the split."""
    games = [Game.from_record(r) for r in records]
    assert games[0].view(None) != games[1].view(None) or records[0] != records[1]
    # the first position at which P's own view of the twins differs (at the latest at
    # the end, where every card is face up)
    split = next(pa for (pa, va), (pb, vb) in zip(positions(records[0], p),
                                                   positions(records[1], p), strict=False)
                 if pa != pb or va != vb)
    hidden = [k for k in range(split[0] + split[1])
              if Game.from_record(records[0], k).view(None) !=
              Game.from_record(records[1], k).view(None)]
    assert hidden, "the twins differ in what P cannot see before P can tell them apart"
    prefix = []
    for text in frames[0]:
        if position(text) >= split:
            break
        prefix.append(text)
    assert frames[1][:len(prefix)] == prefix
    assert frames[0] != frames[1]  # the streams do differ once P can tell
    for stream, record in zip(frames, records, strict=True):
        for text in stream:
            msg = json.loads(text)
            assert msg["wire"] == WIRE and msg["kind"] in ("seated", "state", "error")
            if msg["kind"] == "state" and "steps" in msg:  # the answer to P's step
                k = msg["view"]["turns_applied"]
                g = Game.from_record(record, k)
                assert g.to_move == p and msg["steps"] == revealing(record["turns"][k])
                assert text == encode(frame("state", table=msg["table"], seat=p,
                                            view=g.preview(msg["steps"]).view(p),
                                            steps=msg["steps"]))
            elif msg["kind"] == "state" and msg["view"]["turns_applied"] > 0:
                k = msg["view"]["turns_applied"]
                g = Game.from_record(record, k)
                # the state after a (re)connection carries the public history too
                view = with_history(g, p) if "history" in msg["view"] else g.view(p)
                assert text == encode(frame("state", table=msg["table"], seat=p, view=view))
    return sum(1 for k, turn in enumerate(records[0]["turns"])
               if (k, 0) < split and revealing(turn))


def record_twins(case: int) -> tuple[dict[str, Any], dict[str, Any], int]:
    """A whole random game of 2-5 seats (peeks, rotations and wakes in it) and its twin
    from the differential's generator: two of an opponent's face-down cards that seat P
    does not know, swapped, early enough that the rest of the game is legal in both."""
    seats = 2 + case % 4
    seed = 0
    while True:
        seed += 1
        full = random_game(seats, seed=1000 * case + seed)
        p = (case + seed) % seats
        k = random.Random(seed).randrange(2 * seats, 5 * seats)
        swap = swapped_record(full.after(k), p, random.Random(seed))
        if swap is None or len(swap[1]) != 2:
            continue
        twin = dict(full.to_record(), turns=swap[0]["turns"] + full.to_record()["turns"][k:])
        try:
            Game.from_record(twin)
        except ValueError:
            continue
        return dict(full.to_record()), twin, p


@pytest.mark.parametrize("case", range(8))
def test_twin_records_give_seat_p_the_same_bytes(case: int) -> None:
    """Every seat but P replays its turns of the record (or of its twin) through the
    server; P plays from its view, errs and reconnects."""
    a, b, p = record_twins(case)
    n = len(a["players"])

    def replay(record: dict[str, Any]) -> Policy:
        def policy(seat: int, view: dict[str, Any]) -> dict[str, Any]:
            turn = record["turns"][view["turns_applied"]]
            assert turn["seat"] == seat
            return dict(turn)
        return policy

    runs = [asyncio.run(play_twin(n, p, a["first"], {}, {q: replay(r) for q in range(n)},
                                  seed=case))
            for r in (a, b)]
    assert check_twins([f for f, _ in runs], [r for _, r in runs], p) >= 1
    for (_, played), record in zip(runs, (a, b), strict=True):
        assert played["turns"] == record["turns"]


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_twins_with_bots_give_seat_p_the_same_bytes(n: int) -> None:
    """Seat P and an opponent O play; the project's bots play every other seat in the
    server. O plays its cards in a fixed order, and in the twin two of them (one back,
    two values) change places: the same game for P until one of them is flipped."""
    p, o = n - 1, 0
    bots = {q: "random" for q in range(n) if q not in (p, o)}
    rng = random.Random(n)
    order = list(DEFAULT_RULES.dealt(n))
    rng.shuffle(order)
    i = next(i for i, c in enumerate(order) if c.endswith("*"))
    order.insert(0, order.pop(i))  # O's first play (no swat can follow it at once) ...
    i = 0
    j = next(j for j, c in enumerate(order) if c.endswith("*") and c != order[i])  # ... or later
    twin = list(order)
    twin[i], twin[j] = twin[j], twin[i]

    def scripted(cards: list[str]) -> Policy:
        def policy(seat: int, view: dict[str, Any]) -> dict[str, Any]:
            hand = list(view["hands"][seat]["cards"])
            left = list(cards)
            for c in sorted(set(DEFAULT_RULES.dealt(n))):  # what is played is gone
                for _ in range(list(DEFAULT_RULES.dealt(n)).count(c) - hand.count(c)):
                    left.remove(c)
            queue = next(q for q, cards_ in enumerate(view["queues"])
                         if len(cards_) < view["queue_capacity"])
            return {"seat": seat, "play": [left[0], queue]}
        return policy

    runs = [asyncio.run(play_twin(n, p, p, bots, {o: scripted(cards)}, seed=10 + n))
            for cards in (order, twin)]
    check_twins([f for f, _ in runs], [r for _, r in runs], p)


@pytest.mark.parametrize("case", range(6))
def test_the_teachers_public_view_is_the_same_for_twins(case: int) -> None:
    """The teacher's frames hold :func:`public_view`: the same for twin positions (the
    differential's), whichever seat they were made for."""
    rng = random.Random(case)
    while True:
        seats = 2 + case % 4
        g = random_game(seats, seed=rng.randrange(10**6), turns=rng.randrange(3, 9 * seats))
        swap = swapped_record(g, g.to_move or 0, rng)
        if swap is not None and not g.finished:
            break
    twin = Game.from_record(swap[0])
    assert twin.view(None) != g.view(None)
    assert public_view(twin) == public_view(g)


def test_forged_and_replayed_frames_from_every_seat_change_nothing() -> None:
    """At every turn of a whole game, every seat sends a turn for each other seat, its
    own last turn again, a take-back and a peek for the seat to move (the mover: for
    the turn before): each refused, the game the same, no step kept."""

    async def main() -> None:
        async with served(seed=7, rate=1_000_000) as s:  # no flood limit in reach
            t = await table(s.url, s.token, 3)
            game = s.dealer.tables[t["table"]].game
            cs = [Client(s.url) for _ in range(3)]
            for c, name in zip(cs, ["Ana", "Ben", "Cy"], strict=True):
                await c.join(t["code"], name)
            for c in cs[:2]:
                while c.view is None or c.view["players"][2] != "Cy":
                    await c.recv()
            rng = random.Random(1)
            last: dict[int, tuple[dict[str, Any], int]] = {}
            while not game.finished:
                mover = game.to_move
                assert mover is not None
                before = game.copy()
                for q, c in enumerate(cs):
                    k = game.turns_applied
                    forged = [({"seat": r, "play": ["1", 0]}, k) for r in range(3) if r != q]
                    for turn, at in forged + ([last[q]] if q in last else []):
                        await c.play(turn, at)
                        fault = (await c.expect("error"))["fault"]
                        assert fault == ("stale" if at != k else "wrong-seat")
                    await c.send("undo")
                    assert (await c.expect("error"))["fault"] == "no-undo"
                    # a peek for the seat to move (or, from it, for the turn before)
                    peeks = [x.peek for x in game.legal_turns if x.peek] or [(0, 0)]
                    await c.send("step", steps=[{"kind": "peek", "queue": peeks[0][0],
                                                 "position": peeks[0][1]}],
                                 at=k if q != mover else k - 1)
                    fault = (await c.expect("error"))["fault"]
                    assert fault == ("not-your-turn" if q != mover else "stale")
                    assert game == before and s.dealer.tables[t["table"]].steps == []
                turn = choose(game.view(mover), rng).to_json()
                last[mover] = (dict(turn), game.turns_applied)
                await cs[mover].play(dict(turn), game.turns_applied)
                for c in cs:
                    await c.expect("state")
            assert Game.from_record(game.to_record()) == game

    asyncio.run(main())
