"""A turn in progress at the dealer's (``step`` frames): a peek or a wake is done by the
dealer on a copy of the game and shown to the mover only; the turn must keep it; a
resumed seat gets it back; an idle seat's stand-in plays on from it. The stand-in a
student's kernel rebuilds with the step's view shows the dealer's cards."""

from __future__ import annotations

import asyncio
import random

from helpers import random_game

from tenleave_widget import Game
from tenleave_widget.analysis.infer import with_history
from tenleave_widget.engine.turn import Turn
from tenleave_widget.programs.dealer.client import Client
from tenleave_widget.programs.dealer.stand_in import stand_in

from .harness import served, table


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
