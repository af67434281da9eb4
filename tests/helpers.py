"""Shared test helpers: random games, a card-conservation check, and a bounded wait on the
loop."""

from __future__ import annotations

import asyncio
import random
from collections import Counter
from collections.abc import Callable

from tenleave_widget import Game, Turn


def random_game(seats: int, seed: int, turns: int | None = None) -> Game:
    """A random game of ``seats`` seats after ``turns`` random turns (all by default)."""
    rng = random.Random(seed)
    g = Game(seats, seed=seed, first=rng.randrange(seats))
    limit = turns if turns is not None else 10**9
    while not g.finished and g.turns_applied < limit:
        lt = g.legal_turns
        g.apply(lt[rng.randrange(len(lt))])
    return g


def all_cards(g: Game) -> Counter[tuple[int, str]]:
    """Every card of the game as (owner, notation), wherever it is (omniscient)."""
    v = g.view(None)
    c: Counter[tuple[int, str]] = Counter()
    for s, h in enumerate(v["hands"]):
        c.update((s, x) for x in h["cards"])
    for q in v["queues"]:
        c.update((x["owner"], f"{x['value']}{'*' if x['back'] == 'marked' else ''}") for x in q)
    for s, pile in enumerate(v["swatted"]):
        c.update((s, x) for x in pile)
    c.update((x["owner"], x["card"]) for x in v["safe"])
    return c


def dealt_cards(g: Game) -> Counter[tuple[int, str]]:
    return Counter((s, x) for s in range(g.seats) for x in g.rules.dealt(g.seats))


def t(seat: int, card: str, queue: int, **kw: object) -> Turn:
    return Turn.from_json({"seat": seat, "play": [card, queue], **kw})


WAIT_S = 120.0
"""How long a test waits for a state before it fails: the work waited for takes well under
a second on a quiet machine, but a shared one may be many times slower."""


async def until(condition: Callable[[], bool], seconds: float = WAIT_S) -> None:
    """Yield to the running loop until ``condition()`` holds, or ``seconds`` have passed
    (the test's own assertion then says what did not happen)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    while not condition() and loop.time() < deadline:
        await asyncio.sleep(0.005)
