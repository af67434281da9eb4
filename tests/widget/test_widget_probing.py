"""Probing by undo is closed (issue 21, item 1), tested the way the leak was found.

The attack: at a position, the human tries every legal play, ends the turn, notes the
bots' answers (everything the table shows), and undoes; then puts the answers together.
Before the fix the answers all came from the same hidden cards, and together they pinned
them: in the issue's game (2 seats, greedy Ben, seed 35, turn 8) Ben's marked card on
queue 2 is a 3, 4 or 5 as far as Ana's view goes, and the six answers allowed only the 3
it is. Now an undo that takes back a bot's answer deals the cards Ana cannot see again
(:mod:`tenleave_widget.table.session.redeal`), so each probe asks another world.

What is checked, for many seeded positions and their whole probe sets:

* the set of values of each hidden card, in the game that goes on after the last undo,
  consistent with everything the table showed during the attack, equals the set
  consistent with the human's view alone (computed here without the widget: a card may
  hold every value of its back that its owner could still have, each checked by
  replaying a rewritten record in the engine and comparing the seat's view);
* what the table shows after the first undo, and the game after the last, are the same
  whichever hidden cards the position really had (twin positions the human cannot tell
  apart): only the first answer came from the real cards, and those cards are gone.

"Consistent with everything shown" is computed over runs of the attack: the real
position and its twins, each followed by different draws at the last undo; a run is
consistent when every synced state along it is byte-for-byte the actual one.
"""

from __future__ import annotations

import copy
import json
import random

import pytest
from helpers import random_game

from tenleave_widget import Game
from tenleave_widget.table.protocol import Intent
from tenleave_widget.table.session.config import check_config
from tenleave_widget.table.session.machine import Session
from tenleave_widget.table.session.redeal import redeal
from tenleave_widget.widget.bot_runner import BotRunner

UNDO: Intent = {"kind": "undo"}
END: Intent = {"kind": "end"}


# ------------------------------------------------------------ what the view allows


def hidden_keys(game: Game, seat: int) -> list[tuple[int, int, str]]:
    """(key, owner, back) of every face-down card on the table that ``seat`` cannot see."""
    return [(c["key"], c["owner"], c["back"]) for q in game.view(seat)["queues"] for c in q
            if c["value"] is None]


def rewritten(game: Game, seat: int, key: int, card: str) -> Game | None:
    """``game`` with the card played at turn ``key`` being ``card`` instead (the card it
    was goes back to the owner's hand, or swaps with the face-down card ``seat`` cannot
    see that is ``card``), if that game is legal and ``seat`` sees it the same."""
    rec = game.to_record()
    turns = rec["turns"]
    old = turns[key]["play"][0]
    owner = turns[key]["seat"]
    if card not in game.hand(owner):
        others = [k for k, o, _ in hidden_keys(game, seat)
                  if o == owner and k != key and turns[k]["play"][0] == card]
        if not others:
            return None
        turns[others[0]]["play"][0] = old
    turns[key]["play"][0] = card
    try:
        twin = Game.from_record(rec)
    except ValueError:
        return None
    return twin if twin.view(seat) == game.view(seat) else None


def view_values(game: Game, seat: int) -> dict[int, set[str]]:
    """For each hidden card (by key), every notation the seat's view allows it: its own,
    and each other one of its back that a legal game with the same view gives it."""
    out: dict[int, set[str]] = {}
    for key, _, back in hidden_keys(game, seat):
        own = game.to_record()["turns"][key]["play"][0]
        out[key] = {own}
        for card in ("1", "2", "3*", "4*", "5*", "5", "3", "4", "1*", "2*"):
            if card != own and (card.endswith("*") == (back == "marked")):
                if rewritten(game, seat, key, card) is not None:
                    out[key].add(card)
    return out


def twins(game: Game, seat: int, count: int, seed: int) -> list[Game]:
    """Up to ``count`` other games that ``seat`` cannot tell from ``game`` (a few random
    rewrites each, every one checked by the engine and the view)."""
    rng = random.Random(seed)
    out: list[Game] = []
    values = view_values(game, seat)
    for _ in range(count):
        twin = game
        for _ in range(4):
            key = rng.choice(sorted(values))
            card = rng.choice(sorted(values[key]))
            got = rewritten(twin, seat, key, card)
            if got is not None:
                twin = got
        if twin.to_record() != game.to_record():
            out.append(twin)
    return out


# ------------------------------------------------------------------ the attack


class Table:
    """A play table with no Jupyter: a session and its bot runner (bots answer at once)."""

    def __init__(self, game: Game, human: int, bots: dict[int, str], seed: int) -> None:
        config = check_config(game, mode="play", humans=[human], bots=bots, bot_delay=0,
                              seed=seed, show_odds=False)
        self.seed = seed
        self.session = Session(game, config)
        self.runner = BotRunner(self.session, 0, seed, lambda: None)
        self.runner.start()

    def act(self, intent: Intent) -> str:
        """Send ``intent`` as a click does; what the table then shows (its synced state)."""
        if self.session.handle(intent):
            self.runner.start()
        return json.dumps(self.session.state(), sort_keys=True)

    def fork(self) -> Table:
        twin = copy.copy(self)
        twin.session = copy.deepcopy(self.session)
        twin.runner = BotRunner(twin.session, 0, self.seed, lambda: None)
        return twin


def plays(table: Table) -> list[Intent]:
    offers = table.session.state()["offers"]
    return [{"kind": "play", "card": c, "queue": q}
            for c in offers["play_cards"] for q in offers["play_queues"]]


def attack(table: Table, probes: list[Intent]) -> list[str] | None:
    """Each play, End turn (the answers noted), Undo — all but the last Undo. None when an
    answer cannot be taken back (it swatted: the game then goes on, as it should)."""
    seen: list[str] = []
    for i, play in enumerate(probes):
        if i:
            seen.append(table.act(UNDO))
        seen.append(table.act(play))
        seen.append(table.act(END))
        if not table.session.state()["offers"]["undo"]:
            return None
    return seen


def check_probing(
    game: Game, human: int, bots: dict[int, str], seed: int, n_twins: int, draws: int = 120,
    forks: int = 2,
) -> bool:
    """The attack on ``game`` and its twins; False when it cannot be run to the end."""
    truth = Table(game, human, bots, seed)
    probes = plays(truth)
    allowed = view_values(game, human)
    if len(probes) < 2 or not any(len(v) > 1 for v in allowed.values()):
        return False
    runs = []
    for world in [game, *twins(game, human, n_twins, seed)]:
        table = truth if world is game else Table(world, human, bots, seed)
        seen = attack(table, probes)
        if seen is None:
            return False
        runs.append((table, seen))
    actual = runs[0][1]
    for _, seen in runs[1:]:
        # only the first answer came from the cards the position really had
        assert seen[:1] == actual[:1] and seen[2:] == actual[2:]
    consistent: dict[int, set[str]] = {key: set() for key in allowed}
    start = game.turns_applied
    last: str | None = None
    for table, _ in runs:
        before = table.session.history
        for k in range(forks):
            fork = table.fork()
            fork.session.deals = random.Random(k)  # the last undo's draws
            shown = fork.act(UNDO)
            assert last is None or shown == last  # the draws change nothing shown
            last = shown
            live = fork.session.live
            assert live.view(human) == game.view(human)
            # the game that goes on is the re-deal of the position taken back to
            dealt = redeal(before[0], before[start], human, random.Random(k))
            assert live.to_record() == dealt[-1].to_record()
        for k in range(draws):  # ... whatever the last undo draws
            turns = redeal(before[0], before[start], human, random.Random(k))[-1].turns
            for key in consistent:
                consistent[key].add(turns[key].card)
    assert consistent == allowed
    return True


# ------------------------------------------------------------------ the issue's game


def issues_position() -> Game:
    """Ana (seat 0) against greedy Ben, seed 35: 3* on queue 1, then 5*, 2 and 5 on
    queue 2, Ben answering each: turn 8."""
    table = Table(Game(2, seed=35), 0, {1: "greedy"}, 35)
    for card, queue in [("3*", 0), ("5*", 1), ("2", 1), ("5", 1)]:
        table.act({"kind": "play", "card": card, "queue": queue})
        table.act(END)
    return table.session.live


def test_the_issues_six_probes_pin_nothing() -> None:
    game = issues_position()
    assert game.turns_applied == 8
    ben = [c for c in game.view(0)["queues"][1] if c["owner"] == 1 and c["back"] == "marked"]
    assert [c["value"] for c in game.view(None)["queues"][1] if c["key"] == ben[0]["key"]] == [3]
    assert view_values(game, 0)[ben[0]["key"]] == {"3*", "4*", "5*"}
    table = Table(game, 0, {1: "greedy"}, 35)
    assert len(plays(table)) == 6
    assert check_probing(game, 0, {1: "greedy"}, 35, n_twins=5, forks=6)


# ------------------------------------------------------------ many seeded positions


def positions(count: int) -> list[tuple[Game, int, dict[int, str], int]]:
    """Random positions of 2-4 seats with room on every queue, the human to move; greedy
    bots (they decide from their hidden cards), a random one among them."""
    out = []
    seed = 0
    while len(out) < count:
        seed += 1
        seats = 2 + seed % 3
        rng = random.Random(seed)
        game = random_game(seats, seed=seed, turns=rng.randrange(seats + 1, 4 * seats))
        human = game.to_move
        full = max(len(q) for q in game.view(None)["queues"])
        if human is None or not hidden_keys(game, human) or full > 2:
            continue  # (nearly full queues: the answers would swat, and stay)
        others = [s for s in range(seats) if s != human]
        bots = {s: "random" if s == others[-1] and seats > 2 else "greedy" for s in others}
        out.append((game, human, bots, seed))
    return out


POSITIONS = positions(24)


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(4))
def test_probing_many_positions_pins_nothing(chunk: int) -> None:
    checked = 0
    for game, human, bots, seed in POSITIONS[chunk::4]:
        checked += check_probing(game, human, bots, seed, n_twins=2)
    assert checked >= 3, checked
