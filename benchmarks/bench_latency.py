"""Browser benchmark of the moves panel's whole-game analysis: how long a player waits,
after ending a turn, for the first figures of the next position and for its final ★.

Starts a real JupyterLab (the browser tests' harness), opens a notebook with a table
(``play(players=N, human=0, ...)`` against bots, ``bot_delay=0``) in Debian's headless
Chromium at 1280x720, ranks the moves panel by the whole game (the panel's switch,
clicked) and plays: for each measured click, a card and a queue are chosen and the turn
is ended ("End turn"); the bots answer and the next position of the human seat comes, and
the panel analyses it in the background (table/panels/lookahead.py) and publishes its
figures as it goes. Timed INSIDE the page, from ``performance.now()`` just before the
button's click event, to

* ``position``: the table shows the human to move again (the root's ``data-turns`` moved
  on by one turn per seat, ``data-busy`` 0) -- the bots' turns are in this span;
* ``panels``: the panels drawn for that position (the panels' ``data-revision`` set after
  it: every chart's ``Plotly.react`` settled), the one-swat figures;
* ``first``: the first **whole-game** figures drawn: the moves chart drawn for the state
  shown (its panel's ``data-drawn`` equal to the panels' ``data-shown``, a state after the
  position) with the moves panel's progress line (``.tl-moves-progress``) at
  ``data-worlds`` > 0; a tree whose panels have no ``data-shown`` (all charts drawn in one
  task): the progress line at ``data-worlds`` > 0 in a drawn state of the panels;
* ``final``: the analysis finished and its figures drawn: the progress line's
  ``data-done`` is ``true`` in a drawn state -- the ★ (or the ≈ of decisions about
  equally good) is final.

The next click waits for the current position's final figures (and ``--pause`` ms), so
the analyses do not overlap. When a game ends, "Play again" starts the next (not timed).
The tables' sizes (``--seats``, default 3 and 5) alternate in blocks of ``--block`` clicks
in one run, so a load that comes and goes falls on both.

    nice -n 10 .venv/bin/python benchmarks/bench_latency.py --clicks 30 --reviews 3 \\
        --out benchmarks/results/latency.json

**Review this game** (``--reviews N``, 0: none): the classroom's table of the 3-seat
sample (``examples/classroom.ipynb``: ``replay(game-3-seats.json, show_odds=False)``),
its *Review this game* button clicked N times in the same page, each time after the
kernel's analyses were forgotten (``clear_cache``: every decision judged afresh, as in a
fresh kernel); timed in the page from the click until the button is offered again with
the review's summary drawn, with the kernel's CPU time (``time.process_time()``, every
thread) over the same span.

The aims (issue: one analysis per position): at 3 seats, first figures <= 100 ms and the
final ★ <= 1 s after the click; at 5 seats, the final ★ <= 3 s. They are judged on the
medians (the 90th percentiles are printed beside them) measured from the click; the bots'
share (click -> position) is printed too. The machine's load is recorded: the aims are
for one core of a quiet machine.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import nbformat

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from browser.driver import Kernel, open_and_run, wait_idle  # noqa: E402
from browser.harness import CHROMIUM, lab_server  # noqa: E402

SPANS = ("position", "panels", "first", "final")

# The aims, ms after the click (medians), per number of seats.
AIMS_MS: dict[int, dict[str, float]] = {3: {"first": 100, "final": 1000}, 5: {"final": 3000}}

REVIEW_AIM_S = 10.0
"""The classroom's *Review this game* on the 3-seat sample: seconds of wall on 2 cores."""

BOTS = {2: ["greedy"], 3: ["greedy", "random"], 4: ["greedy", "random", "greedy"],
        5: ["greedy", "random", "greedy", "random"]}

# One "End turn" click timed in the page (see the module docstring). Resolves with the
# spans in ms from the click, or with {gameover: true} when the game ended before the
# human's next position.
MEASURE_JS = """async ([seats, limit]) => {
    const root = document.querySelector('.tl-root');
    const button = root.querySelector("[data-testid='end']");
    if (!button) throw new Error('no End turn button');
    const turns0 = Number(root.dataset.turns);
    const revision = () => {
        const p = root.querySelector('.tl-panels');
        return p ? p.dataset.revision : undefined;
    };
    const shown = () => {
        const p = root.querySelector('.tl-panels');
        return p ? p.dataset.shown : undefined;
    };
    const t = {position: null, panels: null, first: null, final: null};
    let revAtPosition = null;
    let shownAtPosition = null;
    let star = null;
    const done = new Promise((resolve, reject) => {
        const check = () => {
            const now = performance.now();
            if (root.querySelector('.tl-gameover')) { obs.disconnect(); resolve(true); return; }
            if (t.position === null) {
                if (Number(root.dataset.turns) >= turns0 + seats && root.dataset.busy === '0'
                    && root.dataset.toMove === '0') {
                    t.position = now;
                    revAtPosition = revision();
                    shownAtPosition = shown();
                }
                if (t.position === null) return;
            }
            const p = root.querySelector('.tl-moves-progress');
            // the moves' chart drawn with whole-game figures, for a state after the position
            const moves = root.querySelector('.tl-panel-moves');
            if (t.first === null && p && Number(p.dataset.worlds) > 0 && moves
                && moves.dataset.drawn !== undefined && moves.dataset.drawn === shown()
                && Number(moves.dataset.drawn) > Number(shownAtPosition ?? 0)) t.first = now;
            const rev = revision();
            if (rev === undefined || rev === revAtPosition) return;
            // a drawn state of the panels after the position came
            if (t.panels === null) t.panels = now;
            // a tree whose panels draw all their charts in one task (no data-shown): the
            // moves' chart is drawn with the others
            if (t.first === null && shown() === undefined && p && Number(p.dataset.worlds) > 0)
                t.first = now;
            if (p && p.dataset.done === 'true') {
                t.final = now;
                star = moves ? moves.textContent.includes('★') : null;
                obs.disconnect();
                resolve(false);
            }
            revAtPosition = rev;
        };
        const obs = new MutationObserver(check);
        obs.observe(root, {subtree: true, childList: true, attributes: true,
                           attributeFilter: ['data-turns', 'data-busy', 'data-to-move',
                                             'data-revision', 'data-done', 'data-worlds',
                                             'data-drawn', 'data-shown']});
        setTimeout(() => { obs.disconnect(); reject(new Error(
            'no final figures in ' + limit + ' ms: ' + JSON.stringify(t)
            + ' ' + JSON.stringify(root.dataset))); }, limit);
    });
    const t0 = performance.now();
    button.click();
    const over = await done;
    if (over) return {gameover: true};
    const out = {star};
    for (const k of Object.keys(t)) out[k] = t[k] - t0;
    return out;
}"""

# A click on "Review this game" timed in the page: until the button, disabled while the
# review runs, is offered again and the review's summary is drawn.
REVIEW_JS = """async (limit) => {
    const button = document.querySelector('.tl-review-start');
    if (!button) throw new Error('no Review button');
    let busy = false;
    const done = new Promise((resolve, reject) => {
        const check = () => {
            if (button.disabled) { busy = true; return; }
            if (busy && document.querySelector('.tl-review-result')) {
                obs.disconnect(); resolve(performance.now());
            }
        };
        const obs = new MutationObserver(check);
        obs.observe(document.body, {subtree: true, childList: true, attributes: true});
        setTimeout(() => { obs.disconnect();
            reject(new Error('no review in ' + limit + ' ms')); }, limit);
    });
    const t0 = performance.now();
    button.click();
    return (await done) - t0;
}"""

SAMPLE = ROOT / "examples" / "games" / "game-3-seats.json"

# The current position's analysis finished and drawn (or no analysis: game over).
SETTLED_JS = """() => {
    const root = document.querySelector('.tl-root');
    if (root.querySelector('.tl-gameover')) return true;
    if (root.dataset.busy !== '0' || root.dataset.toMove !== '0') return false;
    const p = root.querySelector('.tl-moves-progress');
    const panels = root.querySelector('.tl-panels');
    return !!p && p.dataset.done === 'true' && panels && panels.dataset.revision !== undefined;
}"""


def notebook(folder: Path, seats: int, seed: int, tree: Path = ROOT, label: str = "") -> str:
    name = f"latency{seats}{label}.ipynb"
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(src) for src in (
        f"import sys\nsys.path.insert(0, {str(tree)!r})\nimport tenleave_widget.widget as tw",
        f"b = tw.play(players={seats}, human=0, bots={BOTS[seats]!r}, seed={seed}, "
        "bot_delay=0)\nb",
    )]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                 "language": "python"}
    nbformat.write(nb, folder / name)
    return name


def review_notebook(folder: Path) -> str:
    name = "review3.ipynb"
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(src) for src in (
        f"import sys\nsys.path.insert(0, {str(ROOT)!r})\n"
        "import tenleave_widget.widget as tw\nfrom tenleave_widget.widget import replay",
        f"three = replay({str(SAMPLE)!r}, show_odds=False)\nthree",
    )]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                 "language": "python"}
    nbformat.write(nb, folder / name)
    return name


def reviews(browser: Any, lab: Any, name: str, times: int, limit_ms: int
            ) -> list[dict[str, float]]:
    """*Review this game* clicked ``times`` times (the analyses forgotten before each):
    the wall time in the page and the kernel's CPU time of each, in seconds."""
    page = browser.new_context(viewport={"width": 1280, "height": 720}).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    open_and_run(page, lab, name, panels=False)
    page.locator(".tl-review-start").wait_for(timeout=limit_ms)
    kernel = Kernel(lab, name)
    where = kernel.eval("tw.__file__")
    if not Path(where).resolve().is_relative_to(ROOT):
        raise SystemExit(f"tenleave_widget came from {where}, not {ROOT}")
    out = []
    try:
        for n in range(times):
            kernel.eval("__import__('tenleave_widget.analysis.analyse', "
                        "fromlist=['clear_cache']).clear_cache()")
            cpu = kernel.eval("__import__('time').process_time()")
            load = os.getloadavg()[0]
            wall = page.evaluate(REVIEW_JS, limit_ms)
            cpu = kernel.eval("__import__('time').process_time()") - cpu
            out.append({"wall_s": round(wall / 1000, 2), "kernel_cpu_s": round(cpu, 2),
                        "load": round(load, 1)})
            print(f"review {n + 1}: {wall / 1000:.1f} s wall, kernel CPU {cpu:.1f} s "
                  f"(load {load:.1f})", flush=True)
            page.wait_for_timeout(500)
    finally:
        kernel.close()
    if errors:
        raise SystemExit(f"errors in the review's page: {errors}")
    return out


def commit(tree: Path) -> str:
    return subprocess.run(["git", "-C", str(tree), "rev-parse", "--short", "HEAD"],
                          capture_output=True, text=True).stdout.strip() or "?"


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


class Table:
    """One table in its own page and kernel, played click by click."""

    def __init__(self, browser: Any, lab: Any, name: str, seats: int, tree: Path = ROOT
                 ) -> None:
        self.seats = seats
        self.page = browser.new_context(viewport={"width": 1280, "height": 720}).new_page()
        self.errors: list[str] = []
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.root = open_and_run(self.page, lab, name)
        self.kernel = Kernel(lab, name)
        where = self.kernel.eval("tw.__file__")
        if not Path(where).resolve().is_relative_to(tree):
            raise SystemExit(f"tenleave_widget came from {where}, not {tree}")
        self.kernel.eval("setattr(b.session.lookahead, 'enabled', True)")
        wait_idle(self.page, self.root)
        self.budget = self.kernel.eval("b.session.lookahead.budget")
        self.moves = 0
        self.games = 1

    def settle(self, limit_ms: int) -> None:
        """Wait for the position's final figures (a new game after a game over)."""
        self.page.wait_for_function(SETTLED_JS, timeout=limit_ms)
        if self.root.locator(".tl-gameover").count():
            self.root.locator("[data-testid='again']").click()
            self.games += 1
            self.page.wait_for_function(
                "() => !document.querySelector('.tl-root .tl-gameover')", timeout=limit_ms)
            wait_idle(self.page, self.root)
            self.page.wait_for_function(SETTLED_JS, timeout=limit_ms)
        game = self.root.locator("[data-measure=game]")
        if game.count() and game.get_attribute("aria-pressed") != "true":
            game.click()  # rank by the whole game: the ★ is drawn
            self.page.wait_for_function(
                "() => document.querySelector('.tl-root [data-measure=game]')"
                "?.getAttribute('aria-pressed') === 'true'", timeout=limit_ms)

    def click(self, pause: int, limit_ms: int) -> dict[str, Any] | None:
        """One measured turn: a card, a queue, "End turn" timed; None at a game's end."""
        self.settle(limit_ms)
        self.page.wait_for_timeout(pause)
        hand = self.root.locator(".tl-handbtn")
        hand.nth(self.moves % hand.count()).click()
        queues = self.root.locator(".tl-queue").count()
        play = self.root.locator(f"[data-testid='play-{self.moves % queues}']")
        if not play.count() or not play.is_enabled():
            play = self.root.locator("[data-focus=play-first]")
        play.click()
        self.page.wait_for_function(
            "() => document.querySelector('.tl-root').dataset.pending === '1'",
            timeout=limit_ms)
        self.moves += 1
        got: dict[str, Any] = self.page.evaluate(MEASURE_JS, [self.seats, limit_ms])
        return None if got.get("gameover") else got


def summary(samples: list[dict[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {"clicks": len(samples)}
    for span in SPANS:
        values = [s[span] for s in samples]
        out[f"{span}_median_ms"] = round(statistics.median(values), 1)
        out[f"{span}_p90_ms"] = round(percentile(values, 0.9), 1)
        out[f"{span}_max_ms"] = round(max(values), 1)
        if span != "position":
            after = [s[span] - s["position"] for s in samples]
            out[f"{span}_after_position_median_ms"] = round(statistics.median(after), 1)
    out["star_shown"] = sum(1 for s in samples if s["star"])
    return out


def aims(seats: int, result: dict[str, Any]) -> dict[str, str]:
    return {f"{span}_ms<={limit:g}": ("met" if result[f"{span}_median_ms"] <= limit
                                      else "MISSED") + f" (median {result[f'{span}_median_ms']}"
                                     f" ms, p90 {result[f'{span}_p90_ms']} ms)"
            for span, limit in AIMS_MS.get(seats, {}).items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seats", type=int, nargs="+", default=[3, 5],
                        help="the tables' numbers of seats (each its own page and kernel)")
    parser.add_argument("--clicks", type=int, default=30, help="measured clicks per table")
    parser.add_argument("--block", type=int, default=5,
                        help="clicks on one table before the next table's turn")
    parser.add_argument("--pause", type=int, default=300,
                        help="ms between a position's final figures and the next click")
    parser.add_argument("--compare-tree", type=Path, default=None,
                        help="another source tree (its bundle built) whose tables are "
                        "played in the same run, in alternate blocks (ratios printed)")
    parser.add_argument("--reviews", type=int, default=0,
                        help="times the 3-seat sample's 'Review this game' is timed")
    parser.add_argument("--seed", type=int, default=11, help="the tables' deal seed")
    parser.add_argument("--limit", type=int, default=120,
                        help="seconds a click may take to its final figures")
    parser.add_argument("--minutes", type=float, default=30,
                        help="stop measuring after this long (whatever was measured is kept)")
    parser.add_argument("--out", type=Path, default=None,
                        help="also write the figures (JSON, with the command, the date and "
                        "the load) to this file, e.g. benchmarks/results/latency.json")
    args = parser.parse_args()
    if not CHROMIUM.exists():
        raise SystemExit(f"{CHROMIUM} is missing: apt-get install chromium")
    if any(s not in BOTS for s in args.seats):
        raise SystemExit(f"--seats: 2 to 5, not {args.seats}")
    from playwright.sync_api import sync_playwright

    load_start = os.getloadavg()
    started = time.monotonic()
    trees = [ROOT] + ([args.compare_tree.resolve()] if args.compare_tree else [])
    keys = [(i, s) for s in args.seats for i in range(len(trees))]
    samples: dict[tuple[int, int], list[dict[str, Any]]] = {k: [] for k in keys}
    loads: list[float] = []
    limit_ms = args.limit * 1000
    with tempfile.TemporaryDirectory() as tmpdir:
        tmp = Path(tmpdir)
        src = tmp / "src"
        src.mkdir()
        names = {(i, s): notebook(src, s, args.seed, trees[i], f"-{i}") for i, s in keys}
        review_name = review_notebook(src)
        with lab_server(tmp, sorted(src.iterdir())) as lab, sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=str(CHROMIUM))
            tables = {(i, s): Table(browser, lab, names[(i, s)], s, trees[i])
                      for i, s in keys} if args.clicks else {}
            budget = next(iter(tables.values())).budget if tables else None
            rounds = 0
            while any(len(samples[k]) < args.clicks for k in keys):
                if time.monotonic() - started > args.minutes * 60:
                    print(f"stopped after {args.minutes:g} minutes")
                    break
                # the trees' order flips every round: a load that comes and goes falls on both
                order = keys if rounds % 2 == 0 else [k for s in args.seats for k in
                                                      reversed([k for k in keys if k[1] == s])]
                rounds += 1
                for k in order:
                    table = tables[k]
                    table.page.bring_to_front()
                    taken = 0
                    while taken < args.block and len(samples[k]) < args.clicks:
                        got = table.click(args.pause, limit_ms)
                        if got is not None:
                            samples[k].append(got)
                            taken += 1
                            loads.append(os.getloadavg()[0])
                    print(f"tree {k[0]}, {k[1]} seats: {len(samples[k])} clicks (last final "
                          f"{samples[k][-1]['final']:.0f} ms, load {loads[-1]:.1f})", flush=True)
            errors = {k: t.errors for k, t in tables.items() if t.errors}
            games = {k: t.games for k, t in tables.items()}
            for table in tables.values():
                table.kernel.close()
                table.page.context.close()
            timed = reviews(browser, lab, review_name, args.reviews, limit_ms) \
                if args.reviews else []
            browser.close()
    if errors:
        raise SystemExit(f"errors in the page: {errors}")
    load_end = os.getloadavg()
    out: dict[str, Any] = {
        "command": " ".join(["benchmarks/bench_latency.py", *sys.argv[1:]]),
        "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "commit": commit(ROOT),
        "machine": f"{platform.machine()}, {os.cpu_count()} cores (shared)",
        "load": f"1-min load average {load_start[0]:.1f} at the start, {load_end[0]:.1f} "
                f"at the end; over the clicks median {statistics.median(loads):.1f}, "
                f"{min(loads):.1f}-{max(loads):.1f}" if loads else
                f"1-min load average {load_start[0]:.1f} at the start, "
                f"{load_end[0]:.1f} at the end",
        "viewport": "1280x720",
        "worlds_first_round": budget,
        "trees": [{"path": str(t), "commit": commit(t)} for t in trees],
        "tables": {},
    }
    for i, s in keys:
        if not samples[(i, s)]:
            continue
        result = summary(samples[(i, s)])
        result["games"] = games[(i, s)]
        result["aims"] = aims(s, result)
        result["samples"] = [{k: (round(v, 1) if isinstance(v, float) else v)
                              for k, v in x.items()} for x in samples[(i, s)]]
        name = str(s) if i == 0 else f"{s} (compared tree)"
        out["tables"][name] = result
        print(f"{name} seats, {result['clicks']} clicks ({games[(i, s)]} games), ms from the "
              "click (median / p90 / max):")
        for span in SPANS:
            print(f"  {span:8s}: {result[f'{span}_median_ms']:8.1f} {result[f'{span}_p90_ms']:8.1f}"
                  f" {result[f'{span}_max_ms']:8.1f}")
        print(f"  ★ shown on {result['star_shown']} of {result['clicks']} positions")
        for aim, verdict in result["aims"].items():
            print(f"  aim {aim}: {verdict}")
        if i == 1 and samples[(0, s)]:
            mine = out["tables"][str(s)]
            result["ratio_this_tree_over_compared"] = ratios = {
                span: round(mine[f"{span}_median_ms"] / result[f"{span}_median_ms"], 2)
                for span in SPANS}
            print(f"  ratio of the medians, this tree / compared tree: {ratios}")
    if timed:
        walls = [r["wall_s"] for r in timed]
        cpus = [r["kernel_cpu_s"] for r in timed]
        wall, cpu = statistics.median(walls), statistics.median(cpus)
        out["review_this_game"] = {
            "record": "examples/games/game-3-seats.json", "reviews": timed,
            "wall_median_s": wall, "kernel_cpu_median_s": cpu,
            "aim": ("met" if wall <= REVIEW_AIM_S else "MISSED")
                   + f" (wall <= {REVIEW_AIM_S:g} s on 2 cores: median {wall:.1f} s, "
                     f"kernel CPU {cpu:.1f} s)",
        }
        print(f"Review this game (3-seat sample), {len(timed)} times: wall median {wall:.1f} s "
              f"({min(walls):.1f}-{max(walls):.1f}), kernel CPU median {cpu:.1f} s; aim: "
              f"{out['review_this_game']['aim']}")
    print(out["load"])
    if args.out is not None:
        args.out.write_text(json.dumps(out, indent=1) + "\n")
        print(f"written to {args.out}")


if __name__ == "__main__":
    main()
