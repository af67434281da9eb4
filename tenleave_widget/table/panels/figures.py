"""The odds panels as Plotly figures: each panel of :mod:`.data` as the JSON plotly.js
draws (``{"data": [...], "layout": {...}}``), with its accessible name and a text
alternative holding the same numbers.

The figures are built here as plain JSON, so composing a table state costs no plotly.py
validation (a ``go.Figure`` per panel costs ~10 ms; these take well under 1 ms) and the
export needs no plotly.py at all; :func:`odds_figures` wraps them in ``go.Figure`` objects for
an analyst (``tests/table/test_charts.py`` checks that plotly.py accepts every one). The
browser fills in the theme (colours and fonts from JupyterLab's CSS variables).

>>> from tenleave_widget import Game
>>> from tenleave_widget.analysis.odds import seat_odds
>>> from tenleave_widget.table.panels.data import TimelinePoint, panel_data
>>> g = Game(["Ana", "Ben", "Cy"], seed=1)
>>> g.apply({"seat": 0, "play": ["4*", 0]})
>>> v = g.view(1)
>>> sorted(panel_figures(panel_data(v, seat_odds(v), [TimelinePoint(0, [0, 0, 0], 0.0)])))
['cards', 'moves', 'outcome', 'timeline']
"""

from __future__ import annotations

import math
import textwrap
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ...analysis.odds import SeatOdds, seat_odds
from ...analysis.review import Review, turn_text
from ...engine.view import View, check_view
from .data import (
    CardChart,
    FigureJSON,
    MoveChart,
    MovesChart,
    OutcomeChart,
    PanelData,
    PanelFigure,
    TimelineChart,
    TimelinePoint,
    panel_data,
)

if TYPE_CHECKING:
    import plotly.graph_objects as go

__all__ = [
    "COLOUR_HEX",
    "FIGURE_KEYS",
    "as_figures",
    "cards_figure",
    "moves_figure",
    "odds_figures",
    "outcome_figure",
    "panel_figures",
    "percent",
    "progress_words",
    "review_figure",
    "timeline_figure",
    "with_figures",
]

COLOUR_HEX = {
    "red": "#d55e00",
    "yellow": "#e6c700",
    "green": "#009e73",
    "blue": "#0072b2",
    "purple": "#cc79a7",
}
"""The mosquito colours as Okabe-Ito hues (the same as js/widget.css and
js/panels/panels.css), for the figures."""

OUTCOME_PARTS = (
    ("p_under", "under 10", "the highest card is swatted", "#56b4e9", ""),
    ("p_exact", "exactly 10", "every flipped card escapes", "#009e73", "."),
    ("p_over", "over 10", "the Human Defense token swats", "#e69f00", "/"),
)
"""(key, name, what it means, colour, pattern): the three ends of a queue's swat."""
QUEUE_PATTERNS = ("", "/", "x", ".", "-")
SEAT_SYMBOLS = ("circle", "square", "triangle-up", "diamond", "x")
SEAT_DASHES = ("solid", "dash", "dot", "dashdot", "longdash")
REVIEW_SYMBOLS = {"best": "circle", "good": "circle-open", "inaccuracy": "diamond",
                  "mistake": "square", "blunder": "x"}
MOVES_SHOWN = 8
FIGURE_KEYS = ("outcome", "moves", "cards", "suggest", "timeline", "review")
"""The panels' figures, in the order they are drawn (each present only when it applies)."""


def percent(p: float) -> str:
    """A chance in words, as the panels write it (``js/panels/parts.ts``).

    >>> [percent(x) for x in (0.0, 1e-12, 0.004, 0.5, 0.996, 1.0)]
    ['0%', '0%', '<1%', '50%', '>99%', '100%']
    """
    if p <= 1e-9:
        return "0%"
    if p >= 1 - 1e-9:
        return "100%"
    if p < 0.005:
        return "<1%"
    if p > 0.995:
        return ">99%"
    return f"{round(p * 100)}%"


def signed(x: float) -> str:
    """``+1.25``, ``−0.50`` (a true minus sign), ``0.00``.

    >>> signed(1.254), signed(-0.5), signed(0.0)
    ('+1.25', '−0.50', '0.00')
    """
    return ("+" if x > 0 else "−" if x < 0 else "") + f"{abs(x):.2f}"


def _wrap(text: str, width: int = 44) -> str:
    """``text`` in lines of at most ``width`` characters (``<br>``: plotly.js does not wrap).

    >>> _wrap("It is Ben's turn: their moves are shown only in their own view.", 30)
    "It is Ben's turn: their moves<br>are shown only in their own<br>view."
    """
    return "<br>".join(textwrap.wrap(text, width)) or text


def _layout(title: str, height: int, **more: Any) -> dict[str, Any]:
    layout: dict[str, Any] = {
        "title": {"text": _wrap(title, 36), "x": 0.01, "xanchor": "left", "y": 0.99,
                  "yref": "container", "yanchor": "top", "font": {"size": 14}},
        "height": height, "autosize": True,
        "margin": {"l": 10, "r": 10, "t": 36, "b": 36, "pad": 2},
        "paper_bgcolor": "rgba(0,0,0,0)", "plot_bgcolor": "rgba(0,0,0,0)",
        "font": {"size": 12}, "hoverlabel": {"align": "left"},
        "showlegend": False,
    }
    layout.update(more)
    return layout


_NARROW = frozenset(" .,:;'·|!ijlI()[]")
_WIDE = frozenset("MW@%✱★…")


def label_margin(labels: Sequence[str], size: float = 11) -> int:
    """A left margin (px) that holds the longest of ``labels`` in ``size`` px type (the
    tick labels): an estimate on the wide side, so plotly.js need not measure the labels
    and lay the chart out again (``automargin`` cost about half of a chart's redraw).

    >>> label_margin(["Queue 1 (4 ✱ ?)", "Queue 2"])
    100
    """
    def width(text: str) -> float:
        return sum(0.33 if c in _NARROW else 0.95 if c in _WIDE
                   else 0.72 if c.isupper() else 0.62 for c in text)
    return round(max((width(t) for t in labels), default=0.0) * size) + 12


# The right margin (px) of a 0-100% axis: half its last tick label ("100%") lies past the
# axis's end, and plotly.js hides a tick label that would cross the chart's edge.
PERCENT_RIGHT = label_margin(["100%"]) // 2


def _note(text: str, **where: Any) -> dict[str, Any]:
    """A line of words on the chart (an empty or finished state, a direct label)."""
    note: dict[str, Any] = {"text": text, "showarrow": False, "xref": "paper",
                            "yref": "paper", "x": 0.5, "y": 0.5, "font": {"size": 13}}
    note.update(where)
    return note


def _words_figure(title: str, text: str, height: int = 120) -> FigureJSON:
    """A chart with nothing to draw: its words instead (no axes)."""
    hidden = {"visible": False}
    return {"data": [], "layout": _layout(title, height + 20, xaxis=hidden, yaxis=hidden,
                                          margin={"l": 10, "r": 10, "t": 56, "b": 10},
                                          annotations=[_note(_wrap(text))])}


def _hex(colours: Sequence[str], seat: int) -> str:
    return COLOUR_HEX.get(colours[seat], "#777777") if seat < len(colours) else "#777777"


def outcome_figure(outcome: Sequence[OutcomeChart]) -> PanelFigure:
    """*If SleepKid woke now*: a stacked bar per queue (under / exactly / over 10, the
    percentages written on the bars) above the distribution of each queue's total.

    >>> f = outcome_figure([{"queue": 0, "cards": ["4", "?"], "empty": False,
    ...     "p_under": 0.75, "p_exact": 0.25, "p_over": 0.0, "total": {"7": 0.75, "10": 0.25}}])
    >>> f["alt"]
    'Queue 1 (4 ?): under 10 75%, exactly 10 25%, over 10 0%. Its total: 7 75%, 10 25%.'
    >>> [t["name"] for t in f["figure"]["data"]]
    ['under 10: the highest card is swatted', 'exactly 10: every flipped card escapes', \
'over 10: the Human Defense token swats', 'Queue 1']
    """
    title = "If SleepKid woke now: how each queue would end"
    if not outcome:
        return {"name": title, "alt": "No queue.",
                "figure": _words_figure(title, "No queue to show.")}
    if all(q["empty"] for q in outcome):  # no bar to draw: its words
        words = "Every queue is empty: nothing to swat."
        return {"name": title, "alt": words, "figure": _words_figure(title, words)}
    rows = [f"Queue {q['queue'] + 1} ({' '.join(c.replace('*', '✱') for c in q['cards'])})"
            if not q["empty"] else f"Queue {q['queue'] + 1}" for q in outcome]
    alts: list[str] = []
    for q, row in zip(outcome, rows, strict=True):
        if q["empty"]:
            alts.append(f"{row}: empty, nothing to swat.")
            continue
        ends = ", ".join(f"{name} {percent(q[key])}"  # type: ignore[literal-required]
                         for key, name, *_ in OUTCOME_PARTS)
        totals = ", ".join(f"{t} {percent(p)}" for t, p in _totals(q))
        alts.append(f"{row}: {ends}. Its total: {totals}.")
    data: list[dict[str, Any]] = []
    for key, name, meaning, colour, pattern in OUTCOME_PARTS:
        xs = [0.0 if q["empty"] else float(q[key]) for q in outcome]  # type: ignore[literal-required]
        data.append({
            "type": "bar", "orientation": "h", "name": f"{name}: {meaning}",
            "y": rows, "x": xs, "xaxis": "x", "yaxis": "y",
            "marker": {"color": colour, "line": {"width": 1},
                       "pattern": {"shape": pattern, "fgcolor": "rgba(0,0,0,0.3)",
                                   "fillmode": "overlay"}},
            "insidetextfont": {"color": "#000000"},  # on the light hues, both themes
            "text": [percent(x) if x >= 0.12 else "" for x in xs],
            "textposition": "inside", "insidetextanchor": "middle",
            "hovertext": [f"{row}: {name} in {percent(x)} of swats ({meaning})"
                          for row, x in zip(rows, xs, strict=True)],
            "hoverinfo": "text", "showlegend": True, "legendgroup": name,
        })
    most, high = 0.0, 10
    for n, q in enumerate(x for x in outcome if not x["empty"]):
        pairs = _totals(q)
        most = max([most, *(p for _, p in pairs)])
        high = max([high, *(t for t, _ in pairs)])
        data.append({
            "type": "bar", "name": f"Queue {q['queue'] + 1}", "xaxis": "x2", "yaxis": "y2",
            "x": [t for t, _ in pairs], "y": [p for _, p in pairs],
            "marker": {"pattern": {"shape": QUEUE_PATTERNS[n % len(QUEUE_PATTERNS)]},
                       "line": {"width": 1}},
            "meta": "neutral",  # drawn in the theme's second text colour (js/panels/plot.ts)
            "hovertext": [f"Queue {q['queue'] + 1} would total {t} in {percent(p)} of swats "
                          f"({'under 10' if t < 10 else 'exactly 10' if t == 10 else 'over 10'})"
                          for t, p in pairs],
            "hoverinfo": "text", "showlegend": True, "legend": "legend2",
        })
    empty = [_note("empty: nothing to swat", xref="x", yref="y", x=0.5, y=row)
             for q, row in zip(outcome, rows, strict=True) if q["empty"]]
    zones = [(-0.5, 9.5, OUTCOME_PARTS[0][3]), (9.5, 10.5, OUTCOME_PARTS[1][3]),
             (10.5, high + 0.5, OUTCOME_PARTS[2][3])]
    shapes = [{"type": "rect", "xref": "x2", "yref": "y2 domain", "x0": a, "x1": b, "y0": 0,
               "y1": 1, "fillcolor": colour, "opacity": 0.18, "layer": "below",
               "line": {"width": 0}} for a, b, colour in zones]
    rows_px = 30 * len(outcome)
    # layout.meta.legend_px: the room (px) its legends take at the top and bottom; the
    # table draws these legends in HTML around the chart and takes that room off
    # (js/panels/legend.ts: plotly.js redrew them with every state)
    if len(data) == len(OUTCOME_PARTS):  # every queue empty: no total to show
        layout = _layout(title, 110 + rows_px + 40, barmode="stack", showlegend=True,
                         legend={"orientation": "h", "x": 0, "y": 1.02, "yanchor": "bottom",
                                 "traceorder": "normal", "font": {"size": 11}},
                         margin={"l": label_margin(rows), "r": PERCENT_RIGHT, "t": 110, "b": 30,
                                 "pad": 2},
                         xaxis={"range": [0, 1], "tickformat": ".0%", "fixedrange": True},
                         yaxis={"autorange": "reversed", "fixedrange": True,
                                "showgrid": False},
                         annotations=empty, meta={"legend_px": {"t": 56, "b": 0}})
        return {"name": title, "alt": " ".join(alts),
                "figure": {"data": data, "layout": layout}}
    layout = _layout(
        title, 110 + rows_px + 190, barmode="stack", showlegend=True,
        legend={"orientation": "h", "x": 0, "y": 1.02, "yanchor": "bottom",
                "traceorder": "normal", "font": {"size": 11}},
        legend2={"orientation": "h", "x": 0, "xanchor": "left", "y": -0.2,
                 "yanchor": "top", "font": {"size": 11}},
        margin={"l": label_margin([*rows, "100%"]), "r": PERCENT_RIGHT, "t": 110, "b": 70,
                "pad": 2},
        xaxis={"range": [0, 1], "tickformat": ".0%", "domain": [0, 1], "anchor": "y",
               "fixedrange": True},
        yaxis={"domain": [0.5, 1], "autorange": "reversed", "fixedrange": True,
               "showgrid": False, "anchor": "x"},
        xaxis2={"domain": [0, 1], "anchor": "y2", "type": "linear",
                "dtick": 1 if high <= 10 else 2,
                "range": [-0.5, high + 0.5], "fixedrange": True,
                "title": {"text": "the total when flipping stops"}},
        yaxis2={"domain": [0, 0.34], "anchor": "x2", "tickformat": ".0%", "fixedrange": True,
                "range": [0, min(1.0, most * 1.15 + 0.02)], "nticks": 3},
        shapes=shapes,
        annotations=empty,
        meta={"legend_px": {"t": 56, "b": 25}},
    )
    return {"name": title, "alt": " ".join(alts), "figure": {"data": data, "layout": layout}}


def _totals(q: OutcomeChart) -> list[tuple[int, float]]:
    return sorted((int(t), float(p)) for t, p in q["total"].items() if p > 1e-9)


def cards_figure(cards: Sequence[CardChart], colours: Sequence[str]) -> PanelFigure:
    """*Chance each card is swatted now*: a bar per table card in its owner's colour.

    >>> f = cards_figure([{"queue": 0, "position": 0, "label": "queue 1 · I · Ana (4)",
    ...     "owner": 0, "value": 4, "p_swatted": 0.5}], ["red"])
    >>> f["alt"], f["figure"]["data"][0]["marker"]["color"]
    ('queue 1 · I · Ana (4): swatted 50%.', ['#d55e00'])
    """
    title = "Chance each card is swatted now"
    if not cards:
        text = "No card on the table: nothing can be swatted."
        return {"name": title, "alt": text, "figure": _words_figure(title, text)}
    labels = [c["label"] for c in cards]
    xs = [float(c["p_swatted"]) for c in cards]
    data = [{
        "type": "bar", "orientation": "h", "y": labels, "x": xs, "name": "swatted",
        "marker": {"color": [_hex(colours, c["owner"]) for c in cards],
                   "line": {"width": 1}},
        "text": [percent(x) for x in xs], "textposition": "auto",
        "hovertext": [f"{label}: swatted in {percent(x)} of swats" for label, x
                      in zip(labels, xs, strict=True)],
        "hoverinfo": "text",
    }]
    layout = _layout(title, 60 + 26 * len(cards),
                     margin={"l": label_margin(labels), "r": PERCENT_RIGHT, "t": 36, "b": 36,
                             "pad": 2},
                     xaxis={"range": [0, 1], "tickformat": ".0%", "fixedrange": True},
                     yaxis={"autorange": "reversed", "fixedrange": True, "showgrid": False})
    alt = " ".join(f"{label}: swatted {percent(x)}." for label, x in zip(labels, xs, strict=True))
    return {"name": title, "alt": alt, "figure": {"data": data, "layout": layout}}


def mark_of(moves: MovesChart, game: bool) -> str:
    """How the marked rows are marked: ``"★ lowest"`` (one swat ahead), ``"★ best for the
    game"`` (the analysis's separated best) or ``"≈ about equally good"``."""
    if not game:
        return "★ lowest"
    return "★ best for the game" if moves["star"] else "≈ about equally good"


def moves_figure(moves: MovesChart, players: Sequence[str]) -> PanelFigure:
    """The mover's moves, best first, by the measure chosen: one swat right after (bars),
    or the whole game (each decision's points worse than the best, with the paired 95%
    interval of the one analysis); the best marked (★), or the decisions about equally
    good as the best (≈) when the analysis cannot separate them.

    >>> m = {"seat": 0, "measure": "swat", "worlds": 0, "target": 0, "empty": "", "moves": [
    ...     {"label": "1 on queue 1", "kind": "play", "expected_penalty": 0.0, "best": True,
    ...      "final": None, "final_ci95": [], "margin": None, "margin_ci95": [],
    ...      "worse": None, "worse_ci95": [], "same": []}], "done": False, "star": False}
    >>> f = moves_figure(m, ["Ana"])
    >>> f["name"], f["alt"]
    ("Ana's moves: penalty of one swat right after", '1 on queue 1 (★ lowest): one swat 0.00.')
    """
    who = "" if moves["seat"] is None else str(players[moves["seat"]])
    game = moves["measure"] == "game"
    what = "value over the whole game" if game else "penalty of one swat right after"
    title = f"{who}'s moves: {what}" if who else f"Moves: {what}"
    if not moves["moves"]:
        return {"name": title, "alt": moves["empty"],
                "figure": _words_figure(title, moves["empty"])}
    shown = moves["moves"][:MOVES_SHOWN]
    mark = mark_of(moves, game)
    labels = [f"{m['label']} {mark[0]}" if m["best"] else m["label"] for m in shown]
    words = [_move_words(m, moves["target"] > 0) for m in shown]
    best = "#009e73"
    plain = "#888888"
    colours = [best if m["best"] else plain for m in shown]
    if game:
        xs = [m["worse"] for m in shown]
        plus = [(m["worse_ci95"][1] - m["worse"]) if m["worse"] is not None
                and len(m["worse_ci95"]) == 2 else 0.0 for m in shown]
        minus = [(m["worse"] - m["worse_ci95"][0]) if m["worse"] is not None
                 and len(m["worse_ci95"]) == 2 else 0.0 for m in shown]
        trace: dict[str, Any] = {
            "type": "scatter", "mode": "markers+text", "y": labels, "x": xs,
            # one colour for the bars (the marker's is a list: plotly.js cannot take it
            # there, logs a warning and draws them black), grey on a light or dark page
            "error_x": {"type": "data", "symmetric": False, "array": plus,
                        "arrayminus": minus, "thickness": 6, "width": 0, "color": plain},
            "marker": {"color": colours, "size": 10, "symbol": "line-ns-open",
                       "line": {"width": 3}},
            "text": ["…" if x is None else signed(x) for x in xs],
            "textposition": "top center", "name": "points worse than the best",
            "cliponaxis": False,
        }
        xaxis: dict[str, Any] = {"zeroline": True, "fixedrange": True,
                                 "title": {"text": "behind the best"}}
    else:
        xs = [m["expected_penalty"] for m in shown]
        trace = {
            "type": "bar", "orientation": "h", "y": labels, "x": xs,
            "marker": {"color": colours, "line": {"width": 1}}, "name": "one swat",
            "text": [f"{x:.2f}" for x in xs], "textposition": "auto",
        }
        xaxis = {"rangemode": "tozero", "fixedrange": True,
                 "title": {"text": "expected penalty (lower is better)"}}
    trace.update({"hovertext": [f"{KIND_NAMES.get(m['kind'], m['kind'])}: {m['label']}: {w}"
                                if game else f"{m['label']}: {w}"
                                for m, w in zip(shown, words, strict=True)],
                  "hoverinfo": "text"})
    notes = []
    rest = len(moves["moves"]) - len(shown)
    if rest > 0:
        # at the plot's right end, growing left into the labels' margin: the whole
        # line is inside the figure (from the left end it ran past the right edge)
        notes.append(_note(f"… and {rest} more, each {'worse for the game' if game else 'higher'}.",
                           y=0, yanchor="top", yshift=-52, x=1, xanchor="right",
                           font={"size": 11}))
    progress = progress_words(moves)  # in words beside the figure (js/panels/moves.ts)
    layout = _layout(title, 110 + 26 * len(shown) + (20 if rest else 0),
                     xaxis=xaxis, annotations=notes,
                     margin={"l": label_margin(labels), "r": 10, "t": 56,
                             "b": 70 if rest else 48, "pad": 2},
                     yaxis={"autorange": "reversed", "fixedrange": True, "showgrid": False})
    alt = grouped_alt(moves, mark, lambda m: _move_words(m, moves["target"] > 0))
    if progress:
        alt = f"{progress} {alt}"
    return {"name": title, "alt": alt, "figure": {"data": [trace], "layout": layout}}


KIND_NAMES = {"play": "Play", "play then rotate": "Play, then rotate",
              "rotate first": "Rotate first", "wake first": "Wake SleepKid first",
              "peek first": "Peek first", "wake": "Wake SleepKid"}
"""The kinds of decision as the moves panel groups them, in words."""

KIND_ORDER = ("play", "wake", "play then rotate", "rotate first", "wake first", "peek first")


def grouped_alt(moves: MovesChart, mark: str, words: Any) -> str:
    """The moves' text alternative: one swat ahead, every row in order; the whole game,
    grouped by kind ("Play: …. Play, then rotate: …. Peek first: …."), best first in each,
    the marked ones said (``mark``)."""
    def one(m: MoveChart) -> str:
        return f"{m['label']}{f' ({mark})' if m['best'] else ''}: {words(m)}."

    if moves["measure"] != "game":
        return " ".join(one(m) for m in moves["moves"])
    parts = []
    for kind in KIND_ORDER:
        rows = [m for m in moves["moves"] if m["kind"] == kind]
        if rows:
            parts.append(f"{KIND_NAMES[kind]} — " + " ".join(one(m) for m in rows))
    return " ".join(parts)


def progress_words(moves: MovesChart, done: str = "sampled worlds played out to the end",
                   doing: str = "worlds") -> str:
    """How far the whole-game analysis of ``moves`` has come, in words (``""`` before it
    starts): ``done`` names the worlds once it has stopped, ``doing`` while they come in.

    >>> m = {"target": 1024, "worlds": 32, "done": False}
    >>> progress_words(m), progress_words(m, doing="games played out")
    ('Whole game: thinking… 32 worlds so far.', 'Whole game: thinking… 32 games played out so far.')
    >>> progress_words({"target": 96, "worlds": 96, "done": True})
    'Whole game: 96 sampled worlds played out to the end.'
    """
    if moves["target"] == 0:
        return ""
    if moves["done"]:
        return f"Whole game: {moves['worlds']} {done}."
    return f"Whole game: thinking… {moves['worlds']} {doing} so far."


def _interval(ci: Sequence[float], fmt: Any) -> str:
    return f" [{fmt(ci[0])}, {fmt(ci[1])}]" if len(ci) == 2 else ""


def _move_words(m: MoveChart, lookahead: bool) -> str:
    """``one swat 0.16, whole game: worse than the best by +0.80 [+0.2, +1.4], margin
    −1.20 [−1.9, −0.5], final penalty 6.1 [...]`` (margins and "worse by" are points of
    margin; the final penalty is labelled as one)."""
    words = [f"one swat {m['expected_penalty']:.2f}"]
    if lookahead:
        margin = m["margin"]
        if margin is None:
            words.append("whole game: …")
        else:
            worse = m["worse"]
            if worse is not None and m["worse_ci95"] == [0.0, 0.0]:  # the best itself
                words.append("whole game: the best")
            elif worse is not None:
                words.append(f"whole game: worse than the best by {signed(worse)}"
                             f"{_interval(m['worse_ci95'], signed)}")
            words.append(f"margin {signed(margin)}{_interval(m['margin_ci95'], signed)}")
        final = m["final"]
        if final is not None:
            words.append(f"final penalty {final:.1f}"
                         f"{_interval(m['final_ci95'], lambda x: f'{x:.1f}')}")
    if m["same"]:
        words.append("plays out as " + ", ".join(m["same"]))
    return ", ".join(words)


TIMELINE_PLOT_HEIGHT = 250 - 36 - 70
"""The timeline's plot area, in px: its height less the top and bottom margins."""
TIMELINE_LABEL_GAP = 14
"""The least distance, in px, between two of the timeline's end labels (11 px type)."""


def timeline_figure(timeline: TimelineChart, players: Sequence[str],
                    colours: Sequence[str]) -> PanelFigure:
    """*Penalties so far*: each seat's penalty after each turn (a marker shape and a line
    style per seat, the names written at the line ends, tied seats named together), and
    the viewing seat's penalty plus the expected penalty of a swat right then (dotted).

    >>> f = timeline_figure({"turns": [0, 1], "penalty": [[0, 3], [0, 3]], "expected": [],
    ...                      "viewer": None}, ["Ana", "Ben"], ["red", "yellow"])
    >>> f["alt"], [a["text"] for a in f["figure"]["layout"]["annotations"]]
    ('After turn 1: Ana 3, Ben 3.', ['Ana, Ben: 3'])
    """
    title = "Penalties so far"
    turns = timeline["turns"]
    if not turns:
        return {"name": title, "alt": "No turn yet.",
                "figure": _words_figure(title, "No turn yet.")}
    last = turns[-1]
    now = ", ".join(f"{players[s]} {line[-1]}" for s, line in enumerate(timeline["penalty"]))
    if len(turns) == 1:  # one point is no line: its words
        words = ("No turn played yet: nobody has a penalty." if last == 0
                 and not any(line[-1] for line in timeline["penalty"])
                 else f"After turn {last}: {now}.")
        return {"name": title, "alt": words, "figure": _words_figure(title, words)}
    data: list[dict[str, Any]] = []
    for s, line in enumerate(timeline["penalty"]):
        data.append({
            "type": "scatter", "mode": "lines+markers", "name": str(players[s]),
            "x": list(turns), "y": list(line),
            "line": {"color": _hex(colours, s), "dash": SEAT_DASHES[s % 5], "width": 2},
            "marker": {"symbol": SEAT_SYMBOLS[s % 5], "size": 8, "color": _hex(colours, s)},
            "hovertext": [f"{players[s]} after turn {t}: penalty {p}"
                          for t, p in zip(turns, line, strict=True)],
            "hoverinfo": "text", "showlegend": False,
        })
    viewer = timeline["viewer"]
    expected = timeline["expected"]
    if viewer is not None and any(e is not None for e in expected):
        data.append({
            "type": "scatter", "mode": "lines", "name": f"{players[viewer]} if SleepKid woke",
            "x": list(turns), "y": list(expected),
            "line": {"color": _hex(colours, viewer), "dash": "dot", "width": 1.5},
            "hovertext": ["" if e is None else f"{players[viewer]} after turn {t}, if SleepKid "
                          f"woke then: {e:.1f} expected" for t, e in zip(turns, expected,
                                                                        strict=True)],
            "hoverinfo": "text", "connectgaps": False, "showlegend": True,
        })
    ends: dict[int, list[str]] = {}
    for s, line in enumerate(timeline["penalty"]):
        ends.setdefault(line[-1], []).append(str(players[s]))
    # the y axis from 0 to a fixed top, so the labels' pixel places are known: each label
    # at least a line above the one below it (13 and 14 on one line overlapped)
    top = max([*(p for line in timeline["penalty"] for p in line),
               *(e for e in expected if e is not None), 1]) * 1.1 + 0.5
    per_point = TIMELINE_PLOT_HEIGHT / top
    labels, floor = [], -math.inf
    for p, names in sorted(ends.items()):
        at = max(p * per_point, floor + TIMELINE_LABEL_GAP)
        floor = at
        labels.append({"text": f"{', '.join(names)}: {p}", "x": last, "y": p, "xref": "x",
                       "yref": "y", "xanchor": "left", "xshift": 8,
                       "yshift": round(at - p * per_point, 1), "showarrow": False,
                       "font": {"size": 11}})
    layout = _layout(title, 250, annotations=labels, showlegend=True,
                     legend={"orientation": "h", "x": 0, "y": -0.3, "yanchor": "top"},
                     margin={"l": 36, "r": 110, "t": 36, "b": 70, "pad": 2},
                     xaxis={"title": {"text": "turns played"},
                            "dtick": max(1, (last - turns[0]) // 8),
                            "range": [turns[0] - 0.3, last + 0.3], "fixedrange": True},
                     yaxis={"title": {"text": "penalty"}, "range": [0, top],
                            "fixedrange": True})
    alt = f"After turn {last}: {now}."
    if viewer is not None and expected and expected[-1] is not None:
        alt += (f" {players[viewer]}'s penalty if SleepKid woke now: about "
                f"{expected[-1]:.1f}.")
    return {"name": title, "alt": alt, "figure": {"data": data, "layout": layout}}


def review_figure(review: Review, seat: int | None, colours: Sequence[str],
                  turn: int | None = None) -> PanelFigure:
    """The review's evaluation graph: each seat's expected final penalty from its own
    view after each of its decisions (the marker's shape is the label); a click on a
    point shows that decision's position (``customdata`` is its turn). In a seat's view
    only that seat's decisions (the review names the cards it held); ``turn`` marks the
    position shown."""
    title = "Review: expected final penalty after each decision (click a point)"
    seats = range(len(review.players)) if seat is None else [seat]
    data: list[dict[str, Any]] = []
    alts: list[str] = []
    for s in seats:
        mine = [t for t in review.turns if t.seat == s]
        texts = [f"turn {t.turn + 1}: {turn_text(t.played, words=True)} — {t.label} "
                 f"(loss {t.loss:.2f}); best {turn_text(t.best, words=True)}"
                 for t in mine]
        data.append({
            "type": "scatter", "mode": "lines+markers", "name": review.players[s],
            "x": [t.turn + 1 for t in mine],
            "y": [float(t.expected_final_penalty) for t in mine],
            "customdata": [t.turn for t in mine],
            "line": {"color": _hex(colours, s), "width": 2},
            "marker": {"size": 10, "symbol": [REVIEW_SYMBOLS.get(t.label, "circle")
                                              for t in mine], "color": _hex(colours, s)},
            # in lines of at most 44 characters: a long line ran out of the plot
            "hovertext": [_wrap(t) for t in texts], "hoverinfo": "text",
        })
        alts.append(f"{review.players[s]}: " + "; ".join(
            f"turn {t.turn + 1} {t.label}, expected {t.expected_final_penalty:.1f}"
            for t in mine) + ".")
    labels = {t.label for t in review.turns if t.seat in seats}
    data += review_key([lab for lab in REVIEW_SYMBOLS if lab in labels])
    shapes = [] if turn is None else [{
        "type": "line", "xref": "x", "yref": "paper", "x0": turn + 1, "x1": turn + 1,
        "y0": 0, "y1": 1, "line": {"dash": "dot", "width": 1}}]
    layout = _layout(title, 300, showlegend=True, shapes=shapes, clickmode="event",
                     legend={"orientation": "h", "x": 0, "y": -0.2, "yanchor": "top"},
                     margin={"l": 40, "r": 10, "t": 56, "b": 110, "pad": 2},
                     xaxis={"title": {"text": "turn"}, "fixedrange": True},
                     yaxis={"title": {"text": "expected final penalty"}, "fixedrange": True})
    return {"name": title, "alt": " ".join(alts),
            "figure": {"data": data, "layout": layout}}


def review_key(labels: Sequence[str]) -> list[dict[str, Any]]:
    """The key of the review graph's marker shapes: a legend entry per label shown, with
    nothing to draw (``meta: "key"``; in the theme's text colour)."""
    return [{"type": "scatter", "mode": "markers", "x": [None], "y": [None], "name": lab,
             "marker": {"symbol": REVIEW_SYMBOLS[lab], "size": 10, "line": {"width": 2}},
             "meta": "key", "legendgroup": "key", "hoverinfo": "skip", "showlegend": True}
            for lab in labels]


def with_figures(data: PanelData) -> PanelData:
    """``data`` with its figures (:func:`panel_figures`) in ``data["figures"]``: the
    panels as the table syncs them."""
    data["figures"] = panel_figures(data)
    return data


def panel_figures(data: PanelData) -> dict[str, PanelFigure]:
    """The figures of ``data``'s panels: all four when live, the timeline when the game
    is over, none when hidden (the review's is added by the session that has one)."""
    if data["state"] == "hidden":
        return {}
    out = {"timeline": timeline_figure(data["timeline"], data["players"], data["colours"])}
    if data["state"] == "finished":
        return out
    return {
        "outcome": outcome_figure(data["outcome"]),
        "moves": moves_figure(data["moves"], data["players"]),
        "cards": cards_figure(data["cards"], data["colours"]),
        **out,
    }


def odds_figures(
    view: View,
    odds: SeatOdds | None = None,
    timeline: Sequence[TimelinePoint] = (),
    *,
    review: Review | None = None,
) -> dict[str, go.Figure]:
    """The panels of a seat's view as Plotly figures, to ``show()``, ``write_html`` or put
    in a report.

    Args:
        view: the seat's view (``Game.view(seat)``).
        odds: its odds (default: :func:`~tenleave_widget.analysis.odds.seat_odds` of the
            view).
        timeline: the penalties after each turn so far (default: the position alone).
        review: a review of the game (:func:`~tenleave_widget.analysis.review.review`),
            to add its evaluation graph.

    Returns:
        ``plotly.graph_objects.Figure`` objects by name: ``outcome``, ``moves``,
        ``cards`` and ``timeline`` (only ``timeline`` once the game is over), and
        ``review`` with a review.

    Example:
        >>> from tenleave_widget import Game
        >>> g = Game(["Ana", "Ben"], seed=1)
        >>> g.apply({"seat": 0, "play": ["4*", 0]})
        >>> figs = odds_figures(g.view(1))
        >>> sorted(figs), type(figs["outcome"]).__name__
        (['cards', 'moves', 'outcome', 'timeline'], 'Figure')
    """
    check_view(view)
    if odds is None:
        odds = seat_odds(view)
    made = panel_figures(panel_data(view, odds, timeline))
    if review is not None:
        made["review"] = review_figure(review, view["seat"], view["colours"],
                                       view["turns_applied"])
    return as_figures(made)


def as_figures(panels: Mapping[str, PanelFigure]) -> dict[str, go.Figure]:
    """The figures of ``panels`` (as synced in ``PanelData.figures``) as ``go.Figure``
    objects, in the order the table draws them; plotly.py is imported here only, so a
    table (and the HTML export) never loads it.

    >>> as_figures({})
    {}
    """
    import plotly.graph_objects as go  # noqa: PLC0415 - for an analyst only

    return {k: go.Figure(panels[k]["figure"]) for k in FIGURE_KEYS if k in panels}
