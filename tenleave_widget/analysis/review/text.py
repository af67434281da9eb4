"""The review's words for a turn: :func:`turn_text` (``"4* q2, rotate q2"``, or in
words), :func:`model_words` (which model judged) and :func:`evaluation_table` (the
``tenleave evaluate`` JSON as a readable table)."""

from __future__ import annotations

import textwrap
from collections.abc import Sequence

from ...engine.rules import ROMAN
from ...engine.turn import BEFORE, Turn
from ..analyse import Analysis, DecisionValue
from ..move_values import MoveValues

__all__ = ["LABEL_WORDS", "analysis_table", "decision_text", "evaluation_table", "model_words",
           "turn_text"]

LABEL_WORDS = {"best": "the best move", "good": "a good move", "inaccuracy": "an inaccuracy",
               "mistake": "a mistake", "blunder": "a blunder", "forced": "forced"}
"""Each label as a sentence says it ("it was an inaccuracy", "maybe a mistake")."""


def model_words(beta: float | str) -> str:
    """How a review judged by the inferred model says so (the text report's second line).

    >>> model_words(4.0)
    "the inferred model (the hidden cards as the players' choices suggest; beta 4)"
    """
    how = ("each opponent's rationality beta fitted from its own choices so far"
           if beta == "fitted" else f"beta {beta:g}" if not isinstance(beta, str) else beta)
    return f"the inferred model (the hidden cards as the players' choices suggest; {how})"


def turn_text(t: Turn, *, words: bool = False) -> str:
    """A short text for a turn, e.g. ``"4* q2"``, ``"wake, 2 q1"``, ``"peek q2:I, 5 q1"``,
    ``"3* q2, rotate q2"`` — queues numbered from 1 and positions I to IV, as the table
    and the narration show them (a record numbers queues from 0). With ``words``, the
    same in words (the widget's status and narration lines, the puzzles' verdicts).

    >>> turn_text(Turn(0, "4*", 1, rotate=1, extra="after"))
    '4* q2, rotate q2'
    >>> turn_text(Turn(0, "4*", 1, rotate=1, extra="after"), words=True)
    '4* on queue 2, then rotate queue 2'
    >>> turn_text(Turn(1, "5", 0, peek=(2, 1), extra="before"))
    'peek q3:II, 5 q1'
    >>> turn_text(Turn(1, "5", 0, peek=(2, 1), extra="before"), words=True)
    'peek at queue 3, position II, then 5 on queue 1'
    >>> turn_text(Turn(0, "2", 0, wake=True), words=True)
    'wake SleepKid, then 2 on queue 1'
    """
    if words:
        play, then, wake = f"{t.card} on queue {t.queue + 1}", ", then ", "wake SleepKid"
        peek = f"peek at queue {t.peek[0] + 1}, position {ROMAN[t.peek[1]]}" if t.peek else ""
        rotate = f"rotate queue {t.rotate + 1}" if t.rotate is not None else ""
    else:
        play, then, wake = f"{t.card} q{t.queue + 1}", ", ", "wake"
        peek = f"peek q{t.peek[0] + 1}:{ROMAN[t.peek[1]]}" if t.peek else ""
        rotate = f"rotate q{t.rotate + 1}" if t.rotate is not None else ""
    if t.wake:
        return f"{wake}{then}{play}"
    extra = peek or rotate
    if not extra:
        return play
    return f"{extra}{then}{play}" if t.extra == BEFORE else f"{play}{then}{extra}"


def evaluation_table(ev: MoveValues, players: Sequence[str] | None = None) -> str:
    """The ``tenleave evaluate`` JSON (:func:`tenleave_widget.evaluate`) as a readable
    table: one line per move, sorted best first, the best starred; turns counted from 1 as
    on the table (the JSON's ``turn`` is the number of turns applied).

    >>> ev = {"seat": 1, "turn": 16, "samples": 8, "objective": "margin", "best": 0,
    ...       "moves": [{"turn": {"seat": 1, "play": ["3*", 0]}, "expected_final_penalty": 7.25,
    ...                  "ci95": [6.1, 8.4], "expected_margin": 0.125,
    ...                  "margin_ci95": [-2.1, 2.35], "win_probability": 0.25,
    ...                  "immediate_expected_penalty": 1.95, "samples": 8}],
    ...       "not_valued": [{"action": "peek", "reason": "not valued"}]}
    >>> print(evaluation_table(ev, ["Ana", "Ben", "Cy"]))
    Ben to move on turn 17 (after 16 turns played); up to 8 sampled worlds per move
    margin: Ben's final penalty minus the others' mean (lower is better)
    move                    margin [95% CI]         final penalty [95% CI]    wins  one swat
    3* q1 *best             +0.12 [-2.10, +2.35]    7.25 [6.10, 8.40]          25%      1.95
    not valued: peek (not valued)
    """
    seat = int(ev["seat"])
    name = players[seat] if players is not None and 0 <= seat < len(players) else f"seat {seat}"
    done = int(ev["turn"])
    lines = [f"{name} to move on turn {done + 1} (after {done} turns played); up to "
             f"{ev['samples']} sampled worlds per move",
             f"margin: {name}'s final penalty minus the others' mean (lower is better)",
             f"{'move':<23} {'margin [95% CI]':<23} {'final penalty [95% CI]':<24} "
             f"{'wins':>5}  {'one swat':>8}"]
    best = ev.get("best")
    moves = list(enumerate(ev["moves"]))
    moves.sort(key=lambda im: (im[0] != best, im[1]["expected_margin"]))
    for i, m in moves:
        move = turn_text(Turn.from_json(m["turn"])) + (" *best" if i == best else "")
        lo, hi = m["margin_ci95"]
        flo, fhi = m["ci95"]
        margin = f"{m['expected_margin']:+.2f} [{lo:+.2f}, {hi:+.2f}]"
        final = f"{m['expected_final_penalty']:.2f} [{flo:.2f}, {fhi:.2f}]"
        lines.append(f"{move:<23} {margin:<23} {final:<24} {m['win_probability']:>5.0%}  "
                     f"{m['immediate_expected_penalty']:8.2f}")
    for nv in ev.get("not_valued", []):
        lines.extend(textwrap.wrap(f"not valued: {nv['action']} ({nv['reason']})", 100,
                                   subsequent_indent="  "))
    return "\n".join(lines)


def decision_text(d: DecisionValue, *, words: bool = False) -> str:
    """A decision of the one analysis in short (or in ``words``): its turn, or for a peek
    first the card looked at (the play then depends on what it shows).

    >>> decision_text({"kind": "peek first", "turn": {"seat": 0, "peek": [1, 0],
    ...                "extra": "before", "play": ["5", 0]}}, words=True)
    'peek at queue 2, position I first, then the best play for what it shows'
    """
    t = d["turn"]
    if d["kind"] == "peek first":
        q, i = t["peek"]
        if words:
            return (f"peek at queue {q + 1}, position {ROMAN[i]} first, then the best play "
                    "for what it shows")
        return f"peek q{q + 1}:{ROMAN[i]} first"
    return turn_text(Turn.from_json(t), words=words)


def analysis_table(a: Analysis, players: Sequence[str] | None = None) -> str:
    """The one analysis of a position (``tenleave evaluate``) as a readable table: every
    decision, best first, grouped by kind; the ★ only where the best is clearly better
    than every other decision, else the decisions about as good as it; every figure a
    margin but the columns labelled as final penalties."""
    seat = int(a["seat"])
    name = players[seat] if players is not None and 0 <= seat < len(players) else f"seat {seat}"
    done = int(a["turn"])
    ds = a["decisions"]
    lines = [f"{name} to move on turn {done + 1} (after {done} turns played); up to "
             f"{a['worlds']} worlds per decision ({a['model']} model, {a['stopped']})",
             *textwrap.wrap(f"margin: {name}'s final penalty minus the others' mean, in "
                            "points (lower is better); 'worse by' is paired against the best, "
                            "its interval simultaneous over every decision compared (the "
                            "star's)", 100)]
    if a["star"]:
        lines.append(f"best: {decision_text(ds[0])} (clearly)")
    else:
        same = sorted({decision_text(ds[i]) for i in a["equal"]})
        lines.extend(textwrap.wrap(f"about equally good: {', '.join(same)}", 100,
                                   subsequent_indent="  "))
    lines.append(f"{'decision':<24} {'margin [95% CI]':<21} {'worse by [95% CI]':<21} "
                 f"{'wins':>5}  {'final penalty':>13}  {'one swat':>8}")
    for i, d in enumerate(ds):
        mark = " *" if i in a["equal"] and a["star"] else (" =" if i in a["equal"] else "")
        lo, hi = d["margin_ci95"]
        vlo, vhi = d["vs_best_ci95"]
        margin = f"{d['expected_margin']:+.2f} [{lo:+.2f}, {hi:+.2f}]"
        worse = f"{d['vs_best']:+.2f} [{vlo:+.2f}, {vhi:+.2f}]" if i else "best"
        lines.append(f"{decision_text(d) + mark:<24} {margin:<21} {worse:<21} "
                     f"{d['win_probability']:>5.0%}  {d['expected_final_penalty']:>13.2f}  "
                     f"{d['immediate_expected_penalty']:8.2f}")
    lines.extend(textwrap.wrap(
        "final penalty and one swat are penalties (not margins): the seat's own final "
        "penalty, and its expected penalty of a swat right after the decision", 100))
    return "\n".join(lines)
