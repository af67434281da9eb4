"""The notebooks the browser tests open (written afresh for every session)."""

from __future__ import annotations

import json
from pathlib import Path

import nbformat

from tenleave_widget.bots import make_bot
from tenleave_widget.game import Game

PLAY = [
    "import tenleave_widget.widget as tw",
    "w = tw.play(players=3, human=0, bots=['greedy', 'random'], seed=7, bot_delay=0.3)\nw",
]

REPLAY = [
    "import tenleave_widget.widget as tw",
    "r = tw.replay_widget('game.json', seat=None)\nr",
]

BENCH = [
    "import tenleave_widget.widget as tw",
    "b = tw.play(players=3, human=0, bots=['greedy', 'random'], seed=11, bot_delay=0.05)\nb",
]


def recorded_game(seed: int = 5) -> dict[str, object]:
    """A whole game of bots, with two notes, as a record."""
    g = Game(["Ana", "Ben", "Cy"], seed=seed)
    bots = [make_bot("greedy", seed), make_bot("random", seed + 1), make_bot("greedy", seed + 2)]
    while not g.finished:
        seat = g.to_move
        assert seat is not None
        g.apply(bots[seat].choose(g))
    rec = g.to_record(notes={0: "Ana opens on queue 1.", 5: "Watch the queue sums here."})
    return dict(rec)


def _notebook(cells: list[str]) -> nbformat.NotebookNode:
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(src) for src in cells]
    nb.metadata["kernelspec"] = {
        "name": "python3", "display_name": "Python 3", "language": "python"
    }
    return nb


def write_notebooks(folder: Path) -> list[Path]:
    paths = []
    for name, cells in (("play.ipynb", PLAY), ("replay.ipynb", REPLAY), ("bench.ipynb", BENCH)):
        p = folder / name
        nbformat.write(_notebook(cells), p)
        paths.append(p)
    game = folder / "game.json"
    game.write_text(json.dumps(recorded_game()))
    paths.append(game)
    return paths
