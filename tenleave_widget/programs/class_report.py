"""The class report: a class's reviewed games (:mod:`.class_review`) as one self-contained
HTML page a teacher opens offline, its charts Plotly figures composed here and drawn in
the page by the bundled plotly.js (``js/class-report.ts``, inlined: no network request).

The figures follow the table's panels (:mod:`tenleave_widget.table.panels.figures`): plain
figure JSON (plotly.py is not needed to make them; :func:`as_figures` wraps them in
``go.Figure`` objects for an analyst), each with an accessible name and a text
alternative that holds the same numbers (in the page, as in the table's panels: a
``<figure>`` named by its heading, the drawing's SVG hidden from screen readers, and the
text alternative, visually hidden, read instead).

The input is the report's data as plain values (what :meth:`.ClassReview.summary`
gives: the ``players``, ``kinds`` and ``positions`` of ``tenleave review --json``, the
number of games and decisions, which model judged them in words (``judged_by``), the
failures), so this module does not import the batch review.

>>> players = [{"name": "Sam", "games": 2, "decisions": 9, "accuracy": 71.5,
...     "accuracy_ci95": [60.0, 83.0], "mean_loss": 0.8, "mean_loss_ci95": [0.3, 1.3],
...     "labels": {"best": 5}, "luck": 1.5, "penalty": 20, "luck_adjusted": 18.5,
...     "trend": [60.0, None]}]
>>> f = report_figures({"players": players, "kinds": [], "positions": []})
>>> f["accuracy"]["alt"]
'Sam: accuracy 72 (95% interval 60 to 83), 9 decisions in 2 games.'
>>> f["trend"]["alt"]
'Sam, game by game: 60, no decision to judge.'
"""

from __future__ import annotations

import html
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..engine.errors import TenLeaveError
from ..table.panels.data import FigureJSON, PanelFigure
from ..table.panels.figures import signed

if TYPE_CHECKING:
    import plotly.graph_objects as go

__all__ = ["FIGURES", "as_figures", "page", "report_figures"]

STATIC = Path(__file__).resolve().parents[1] / "static"

PALETTE = ("#0072b2", "#e69f00", "#009e73", "#cc79a7", "#56b4e9", "#d55e00", "#f0e442",
           "#000000")
"""Okabe and Ito's colours (told apart with any colour vision), one per player."""

FIGURES = ("accuracy", "trend", "result", "kinds")
"""The report's charts, in the page's order."""


def _n(x: float | None, digits: int = 0) -> str:
    return "-" if x is None else f"{x:.{digits}f}"


def _interval(ci: Sequence[float | None], digits: int) -> str:
    lo, hi = ci
    if lo is None or hi is None:
        return ""
    return f" (95% interval {lo:.{digits}f} to {hi:.{digits}f})"


def _label(text: str) -> str:
    """A player's name as chart text: plotly.js reads a few HTML tags and entities in
    it, so ``<``, ``>`` and ``&`` are written as entities (a name is shown, never read)."""
    return html.escape(text, quote=False)


def _layout(rows: int, **more: Any) -> dict[str, Any]:
    layout: dict[str, Any] = {
        "height": 70 + 34 * max(1, rows), "autosize": True,
        "margin": {"l": 10, "r": 20, "t": 10, "b": 40, "pad": 2},
        "paper_bgcolor": "rgba(0,0,0,0)", "plot_bgcolor": "rgba(0,0,0,0)",
        "font": {"size": 12}, "hoverlabel": {"align": "left"}, "showlegend": False,
    }
    layout.update(more)
    return layout


def _errors(values: Sequence[float | None], cis: Sequence[Sequence[float | None]]
            ) -> dict[str, Any]:
    plus = [0.0 if v is None or c[1] is None else c[1] - v for v, c in zip(values, cis,
                                                                          strict=True)]
    minus = [0.0 if v is None or c[0] is None else v - c[0] for v, c in zip(values, cis,
                                                                           strict=True)]
    return {"type": "data", "symmetric": False, "array": plus, "arrayminus": minus,
            "thickness": 1.5, "width": 4}


def accuracy_figure(players: Sequence[Mapping[str, Any]]) -> PanelFigure:
    """Each player's accuracy over the games (100: always the best move) with its 95%
    interval, a bar per player."""
    name = "Accuracy of each player (100 = always the best move)"
    names = [_label(p["name"]) for p in players]
    acc = [p["accuracy"] for p in players]
    alt = " ".join(
        f"{p['name']}: accuracy {_n(p['accuracy'])}{_interval(p['accuracy_ci95'], 0)}, "
        f"{p['decisions']} decisions in {p['games']} games." for p in players)
    fig: FigureJSON = {"data": [{
        "type": "bar", "orientation": "h", "y": names, "x": [a or 0 for a in acc],
        "marker": {"color": [PALETTE[i % len(PALETTE)] for i in range(len(names))]},
        "error_x": _errors(acc, [p["accuracy_ci95"] for p in players]),
        "text": [_n(a) for a in acc], "textposition": "inside", "insidetextanchor": "start",
        "hovertemplate": "%{y}: accuracy %{x:.0f}<extra></extra>",
    }], "layout": _layout(len(names), xaxis={"range": [0, 100], "title": {"text": "accuracy"}},
                          yaxis={"autorange": "reversed", "automargin": True})}
    return {"name": name, "alt": alt or "No player.", "figure": fig}


def trend_figure(players: Sequence[Mapping[str, Any]]) -> PanelFigure:
    """Each player's accuracy game by game, in the order the games were given."""
    name = "Accuracy game by game (games in the order given)"
    data = []
    alts = []
    for i, p in enumerate(players):
        trend = list(p["trend"])
        data.append({
            "type": "scatter", "mode": "lines+markers", "name": _label(p["name"]),
            "x": list(range(1, len(trend) + 1)), "y": trend, "connectgaps": True,
            "line": {"color": PALETTE[i % len(PALETTE)], "width": 2},
            "marker": {"size": 8, "symbol": ("circle", "square", "diamond", "triangle-up",
                                             "x")[i % 5]},
            "hovertemplate": "%{fullData.name}, game %{x}: accuracy %{y:.0f}<extra></extra>",
        })
        words = ", ".join("no decision to judge" if a is None else f"{a:.0f}" for a in trend)
        alts.append(f"{p['name']}, game by game: {words}.")
    most = max((len(p["trend"]) for p in players), default=1)
    fig: FigureJSON = {"data": data, "layout": _layout(
        6, showlegend=True, legend={"orientation": "h", "y": -0.25},
        xaxis={"title": {"text": "the player's game"}, "dtick": 1, "range": [0.5, most + 0.5]},
        yaxis={"range": [0, 105], "title": {"text": "accuracy"}, "automargin": True},
        margin={"l": 10, "r": 20, "t": 10, "b": 80, "pad": 2})}
    return {"name": name, "alt": " ".join(alts) or "No player.", "figure": fig}


def result_figure(players: Sequence[Mapping[str, Any]]) -> PanelFigure:
    """Each player's total penalty and the same with average luck (penalty minus luck:
    GNU Backgammon's luck-adjusted result), two bars per player; lower is better."""
    name = "Penalty, and penalty with average luck (lower is better)"
    names = [_label(p["name"]) for p in players]
    alt = " ".join(
        f"{p['name']}: penalty {p['penalty']}, luck {signed(p['luck'])}, with average luck "
        f"{p['luck_adjusted']:.1f}." for p in players)
    fig: FigureJSON = {"data": [
        {"type": "bar", "orientation": "h", "name": "penalty", "y": names,
         "x": [p["penalty"] for p in players], "marker": {"color": "#d55e00"},
         "hovertemplate": "%{y}: penalty %{x}<extra></extra>"},
        {"type": "bar", "orientation": "h", "name": "with average luck", "y": names,
         "x": [p["luck_adjusted"] for p in players],
         "marker": {"color": "#56b4e9", "pattern": {"shape": "/"}},
         "hovertemplate": "%{y}: with average luck %{x:.1f}<extra></extra>"},
    ], "layout": _layout(2 * len(names), barmode="group", showlegend=True,
                         legend={"orientation": "h", "y": -0.2},
                         xaxis={"title": {"text": "penalty points"}},
                         yaxis={"autorange": "reversed", "automargin": True},
                         margin={"l": 10, "r": 20, "t": 10, "b": 70, "pad": 2})}
    return {"name": name, "alt": alt or "No player.", "figure": fig}


def kinds_figure(kinds: Sequence[Mapping[str, Any]]) -> PanelFigure:
    """The class's mean loss per kind of decision with its 95% interval: where the class
    gives most away."""
    name = "Mean loss per kind of decision (points given away; lower is better)"
    labels = [f"{k['kind']} ({k['decisions']})" for k in kinds]  # our own words
    means = [k["mean_loss"] for k in kinds]
    alt = " ".join(f"{k['kind']}: mean loss {k['mean_loss']:.2f}{_interval(k['ci95'], 2)} "
                   f"over {k['decisions']} decisions." for k in kinds)
    fig: FigureJSON = {"data": [{
        "type": "bar", "orientation": "h", "y": labels, "x": means,
        "marker": {"color": "#e69f00"}, "error_x": _errors(means, [k["ci95"] for k in kinds]),
        "hovertemplate": "%{y}: mean loss %{x:.2f}<extra></extra>",
    }], "layout": _layout(len(labels), xaxis={"title": {"text": "mean loss (points)"},
                                              "rangemode": "tozero"},
                          yaxis={"autorange": "reversed", "automargin": True})}
    return {"name": name, "alt": alt or "No decision to judge.", "figure": fig}


def report_figures(summary: Mapping[str, Any]) -> dict[str, PanelFigure]:
    """The report's charts (:data:`FIGURES`) from its data (see the module docstring)."""
    players, kinds = summary["players"], summary["kinds"]
    return {"accuracy": accuracy_figure(players), "trend": trend_figure(players),
            "result": result_figure(players), "kinds": kinds_figure(kinds)}


def as_figures(figures: Mapping[str, PanelFigure]) -> dict[str, go.Figure]:
    """The report's charts as ``go.Figure`` objects (plotly.py imported here only)."""
    import plotly.graph_objects as go  # noqa: PLC0415 - for an analyst only

    return {k: go.Figure(figures[k]["figure"]) for k in FIGURES if k in figures}


# ------------------------------------------------------------------ the page

class ReportError(TenLeaveError):
    """The report's page cannot be made (its front end is not built)."""


def _script() -> str:
    path = STATIC / "class-report.js"
    if not path.exists():
        raise ReportError(
            f"the report's front end is not built ({path} is missing): run "
            "`pip install -e .` (or `npm install && npm run build`) in the repository")
    return path.read_text(encoding="utf-8").replace("</", "<\\/")


def _chart(key: str, f: PanelFigure) -> str:
    e = html.escape
    return (f'<figure class="chart" id="fig-{key}" aria-labelledby="fig-{key}-name">'
            f'<h3 id="fig-{key}-name">{e(f["name"])}</h3>'
            f'<div class="plot" data-figure="{key}"></div>'
            f'<figcaption class="alt" id="fig-{key}-alt">{e(f["alt"])}</figcaption></figure>')


def _position_row(q: Mapping[str, Any]) -> str:
    e = html.escape
    why = q.get("why", ["largest loss"])
    found = q.get("found")
    verdict = ("found it" if found else "missed it") if found is not None else ""
    return (f"<tr><td>{e(str(q['file']))}</td><td>{q['turn'] + 1}</td>"
            f"<td>{e(q['player'])}</td><td>{e(', '.join(why))}</td>"
            f"<td>{q['loss']:.2f} ({e(q['label'])})</td><td>{e(q.get('played_text', ''))}</td>"
            f"<td>{e(q.get('best_text', ''))}{' — ' + verdict if verdict else ''}</td></tr>")


STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em; max-width: 72em;
  --jp-ui-font-color1: #222; --jp-ui-font-color2: #555; --jp-layout-color1: #fff;
  --jp-border-color1: #999; --jp-border-color2: #e0e0e0;
  color: var(--jp-ui-font-color1); background: var(--jp-layout-color1); }
@media (prefers-color-scheme: dark) { body {
  --jp-ui-font-color1: #eee; --jp-ui-font-color2: #bbb; --jp-layout-color1: #111;
  --jp-border-color1: #888; --jp-border-color2: #333; } }
table { border-collapse: collapse; margin-bottom: 2em; }
th, td { border-bottom: 1px solid var(--jp-border-color2); padding: .3em .6em;
  text-align: left; vertical-align: top; }
.charts { display: grid; grid-template-columns: repeat(auto-fit, minmax(28em, 1fr));
  gap: 1.5em; }
figure.chart { margin: 0; }
figure.chart h3 { font-size: 1em; margin: 0 0 .3em; }
.alt { position: absolute; width: 1px; height: 1px; overflow: hidden;
  clip: rect(0 0 0 0); white-space: nowrap; }
details { margin-bottom: 2em; }
"""


def page(summary: Mapping[str, Any]) -> str:
    """The report as one self-contained HTML page: the charts (drawn by the inlined
    plotly.js), each with its text alternative, and the tables with every number. It
    loads nothing: its Content-Security-Policy allows no request at all."""
    e = html.escape
    players, kinds, positions = summary["players"], summary["kinds"], summary["positions"]
    figures = report_figures(summary)
    rows = [
        f"<tr><td>{e(p['name'])}</td><td>{p['games']}</td><td>{p['decisions']}</td>"
        f"<td>{_n(p['accuracy'])}{_interval(p['accuracy_ci95'], 0)}</td>"
        f"<td>{_n(p['mean_loss'], 2)}{_interval(p['mean_loss_ci95'], 2)}</td>"
        f"<td>{e(' '.join(f'{k}: {v}' for k, v in p['labels'].items() if v))}</td>"
        f"<td>{signed(p['luck'])}</td><td>{p['penalty']}</td>"
        f"<td>{p['luck_adjusted']:.1f}</td></tr>" for p in players]
    krows = [f"<tr><td>{e(k['kind'])}</td><td>{k['decisions']}</td>"
             f"<td>{k['mean_loss']:.2f}{_interval(k['ci95'], 2)}</td></tr>" for k in kinds]
    prow = [_position_row(q) for q in positions]
    fails = "".join(f"<li>{e(f)}</li>" for f in summary.get("failures", []))
    judge = summary.get("judged_by", "")  # which model judged the games, in words
    payload = json.dumps(figures, separators=(",", ":"), allow_nan=False,
                         ensure_ascii=False).replace("<", "\\u003c")
    charts = "".join(_chart(k, figures[k]) for k in FIGURES)
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; \
script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:">
<title>10 to Leave: the class's games reviewed</title>
<style>{STYLE}</style></head><body>
<h1>The class's games reviewed</h1>
<p>{summary['games']} games, {summary['decisions']} decisions. A loss is how many points
of final margin a move gave away against the best move, judged from what the player could
see. Accuracy is 100 for the best move.</p>
{f'<p id="judged-by">Judged by {e(judge)}.</p>' if judge else ''}
{f'<p>Not reviewed:</p><ul>{fails}</ul>' if fails else ''}
<section class="charts" aria-label="Charts">{charts}</section>
<h2>Players</h2>
<table><thead><tr><th>Player</th><th>Games</th><th>Decisions</th><th>Accuracy</th>
<th>Mean loss</th><th>Labels</th><th>Luck</th><th>Penalty</th>
<th>Penalty with average luck</th></tr></thead><tbody>{''.join(rows)}</tbody></table>
<h2>Kinds of decision</h2>
<table><thead><tr><th>Kind</th><th>Decisions</th><th>Mean loss</th></tr></thead>
<tbody>{''.join(krows)}</tbody></table>
<h2>Positions worth discussing</h2>
<table><thead><tr><th>Game</th><th>Turn</th><th>Player</th><th>Why</th><th>Loss</th>
<th>Played</th><th>Best</th></tr></thead><tbody>{''.join(prow)}</tbody></table>
<script type="application/json" id="tenleave-figures">{payload}</script>
<script>{_script()}</script>
</body></html>
"""
