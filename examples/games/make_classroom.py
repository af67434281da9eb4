"""Make ``examples/classroom.ipynb`` from the sample games (deterministic).

    python examples/games/make_classroom.py

The notebook steps through the sample games in the replay widget: one table per game,
displayed once at the top of the game's section, which the later cells move with
``w.goto(n)`` (every display of a widget shows its latest state, so showing it again
further down would change the earlier outputs too). At each teaching moment (the first
time a situation of ``situations.py`` occurs in the games, found by replaying them), a
cell moves the table to just *before* the turn, with a question for the class, and the
next one steps past it, where the game's note explains what happened. The peek is shown
from the peeking player's view before the peek and after it, where the peeked value is
shown, then in the teacher's view with its note. Each game ends with its daybreak.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from situations import SITUATIONS, find_situations  # noqa: E402

from tenleave_widget import Game  # noqa: E402

NOTEBOOK = HERE.parent / "classroom.ipynb"
GAMES = [f"game-{n}-seats.json" for n in (2, 3, 4, 5)]
ROMAN = ("I", "II", "III", "IV")
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
    "peek": "Did {name} play what you expected? What did the peek change? The note ends "
            "with the game review's verdict on the move, over the whole game: is the safest "
            "move for the next swat always the best one for the game?",
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


def _id(cells: list[Any]) -> str:
    return f"cell-{len(cells):03d}"


def notebook() -> nbformat.NotebookNode:
    cells: list[Any] = []

    def md(text: str) -> None:
        cells.append(new_markdown_cell(text, id=_id(cells)))

    def code(text: str) -> None:
        cells.append(new_code_cell(text, id=_id(cells)))

    md("# Classroom: step through the sample games\n\n"
       "Each sample game in `examples/games/` was played to the end by the project's bots "
       "and annotated turn by turn. For each game this notebook shows **one table**, at "
       "the top of the game's section, and the cells below it move that table: to just "
       "before an interesting turn, with a question for the class, then past the turn, "
       "where the **note** under the table explains what happened.\n\n"
       "How to use it: run the cells one at a time, in order (*Shift + Enter*). A cell "
       "that moves the table shows nothing itself: look at the table above it. To keep "
       "the table in sight while you scroll through the questions, right-click its cell and "
       "choose *Create New View for Cell Output*: JupyterLab opens a second view of it "
       "beside the notebook, and both move together. The table can also be stepped with "
       "its own buttons, its slider or the arrow keys, and its drop-down switches between "
       "the teacher's view (all cards face up) and one player's view. Tick *show odds* on "
       "the table to see the exact swat odds of the view shown. On a projector, choose "
       "*Size: projector* on the table: at 1280×720 the queues, the hand, the last turn "
       "and the scores then fit on one screen, and the teacher's note goes below them.\n\n"
       "*This notebook is generated by `examples/games/make_classroom.py` from the records; "
       "regenerate it rather than editing it by hand.*")
    code("from pathlib import Path\n\n"
         "from tenleave_widget.widget import replay_widget\n\n"
         'GAMES = Path("games")')
    records = [json.loads((HERE / name).read_text(encoding="utf-8")) for name in GAMES]
    for name, record, plan in zip(GAMES, records, assign(records), strict=True):
        players = record["players"]
        g = Game.from_record(record)
        stops = moments(record, plan)
        shown = _and([SITUATIONS[k] for k in sorted(plan, key=ORDER.index)])
        md(f"## {len(players)} players: {_and(players)}\n\n"
           f"{len(record['turns'])} turns; final penalties "
           + ", ".join(f"{p} {s}" for p, s in zip(players, g.penalty, strict=True)) + ". "
           + (f"This game shows {shown}." if plan else "")
           + "\n\nRun the cell below to show this game's table, at its start, in the "
             "teacher's view. The next cells of this section move this table.")
        code(f'w = replay_widget(GAMES / "{name}", show_odds=False)\nw')
        for m in stops:
            title = m.title() or "daybreak and the final scores"
            peek = "peek" in m.kinds
            where = f", in **{m.name}'s view**" if peek else ""
            md(f"### Turn {m.turn + 1} — {title}\n\n"
               f"Run the cell below: the table above moves to just before turn "
               f"{m.turn + 1}{where}.\n\n"
               + "\n".join(f"- **Ask:** {q}" for q in m.ask()))
            lines = [f"w.goto({m.turn})  # the table above: just before turn {m.turn + 1}"]
            if peek:
                lines.append(f"w.set_perspective({m.seat})  # {m.name}'s view")
            code("\n".join(lines))
            after = m.after()
            if peek:
                c = m.peeked()
                step = (f"Run the cell below to step the table above past turn {m.turn + 1}, "
                        f"still in {m.name}'s view: the card {m.name} peeked at, "
                        f"{m.names[c['owner']]}'s {c['back']} card in queue {c['queue'] + 1}, "
                        f"position {ROMAN[c['position']]}, now shows its value, "
                        f"**{c['value']}**: what {m.name} learned with the peek.")
            elif after != m.turn + 1:
                step = (f"Run the cell below to step the table above on to the next swat, on "
                        f"turn {after}, to see what the rotate of turn {m.turn + 1} did; the "
                        f"note under the table explains it.")
            else:
                step = (f"Run the cell below to step the table above past turn {m.turn + 1}; "
                        f"the note under the table explains it.")
            md(step + "\n\n" + "\n".join(f"- **Discuss:** {q}" for q in m.look()))
            code(f"w.goto({after})  # the table above: turn {after} played"
                 + (f", in {m.name}'s view" if peek else ""))
            if peek:
                md(f"Run the cell below to switch the table above back to the teacher's view. "
                   f"A player's view only says that there is a note; the teacher's view "
                   f"shows it: it compares {m.name}'s expected penalties with and without "
                   f"the peeked value, then gives the game review's verdict on the move.")
                code("w.set_perspective(None)  # the teacher's view")
    md("## After the lesson\n\n"
       "- `examples/play.ipynb`: the class plays a game against two bots.\n"
       "- `examples/odds.ipynb`: where the odds in the notes come from.\n"
       "- `examples/analysis.ipynb`: which strategy wins, measured over thousands of games.")
    return new_notebook(cells=cells, metadata={
        "kernelspec": {"name": "python3", "display_name": "Python 3 (ipykernel)",
                       "language": "python"},
        "language_info": {"name": "python"},
    })


def text() -> str:
    """The notebook file's text, exactly as stored."""
    return nbformat.writes(notebook()) + "\n"


def main() -> None:
    NOTEBOOK.write_text(text(), encoding="utf-8")
    print(NOTEBOOK.name, "written")


if __name__ == "__main__":
    main()
