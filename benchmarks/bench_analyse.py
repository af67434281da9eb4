"""The one analysis (``tenleave_widget.analysis.analyse``): how often its ★ holds, how
stable its labels are, and what a full analysis costs.

Positions: every decision of self-played games (random and greedy bots, first seat
rotating) at 2 to 5 seats, the seat to move's view, in a fixed order from ``--seed``.
For each position, one run measures, paired:

- **★ agreement**: where the default analysis (``Settings()``) shows a ★ (its best
  separated from every other decision by their simultaneous intervals,
  :func:`~tenleave_widget.analysis.analyse.separation_z`), whether an analysis with
  ``--scale`` times the worlds (every round, cap and first batch scaled; another salt,
  so fresh worlds) names a best of the same group. The share, with its Wilson interval.
  Agreement is counted two ways: *strict* (the reference's best is of the same group)
  and *within the reference's ties* (the ★'s decision is among those the reference finds
  about as good as its best: it cannot tell them apart either).
- **Label stability**: the played decision's label by the default verdict, against the
  label with twice the budget and another salt. The share that differ, with its interval:
  every label, and the error label alone (inaccuracy, mistake, blunder or none); which
  labels changed into which (``label_changes``), and how many of the changes had a
  verdict that stopped at its cap with its interval across an error label's bound
  (``near`` set: ``label_changes_at_cap``); and how often the two verdicts *contradict*
  each other: one's label outside the other's range (its label up to the ``near`` label
  it could not rule out) — ``labels_contradict``.
- **CPU**: ``time.process_time`` of one full default analysis (cache cleared), per seat
  count: median, p90, p99 (and of the verdict on the played decision after it).

Run (one process; positions are spread over 2-5 seats evenly)::

    nice python benchmarks/bench_analyse.py --positions 300 --out benchmarks/results/analyse.json

The labels and the CPU alone (no reference analyses; ``--labels-only``) are quicker:
``benchmarks/results/analyse_labels.json``. ``--judge-cap N`` gives the default verdict
another cap (and twice it at twice the budget): ``analyse_labels_cap8192.json``.

Every run keeps each position's two labels and ``near`` (``labels``), so two trees
measured on the same positions compare position by position (``--paired BEFORE AFTER``:
the change in the share of labels that differ, with its 95% interval)::

    python benchmarks/bench_analyse.py --paired before.json after.json --out paired.json

Every run also splits its labels by how the default verdict said them (``firm_*``,
``hedged_*``): *firm* where its interval clears every bound its label reads (said without
"perhaps"), *hedged* where it straddles one ("an inaccuracy, perhaps a mistake"); how
often each changes at twice the budget, and whether a firm label ever falls outside the
range left open at twice the budget. ``--firm RESULT`` reads it from an earlier result's
labels::

    python benchmarks/bench_analyse.py --firm benchmarks/results/analyse_caught_up.json \
        --out benchmarks/results/analyse_caught_up_firm.json

On a loaded machine, runs on other positions (``--seed``) in parallel processes, each
bounded (``--minutes``), then pooled (the counts summed, the intervals again)::

    nice python benchmarks/bench_analyse.py --seed 7 --minutes 38 --out a.json &
    nice python benchmarks/bench_analyse.py --seed 8 --minutes 31 --out b.json
    python benchmarks/bench_analyse.py --merge a.json b.json --out benchmarks/results/analyse.json

The machine is shared: CPU times are per process and hold under load; the load is written.

**Repeated looks** (``--compare-looks``): the sequential rule looks at the data after
every round and stops once the ★ is separated; the chance that noise separates it at
*some* look exceeds the chance at one. This mode analyses each position twice, in one
run: with the level split over the decisions compared only (``per_look``: z = Φ⁻¹(1 −
0.025 / m), the rule before) and over the decisions and the rule's most looks
(``over_looks``, the rule as it is: :func:`~tenleave_widget.analysis.analyse.looks_of`,
16 at the default budget; z = Φ⁻¹(1 − 0.025 / (m · looks))), each against the same
reference analysis (``--scale`` times the worlds, another salt, the rule as it is): ★
shown, agreement (strict and within the reference's ties) and CPU per analysis, per
rule::

    nice python benchmarks/bench_analyse.py --compare-looks --positions 300 --minutes 40 \
        --out benchmarks/results/analyse_looks.json

**The coach's question** (``--coach``): at the widget's default budget, how often "Are
you sure?" asks about a play, per loss (4 points or more, 2 to 4, a quarter to 2, less),
with the level per look and over the looks (:func:`coach_asks`)::

    nice python benchmarks/bench_analyse.py --coach --positions 200 --minutes 25 \
        --out benchmarks/results/coach_asks.json

**Where the noise comes from** (``--noise``): the played decision's loss to the best,
world by world, in ``--deals`` deals of the hidden cards crossed with ``--streams``
streams of the play-outs' own random numbers; its variance split between the two
(:func:`split`), and under the policies without random turns and without random ties
(:func:`noise`)::

    nice python benchmarks/bench_analyse.py --noise --positions 200 \
        --out benchmarks/results/analyse_noise.json
"""

from __future__ import annotations

import argparse
import copy
import json
import math
import os
import platform
import random
import statistics
import sys
import time
from typing import Any

from bench_policy import margin

from tenleave_widget.analysis import analyse as an
from tenleave_widget.analysis.bots import make_bot
from tenleave_widget.analysis.playout import Move, Policy, Simulator
from tenleave_widget.analysis.playout_position import Position, World
from tenleave_widget.analysis.playouts import default_kernel, play_outs
from tenleave_widget.analysis.review import decisions
from tenleave_widget.analysis.stats import mean_ci, wilson
from tenleave_widget.engine.cards import parse_card
from tenleave_widget.programs.simulate import play_game


def positions(count: int, seed: int) -> list[Any]:
    """``count`` decisions of self-played games, seats 2..5 in turn, shuffled."""
    rng = random.Random(seed)
    per_seats: dict[int, list[Any]] = {n: [] for n in range(2, 6)}
    game = 0
    while min(len(v) for v in per_seats.values()) < count // 4 + 1:
        n = 2 + game % 4
        bots = [make_bot(rng.choice(["random", "greedy"]), seed=seed + game * 10 + s)
                for s in range(n)]
        g = play_game(n, bots, seed=seed + game, first=game % n)
        ds = decisions(g.to_record())
        rng.shuffle(ds)
        per_seats[n].extend(ds[:6])
        game += 1
    out = []
    for i in range(count):
        n = 2 + i % 4
        out.append((n, per_seats[n][i // 4]))
    return out


def span(v: an.Verdict) -> set[str]:
    """The labels a verdict leaves open: its label, up to the ``near`` label it straddles."""
    lo = an.LABELS.index(v["label"])
    hi = an.LABELS.index(v["near"]) if v["near"] else lo
    return set(an.LABELS[lo:hi + 1])


def error(label: str) -> str:
    """The error label a person is told (inaccuracy, mistake, blunder), or none."""
    return label if label in ("inaccuracy", "mistake", "blunder") else "none"


def pct(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))]


def firmness(pairs: list[list[str | None]]) -> dict[str, Any]:
    """The labels at twice the budget, split by how the default verdict said its label:
    *firm* (its interval clears every bound its label reads: said without "perhaps",
    ``near`` None) or *hedged* ("an inaccuracy, perhaps a mistake"). For the firm: how
    often the label, and the error label, differ at twice the budget (Wilson intervals),
    and how often the firm label falls outside the range the verdict at twice the budget
    leaves open; for the hedged, how often the label differs. ``pairs``: each position's
    label, near, label at 2x, near at 2x (a run's ``labels``)."""
    firm = [x for x in pairs if x[1] is None]
    hedged = [x for x in pairs if x[1] is not None]

    def rng(label: Any, near: Any) -> set[str]:
        lo = an.LABELS.index(label)
        return set(an.LABELS[lo:(an.LABELS.index(near) if near else lo) + 1])

    return {
        "firm_labels": len(firm),
        "firm_label_differs_at_2x_other_seed": list(wilson(
            sum(x[0] != x[2] for x in firm), len(firm))),
        "firm_error_label_differs_at_2x_other_seed": list(wilson(
            sum(error(str(x[0])) != error(str(x[2])) for x in firm), len(firm))),
        "firm_label_outside_2x_range": sum(x[0] not in rng(x[2], x[3]) for x in firm),
        "hedged_labels": len(hedged),
        "hedged_label_differs_at_2x_other_seed": list(wilson(
            sum(x[0] != x[2] for x in hedged), len(hedged))),
    }


def merged(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """Runs of this benchmark on other positions (other ``--seed``), pooled: the counts
    summed and their intervals again (each run's CPU rows kept as they are)."""
    def count(run: dict[str, Any], share: str, of: str) -> int:
        return round(run[share][0] * run[of]) if run[of] else 0

    shown = sum(r["star_shown"] for r in runs)
    labels = sum(r["labels_compared"] for r in runs)
    agree = sum(count(r, "star_agrees_with_scale_x", "star_shown") for r in runs)
    tied = sum(count(r, "star_within_scale_x_ties", "star_shown") for r in runs)
    differ = sum(count(r, "label_differs_at_2x_other_seed", "labels_compared") for r in runs)
    e_differ = sum(count(r, "error_label_differs_at_2x_other_seed", "labels_compared")
                   for r in runs)
    changes: dict[str, int] = {}
    for r in runs:
        for k, v in r.get("label_changes", {}).items():
            changes[k] = changes.get(k, 0) + v
    return {
        "title": runs[0]["title"] + " (runs pooled)",
        "date": max(r["date"] for r in runs),
        "machine": runs[0]["machine"],
        "load": "; ".join(f"run {i}: {r['load']}" for i, r in enumerate(runs)),
        "kernel": runs[0]["kernel"],
        "runs": [{"run": i, **{k: v for k, v in r.items() if k not in ("rows", "labels")}}
                 for i, r in enumerate(runs)],
        "rows": [{"run": i, **row} for i, r in enumerate(runs) for row in r["rows"]],
        **({"labels": [x for r in runs for x in r["labels"]]}
           if all("labels" in r for r in runs) else {}),
        "positions": sum(r["positions"] for r in runs),
        "star_shown": shown,
        "star_agrees_with_scale_x": list(wilson(agree, shown)),
        "star_within_scale_x_ties": list(wilson(tied, shown)),
        "scale": runs[0]["scale"],
        **({"judge_cap": runs[0]["judge_cap"]} if "judge_cap" in runs[0] else {}),
        "labels_compared": labels,
        "label_differs_at_2x_other_seed": list(wilson(differ, labels)),
        "error_label_differs_at_2x_other_seed": list(wilson(e_differ, labels)),
        "label_changes": changes,
        "label_changes_at_cap": sum(r.get("label_changes_at_cap", 0) for r in runs),
        **({"labels_contradict": list(wilson(
            sum(count(r, "labels_contradict", "labels_compared") for r in runs), labels))}
           if all("labels_contradict" in r for r in runs) else {}),
        **(firmness([x for r in runs for x in r["labels"]])
           if all("labels" in r for r in runs) else {}),
    }


def paired(before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any]:
    """Two results on the same positions (the same ``--seed`` and ``--positions``, merged
    alike), position by position: how many labels differ at twice the budget in each,
    how many only in one, and the change in the share with its 95% interval (the mean
    of the per-position differences, -1, 0 or 1), every label and the error label
    alone."""
    a, b = before["labels"], after["labels"]
    if len(a) != len(b):
        raise SystemExit(f"--paired: {len(a)} positions against {len(b)}: not the same runs")
    out: dict[str, Any] = {"positions": len(a)}
    for name, f in (("label", lambda x: x), ("error_label", error)):
        da = [f(x[0]) != f(x[2]) for x in a]
        db = [f(x[0]) != f(x[2]) for x in b]
        diff, lo, hi = mean_ci([float(y) - float(x) for x, y in zip(da, db, strict=True)])
        out[name] = {"differ_before": sum(da), "differ_after": sum(db),
                     "only_before": sum(x and not y for x, y in zip(da, db, strict=True)),
                     "only_after": sum(y and not x for x, y in zip(da, db, strict=True)),
                     "change": [diff, lo, hi]}
    return out


def load(paths: list[str]) -> list[dict[str, Any]]:
    """Earlier results, read."""
    runs = []
    for path in paths:
        with open(path) as f:
            runs.append(json.load(f))
    return runs


def report(out: dict[str, Any], shown: dict[str, Any], path: str | None) -> int:
    """Print ``shown``, write ``out`` to ``path`` (if any); the exit status."""
    print(json.dumps(shown, indent=1))
    if path:
        os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
        with open(path, "w") as f:
            json.dump(out, f, indent=1)
            f.write("\n")
    return 0


def header(title: str, argv: list[str] | None, load0: float) -> dict[str, Any]:
    """A result's title, command, date, machine, load and play-out kernel."""
    return {
        "title": title,
        "command": "nice python benchmarks/bench_analyse.py " + " ".join(
            argv if argv is not None else sys.argv[1:]),
        "date": time.strftime("%Y-%m-%d"),
        "machine": f"{platform.machine()}, {os.cpu_count()} cores (shared)",
        "load": f"{load0:.1f} at the start, {os.getloadavg()[0]:.1f} at the end",
        "kernel": default_kernel(),
    }


def compare_looks(args: argparse.Namespace, argv: list[str] | None) -> dict[str, Any]:
    """The ★ of the rule as it is and of the rule corrected for its repeated looks, on the
    same positions against the same reference (see the module docstring)."""
    base = an.Settings()
    k = args.scale
    ref = an.Settings(first=base.first * k, batch=base.batch * k, cap=base.cap * k,
                      judge_cap=base.judge_cap * k)
    looks = an.looks_of(base)
    plain_z = an.separation_z

    def per_look_z(m: int, looks: int = 1) -> float:
        return plain_z(m)

    rules = {"per_look": per_look_z, "over_looks": plain_z}
    ps = positions(args.positions, args.seed)
    start = time.perf_counter()
    load0 = os.getloadavg()[0]
    cpu: dict[str, dict[int, list[float]]] = {r: {n: [] for n in range(2, 6)} for r in rules}
    shown = {r: 0 for r in rules}
    agree = {r: 0 for r in rules}
    tied = {r: 0 for r in rules}
    both = disagree_pairs = 0
    done = 0
    try:
        for n, d in ps:
            if args.minutes is not None and time.perf_counter() - start > args.minutes * 60:
                break
            got = {}
            # the order alternates: what the first analysis warms (the odds' caches) is
            # not always the same rule's
            for name, z in (list(rules.items()) if done % 2 == 0
                            else list(reversed(rules.items()))):
                an.clear_cache()
                an.separation_z = z
                t0 = time.process_time()
                got[name] = an.analyse(d.view, base)
                cpu[name][n].append(time.process_time() - t0)
            an.separation_z = plain_z
            if any(a["star"] for a in got.values()):
                an.clear_cache()
                r = an.analyse(d.view, ref, seed=1)
                equal = {r["decisions"][i]["group"] for i in r["equal"]}
                for name, a in got.items():
                    if a["star"]:
                        shown[name] += 1
                        agree[name] += r["decisions"][0]["group"] == a["decisions"][0]["group"]
                        tied[name] += a["decisions"][0]["group"] in equal
                if all(a["star"] for a in got.values()):
                    both += 1
                    disagree_pairs += (got["per_look"]["decisions"][0]["group"]
                                       != got["over_looks"]["decisions"][0]["group"])
            done += 1
            if done % 10 == 0:
                print(f"{done} positions: " + ", ".join(
                    f"{name} star {agree[name]}/{shown[name]}" for name in rules),
                    file=sys.stderr, flush=True)
    finally:
        an.separation_z = plain_z
    out: dict[str, Any] = {
        **header("The one analysis's star: the sequential rule per look, and over its looks",
                 argv, load0),
        "positions": done, "scale": k, "looks": looks,
        "star_both": both, "star_both_different_best": disagree_pairs,
        "rules": {},
    }
    for name in rules:
        rows = [{"seats": n, "positions": len(cpu[name][n]),
                 "analysis_cpu_ms_median": 1000 * statistics.median(cpu[name][n]),
                 "analysis_cpu_ms_p90": 1000 * pct(cpu[name][n], 0.9),
                 "analysis_cpu_ms_p99": 1000 * pct(cpu[name][n], 0.99)}
                for n in range(2, 6) if cpu[name][n]]
        out["rules"][name] = {
            "star_shown": shown[name],
            "star_agrees_with_scale_x": list(wilson(agree[name], shown[name])),
            "star_within_scale_x_ties": list(wilson(tied[name], shown[name])),
            "rows": rows,
        }
    every = [c for n in range(2, 6) for c in cpu["per_look"][n]]
    other = [c for n in range(2, 6) for c in cpu["over_looks"][n]]
    if every:
        out["cpu_ratio_over_looks_per_look"] = round(sum(other) / sum(every), 2)
    return out


def coach_asks(args: argparse.Namespace, argv: list[str] | None) -> dict[str, Any]:
    """How often the coach's "Are you sure?" asks at the widget's default budget
    (:class:`~tenleave_widget.table.coach.check.CoachCheck` with its defaults, the path a
    table takes; ``--coach-samples``: another budget, as ``coach_samples``), with the
    level split over the decisions only (one look) and over the decisions and the rule's
    looks: on each position the played decision, the worst
    decision and one other drawn at random are each put to the coach under both rules.
    Each is bucketed by its loss in the verdict over the looks (the rule's point
    estimate, at least the verdict's worlds): at least 4 points (a blunder), 2 to 4, 0.25
    to 2, under 0.25 (about as good as the best); per bucket, the share asked, with its
    interval."""
    from tenleave_widget.engine.turn import Turn
    from tenleave_widget.table.coach.check import CoachCheck

    buckets = [("loss >= 4", 4.0, float("inf")), ("2 <= loss < 4", 2.0, 4.0),
               ("0.25 <= loss < 2", 0.25, 2.0), ("loss < 0.25", float("-inf"), 0.25)]
    rules = {"per_look": lambda s: 1, "over_looks": an.looks_of}
    real = an.looks_of
    asked = {r: {b[0]: 0 for b in buckets} for r in rules}
    put = {b[0]: 0 for b in buckets}
    rng = random.Random(args.seed)
    ps = positions(args.positions, args.seed)
    start = time.perf_counter()
    load0 = os.getloadavg()[0]
    done = 0
    try:
        for _n, d in ps:
            if args.minutes is not None and time.perf_counter() - start > args.minutes * 60:
                break
            if d.played.peek is not None:
                continue  # the question about a peek first reads the peek; plays only here
            seat = d.played.seat
            got: dict[str, dict[str, tuple[float, bool]]] = {}
            for name, looks in rules.items():
                an.looks_of = looks
                an.clear_cache()
                c = CoachCheck(args.coach_samples)
                job = c.want(d.turn, seat, d.view)
                assert job is not None
                for _ in job:
                    pass
                a = c.result
                assert a is not None
                if name == "per_look":
                    plays = [x for x in a["decisions"] if x["kind"] != "peek first"]
                    worst = max(plays, key=lambda x: x["vs_best"])
                    turns = {json.dumps(d.played.to_json(), sort_keys=True),
                             json.dumps(worst["turn"], sort_keys=True),
                             json.dumps(rng.choice(plays)["turn"], sort_keys=True)}
                got[name] = {}
                for t in sorted(turns):
                    turn = Turn.from_json(json.loads(t))
                    s = c.loss(d.turn, seat, turn)
                    assert s is not None
                    v = an.judge(d.view, turn.to_json(), an.settings_for(c.samples))
                    got[name][t] = (v["loss"], c.asks(s))
            an.looks_of = real
            for t, (loss, _) in got["over_looks"].items():
                b = next(b[0] for b in buckets if b[1] <= loss < b[2])
                put[b] += 1
                for name in rules:
                    asked[name][b] += got[name][t][1]
            done += 1
            if done % 10 == 0:
                print(f"{done} positions: put {put}, asked {asked}", file=sys.stderr,
                      flush=True)
    finally:
        an.looks_of = real
    return {
        **header("The coach's question at the widget's default budget, per look and over "
                 "the looks", argv, load0),
        "positions": done,
        "settings": vars(an.settings_for(CoachCheck(args.coach_samples).samples)),
        "threshold": CoachCheck().threshold,
        "buckets": {b[0]: {"decisions": put[b[0]], **{
            f"asked_{name}": list(wilson(asked[name][b[0]], put[b[0]])) if put[b[0]] else None
            for name in rules}}
            for b in buckets},
    }


def split(d: list[float], deals: int, streams: int) -> dict[str, float]:
    """The variance of per-world paired losses ``d`` (``deals`` x ``streams``, deal by
    deal: world ``i * streams + r`` has deal ``i`` and stream ``r``) split in two:
    ``playouts``, the variance the play-outs' own random numbers give a deal (the mean
    of each deal's variance over its streams), and ``deals``, the variance of the deals'
    means less what their streams leave in them (``playouts / streams``; at least 0).
    ``total`` is the variance of all of ``d``.

    >>> split([0.0, 2.0, 4.0, 6.0], 2, 2)
    {'total': 5.0, 'playouts': 1.0, 'deals': 3.5}
    """
    rows = [d[i * streams:(i + 1) * streams] for i in range(deals)]
    within = statistics.fmean(statistics.pvariance(r) for r in rows)
    between = statistics.pvariance([statistics.fmean(r) for r in rows])
    return {"total": statistics.pvariance(d), "playouts": within,
            "deals": max(0.0, between - within / streams)}


def noise(args: argparse.Namespace, argv: list[str] | None) -> dict[str, Any]:
    """Where a verdict's noise comes from. On each position whose played decision and
    analysis's best are two plays of different groups (no peek first), both are played
    out in ``--deals`` deals of the hidden cards (and tokens) crossed with ``--streams``
    streams of the play-outs' own random numbers (the random turns and the random
    ties): the paired loss per world (played minus best, points of margin), its variance
    split by :func:`split`; and the same worlds under the policy without random turns
    (``explore=0``) and the deterministic one (``explore=0``, no random ties), their
    variance as a share of today's."""
    policies = {"today": Policy(), "explore0": Policy(explore=0.0),
                "deterministic": Policy(explore=0.0, random_ties=False)}
    ps = positions(args.positions, args.seed)
    start = time.perf_counter()
    load0 = os.getloadavg()[0]
    rows: list[dict[str, Any]] = []
    k, r_ = args.deals, args.streams
    for n, d in ps:
        if args.minutes is not None and time.perf_counter() - start > args.minutes * 60:
            break
        an.clear_cache()
        v = an.judge(d.view, d.played.to_json(), an.Settings(), seen=d.seen)
        a = v["analysis"]
        played, best = a["decisions"][v["played"]], a["decisions"][0]
        if "peek first" in (played["kind"], best["kind"]) or played["group"] == best["group"]:
            continue
        pos = Position(d.view)
        moves = []
        for x in (played, best):
            t = x["turn"]
            card, q = t["play"]
            value = parse_card(card)[0]
            assert isinstance(q, int)
            moves.append(Move(value, q, wake=bool(t.get("wake")), rotate=t.get("rotate"),
                              after=t.get("extra") == "after"))
        rng = random.Random(f"noise:{args.seed}:{len(rows)}")
        deals = [World(pos, random.Random(rng.getrandbits(64)), pos.cards_left)
                 for _ in range(k)]
        streams = [World(pos, random.Random(rng.getrandbits(64)), pos.cards_left).us
                   for _ in range(r_)]
        worlds = []
        for w in deals:
            for us in streams:
                mixed = copy.copy(w)
                mixed.us = us
                worlds.append(mixed)
        row: dict[str, Any] = {"seats": n, "label": v["label"], "loss": v["loss"]}
        for name, policy in policies.items():
            outs = play_outs(Simulator(pos, policy), moves, worlds)
            losses = [margin(o[0], pos.seat) - margin(o[1], pos.seat) for o in outs]
            row[name] = split(losses, k, r_)
        rows.append(row)
        if len(rows) % 10 == 0:
            print(f"{len(rows)} positions", file=sys.stderr, flush=True)
    live = [x for x in rows if x["today"]["total"] > 0]

    def share(part: str, of: str = "today", whole: str = "total") -> dict[str, float]:
        xs = [x[of][part] / x["today"][whole] for x in live]
        return {"median": statistics.median(xs), "pooled": math.fsum(
            x[of][part] for x in live) / math.fsum(x["today"][whole] for x in live)}

    return {
        **header("Where a verdict's noise comes from: the deals against the play-outs' "
                 "own random numbers", argv, load0),
        "positions": len(rows), "deals": k, "streams": r_,
        "sd_per_world": {"median": statistics.median(x["today"]["total"] ** 0.5
                                                     for x in live),
                         "quartiles": statistics.quantiles(
                             [x["today"]["total"] ** 0.5 for x in live], n=4)},
        "playouts_share": share("playouts"),
        "explore0_share_of_today": share("total", "explore0"),
        "deterministic_share_of_today": share("total", "deterministic"),
        "rows": rows,
    }


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--positions", type=int, default=300)
    p.add_argument("--scale", type=int, default=10, help="the reference's worlds, times")
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--minutes", type=float, default=None,
                   help="stop after this many minutes (the positions done are reported)")
    p.add_argument("--out", default=None)
    p.add_argument("--labels-only", action="store_true",
                   help="measure the labels and the CPU only (no reference analyses)")
    p.add_argument("--merge", nargs="+", default=None, metavar="JSON",
                   help="pool the results of earlier runs (other --seed) into --out")
    p.add_argument("--firm", default=None, metavar="JSON",
                   help="an earlier result's labels split into firm and hedged verdicts")
    p.add_argument("--paired", nargs=2, default=None, metavar=("BEFORE", "AFTER"),
                   help="compare two results on the same positions, position by position")
    p.add_argument("--compare-looks", action="store_true",
                   help="the star per look against the star corrected for the rule's looks")
    p.add_argument("--judge-cap", type=int, default=None,
                   help="the verdict's cap of the default analysis (and twice it at 2x)")
    p.add_argument("--coach-samples", type=int, default=None,
                   help="--coach: the coach's worlds a round (default: the widget's)")
    p.add_argument("--coach", action="store_true",
                   help="how often the coach's question asks, per loss, at its default budget")
    p.add_argument("--noise", action="store_true",
                   help="the paired loss's variance per world: the deals against the "
                        "play-outs' own random numbers")
    p.add_argument("--deals", type=int, default=40, help="--noise: deals a position")
    p.add_argument("--streams", type=int, default=20,
                   help="--noise: streams of the play-outs' random numbers a deal")
    args = p.parse_args(argv)
    command = "python benchmarks/bench_analyse.py " + " ".join(
        argv if argv is not None else sys.argv[1:])
    if args.compare_looks or args.coach:
        out = compare_looks(args, argv) if args.compare_looks else coach_asks(args, argv)
        return report(out, out, args.out)
    if args.noise:
        out = noise(args, argv)
        return report(out, {k: v for k, v in out.items() if k != "rows"}, args.out)
    if args.firm:
        (run,) = load([args.firm])
        out = {"command": command, "title": "The labels at twice the budget, firm and hedged",
               "of": args.firm, "date": run["date"], "load": run["load"],
               "labels_compared": len(run["labels"]),
               "label_differs_at_2x_other_seed": run["label_differs_at_2x_other_seed"],
               "error_label_differs_at_2x_other_seed":
                   run["error_label_differs_at_2x_other_seed"],
               **firmness(run["labels"])}
        return report(out, out, args.out)
    if args.paired:
        out = {"command": command, **paired(*load(args.paired))}
        return report(out, out, args.out)
    if args.merge:
        out = {"command": command, **merged(load(args.merge))}
        return report(out, {k: v for k, v in out.items() if k not in ("runs", "rows")},
                      args.out)
    base = an.Settings(judge_cap=args.judge_cap or an.Settings().judge_cap)
    k = args.scale
    ref = an.Settings(first=base.first * k, batch=base.batch * k, cap=base.cap * k,
                      judge_cap=base.judge_cap * k)
    double = an.Settings(first=base.first * 2, batch=base.batch * 2, cap=base.cap * 2,
                         judge_cap=base.judge_cap * 2)
    ps = positions(args.positions, args.seed)
    start = time.perf_counter()
    load0 = os.getloadavg()[0]
    cpu: dict[int, list[float]] = {n: [] for n in range(2, 6)}
    judge_cpu: dict[int, list[float]] = {n: [] for n in range(2, 6)}
    starred = agree = agree_tied = 0
    labels = differ = errors_differ = at_cap = contradict = 0
    changes: dict[str, int] = {}
    pairs: list[list[str | None]] = []  # per position: label, near; at 2x: label, near
    done = 0
    for n, d in ps:
        if args.minutes is not None and time.perf_counter() - start > args.minutes * 60:
            break
        an.clear_cache()
        t0 = time.process_time()
        a = an.analyse(d.view, base)
        cpu[n].append(time.process_time() - t0)
        t0 = time.process_time()
        v = an.judge(d.view, d.played.to_json(), base, seen=d.seen)
        judge_cpu[n].append(time.process_time() - t0)
        if a["star"] and not args.labels_only:
            starred += 1
            r = an.analyse(d.view, ref, seed=1)
            same = r["decisions"][0]["group"] == a["decisions"][0]["group"]
            agree += same
            agree_tied += a["decisions"][0]["group"] in {r["decisions"][i]["group"]
                                                        for i in r["equal"]}
        v2 = an.judge(d.view, d.played.to_json(), double, seed=2, seen=d.seen)
        pairs.append([v["label"], v["near"], v2["label"], v2["near"]])
        labels += 1
        differ += v["label"] != v2["label"]
        errors_differ += error(v["label"]) != error(v2["label"])
        if v["label"] != v2["label"]:
            name = f"{v['label']} -> {v2['label']}"
            changes[name] = changes.get(name, 0) + 1
            at_cap += v["near"] is not None or v2["near"] is not None
            contradict += v["label"] not in span(v2) and v2["label"] not in span(v)
        done += 1
        if done % 10 == 0:
            print(f"{done} positions: star {agree}/{starred}, labels differ "
                  f"{differ}/{labels} ({at_cap} at the cap)",
                  file=sys.stderr, flush=True)
    pa, plo, phi = wilson(agree, starred)
    ta, tlo, thi = wilson(agree_tied, starred)
    pd, dlo, dhi = wilson(differ, labels)
    pe, elo, ehi = wilson(errors_differ, labels)
    rows: list[dict[str, Any]] = []
    for n in range(2, 6):
        if cpu[n]:
            rows.append({"seats": n, "positions": len(cpu[n]),
                         "analysis_cpu_ms_median": 1000 * statistics.median(cpu[n]),
                         "analysis_cpu_ms_p90": 1000 * pct(cpu[n], 0.9),
                         "analysis_cpu_ms_p99": 1000 * pct(cpu[n], 0.99),
                         "verdict_cpu_ms_median": 1000 * statistics.median(judge_cpu[n])})
    out = {
        **header("The one analysis: star agreement, label stability, CPU per analysis", argv,
                 load0),
        "positions": done,
        "star_shown": starred,
        "star_agrees_with_scale_x": [pa, plo, phi],
        "star_within_scale_x_ties": [ta, tlo, thi],
        "scale": k,
        "judge_cap": base.judge_cap,
        "labels_compared": labels,
        "label_differs_at_2x_other_seed": [pd, dlo, dhi],
        "error_label_differs_at_2x_other_seed": [pe, elo, ehi],
        "label_changes": changes,
        "label_changes_at_cap": at_cap,
        "labels_contradict": list(wilson(contradict, labels)),
        **firmness(pairs),
        "rows": rows,
        "labels": pairs,
    }
    return report(out, out, args.out)


if __name__ == "__main__":
    sys.exit(main())
