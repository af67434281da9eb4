"""Small things the table says (issue 22, point 6), in the presentation model: why *Wake
SleepKid* is not offered while a queue holds fewer than two cards, and which seat is which
kind of bot. The page's side is tests/browser/test_table_words.py."""

from __future__ import annotations

import json
import re
from pathlib import Path

from tenleave_widget import Game
from tenleave_widget.table.session.config import check_config
from tenleave_widget.table.session.machine import Session
from tenleave_widget.table.session.offers import wake_why


def _game(*turns: dict[str, object]) -> Game:
    g = Game(["Ana", "Ben", "Cy"], seed=2)
    for t in turns:
        g.apply(t)
    return g


def test_no_wake_is_explained_at_the_start_of_the_turn_only() -> None:
    g = _game({"seat": 0, "play": ["1", 0]}, {"seat": 1, "play": ["1", 0]},
              {"seat": 2, "play": ["1", 1]})
    s = Session(g, check_config(g, humans=[0], bots={1: "greedy", 2: "random"}))
    o = s.state()["offers"]
    assert o["active"] and not o["wake"]
    assert o["wake_why"] == wake_why([2, 1])
    assert "queue 2 holds only one card" in o["wake_why"]
    assert "at least two" in o["wake_why"]
    s.handle({"kind": "play", "card": "2", "queue": 1})  # the turn has begun: no wake now
    assert s.state()["offers"]["wake_why"] == ""


def test_no_reason_when_wake_is_offered_or_it_is_not_my_turn() -> None:
    g = _game({"seat": 0, "play": ["1", 0]}, {"seat": 1, "play": ["1", 1]},
              {"seat": 2, "play": ["2", 0]}, {"seat": 0, "play": ["2", 1]})
    s = Session(g, check_config(g, humans=[1], bots={0: "greedy", 2: "random"}))
    o = s.state()["offers"]
    assert o["wake"] and o["wake_why"] == ""
    other = Session(g, check_config(g, humans=[0], bots={1: "greedy", 2: "random"}))
    assert other.state()["offers"]["wake_why"] == ""  # Ben's turn, not Ana's
    assert wake_why([0, 0]).startswith("No Wake SleepKid yet: queue 1 is empty and queue 2 is")


def test_the_seats_say_which_bot_is_which() -> None:
    g = _game()
    s = Session(g, check_config(g, humans=[0], bots={1: "greedy", 2: "random"}))
    assert s.state()["narration"]["roles"] == ["", "greedy bot", "random bot"]
    replay = Session(g, check_config(g, mode="replay"))
    assert replay.state()["narration"]["roles"] == ["", "", ""]


def test_the_notebooks_link_the_rules_where_a_working_copy_finds_them() -> None:
    """Every notebook that names RULES.md links it, and every relative link of a notebook
    resolves from examples/ — and so from my-examples/, the working copy `make lab` makes
    beside it (issue 22: play.ipynb named a RULES.md that my-examples/ does not hold)."""
    root = Path(__file__).resolve().parents[2]
    checked = 0
    for nb in sorted((root / "examples").glob("*.ipynb")):
        cells = json.loads(nb.read_text(encoding="utf-8"))["cells"]
        text = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
        links = re.findall(r"\]\(([^)#\s]+)", text)
        for target in links:
            if "://" in target:
                continue
            assert target.startswith("../"), (nb.name, target)  # not inside the copy
            assert (nb.parent / target).resolve().is_file(), (nb.name, target)
            checked += 1
        if "RULES.md" in text:
            assert "../docs/RULES.md" in links, nb.name
    assert checked >= 4
