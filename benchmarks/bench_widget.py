"""Browser benchmark of the widget: click -> table updated, click -> panels updated.

Starts a real JupyterLab (the browser tests' harness), opens a notebook with
``play(...)`` in Debian's Chromium, and measures INSIDE the page, for each move, from the
click (``performance.now()`` just before the button's click event is dispatched) to

* the table updated: the widget root's ``data-pending`` attribute changed (it is set when
  the new state from Python has been drawn), seen by a MutationObserver;
* the panels updated: the odds panels (SVG/HTML drawn by the widget's bundle from the
  panel data Python syncs with the table state) replaced by the newly drawn ones.

A move is a round trip through Python: "Play here" (Python checks it with the engine,
previews the turn, recomputes the odds) and "Start the turn again" (the same, back).

    .venv/bin/python benchmarks/bench_widget.py --moves 25

Prints the medians (and the 90th percentiles) in milliseconds, and a JSON line.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from browser.driver import open_and_run, wait_idle  # noqa: E402
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
        const panelObs = new MutationObserver(() => {
            const now = root.querySelector('.tl-panels');
            if (tPanels === null && now !== null && now !== oldPanels) {
                tPanels = performance.now(); panelObs.disconnect(); check();
            }
        });
        panelObs.observe(root, {subtree: true, childList: true});
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
    args = parser.parse_args()
    if not CHROMIUM.exists():
        raise SystemExit(f"{CHROMIUM} is missing: apt-get install chromium")
    from playwright.sync_api import sync_playwright

    samples: dict[str, list[dict[str, float]]] = {"play": [], "reset": []}
    with tempfile.TemporaryDirectory() as tmpdir:
        tmp = Path(tmpdir)
        src = tmp / "src"
        src.mkdir()
        with lab_server(tmp, write_notebooks(src)) as lab, sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=str(CHROMIUM))
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            root = open_and_run(page, lab, "bench.ipynb")
            wait_idle(page, root, 0)
            page.wait_for_timeout(1000)
            hand = root.locator(".tl-handbtn")
            queues = root.locator(".tl-queue").count()
            for move in range(args.moves):
                hand.nth(move % hand.count()).click()  # choosing a card: browser only
                q = move % queues
                page.wait_for_timeout(args.pause)
                samples["play"].append(page.evaluate(MEASURE_JS, f"[data-testid='play-{q}']"))
                page.wait_for_timeout(args.pause)
                samples["reset"].append(page.evaluate(MEASURE_JS, "[data-testid='reset']"))
            browser.close()
    every = samples["play"] + samples["reset"]
    result = {
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
    print(f"{result['moves']} moves (play + take back), measured in the page:")
    print(f"  click -> table updated : median {result['table_median_ms']} ms, "
          f"p90 {result['table_p90_ms']} ms")
    print(f"  click -> panels updated: median {result['panels_median_ms']} ms, "
          f"p90 {result['panels_p90_ms']} ms")
    print(json.dumps(result))


if __name__ == "__main__":
    main()
