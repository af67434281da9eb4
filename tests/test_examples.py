"""The example notebooks: stored without outputs, and each runs top to bottom in a real
kernel (nbclient). The play notebook's game is finished between its two cells by a bot
playing the human seat through the widget's intents, as clicks would."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

import nbformat
import pytest
from nbclient import NotebookClient

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
NOTEBOOKS = ["play.ipynb", "classroom.ipynb", "odds.ipynb", "analysis.ipynb"]
TIMEOUT = 600  # per cell: only a guard against a hang, not a speed test

FINISH_GAME = """
from tenleave_widget.bots import make_bot

w.bot_delay = 0  # the bots answer at once
_player = make_bot("greedy", seed=5)
while not w.game.finished:
    _game = w.game
    assert _game.to_move == 0, "the bots move by themselves"
    for _step in _player.choose(_game).steps():
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


def test_analysis_notebook_runs_with_progress_bars_and_charts() -> None:
    nb = read("analysis.ipynb")
    client(nb).execute()
    assert shows_plotly(nb)
    bars = [o for c in nb.cells for o in c.get("outputs", [])
            if "application/vnd.jupyter.widget-view+json" in o.get("data", {})]
    assert len(bars) >= 4  # one tqdm bar per simulation
    text = "".join(text_of(c) for c in nb.cells)
    assert "mean penalty (95% CI)" in text


def test_classroom_notebook_steps_through_every_game() -> None:
    nb = read("classroom.ipynb")
    check = nbformat.v4.new_code_cell("print(w.turn, w.game.turns_applied, w.game.finished)")
    nb.cells.append(check)
    client(nb).execute()
    assert text_of(nb.cells[-1]).split() == ["50", "50", "True"]  # the 5-seat game's end


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
