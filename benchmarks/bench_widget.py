"""Browser benchmark of the widget: click -> table updated, click -> panels updated.

Starts a real JupyterLab (the browser tests' harness), opens a notebook with
``play(...)`` in Debian's Chromium, and measures INSIDE the page, for each move, from the
click (``performance.now()`` just before the button's click event is dispatched) to

* the table updated: the widget root's ``data-pending`` attribute changed (it is set when
  the new state from Python has been drawn), seen by a MutationObserver;
* the panels updated: the odds panels' Plotly charts (the figures Python composes and
  syncs with the table state, drawn by the bundled plotly.js with ``Plotly.react``, in
  place) redrawn: the panels' ``data-revision`` attribute, set once every chart of the new
  state has been drawn, changed.

A move is a round trip through Python: "Play here" (Python checks it with the engine,
previews the turn, recomputes the odds) and "Start the turn again" (the same, back).

    .venv/bin/python benchmarks/bench_widget.py --moves 25

The moves panel's whole-game evaluation (issue 9: it runs in slices on the kernel's event
loop whenever the human is to move) is switched off for a first block of moves and on for
a second, in the same page and kernel, so the two are compared in one run (``--lookahead
on`` or ``off`` measures one block only). With it on, "Start the turn again" restarts the
evaluation and the next "Play here" click arrives while it runs.

Prints the medians (and the 90th percentiles) in milliseconds, and a JSON line.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from browser.driver import Kernel, open_and_run, wait_idle  # noqa: E402
from browser.harness import CHROMIUM, lab_server  # noqa: E402
from browser.notebooks import write_notebooks  # noqa: E402

MEASURE_JS = """async (selector) => {
    const root = document.querySelector('.tl-root');
    const oldPanels = root.querySelector('.tl-panels');
    const button = root.querySelector(selector);
    if (!button) throw new Error('no button ' + selector);
    const pending = root.dataset.pending;
    let tTable = null, tPanels = null;
    const done = new Promise((resolve, reject) => {
        const check = () => { if (tTable !== null && tPanels !== null) resolve(); };
        const tableObs = new MutationObserver(() => {
            if (tTable === null && root.dataset.pending !== pending) {
                tTable = performance.now(); tableObs.disconnect(); check();
            }
        });
        tableObs.observe(root, {attributes: true, attributeFilter: ['data-pending']});
        // the panels are updated in place (Plotly.react): their data-revision counts the
        // states drawn
        const revision = oldPanels ? oldPanels.dataset.revision : null;
        const panelObs = new MutationObserver(() => {
            const now = root.querySelector('.tl-panels');
            if (tPanels === null && now !== null && now.dataset.revision !== revision) {
                tPanels = performance.now(); panelObs.disconnect(); check();
            }
        });
        panelObs.observe(root, {subtree: true, attributes: true,
                                attributeFilter: ['data-revision']});
        setTimeout(() => reject(new Error('timeout')), 10000);
    });
    const t0 = performance.now();
    button.click();
    await done;
    return {table: tTable - t0, panels: tPanels - t0};
}"""


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=25, help="play+take-back cycles")
    parser.add_argument("--pause", type=int, default=300,
                        help="ms between clicks (a person's pace; lets the kernel settle)")
    parser.add_argument("--lookahead", choices=("both", "off", "on"), default="both",
                        help="the moves panel's whole-game evaluation: off, on, or both blocks")
    args = parser.parse_args()
    if not CHROMIUM.exists():
        raise SystemExit(f"{CHROMIUM} is missing: apt-get install chromium")
    from playwright.sync_api import sync_playwright

    blocks = ["off", "on"] if args.lookahead == "both" else [args.lookahead]
    results = {}
    with tempfile.TemporaryDirectory() as tmpdir:
        tmp = Path(tmpdir)
        src = tmp / "src"
        src.mkdir()
        with lab_server(tmp, write_notebooks(src)) as lab, sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=str(CHROMIUM))
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            root = open_and_run(page, lab, "bench.ipynb")
            kernel = Kernel(lab, "bench.ipynb")
            wait_idle(page, root, 0)
            page.wait_for_timeout(1000)
            for block in blocks:
                kernel.eval(f"setattr(b.session.lookahead, 'enabled', {block == 'on'})")
                results[block] = measure(page, root, args.moves, args.pause)
                if block == "on":
                    results[block]["worlds_per_position"] = kernel.eval(
                        "b.session.lookahead.budget")
            kernel.close()
            browser.close()
    for block, result in results.items():
        print(f"whole-game evaluation {block}: {result['moves']} moves (play + take back), "
              "measured in the page:")
        print(f"  click -> table updated : median {result['table_median_ms']} ms, "
              f"p90 {result['table_p90_ms']} ms (play clicks: median "
              f"{result['play_table_median_ms']} ms)")
        print(f"  click -> panels updated: median {result['panels_median_ms']} ms, "
              f"p90 {result['panels_p90_ms']} ms")
    if len(results) == 2:
        for key in ("table_median_ms", "play_table_median_ms", "panels_median_ms"):
            print(f"  on/off {key}: x{results['on'][key] / results['off'][key]:.2f}")
    print(json.dumps(results))


def measure(page: Any, root: Any, moves: int, pause: int) -> dict[str, Any]:
    """``moves`` play + take-back cycles, each click timed in the page."""
    samples: dict[str, list[dict[str, float]]] = {"play": [], "reset": []}
    hand = root.locator(".tl-handbtn")
    queues = root.locator(".tl-queue").count()
    for move in range(moves):
        hand.nth(move % hand.count()).click()  # choosing a card: browser only
        q = move % queues
        page.wait_for_timeout(pause)
        samples["play"].append(page.evaluate(MEASURE_JS, f"[data-testid='play-{q}']"))
        page.wait_for_timeout(pause)
        samples["reset"].append(page.evaluate(MEASURE_JS, "[data-testid='reset']"))
    every = samples["play"] + samples["reset"]
    return {
        "moves": len(every),
        "table_median_ms": round(statistics.median(s["table"] for s in every), 1),
        "table_p90_ms": round(percentile([s["table"] for s in every], 0.9), 1),
        "panels_median_ms": round(statistics.median(s["panels"] for s in every), 1),
        "panels_p90_ms": round(percentile([s["panels"] for s in every], 0.9), 1),
        "play_table_median_ms": round(statistics.median(s["table"] for s in samples["play"]), 1),
        "play_panels_median_ms": round(
            statistics.median(s["panels"] for s in samples["play"]), 1
        ),
    }

if __name__ == "__main__":
    main()
