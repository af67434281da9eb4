"""The sample games' lessons (RULES.md §8: a record's ``lesson``), found by replaying them.

A teaching moment is the first time a situation of ``situations.py`` occurs in the games
(each situation taught once, spread over the four games), and always the last turn
(daybreak). Each moment asks its question just *before* the turn (the position the table
shows at ``turn``), from the peeking player's view for a peek, and its answer is the
discussion after the turn (*Show the answer* plays it; the game's note explains it). A
rotate gets a second moment before the swat that shows what it saved.

``make_games.py`` writes each record's lesson (:func:`lesson_of`); ``make_classroom.py``
shows the games with their lessons.
"""

from __future__ import annotations

import re
from typing import Any

from situations import SITUATIONS, find_situations

from tenleave_widget import Game
from tenleave_widget.engine.rules import ROMAN

ORDER = ["wake", "auto", "tie", "miss", "beyond", "peek", "rotate", "single", "shared"]


class Moment:
    """One stop of the lesson: turn index ``turn`` and the situations it shows."""

    def __init__(self, record: dict[str, Any], turn: int, kinds: list[str]) -> None:
        self.record = record
        self.turn = turn
        self.kinds = sorted(kinds, key=ORDER.index)
        self.before = Game.from_record(record, turns=turn)
        self.full = Game.from_record(record)
        self.names: list[str] = record["players"]
        self.seat = self.before.to_move
        self.name = self.names[self.seat or 0]
        self.raw = record["turns"][turn]
        self.final = turn == len(record["turns"]) - 1

    def peeked(self) -> dict[str, Any]:
        """The card peeked at in this turn, as the peeking seat sees it once the turn has
        been played (the turn index :meth:`after`), with its place then."""
        q, i = self.raw["peek"]
        key = self.before.view(None)["queues"][q][i]["key"]
        view = Game.from_record(self.record, turns=self.after()).view(self.seat)
        for qq, cards in enumerate(view["queues"]):
            for ii, c in enumerate(cards):
                if c["key"] == key:
                    assert c["value"] is not None, "the peeker must see the peeked value"
                    return {**c, "queue": qq, "position": ii}
        raise AssertionError("the peeked card left the table in the peek's turn")

    def after(self) -> int:
        """The turn index the table steps to after the moment: past the turn, or for a
        rotate, past the next swat (where the rotate shows what it saved)."""
        if "rotate" in self.kinds:
            return self.next_swat() + 1
        return self.turn + 1

    def queues(self, outcome: str, ties: bool = False) -> list[int]:
        """The queues (1-based) whose swat in this turn had ``outcome``."""
        found = []
        for e in self.full.events(self.turn):
            if e["kind"] == "swat":
                for qe in e["queues"]:
                    if qe["outcome"] == outcome and (not ties or len(qe["swatted"]) >= 2):
                        found.append(qe["queue"] + 1)
        return sorted(set(found))

    def next_swat(self) -> int:
        return next(j for j in range(self.turn, len(self.record["turns"]))
                    if any(e["kind"] == "swat" for e in self.full.events(j)))

    def title(self) -> str:
        parts = [SITUATIONS[k] for k in self.kinds]
        if self.final and "single" not in self.kinds:
            parts.append("daybreak and the final scores")
        return "; ".join(parts)

    def ask(self) -> list[str]:
        """What to ask before the turn."""
        name, out = self.name, []
        reasons = [e["reason"] for e in self.full.events(self.turn) if e["kind"] == "swat"]
        if self.final and "single" not in self.kinds:
            out.append(f"{name} is about to play the last card: **daybreak**. SleepKid will "
                       f"swat pass after pass until the table is empty. Who do you think "
                       f"will win?")
        elif reasons and not {"wake", "auto", "single"} & set(self.kinds):
            out.append(f"SleepKid is about to swat: {name} will wake it by choice."
                       if reasons[0] == "wake" else
                       f"SleepKid is about to swat: {name}'s card will fill the last free "
                       f"place.")
        return out + [ASK[k].format(**self.context(k)) for k in self.kinds]

    def context(self, kind: str) -> dict[str, Any]:
        """The words the templates of ``kind`` need."""
        outcome = {"tie": "under", "miss": "exact", "beyond": "over"}.get(kind)
        q = _queues(self.queues(outcome, ties=kind == "tie")) if outcome else ""
        rotate = self.raw.get("rotate")
        return {"name": self.name, "q": q, "token": self.before.token,
                "rq": "" if rotate is None else rotate + 1}

    def swatted(self) -> bool:
        """Whether the swat(s) of this turn swatted any card (a swat where every queue
        totals exactly 10, or holds one card at daybreak, swats nothing)."""
        return any(qe["swatted"] for e in self.full.events(self.turn) if e["kind"] == "swat"
                   for qe in e["queues"])

    def look(self) -> list[str]:
        """What to discuss after the turn: the questions that fit what the turn did."""
        out = [LOOK[k].format(name=self.name) for k in self.kinds
               if not (k == "auto" and not self.swatted())]
        if "auto" in self.kinds and not self.swatted():
            out.insert(0, LOOK_NOBODY_SWATTED)
        if self.final and "shared" not in self.kinds:
            out.append("Who won, and was it decided by daybreak or before?")
        return out


ASK = {
    "wake": "It is {name}'s turn, and every queue holds at least two cards, so {name} may "
            "**wake SleepKid** before playing. Add up each queue (the teacher's view shows "
            "every value): should {name} wake SleepKid now? Whose cards would be swatted?",
    "auto": "{name} is about to fill the **last free place**. What happens when every queue "
            "is full? Add up each queue from the front: where will the flipping stop?",
    "tie": "Add up {q}: does the total reach 10? If not, SleepKid swats the highest card "
           "barehanded — and what if two cards tie for highest?",
    "miss": "Add up {q} from the front. Where does the total first reach 10 or more? What "
            "happens when it is exactly 10?",
    "beyond": "The Human Defense token is **{token}**. If {q} goes over 10, which positions "
              "does it swat? How many cards will be flipped before the total passes 10?",
    "peek": "This is **{name}'s view**: only {name}'s own values (and peeked ones) are "
            "shown. Which card would you play, and where? Which face-down card would you "
            "most like to peek at?",
    "rotate": "{name} is about to **rotate queue {rq}**: its front card goes to the back. "
              "Which card is at the front of queue {rq}, and what would the next swat do "
              "to it?",
    "single": "{name} is about to play the last card: **daybreak**. SleepKid will swat pass "
              "after pass until the table is empty. What happens to a queue that holds a "
              "single card?",
    "shared": "Look at the scores: who can still win? Can two players win together?",
}
"""What to ask the class before a turn that shows each situation."""

LOOK = {
    "wake": "Was waking a good idea for {name}? The note compares the next swat with and "
            "without waking, then says what the game review, which looks at the whole "
            "game, thinks of it. Do the two agree? Why can they differ?",
    "auto": "Who lost most in this swat, and could they have avoided it?",
    "tie": "Were all the tied cards swatted?",
    "miss": "Why did every flipped card escape?",
    "beyond": "Which token position swatted nothing, and why?",
    "peek": "Did {name} play what you expected? What did the peek change? Is the safest "
            "move for the next swat always the best one for the whole game?",
    "rotate": "The note compares this swat with the one without the rotate: which card did "
              "the rotate save?",
    "single": "Which cards escaped without ever being flipped?",
    "shared": "Who won? Why is it a shared win?",
}
"""What to discuss after it."""

LOOK_NOBODY_SWATTED = ("Nobody lost a point in this swat. Was that luck, or could a player have "
                       "planned it?")
"""Asked after an automatic wake that swatted nothing (every queue totalled exactly 10)."""


def _and(items: list[Any]) -> str:
    s = [str(x) for x in items]
    return s[0] if len(s) == 1 else ", ".join(s[:-1]) + " and " + s[-1]


def _queues(numbers: list[int]) -> str:
    return f"queue {numbers[0]}" if len(numbers) == 1 else f"queues {_and(numbers)}"


def assign(records: list[dict[str, Any]]) -> list[dict[str, int]]:
    """Spread the situations over the games: each situation is taught once, at its first
    turn in the game that has the fewest situations assigned so far (the smaller game on
    a tie). Returns, per game, situation -> turn index."""
    found = [find_situations(r) for r in records]
    plan: list[dict[str, int]] = [{} for _ in records]
    for kind in ORDER:
        games = [k for k, f in enumerate(found) if f.get(kind)]
        if games:
            k = min(games, key=lambda k: (len(set(plan[k].values())), k))
            plan[k][kind] = found[k][kind][0]
    return plan


def moments(record: dict[str, Any], plan: dict[str, int]) -> list[Moment]:
    """The stops in one game: the turns of its assigned situations, and always the last
    turn (daybreak)."""
    at: dict[int, list[str]] = {len(record["turns"]) - 1: []}
    for kind, turn in plan.items():
        at.setdefault(turn, []).append(kind)
    return [Moment(record, t, kinds) for t, kinds in sorted(at.items())]


def _plain(text: str) -> str:
    """A question as the table shows it: plain text (no Markdown emphasis)."""
    return re.sub(r"\*\*(.+?)\*\*", r"\1", text)


def lesson_moments(m: Moment) -> list[dict[str, Any]]:
    """The lesson's moments of one stop: the question before the turn and the answer
    after it; a rotate's second moment before the swat that shows what it saved."""
    peek = "peek" in m.kinds
    after = m.after()
    lines: list[str] = []
    if peek:
        c = m.peeked()
        lines.append(f"The card {m.name} peeked at, {m.names[c['owner']]}'s {c['back']} card "
                     f"in queue {c['queue'] + 1}, position {ROMAN[c['position']]}, now shows "
                     f"its value, {c['value']}: what {m.name} learned. Choose Teacher (all "
                     "cards) in the menu to read the note on this turn: it also says what the "
                     "game review thinks of the move.")
    elif after != m.turn + 1:
        lines.append(f"The rotate is played. Next moment goes on to the next swat, on turn "
                     f"{after}, to see what it did.")
    else:
        lines.append(f"Turn {m.turn + 1} is played: the teacher's note on the table explains it.")
    lines += [f"Discuss: {q}" for q in m.look() if not (after != m.turn + 1 and "rotate" in q)]
    moment: dict[str, Any] = {"turn": m.turn, "question": _plain(" ".join(m.ask())),
                              "answer": _plain("\n".join(lines))}
    if peek:
        moment["perspective"] = m.seat
    out = [moment]
    if after != m.turn + 1:  # a rotate: the swat that shows what it saved
        out.append({
            "turn": after - 1,
            "question": f"SleepKid swats in turn {after}. Which card did the rotate of turn "
                        f"{m.turn + 1} save? Look at queue {m.raw['rotate'] + 1}.",
            "answer": f"Turn {after} is played.\nDiscuss: " + LOOK["rotate"],
        })
    return out


def opening(record: dict[str, Any]) -> dict[str, Any]:
    """The lesson's first moment: the table before the first card."""
    g = Game.from_record(record, turns=0)
    first = record["players"][g.to_move or 0]
    positions = _and([ROMAN[p - 1] for p in g.rules.tokens[g.token]])
    return {"turn": 0, "question": (
        "Before the first card. Everyone holds the same ten values: 1 1 2 2 3 3 4 4 5 5"
        + (" (with two players, one 2 fewer)" if len(record["players"]) == 2 else "")
        + f"; the 3s, the 4s and one 5 have a marked back. The Human Defense token is "
          f"{g.token}: when a queue adds up to more than 10, the cards at positions "
          f"{positions} are swatted. {first} plays first: which card would you play, and "
          "on which queue?"),
        "answer": ("Turn 1 is played: look at the card and where it went.\n"
                   "Discuss: SleepKid cannot be woken before every queue holds at least two "
                   "cards. Is a high card safer early or late in the game?")}


def lesson_of(records: list[dict[str, Any]], k: int) -> dict[str, Any]:
    """The lesson of game ``k`` of ``records`` (the four sample games, notes or not: only
    their turns are read)."""
    record = records[k]
    plan = assign(records)[k]
    n = len(record["players"])
    return {"title": f"{n} players: the lesson", "moments": [
        opening(record), *(x for m in moments(record, plan) for x in lesson_moments(m))]}
