"""Benchmark of the inference model (issue 19): is the posterior calibrated, and does it
beat the uniform model on the cards a seat cannot see?

It plays games of random, greedy and lookahead bots (and mixes; 2 to 5 seats; the first
seat rotating game by game), in two sets with different seeds:

- **training** games: every decision of every bot, from its true view
  (:func:`~tenleave_widget.analysis.infer.observed_choices`), gives the maximum-likelihood
  beta of each kind of bot (on a fine grid), and its log-likelihood per choice beside
  beta = 0's;
- **held-out** games: after every turn, for every seat P, every card P cannot see (the
  face-down table cards; and each opponent's hand cards, scored with the hand's
  distribution) is scored against its true value under three models: the uniform one,
  ``beta="fitted"`` (each opponent's beta fitted from its own choices in that game alone)
  and ``beta=<the kind's ML beta>`` (the opponent's kind known, its beta fitted on the
  training games). Log-loss (``-ln p(true value)``) and Brier score, with the paired
  difference against the uniform model on the same cards: per game the mean over its
  cards, then the mean over games with its 95% interval. A reliability table bins every
  predicted probability (each card x each value) against how often that value was true.

The lookahead bot is slow (tens of milliseconds a decision at 96 worlds): its mixes get
``--lookahead-games`` games (default 4), the others ``--games``.

``--cost`` is what the players are read as minimising (``infer``'s; default its default,
``fitted``: each opponent's own). With ``fitted`` the training games give each kind of bot
its maximum-likelihood cost as well as its beta (the ``kind`` model reads each opponent by
its kind's), and each card is also scored under the one-swat model (``beta="fitted"``,
``cost="one-swat"``): the rows ``vs 1swat`` are the paired difference, fitted cost minus
one-swat cost, on the same cards. ``--mixes WORD`` / ``--without WORD`` keep or leave out
the mixes whose name holds WORD.

    nice -n 19 .venv/bin/python benchmarks/bench_infer.py --seed 1 --mixes lookahead \
        --lookahead-games 10
    nice -n 19 .venv/bin/python benchmarks/bench_infer.py --seed 1 --without lookahead --games 4

``--json FILE`` writes every figure.

``--cost-study N`` measures instead what limits the model against **lookahead** players:
how well each candidate cost explains their choices. On N training and N held-out games of
three ``lookahead`` bots (first seat rotating), every decision at a turn's start (a play,
or waking), from the chooser's true view: its cost under the one-swat model (the cost
``infer`` uses) and under the lookahead margin itself at a few small budgets
(``--cost-budgets``; ``evaluate_view``'s expected margin, rotations off: the bot's own
objective at fewer worlds and another seed). Per cost: the ML beta on the training
choices, the held-out log-likelihood per choice against beta 0's, the paired difference
against the one-swat cost with its 95% interval over choices, how often the chosen move is
the cost's cheapest, and the CPU time of one cost evaluation (all moves of one decision in
one world) — what weighing a world with that cost would cost per past decision::

    nice python benchmarks/bench_infer.py --cost-study 10 --cost-budgets 4 16 96
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from collections import defaultdict
from typing import Any, NamedTuple

from tenleave_widget.analysis.bots import make_bot
from tenleave_widget.analysis.infer import (
    COSTS,
    DEFAULT_COST,
    READ_COSTS,
    infer,
    observed_choices,
    with_history,
)
from tenleave_widget.analysis.infer import (
    _log_choice as log_choice,  # the model's own likelihood of a choice, not a copy
)
from tenleave_widget.analysis.lookahead import evaluate_view
from tenleave_widget.analysis.odds import move_evaluation
from tenleave_widget.analysis.stats import mean_ci
from tenleave_widget.engine.game import Game
from tenleave_widget.programs.simulate import play_game

MIXES: list[tuple[str, list[str]]] = [
    ("2 greedy+random", ["greedy", "random"]),
    ("3 random", ["random", "random", "random"]),
    ("3 greedy", ["greedy", "greedy", "greedy"]),
    ("3 random+greedy+lookahead", ["random", "greedy", "lookahead"]),
    ("3 lookahead x2+greedy", ["lookahead", "lookahead", "greedy"]),
    ("4 random+greedy", ["random", "greedy", "random", "greedy"]),
    ("5 greedy+random", ["greedy", "random", "greedy", "random", "greedy"]),
]
KINDS = ("random", "greedy", "lookahead")
GRID = [0.0] + [round(0.01 * 1.15 ** i, 4) for i in range(60)]  # 0.01 .. ~44
FLOOR = 1e-12  # a probability below it is scored as it (log-loss stays finite)


def games_of(bots: list[str], count: int, seed: int) -> list[tuple[Game, list[str]]]:
    """``count`` finished games of the mix, the first seat rotating; the bots per seat."""
    out = []
    for i in range(count):
        n = len(bots)
        seats = bots[i % n:] + bots[:i % n]  # the bots rotate through the seats
        players = [make_bot(b, seed * 1000 + 10 * i + s) for s, b in enumerate(seats)]
        out.append((play_game(n, players, seed=seed * 1000 + i), seats))
    return out


def fit(choices: list[tuple[list[float], int]]) -> dict[str, float]:
    """Maximum-likelihood beta on GRID, and the log-likelihood per choice there and at 0."""
    ll = [sum(log_choice(c, k, b) for c, k in choices) for b in GRID]
    best = max(range(len(GRID)), key=lambda i: ll[i])
    return {"beta": GRID[best], "decisions": len(choices),
            "loglik_per_choice": ll[best] / len(choices),
            "loglik_per_choice_beta0": ll[0] / len(choices)}


def score(dist: dict[str, float], true: int) -> tuple[float, float]:
    """(log-loss, Brier) of a value distribution against the true value."""
    p = max(dist.get(str(true), 0.0), FLOOR)
    brier = sum((q - (int(v) == true)) ** 2 for v, q in dist.items())
    brier += 0.0 if str(true) in dist else 1.0
    return -math.log(p), brier


MODELS = ("uniform", "fitted", "kind")


def held_out(games: list[tuple[Game, list[str]]], betas: dict[str, float], mix: str,
             rows: list[dict[str, Any]], stats: dict[str, list[float]],
             cost: str = "one-swat", kind_costs: dict[str, str] | None = None) -> None:
    """Score every unseen card of every position of ``games`` for every seat (with a cost
    other than the one-swat one, also the one-swat model's ``beta="fitted"``, as
    ``baseline``: the same cards read both ways)."""
    for gi, (game, seats) in enumerate(games):
        for t in range(1, game.turns_applied):
            pos = game.after(t)
            truth = pos.view(None)
            value_of = {c["key"]: c["value"] for q in truth["queues"] for c in q}
            for p in range(pos.seats):
                view = with_history(pos, p)
                outs = {}
                others = [o for o in range(pos.seats) if o != p]
                runs: list[tuple[str, Any, Any]] = [
                    ("fitted", "fitted", cost),
                    ("kind", {o: betas[seats[o]] for o in others},
                     {o: kind_costs[seats[o]] for o in others} if kind_costs else cost)]
                if cost != "one-swat":
                    runs.append(("baseline", "fitted", "one-swat"))
                for model, beta, how in runs:
                    t0 = time.process_time()
                    outs[model] = infer(view, beta=beta, seed=t, cost=how)
                    if model == "baseline":
                        continue
                    stats["ms"].append((time.process_time() - t0) * 1000)
                    f = outs[model]
                    stats["calls"].append(1.0)
                    stats["sampled"].append(float(any(o["method"] == "sampled"
                                                      for o in f["opponents"])))
                    stats["fallback"].append(float(f["fallback"]))
                    if f["effective_samples"] is not None:
                        stats["ess"].append(f["effective_samples"])
                fitted, kind = outs["fitted"], outs["kind"]
                base = outs.get("baseline", fitted)
                for a, b, c in zip(fitted["cards"], kind["cards"], base["cards"], strict=True):
                    rows.append({"mix": mix, "game": gi, "kind": seats[a["owner"]],
                                 "where": "table", "true": value_of[a["key"]],
                                 "uniform": a["uniform"], "fitted": a["inferred"],
                                 "kind_beta": b["inferred"], "baseline": c["inferred"]})
                for h, hk, hb in zip(fitted["hands"], kind["hands"], base["hands"], strict=True):
                    star = h["back"] == "marked"
                    for card in pos.hand(h["owner"]):
                        if card.endswith("*") == star:
                            rows.append({"mix": mix, "game": gi, "kind": seats[h["owner"]],
                                         "where": "hand", "true": int(card[0]),
                                         "uniform": h["uniform"], "fitted": h["inferred"],
                                         "kind_beta": hk["inferred"],
                                         "baseline": hb["inferred"]})
                if t == game.turns_applied - 1:
                    for o in fitted["opponents"]:
                        stats["final_beta_" + seats[o["seat"]]].append(o["beta"])
                        for how, share in o["reading"].items():
                            stats[f"reading_{seats[o['seat']]}_{how}"].append(share)


def paired(rows: list[dict[str, Any]], model: str, metric: int,
           against: str = "uniform") -> dict[str, Any]:
    """Mean ``against`` (the uniform model) and model score per card; the paired difference
    (model - against): per game the mean over its cards, then over games with a 95%
    interval."""
    per_game: dict[tuple[str, int], list[float]] = defaultdict(list)
    u_all: list[float] = []
    m_all: list[float] = []
    for r in rows:
        u = score(r[against], r["true"])[metric]
        m = score(r[model], r["true"])[metric]
        u_all.append(u)
        m_all.append(m)
        per_game[(r["mix"], r["game"])].append(m - u)
    diffs = [sum(d) / len(d) for d in per_game.values()]
    mean, lo, hi = mean_ci(diffs)
    return {"cards": len(rows), "games": len(diffs), "uniform": sum(u_all) / len(u_all),
            "model": sum(m_all) / len(m_all), "diff": mean, "ci95": [lo, hi],
            "per_game": diffs}


def reliability(rows: list[dict[str, Any]], model: str) -> list[dict[str, float]]:
    bins: list[list[tuple[float, int]]] = [[] for _ in range(10)]
    for r in rows:
        for v, p in r[model].items():
            bins[min(int(p * 10), 9)].append((p, int(int(v) == r["true"])))
    return [{"bin": i / 10, "n": len(b), "predicted": sum(p for p, _ in b) / len(b),
             "observed": sum(y for _, y in b) / len(b)} for i, b in enumerate(bins) if b]


class Decision(NamedTuple):
    """A turn-start decision of the ``--cost-study``."""

    choices: dict[str | int, tuple[list[float], int]]
    """Per cost (``"one-swat"`` or a budget): the costs of the moves open then and the
    index of the one chosen (:func:`log_choice`'s first two arguments)."""
    ms: dict[int, float]
    """Per budget: the CPU ms of the lookahead's evaluation."""


def cost_choices(game: Game, budgets: list[int]) -> list[Decision]:
    """Each turn-start decision of ``game`` (see ``--cost-study``)."""
    h = Game.from_record(game.to_record(), turns=0)
    rows: list[Decision] = []
    for k, t in enumerate(game.turns):
        view = h.view(t.seat)
        one = move_evaluation(view)
        keys = [("wake",) if m.get("wake") else ("play", *m["play"]) for m in one]
        chosen = keys.index(("wake",) if t.wake else ("play", t.card, t.queue))
        row = Decision({"one-swat": ([float(m["expected_penalty"]) for m in one], chosen)}, {})
        for b in budgets:
            t0 = time.process_time()
            ev = evaluate_view(view, b, k, rotations=False)
            row.ms[b] = 1000 * (time.process_time() - t0)
            value: dict[tuple[Any, ...], float] = {}
            for m in ev["moves"]:
                tj = m["turn"]
                key = ("wake",) if tj.get("wake") else ("play", *tj["play"])
                value[key] = min(value.get(key, math.inf), float(m["expected_margin"]))
            row.choices[b] = ([value[key] for key in keys], chosen)
        rows.append(row)
        h.apply(t)
    return rows


def cost_study(n: int, budgets: list[int], seed: int) -> None:
    """The ``--cost-study`` table (see the module docstring)."""
    start = time.time()
    bots = ["lookahead"] * 3
    train = [r for g, _ in games_of(bots, n, 30_000 + seed) for r in cost_choices(g, budgets)]
    test = [r for g, _ in games_of(bots, n, 40_000 + seed) for r in cost_choices(g, budgets)]
    print(f"cost study: 3 lookahead bots, {n} training + {n} held-out games, "
          f"{len(train)} + {len(test)} turn-start decisions, seed {seed}")
    print(f"{'cost':<24} {'ML beta':>8} {'loglik/choice':>13} {'at beta 0':>9} "
          f"{'vs one-swat [95% CI]':<24} {'chosen=cheapest':>15} {'ms/eval':>8}")
    base: list[float] = []
    kinds: list[str | int] = ["one-swat", *budgets]
    for kind in kinds:
        beta = max(GRID, key=lambda b: sum(log_choice(*r.choices[kind], b) for r in train))
        ll = [log_choice(*r.choices[kind], beta) for r in test]
        if kind == "one-swat":
            base = ll
            vs = "-"
        else:
            d, lo, hi = mean_ci([a - b for a, b in zip(ll, base, strict=True)])
            vs = f"{d:+.3f} [{lo:+.3f}, {hi:+.3f}]"
        top = sum(c[k] == min(c) for c, k in (r.choices[kind] for r in test)) / len(test)
        ms = ("-" if isinstance(kind, str)
              else f"{statistics.median(r.ms[kind] for r in test):.1f}")
        name = kind if isinstance(kind, str) else f"lookahead margin, {kind} w."
        print(f"{name:<24} {beta:>8.3f} {statistics.fmean(ll):>13.3f} "
              f"{statistics.fmean(log_choice(*r.choices[kind], 0.0) for r in test):>9.3f} "
              f"{vs:<24} {top:>15.0%} {ms:>8}", flush=True)
    print(f"load average at end: {' '.join(f'{x:.2f}' for x in _load())}; "
          f"wall {time.time() - start:.0f} s")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=6, help="held-out games per mix")
    ap.add_argument("--lookahead-games", type=int, default=4,
                    help="held-out games per mix with a lookahead bot")
    ap.add_argument("--train", type=int, default=8, help="training games per mix")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", default=None)
    ap.add_argument("--cost-study", type=int, default=0, metavar="N",
                    help="instead: how well each cost explains lookahead players' choices")
    ap.add_argument("--cost-budgets", type=int, nargs="+", default=[4, 16, 96])
    ap.add_argument("--cost", choices=COSTS, default=DEFAULT_COST,
                    help="what the players are read as minimising (infer's cost)")
    ap.add_argument("--mixes", default=None, metavar="WORD",
                    help="only the mixes whose name holds WORD (e.g. lookahead)")
    ap.add_argument("--without", default=None, metavar="WORD",
                    help="leave out the mixes whose name holds WORD")
    args = ap.parse_args(argv)
    if args.cost_study:
        cost_study(args.cost_study, args.cost_budgets, args.seed)
        return 0
    start = time.time()
    print(f"bench_infer: {args.games} held-out games per mix ({args.lookahead_games} with a "
          f"lookahead bot), {args.train} training games per mix, seed {args.seed}, cost "
          f"{args.cost}" + (f", mixes with {args.mixes!r}" if args.mixes else "")
          + (f", mixes without {args.without!r}" if args.without else ""))
    print(f"load average at start: {' '.join(f'{x:.2f}' for x in _load())}")

    # training: the ML beta per kind of bot (and, with cost fitted, the ML cost)
    read = list(READ_COSTS) if args.cost == "fitted" else [args.cost]
    choices: dict[tuple[str, str], list[tuple[list[float], int]]] = defaultdict(list)
    mixes = [(m, b) for m, b in MIXES if (args.mixes is None or args.mixes in m)
             and (args.without is None or args.without not in m)]
    for _mix, bots in mixes:
        count = args.train if "lookahead" not in bots else max(1, args.train // 2)
        for game, seats in games_of(bots, count, 10_000 + args.seed):
            for how in read:
                for seat, _, costs, chosen in observed_choices(game, how):
                    choices[(seats[seat], how)].append((costs, chosen))
    every = {(k, how): fit(choices[(k, how)]) for k in KINDS for how in read
             if choices[(k, how)]}
    fits = {k: max((f for (kk, _), f in every.items() if kk == k),
                   key=lambda f: f["loglik_per_choice"]) for k in KINDS
            if any(kk == k for kk, _ in every)}
    kind_costs = {k: next(how for (kk, how), f in every.items() if kk == k and f is fits[k])
                  for k in fits}
    print("\nbeta per kind of bot, maximum likelihood on the training games "
          f"(softmax of the {' or '.join(read)} cost)")
    print(f"{'kind':<10} {'cost':<10} {'decisions':>9} {'ML beta':>8} {'loglik/choice':>14} "
          f"{'at beta 0':>10}")
    for (k, how), f in every.items():
        mark = " <- kept" if len(read) > 1 and kind_costs[k] == how else ""
        print(f"{k:<10} {how:<10} {f['decisions']:>9} {f['beta']:>8.3f} "
              f"{f['loglik_per_choice']:>14.3f} {f['loglik_per_choice_beta0']:>10.3f}{mark}")
    betas = {k: fits[k]["beta"] for k in fits}

    # held-out: every unseen card at every turn, for every seat
    rows: list[dict[str, Any]] = []
    stats: dict[str, list[float]] = defaultdict(list)
    for mix, bots in mixes:
        count = args.games if "lookahead" not in bots else args.lookahead_games
        t0 = time.time()
        held_out(games_of(bots, count, 20_000 + args.seed), betas, mix, rows, stats, args.cost,
                 kind_costs if args.cost == "fitted" else None)
        print(f"  {mix}: {count} games scored in {time.time() - t0:.0f} s", file=sys.stderr)

    report: dict[str, Any] = {"fits": fits, "tables": {}}
    for where in ("table", "hand"):
        print(f"\n{where} cards: log-loss and Brier per card, lower is better; "
              "diff = model - uniform on the same cards (mean over games, 95% interval)"
              + ("; 'vs 1swat': this cost's fitted model - the one-swat cost's (its "
                 "'LL unif' column is the one-swat model's)" if args.cost != "one-swat" else ""))
        print(f"{'owner':<10} {'model':<7} {'cards':>6} {'games':>5} {'LL unif':>8} "
              f"{'LL model':>8} {'LL diff [95% CI]':<26} {'Brier diff [95% CI]':<26}")
        for k in KINDS:
            sub = [r for r in rows if r["kind"] == k and r["where"] == where]
            if not sub:
                continue
            for model, key in (("fitted", "fitted"), ("kind", "kind_beta")):
                ll = paired(sub, key, 0)
                br = paired(sub, key, 1)
                report["tables"][f"{where}/{k}/{model}"] = {"log_loss": ll, "brier": br}
                print(f"{k:<10} {model:<7} {ll['cards']:>6} {ll['games']:>5} "
                      f"{ll['uniform']:>8.4f} {ll['model']:>8.4f} "
                      f"{_ci(ll):<26} {_ci(br):<26}")
            if args.cost != "one-swat":
                ll = paired(sub, "fitted", 0, "baseline")
                br = paired(sub, "fitted", 1, "baseline")
                report["tables"][f"{where}/{k}/fitted-vs-one-swat"] = {"log_loss": ll,
                                                                       "brier": br}
                print(f"{k:<10} {'vs 1swat':<7} {ll['cards']:>6} {ll['games']:>5} "
                      f"{ll['uniform']:>8.4f} {ll['model']:>8.4f} "
                      f"{_ci(ll):<26} {_ci(br):<26}")
    print("\nfitted beta at each held-out game's last turn (posterior mean), per kind of bot")
    for k in KINDS:
        xs = stats.get("final_beta_" + k, [])
        if xs:
            q = statistics.quantiles(xs, n=4) if len(xs) > 1 else [xs[0]] * 3
            print(f"{k:<10} n={len(xs):<4} median {q[1]:7.3f}  quartiles [{q[0]:.3f}, {q[2]:.3f}]")
            shares = {how: statistics.fmean(stats[f"reading_{k}_{how}"])
                      for how in ("random", *READ_COSTS) if stats.get(f"reading_{k}_{how}")}
            print(f"{'':<10} read as (mean posterior): "
                  + ", ".join(f"{how} {p:.2f}" for how, p in shares.items()))
    tab = [r for r in rows if r["where"] == "table"]
    print("\nreliability (table cards, every card x value): predicted vs observed frequency")
    print(f"{'bin':<8} {'uniform n':>9} {'pred':>6} {'obs':>6}   {'fitted n':>9} {'pred':>6} "
          f"{'obs':>6}   {'kind n':>9} {'pred':>6} {'obs':>6}")
    rel = {m: {b["bin"]: b for b in reliability(tab, m)}
           for m in ("uniform", "fitted", "kind_beta")}
    report["reliability"] = {m: list(v.values()) for m, v in rel.items()}
    for i in range(10):
        b = i / 10
        cells = []
        for m in ("uniform", "fitted", "kind_beta"):
            x = rel[m].get(b)
            cells.append(f"{x['n']:>9} {x['predicted']:>6.3f} {x['observed']:>6.3f}" if x
                         else f"{'0':>9} {'-':>6} {'-':>6}")
        print(f"{b:.1f}-{b + 0.1:.1f}  " + "   ".join(cells))
    ms = sorted(stats["ms"])
    print(f"\ninfer calls: {len(ms)}, CPU ms median {statistics.median(ms):.1f}, "
          f"p90 {ms[int(0.9 * len(ms))]:.1f}, max {ms[-1]:.1f}; with a sampled component "
          f"{sum(stats['sampled']):.0f}, fell back {sum(stats['fallback']):.0f}"
          + (f", ESS median {statistics.median(stats['ess']):.0f}" if stats["ess"] else ""))
    print(f"load average at end: {' '.join(f'{x:.2f}' for x in _load())}; "
          f"wall {time.time() - start:.0f} s")
    if args.json:
        report["stats"] = {k: v for k, v in stats.items()
                           if k.startswith(("final_beta", "reading_"))}
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(report, fh, indent=1)
    return 0


def _ci(x: dict[str, Any]) -> str:
    return f"{x['diff']:+.4f} [{x['ci95'][0]:+.4f}, {x['ci95'][1]:+.4f}]"


def _load() -> tuple[float, float, float]:
    import os

    return os.getloadavg()


if __name__ == "__main__":
    sys.exit(main())
