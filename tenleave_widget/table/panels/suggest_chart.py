"""The figure of *What their plays suggest*: a pure function of the panel's data.

For each card the seat cannot see (:class:`~.data.SuggestCard`: a face-down table card,
or any one of an opponent's unseen hand cards of one back) two bars of the same length,
one above the other: its chance of each value **by the rules alone** and **as their plays
suggest**, each split into the card's possible values (one colour per value, from light
for a 1 to dark for a 5, the value written on its part when there is room). The card
whose chances moved most is starred. The text alternative holds the same numbers.

>>> card = {"label": "queue 1 · II · Ben (?✱)", "owner": 1, "back": "marked", "key": 1,
...         "size": 1, "uniform": {"3": 0.4, "4": 0.4, "5": 0.2},
...         "inferred": {"3": 0.95, "4": 0.05, "5": 0.0}}
>>> f = suggest_figure([card], "Ana", star=0)
>>> f["name"]
'What their plays suggest: the cards Ana cannot see'
>>> print(f["alt"])  # doctest: +NORMALIZE_WHITESPACE
★ queue 1 · II · Ben (?✱): by the rules alone 3 40%, 4 40%, 5 20%;
as their plays suggest 3 95%, 4 5%, 5 0%.
>>> [t["name"] for t in f["figure"]["data"]], f["figure"]["data"][0]["x"]
(['3', '4', '5'], [0.4, 0.95])
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .data import PanelFigure, SuggestCard
from .figures import _layout, _note, _words_figure, percent

__all__ = ["LEFT", "ROWS", "TICKS", "VALUE_COLOURS", "suggest_figure", "suggest_title",
           "words_figure"]

ROWS = ("by the rules alone", "as their plays suggest")
"""The two bars of a card, top first (in the text alternative and the hover texts)."""

TICKS = ("rules alone", "their plays")
"""The two bars' names beside them (short: the chart is a side panel's width)."""

LEFT = 72
"""The left margin (px) that holds the bars' names; each card's name starts there too."""

VALUE_COLOURS = {1: "#fff3b0", 2: "#fdc86a", 3: "#f48c3a", 4: "#d1452b", 5: "#8c1d18"}
"""A card value's colour: light (a small penalty) to dark (a big one), light enough for
black text up to 3 and dark enough for white text from 4."""

UNIT = 19
"""Pixels per bar (a card takes three: its two bars and a gap for its name)."""


def suggest_title(viewer: str) -> str:
    """The panel's name (also its heading).

    >>> suggest_title("Ana")
    'What their plays suggest: the cards Ana cannot see'
    """
    return f"What their plays suggest: the cards {viewer} cannot see"


def words_figure(viewer: str, text: str) -> PanelFigure:
    """The panel with words instead of bars (reading, or nothing to show)."""
    title = suggest_title(viewer)
    return {"name": title, "alt": text, "figure": _words_figure(title, text)}


def _dist(d: dict[str, float]) -> str:
    return ", ".join(f"{v} {percent(p)}" for v, p in sorted(d.items(), key=lambda x: int(x[0])))


def suggest_figure(cards: Sequence[SuggestCard], viewer: str, star: int | None = None,
                   reason: str = "", *, reading: bool = False) -> PanelFigure:
    """The panel's figure for ``cards``, ``star`` the index of the card whose chances
    moved most (``None``: none), ``reason`` (plain words) ending the text alternative.
    ``reading``: their plays are being read (the cards' ``inferred`` are empty: their
    bars are left empty and the text says so)."""
    title = suggest_title(viewer)
    if not cards:
        return words_figure(viewer, f"{viewer} can see every card on the table: there is "
                                    "nothing to guess.")
    labels = [("★ " if j == star else "") + c["label"] for j, c in enumerate(cards)]
    values = sorted({int(v) for c in cards for v in (*c["uniform"], *c["inferred"])})
    ys = [y for j in range(len(cards)) for y in (3 * j, 3 * j + 1)]
    data: list[dict[str, Any]] = []
    for v in values:
        xs = [round(float(d.get(str(v), 0.0)), 4) for c in cards
              for d in (c["uniform"], c["inferred"])]
        dark = v >= 4
        data.append({  # small: the card's name is above its bars, the exact words in `alt`
            "type": "bar", "orientation": "h", "name": str(v), "y": ys, "x": xs,
            "marker": {"color": VALUE_COLOURS.get(v, "#888888"), "line": {"width": 1}},
            "text": [str(v) if x >= 0.07 else "" for x in xs], "textposition": "inside",
            "insidetextanchor": "middle", "textangle": 0, "constraintext": "none",
            "insidetextfont": {"color": "#ffffff" if dark else "#000000", "size": 11},
            "hovertemplate": f"a {v}: %{{x:.0%}}<extra></extra>",
            "showlegend": False,  # the values are written on the bars
        })
    names = [_note(label, xref="paper", yref="y", x=0, xanchor="left", xshift=-LEFT + 4,
                   y=3 * j - 1.0, yanchor="middle", font={"size": 12})
             for j, label in enumerate(labels)]
    height = 70 + UNIT * (3 * len(cards) + 1)
    layout = _layout(
        title, height, barmode="stack", bargap=0.18,
        margin={"l": LEFT, "r": 14, "t": 40, "b": 36, "pad": 2},
        xaxis={"range": [0, 1], "tickformat": ".0%", "fixedrange": True, "showgrid": False,
               "zeroline": False, "tickvals": [0, 0.25, 0.5, 0.75, 1]},
        yaxis={"autorange": False, "range": [3 * len(cards) - 1.5, -1.75],
               "tickvals": ys, "ticktext": [TICKS[y % 3] for y in ys],
               "automargin": False, "fixedrange": True, "tickfont": {"size": 10}},
        annotations=names,
    )
    alt = " ".join(f"{label}: {ROWS[0]} {_dist(c['uniform'])}; {ROWS[1]} "
                   f"{'reading…' if reading else _dist(c['inferred'])}."
                   for label, c in zip(labels, cards, strict=True))
    if reason:
        alt = f"{alt} {reason}"
    return {"name": title, "alt": alt, "figure": {"data": data, "layout": layout}}
