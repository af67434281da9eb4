"""The example notebooks: stored without outputs, and each runs top to bottom in a real
kernel (nbclient). The play notebook's game is finished between its two cells by a bot
playing the human seat through the widget's intents, as clicks would."""

from __future__ import annotations

import hashlib
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

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
NOTEBOOKS = [
    "play.ipynb", "classroom.ipynb", "odds.ipynb", "analysis.ipynb", "lookahead.ipynb",
    "review.ipynb", "class_report.ipynb", "inference.ipynb",
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


EXECUTED = EXAMPLES.parent / "test-artifacts" / "notebooks" / "examples"
"""Where each run notebook is kept, for the documentation site (tools/docs/hooks.py)."""
TABLE_NOTE = ("<p><em>Here the notebook shows the interactive table with its panels: run it "
              "in JupyterLab (<code>make lab</code>) or in the browser (JupyterLite).</em></p>")


def keep(name: str, nb: Any) -> Path:
    """Write the run notebook ``nb`` for the documentation: only the cells the stored
    notebook has (not those a test added), a widget's output replaced by a note (a static
    page cannot run the kernel it talks to), and the stored notebook's digest, so that the
    site shows a copy only while it is the notebook as it is."""
    stored = read(name)
    ids = {c.get("id") for c in stored.cells}
    out = nbformat.from_dict(json.loads(json.dumps(nb)))
    out.cells = [c for c in out.cells if c.get("id") in ids]
    for cell in out.cells:
        for o in cell.get("outputs", []):
            data = o.get("data", {})
            if "application/vnd.jupyter.widget-view+json" in data:
                o["data"] = {"text/html": TABLE_NOTE, "text/plain": "the table"}
    out.metadata.pop("widgets", None)
    digest = hashlib.sha256((EXAMPLES / name).read_bytes()).hexdigest()
    out.metadata["tenleave_executed"] = {"source_sha256": digest}
    EXECUTED.mkdir(parents=True, exist_ok=True)
    path = EXECUTED / name
    nbformat.write(out, path)
    return path


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
    keep("odds.ipynb", nb)
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
    nb.cells.append(nbformat.v4.new_code_cell(
        "print('unplayed:', board.game.turns_applied == puzzle.turn, board.turn)"))
    client(nb).execute()
    keep("review.ipynb", nb)
    assert shows_plotly(nb)
    # Run All leaves the puzzle for the student: nothing was played on the board
    unplayed = text_of(nb.cells[-1]).split()
    assert unplayed[:2] == ["unplayed:", "True"], unplayed
    assert any("then run this cell again." in text_of(c) for c in nb.cells)
    lines = [line for c in nb.cells for line in text_of(c).splitlines()]
    (blunder,) = [line for line in lines if line.startswith("Turn ") and "worse than" in line]
    assert re.search(r"points of margin worse than .* \(95% interval", blunder)
    # the label as a sentence says it ("an inaccuracy", "a good move"), not "a inaccuracy"
    assert re.search(r" — (the best move|a good move|an inaccuracy|a mistake|a blunder), ",
                     blunder), blunder
    played = [line for line in lines if line.startswith("played ")]
    best = [line for line in lines if line.startswith("best ")]
    assert len(played) == len(best) == 1
    (verdict,) = [line for line in lines
                  if " was better by " in line or ": the best move, better than" in line]
    assert re.search(r"\d\.\d\d", verdict)
    widgets = [o for c in nb.cells for o in c.get("outputs", [])
               if "application/vnd.jupyter.widget-view+json" in o.get("data", {})]
    assert len(widgets) >= 2  # the replay from the blunderer's view, the puzzle's table
    # JupyterLab reads "30/30" or "turn/s" in an output as a file path and asks the server
    # for it: no output text holds a slash between two words
    text = "".join(text_of(c) for c in nb.cells)
    assert not re.findall(r"\w/\w", text), re.findall(r"\S*\w/\w\S*", text)
    assert " played peek" not in text and "'s move: " in blunder
    # the puzzles are those the text promises (a gap of 2 points), or it says they are not
    gaps = [float(g) for g in re.findall(r"the best move beats the next by ([0-9.]+) points",
                                         text)]
    assert gaps and (min(gaps) >= 2 or "the three clearest instead:" in text), gaps


LEFT_BEHIND = """
import json as _json, psutil as _psutil
print("children:", _json.dumps([[p.pid, p.cmdline()] for p in _psutil.Process().children(True)]))
"""


def test_analysis_notebook_runs_on_a_dask_cluster_with_progress_bars_and_charts() -> None:
    nb = read("analysis.ipynb")
    nb.cells.append(nbformat.v4.new_code_cell(LEFT_BEHIND))  # after the notebook's last cell
    client(nb).execute()
    keep("analysis.ipynb", nb)
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


def own_lesson(nb: Any) -> str:
    """The notebook's example of a teacher's own lesson (shown as code, not run)."""
    (block,) = [m for c in nb.cells if c.cell_type == "markdown"
                for m in re.findall(r"```python\n(.*?)```", c.source, re.S)]
    return str(block)


def test_classroom_notebook_runs_each_games_lesson() -> None:
    nb = read("classroom.ipynb")
    check = nbformat.v4.new_code_cell(
        "print([(t.moment_number, t.turn) for t in (two, three, four, five)])\n"
        "five.next_moment(); five.reveal()\n"
        + own_lesson(nb) + "\n"
        "print(five.moment_number, five.turn, mine.lesson['title'])")
    nb.cells.append(check)
    client(nb).execute()
    keep("classroom.ipynb", nb)
    lines = text_of(nb.cells[-1]).splitlines()
    firsts = [json.loads((EXAMPLES / "games" / f"game-{n}-seats.json").read_text(
        encoding="utf-8"))["lesson"]["moments"][0]["turn"] for n in (2, 3, 4, 5)]
    assert lines[0] == repr([(1, t) for t in firsts])  # each table at its first question
    second = json.loads((EXAMPLES / "games" / "game-5-seats.json").read_text(
        encoding="utf-8"))["lesson"]["moments"][1]["turn"]
    assert lines[1] == f"2 {second + 1} My first lesson"  # the answer plays the turn
    tables = [o for c in nb.cells for o in c.get("outputs", [])
              if "application/vnd.jupyter.widget-view+json" in o.get("data", {})]
    assert len(tables) == 4  # one table per game, shown once


def test_classroom_says_what_run_all_shows_and_leaves_the_last_table_in_view() -> None:
    # Run All puts each table at its first question: no text asks the teacher to start the
    # lesson, and the notebook ends on the last table's short cell, the table above it.
    nb = read("classroom.ipynb")
    markdown = " ".join(c.source for c in nb.cells if c.cell_type == "markdown")
    assert "then press **Start the lesson**" not in markdown
    assert "*Run All* shows every table at its lesson's first question" in markdown
    last, table = nb.cells[-1], nb.cells[-2]
    assert last.cell_type == "code" and last.source.startswith("five.moment(1)")
    assert table.source.startswith("five = replay(")


NAMES = {"two": 2, "three": 3, "four": 4, "five": 5}
TABLE = re.compile(r'^(?P<var>\w+) = replay\(GAMES / "game-(?P<n>\d)-seats\.json", '
                   r"show_odds=False\)$")
MOVE = re.compile(r"^(?P<var>\w+)\.moment\((?P<k>\d+)\)  # the (?P<n>\d)-player table above")


def test_classroom_binds_each_games_table_to_its_own_name() -> None:
    # Every cell names the table it moves, and each table is made and shown once: a cell
    # run again moves its own table, never the last one made (issue 22).
    nb = read("classroom.ipynb")
    made: list[str] = []
    moved: list[str] = []
    for cell in nb.cells:
        if cell.cell_type != "code" or "import" in cell.source:
            continue
        lines = cell.source.splitlines()
        if m := TABLE.match(lines[0]):
            assert NAMES[m["var"]] == int(m["n"]) and lines[1:] == [m["var"]]
            made.append(m["var"])
        else:
            assert len(lines) == 1 and (m := MOVE.match(lines[0])), lines
            assert NAMES[m["var"]] == int(m["n"]) and m["var"] in made
            moved.append(m["var"])
    assert made == moved == list(NAMES)
    assert " w " not in json.dumps([c.source for c in nb.cells])


def test_the_lessons_peek_is_asked_from_the_peekers_view_and_answered_after_it() -> None:
    from tenleave_widget import Game

    found = 0
    for n in (2, 3, 4, 5):
        path = EXAMPLES / "games" / f"game-{n}-seats.json"
        rec = json.loads(path.read_text(encoding="utf-8"))
        for m in rec["lesson"]["moments"]:
            raw = rec["turns"][m["turn"]] if m["turn"] < len(rec["turns"]) else {}
            if "peek" not in raw or "perspective" not in m:
                continue
            found += 1
            seat = m["perspective"]
            assert seat == raw["seat"]  # the peeker's view, before the peek
            q, i = raw["peek"]
            card = Game.from_record(rec, turns=m["turn"]).view(None)["queues"][q][i]
            before = Game.from_record(rec, turns=m["turn"]).view(seat)
            after = Game.from_record(rec, turns=m["turn"] + 1).view(seat)

            def value(view: dict[str, Any], key: int = card["key"]) -> Any:
                return next(c["value"] for cs in view["queues"] for c in cs if c["key"] == key)

            assert value(before) is None and value(after) == card["value"]
            assert f"its value, {card['value']}:" in m["answer"]
    assert found == 1  # the peek is taught once


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
    # Run All leaves the student at the table: it is the last cell
    assert len(code) == 2 and "play(" in code[1].source and nb.cells[-1] is code[1]
    nb.cells += [nbformat.v4.new_code_cell(FINISH_GAME), nbformat.v4.new_code_cell("scores()")]
    client(nb).execute()
    keep("play.ipynb", nb)
    scores = text_of(nb.cells[-1])
    assert "Winner:" in scores or "Shared win:" in scores, scores
    assert scores.count("penalty") == 3
    assert shows_plotly(nb)


def test_lookahead_notebook_runs_and_the_two_views_disagree() -> None:
    nb = read("lookahead.ipynb")
    client(nb).execute()
    keep("lookahead.ipynb", nb)
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


def test_inference_notebook_bayes_by_hand_agrees_and_a_peek_changes_the_play() -> None:
    """Bayes' rule by hand in exact fractions is the posterior of ``infer``; the reading of
    careful players beats the uniform model on the cards; the peek's worth is positive and
    some value it could show changes the best play."""
    nb = read("inference.ipynb")
    client(nb).execute()
    keep("inference.ipynb", nb)
    assert shows_plotly(nb)
    text = "".join(text_of(c) for c in nb.cells)
    assert "prior: {3: '2/5', 4: '2/5', 5: '1/5'}" in text
    assert "= 128/145 = 0.8828" in text and "infer agrees" in text
    assert "Biggest change: Cy's marked card on queue 1" in text  # the table's own panel
    losses = dict(re.findall(r"(uniform|inferred): log-loss ([0-9.]+)", text))
    assert float(losses["inferred"]) < float(losses["uniform"]) - 0.1, losses
    # the reliability chart: what the text says of it is what its bins show
    bins = [(float(mean), float(low), float(high)) for mean, low, high in re.findall(
        r"inferred bin [0-9.-]+: +\d+ predictions, mean ([0-9.]+), came true [0-9.]+ "
        r"\[([0-9.]+), ([0-9.]+)\]", text)]
    assert len(bins) >= 3, text
    for mean, low, high in (bins[0], bins[-1]):  # "near 0 and near 1 ... it is right"
        assert low - 0.05 <= mean <= high + 0.05, (mean, low, high)
    markdown = " ".join(" ".join(c.source.split()) for c in nb.cells if c.cell_type == "markdown")
    off = [b for b in bins[1:-1] if not b[1] <= b[0] <= b[2]]
    assert "stay near the diagonal" not in markdown
    assert bool(off) == ("zigzag well away from the diagonal" in markdown), off
    worth = re.search(r"the best peek: .* \(worth ([0-9.]+) points of margin\)", text)
    assert worth and float(worth.group(1)) > 0.1, text
    assert "the peek changes the best play: yes" in text


def test_class_report_notebook_runs_and_the_student_improves(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("CLASS_REPORT_SAMPLES", "1")  # the smallest budget: a smoke run
    nb = read("class_report.ipynb")
    client(nb).execute()
    keep("class_report.ipynb", nb)
    text = "".join(text_of(c) for c in nb.cells)
    assert "decisions judged" in text
    assert "judged by the rules alone (the uniform model" in text
    m = re.search(r"Sam's accuracy: (\d+) in games 1-6, (\d+) in games 7-12", text)
    assert m, text
    assert int(m.group(2)) > int(m.group(1))  # random, then greedy
    assert shows_plotly(nb)  # the report's charts
    assert "plotly.js included" in text and "mean loss" in text
    assert "largest loss" in text and "clearest best" in text  # the positions
    widgets = [o for c in nb.cells for o in c.get("outputs", [])
               if "application/vnd.jupyter.widget-view+json" in o.get("data", {})]
    assert len(widgets) >= 2  # a position on the table, the practice set's table
    assert "puzzles. Puzzle 1 of" in text
    assert "Play your move on the table above" in text  # Run All plays no move for you
