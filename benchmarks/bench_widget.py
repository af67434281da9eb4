"""Browser benchmark of the widget: click -> table updated, click -> panels updated, and
the first draw of a table; one tree, or two trees compared in one run.

Starts a real JupyterLab (the browser tests' harness), opens a notebook with
``play(...)`` in Debian's Chromium, and measures INSIDE the page, for each move, from the
click (``performance.now()`` just before the button's click event is dispatched) to

* the table updated: the widget root's ``data-pending`` attribute changed (it is set when
  the new state from Python has been drawn), seen by a MutationObserver;
* the panels updated: the first panels drawn at or after that table state. A tree whose
  panels are Plotly figures (drawn by the bundled plotly.js with ``Plotly.react``, in
  place) marks a drawn state with the panels' ``data-revision`` attribute, set once
  every chart's ``Plotly.react`` has settled; a tree with the former SVG panels draws
  them in one go and puts a new ``.tl-panels`` element in the page.

A move is a round trip through Python: "Play here" (Python checks it with the engine,
previews the turn, recomputes the odds) and "Start the turn again" (the same, back).

    .venv/bin/python benchmarks/bench_widget.py --moves 25

The moves panel's whole-game evaluation (issue 9: it runs in slices on the kernel's event
loop whenever the human is to move) is switched off for one block of moves and on for
another, in the same page and kernel, so the two are compared in one run (``--lookahead
on`` or ``off`` measures one block only). With it on, "Start the turn again" restarts the
evaluation and the next "Play here" click arrives while it runs.

**Two trees in one run** (``--compare-tree DIR``, e.g. a worktree of an older commit with
its bundle built): each tree's notebook puts that tree first on the kernel's ``sys.path``
(checked: ``tenleave_widget`` is imported from it), each in its own page; the blocks
alternate between the trees over ``--rounds`` rounds (the order flips every round), so a
load that comes and goes falls on both. Prints each tree's medians and 90th percentiles
and the ratio of the medians (this tree / the other) with a bootstrap 95% interval.

**The page's CPU per click** (``--cpu-moves``, by default as many as ``--moves``): after
each block of timed clicks, the same number again with the page traced through the
DevTools protocol (page_trace.py; the timed clicks are not traced, so tracing's own cost
stays out of their wall times). For each traced click, the renderer main thread's time on
a core: for the whole click, and for the click's state alone (from the task that handles
its message to the frame that shows its panels), split by activity (script, style,
layout, paint, GC) and by owner (plotly.js, the table's code, the widget manager,
JupyterLab, the browser's own rendering). A loaded machine stretches wall times; the
thread time much less, so compare trees and changes by it (the ratio is printed too).

**First draw of a table**: each tree's first table is drawn in a fresh kernel and page
(``--first-draws`` times, alternating trees), timed in the page from the "Run All" click
to the widget's output in the page, to the table, and to its panels drawn; the ESM
bundles' download, parse and evaluation are inside the output -> panels span. The main
thread's long tasks (PerformanceObserver ``longtask``) in that span are summed too.

    .venv/bin/python benchmarks/bench_widget.py --compare-tree /work/wt/svg --lookahead on

Prints the figures in milliseconds, then one JSON line.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import nbformat
import requests

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "benchmarks"))

from browser.driver import Kernel, wait_idle  # noqa: E402
from browser.harness import CHROMIUM, LabServer, lab_server  # noqa: E402
from page_trace import Tracer, medians  # noqa: E402

TIMEOUT = 120_000

# The aims (medians, ms): a click's table on screen before its charts, the charts soon
# after, and a table's first charts drawn soon after its output appears.
AIMS_MS = {"click_to_table": 30, "click_to_panels": 70, "first_output_to_panels": 200}

GAME = "b = tw.play(players=3, human=0, bots=['greedy', 'random'], seed=11, bot_delay=0.05)\nb"

# The click's timings: one observer, so a table change is always seen before the panel
# change of the same mutation batch (panels drawn before the click's state -- a chunk of
# the whole-game evaluation -- only move the baseline).
MEASURE_JS = """async ([selector, revisioned]) => {
    const root = document.querySelector('.tl-root');
    const button = root.querySelector(selector);
    if (!button) throw new Error('no button ' + selector);
    const pending = root.dataset.pending;
    const mark = () => {
        const p = root.querySelector('.tl-panels');
        return revisioned ? (p ? p.dataset.revision : null) : p;
    };
    let seen = mark();
    let tTable = null, tPanels = null;
    const longs = [];
    const longObs = new PerformanceObserver((list) => {
        for (const e of list.getEntries()) longs.push([e.startTime, e.duration]);
    });
    longObs.observe({type: 'longtask', buffered: false});
    const done = new Promise((resolve, reject) => {
        const obs = new MutationObserver(() => {
            const now = performance.now();
            if (tTable === null && root.dataset.pending !== pending) {
                tTable = now;
                performance.mark('tl-table');
            }
            const m = mark();
            if (m === seen || m === null || m === undefined) return;
            if (tTable === null) { seen = m; return; }
            tPanels = now; performance.mark('tl-panels'); obs.disconnect(); resolve();
        });
        obs.observe(root, {subtree: true, childList: true, attributes: true,
                           attributeFilter: ['data-pending', 'data-revision']});
        setTimeout(() => reject(new Error(
            `no table and panels drawn in 10 s after ${selector}: data-pending ${pending} -> `
            + `${root.dataset.pending}, table seen ${tTable !== null}, panels mark ${seen} -> `
            + `${mark()}`)), 10000);
    });
    performance.mark('tl-click');  // for the page's CPU (page_trace.py), when traced
    const t0 = performance.now();
    button.click();
    await done;
    // the page's own work on the state the click brought: the long task (over 50 ms)
    // that drew its panels, from its start (0 if none was that long)
    await new Promise((resolve) => setTimeout(resolve, 100));
    longObs.disconnect();
    const task = longs.find(([start, d]) => start <= tPanels && tPanels <= start + d + 1);
    return {table: tTable - t0, panels: tPanels - t0, page: task ? tPanels - task[0] : 0};
}"""

# Installed before "Run All" in a fresh page and kernel: the first table's milestones.
FIRST_JS = """(revisioned) => {
    const t = {run: null, output: null, table: null, panels: null, plotly: null, longtasks: 0};
    window.__tlFirst = t;
    const longs = [];
    new PerformanceObserver((list) => {
        for (const e of list.getEntries()) longs.push([e.startTime, e.duration]);
    }).observe({type: 'longtask', buffered: false});
    const ran = (e) => {
        if (t.run === null && e.target.closest
            && e.target.closest('[data-command="runmenu:run-all"]')) t.run = performance.now();
    };
    for (const kind of ['pointerup', 'mouseup', 'click'])
        document.addEventListener(kind, ran, true);
    const drawn = (p) => p !== null && (!revisioned || p.dataset.revision !== undefined);
    const obs = new MutationObserver(() => {
        const now = performance.now();
        if (t.run === null) return;
        // plotly.js in the page (js/panels/plotly-slot.ts), seen at the next DOM change
        if (t.plotly === null && globalThis.__tenleave_plotly__?.plotly) t.plotly = now;
        if (t.output === null && document.querySelector(
            '.jp-OutputArea-executeResult .jp-OutputArea-output'))
            t.output = now;
        if (t.table === null && document.querySelector('.tl-root .tl-table, .tl-root .tl-main'))
            t.table = now;
        if (t.panels === null && drawn(document.querySelector('.tl-root .tl-panels'))) {
            t.panels = now;
            obs.disconnect();
            // long tasks still being reported come in the next frames
            setTimeout(() => {
                t.longtasks = longs.filter(([s, d]) => s + d > t.run && s < t.panels)
                                   .reduce((a, [s, d]) => a + d, 0);
                t.done = true;
            }, 500);
        }
    });
    obs.observe(document.body, {subtree: true, childList: true, attributes: true,
                                attributeFilter: ['data-revision']});
}"""


class Tree:
    """A source tree whose widget is measured (its bundle built)."""

    def __init__(self, path: Path, label: str) -> None:
        self.path = path.resolve()
        self.label = label
        panels = (self.path / "js" / "panels" / "panels.ts").read_text()
        # Plotly panels mark a drawn state (``dataset.revision``, or ``dataset["revision"]``
        # before the code was formatted); the former SVG panels do not
        self.revisioned = re.search(r"dataset(\.revision\b|\[\"revision\"\])", panels) is not None
        try:
            self.commit = subprocess.run(
                ["git", "-C", str(self.path), "rev-parse", "--short", "HEAD"],
                capture_output=True, text=True, check=True).stdout.strip()
        except (OSError, subprocess.CalledProcessError):
            self.commit = "?"

    def notebook(self, folder: Path, name: str) -> str:
        nb = nbformat.v4.new_notebook()
        nb.cells = [nbformat.v4.new_code_cell(src) for src in (
            f"import sys\nsys.path.insert(0, {str(self.path)!r})\n"
            "import tenleave_widget.widget as tw",
            GAME,
        )]
        nb.metadata["kernelspec"] = {
            "name": "python3", "display_name": "Python 3", "language": "python"}
        nbformat.write(nb, folder / name)
        return name


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def ratio_interval(a: list[float], b: list[float], rng: random.Random) -> tuple[float, float]:
    """A bootstrap 95% interval of median(a) / median(b)."""
    ratios = sorted(
        statistics.median(rng.choices(a, k=len(a))) / statistics.median(rng.choices(b, k=len(b)))
        for _ in range(2000)
    )
    return ratios[50], ratios[1949]


def open_timed(page: Any, lab: LabServer, notebook: str, tree: Tree) -> dict[str, Any]:
    """Open `notebook` in a fresh kernel, Run All, and time its first table in the page."""
    page.goto(lab.url(notebook), timeout=TIMEOUT)
    page.wait_for_selector(".jp-Notebook .jp-CodeCell", timeout=TIMEOUT)
    page.wait_for_function(
        "() => (document.querySelector('#jp-main-statusbar')?.textContent || '')"
        ".includes('| Idle')", timeout=TIMEOUT)
    page.evaluate(FIRST_JS, tree.revisioned)
    page.click("#jp-MainMenu >> text=Run")
    page.click('.lm-Menu-item[data-command="runmenu:run-all"]')
    try:
        page.wait_for_function("() => window.__tlFirst.done === true", timeout=TIMEOUT)
    except Exception:
        raise SystemExit(f"{notebook}: first draw not seen: "
                         f"{page.evaluate('() => window.__tlFirst')}") from None
    t = page.evaluate("() => window.__tlFirst")
    return {
        "run_to_output": t["output"] - t["run"],
        "output_to_table": t["table"] - t["output"],
        "output_to_panels": t["panels"] - t["output"],
        "run_to_panels": t["panels"] - t["run"],
        "longtasks": t["longtasks"],
        "run_to_plotly": None if t["plotly"] is None else t["plotly"] - t["run"],
    }


def check_tree(kernel: Kernel, tree: Tree) -> None:
    where = kernel.eval("tw.__file__")
    if not Path(where).resolve().is_relative_to(tree.path):
        raise SystemExit(f"{tree.label}: tenleave_widget came from {where}, not {tree.path}")


def shut(lab: LabServer, notebook: str) -> None:
    """Stop the kernel of `notebook` (a first-draw notebook: its load is done)."""
    for s in lab.api("/api/sessions"):
        if s.get("path", "").endswith(notebook):
            requests.delete(f"{lab.base}/api/sessions/{s['id']}",
                            params={"token": lab.token}, timeout=30)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=25,
                        help="play+take-back cycles per tree and lookahead setting")
    parser.add_argument("--pause", type=int, default=300,
                        help="ms between clicks (a person's pace; lets the kernel settle)")
    parser.add_argument("--lookahead", choices=("both", "off", "on"), default="both",
                        help="the moves panel's whole-game evaluation: off, on, or both blocks")
    parser.add_argument("--suggest", choices=("on", "off"), default="on",
                        help="the 'What their plays suggest' panel (issue 19) in a tree that "
                        "has it: on as a table comes, or off (the same panels as a tree "
                        "before it)")
    parser.add_argument("--compare-tree", type=Path, default=None,
                        help="another source tree (bundle built) measured in the same run")
    parser.add_argument("--rounds", type=int, default=3,
                        help="with --compare-tree: rounds of blocks, alternating the trees")
    parser.add_argument("--first-draws", type=int, default=1,
                        help="first draws of a table per tree, each in a fresh kernel")
    parser.add_argument("--cpu-moves", type=int, default=None,
                        help="play+take-back cycles per tree and lookahead setting measured "
                        "again with the page traced, for its CPU per click (page_trace.py); "
                        "default: --moves; 0: none")
    parser.add_argument("--out", type=Path, default=None,
                        help="also write the figures (JSON, with the command, the date and "
                        "the load average at the start and the end) to this file, e.g. "
                        "benchmarks/results/widget.json")
    args = parser.parse_args()
    load_start = os.getloadavg()
    if not CHROMIUM.exists():
        raise SystemExit(f"{CHROMIUM} is missing: apt-get install chromium")
    from playwright.sync_api import sync_playwright

    trees = [Tree(ROOT, "this tree")]
    if args.compare_tree is not None:
        trees.append(Tree(args.compare_tree, "compared tree"))
    rounds = args.rounds if len(trees) > 1 else 1
    blocks = ["off", "on"] if args.lookahead == "both" else [args.lookahead]
    per_block = [args.moves // rounds + (r < args.moves % rounds) for r in range(rounds)]
    cpu_moves = args.moves if args.cpu_moves is None else args.cpu_moves
    cpu_block = [cpu_moves // rounds + (r < cpu_moves % rounds) for r in range(rounds)]
    samples: dict[tuple[int, str], list[dict[str, Any]]] = {
        (i, b): [] for i in range(len(trees)) for b in blocks}
    traced: dict[tuple[int, str], list[dict[str, Any]]] = {
        (i, b): [] for i in range(len(trees)) for b in blocks}
    firsts: dict[int, list[dict[str, Any]]] = {i: [] for i in range(len(trees))}
    budget = None
    with tempfile.TemporaryDirectory() as tmpdir:
        tmp = Path(tmpdir)
        src = tmp / "src"
        src.mkdir()
        names = [tree.notebook(src, f"bench{i}.ipynb") for i, tree in enumerate(trees)]
        extra = [[tree.notebook(src, f"first{i}-{n}.ipynb") for n in range(1, args.first_draws)]
                 for i, tree in enumerate(trees)]
        with lab_server(tmp, sorted(src.iterdir())) as lab, sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=str(CHROMIUM))
            pages, kernels, roots, tracers = [], [], [], []
            for i, tree in enumerate(trees):  # each tree's first draw, in its own page
                page = browser.new_context(viewport={"width": 1400, "height": 1000}).new_page()
                firsts[i].append(open_timed(page, lab, names[i], tree))
                kernel = Kernel(lab, names[i])
                check_tree(kernel, tree)
                kernel.eval("setattr(b.session.lookahead, 'enabled', False)")
                if args.suggest == "off":  # before the clicks: every state without it
                    kernel.eval("hasattr(b.session, 'suggest') and "
                                "setattr(b.session.suggest, 'enabled', False)")
                root = page.locator(".jp-OutputArea-output .tl-root").first
                wait_idle(page, root, 0)
                pages.append(page)
                kernels.append(kernel)
                roots.append(root)
                tracers.append(Tracer(page) if cpu_moves else None)
            for n in range(args.first_draws - 1):  # more first draws, alternating trees
                for i in (range(len(trees)) if n % 2 else reversed(range(len(trees)))):
                    context = browser.new_context(viewport={"width": 1400, "height": 1000})
                    firsts[i].append(open_timed(context.new_page(), lab, extra[i][n], trees[i]))
                    context.close()
                    shut(lab, extra[i][n])
            for r in range(rounds):
                order = range(len(trees)) if r % 2 == 0 else reversed(range(len(trees)))
                for i in order:
                    pages[i].bring_to_front()
                    pages[i].wait_for_timeout(1000)
                    for block in blocks:
                        kernels[i].eval(
                            f"setattr(b.session.lookahead, 'enabled', {block == 'on'})")
                        samples[(i, block)] += measure(
                            pages[i], roots[i], per_block[r], args.pause, trees[i].revisioned)
                        tracer = tracers[i]
                        if tracer is not None and cpu_block[r]:
                            tracer.start()
                            timed = measure(pages[i], roots[i], cpu_block[r], args.pause,
                                            trees[i].revisioned)
                            cpu = tracer.stop()
                            if len(cpu) != len(timed):
                                raise SystemExit(f"{trees[i].label}: {len(timed)} clicks "
                                                 f"traced, {len(cpu)} found in the trace")
                            traced[(i, block)] += [{**c, "wall": t["panels"], "kind": t["kind"]}
                                                   for c, t in zip(cpu, timed, strict=True)]
                    kernels[i].eval("setattr(b.session.lookahead, 'enabled', False)")
            if "on" in blocks:
                budget = kernels[0].eval("b.session.lookahead.budget")
            for kernel in kernels:
                kernel.close()
            browser.close()
    out = report(trees, blocks, samples, traced, firsts, budget)
    if args.out is not None:
        load_end = os.getloadavg()
        args.out.write_text(json.dumps({
            "command": " ".join(["benchmarks/bench_widget.py", *sys.argv[1:]]),
            "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
            "machine": f"{platform.machine()}, {os.cpu_count()} cores (shared)",
            "load": f"1-min load average {load_start[0]:.1f} at the start, "
                    f"{load_end[0]:.1f} at the end",
            "aims_ms": AIMS_MS,
            **out,
        }, indent=1) + "\n")
        print(f"written to {args.out}")


def summary(every: list[dict[str, Any]], play: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "moves": len(every),
        "table_median_ms": round(statistics.median(s["table"] for s in every), 1),
        "table_p90_ms": round(percentile([s["table"] for s in every], 0.9), 1),
        "panels_median_ms": round(statistics.median(s["panels"] for s in every), 1),
        "panels_p90_ms": round(percentile([s["panels"] for s in every], 0.9), 1),
        "play_table_median_ms": round(statistics.median(s["table"] for s in play), 1),
        "play_panels_median_ms": round(statistics.median(s["panels"] for s in play), 1),
        "page_median_ms": round(statistics.median(s["page"] for s in every), 1),
        "page_p90_ms": round(percentile([s["page"] for s in every], 0.9), 1),
    }


OWNER_WORDS = {"plotly": "plotly.js", "table": "table code", "widgets": "widget manager",
               "jupyterlab": "JupyterLab", "browser": "browser (style, layout, paint)",
               "gc": "GC"}


def cpu_summary(cpu: list[dict[str, Any]]) -> dict[str, Any]:
    """The traced clicks' page CPU (page_trace.py), printed and returned."""
    result = {"clicks": len(cpu),
              "wall_median_ms": round(statistics.median(c["wall"] for c in cpu), 1),
              "click": medians(cpu, "click"), "state": medians(cpu, "state")}
    state = result["state"]
    for kind in ("play", "reset"):
        of_kind = [c["state"]["cpu"] for c in cpu if c["kind"] == kind]
        if of_kind:
            result[f"{kind}_state_cpu_median_ms"] = round(statistics.median(of_kind), 1)
    print(f"    page CPU (main thread's time on a core), {len(cpu)} clicks traced "
          f"(their click -> panels median {result['wall_median_ms']} ms):")
    print(f"      whole click: median {result['click']['cpu_median_ms']} ms; the click's "
          f"state, from its message to the frame that shows it: median "
          f"{state['cpu_median_ms']} ms (play clicks {result.get('play_state_cpu_median_ms')}, "
          f"take-backs {result.get('reset_state_cpu_median_ms')}), of which (medians)")
    print("        by activity: " + ", ".join(
        f"{k} {v}" for k, v in state["activity_median_ms"].items()) + " ms")
    print("        by owner: " + ", ".join(
        f"{OWNER_WORDS[k]} {v}" for k, v in state["owner_median_ms"].items()) + " ms")
    return result


def report(trees: list[Tree], blocks: list[str],
           samples: dict[tuple[int, str], list[dict[str, Any]]],
           traced: dict[tuple[int, str], list[dict[str, Any]]],
           firsts: dict[int, list[dict[str, Any]]], budget: int | None) -> dict[str, Any]:
    """Print every tree's figures (and the ratios of two trees); returns them as printed
    in the last JSON line."""
    out: dict[str, Any] = {"trees": [], "worlds_per_position": budget}
    for i, tree in enumerate(trees):
        entry: dict[str, Any] = {"path": str(tree.path), "commit": tree.commit,
                                 "plotly_panels": tree.revisioned, "blocks": {}}
        print(f"{tree.label}: {tree.path} ({tree.commit}, "
              f"{'Plotly' if tree.revisioned else 'SVG'} panels)")
        for block in blocks:
            every = samples[(i, block)]
            result = summary(every, [s for s in every if s["kind"] == "play"])
            entry["blocks"][block] = result
            print(f"  whole-game evaluation {block}: {result['moves']} clicks "
                  "(play + take back), measured in the page:")
            print(f"    click -> table updated : median {result['table_median_ms']} ms, "
                  f"p90 {result['table_p90_ms']} ms (play clicks: median "
                  f"{result['play_table_median_ms']} ms)")
            print(f"    click -> panels drawn  : median {result['panels_median_ms']} ms, "
                  f"p90 {result['panels_p90_ms']} ms (play clicks: median "
                  f"{result['play_panels_median_ms']} ms)")
            print(f"    of which the page's long task drawing them: median "
                  f"{result['page_median_ms']} ms, p90 {result['page_p90_ms']} ms "
                  "(0: none over 50 ms)")
            if traced[(i, block)]:
                result["cpu"] = cpu_summary(traced[(i, block)])
        if len(blocks) == 2:
            for key in ("table_median_ms", "panels_median_ms"):
                on, off = entry["blocks"]["on"][key], entry["blocks"]["off"][key]
                print(f"    on/off {key}: x{on / off:.2f}")
        entry["first_draws"] = firsts[i]
        for key in ("run_to_output", "output_to_table", "output_to_panels", "run_to_panels",
                    "longtasks"):
            values = [f[key] for f in firsts[i]]
            entry[f"first_{key}_median_ms"] = round(statistics.median(values), 1)
        print(f"  first draw of a table ({len(firsts[i])} fresh kernel(s) and page(s)), medians: "
              f"Run All -> output {entry['first_run_to_output_median_ms']} ms, "
              f"output -> table {entry['first_output_to_table_median_ms']} ms, "
              f"output -> panels drawn {entry['first_output_to_panels_median_ms']} ms, "
              f"Run All -> panels drawn {entry['first_run_to_panels_median_ms']} ms "
              f"(long tasks {entry['first_longtasks_median_ms']} ms)")
        entry["aims"] = aims(entry)
        for name, verdict in entry["aims"].items():
            print(f"  aim {name} <= {AIMS_MS[name]} ms: {verdict}")
        out["trees"].append(entry)
    if len(trees) == 2:
        rng = random.Random(1)
        out["ratios"] = {}
        print(f"ratio of the medians, {trees[0].label} / {trees[1].label} "
              "(bootstrap 95% interval):")
        for block in blocks:
            for key in ("table", "panels"):
                a = [s[key] for s in samples[(0, block)]]
                b = [s[key] for s in samples[(1, block)]]
                ratio = statistics.median(a) / statistics.median(b)
                low, high = ratio_interval(a, b, rng)
                out["ratios"][f"{block}_{key}"] = [round(ratio, 2), round(low, 2), round(high, 2)]
                print(f"  evaluation {block}, click -> {key}: x{ratio:.2f} [{low:.2f}, {high:.2f}]")
            for span in ("click", "state"):
                a = [c[span]["cpu"] for c in traced[(0, block)]]
                b = [c[span]["cpu"] for c in traced[(1, block)]]
                if not a or not b:
                    continue
                ratio = statistics.median(a) / statistics.median(b)
                low, high = ratio_interval(a, b, rng)
                out["ratios"][f"{block}_cpu_{span}"] = [
                    round(ratio, 2), round(low, 2), round(high, 2)]
                print(f"  evaluation {block}, page CPU of the {span}: x{ratio:.2f} "
                      f"[{low:.2f}, {high:.2f}]")
        for key in ("output_to_panels", "run_to_panels"):
            this, other = (out["trees"][j][f"first_{key}_median_ms"] for j in (0, 1))
            ratio = this / other
            out["ratios"][f"first_{key}"] = round(ratio, 2)
            print(f"  first draw, {key}: x{ratio:.2f}")
    print(json.dumps(out))
    return out


def aims(entry: dict[str, Any]) -> dict[str, str]:
    """Each aim met or missed by `entry`'s medians (the evaluation-on block's clicks, if
    measured, else the off block's)."""
    blocks = entry["blocks"]
    block = blocks.get("on") or blocks["off"]
    figures = {"click_to_table": block["table_median_ms"],
               "click_to_panels": block["panels_median_ms"],
               "first_output_to_panels": entry["first_output_to_panels_median_ms"]}
    return {name: f"{'met' if value <= AIMS_MS[name] else 'MISSED'} ({value} ms)"
            for name, value in figures.items()}


def measure(page: Any, root: Any, moves: int, pause: int, revisioned: bool
            ) -> list[dict[str, Any]]:
    """``moves`` play + take-back cycles, each click timed in the page."""
    samples: list[dict[str, Any]] = []
    hand = root.locator(".tl-handbtn")
    queues = root.locator(".tl-queue").count()
    for move in range(moves):
        hand.nth(move % hand.count()).click()  # choosing a card: browser only
        q = move % queues
        page.wait_for_timeout(pause)
        play = page.evaluate(MEASURE_JS, [f"[data-testid='play-{q}']", revisioned])
        samples.append({**play, "kind": "play"})
        page.wait_for_timeout(pause)
        reset = page.evaluate(MEASURE_JS, ["[data-testid='reset']", revisioned])
        samples.append({**reset, "kind": "reset"})
    return samples


if __name__ == "__main__":
    main()
