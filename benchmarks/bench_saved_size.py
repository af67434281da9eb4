"""The saved size of ``examples/play.ipynb`` after two runs, with JupyterLab's
"Save Widget State Automatically" on (what issue 11 measured at 10.4 MB when every table
carried a Plotly FigureWidget and its ~5 MB of JavaScript).

Starts a real JupyterLab (the browser tests' harness) on a copy of the notebook, runs all
its cells twice in Chromium, saves it from the File menu and prints the file's size.

    .venv/bin/python benchmarks/bench_saved_size.py

With ``classroom`` it does the same for ``examples/classroom.ipynb`` (one replay table per
sample game, four in all) run once and saved:

    .venv/bin/python benchmarks/bench_saved_size.py classroom

With ``replay`` it measures, without a browser, the widget state one replay table (as in
``examples/classroom.ipynb``) carries into a saved notebook: the JSON of every widget
model under it (the plotly.js runtime it references included), before and after a review
(the review's graph is one more panel of the table):

    .venv/bin/python benchmarks/bench_saved_size.py replay

The kernel imports ``tenleave_widget`` from ``PYTHONPATH``: to compare two trees in one
run, run the script once with each tree's path (each tree's ``static/`` built).
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
    from tenleave_widget.widget import replay

    game = ROOT / "examples" / "games" / "game-3-seats.json"
    w = replay(game, turn=5)
    before = widget_state_bytes(w)
    w.review(samples=2, seed=1)
    after = widget_state_bytes(w)
    from tenleave_widget.widget.plotly_runtime import plotly_runtime

    shared = len(json.dumps(plotly_runtime().get_state(), default=str))
    print(f"a replay table's widget state: {before:,} bytes without a review, "
          f"{after:,} bytes with one (its graph); of which {shared:,} bytes are the "
          f"plotly.js runtime, saved once per notebook however many tables it holds")


def save(page: Any) -> None:
    """File > Save, and wait until the notebook is written."""
    page.click("#jp-MainMenu >> text=File")
    page.click('.lm-Menu-item[data-command="docmanager:save"]')
    page.wait_for_function("() => !document.querySelector('.jp-mod-dirty')", timeout=20_000)


def run_classroom(page: Any, lab: Any) -> None:
    """Run every cell of classroom.ipynb once (its four tables drawn and moved) and save."""
    open_and_run(page, lab, "classroom.ipynb", panels=False)
    page.wait_for_function("() => document.querySelectorAll('.tl-root').length === 4",
                           timeout=120_000)
    last = len([c for c in json.loads((ROOT / "examples" / "classroom.ipynb").read_text())
                ["cells"] if c["cell_type"] == "code"])
    page.wait_for_function(  # the last code cell has run (its prompt numbered)
        f"() => [...document.querySelectorAll('.jp-InputArea-prompt')]"
        f".some(p => p.textContent.includes('[{last}]'))", timeout=120_000)
    save(page)


def run_play(page: Any, lab: Any) -> None:
    """Run every cell of play.ipynb twice (the second table replaces the first) and save."""
    root = open_and_run(page, lab, "play.ipynb")
    wait_idle(page, root, 0)
    run_again_and_save(page)  # the second run, then File > Save


def saved(notebook: str, runs: str) -> None:
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        src = tmp / "src"
        src.mkdir()
        shutil.copy(ROOT / "examples" / notebook, src / notebook)
        with lab_server(tmp, [src / notebook]) as lab, sync_playwright() as pw:
            shutil.copytree(ROOT / "examples" / "games", lab.root / "games")
            lab.save_widget_state(True)
            browser = pw.chromium.launch(executable_path=str(CHROMIUM))
            try:
                page = browser.new_page(viewport={"width": 1400, "height": 1000})
                (run_classroom if notebook == "classroom.ipynb" else run_play)(page, lab)
            finally:
                browser.close()
            path = lab.root / notebook
            nb = json.loads(path.read_text())
            models = nb["metadata"]["widgets"]["application/vnd.jupyter.widget-state+json"]
            esm = sum(len(m["state"].get("_esm", "")) for m in models["state"].values())
            print(f"{notebook} {runs}, widget state saved: {path.stat().st_size:,} bytes "
                  f"({len(models['state'])} widget models, {esm:,} bytes of ESM)")


def main() -> None:
    if sys.argv[1:] == ["replay"]:
        replay()
    elif sys.argv[1:] == ["classroom"]:
        saved("classroom.ipynb", "run once")
    else:
        saved("play.ipynb", "after two runs")


if __name__ == "__main__":
    main()
