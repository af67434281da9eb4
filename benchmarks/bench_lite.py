"""The widget in the JupyterLite site (issue 25): the Pyodide kernel against CPython.

Builds (or reuses: ``tests/browser/test_lite.py``'s cache) the site ``make lite`` makes,
serves it on 127.0.0.1 and opens ``play.ipynb`` in Debian's Chromium, then measures

* the time to a ready kernel (the status bar says Idle) and to the first table, from the
  navigation (no browser cache);
* click -> table updated in the Pyodide kernel, inside the page, by ``bench_widget.py``'s
  method and moves ("Play here", then "Start the turn again"), the moves panel's
  whole-game evaluation on (as a student has it);
* a lookahead bot's decision (3 seats, the first ``--turns`` decisions of ``--games``
  games, the bot's default budget): its median in the browser's kernel (a cell typed into
  the notebook) and here in CPython, the same code, in ``--rounds`` paired rounds (CPython
  then the browser, alternately), and the median of the rounds' ratios.

    nice -n 10 .venv/bin/python benchmarks/bench_lite.py --moves 10

Prints the figures and a JSON line.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_widget import Tree, measure, summary  # noqa: E402
from browser.driver import wait_idle  # noqa: E402
from browser.harness import CHROMIUM  # noqa: E402
from browser.test_lite import built_site, open_and_run, run_cell, serve  # noqa: E402

DECISIONS = """\
import time, statistics
from tenleave_widget import Game
from tenleave_widget.analysis.bots import decide, make_bot
ms = []
for seed in range({games}):
    g = Game(3, seed=seed)
    for _ in range({turns}):
        t = time.perf_counter()
        turn = decide(make_bot("lookahead", seed=seed), g)
        ms.append((time.perf_counter() - t) * 1000)
        g.apply(turn)
result = (round(statistics.median(ms), 1), len(ms))
print("DECISION_MS", *result)
"""
"""The decisions timed, in the browser's kernel (typed as one ``exec`` line) and here."""


def decisions_here(games: int, turns: int) -> float:
    """The median decision (ms) in this CPython, the same code as in the browser."""
    scope: dict[str, object] = {}
    exec(DECISIONS.format(games=games, turns=turns), scope)
    result = scope["result"]
    assert isinstance(result, tuple)  # (median ms, decisions), as DECISIONS sets it
    return float(result[0])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=10, help="play+take-back cycles")
    parser.add_argument("--pause", type=int, default=300, help="ms between clicks")
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--turns", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=3,
                        help="paired CPython/Pyodide rounds of the decisions")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    site = built_site()
    with serve(site) as url, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM))
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        root, ready, first_table = open_and_run(page, url, "play.ipynb")
        wait_idle(page, root, 0)
        page.wait_for_timeout(1000)
        samples = measure(page, root, args.moves, args.pause, Tree(ROOT, "lite").revisioned)
        clicks = summary(samples, [s for s in samples if s["kind"] == "play"])

        # paired rounds on a shared machine: CPython, then the browser, alternately; the
        # ratio is taken per round (both sides under the load of that moment)
        code = DECISIONS.format(games=args.games, turns=args.turns)
        rounds = []
        for _ in range(args.rounds):
            here = decisions_here(args.games, args.turns)
            cell = run_cell(page, f"exec({code!r})")
            out = cell.locator(".jp-OutputArea-output", has_text="DECISION_MS").first
            out.wait_for(timeout=600_000)
            rounds.append((float(out.inner_text().split()[1]), here))
        browser.close()
    browser_ms = statistics.median(b for b, _ in rounds)
    cpython_ms = statistics.median(c for _, c in rounds)
    result = {
        "kernel_ready_s": round(ready, 1), "first_table_s": round(first_table, 1),
        "click_to_table": clicks, "decision_pyodide_ms": browser_ms,
        "decision_cpython_ms": round(cpython_ms, 1), "rounds": rounds,
        "decision_ratio": round(statistics.median(b / c for b, c in rounds), 2),
    }
    print(f"kernel ready {ready:.1f} s, first table {first_table:.1f} s after navigation")
    print(f"click -> table (Pyodide): median {clicks['table_median_ms']} ms, "
          f"p90 {clicks['table_p90_ms']} ms; panels median {clicks['panels_median_ms']} ms")
    print(f"lookahead decision: Pyodide {browser_ms} ms, CPython {cpython_ms:.1f} ms "
          f"(medians of {args.rounds} paired rounds), ratio x{result['decision_ratio']} "
          "(median of the rounds' ratios)")
    print(json.dumps(result))


if __name__ == "__main__":
    main()
