"""Make the annotated sample games of ``examples/games/`` (deterministic).

    python examples/games/make_games.py            # write the records (with their lessons,
                                                   # lessons.py) and classroom.ipynb
    python examples/games/make_games.py --review   # review the games again, then write them
    python examples/games/make_games.py --search 300   # search seeds 0..299, print the best

Each game is self-play by :class:`Coach` bots — the greedy bot's move evaluation
(RULES.md §9) plus peeks and rotates — from a fixed seed found by ``--search``: the
seed whose game shows the most of the teaching situations of ``situations.py``. The
teacher notes are written from the replayed game's events and odds, never by hand.

The notes of a decision (a wake, a peek, a rotate) also say what the game review of the
same game at the default budget thinks of it (``reviews.json``, made by ``--review``, which
takes minutes): the exact odds only look one swat ahead, the review the whole game, and
the two can disagree. Only those verdicts call a move best, good or a mistake
(tests/analysis/test_game_verdicts.py reviews each game and checks them).
"""

from __future__ import annotations

import argparse
import copy
import json
import random
import re
import sys
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from lessons import lesson_of  # noqa: E402
from situations import SITUATIONS, best_plays, find_situations, rotate_saves  # noqa: E402

from tenleave_widget import Game, Turn, save_record  # noqa: E402
from tenleave_widget.analysis.odds import move_evaluation  # noqa: E402
from tenleave_widget.analysis.review import decisions, judge_decision, turn_text  # noqa: E402
from tenleave_widget.engine.cards import card_value  # noqa: E402
from tenleave_widget.engine.rules import ROMAN  # noqa: E402

MARGIN = 0.05
"""A rotate or a wake must beat the best plain play by this much expected penalty."""

SEEDS = {2: 56, 3: 203, 4: 74, 5: 199}
"""The seed of each player count's sample game (found with ``--search``)."""

REVIEWS = HERE / "reviews.json"
"""Per player count, per decision turn with a note (its index, from 0): the review's
``label``, ``loss``, ``loss_ci95``, ``forced`` and ``best`` move (``--review`` makes it)."""

ARTICLES = {"best": "the best", "good": "good", "inaccuracy": "an inaccuracy",
            "mistake": "a mistake", "blunder": "a blunder"}
"""A label as a verdict says it: "calls Ben's move a mistake"."""


def file_name(players: int) -> str:
    return f"game-{players}-seats.json"


class Coach:
    """A greedy player that also peeks and rotates.

    On its turn it peeks first with probability ``peek_rate`` (at an unknown card of the
    fullest queue: the seat cannot know its value before choosing it), then plays its
    best card for what it now knows. Otherwise it compares its best plain play with
    waking and with rotating each queue before playing, and takes a wake or a rotate only
    when it lowers its expected penalty by at least :data:`MARGIN`.
    """

    def __init__(self, seed: int, peek_rate: float = 0.3) -> None:
        self.rng = random.Random(seed)
        self.peek_rate = peek_rate

    def _best(self, game: Game, seat: int) -> tuple[float, list[Any]]:
        moves = [m for m in move_evaluation(game.view(seat)) if "play" in m]
        plays = best_plays(moves)
        low = min(m["expected_penalty"] for m in moves)
        return low, plays[self.rng.randrange(len(plays))]

    def choose(self, game: Game) -> Turn:
        seat = game.to_move
        assert seat is not None
        view = game.view(seat)
        unknown = [
            (len(cards), q, i)
            for q, cards in enumerate(view["queues"])
            for i, c in enumerate(cards)
            if c["value"] is None
        ]
        if unknown and self.rng.random() < self.peek_rate:
            most = max(u[0] for u in unknown)
            _, q, i = self.rng.choice([u for u in unknown if u[0] == most])
            peeked = game.preview([{"kind": "peek", "queue": q, "position": i}])
            _, (card, to) = self._best(peeked, seat)
            return Turn(seat, card, to, peek=(q, i))
        cost, (card, to) = self._best(game, seat)
        choice = Turn(seat, card, to)
        sizes = [len(cards) for cards in view["queues"]]
        if min(sizes) >= 2:
            woken = game.preview([{"kind": "wake"}])
            wake_cost = [m for m in move_evaluation(view) if m.get("wake")][0]["expected_penalty"]
            if wake_cost < cost - MARGIN:
                _, (c2, q2) = self._best(woken, seat)
                choice, cost = Turn(seat, c2, q2, wake=True), wake_cost
        for r, z in enumerate(sizes):
            if z >= 2:
                rotated = game.preview([{"kind": "rotate", "queue": r}])
                c, (c2, q2) = self._best(rotated, seat)
                if c < cost - MARGIN:
                    choice, cost = Turn(seat, c2, q2, rotate=r), c
        return choice


def play(players: int, seed: int) -> Game:
    """One self-play game of Coach bots from ``seed`` (the game's token seed too)."""
    rng = random.Random(seed)
    coaches = [Coach(rng.randrange(2**32), peek_rate=rng.choice([0.2, 0.35, 0.5]))
               for _ in range(players)]
    g = Game(players, seed=rng.randrange(2**32), first=0)
    while not g.finished:
        g.apply(coaches[g.to_move].choose(g))  # type: ignore[index]
    return g


def _money(x: float) -> str:
    """Two decimals, rounded half up from the exact fraction the float stands for.

    The odds are fractions with small denominators computed in floating point, so
    53/40 arrives as 1.32499999...: ``f"{x:.2f}"`` would print 1.32 where the exact
    value 1.325 rounds to 1.33.

    >>> _money(53 / 40), _money(0.2), _money(1 / 3)
    ('1.33', '0.20', '0.33')
    """
    exact = Fraction(x).limit_denominator(10**6)
    quotient = Decimal(exact.numerator) / Decimal(exact.denominator)
    return str(quotient.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))


def _and(items: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _count(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def decision_turns(record: dict[str, Any]) -> list[int]:
    """The turns whose note is about a decision: every wake, and the peeks and rotates
    that the notes explain."""
    found = find_situations(record)
    wakes = [i for i, t in enumerate(record["turns"]) if t.get("wake")]
    return sorted({*found.get("peek", []), *found.get("rotate", []), *wakes})


def verdict(name: str, judged: dict[str, Any]) -> str:
    """What the game review thinks of a decision, in a student's words.

    >>> print(verdict("Ben", {"label": "blunder", "loss": 5.75, "loss_ci95": [5.38, 6.13],
    ...       "forced": False, "best": {"seat": 1, "play": ["5*", 0], "rotate": 0,
    ...       "extra": "after"}}))  # doctest: +NORMALIZE_WHITESPACE
    The game review (it plays the rest of the game out many times, from Ben's view) calls
    Ben's move a blunder: the best was 5 on queue 1, then rotate queue 1, which would have
    left Ben about 5.8 points better off against the others (between 5.4 and 6.1, 19 times
    in 20).
    """
    head = (f"The game review (it plays the rest of the game out many times, from {name}'s "
            f"view) calls {name}'s move {ARTICLES[judged['label']]}")
    if judged["label"] == "best":
        return head + (": here every move was worth about the same." if judged["forced"]
                       else ".")
    lo, hi = judged["loss_ci95"]
    best = re.sub(r"(\d)\*", r"\1", turn_text(Turn.from_json(judged["best"]), words=True))
    return (f"{head}: the best was {best}, which would have left {name} about "
            f"{judged['loss']:.1f} points better off against the others (between {lo:.1f} "
            f"and {hi:.1f}, 19 times in 20).")


def reviewed(players: int) -> dict[int, dict[str, Any]]:
    """The stored verdicts of the ``players``-seat game (see :data:`REVIEWS`)."""
    stored = json.loads(REVIEWS.read_text(encoding="utf-8"))[str(players)]
    return {int(k): v for k, v in stored.items()}


def review_games() -> dict[str, dict[str, dict[str, Any]]]:
    """Judge every noted decision of every sample game as the game review at the default
    budget (seed 0) does: :data:`REVIEWS`' data."""
    out: dict[str, dict[str, dict[str, Any]]] = {}
    for n in SEEDS:
        rec = play(n, SEEDS[n]).to_record()
        out[str(n)] = {}
        every = decisions(rec)
        for i in decision_turns(rec):  # judged alone, exactly as the whole review judges it
            t = judge_decision(every[i])
            out[str(n)][str(i)] = {
                "label": t.label, "loss": round(t.loss, 4),
                "loss_ci95": [round(x, 4) for x in t.loss_ci95], "forced": t.forced,
                "best": t.best.to_json()}
    return out


class Annotator:
    """Writes the teacher notes of a finished game from its replay (and the verdicts of
    its review, per decision turn)."""

    def __init__(self, record: dict[str, Any],
                 verdicts: dict[int, dict[str, Any]] | None = None) -> None:
        self.record = record
        self.names: list[str] = record["players"]
        self.full = Game.from_record(record)
        self.found = find_situations(record)
        self.notes: dict[int, list[str]] = {}
        self.verdicts = verdicts or {}

    def add(self, turn: int, text: str) -> None:
        self.notes.setdefault(turn, []).append(text)

    def card(self, owner: int, card: str) -> str:
        back = "marked" if card.endswith("*") else "plain"
        return f"{self.names[owner]}'s {card_value(card)} ({back} back)"

    def short(self, owner: int, card: str) -> str:
        return f"{self.names[owner]}'s {card_value(card)}"

    # ------------------------------------------------------------------ swats
    def queue_line(self, qe: dict[str, Any], token: str, positions: tuple[int, ...]) -> str:
        q = qe["queue"] + 1
        if qe["outcome"] == "empty":
            return f"Queue {q} is empty: nothing happens there."
        if qe["outcome"] == "single":
            c = qe["single"]
            return (f"Queue {q} holds a single card, {self.card(c['owner'], c['card'])}: "
                    f"at daybreak a lone mosquito escapes without a flip.")
        flipped = qe["flipped"]
        sums = " + ".join(str(card_value(c["card"])) for c in flipped)
        who = ", ".join(self.short(c["owner"], c["card"]) for c in flipped)
        head = f"Queue {q} flips {who}: {sums} = {qe['total']}"
        hit = [c for c in flipped if c["key"] in qe["swatted"]]
        hit_text = _and([
            f"{self.short(c['owner'], c['card'])} (+{card_value(c['card'])} to "
            f"{self.names[c['owner']]})" for c in hit
        ]) if hit else ""
        if qe["outcome"] == "under":
            if len(hit) > 1:
                body = (f", under 10, so SleepKid swats barehanded at the highest card — and "
                        f"{len(hit)} cards tie for highest, so all of them are swatted: "
                        f"{hit_text}.")
                if card_value(hit[0]["card"]) <= 2:
                    body += (f" On a queue this low, even a {card_value(hit[0]['card'])} is the "
                             f"highest card.")
            else:
                body = f", under 10, so SleepKid swats barehanded at the highest card: {hit_text}."
            rest = len(flipped) - len(hit)
            if rest == 1:
                body += " The other card escapes to the Safe Area."
            elif rest:
                body += f" The other {rest} cards escape to the Safe Area."
            return head + body
        if qe["outcome"] == "exact":
            every = "Both" if len(flipped) == 2 else f"All {len(flipped)}"
            return (head + f" exactly — a swing and miss! {every} flipped cards escape to "
                    "the Safe Area.")
        named = _and([ROMAN[p - 1] for p in positions])
        word = "positions" if len(positions) > 1 else "position"
        body = (f", over 10 after {_count(len(flipped), 'flip')}, so SleepKid grabs the "
                f"Human Defense: token {token} swats {word} {named}")
        beyond = [p for p in positions if p > len(flipped)]
        if hit:
            body += f": {hit_text}."
        else:
            body += ", but no flipped card stands there: nobody is swatted."
        if beyond:
            pos = _and([ROMAN[p - 1] for p in beyond])
            body += (f" Position {pos} lies beyond the {_count(len(flipped), 'flipped card')}"
                     f", so it swats nothing: the total went over 10 so early that the "
                     f"token only half lands ({_count(len(hit), 'card')} swatted instead of "
                     f"{len(positions)}).")
        return head + body

    def swat_lines(self, events: list[dict[str, Any]], token: str) -> tuple[list[str], str]:
        lines: list[str] = []
        passes = sum(1 for e in events if e["kind"] == "swat")
        n = 0
        for e in events:
            if e["kind"] == "swat":
                n += 1
                positions = self.full.rules.tokens[token]
                prefix = f"Pass {n}: " if passes > 1 else ""
                qs = [self.queue_line(qe, token, positions) for qe in e["queues"]
                      if qe["outcome"] != "empty"]
                lines.append(prefix + " ".join(qs))
            elif e["kind"] == "token":
                token = e["token"]
                lines.append(f"A new Human Defense token is revealed: {token}.")
        return lines, token

    # -------------------------------------------------------------- the game
    def annotate(self) -> dict[int, str]:
        rec = self.record
        g = Game.from_record(rec, turns=0)
        self.token = token = g.token
        hands = ("each seat holds its whole colour, less the one 2 that each seat "
                 "removes in a 2-seat game" if len(self.names) == 2 else
                 "each seat holds its whole colour")
        self.add(0, (
            f"{len(self.names)} seats: {_and(self.names)}, played by the project's coach "
            f"bots (each plays the card that its exact odds say is safest, and sometimes "
            f"peeks or rotates). Every hand is public ({hands}); "
            f"only where each card goes, and its value under the back, is secret. "
            f"The first Human Defense token is {token}."))
        rotated: dict[int, str] = {}  # swat turn -> what a rotate saved there
        for i, raw in enumerate(rec["turns"]):
            t = Turn.from_json(raw)
            name = self.names[t.seat]
            if i in self.found.get("peek", []):
                self.note_peek(g, t, i)
            if i in self.found.get("rotate", []):
                self.note_rotate(g, t, i, rotated)
            if t.wake:
                self.note_wake(g, t, i)
            before = g.penalty
            g.apply(t)
            self.note_swats(g, t, i, before, rotated)
            if i in self.verdicts:
                self.add(i, verdict(name, self.verdicts[i]))
        last = len(rec["turns"]) - 1
        pen = ", ".join(f"{self.names[s]} {p}" for s, p in enumerate(g.penalty))
        won = [self.names[s] for s in g.winners or []]
        if len(won) > 1:
            self.add(last, f"Final penalties: {pen}. The lowest penalty wins, and "
                           f"{_and(won)} tie on it: a shared win.")
        else:
            self.add(last, f"Final penalties: {pen}. {won[0]} wins with the lowest penalty.")
        return {k: " ".join(v) for k, v in sorted(self.notes.items())}

    def note_swats(self, g: Game, t: Turn, i: int, before: list[int],
                   rotated: dict[int, str]) -> None:
        """The swats of turn ``i``, just played on ``g`` (``before``: the penalties before)."""
        name = self.names[t.seat]
        events = g.events(i)
        swats = [e for e in events if e["kind"] == "swat"]
        if swats:
            reason = swats[0]["reason"]
            if reason == "full":
                self.add(i, f"{name}'s card fills the last free place: every queue holds 4 "
                            f"cards, so SleepKid wakes up by itself (an automatic wake).")
            elif reason == "daybreak":
                self.add(i, f"{name} plays the last card of the game: daybreak! SleepKid "
                            f"swats pass after pass until the table is empty.")
            lines, self.token = self.swat_lines(events, self.token)
            for line in lines:
                self.add(i, line)
            if i in rotated:
                self.add(i, rotated[i])
            gained = [(self.names[s], p - before[s]) for s, p in enumerate(g.penalty)
                      if p > before[s]]
            if gained and reason != "daybreak":
                self.add(i, "Penalties so far: " + ", ".join(
                    f"{self.names[s]} {p}" for s, p in enumerate(g.penalty)) + ".")
            if t.wake:
                self.add(i, f"Then {name} plays {card_value(t.card)} on queue {t.queue + 1}, "
                            f"into the fresh round.")

    def note_wake(self, g: Game, t: Turn, i: int) -> None:
        name = self.names[t.seat]
        moves = move_evaluation(g.view(t.seat))
        wake = [m for m in moves if m.get("wake")][0]["expected_penalty"]
        best = min(m["expected_penalty"] for m in moves if "play" in m)
        self.add(i, (
            f"{name} wakes SleepKid before playing (allowed: every queue holds at least 2 "
            f"cards). Why now? In {name}'s own odds, a swat right now costs {name} "
            f"{_money(wake)} penalty points on average, while after even the safest play a "
            f"swat would cost {_money(best)}: waking now is the cheaper of the two for "
            f"{name}, and the queues only get fuller."))

    def note_peek(self, g: Game, t: Turn, i: int) -> None:
        assert t.peek is not None
        name = self.names[t.seat]
        q, pos = t.peek
        target = g.view(None)["queues"][q][pos]
        owner = self.names[target["owner"]]
        moves = move_evaluation(g.view(t.seat))
        old = best_plays(moves)
        cost = {tuple(m["play"]): m["expected_penalty"] for m in moves if "play" in m}
        peeked = g.preview([{"kind": "peek", "queue": q, "position": pos}])
        new_moves = move_evaluation(peeked.view(t.seat))
        new_cost = {tuple(m["play"]): m["expected_penalty"] for m in new_moves if "play" in m}
        chosen = (t.card, t.queue)

        def play(p: tuple[str, int] | list[Any]) -> str:
            return f"{card_value(p[0])} on queue {p[1] + 1}"

        low = _money(cost[tuple(old[0])])
        if len(old) == 1:
            best = (f"{name}'s safest play was {play(old[0])}: the expected penalty of a swat "
                    f"right after it was {low}")
        else:  # a tie: name every safest play, none is "the" safest
            best = (f"{name}'s safest plays were {_and([play(p) for p in old])}, tied: the "
                    f"expected penalty of a swat right after each was {low}")
        after = _and([f"{_money(new_cost[tuple(p)])} for {play(p)}"
                      for p in [*old, chosen]])
        self.add(i, (
            f"{name} peeks at {owner}'s {target['back']} card in queue {q + 1}, position "
            f"{ROMAN[pos]}: it is a {target['value']} (only {name} learns it). Before the "
            f"peek, {best}, against {_money(cost[chosen])} for {play(chosen)}. Knowing the "
            f"{target['value']}, the numbers become {after}, so {name} changes plan and "
            f"plays {play(chosen)}."))

    def fate(self, events: list[dict[str, Any]], key: int) -> str:
        """What a swat turn's events did to the card ``key``."""
        for e in events:
            if e["kind"] != "swat":
                continue
            for qe in e["queues"]:
                keys = [c["key"] for c in qe["flipped"]]
                if key in keys:
                    pos = ROMAN[keys.index(key)]
                    if key in qe["swatted"]:
                        return f"flipped at position {pos} and swatted"
                    return f"flipped at position {pos} and escaped"
                if qe["single"] is not None and qe["single"]["key"] == key:
                    return "the last card of its queue, and escaped without a flip"
        return "never flipped: it stayed face down in the queue"

    def note_rotate(self, g: Game, t: Turn, i: int, rotated: dict[int, str]) -> None:
        assert t.rotate is not None
        name = self.names[t.seat]
        front = g.view(None)["queues"][t.rotate][0]
        owner = front["owner"]
        key = front["key"]
        whose = f"{name}'s own" if owner == t.seat else f"{self.names[owner]}'s"
        nxt = next(j for j in range(i, len(self.record["turns"]))
                   if any(e["kind"] == "swat" for e in self.full.events(j)))
        other = copy.deepcopy(self.record)
        other["turns"][i] = {"seat": t.seat, "play": [t.card, t.queue]}
        alt = Game.from_record(other, turns=nxt + 1)
        actual = self.fate(self.full.events(nxt), key)
        instead = self.fate(alt.events(nxt), key)
        when = "at the end of this very turn" if nxt == i else f"on turn {nxt + 1}"
        card = f"{whose} {front['value']}"
        after = " after playing" if t.extra == "after" else ""
        self.add(i, (
            f"{name} rotates queue {t.rotate + 1}{after}: {card} leaves the front "
            f"(position I) for the back of the queue. The next swat comes {when}."))
        rotated[nxt] = (
            f"Thanks to the rotate on turn {i + 1}, {card} was {actual}; without that "
            f"rotate it would have been {instead}.")


def build(players: int) -> dict[str, Any]:
    """The annotated sample record of ``players`` seats, exactly as stored."""
    rec = play(players, SEEDS[players]).to_record()
    notes = Annotator(rec, reviewed(players)).annotate()
    rec["notes"] = {str(k): v for k, v in notes.items()}
    games = [play(n, SEEDS[n]).to_record() for n in SEEDS]  # the lessons share the situations
    rec["lesson"] = lesson_of(games, list(SEEDS).index(players))
    return rec


def _saved_owner(record: dict[str, Any], i: int) -> int | None:
    key = rotate_saves(record, i)
    if key is None:
        return None
    return int(record["turns"][key]["seat"])


def search(players: int, seeds: range) -> list[tuple[int, int, list[str]]]:
    """(score, seed, situations) for the given seeds, best first."""
    out = []
    for seed in seeds:
        rec = play(players, seed).to_record()
        situations = find_situations(rec)
        own = [i for i in situations.get("rotate", [])
               if _saved_owner(rec, i) == rec["turns"][i]["seat"]]
        if not own:  # a rotate that saves the rotating seat's own card teaches better
            situations.pop("rotate", None)
        found = sorted(situations)
        out.append((len(found), seed, found))
    out.sort(key=lambda x: (-x[0], x[1]))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--search", type=int, metavar="TRIES", help="search this many seeds")
    ap.add_argument("--start", type=int, default=0, help="the first seed searched")
    ap.add_argument("--review", action="store_true",
                    help="review the games again (minutes) and write reviews.json first")
    args = ap.parse_args()
    if args.search:
        for n in (2, 3, 4, 5):
            for score, seed, found in search(n, range(args.start, args.start + args.search))[:5]:
                print(n, seed, score, " ".join(found))
        return
    if args.review:
        REVIEWS.write_text(json.dumps(review_games(), indent=1) + "\n", encoding="utf-8")
        print(REVIEWS.name, "written")
    for n in SEEDS:
        rec = build(n)
        save_record(rec, HERE / file_name(n))
        print(file_name(n), sorted(find_situations(rec)), "of", len(SITUATIONS))
    import make_classroom  # the classroom notebook stops at these games' turns

    make_classroom.main()


if __name__ == "__main__":
    main()
