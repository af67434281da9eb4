"""A student's table at the dealer's (``join``): two students and a bot play a whole game
through a real server on 127.0.0.1, each from a table of its own; every view a student's
table shows is the table a local game shows for that seat (same synced view), the stand-in
in the kernel never holds a real face-down value the seat does not know, peeks and wakes
show the dealer's cards, a dropped line resumes, there is no undo, and bad arguments and
refusals are typed errors that name what was wrong. Twin games that differ only in what
the student cannot see, the student peeking, rotating and waking, give the student's
kernel the same frames and its widget the same synced state until the engine's view of
the student first differs; a peek survives a restarted dealer."""

from __future__ import annotations

import asyncio
import json
import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from programs.dealer.harness import call_in, served_in_thread, table

from tenleave_widget import Game
from tenleave_widget.engine.turn import Turn
from tenleave_widget.programs.dealer.client import Client
from tenleave_widget.programs.dealer.wire import WireError
from tenleave_widget.table.protocol import WidgetMessageError
from tenleave_widget.widget import TenLeaveWidget
from tenleave_widget.widget.remote import RemoteTable, join

from .test_widget_secrets import normalized


def until(cond: Callable[[], bool], timeout: float = 30.0, what: str = "") -> None:
    """Wait (bounded) until ``cond()`` holds."""
    end = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > end:
            raise AssertionError(f"timed out waiting for {what or cond}")
        time.sleep(0.005)


def steps_of(t: Turn) -> list[dict[str, Any]]:
    """A turn as the table's step intents, in the order it is played."""
    play = {"kind": "play", "card": t.card, "queue": t.queue}
    extra: dict[str, Any] | None = None
    if t.wake:
        extra = {"kind": "wake"}
    elif t.peek is not None:
        extra = {"kind": "peek", "queue": t.peek[0], "position": t.peek[1]}
    elif t.rotate is not None:
        extra = {"kind": "rotate", "queue": t.rotate}
    if extra is None:
        return [play]
    return [extra, play] if t.extra == "before" or t.wake else [play, extra]


def my_turn(w: RemoteTable) -> bool:
    s = w.remote_session
    with w._lock:
        return (not s.waiting and not s.live.finished and s.live.to_move == w.seat
                and not s.pending)


def play_one(w: RemoteTable, rng: random.Random) -> None:
    """Play one legal turn of ``w``'s seat by the table's intents (a revealing step waits
    for the dealer's answer; after a wake the play is chosen again, on the real swat)."""
    with w._lock:
        legal = list(w.session.live.legal_turns)
    turn = legal[rng.randrange(len(legal))]
    for step in steps_of(turn):
        if step["kind"] == "play" and any(s["kind"] == "wake" for s in w.session.pending):
            with w._lock:
                hand = sorted(set(w.session.shown().view(w.seat)["hands"][w.seat]["cards"]))
            assert any(w.send_intent({"kind": "play", "card": c, "queue": q})
                       for c in hand for q in range(w.session.live.queue_count)), "no play"
            continue
        assert w.send_intent(step), w.table.message
        if step["kind"] in ("peek", "wake"):
            until(lambda: not w.remote_session.waiting, 10, "the dealer's step")
            assert w.session.pending[-1]["kind"] == step["kind"], w.table.message
    assert w.send_intent({"kind": "end"}), w.table.message


def local_view(game: Game, seat: int) -> Any:
    """The synced view of a local table of ``game`` for ``seat``."""
    t = TenLeaveWidget(game.copy(), mode="play", humans=list(range(game.seats)), bots={},
                       bot_delay=0, show_odds=False)
    t.session.seat = seat
    t._refresh()
    return normalized(t.table.view)


def create(s: Any, players: int, **options: Any) -> dict[str, Any]:
    return asyncio.run(table(s.url, s.token, players, **options))


def check_secret(w: RemoteTable, real: Game) -> None:
    """The student's kernel: its stand-in's view is the real game's view of its seat, and
    no face-down value the seat cannot see is the real one on purpose — the table shows
    what a local table of the real game shows."""
    with w._lock:  # not while a frame is being taken in
        stand = w.session.live
        shown = normalized(w.table.view)
    assert stand.view(w.seat) == real.view(w.seat)
    assert shown == local_view(real, w.seat)


def test_two_students_and_a_bot_play_a_whole_game() -> None:
    with served_in_thread(seed=3, bot_delay=0) as s:
        t = create(s, 3, bots={"2": "greedy"})
        ana = join(s.url, t["code"], "Ana", show_odds=False)
        ben = join(s.url, t["code"], "Ben", show_odds=False)
        try:
            assert (ana.seat, ben.seat) == (0, 1)
            assert ana.token and ben.token and ana.token != ben.token
            until(lambda: ana.session.live.players[1] == "Ben", 10, "Ben's name")
            rngs = {0: random.Random(1), 1: random.Random(2)}
            games = call_in(s, lambda: s.dealer.tables[t["table"]].game)
            checked = 0
            dropped = False
            end = time.monotonic() + 90
            while not games.finished:
                assert time.monotonic() < end, "the game did not end in time"
                for w in (ana, ben):
                    if my_turn(w):
                        real = call_in(s, lambda: games.copy())
                        if real.turns_applied == w.session.live.turns_applied and my_turn(w):
                            check_secret(w, real)
                            checked += 1
                        if not dropped and real.turns_applied > 6:
                            dropped = True
                            before = w.link.connects
                            w.drop()
                            until(lambda w=w, b=before: w.link.connects > b, 10, "a resume")
                            until(lambda w=w: my_turn(w), 10, "the full state again")
                        play_one(w, rngs[w.seat])
                time.sleep(0.002)
            record = call_in(s, lambda: games.to_record())
            for w in (ana, ben):
                until(lambda w=w: w.session.live.finished, 10, "the end on the table")
                check_secret(w, Game.from_record(record))
            assert checked >= 6 and dropped
            assert Game.from_record(record).finished
            assert {record["turns"][k]["seat"] for k in range(len(record["turns"]))} == {0, 1, 2}
        finally:
            ana.close()
            ben.close()


def test_peeks_and_wakes_show_the_dealers_cards() -> None:
    """The stand-in in the kernel is made up where the seat cannot see; a peek or a wake
    asks the dealer and shows the real card (the same as a local table would)."""
    with served_in_thread(seed=5, bot_delay=0) as s:
        t = create(s, 2, bots={"1": "random"})
        w = join(s.url, t["code"], "Ana", show_odds=False)
        try:
            game = call_in(s, lambda: s.dealer.tables[t["table"]].game)
            rng = random.Random(4)
            peeks = wakes = 0
            end = time.monotonic() + 60
            while not game.finished and time.monotonic() < end:
                if not my_turn(w):
                    time.sleep(0.002)
                    continue
                real = call_in(s, lambda: game.copy())
                legal = list(real.legal_turns)
                reveal = [x for x in legal if x.wake] or [x for x in legal if x.peek]
                turn = reveal[rng.randrange(len(reveal))] if reveal and rng.random() < 0.8 \
                    else legal[rng.randrange(len(legal))]
                first = steps_of(turn)[0]
                if first["kind"] in ("peek", "wake"):
                    assert w.send_intent(first)
                    until(lambda: not w.remote_session.waiting, 10, "the dealer's step")
                    shown = w.session.shown().view(w.seat)
                    assert shown == real.preview([first]).view(w.seat)
                    peeks += first["kind"] == "peek"
                    wakes += first["kind"] == "wake"
                    assert not w.send_intent({"kind": "reset"})  # a peek/wake stays
                    hand = sorted(set(shown["hands"][w.seat]["cards"]))
                    assert any(w.send_intent({"kind": "play", "card": c, "queue": q})
                               for c in hand for q in range(real.queue_count))
                    assert w.send_intent({"kind": "end"}), w.table.message
                else:
                    play_one(w, rng)
            assert game.finished and peeks >= 3 and wakes >= 1, (peeks, wakes)
            assert not w.send_intent({"kind": "undo"})
            with pytest.raises(WidgetMessageError, match="no take-backs"):
                w.handle_intent({"kind": "undo"})
        finally:
            w.close()


def test_join_refuses_bad_arguments_and_the_dealers_no() -> None:
    with served_in_thread(seed=6) as s:
        t = create(s, 2)
        for bad, words in [
            (dict(url="http://127.0.0.1:1", code="X", name="A"), "url"),
            (dict(url=s.url, code=5, name="A"), "code"),
            (dict(url=s.url, code=t["code"], name=""), "name"),
            (dict(url=s.url, code=t["code"], name="A", seat="0"), "seat"),
            (dict(url=s.url, code=t["code"], name="A", timeout=0), "timeout"),
            (dict(url=s.url, code=t["code"], name="A", token="x"), "token"),
        ]:
            with pytest.raises(WidgetMessageError, match=words):
                join(**bad)
        with pytest.raises(WireError) as e:
            join(s.url, "NOPE22", "Ana")
        assert e.value.fault == "bad-code"
        with pytest.raises(WireError) as e:
            join(s.url, token="not-a-token")
        assert e.value.fault == "bad-token"
        a = join(s.url, t["code"], "Ana")
        b = join(s.url, t["code"], "Ben")
        try:
            with pytest.raises(WireError) as e:
                join(s.url, t["code"], "Cy")
            assert e.value.fault == "table-full"
            for call in (lambda: a.goto(0), a.record, lambda: a.load({})):
                with pytest.raises(WidgetMessageError):
                    call()
            again = join(s.url, token=a.token)  # the same seat, from another kernel
            assert again.seat == a.seat

            def same_view() -> bool:  # a's kernel may still be taking in the game's start
                with a._lock, again._lock:
                    return bool(again.session.live.view(0) == a.session.live.view(0))

            until(same_view, what="the seat's view in both kernels")
            again.close()
        finally:
            a.close()
            b.close()


SYNCED = ["view", "offers", "narration", "status"]
"""The table's synced traits the twin test compares (the student's screen)."""


@dataclass
class TwinRun:
    """What P (the student) was given in one twin game: its table's synced state after
    each of its intents and at each turn it saw (by (turn, intent), with the engine
    position it belongs to: (turn, 1 once a peek or wake of that turn is shown)), every
    frame the dealer sent its kernel, in order, and the game's record."""

    states: dict[tuple[int, int], tuple[tuple[int, int], str]]
    frames: list[str]
    record: dict[str, Any]


def p_position(frame: str) -> tuple[int, int]:
    """The engine position a frame to P belongs to: (turns applied, 1 if it shows the
    turn in progress's peek or wake); ``(-1, 0)`` for the frames before any state."""
    msg = json.loads(frame)
    if msg["kind"] != "state":
        return (-1, 0)
    return (msg["view"]["turns_applied"], 1 if "steps" in msg else 0)


def twin_run(cards: list[str], secret: tuple[int, int], frames: list[str], seed: int,
             p_seed: int) -> TwinRun:
    """P (seat 1, a student's table) against O (seat 0, a scripted client that plays its
    cards in ``cards``' order, joined before P): P plays with peeks, rotations and wakes
    chosen from its table alone, never peeking at the cards of O's plays number
    ``secret`` (the twins' swapped ones, known from the public history: a peek at one
    would only end the comparison there). ``frames`` collects what P's kernel
    receives. ``seed``: the dealer's (its game's tokens); ``p_seed``: P's choices'."""
    states: dict[tuple[int, int], tuple[tuple[int, int], str]] = {}
    with served_in_thread(seed=seed, bot_delay=0) as s:
        t = create(s, 2, first=0)
        stop = threading.Event()
        seated = threading.Event()

        async def opponent() -> None:
            c = Client(s.url)
            await c.join(t["code"], "Opp", 0)
            seated.set()
            left = list(cards)
            last = -1
            while not stop.is_set():
                v = c.view
                assert v is not None
                if v["finished"]:
                    break
                # not before P's kernel has its first state: else the dealer may send P
                # one state with O's first play in it instead of two, as it pleases
                p_ready = any('"kind":"state"' in f for f in frames)
                if p_ready and v["to_move"] == 0 and v["turns_applied"] > last:
                    last = v["turns_applied"]
                    hand = list(v["hands"][0]["cards"])
                    card = next(x for x in left if x in hand)
                    left.remove(card)
                    q = next(q for q, qs in enumerate(v["queues"])
                             if len(qs) < v["queue_capacity"])
                    await c.play({"seat": 0, "play": [card, q]})
                try:
                    await c.recv(0.5)
                except TimeoutError:
                    pass
            await c.close()

        failed: list[BaseException] = []

        def run_opponent() -> None:
            try:
                asyncio.run(opponent())
            except BaseException as e:  # noqa: BLE001 - handed to the test
                failed.append(e)
                seated.set()

        o = threading.Thread(target=run_opponent, daemon=True)
        o.start()
        assert seated.wait(10), "the opponent did not sit"
        w = join(s.url, t["code"], "Pat", seat=1, show_odds=False)
        rng = random.Random(p_seed)

        def keep(k: int, i: int) -> None:
            """P's table now: after intent ``i`` of turn ``k`` (0: as the turn begins)."""
            with w._lock:
                shown = 1 if any(x["kind"] in ("peek", "wake")
                                 for x in w.session.pending) else 0
                states.setdefault((k, i), ((k, shown), json.dumps(
                    normalized(w.table.get_state(SYNCED)), sort_keys=True)))

        def send(step: dict[str, Any]) -> None:
            assert w.send_intent(step), w.table.message
            if step["kind"] in ("peek", "wake"):
                until(lambda: not w.remote_session.waiting, 10, "the dealer's step")

        def p_turn() -> None:
            with w._lock:
                live = w.session.live
                k = live.turns_applied
                legal = list(live.legal_turns)
                view = w.remote.view
                assert view is not None
                played = [e["key"] for turn in view["history"]["turns"] for e in turn
                          if e["kind"] == "play" and e["seat"] == 0]
                hidden = [played[n] for n in secret if n < len(played)]
                keys = {(q, p): c["key"] for q, queue in enumerate(live.view(1)["queues"])
                        for p, c in enumerate(queue)}
            keep(k, 0)
            safe = [x for x in legal if x.peek is None or keys.get(x.peek) not in hidden]
            acts = [x for x in safe if x.action != "none"]
            wakes = [x for x in acts if x.wake]
            turn = (rng.choice(wakes) if wakes and rng.random() < 0.5 else
                    rng.choice(acts) if acts and rng.random() < 0.75 else rng.choice(safe))
            for i, step in enumerate(steps_of(turn), 1):
                if step["kind"] == "play" and turn.wake:  # the play chosen after the swat
                    with w._lock:
                        shown = w.session.shown().view(1)
                    hand = sorted(set(shown["hands"][1]["cards"]))
                    step = next({"kind": "play", "card": c, "queue": q} for c in hand
                                for q in range(live.queue_count)
                                if len(shown["queues"][q]) < shown["queue_capacity"])
                send(step)
                keep(k, i)
            assert w.send_intent({"kind": "end"}), w.table.message

        try:
            until(lambda: w.session.live.players[0] == "Opp", 10, "the opponent")
            end = time.monotonic() + 90
            while time.monotonic() < end and not failed:
                with w._lock:
                    live = w.session.live
                    k = live.turns_applied
                    if not w.remote_session.waiting:
                        keep(k, 0)
                    if live.finished:
                        break
                if my_turn(w):
                    p_turn()
                time.sleep(0.002)
            record = call_in(s, lambda: dict(s.dealer.tables[t["table"]].game.to_record()))
        finally:
            stop.set()
            w.close()
            o.join(10)
    if failed:
        raise failed[0]
    return TwinRun(states, list(frames), record)


def engine_positions(record: dict[str, Any], seat: int) -> list[tuple[tuple[int, int], Any]]:
    """The engine's view of ``seat`` at every position of a record's game: after each
    count of turns, and in each of ``seat``'s turns once its peek or wake is done."""
    out: list[tuple[tuple[int, int], Any]] = []
    for k in range(len(record["turns"]) + 1):
        g = Game.from_record(record, k)
        out.append(((k, 0), g.view(seat)))
        if k < len(record["turns"]) and g.to_move == seat:
            steps = steps_of(Turn.from_json(record["turns"][k]))
            shown = [i for i, x in enumerate(steps) if x["kind"] in ("peek", "wake")]
            if shown:
                out.append(((k, 1), g.preview(steps[:shown[0] + 1]).view(seat)))
    return out


def twin_split(a: dict[str, Any], b: dict[str, Any], seat: int) -> tuple[int, int]:
    """The first position at which the engine's views of ``seat`` of the two games
    differ (the seat's own turns being the same until there)."""
    for (pa, va), (pb, vb) in zip(engine_positions(a, seat), engine_positions(b, seat),
                                  strict=False):
        assert pa == pb, "P's turns differ before its views do"
        if va != vb:
            return pa
    raise AssertionError("the twins never differ for P")


@pytest.mark.parametrize(("swap", "seed", "p_seed", "wants", "earliest"), [
    ("first", 11, 9, {"peek", "rotate"}, 4),
    ("last", 12, 3, {"peek", "rotate", "wake"}, 16)])
def test_twin_games_give_the_students_table_the_same_state(
        monkeypatch: pytest.MonkeyPatch, swap: str, seed: int, p_seed: int, wants: set[str],
        earliest: int) -> None:
    """O's two marked cards of different values change places in the twin (its first and
    third plays, or its last two); P, a student's table, peeks, rotates and wakes: until
    the engine's view of P of the two games first differs (a swat or a peek shows a
    swapped card, or the end), P's kernel receives the same frames, byte for byte, and
    its table syncs the same state after each of its intents and at each turn."""
    from tenleave_widget.engine.rules import DEFAULT_RULES
    from tenleave_widget.programs.dealer.remote import RemoteSeat

    received: list[str] = []
    take = RemoteSeat.receive

    def receive(self: RemoteSeat, text: str) -> str:
        received.append(text)
        return take(self, text)

    monkeypatch.setattr(RemoteSeat, "receive", receive)
    if swap == "first":  # marked first: O's plays 0 and 2 are a 3* and a 4*
        order = sorted(DEFAULT_RULES.dealt(2), key=lambda c: (not c.endswith("*"), c))
        secret = (0, 2)
    else:  # marked last: O's last two plays
        order = sorted(DEFAULT_RULES.dealt(2), key=lambda c: (c.endswith("*"), c))
        secret = (len(order) - 2, len(order) - 1)
    i, j = secret
    assert order[i] != order[j] and order[i].endswith("*") and order[j].endswith("*")
    twin = list(order)
    twin[i], twin[j] = twin[j], twin[i]
    a = twin_run(order, secret, received, seed, p_seed)
    received.clear()
    b = twin_run(twin, secret, received, seed, p_seed)
    split = twin_split(a.record, b.record, 1)
    assert split >= (earliest, 0), split
    # P's own turns before the split: its peeks, rotations and wakes went to the dealer
    before = [Turn.from_json(x) for k, x in enumerate(a.record["turns"]) if (k, 0) < split]
    actions = {x.action for x in before if x.seat == 1}
    assert wants <= actions, actions
    # the frames to P's kernel, byte for byte, up to the first that shows the difference
    fa = [f for f in a.frames if p_position(f) < split]
    fb = [f for f in b.frames if p_position(f) < split]
    assert fa == fb
    assert len(fa) >= split[0] + sum(x.action in ("peek", "wake") for x in before)
    # the student's table after each intent and at each turn, before the split
    both = sorted(k for k in set(a.states) & set(b.states) if a.states[k][0] < split)
    starts = {(k, 0) for k, x in enumerate(before) if x.seat == 1}
    assert starts <= set(both) and len(both) >= 2 * len(starts), (both, split)
    assert [a.states[k] for k in both] == [b.states[k] for k in both]
    # and the difference does show where the engine says (the test can tell them apart)
    assert [f for f in a.frames if p_position(f) <= split] != \
        [f for f in b.frames if p_position(f) <= split]


def test_join_async_seats_the_same_way() -> None:
    """The awaitable join (JupyterLite's way, here on CPython's link): seated, refused
    with the dealer's fault, bad arguments named."""
    from tenleave_widget.widget.remote import join_async

    with served_in_thread(seed=12) as s:
        t = create(s, 2)

        async def main() -> None:
            w = await join_async(s.url, t["code"], "Ana", show_odds=False)
            try:
                assert w.seat == 0 and w.session.live.players[0] == "Ana"
                real = call_in(s, lambda: s.dealer.tables[t["table"]].game.copy())
                assert w.session.live.view(0) == real.view(0)
            finally:
                w.close()
            with pytest.raises(WireError) as e:
                await join_async(s.url, "NOPE22", "Ben")
            assert e.value.fault == "bad-code"
            with pytest.raises(WidgetMessageError, match="name"):
                await join_async(s.url, t["code"], "")

        asyncio.run(main())


def plain_turn(w: RemoteTable, rng: random.Random) -> None:
    """Play a plain play (no peek, rotation or wake) of ``w``'s seat by its intents."""
    with w._lock:
        legal = [x for x in w.session.live.legal_turns if x.action == "none"]
    turn = legal[rng.randrange(len(legal))]
    assert w.send_intent({"kind": "play", "card": turn.card, "queue": turn.queue})
    assert w.send_intent({"kind": "end"}), w.table.message


def peek_when_able(w: RemoteTable, rng: random.Random,
                   ) -> tuple[int, dict[str, Any], Any, Any]:
    """Plain plays of ``w``'s seat until it may peek at a card first, then that peek
    (answered by the dealer): the turn it is in, the peek step, and the seat's view
    with it done and the table's synced view, as shown."""
    from programs.dealer.test_dealer_steps import peekable

    end = time.monotonic() + 60
    while True:
        assert time.monotonic() < end, "no card to peek at in time"
        if not my_turn(w):
            time.sleep(0.002)
            continue
        with w._lock:
            spot = peekable(w.session.live)
        if spot is not None:
            break
        plain_turn(w, rng)
    k = w.session.live.turns_applied
    peek = {"kind": "peek", "queue": spot[0], "position": spot[1]}
    assert w.send_intent(peek)
    until(lambda: not w.remote_session.waiting, 10, "the dealer's peek")
    with w._lock:
        shown = w.session.shown().view(w.seat)
        seen = normalized(w.table.view)
    assert shown["queues"][spot[0]][spot[1]]["value"] is not None
    return k, peek, shown, seen


def end_turn_keeping(w: RemoteTable, shown: Any, seen: Any) -> None:
    """``w``'s table shows the kept peek as it was shown (``shown``: the seat's view,
    ``seen``: the synced view); the peek cannot be reset; a card is played and the turn
    ended (keeping the peek)."""
    with w._lock:
        assert w.session.shown().view(w.seat) == shown
        assert normalized(w.table.view) == seen
    assert not w.send_intent({"kind": "reset"})  # a peek is not taken back
    hand = sorted(set(shown["hands"][w.seat]["cards"]))
    assert any(w.send_intent({"kind": "play", "card": c, "queue": q})
               for c in hand for q in range(w.session.live.queue_count))
    assert w.send_intent({"kind": "end"}), w.table.message


def test_a_peek_comes_back_to_a_table_joined_again_after_a_restart(tmp_path: Any) -> None:
    """A student peeks at a card; the dealer stops and starts again on its store; the
    student's seat joined again with its token shows the same peek (the card on the
    table, the peek kept: no reset), and the turn played from there keeps it."""
    store = tmp_path / "class.db"
    with served_in_thread(store, seed=13, bot_delay=0) as s:
        t = create(s, 2, bots={"1": "random"})
        w = join(s.url, t["code"], "Ana", show_odds=False)
        try:
            k, peek, shown, seen = peek_when_able(w, random.Random(6))
            token = w.token
        finally:
            w.close()
    with served_in_thread(store, seed=14, bot_delay=0) as s:
        again = join(s.url, token=token, show_odds=False)
        try:
            until(lambda: bool(again.session.pending), 10, "the kept peek")
            assert again.session.pending == [peek]
            end_turn_keeping(again, shown, seen)
            game = call_in(s, lambda: s.dealer.tables[t["table"]].game)
            until(lambda: game.turns_applied > k, 10, "the turn at the dealer's")
            assert game.turns[k].peek == (peek["queue"], peek["position"])
        finally:
            again.close()


def test_a_students_table_keeps_its_peek_through_a_killed_dealer(tmp_path: Any) -> None:
    """A student's table has a peek shown; ``tenleave serve`` is killed with SIGKILL and
    started again on its store and port: the table's link resumes the seat by itself, the
    table still shows the peeked card with the peek kept, the turn played from there keeps
    it, and the finished game's record shows it."""
    from programs.dealer.harness import ServeProcess

    from tenleave_widget.engine.record import load_record

    store = tmp_path / "class.db"
    server = ServeProcess(store)
    w = None
    try:
        t = asyncio.run(table(server.url, server.token, 2, bots={"1": "random"}))
        w = join(server.url, t["code"], "Ana", show_odds=False)
        rng = random.Random(7)
        k, peek, shown, seen = peek_when_able(w, rng)
        connects = w.link.connects
        server.kill()
        server = ServeProcess(store, server.port)
        until(lambda: w.link.connects > connects, 30, "the link resuming the seat")

        def peek_again() -> bool:
            """The dealer's frames about the kept peek are taken in by the table."""
            assert w is not None
            with w._lock:
                version, _, steps, reveal = w.remote.snapshot()
                return (w._version == version and reveal is not None and steps == [peek]
                        and w.session.pending == [peek] and not w.remote_session.waiting)

        until(peek_again, 10, "the dealer's peek again")
        end_turn_keeping(w, shown, seen)
        end = time.monotonic() + 60
        while not w.session.live.finished:  # the rest of the game, plain plays
            assert time.monotonic() < end, "the game did not end in time"
            if my_turn(w):
                plain_turn(w, rng)
            time.sleep(0.002)
        assert server.stop() == 143
    finally:
        if w is not None:
            w.close()
        server.kill()
    record = load_record(next((tmp_path / "class-records").iterdir()))
    assert Game.from_record(record).finished
    assert record["turns"][k]["peek"] == [peek["queue"], peek["position"]]


def test_a_dealer_that_cannot_be_reached_is_said_at_once_with_why() -> None:
    """Nothing listening on the port, or a server that is not a dealer (a web page's):
    ``join`` and ``classroom`` say so as soon as the first try fails, in words a student
    can act on, long before their timeout, and the link's thread ends without a
    traceback."""
    import http.server
    import socket

    from tenleave_widget.widget.classroom import classroom

    class Page(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # a web page, not a WebSocket
            self.send_response(200)
            self.end_headers()
            self.wfile.write(b"<p>not a dealer</p>")

        def log_message(self, *args: Any) -> None:
            pass

    page = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Page)
    threading.Thread(target=page.serve_forever, daemon=True).start()
    with socket.socket() as free:  # a port nothing listens on
        free.bind(("127.0.0.1", 0))
        closed = free.getsockname()[1]
    crashed: list[threading.ExceptHookArgs] = []
    hook, threading.excepthook = threading.excepthook, crashed.append
    try:
        for port, why in [(closed, "nothing listens at that address and port: is tenleave "
                                   "serve running there?"),
                          (page.server_address[1], "something answers there, but not a "
                                                   "dealer: use the address tenleave serve "
                                                   "printed, not a web page's")]:
            url = f"ws://127.0.0.1:{port}"
            for teacher in (False, True):
                t0 = time.monotonic()
                with pytest.raises(WidgetMessageError) as e:
                    if teacher:
                        classroom(url, "token", timeout=30)
                    else:
                        join(url, "ABCD22", "Ana", timeout=30)
                assert str(e.value) == f"cannot reach the dealer at {url}: {why}"
                assert time.monotonic() - t0 < 10  # not the 30 s of the timeout
    finally:
        threading.excepthook = hook
        page.shutdown()
        page.server_close()
    assert crashed == []
