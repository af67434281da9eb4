"""The notebooks the browser tests open (written afresh for every session)."""

from __future__ import annotations

from pathlib import Path

import nbformat

GAME = Path(__file__).resolve().parents[2] / "examples" / "games" / "game-3-seats.json"

PLAY = [
    "import tenleave_widget.widget as tw",
    "w = tw.play(players=3, human=0, bots=['greedy', 'random'], seed=7, bot_delay=0.3)\nw",
]

COACHED = [
    "import tenleave_widget.widget as tw",
    "w = tw.play(players=2, human=0, bots=['greedy'], seed=7, bot_delay=0.1, coach='after',"
    " coach_samples=4)\nw",
]

COACH_BEFORE = [  # the coach asks about every move clearly worse than the best (threshold 0;
    # 8 worlds a round: at 2 its simultaneous intervals leave few moves clearly worse)
    "import tenleave_widget.widget as tw",
    "cb = tw.play(players=2, human=0, bots=['greedy'], seed=7, bot_delay=0, coach='before',"
    " coach_samples=8)\ncb.coach_threshold = 0.0\ncb",
]

REPLAY = [
    "import tenleave_widget.widget as tw",
    "r = tw.replay('game.json', seat=None)\nr",
]

BENCH = [
    "import tenleave_widget.widget as tw",
    "b = tw.play(players=3, human=0, bots=['greedy', 'random'], seed=11, bot_delay=0.05)\nb",
]


KEYS = [
    "import tenleave_widget.widget as tw",
    "k = tw.play(players=3, human=0, bots=['greedy', 'random'], seed=5, bot_delay=0.02)\nk",
]

PROJECTOR = [  # the largest table: 5 seats, 3 queues, a swat on the table (turn 12)
    "import tenleave_widget.widget as tw",
    "p = tw.replay('game5.json', seat=None, turn=12)\np",
]

SAVED = [
    "import tenleave_widget.widget as tw",
    "s = tw.play(players=3, human=0, bots=['greedy', 'random'], seed=3, bot_delay=0.02)\ns",
]

HOTSEAT = [  # two humans on one screen: the cover between their turns
    "import tenleave_widget.widget as tw",
    "hs = tw.hotseat(2, seed=4)\nhs",
]

OVER = [  # a play table whose game is over (the sample record, all turns): Play again
    "import tenleave_widget.widget as tw\nfrom tenleave_widget.engine.game import Game",
    "over = tw.TenLeaveWidget(Game.from_record('game.json'), mode='play', humans=[0],"
    " bots={1: 'greedy', 2: 'random'}, seed=2, bot_delay=0.02)\nover",
]

LOOK = [
    "import tenleave_widget.widget as tw",
    "look = tw.play(players=3, human=0, bots=['lookahead', 'greedy'], seed=7, bot_delay=0.05)"
    "\nlook",
]

SUGGEST = [  # what their plays suggest: two greedy bots, whose plays say much (issue 19)
    "import tenleave_widget.widget as tw",
    "sg = tw.play(players=3, human=0, bots=['greedy', 'greedy'], seed=7, bot_delay=0.05)\nsg",
]


def _notebook(cells: list[str]) -> nbformat.NotebookNode:
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(src) for src in cells]
    nb.metadata["kernelspec"] = {
        "name": "python3", "display_name": "Python 3", "language": "python"
    }
    return nb


def write_notebooks(folder: Path) -> list[Path]:
    paths = []
    for name, cells in (("play.ipynb", PLAY), ("replay.ipynb", REPLAY), ("bench.ipynb", BENCH),
                        ("keys.ipynb", KEYS), ("saved.ipynb", SAVED),
                        ("projector.ipynb", PROJECTOR), ("lookahead.ipynb", LOOK),
                        ("hotseat.ipynb", HOTSEAT), ("over.ipynb", OVER),
                        ("coached.ipynb", COACHED), ("asked.ipynb", COACH_BEFORE),
                        ("suggest.ipynb", SUGGEST)):
        p = folder / name
        nbformat.write(_notebook(cells), p)
        paths.append(p)
    game = folder / "game.json"  # an annotated record of the project's sample games
    game.write_text(GAME.read_text())
    game5 = folder / "game5.json"
    game5.write_text((GAME.parent / "game-5-seats.json").read_text())
    paths.append(game5)
    paths.append(game)
    return paths
