"""The saved size of ``examples/play.ipynb`` after two runs, with JupyterLab's
"Save Widget State Automatically" on (what issue 11 measured at 10.4 MB when every table
carried a Plotly FigureWidget and its ~5 MB of JavaScript).

Starts a real JupyterLab (the browser tests' harness) on a copy of the notebook, runs all
its cells twice in Chromium, saves it from the File menu and prints the file's size.

    .venv/bin/python benchmarks/bench_saved_size.py

With ``replay`` it measures, without a browser, the widget state one replay table (as in
``examples/classroom.ipynb``) carries into a saved notebook: the JSON of every widget
model under it, before and after a review (the review's graph is a FigureWidget):

    .venv/bin/python benchmarks/bench_saved_size.py replay
"""

from __future__ import annotations

import json
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from browser.driver import open_and_run, run_again_and_save, wait_idle  # noqa: E402
from browser.harness import CHROMIUM, lab_server  # noqa: E402


def widget_state_bytes(widget: Any) -> int:
    """The size of the JSON state of ``widget`` and of every widget model under it."""
    import ipywidgets

    seen: dict[str, int] = {}

    def walk(w: Any) -> None:
        if w.model_id in seen:
            return
        seen[w.model_id] = len(json.dumps(w.get_state(), default=str))
        for name in w.keys:
            value = getattr(w, name)
            for item in value if isinstance(value, (list, tuple)) else [value]:
                if isinstance(item, ipywidgets.Widget):
                    walk(item)

    walk(widget)
    return sum(seen.values())


def replay() -> None:
    from tenleave_widget.widget import replay_widget

    game = ROOT / "examples" / "games" / "game-3-seats.json"
    w = replay_widget(game, turn=5)
    before = widget_state_bytes(w)
    w.review(samples=2, seed=1)
    after = widget_state_bytes(w)
    print(f"a replay table's widget state: {before:,} bytes without a review, "
          f"{after:,} bytes with one (its graph)")


def main() -> None:
    if sys.argv[1:] == ["replay"]:
        replay()
        return
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        src = tmp / "src"
        src.mkdir()
        shutil.copy(ROOT / "examples" / "play.ipynb", src / "play.ipynb")
        with lab_server(tmp, [src / "play.ipynb"]) as lab, sync_playwright() as pw:
            lab.save_widget_state(True)
            browser = pw.chromium.launch(executable_path=str(CHROMIUM))
            try:
                page = browser.new_page(viewport={"width": 1400, "height": 1000})
                root = open_and_run(page, lab, "play.ipynb")
                wait_idle(page, root, 0)
                run_again_and_save(page)  # the second run, then File > Save
            finally:
                browser.close()
            path = lab.root / "play.ipynb"
            nb = json.loads(path.read_text())
            models = nb["metadata"]["widgets"]["application/vnd.jupyter.widget-state+json"]
            print(f"play.ipynb after two runs, widget state saved: {path.stat().st_size:,} "
                  f"bytes ({len(models['state'])} widget models)")


if __name__ == "__main__":
    main()
