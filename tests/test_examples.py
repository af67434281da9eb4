"""The example notebooks: stored without outputs, and each runs top to bottom in a real
kernel (nbclient). The play notebook's game is finished between its two cells by a bot
playing the human seat through the widget's intents, as clicks would."""

from __future__ import annotations

import importlib.util
import json
import re
import sys
from pathlib import Path
from typing import Any

import nbformat
import psutil
import pytest
from nbclient import NotebookClient

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
NOTEBOOKS = [
    "play.ipynb", "classroom.ipynb", "odds.ipynb", "analysis.ipynb", "lookahead.ipynb",
    "review.ipynb", "class_report.ipynb",
]
TIMEOUT = 600  # per cell: only a guard against a hang, not a speed test

FINISH_GAME = """
from tenleave_widget.analysis.bots import decide, make_bot

w.bot_delay = 0  # the bots answer at once
_player = make_bot("greedy", seed=5)
while not w.game.finished:
    _game = w.game
    assert _game.to_move == 0, "the bots move by themselves"
    for _step in decide(_player, _game).steps():
        w.handle_intent(_step)
    w.handle_intent({"kind": "end"})
"""


def read(name: str) -> Any:
    return nbformat.read(EXAMPLES / name, as_version=4)


def client(nb: Any) -> NotebookClient:
    return NotebookClient(
        nb, timeout=TIMEOUT, kernel_name="python3",
        resources={"metadata": {"path": str(EXAMPLES)}},
    )


def text_of(cell: Any) -> str:
    out = []
    for o in cell.get("outputs", []):
        if o["output_type"] == "stream":
            out.append(o["text"])
        elif o["output_type"] in ("execute_result", "display_data"):
            out.append(str(o["data"].get("text/plain", "")))
    return "".join(out)


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_stored_without_outputs(name: str) -> None:
    nb = read(name)
    nbformat.validate(nb)
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert code
    for c in code:
        assert c.outputs == [] and c.execution_count is None, f"{name}: clear the outputs"


def shows_plotly(nb: Any) -> bool:
    return any("application/vnd.plotly.v1+json" in o.get("data", {})
               for c in nb.cells for o in c.get("outputs", []))


def test_odds_notebook_runs_and_its_simulation_agrees_with_the_exact_odds() -> None:
    nb = read("odds.ipynb")
    client(nb).execute()
    assert shows_plotly(nb)
    lines = [line for c in nb.cells for line in text_of(c).splitlines()]
    found = [line for line in lines if "exact" in line and "simulated" in line]
    assert len(found) == 2
    for line in found:
        words = line.split()
        exact = float(words[words.index("exact") + 1])
        simulated = float(words[words.index("simulated") + 1])
        assert abs(exact - simulated) < 0.05 * max(1.0, exact), line
    # the figures the questions quote are the ones the notebook prints
    markdown = " ".join(" ".join(c.source.split()) for c in nb.cells if c.cell_type == "markdown")
    (outs,) = [line for line in lines if line.startswith("queue 1: P(exactly 10) if Ana adds")]
    chance = dict(re.findall(r"(\d): (\d\.\d\d)", outs.split("...")[1]))
    assert chance["2"] == chance["3"] == chance["4"] == chance["5"] != chance["1"]
    assert (f"queue 1 already totals exactly 10 with probability {chance['2']}. Why does a 1 "
            f"added at the back raise that to {chance['1']}, while a 2, 3, 4 or 5 leaves it "
            f"at {chance['2']}?") in markdown
    (peeked,) = [line for line in lines if line.startswith("Ana after peeking")]
    assert peeked.split()[-5:] == ["0.00", "P(=10)", "0.60", "P(>10)", "0.40"]
    assert "So P(=10) is 3/5 and P(>10) is 2/5" in markdown


def test_review_notebook_finds_the_blunder_and_judges_a_puzzle() -> None:
    """The review notebook (16 worlds per decision: quick here; the README's benchmark
    gives the default's figures) names the game's blunder, compares it with the best move
    on the same worlds, and judges a puzzle's answer."""
    nb = read("review.ipynb")
    client(nb).execute()
    assert shows_plotly(nb)
    lines = [line for c in nb.cells for line in text_of(c).splitlines()]
    (blunder,) = [line for line in lines if line.startswith("Turn ") and "worse than" in line]
    assert re.search(r"points of margin worse than .* \(95% interval", blunder)
    played = [line for line in lines if line.startswith("played ")]
    best = [line for line in lines if line.startswith("best ")]
    assert len(played) == len(best) == 1
    (verdict,) = [line for line in lines
                  if " was better by " in line or ": the best move, better than" in line]
    assert re.search(r"\d\.\d\d", verdict)
    widgets = [o for c in nb.cells for o in c.get("outputs", [])
               if "application/vnd.jupyter.widget-view+json" in o.get("data", {})]
    assert len(widgets) >= 2  # the replay from the blunderer's view, the puzzle's table


LEFT_BEHIND = """
import json as _json, psutil as _psutil
print("children:", _json.dumps([[p.pid, p.cmdline()] for p in _psutil.Process().children(True)]))
"""


def test_analysis_notebook_runs_on_a_dask_cluster_with_progress_bars_and_charts() -> None:
    nb = read("analysis.ipynb")
    nb.cells.append(nbformat.v4.new_code_cell(LEFT_BEHIND))  # after the notebook's last cell
    client(nb).execute()
    assert shows_plotly(nb)
    bars = [o for c in nb.cells for o in c.get("outputs", [])
            if "application/vnd.jupyter.widget-view+json" in o.get("data", {})]
    assert len(bars) >= 4  # one tqdm bar per simulation
    text = "".join(text_of(c) for c in nb.cells)
    assert "mean penalty (95% CI)" in text and "paired differences" in text
    assert re.search(r"Dask dashboard: http://127\.0\.0\.1:\d+/status", text), text[:300]
    html = "".join(str(o.get("data", {}).get("text/html", ""))
                   for c in nb.cells for o in c.get("outputs", []))
    assert "Dashboard" in html  # the Client's rich view, with its link
    verdicts = [line for line in text.splitlines() if "(greedy) - seat" in line]
    assert len(verdicts) == 9 and all(line.endswith("greedy better") for line in verdicts)
    # the notebook closes its cluster itself: what is left is multiprocessing's resource
    # tracker, which ends with the kernel
    left = json.loads(text_of(nb.cells[-1]).split("children:", 1)[1])
    assert all("resource_tracker" in " ".join(cmd) for _, cmd in left), left
    gone = []
    for pid, _ in left:
        try:
            gone.append(psutil.Process(pid))
        except psutil.NoSuchProcess:
            pass
    _, alive = psutil.wait_procs(gone, timeout=15)
    assert alive == [], f"processes outlived the kernel: {alive}"


def test_classroom_notebook_steps_through_every_game() -> None:
    nb = read("classroom.ipynb")
    check = nbformat.v4.new_code_cell("print(w.turn, w.game.turns_applied, w.game.finished)")
    nb.cells.append(check)
    client(nb).execute()
    assert text_of(nb.cells[-1]).split() == ["50", "50", "True"]  # the 5-seat game's end
    tables = [o for c in nb.cells for o in c.get("outputs", [])
              if "application/vnd.jupyter.widget-view+json" in o.get("data", {})]
    assert len(tables) == 4  # one table per game, shown once


WIDGET = re.compile(r'^w = replay_widget\(GAMES / "(?P<name>[^"]+)", show_odds=False\)$')
GOTO = re.compile(r"^w\.goto\((?P<turn>\d+)\)(  # .*)?$")
PERSPECTIVE = re.compile(r"^w\.set_perspective\((?P<seat>None|\d+)\)(  # .*)?$")


def classroom_steps() -> list[tuple[str, str, int, int | None]]:
    """For each code cell of the classroom notebook after the first: (the markdown just
    before it, the game's file, the turn shown, the perspective), by reading its code."""
    nb = read("classroom.ipynb")
    steps: list[tuple[str, str, int, int | None]] = []
    game, turn, seat, text = "", 0, None, ""
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            text = cell.source
            continue
        lines = cell.source.splitlines()
        if "import" in cell.source:
            continue
        for line in lines:
            if m := WIDGET.match(line):
                game, turn, seat = m["name"], 0, None
            elif m := GOTO.match(line):
                turn = int(m["turn"])
            elif m := PERSPECTIVE.match(line):
                seat = None if m["seat"] == "None" else int(m["seat"])
            else:
                assert line == "w" and WIDGET.match(lines[0]), (
                    f"a cell may only make and show a game's table once, or move it: {line!r}"
                )
        steps.append((text, game, turn, seat))
    return steps


def test_classroom_shows_each_table_once_and_moves_it() -> None:
    # a widget shown twice is one table shown twice: every earlier output would follow
    # the latest cell. So each game's table is shown by the cell that makes it, only.
    steps = classroom_steps()
    games = [g for _, g, _, _ in steps]
    assert sorted(set(games)) == [f"game-{n}-seats.json" for n in (2, 3, 4, 5)]
    for text, game, turn, _ in steps:
        record = json.loads((EXAMPLES / "games" / game).read_text(encoding="utf-8"))
        assert 0 <= turn <= len(record["turns"])
        if text.startswith("### Turn "):
            number = int(text.split()[2])
            assert turn == number - 1, f"{text[:40]!r}: the table must stop before the turn"
            assert "the table above moves to just before turn" in text
        else:
            assert "table" in text, text[:60]


def test_classroom_peek_is_shown_after_the_peek_from_the_peekers_view() -> None:
    from tenleave_widget import Game

    steps = classroom_steps()
    heads = [i for i, (text, *_) in enumerate(steps)
             if text.startswith("### Turn ") and "a peek that changes a decision" in text]
    assert len(heads) == 1
    at = heads[0]
    _, game, before, seat = steps[at]
    path = EXAMPLES / "games" / game
    raw = json.loads(path.read_text(encoding="utf-8"))["turns"][before]
    assert "peek" in raw and seat == raw["seat"]  # the peeker's view, before the peek
    q, i = raw["peek"]
    key = Game.from_record(path, turns=before).view(None)["queues"][q][i]["key"]
    value = Game.from_record(path, turns=before).view(None)["queues"][q][i]["value"]

    def shown(turns: int) -> int | None:
        cards = [c for cs in Game.from_record(path, turns=turns).view(seat)["queues"]
                 for c in cs if c["key"] == key]
        assert len(cards) == 1
        return cards[0]["value"]  # type: ignore[no-any-return]

    assert shown(before) is None  # not known before the peek
    text, game2, after, seat2 = steps[at + 1]  # the next cell: past the peek
    assert (game2, seat2) == (game, seat) and after > before
    assert shown(after) == value, "the peeker's view must show the peeked value"
    assert f"**{value}**" in text
    assert steps[at + 2][3] is None  # then back to the teacher's view, with the note


def test_classroom_notebook_is_generated_from_the_games() -> None:
    path = EXAMPLES / "games" / "make_classroom.py"
    sys.path.insert(0, str(path.parent))
    spec = importlib.util.spec_from_file_location("make_classroom", path)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    assert mod.text() == (EXAMPLES / "classroom.ipynb").read_text(encoding="utf-8"), (
        "run python examples/games/make_classroom.py"
    )


def test_play_notebook_plays_a_whole_game() -> None:
    nb = read("play.ipynb")
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert len(code) == 2 and "play(" in code[0].source
    at = nb.cells.index(code[0]) + 1
    nb.cells.insert(at, nbformat.v4.new_code_cell(FINISH_GAME))
    client(nb).execute()
    scores = text_of(nb.cells[-1])
    assert "Winner:" in scores or "Shared win:" in scores, scores
    assert scores.count("penalty") == 3
    assert shows_plotly(nb)


def test_lookahead_notebook_runs_and_the_two_views_disagree() -> None:
    nb = read("lookahead.ipynb")
    client(nb).execute()
    assert shows_plotly(nb)
    lines = [line for c in nb.cells for line in text_of(c).splitlines()]
    one = next(line for line in lines if line.startswith("one swat ahead says:"))
    whole = next(line for line in lines if line.startswith("the whole game says:"))
    assert one.split(":")[1] != whole.split(":")[1]
    paired = next(line for line in lines if line.startswith("margin of "))
    low = float(paired.split("[")[1].split(",")[0])
    assert low > 0, paired  # the one-swat choice is worse over the whole game, clearly
    diffs = [line for line in lines if "minus lookahead, same games" in line]
    assert len(diffs) == 2


def test_class_report_notebook_runs_and_the_student_improves(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("CLASS_REPORT_SAMPLES", "1")  # the smallest budget: a smoke run
    nb = read("class_report.ipynb")
    client(nb).execute()
    text = "".join(text_of(c) for c in nb.cells)
    assert "decisions judged" in text
    m = re.search(r"Sam's accuracy: (\d+) in games 1-6, (\d+) in games 7-12", text)
    assert m, text
    assert int(m.group(2)) > int(m.group(1))  # random, then greedy
    html_out = [o for c in nb.cells for o in c.get("outputs", []) if "text/html" in
                o.get("data", {})]
    assert any("Kinds of decision" in o["data"]["text/html"] for o in html_out)
