"""Clicks in the JupyterLite site while *Review this game* runs: how long each waits.

Builds (or reuses: ``tests/browser/test_lite.py``'s cache) the site ``make lite`` makes,
serves it on 127.0.0.1 and, ``--runs`` times in a fresh page of Debian's Chromium
(1280x720, so a fresh Pyodide kernel each time), opens the 3-seat sample game's replay,
starts its review and clicks the replay's next / previous buttons while it runs, as
``tests/browser/test_lite_review.py`` does: each click's milliseconds from the click to
the table showing the turn it asked for (the page's clock), and the review's progress at
the click and at the answer. Prints the median and the maximum over every click and per
run, and writes them (with the load) to ``--out``.

    nice -n 10 .venv/bin/python benchmarks/bench_lite_review.py --runs 5 --clicks 30 \\
        --out benchmarks/results/lite_review.json
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from browser.harness import CHROMIUM  # noqa: E402
from browser.test_lite import built_site, serve  # noqa: E402
from browser.test_lite_review import CLICKS, clicks_during_a_review  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="reviews, each in a fresh page")
    parser.add_argument("--clicks", type=int, default=CLICKS,
                        help="the most clicks per review (one per decision at most; the "
                        "3-seat game has 30)")
    parser.add_argument("--out", type=Path, help="write the figures here (JSON)")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    loads = [os.getloadavg()[0]]
    runs: list[dict[str, Any]] = []
    with serve(built_site()) as url, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM))
        for i in range(args.runs):
            page = browser.new_page(viewport={"width": 1280, "height": 720})
            clicks = clicks_during_a_review(page, url, args.clicks)
            page.close()
            loads.append(os.getloadavg()[0])
            ms = [c["ms"] for c in clicks]
            runs.append({"clicks": clicks, "median_ms": round(statistics.median(ms), 1),
                         "max_ms": round(max(ms), 1), "load": round(loads[-1], 1)})
            print(f"run {i + 1}: {len(ms)} clicks, median {runs[-1]['median_ms']} ms, "
                  f"max {runs[-1]['max_ms']} ms (load {loads[-1]:.1f})", flush=True)
        browser.close()
    every = [c["ms"] for r in runs for c in r["clicks"]]
    med, top = statistics.median(every), max(every)
    aims = {"median_ms<=500": "met" if med <= 500 else "MISSED",
            "max_ms<=1000": "met" if top <= 1000 else "MISSED"}
    print(f"{len(every)} clicks in {len(runs)} reviews: median {med:.0f} ms, max {top:.0f} ms "
          f"({aims})")
    if args.out:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT,
                                capture_output=True, text=True).stdout.strip()
        args.out.write_text(json.dumps({
            "command": "benchmarks/bench_lite_review.py " + " ".join(sys.argv[1:]),
            "title": "JupyterLite: a click during Review this game, click -> table (ms)",
            "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
            "commit": commit,
            "machine": f"{platform.machine()}, {os.cpu_count()} cores (shared)",
            "load": f"1-min load average {min(loads):.1f}-{max(loads):.1f}",
            "viewport": "1280x720",
            "clicks": len(every), "median_ms": round(med, 1), "max_ms": round(top, 1),
            "aims": aims, "runs": runs,
        }, indent=1) + "\n")


if __name__ == "__main__":
    main()
