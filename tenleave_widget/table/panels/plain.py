"""The panels in plain words: what a 12-year-old reads by default.

The odds panels (:mod:`.figures`) speak the analyst's language: expected values, margins,
95% intervals, sampled worlds. That is the *details* view (the panels' *Details* switch,
``PanelData.details``). By default the table shows the same figures with their words
rewritten here — titles, axis titles, hover texts and the text alternatives — with no
"margin", no interval brackets and no notation: "If SleepKid woke now, queue 1 would end
under 10 94% of the time"; "Best for the whole game: 5 on queue 1 — about 3 points
better than the next". The interval bars are left out (the details show them). When the
one-swat and the whole-game rankings disagree, one sentence says why.

``tests/table/test_plain_words.py`` reads every text of every panel the widget produces, over
many positions and every panel state, for a list of banned words (:data:`JARGON`).

>>> plain_points(3.94), plain_points(-1.2), plain_points(0.01)
('about 3.9 points more than the others', 'about 1.2 points fewer than the others', \
'about the same as the others')
"""

from __future__ import annotations

import copy
import re
from collections.abc import Sequence
from typing import Any

from ...analysis.review.text import LABEL_WORDS
from ...engine.cards import card_value
from ..words.coach import or_list
from .data import MoveChart, MovesChart, PanelData, PanelFigure
from .figures import KIND_NAMES, OUTCOME_PARTS, _wrap, grouped_alt, mark_of, progress_words

__all__ = ["JARGON", "disagreement", "plain_figures", "plain_points", "plain_review_words"]

JARGON = re.compile(
    r"\bmargins?\b|\bintervals?\b|\[|\]|\bP\(|\bsampled\b|\bworlds?\b|\bexpected\b|±"
    r"|95% (?:interval|confidence)|\bCI\b|\bestimat\w*|\bvariance\b|\bdistribution\b"
    r"|\bprobabilit\w*|\bposterior\b"
    r"|\bEV\b|\bobjective\b|\bstandard error\b",
    re.I,
)
"""Words a 12-year-old should not meet in the default panel texts."""


def plain_points(margin: float) -> str:
    """A whole-game margin (the mover's final penalty minus the others' average) in words."""
    if abs(margin) < 0.05:
        return "about the same as the others"
    more = "more" if margin > 0 else "fewer"
    return f"about {abs(margin):.1f} points {more} than the others"


def _card(label: str) -> str:
    """The card of a move's label (``"5* on queue 2"`` -> ``"5*"``), or ``""``."""
    return label.split(" on queue ")[0] if " on queue " in label else ""


def headline(moves: MovesChart) -> str:
    """What the moves panel says first, once its values are there. The whole game (the
    one analysis): ``"Best for the whole game: 5 on queue 1 — about 3 points better than
    the next."`` only where the analysis separates the best (its ★); else ``"About
    equally good for the whole game: A and B."``; while it thinks, which looks best so
    far. One swat ahead: the safest move for the next swat.

    >>> def row(label, worse, best):
    ...     return {"label": label, "expected_penalty": 1.0, "margin": 0.0, "worse": worse,
    ...             "best": best}
    >>> headline({"measure": "game", "done": True, "star": False,
    ...           "moves": [row("A", 0.0, True), row("B", 0.3, True), row("C", 2.0, False)]})
    'About equally good for the whole game: A and B.'
    >>> headline({"measure": "game", "done": True, "star": False, "moves": [
    ...     row("4 on q2, then rotate q2", 0.0, True), row("5 on q1", 0.3, True)]})
    'About equally good for the whole game: 4 on q2, then rotate q2; and 5 on q1.'
    >>> headline({"measure": "game", "done": True, "star": True,
    ...           "moves": [row("A", 0.0, True), row("C", 2.04, False)]})
    'Best for the whole game: A — about 2.0 points better than the next.'
    """
    rows = moves["moves"]
    if not rows:
        return ""
    if moves["measure"] == "game" and all(r["worse"] is not None for r in rows):
        if not moves["done"]:
            return f"Whole game: still thinking — {rows[0]['label']} looks best so far."
        marked = [r["label"] for r in rows if r["best"]]
        if not marked:  # (the steps taken this turn left the best behind)
            return f"Of what is left: {rows[0]['label']} looks best, but not clearly."
        if moves["star"]:
            rest = [r["worse"] for r in rows if not r["best"] and r["worse"] is not None]
            if not rest:
                return f"Best for the whole game: {marked[0]} (the only move)."
            return (f"Best for the whole game: {marked[0]} — about {min(rest):.1f} points "
                    "better than the next.")
        if len(marked) == 1:
            return f"Best for the whole game: {marked[0]}, but not clearly."
        return f"About equally good for the whole game: {or_list(marked, 'and')}."
    ranked = sorted(rows, key=lambda r: (r["expected_penalty"], r["label"]))
    first = ranked[0]
    what = "Safest for the next swat"
    if len(ranked) == 1:
        return f"{what}: {first['label']} (the only move)."
    gap = ranked[1]["expected_penalty"] - first["expected_penalty"]
    if gap < 0.05:
        return f"{what}: {first['label']}, about as good as {ranked[1]['label']}."
    return f"{what}: {first['label']} — about {gap:.1f} points better than the next."


def disagreement(moves: MovesChart) -> str:
    """One sentence when the safest move for the next swat is clearly worse for the whole
    game than the analysis's best (a ★, a move of the list), saying why; else ``""``.

    >>> def row(label, p, worse, lo):
    ...     return {"label": label, "kind": "play", "expected_penalty": p, "worse": worse,
    ...             "worse_ci95": [lo, 2 * worse - lo]}
    >>> said = disagreement({"star": True, "done": True, "moves": [
    ...     row("1 on queue 1", 0.2, 2.0, 1.0), row("5* on queue 2", 1.5, 0.0, 0.0)]})
    >>> import textwrap
    >>> print(textwrap.fill(said, 84))
    1 on queue 1 is safest for the next swat, but it keeps your 5* for a worse moment:
    5* on queue 2 is better for the whole game.
    """
    rows = [r for r in moves["moves"] if r["kind"] in ("play", "wake")]
    if not rows or not moves.get("star") or not moves.get("done") \
            or any(r["worse"] is None for r in rows):
        return ""
    swat = min(rows, key=lambda r: (r["expected_penalty"], r["label"]))
    game = next((r for r in rows if r["worse"] == 0.0), None)
    if game is None or swat["label"] == game["label"] or not swat["worse_ci95"] \
            or swat["worse_ci95"][0] <= 0:
        return ""
    a, b = _card(swat["label"]), _card(game["label"])
    if b and a and card_value(b) > card_value(a):
        why = f"it keeps your {b} for a worse moment"
    elif b and a and card_value(b) < card_value(a):
        why = f"it spends your {a} now, when it could stay safe for later"
    elif a and a == b:
        why = "the later swats are kinder on the other queue"
    else:
        why = "the next swat is not the whole game"
    return (f"{swat['label']} is safest for the next swat, but {why}: {game['label']} is "
            "better for the whole game.")


def _move_words(m: MoveChart, lookahead: bool) -> str:
    words = [f"if SleepKid woke right after, about {m['expected_penalty']:.1f} points"]
    if lookahead:
        worse, margin = m["worse"], m["margin"]
        if worse is None or margin is None:
            words.append("whole game: thinking…")
        else:
            behind = ("as good as the best" if abs(worse) < 0.05
                      else f"about {abs(worse):.1f} points "
                           f"{'worse' if worse > 0 else 'better'} than the best")
            words.append(f"whole game: {behind} ({plain_points(margin)} at the end)")
    if m["same"]:
        words.append("the same as " + ", ".join(m["same"]))
    return "; ".join(words)


def _moves(fig: PanelFigure, moves: MovesChart, players: Sequence[str]) -> PanelFigure:
    out = copy.deepcopy(fig)
    who = "" if moves["seat"] is None else str(players[moves["seat"]])
    game = moves["measure"] == "game"
    what = "best for the whole game" if game else "points from the next swat"
    title = f"{who}'s moves: {what}" if who else f"Moves: {what}"
    out["name"] = title
    layout = out["figure"]["layout"]
    layout["title"]["text"] = _wrap(title, 36)
    if not moves["moves"]:
        return out
    lookahead = moves["target"] > 0
    shown = moves["moves"][: len(out["figure"]["data"][0]["y"])]
    trace = out["figure"]["data"][0]
    trace["hovertext"] = [
        (f"{KIND_NAMES.get(m['kind'], m['kind'])}: " if game else "")
        + f"{m['label']}: {_move_words(m, lookahead)}" for m in shown]
    trace.pop("error_x", None)  # the interval bars: in the details
    if game:
        trace["name"] = "points worse than the best"
        trace["text"] = ["…" if m["worse"] is None else "0" if abs(m["worse"]) < 0.05
                         else f"{m['worse']:+.1f}".replace("-", "−") for m in shown]
        # (the narrow panel's width: a longer title is cut off)
        layout["xaxis"]["title"]["text"] = "behind the best"
    else:
        trace["name"] = "the next swat"
        layout["xaxis"]["title"]["text"] = "points from the next swat"
    for note in layout.get("annotations", []):  # "… and 3 more, each worse for the game"
        note["text"] = re.sub(r", each .*", ".", note["text"])
    said = [s for s in (headline(moves), disagreement(moves)) if s]
    if said:
        out["caption"] = " ".join(said)  # under the chart, as words that wrap
    progress = progress_words(moves, "games played out to the end from here",
                              "games played out")
    mark = {"★ lowest": "★ safest", "★ best for the game": "★ best"}.get(
        mark_of(moves, game), "≈ about equally good")
    out["alt"] = " ".join(s for s in (progress, *said) if s) + " " + grouped_alt(
        moves, mark, lambda m: _move_words(m, lookahead))
    out["alt"] = out["alt"].strip()
    return out


END = r"(.+?): (under 10|exactly 10|over 10) in (\S+) of swats \((.+)\)"
"""An outcome bar's hover text (:func:`.figures.outcome_figure`)."""


def _outcome(fig: PanelFigure) -> PanelFigure:
    out = copy.deepcopy(fig)
    parts = {name: meaning for _, name, meaning, *_ in OUTCOME_PARTS}
    for trace in out["figure"]["data"]:
        texts = trace.get("hovertext")
        if not texts:
            continue
        new = []
        for t in texts:
            if m := re.fullmatch(END, t):
                new.append(f"If SleepKid woke now, {m[1]} would end {m[2]} {m[3]} of the "
                           f"time: {parts[m[2]]}")
            elif m := re.fullmatch(r"(Queue \d+) would total (\d+) in (\S+) of swats \((.+)\)", t):
                new.append(f"If SleepKid woke now, {m[1]} would add up to {m[2]} {m[3]} of "
                           "the time")
            else:
                new.append(t)
        trace["hovertext"] = new
    out["alt"] = "If SleepKid woke now: " + re.sub(
        r"(under 10|exactly 10|over 10) (\S+%)", r"\1 \2 of the time", out["alt"]
    ).replace("Its total:", "It would add up to:")
    return out


def _rehover(fig: PanelFigure, pattern: str, repl: str) -> PanelFigure:
    """``fig`` with ``pattern`` replaced by ``repl`` in every hover text."""
    out = copy.deepcopy(fig)
    for trace in out["figure"]["data"]:
        trace["hovertext"] = [re.sub(pattern, repl, t) for t in trace.get("hovertext", [])]
    return out


def _cards(fig: PanelFigure) -> PanelFigure:
    return _rehover(fig, r"swatted in (\S+) of swats",
                    r"swatted \1 of the time if SleepKid woke now")


def _timeline(fig: PanelFigure) -> PanelFigure:
    return _rehover(fig, r", if SleepKid woke then: (\S+) expected",
                    r": about \1 if SleepKid had woken then")


def _review(fig: PanelFigure) -> PanelFigure:
    out = copy.deepcopy(fig)
    title = "Review: the points each player was heading for, after each decision (click a point)"
    out["name"] = title
    layout = out["figure"]["layout"]
    layout["title"]["text"] = _wrap(title, 36)
    layout["yaxis"]["title"]["text"] = "points at the end"
    for trace in out["figure"]["data"]:
        texts = trace.get("hovertext")
        if not texts or trace.get("meta") == "key":
            continue
        trace["hovertext"] = [_wrap(re.sub(
            r" — (\w+) \(loss (\S+)\); best (.+)$",
            lambda m: f" — {LABEL_WORDS.get(m[1], m[1])}, about {float(m[2]):.1f} points "
                      f"worse than the best: {m[3]}", t.replace("<br>", " "))) for t in texts]
    out["alt"] = re.sub(r"turn (\d+) (\w+), expected (\S+?)(;|\.)",
                        lambda m: f"turn {m[1]} {LABEL_WORDS.get(m[2], m[2])}, heading for "
                                  f"about {m[3]}{m[4]}", out["alt"])
    return out


def plain_figures(data: PanelData) -> dict[str, PanelFigure]:
    """``data``'s figures with their words for a 12-year-old (the figures' numbers as
    they are; the interval bars left out). Panels this module does not know (a new one)
    are kept as they are: the jargon test reads them too."""
    figs = dict(data["figures"])
    plain: dict[str, Any] = {
        "outcome": _outcome, "cards": _cards, "timeline": _timeline, "review": _review,
    }
    for key, fig in figs.items():
        if key == "moves":
            figs[key] = _moves(fig, data["moves"], data["players"])
        elif key in plain:
            figs[key] = plain[key](fig)
    return figs


def plain_review_words(text: str) -> str:
    """The narration's review line (``review_words``) in plain words.

    >>> plain_review_words("Review: mistake — 0.09 points of margin worse than 2 on queue 2.")
    'Review: a mistake — about 0.1 points worse than 2 on queue 2.'
    >>> plain_review_words("Review: inaccuracy (maybe a mistake) — 1.83 points of margin "
    ...                    "worse than 2 on queue 2.")
    'Review: an inaccuracy (maybe a mistake) — about 1.8 points worse than 2 on queue 2.'
    """
    m = re.fullmatch(r"Review: (\w+)( \(maybe [a-z ]+\))? — (\S+) points of margin worse "
                     r"than (.+)\.", text)
    if m:
        return (f"Review: {LABEL_WORDS.get(m[1], m[1])}{m[2] or ''} — about "
                f"{float(m[3]):.1f} points worse than {m[4]}.")
    return text
