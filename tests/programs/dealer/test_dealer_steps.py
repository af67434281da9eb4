"""A turn in progress at the dealer's (``step`` frames): a peek or a wake is done by the
dealer on a copy of the game and shown to the mover only; the turn must keep it; a
resumed seat gets it back; an idle seat's stand-in plays on from it. The stand-in a
student's kernel rebuilds with the step's view shows the dealer's cards."""

from __future__ import annotations

import asyncio
import json
import random
import signal
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from helpers import random_game

from tenleave_widget import Game
from tenleave_widget.analysis.infer import with_history
from tenleave_widget.engine.record import load_record
from tenleave_widget.engine.turn import Turn
from tenleave_widget.programs.dealer.client import Client
from tenleave_widget.programs.dealer.remote import RemoteSeat
from tenleave_widget.programs.dealer.stand_in import stand_in
from tenleave_widget.programs.dealer.store import Store

from .harness import choose, play_all, served, start_serve, table


def peekable(g: Game) -> tuple[int, int] | None:
    """A face-down card the seat to move may peek at, if any."""
    seat = g.to_move
    assert seat is not None
    for t in g.legal_turns:
        if t.peek is not None and t.extra == "before":
            return t.peek
    return None


def test_a_peek_is_the_dealers_and_stays() -> None:
    async def main() -> None:
        async with served(seed=21, rate=1_000_000) as s:
            t = await table(s.url, s.token, 2)
            game = s.dealer.tables[t["table"]].game
            a, b = Client(s.url), Client(s.url)
            await a.join(t["code"], "Ana")
            await b.join(t["code"], "Ben")
            await a.expect("state")  # Ben's name
            cs = {0: a, 1: b}
            rng = random.Random(2)
            while peekable(game) is None:  # plain plays until a card can be peeked at
                mover = game.to_move
                assert mover is not None
                legal = [x for x in game.legal_turns if x.action == "none"]
                await cs[mover].play(legal[rng.randrange(len(legal))])
                for c in cs.values():
                    await c.expect("state")
            mover = game.to_move
            assert mover is not None
            other = cs[1 - mover]
            me = cs[mover]
            k = game.turns_applied
            q, pos = peekable(game) or (0, 0)
            peek = {"kind": "peek", "queue": q, "position": pos}
            before = game.copy()
            await me.send("step", steps=[peek], at=k)
            msg = await me.expect("state")
            assert msg["steps"] == [peek]
            assert msg["view"] == game.preview([peek]).view(mover)
            assert msg["view"]["queues"][q][pos]["value"] is not None
            assert game == before  # nothing applied
            # the other seat is told nothing, and may not step for the mover
            await other.send("step", steps=[peek], at=k)
            assert (await other.expect("error"))["fault"] == "not-your-turn"
            # bad steps: each one error, the kept peek unchanged
            for steps, fault in [([], "bad-field"), ("x", "bad-field"), ([1], "bad-field"),
                                 ([{"kind": "fly"}], "steps-kept"),
                                 ([peek, {"kind": "fly"}], "illegal-turn"),
                                 ([{"kind": "wake"}], "steps-kept"),
                                 ([peek, peek], "illegal-turn")]:
                await me.send("step", steps=steps, at=k)
                assert (await me.expect("error"))["fault"] == fault, steps
            await me.send("step", steps=[peek], at=k - 1)
            assert (await me.expect("error"))["fault"] == "stale"
            hand = sorted(set(game.hand(mover)))
            rooms = [r for r in range(game.queue_count)
                     if len(game.view(mover)["queues"][r]) < game.view(mover)["queue_capacity"]]
            plain = Turn(mover, hand[0], rooms[0])
            await me.play(plain)  # drops the peek: refused
            assert (await me.expect("error"))["fault"] == "steps-kept"
            # away and back: the peek comes back with the full state
            await me.close()
            await me.resume()
            msg = await me.expect("state")
            assert msg["steps"] == [peek] and msg["view"] == game.preview([peek]).view(mover)
            # the stand-in rebuilt with the step's view shows the dealer's card
            full = with_history(game, mover)
            shown = stand_in(full, msg["view"]).preview([peek]).view(mover)
            assert shown == game.preview([peek]).view(mover)
            turn = Turn(mover, hand[0], rooms[0], peek=(q, pos))
            await me.play(turn)
            assert (await me.expect("state"))["view"]["turns_applied"] == k + 1
            assert game.turns[-1].peek == (q, pos)
            assert s.dealer.tables[t["table"]].steps == []

    asyncio.run(main())


def test_an_idle_seats_stand_in_keeps_its_peek() -> None:
    async def main() -> None:
        async with served(seed=22) as s:
            t = await table(s.url, s.token, 2, bots={"1": "random"}, idle=0.2,
                            idle_bot="random")
            game = s.dealer.tables[t["table"]].game
            a = Client(s.url)
            await a.join(t["code"], "Ana")
            while peekable(game) is None or game.to_move != 0:
                await a.recv(20)
            k = game.turns_applied
            q, pos = peekable(game) or (0, 0)
            await a.send("step", steps=[{"kind": "peek", "queue": q, "position": pos}], at=k)
            await a.expect("state")
            while game.turns_applied == k:
                await a.recv(20)
            assert game.turns[k].seat == 0 and game.turns[k].peek == (q, pos)

    asyncio.run(main())


def test_the_stand_in_takes_a_wakes_swat_and_token() -> None:
    """A wake in the turn in progress: the stand-in rebuilt with the dealer's view of it
    swats the same cards and shows the same next token."""
    found = 0
    for seed in range(60):
        g = random_game(2 + seed % 4, seed=seed, turns=6 + seed % 20)
        if g.finished:
            continue
        mover = g.to_move
        assert mover is not None
        if not any(t.wake for t in g.legal_turns):
            continue
        wake = [{"kind": "wake"}]
        reveal = g.preview(wake).view(mover)
        s = stand_in(with_history(g, mover), reveal)
        assert s.preview(wake).view(mover) == reveal
        found += 1
    assert found >= 5


def known(c: Client) -> Game:
    """The game as ``c``'s seat knows it: its frames so far taken in as a student's
    kernel takes them (:class:`RemoteSeat`), rebuilt into the stand-in game."""
    seat = RemoteSeat()
    for text in c.frames:
        seat.receive(text)
    return seat.game()


def test_a_peek_outlives_a_killed_server(tmp_path: Path) -> None:
    """A peek shown mid-turn, then ``tenleave serve`` killed with SIGKILL and started again
    on the same store and port: the resumed seat gets the peek back (its view shows the
    peeked card), a turn that drops it or a different peek is refused, the turn with it
    is played, and the finished record shows the peek in that turn."""
    store = tmp_path / "class.db"

    async def main() -> None:
        proc, url, token = await start_serve(store)
        try:
            t = await table(url, token, 2)
            cs = {0: Client(url), 1: Client(url)}
            await cs[0].join(t["code"], "Ana")
            await cs[1].join(t["code"], "Ben")
            await cs[0].expect("state")  # Ben's name
            rng = random.Random(5)
            while True:  # plain plays until the seat to move can peek at a card
                game = known(cs[0])
                mover = game.to_move
                assert mover is not None and not game.finished
                if peekable(known(cs[mover])) is not None:
                    break
                await cs[mover].play(choose(cs[mover].view, rng))
                for c in cs.values():
                    await c.expect("state")
            me = cs[mover]
            k = game.turns_applied
            q, pos = peekable(known(me)) or (0, 0)
            peek = {"kind": "peek", "queue": q, "position": pos}
            await me.send("step", steps=[peek], at=k)
            shown = await me.expect("state")
            value = shown["view"]["queues"][q][pos]["value"]
            assert shown["steps"] == [peek] and value is not None
            proc.send_signal(signal.SIGKILL)
            assert await asyncio.wait_for(proc.wait(), 30) == -signal.SIGKILL
            port = int(url.rsplit(":", 1)[1])
            proc, url2, _ = await start_serve(store, port)
            assert url2 == url
            again = Client(url)
            await again.resume(me.token)
            await again.send("ping")  # answered after whatever the resume sends
            msg = await again.recv()  # the turn in progress, as it was shown
            assert msg.get("steps") == [peek], f"the peek was forgotten: {msg['kind']}"
            assert msg["view"] == shown["view"]
            await again.expect("pong")
            assert msg["view"]["queues"][q][pos]["value"] == value
            assert known(again).preview([peek]).view(mover) == shown["view"]
            hand = sorted(set(shown["view"]["hands"][mover]["cards"]))
            plain = choose(again.view, rng)
            await again.play(plain)  # as if unpeeked: refused
            assert (await again.expect("error"))["fault"] == "steps-kept"
            others = [(r, p) for r in range(len(shown["view"]["queues"]))
                      for p, card in enumerate(shown["view"]["queues"][r])
                      if (r, p) != (q, pos) and card["value"] is None]
            for r, p in others[:1]:  # another peek instead: refused
                await again.send("step", steps=[{"kind": "peek", "queue": r, "position": p}],
                                 at=k)
                assert (await again.expect("error"))["fault"] == "steps-kept"
            turn = Turn(mover, hand[0], plain.queue, peek=(q, pos))
            await again.play(turn)
            assert (await again.expect("state"))["view"]["turns_applied"] == k + 1
            other = Client(url)
            await other.resume(cs[1 - mover].token)
            await play_all([again, other] if mover == 0 else [other, again], 6)
            proc.send_signal(signal.SIGTERM)
            assert await asyncio.wait_for(proc.wait(), 30) == 143
            return k, (q, pos)
        finally:
            if proc.returncode is None:
                proc.kill()
                await proc.wait()

    async def bounded() -> tuple[int, tuple[int, int]]:
        return await asyncio.wait_for(main(), 120)

    k, peeked = asyncio.run(bounded())
    record = load_record(next((tmp_path / "class-records").iterdir()))
    assert Game.from_record(record).finished
    assert record["turns"][k]["peek"] == list(peeked)


def test_a_wake_is_stored_before_it_is_shown_and_a_store_failure_keeps_nothing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A wake's steps are in the store when the seat is shown the swat; a restarted
    dealer on the store gives them back on resume; a step the store refuses is refused
    to its seat (``store``) with nothing kept; a turn's commit clears the kept steps in
    the same transaction."""
    path = tmp_path / "s.db"

    def stored_steps() -> list[Any]:
        with sqlite3.connect(path) as db:
            return [json.loads(r[0]) for r in db.execute("SELECT steps FROM steps")]

    async def first() -> tuple[str, str, list[dict[str, Any]], Any, int]:
        async with served(path, seed=23, rate=1_000_000) as s:
            t = await table(s.url, s.token, 2)
            game = s.dealer.tables[t["table"]].game
            cs = {0: Client(s.url), 1: Client(s.url)}
            await cs[0].join(t["code"], "Ana")
            await cs[1].join(t["code"], "Ben")
            await cs[0].expect("state")
            rng = random.Random(3)
            while not any(x.wake for x in game.legal_turns):
                mover = game.to_move
                assert mover is not None and not game.finished
                await cs[mover].play(choose(cs[mover].view, rng))
                for c in cs.values():
                    await c.expect("state")
            mover = game.to_move
            assert mover is not None
            me, k = cs[mover], game.turns_applied
            wake = [{"kind": "wake"}]

            def refuse(*args: Any) -> None:
                raise sqlite3.OperationalError("disk I/O error")

            with monkeypatch.context() as m:
                m.setattr(Store, "set_steps", refuse)
                before = game.copy()
                await me.send("step", steps=wake, at=k)
                assert (await me.expect("error"))["fault"] == "store"
                assert s.dealer.tables[t["table"]].steps == [] and game == before
                assert stored_steps() == []
            await me.send("step", steps=wake, at=k)
            shown = await me.expect("state")
            assert shown["steps"] == wake and stored_steps() == [wake]
            assert me.token is not None
            return t["table"], me.token, wake, shown["view"], k

    table_id, token, wake, view, k = asyncio.run(first())

    async def second() -> None:
        async with served(path, seed=24) as s:
            assert s.dealer.tables[table_id].steps == wake
            c = Client(s.url)
            await c.resume(token)
            msg = await c.expect("state")
            assert msg["steps"] == wake and msg["view"] == view
            game = s.dealer.tables[table_id].game
            mover = game.to_move
            assert mover is not None and game.turns_applied == k
            turn = next(x for x in game.legal_turns if x.wake)
            await c.play(turn)
            assert (await c.expect("state"))["view"]["turns_applied"] == k + 1
            assert stored_steps() == [] and s.dealer.tables[table_id].steps == []

    asyncio.run(second())


def test_the_store_clears_kept_steps_with_their_turn_only(tmp_path: Path) -> None:
    """``add_turn`` clears the kept steps in its own transaction: a turn refused by the
    store (a second turn at an index) leaves them; steps for a turn that is not the next
    one are refused on reading (the store was edited)."""
    path = str(tmp_path / "s.db")
    s = Store(path)
    s.add_table("t1", "ABC234", {"players": 2, "seed": 5, "first": 0})
    s.add_turn("t1", 0, {"seat": 0, "play": ["1", 0]})
    s.set_steps("t1", 1, [{"kind": "wake"}])
    with pytest.raises(sqlite3.IntegrityError):
        s.add_turn("t1", 0, {"seat": 1, "play": ["1", 0]})
    assert Store(path).tables()[0].steps == [{"kind": "wake"}]
    s.add_turn("t1", 1, {"seat": 1, "play": ["1", 0]})
    assert Store(path).tables()[0].steps == []
    s.set_steps("t1", 1, [{"kind": "wake"}])  # turn 1 is already applied
    with pytest.raises(sqlite3.IntegrityError, match="steps kept for turn 1"):
        Store(path).tables()
    s.close()
