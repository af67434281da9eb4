"""Is a stronger play-out policy worth it? The lookahead bot with a candidate rollout policy
against today's, paired on the same deals, and the one analysis's verdicts under each
policy against a much deeper analysis.

**Strength** (``strength``): each deal (``Game(n, seed=200_000 + d)``, the first seat
rotating with ``d``) is played once per *arm*: seat 0 is a ``lookahead`` bot whose
play-outs use that arm's rollout policy (:data:`ARMS`; ``today`` is ``Policy()``, the
default), the other seats today's ``lookahead`` bots. Every arm's seat 0 has the same
seed (the same worlds, the same random numbers per turn), the other seats the same bots
with the same seeds in every arm: the games differ only where the candidate's play-outs
make seat 0 decide otherwise (``--opponent``: greedy or random bots in the other seats
instead, or a list of them). Reported per candidate: the mean paired difference in seat
0's final penalty, today minus candidate (positive: the candidate scores fewer points),
and in its margin (its penalty minus the mean of the others'), each with its 95%
interval; the share of deals where seat 0 played a different game; CPU per decision;
and, with two candidates or more, each pair of them on the same deals (``between``)::

    nice -n 10 python benchmarks/bench_policy.py strength --seats 3 --minutes 30 \\
        --arms explore0 explore05 explore20 --json benchmarks/results/policy.json

**Verdicts** (``agree``): positions from games of today's lookahead bots; at each, the one
analysis (:func:`~tenleave_widget.analysis.analyse.analyse`, default settings) under
today's policy and under each candidate, and a *deep* analysis under each policy (10
times every budget of the settings, on other worlds: another ``seed``). Reported, for each
pair (analysis policy x reference policy): the share of positions where the
analysis's best is the reference's best (the same group of play-outs), and where it is
within a tie (:data:`~tenleave_widget.analysis.analyse.TIE`) of it by the reference's
figures, with Wilson intervals, and the reference's mean loss of the analysis's best::

    nice -n 10 python benchmarks/bench_policy.py agree --seats 3 --positions 200 \\
        --candidates explore0 explore05 explore20 --minutes 25 \\
        --json benchmarks/results/policy_agree.json

The one analysis builds its simulator with ``Policy()`` and plays on the default kernel;
:func:`analysis_policy` swaps those names in its module for the run of one analysis (a
benchmark's patch, undone after; the analysis cache is cleared around it, since its
digest names neither). Each deep analysis is also compared with today's deep one
(``deep r|today``): how far the policy alone moves the verdict.

``--minutes`` bounds a run: no new deal or position starts after it. ``--rows FILE``
appends each deal's (or position's) figures as a JSON line; ``summarize FILE...`` gives
the figures of such files pooled (runs on other deals: ``--start``; other positions:
``--seed``). CPU times are per process
(``time.process_time``); the machine is shared, so the load is in the result file.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tenleave_widget.analysis import analyse as analyse_module  # noqa: E402
from tenleave_widget.analysis.analyse import TIE, Analysis, Settings, analyse, clear_cache  # noqa: E402
from tenleave_widget.analysis.bots import Bot, LookaheadBot, decide, make_bot  # noqa: E402
from tenleave_widget.analysis.lookahead import Policy  # noqa: E402
from tenleave_widget.analysis.playout import Move, Simulator, queue_key  # noqa: E402
from tenleave_widget.analysis.playout_position import World  # noqa: E402
from tenleave_widget.analysis.playouts import KERNELS, play_outs  # noqa: E402
from tenleave_widget.analysis.stats import mean_ci, wilson  # noqa: E402
from tenleave_widget.engine.game import Game  # noqa: E402
from tenleave_widget.engine.turn import Turn  # noqa: E402
from tenleave_widget.engine.view import View  # noqa: E402

BASE = "today"
"""The arm every candidate is compared with: today's rollout policy."""

ROTATING = "rotating"
"""The name of :func:`rotating_kernel` among the play-out kernels while this module runs."""

ARMS: dict[str, dict[str, Any]] = {
    BASE: {"policy": Policy()},
    "explore0": {"policy": Policy(explore=0.0)},
    "explore05": {"policy": Policy(explore=0.05)},
    "explore10": {"policy": Policy(explore=0.1)},
    "explore20": {"policy": Policy(explore=0.2)},
    "explore30": {"policy": Policy(explore=0.3)},
    "explore40": {"policy": Policy(explore=0.4)},
    "explore50": {"policy": Policy(explore=0.5)},
    "noties": {"policy": Policy(random_ties=False)},
    "rotate": {"policy": Policy(), "kernel": ROTATING},
}
"""The rollout policies a seat may play out with, by name, as the evaluation options
they change: ``today`` (``Policy()``, the default: one turn in ten at random, ties broken
at random); candidates that change one setting of it (every play-out kernel supports them;
``explore10`` is the share one in ten by name, today's while the default is that); and
``rotate``, today's policy that also rotates (:func:`rotating_kernel`)."""


# ------------------------------------------------------------------- rotating play-outs


Rises = tuple[tuple[tuple[int, ...], tuple[int, ...], int, tuple[int, ...]], ...]
"""Per seat, what the rotating policy reads of one queue (:func:`_rises`)."""


def _rises(sim: Simulator, memo: dict[tuple[int, int], Rises], tok: int, q: list[int]
           ) -> Rises:
    """Per seat ``s``, for queue ``q`` under token ``tok``, by how much ``s``'s penalty of
    a swat now rises (indexed by the value ``v`` of a card of ``s``, 1..5): playing it to
    the queue; rotating the queue, then playing it there; playing it, then rotating the
    queue; and, without a card, rotating the queue. Memoised by token and
    :func:`queue_key`."""
    key = (tok, queue_key(q))
    got = memo.get(key)
    if got is None:
        n = sim.n

        def cost(cards: list[int]) -> list[int]:
            pen = [0] * n
            sim.swat_queue(list(cards), tok, pen)
            return pen

        base = cost(q)
        turned = q[1:] + q[:1]
        rot = cost(turned) if len(q) >= 2 else base
        rows = []
        for s in range(n):
            play = [0] + [cost([*q, v * 8 + s])[s] - base[s] for v in (1, 2, 3, 4, 5)]
            before = [99] + [cost([*turned, v * 8 + s])[s] - base[s] if len(q) >= 2 else 99
                             for v in (1, 2, 3, 4, 5)]
            after = [99] + [cost([*q[1:], v * 8 + s, *q[:1]])[s] - base[s] if q else 99
                            for v in (1, 2, 3, 4, 5)]
            rows.append((tuple(play), tuple(before), rot[s] - base[s] if len(q) >= 2 else 99,
                         tuple(after)))
        got = memo[key] = tuple(rows)
    return got


def rotating_choice(sim: Simulator, memo: dict[tuple[int, int], Rises],
                    queues: list[list[int]], hand: list[int], s: int, tok: int, x: float,
                    may_wake: bool, rotate: bool = True) -> tuple[int, int, int, bool]:
    """The rotating policy's turn for seat ``s``: ``(value, queue, rotated, after)``
    (``rotated`` -1: no rotation; ``after``: the rotation follows the play), or
    ``(0, -1, -1, False)`` to wake.

    Today's policy (:meth:`~tenleave_widget.analysis.playout.Simulator.greedy`: below
    ``explore`` a random play, else the play that least raises the seat's penalty of a
    swat now, ties queue by queue then value by value, a wake when every play raises it
    or tied at 0), except that with ``rotate`` it also weighs each play with a rotation
    by the same measure summed over the queues it changes — a rotation of the queue
    played to before or after the play, or of the other queue (of 2 cards or more) whose
    rotation lowers it most — and takes the best rotating turn when it is strictly better
    than every plain play (as the ``reader`` bot rotates only when it beats its best
    plain play); rotating ties are listed queue by queue, value by value, the rotation
    before the play first."""
    cap = sim.cap
    held = [v for v in (1, 2, 3, 4, 5) if hand[v]]
    room = [i for i, qq in enumerate(queues) if len(qq) < cap]
    explore = sim.explore
    if x < explore:
        i = int(x / explore * (len(held) * len(room)))
        return held[i // len(room)], room[i % len(room)], -1, False
    mine = [_rises(sim, memo, tok, qq)[s] for qq in queues]
    best = 99
    ties: list[tuple[int, int, int, bool]] = []
    for q in room:
        play = mine[q][0]
        for v in held:
            d = play[v]
            if d < best:
                best, ties = d, [(v, q, -1, False)]
            elif d == best:
                ties.append((v, q, -1, False))
    if rotate:
        rbest = best
        rties: list[tuple[int, int, int, bool]] = []
        for q in room:
            play, before, _, after = mine[q]
            other, r_other = 99, -1
            for r, m in enumerate(mine):
                if r != q and m[2] < other:
                    other, r_other = m[2], r
            for v in held:
                for d, r, aft in ((before[v], q, False), (after[v], q, True),
                                  (other + play[v], r_other, False)):
                    if d < rbest:
                        rbest, rties = d, [(v, q, r, aft)]
                    elif d == rbest and rties:
                        rties.append((v, q, r, aft))
        if rties and rbest < best:
            best, ties = rbest, rties
    if may_wake and best >= 0:
        if best > 0:
            return 0, -1, -1, False
        ties.append((0, -1, -1, False))
    if len(ties) == 1 or not sim.random_ties:
        return ties[0]
    return ties[int((x - explore) / (1.0 - explore) * len(ties))]


def rotating_play_out(sim: Simulator, memo: dict[tuple[int, int], Rises],
                      queues: list[list[int]], hands: list[list[int]], pen: list[int],
                      s: int, left: int, chain: list[int], k: int, us: list[float],
                      rotate: bool = True) -> None:
    """:meth:`~tenleave_widget.analysis.playout.Simulator.play_out` with
    :func:`rotating_choice` for every seat's turn (the same random numbers: turn ``j``
    reads ``us[2j]``, the play after a wake ``us[2j + 1]``, plain plays only; the same
    swats, round changes and daybreak, by the simulator's own methods)."""
    cap = sim.cap
    full = cap * len(queues)
    n = sim.n
    t = 0
    while left:
        tok = chain[k]
        short = any(len(qq) < 2 for qq in queues)
        v, q, r, after = rotating_choice(sim, memo, queues, hands[s], s, tok, us[t],
                                         not short, rotate)
        if q < 0:  # wake: swat, a new token, then a plain play for the new table
            sim.swat_all(queues, tok, pen)
            k += 1
            v, q, r, after = rotating_choice(sim, memo, queues, hands[s], s, chain[k],
                                             us[t + 1], False, False)
        if r >= 0 and not after:
            queues[r].append(queues[r].pop(0))
        hands[s][v] -= 1
        queues[q].append(v * 8 + s)
        if r >= 0 and after:
            queues[r].append(queues[r].pop(0))
        left -= 1
        if left == 0:
            sim.daybreak(queues, chain, k, pen)
            return
        if sum(len(qq) for qq in queues) == full:
            sim.swat_all(queues, chain[k], pen)
            k += 1
        s = s + 1 if s + 1 < n else 0
        t += 2


_MEMOS: dict[tuple[int, tuple[tuple[int, ...], ...]], dict[tuple[int, int], Rises]] = {}


def rotating_kernel(sim: Simulator, moves: Sequence[Move], worlds: Sequence[World],
                    reference: bool) -> list[list[list[int]]]:
    """A play-out kernel (:data:`~tenleave_widget.analysis.playouts.KERNELS`'s signature)
    whose rollout policy rotates (:func:`rotating_play_out`); the root move applied by the
    simulator. Plain Python: a measurement, not a product."""
    memo = _MEMOS.setdefault((sim.n, tuple(map(tuple, sim.token_pos))), {})
    seat, n, left = sim.seat, sim.n, sim.cards_left
    nxt = seat + 1 if seat + 1 < n else 0
    out: list[list[list[int]]] = []
    for w in worlds:
        row: list[list[int]] = []
        for move in [*moves, None] if reference else moves:
            queues = [list(q) for q in w.queues]
            hands = [list(h) for h in w.hands]
            pen = list(sim.start_penalty)
            if move is None:
                rotating_play_out(sim, memo, queues, hands, pen, seat, left, w.chain, 0, w.us)
            else:
                k = sim.apply(move, queues, hands, pen, seat, left, w.chain, 0)
                if k is not None:
                    rotating_play_out(sim, memo, queues, hands, pen, nxt, left - 1, w.chain,
                                      k, w.us)
            row.append(pen)
        out.append(row)
    return out


KERNELS[ROTATING] = rotating_kernel


DEAL_SEED = 200_000
"""Deal ``d`` is ``Game(n, seed=DEAL_SEED + d)`` (other deals than ``bench_reader.py``'s)."""


class PolicyBot(LookaheadBot):
    """Today's ``lookahead`` bot (its budget, options and seeds) whose evaluations change
    the options ``arm`` (one of :data:`ARMS`: the rollout policy, the play-out kernel)."""

    def __init__(self, seed: int, arm: dict[str, Any]) -> None:
        super().__init__(seed)
        self.arm = arm

    def _evaluate(self, view: View, **changes: Any) -> Turn:
        return super()._evaluate(view, **self.arm, **changes)


def play_deal(n: int, deal: int, arm: dict[str, Any], opponent: str = "lookahead"
              ) -> tuple[list[int], list[float], list[str]]:
    """Deal ``deal`` at ``n`` seats with a :class:`PolicyBot` of ``arm`` in seat 0 and
    ``opponent`` bots elsewhere (today's ``lookahead``, ``greedy`` or ``random``, or a
    comma-separated list of them, seat 1 the first; seeds from ``deal`` alone): every
    seat's final penalty, seat 0's CPU seconds per decision, and seat 0's turns (as JSON
    text: whether two arms played the same game)."""
    first = deal % n
    g = Game(n, seed=DEAL_SEED + deal, first=first)
    bots: list[Bot] = [PolicyBot(7 * deal + 1, arm)]
    names = opponent.split(",")
    bots += [make_bot(names[i % len(names)], 7 * deal + 2 + i) for i in range(n - 1)]
    times: list[float] = []
    mine: list[str] = []
    while not g.finished:
        s = g.to_move
        assert s is not None
        if s == 0:
            t0 = time.process_time()
            turn = decide(bots[0], g)
            times.append(time.process_time() - t0)
            mine.append(json.dumps(turn.to_json(), sort_keys=True))
        else:
            turn = decide(bots[s], g)
        g.push(turn)
    return g.penalty, times, mine


def margin(pen: Sequence[int], seat: int = 0) -> float:
    """``seat``'s penalty minus the mean of the other seats' (lower is better).

    >>> margin([4, 6, 10])
    -4.0
    """
    return pen[seat] - (sum(pen) - pen[seat]) / (len(pen) - 1)


def deal_row(n: int, deal: int, arms: Sequence[str], opponent: str = "lookahead"
             ) -> dict[str, Any]:
    """One deal played by every arm of ``arms`` (``today`` first, added if missing) against
    ``opponent`` bots: per arm, the penalties, seat 0's CPU seconds per decision and
    whether seat 0's turns were today's."""
    names = [BASE, *[a for a in arms if a != BASE]]
    row: dict[str, Any] = {"seats": n, "deal": deal, "opponent": opponent}
    base_turns: list[str] = []
    for a in names:
        pen, times, turns = play_deal(n, deal, ARMS[a], opponent)
        if a == BASE:
            base_turns = turns
        row[a] = {"penalty": pen, "cpu": times, "same": turns == base_turns}
    return row


def paired(rows: Sequence[dict[str, Any]], arm: str, base: str = BASE) -> dict[str, Any]:
    """The paired figures of ``arm`` against ``base`` over the deals of ``rows`` (as
    :func:`deal_row` gives them): the mean difference in seat 0's penalty, ``base`` minus
    ``arm`` (positive: the arm scores fewer points), and in its margin, each ``[mean,
    low, high]`` (95%); the share of deals where seat 0 played the same turns; whether
    the interval of the penalty difference is clear of 0 (``separates``: ``"better"``,
    ``"worse"`` or ``None``).

    >>> rows = [{"today": {"penalty": [5, 3, 4], "same": True},
    ...          "x": {"penalty": [3, 3, 6], "same": False}}] * 2
    >>> p = paired(rows, "x")
    >>> p["penalty_gain"], p["margin_gain"], p["same_share"], p["separates"]
    ([2.0, 2.0, 2.0], [3.0, 3.0, 3.0], 0.0, 'better')
    """
    pen = [r[base]["penalty"][0] - r[arm]["penalty"][0] for r in rows]
    mg = [margin(r[base]["penalty"]) - margin(r[arm]["penalty"]) for r in rows]
    p = list(mean_ci(pen))
    sep = "better" if p[1] > 0 else "worse" if p[2] < 0 else None
    return {
        "deals": len(rows),
        "penalty_gain": p,
        "margin_gain": list(mean_ci(mg)),
        "same_share": sum(1 for r in rows if r[arm]["same"]) / len(rows),
        "separates": sep,
        "mean_penalty": statistics.fmean(r[arm]["penalty"][0] for r in rows),
    }


def cpu_ms(rows: Sequence[dict[str, Any]], arm: str) -> dict[str, float]:
    """Seat 0's CPU per decision in ``arm``, milliseconds: median and 99th percentile."""
    ts = sorted(1000 * t for r in rows for t in r[arm]["cpu"])
    return {"decisions": len(ts), "median": statistics.median(ts),
            "p99": ts[min(len(ts) - 1, int(0.99 * len(ts)))]}


def strength(args: argparse.Namespace) -> dict[str, Any]:
    """The strength run (see the module docstring): deals until ``--deals`` or
    ``--minutes``, whichever first."""
    deadline = time.monotonic() + 60 * args.minutes
    out: dict[str, Any] = {}
    for n in args.seats:
        rows: list[dict[str, Any]] = []
        t0 = time.perf_counter()
        for d in range(args.start, args.start + args.deals):
            if time.monotonic() >= deadline:
                break
            rows.append(deal_row(n, d, args.arms, args.opponent))
            _log(args.rows, rows[-1])
            if args.every and len(rows) % args.every == 0:
                line = ", ".join(f"{a} {_ci(paired(rows, a)['penalty_gain'])}"
                                 for a in args.arms if a != BASE)
                print(f"  {n} seats, {len(rows)} deals: {line}, "
                      f"{time.perf_counter() - t0:.0f} s", file=sys.stderr, flush=True)
        if rows:
            out[str(n)] = {**strength_figures(rows), "wall_s": round(time.perf_counter() - t0)}
    return out


def between(rows: Sequence[dict[str, Any]], arms: Sequence[str]) -> dict[str, Any]:
    """The candidates ``arms`` against each other on the same deals: for each pair, in
    the order of ``arms``, key ``"b-a"``: :func:`paired`'s penalty and margin gains of
    ``b`` over ``a`` (``a`` minus ``b``: positive, ``b`` scores fewer points) and whether
    they separate.

    >>> rows = [{"x": {"penalty": [5, 3, 4]}, "y": {"penalty": [4, 3, 4]}}] * 2
    >>> between(rows, ["x", "y"])["y-x"]["penalty_gain"]
    [1.0, 1.0, 1.0]
    """
    out: dict[str, Any] = {}
    for i, a in enumerate(arms):
        for b in arms[i + 1:]:
            rel = [{a: r[a], b: {**r[b], "same": False}} for r in rows]
            p = paired(rel, b, base=a)
            out[f"{b}-{a}"] = {k: p[k] for k in ("penalty_gain", "margin_gain", "separates")}
    return out


def strength_figures(rows: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The figures of the deals ``rows`` (:func:`deal_row`'s, one seat count): today's
    mean penalty and CPU per decision, :func:`paired` with the CPU per candidate and,
    with two candidates or more, :func:`between` them."""
    arms = [a for a in rows[0] if a in ARMS and a != BASE]
    figures = {
        "deals": len(rows), "games": len(rows) * (1 + len(arms)),
        "today_mean_penalty": statistics.fmean(r[BASE]["penalty"][0] for r in rows),
        "today_cpu_ms": cpu_ms(rows, BASE),
        "candidates": {a: {**paired(rows, a), "cpu_ms": cpu_ms(rows, a)} for a in arms},
    }
    if len(arms) > 1:
        figures["between"] = between(rows, arms)
    return figures


# --------------------------------------------------------------------------- verdicts


@contextlib.contextmanager
def analysis_policy(arm: dict[str, Any]) -> Iterator[None]:
    """Within the block, the one analysis plays its worlds out as ``arm`` (one of
    :data:`ARMS`) says: its module's names ``Policy`` and ``play_outs`` stand for the
    arm's policy and for the arm's kernel (the cache is cleared on entry and exit, since
    the digest names neither). Benchmark only."""
    names = vars(analyse_module)  # the module's globals, which the analysis reads
    saved = names["Policy"], names["play_outs"]
    policy: Policy = arm["policy"]
    kernel: str | None = arm.get("kernel")

    def outs(sim: Simulator, moves: Sequence[Move], worlds: Sequence[World], *,
             reference: bool = False, kernel: str | None = kernel) -> list[list[list[int]]]:
        return play_outs(sim, moves, worlds, reference=reference, kernel=kernel)

    clear_cache()
    names["Policy"] = lambda: policy
    names["play_outs"] = outs
    try:
        yield
    finally:
        names["Policy"], names["play_outs"] = saved
        clear_cache()


def deep(settings: Settings, factor: int) -> Settings:
    """``settings`` with every budget ``factor`` times larger (at most the analysis's
    most worlds).

    >>> deep(Settings(), 10)
    Settings(first=640, batch=640, cap=10240, judge_cap=20480)
    """
    top = analyse_module.MAX_WORLDS
    return Settings(first=min(top, settings.first * factor),
                    batch=min(top, settings.batch * factor),
                    cap=min(top, settings.cap * factor),
                    judge_cap=min(top, settings.judge_cap * factor))


def compare(a: Analysis, ref: Analysis) -> dict[str, Any]:
    """How the best of analysis ``a`` fares in the reference analysis ``ref`` of the same
    position: ``same`` (the same group of play-outs as the reference's best), its loss in
    the reference's figures (``vs_best``, points of expected margin; a peek first or a
    decision the reference no longer played counts with the figures it has) and
    ``within_tie`` (that loss at most :data:`TIE`)."""
    best = a["decisions"][a["best"]]
    by_key = {d["key"]: d for d in ref["decisions"]}
    mine = by_key[best["key"]]
    loss = max(0.0, float(mine["vs_best"]))
    top = ref["decisions"][ref["best"]]
    same = mine["key"] == top["key"] or (mine["group"] == top["group"]
                                          and "|peek|" not in mine["key"])
    return {"same": same, "loss": loss, "within_tie": loss <= TIE}


def positions(n: int, count: int, seed: int) -> Iterator[tuple[int, View]]:
    """``count`` positions (the seat to move's view) from games of today's lookahead bots
    at ``n`` seats: in game ``i`` (``Game(n, seed=seed + i)``), the decision at a turn drawn
    uniformly from the game's turns (one position a game, so they are independent)."""
    i = 0
    made = 0
    while made < count:
        g = Game(n, seed=seed + i, first=i % n)
        bots = [LookaheadBot(11 * i + s) for s in range(n)]
        total = sum(len(g.hand(s)) for s in range(n))
        stop = random.Random(seed + i).randrange(total)
        while not g.finished and g.turns_applied < stop:
            s = g.to_move
            assert s is not None
            g.push(decide(bots[s], g))
        i += 1
        if g.finished or g.to_move is None:
            continue
        made += 1
        yield i - 1, g.view(g.to_move)


def position_row(view: View, policies: Sequence[str], references: Sequence[str],
                 factor: int) -> dict[str, Any]:
    """One position analysed under each arm of ``policies`` (names of :data:`ARMS`) at
    the default settings, and under each arm of ``references`` ``factor`` times deeper
    (on other worlds); every analysis compared with every deep one (``"a|r"``), and each
    deep one with today's (``"deep r|today"``, when today's is among them)."""
    shallow: dict[str, Analysis] = {}
    refs: dict[str, Analysis] = {}
    cpu: dict[str, float] = {}
    for name in policies:
        with analysis_policy(ARMS[name]):
            c0 = time.process_time()
            shallow[name] = analyse(view)
            cpu[name] = time.process_time() - c0
    for name in references:
        with analysis_policy(ARMS[name]):
            c0 = time.process_time()
            refs[name] = analyse(view, deep(Settings(), factor), seed=1)
            cpu[f"{name}_deep"] = time.process_time() - c0
    row: dict[str, Any] = {"turn": view["turns_applied"], "cpu": cpu,
                           "decisions": len(next(iter(shallow.values()))["decisions"])}
    for a in policies:
        for r in references:
            row[f"{a}|{r}"] = compare(shallow[a], refs[r])
    if BASE in refs:
        for r in references:
            if r != BASE:
                row[f"deep {r}|{BASE}"] = compare(refs[r], refs[BASE])
    return row


def shares(rows: Sequence[dict[str, Any]], key: str) -> dict[str, Any]:
    """For the comparisons named ``key`` in ``rows``: the shares ``same`` and
    ``within_tie`` with Wilson intervals (``[share, low, high]``) and the mean loss
    ``[mean, low, high]``.

    >>> rows = [{"k": {"same": True, "within_tie": True, "loss": 0.0}},
    ...         {"k": {"same": False, "within_tie": False, "loss": 1.0}}]
    >>> s = shares(rows, "k"); s["same"][0], s["within_tie"][0], s["loss"][0]
    (0.5, 0.5, 0.5)
    """
    xs = [r[key] for r in rows]
    return {"same": list(wilson(sum(x["same"] for x in xs), len(xs))),
            "within_tie": list(wilson(sum(x["within_tie"] for x in xs), len(xs))),
            "loss": list(mean_ci([x["loss"] for x in xs]))}


def agree(args: argparse.Namespace) -> dict[str, Any]:
    """The verdicts' run (see the module docstring)."""
    deadline = time.monotonic() + 60 * args.minutes
    policies = [BASE, *[c for c in args.candidates if c != BASE]]
    references = args.references or policies
    out: dict[str, Any] = {}
    for n in args.seats:
        rows: list[dict[str, Any]] = []
        t0 = time.perf_counter()
        for game, view in positions(n, args.positions, args.seed):
            if time.monotonic() >= deadline:
                break
            row = position_row(view, policies, references, args.factor)
            row.update({"seats": n, "game": game})
            rows.append(row)
            _log(args.rows, row)
            if args.every and len(rows) % args.every == 0:
                line = ", ".join(f"{k} {shares(rows, k)['same'][0]:.0%}"
                                 for k in rows[0] if "|" in k)
                print(f"  {n} seats, {len(rows)} positions: {line}, "
                      f"{time.perf_counter() - t0:.0f} s", file=sys.stderr, flush=True)
        if rows:
            out[str(n)] = {**agree_figures(rows), "factor": args.factor,
                           "wall_s": round(time.perf_counter() - t0)}
    return out


def agree_figures(rows: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The figures of the positions ``rows`` (:func:`position_row`'s, one seat count):
    :func:`shares` per comparison, the median CPU seconds of each analysis."""
    return {
        "positions": len(rows),
        "agreement": {k: shares(rows, k) for k in rows[0] if "|" in k},
        "cpu_s_median": {k: statistics.median(r["cpu"][k] for r in rows)
                         for k in rows[0]["cpu"]},
    }


def summarize(args: argparse.Namespace) -> dict[str, Any]:
    """The figures of the rows files ``args.logs`` (``--rows`` of earlier runs, pooled:
    other deals or other positions), per seat count; a deal's rows carry ``deal``, a
    position's ``game``."""
    groups: dict[str, list[dict[str, Any]]] = {}
    for path in args.logs:
        for line in Path(path).read_text().splitlines():
            r = json.loads(line)
            groups.setdefault(str(r["seats"]), []).append(r)
    return {n: strength_figures(rows) if "deal" in rows[0] else agree_figures(rows)
            for n, rows in groups.items()}


# --------------------------------------------------------------------------- the run


def _opponents(text: str) -> str:
    """``--opponent``: bot names among lookahead, greedy and random, comma-separated."""
    if not text or any(x not in ("lookahead", "greedy", "random") for x in text.split(",")):
        raise argparse.ArgumentTypeError(f"not bots among lookahead, greedy, random: {text!r}")
    return text


def _log(path: str | None, row: dict[str, Any]) -> None:
    if path:
        with open(path, "a") as f:
            f.write(json.dumps(row) + "\n")


def _ci(x: Sequence[float]) -> str:
    return f"{x[0]:+.2f} [{x[1]:+.2f}, {x[2]:+.2f}]"


def machine() -> str:
    """The processor, cores, Python and system the run was on."""
    name = platform.processor() or platform.machine()
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                name = line.split(":", 1)[1].strip()
                break
    return (f"{name}, {os.cpu_count()} cores, Python {platform.python_version()}, "
            f"{platform.system()}")


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    """Run the command of ``argv``; print the figures and write them with ``--json``."""
    p = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    sub = p.add_subparsers(dest="command", required=True)
    s = sub.add_parser("strength")
    s.add_argument("--arms", nargs="+", choices=[a for a in ARMS if a != BASE],
                   default=["explore0", "explore05", "explore20"])
    s.add_argument("--deals", type=int, default=1000)
    s.add_argument("--start", type=int, default=0)
    s.add_argument("--opponent", type=_opponents, default="lookahead",
                   help="the bots of the other seats: lookahead (today's, the default), "
                        "greedy, random, or a comma-separated list (seat 1 the first)")
    a = sub.add_parser("agree")
    a.add_argument("--candidates", nargs="+", choices=[x for x in ARMS if x != BASE],
                   default=["explore0", "explore05", "explore20"])
    a.add_argument("--references", nargs="+", choices=list(ARMS), default=None,
                   help="the arms of the deep analyses (default: today's and the candidates)")
    a.add_argument("--positions", type=int, default=200)
    a.add_argument("--factor", type=int, default=10)
    a.add_argument("--seed", type=int, default=300_000)
    sm = sub.add_parser("summarize", help="play nothing: the figures of --rows files")
    sm.add_argument("logs", nargs="+")
    sm.add_argument("--json", default=None)
    for q in (s, a):
        q.add_argument("--seats", type=int, nargs="+", default=[3])
        q.add_argument("--minutes", type=float, default=30.0)
        q.add_argument("--every", type=int, default=0)
        q.add_argument("--rows", default=None)
        q.add_argument("--json", default=None)
    args = p.parse_args(argv)
    load0 = os.getloadavg()
    started = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    run: Callable[[argparse.Namespace], dict[str, Any]] = {
        "strength": strength, "agree": agree, "summarize": summarize}[args.command]
    figures = run(args)
    load1 = os.getloadavg()
    res = {
        "title": "Is a stronger play-out policy worth it?",
        "command": "python benchmarks/bench_policy.py " + " ".join(
            argv if argv is not None else sys.argv[1:]),
        "date": started,
        "machine": machine(),
        "load": (f"load average {load0[0]:.1f} / {load0[1]:.1f} / {load0[2]:.1f} before, "
                 f"{load1[0]:.1f} / {load1[1]:.1f} / {load1[2]:.1f} after "
                 f"({os.cpu_count()} shared cores)"),
        "policies": {k: {"explore": v["policy"].explore,
                         "random_ties": v["policy"].random_ties,
                         "kernel": v.get("kernel", "default")} for k, v in ARMS.items()},
        "results": figures,
    }
    print(json.dumps(res, indent=1))
    if args.json:
        Path(args.json).write_text(json.dumps(res, indent=1) + "\n")
    return res


if __name__ == "__main__":
    main()
