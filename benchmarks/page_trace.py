"""The page's main-thread CPU per click, from a Chromium trace (bench_widget.py uses it).

While a block of clicks is measured, the page is traced through the DevTools protocol
(``Tracing`` domain: the renderer's timeline events and the ``performance.mark`` calls of
the measuring script; ``Profiler`` domain: V8's samples of the page's scripts). For each click:

* **CPU**: the renderer main thread's *thread time* (``tdur``: time on a core, not time
  waiting for one), summed over its tasks between two marks, a task cut by a mark counted
  in proportion. Two spans, both to the end of the first frame committed after the
  panels were drawn (``tl-panels``: the frame that shows them, its style, layout and
  paint): the whole click (from ``tl-click``: the click handler, whatever else the page
  did while the kernel answered, and the drawing of the click's state) and the click's
  state alone (from the start of the task that drew the table, ``tl-table``). Thread
  time is what holds up on a loaded machine: another process taking the core stretches
  the wall time, not the thread time.
* **By activity**: each timeline event's own thread time (its children's taken out):
  script, style (recalculation), layout, paint (pre-paint, paint, layerize, commit),
  garbage collection, other (task overhead, hit tests, observers).
* **By owner**: V8's samples in the span, each given to the deepest script of the stack
  that is ours: plotly.js (the runtime widget's bundle), the table's code (its ESM
  bundle); else the widget manager (@jupyter-widgets and anywidget's lab extensions);
  else JupyterLab (any other script); a sample outside scripts is the browser's own work
  (style, layout, paint: "(program)") or garbage collection. The shares are applied to the
  span's CPU (samples are taken in wall time, so they give shares, not times).
"""

from __future__ import annotations

import bisect
import statistics
from typing import Any

CATEGORIES = ",".join((
    "devtools.timeline", "disabled-by-default-devtools.timeline", "blink.user_timing",
    "v8.execute"))

# V8's samples come from the Profiler domain (its clock is the trace's): the trace's own
# sampler (disabled-by-default-v8.cpu_profiler) names the scripts in the first tracing of
# a browser only, and "(program)" in every later one.
SAMPLING_US = 200

MARKS = ("tl-click", "tl-table", "tl-panels")

TASKS = ("RunTask", "ThreadControllerImpl::RunTask")

ACTIVITIES = ("script", "style", "layout", "paint", "gc", "other")

OWNERS = ("plotly", "table", "widgets", "jupyterlab", "browser", "gc")

_ACTIVITY = {
    "FunctionCall": "script", "EvaluateScript": "script", "EventDispatch": "script",
    "TimerFire": "script", "FireAnimationFrame": "script", "FireIdleCallback": "script",
    "RunMicrotasks": "script", "v8.callFunction": "script", "v8.run": "script",
    "V8.Execute": "script", "XHRReadyStateChange": "script", "XHRLoad": "script",
    "ParseHTML": "script", "v8.compile": "script", "v8.compileModule": "script",
    "v8.evaluateModule": "script", "v8.parseOnBackground": "script",
    "UpdateLayoutTree": "style", "RecalculateStyles": "style", "ParseAuthorStyleSheet": "style",
    "Layout": "layout", "UpdateLayer": "paint", "UpdateLayerTree": "paint",
    "PrePaint": "paint", "Paint": "paint", "PaintImage": "paint", "Layerize": "paint",
    "Commit": "paint", "CompositeLayers": "paint", "Decode Image": "paint",
    "RasterTask": "paint", "MinorGC": "gc", "MajorGC": "gc", "BlinkGC.AtomicPhase": "gc",
}


def activity(name: str) -> str:
    if name in _ACTIVITY:
        return _ACTIVITY[name]
    if "GC" in name:
        return "gc"
    return "other"


def script_owner(url: str, length: int) -> str | None:
    """Who a script of the page is: plotly.js and the table's bundle are anywidget ESMs
    (blob: URLs; plotly.js is the one over 500 kB), the widget manager comes from its lab
    extensions; None: JupyterLab."""
    if url.startswith("blob:"):
        return "plotly" if length > 500_000 else "table"
    if "/@jupyter-widgets/" in url or "/extensions/anywidget/" in url:
        return "widgets"
    return None


class Tracer:
    """Traces one page (through its own DevTools session) while clicks are measured."""

    def __init__(self, page: Any) -> None:
        self.cdp = page.context.new_cdp_session(page)
        self.page = page
        # the page's scripts, by id (the debugger reports every script already parsed)
        self.owners: dict[int, str] = {}
        parsed: list[dict[str, Any]] = []
        self.cdp.on("Debugger.scriptParsed", lambda script: parsed.append(script))
        self.cdp.send("Debugger.enable")
        page.wait_for_timeout(300)
        self.cdp.send("Debugger.disable")
        for script in parsed:
            owner = script_owner(script.get("url", ""), int(script.get("length", 0)))
            if owner is not None:
                self.owners[int(script["scriptId"])] = owner
        self.events: list[dict[str, Any]] = []
        self.done = False
        self.cdp.on("Tracing.dataCollected", lambda p: self.events.extend(p["value"]))
        self.cdp.on("Tracing.tracingComplete", lambda p: setattr(self, "done", True))

    def start(self) -> None:
        self.events = []
        self.done = False
        self.cdp.send("Profiler.enable")
        self.cdp.send("Profiler.setSamplingInterval", {"interval": SAMPLING_US})
        self.cdp.send("Tracing.start", {"categories": CATEGORIES, "transferMode": "ReportEvents"})
        self.cdp.send("Profiler.start")

    def stop(self) -> list[dict[str, Any]]:
        """Stop tracing; the page CPU of each click traced (see `clicks`)."""
        profile = self.cdp.send("Profiler.stop")["profile"]
        self.cdp.send("Profiler.disable")
        self.cdp.send("Tracing.end")
        while not self.done:
            self.page.wait_for_timeout(100)
        return clicks(self.events, profile, self.owners)


def _top_level(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The main thread's complete events, each with its own thread time (`self`, children
    out) and its top-level task; tasks first."""
    spans = sorted((e for e in events if e.get("ph") == "X" and "tdur" in e and "dur" in e),
                   key=lambda e: (e["ts"], -e["dur"]))
    stack: list[dict[str, Any]] = []
    out: list[dict[str, Any]] = []
    for e in spans:
        while stack and e["ts"] >= stack[-1]["ts"] + stack[-1]["dur"]:
            stack.pop()
        span = {"name": e["name"], "ts": e["ts"], "dur": e["dur"], "tdur": e["tdur"],
                "self": e["tdur"], "task": stack[0]["task"] if stack else None}
        if stack:
            stack[-1]["self"] -= e["tdur"]
        elif e["name"] in TASKS:
            span["task"] = span
        else:
            continue  # outside any task (a nested loop's leftovers): not counted
        stack.append(span)
        out.append(span)
    return out


def _samples(profile: dict[str, Any], owners: dict[int, str]
             ) -> tuple[list[float], list[str | None]]:
    """The page's V8 samples (a ``Profiler.stop`` profile): their times, on the trace's
    clock, and owners (None: idle)."""
    nodes = {node["id"]: node for node in profile.get("nodes", [])}
    parent = {child: node["id"] for node in nodes.values() for child in node.get("children", [])}
    cache: dict[int, str | None] = {}

    def owner(node_id: int) -> str | None:
        if node_id in cache:
            return cache[node_id]
        leaf = nodes.get(node_id, {}).get("callFrame", {}).get("functionName", "")
        found: str | None = {"(idle)": None, "(program)": "browser", "(root)": "browser",
                             "(garbage collector)": "gc"}.get(leaf, "jupyterlab")
        widgets = False
        at: int | None = node_id
        while at is not None and at in nodes and found == "jupyterlab":
            who = owners.get(int(nodes[at]["callFrame"].get("scriptId", 0) or 0))
            if who in ("plotly", "table"):
                found = who
            widgets = widgets or who == "widgets"
            at = parent.get(at)
        if found == "jupyterlab" and widgets:
            found = "widgets"
        cache[node_id] = found
        return found

    times: list[float] = []
    clock = float(profile.get("startTime", 0))
    for delta in profile.get("timeDeltas", []):
        clock += delta
        times.append(clock)
    pairs = sorted(zip(times, (owner(n) for n in profile.get("samples", [])), strict=True))
    return [t for t, _ in pairs], [w for _, w in pairs]


def _cpu(spans: list[dict[str, Any]], a: float, b: float,
         times: list[float], who: list[str | None]) -> dict[str, Any]:
    """The main thread's CPU in [a, b] (ms), by activity and by owner."""
    by_activity = dict.fromkeys(ACTIVITIES, 0.0)
    total = 0.0
    for s in spans:
        task = s["task"]
        lo, hi = max(a, task["ts"]), min(b, task["ts"] + task["dur"])
        if hi <= lo:
            continue
        part = (hi - lo) / task["dur"] if task["dur"] > 0 else 1.0
        by_activity[activity(s["name"])] += s["self"] * part / 1000
        total += s["self"] * part / 1000
    counts = dict.fromkeys(OWNERS, 0)
    for owner in who[bisect.bisect_left(times, a):bisect.bisect_right(times, b)]:
        if owner is not None:
            counts[owner] += 1
    n = sum(counts.values())
    return {"cpu": total, "activity": by_activity,
            "owner": {k: total * v / n if n else 0.0 for k, v in counts.items()}}


def clicks(events: list[dict[str, Any]], profile: dict[str, Any],
           owners: dict[int, str]) -> list[dict[str, Any]]:
    """Each traced click's CPU: ``click`` (the whole click) and ``state`` (its state's
    drawing), each ``{"cpu", "activity", "owner"}`` in ms."""
    marks = sorted((e for e in events if e.get("name") in MARKS), key=lambda e: e["ts"])
    if not marks:
        return []
    pid, tid = marks[0]["pid"], marks[0]["tid"]
    spans = _top_level([e for e in events if e.get("pid") == pid and e.get("tid") == tid])
    tasks = [s for s in spans if s["task"] is s]
    starts = [s["ts"] for s in spans]
    times, who = _samples(profile, owners)
    out = []
    for i, m in enumerate(marks):
        if m["name"] != "tl-click" or [x["name"] for x in marks[i:i + 3]] != list(MARKS):
            continue
        click, table, panels = (x["ts"] for x in marks[i:i + 3])
        # the state's span starts with the task that drew the table; both spans end with
        # the frame that shows the panels (the first frame committed after they were drawn)
        drew = [t["ts"] for t in tasks if t["ts"] <= table <= t["ts"] + t["dur"]]
        shown = next((s["task"] for s in spans[bisect.bisect_right(starts, panels):]
                      if s["name"] == "Commit"), None)
        end = shown["ts"] + shown["dur"] if shown else panels
        out.append({"click": _cpu(spans, click, end, times, who),
                    "state": _cpu(spans, drew[0] if drew else table, end, times, who)})
    return out


def medians(traced: list[dict[str, Any]], span: str) -> dict[str, Any]:
    """Medians over clicks of one span's CPU, and of each activity's and owner's part."""
    def median(part: str, key: str) -> float:
        return round(float(statistics.median(c[span][part][key] for c in traced)), 1)

    return {
        "cpu_median_ms": round(statistics.median(c[span]["cpu"] for c in traced), 1),
        "activity_median_ms": {k: median("activity", k) for k in ACTIVITIES},
        "owner_median_ms": {k: median("owner", k) for k in OWNERS},
    }
