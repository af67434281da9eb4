"""The odds panels: one Plotly ``FigureWidget`` with four subplots, updated in place.

Built with Plotly's Python API from the session's viewing seat: its view (``docs/view.md``)
and the odds of that view (:func:`tenleave_widget.odds.seat_odds`) only, so it can hold
nothing the seat does not know (:meth:`SessionPanels.refresh`). One figure for all panels:
every ``FigureWidget`` carries several MB of JavaScript.

(a) queue sums: per queue, the sum of the values the seat knows plus the expected sum of
    the cards it does not know, against the line at 10;
(b) swat risk: per queue P(total < 10), P(= 10), P(> 10);
(b') each face-down card's probability of being swatted now;
(c) move evaluation: the expected penalty of each legal move of the seat to move, best first;
(d) timeline: each seat's penalty across the turns, and the viewing seat's expected penalty.

>>> from tenleave_widget import Game
>>> g = Game(["Ana", "Ben", "Cy"], seed=1)
>>> p = Panels(g.players, g.view(0)["colours"], queues=2)
>>> p.update(g.view(0), None, [TimelinePoint(0, [0, 0, 0], 0.0)])
>>> len(p.figure.data) == p.trace_count
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import plotly.graph_objects as go
from plotly.subplots import make_subplots

from ..odds import seat_odds, uniform_pools
from ..rules import ROMAN, TARGET

if TYPE_CHECKING:
    from ..game import Game
    from .session import Session

__all__ = [
    "COLOUR_HEX", "COLOUR_PATTERN", "OddsFeed", "Panels", "TimelinePoint", "expected_unknown_sums"
]

COLOUR_HEX = {
    "red": "#d55e00",
    "yellow": "#e6c700",
    "green": "#009e73",
    "blue": "#0072b2",
    "purple": "#cc79a7",
}
"""The mosquito colours as Okabe-Ito hues (as in js/widget.css), told apart by colour-blind
readers too; each also has a pattern, as the table's cards have an initial and a pattern."""
COLOUR_PATTERN = {"red": "/", "yellow": ".", "green": "-", "blue": "|", "purple": "x"}

OUTCOME_COLOURS = ("#56b4e9", "#009e73", "#e69f00")  # Okabe-Ito sky blue, green, orange
OUTCOME_PATTERNS = (None, ".", "/")


@dataclass(frozen=True)
class TimelinePoint:
    """The scores after ``turn`` turns, and the viewing seat's penalty plus the expected
    penalty of a swat right then (``None`` for the teacher's view)."""

    turn: int
    penalty: list[int]
    expected: float | None


def _pool_means(view: Mapping[str, Any]) -> dict[tuple[int, str], float]:
    """The mean unknown value of each (owner, back) under the seat's uniform model."""
    means: dict[tuple[int, str], float] = {}
    for key, pool in uniform_pools(view).items():
        count = sum(pool.values())
        means[key] = sum(v * n for v, n in pool.items()) / count if count else 0.0
    return means


def expected_unknown_sums(view: Mapping[str, Any]) -> tuple[list[int], list[float]]:
    """Per queue: the sum of the values the seat knows, and the expected sum of the others.

    >>> from tenleave_widget import Game
    >>> g = Game(2, seed=1)
    >>> g.apply({"seat": 0, "play": ["5", 0]})
    >>> expected_unknown_sums(g.view(0)), expected_unknown_sums(g.view(1))
    (([5, 0], [0.0, 0.0]), ([0, 0], [2.25, 0.0]))
    """
    means = _pool_means(view)
    known: list[int] = []
    unknown: list[float] = []
    for queue in view["queues"]:
        known.append(sum(c["value"] for c in queue if c["value"] is not None))
        unknown.append(
            round(sum(means[(c["owner"], c["back"])] for c in queue if c["value"] is None) + 0.0, 9)
        )
    return known, unknown


def _move_label(move: Mapping[str, Any]) -> str:
    if move.get("wake"):
        return "wake"
    card, queue = move["play"]
    return f"{card} → Q{queue + 1}"


class Panels:
    """The figure and how to refresh it. Build once per game (seat count and queue count
    are fixed), then call :meth:`update`; traces are updated in place, never re-created."""

    def __init__(self, players: Sequence[str], colours: Sequence[str], queues: int) -> None:
        self.players = list(players)
        self.colours = list(colours)
        self.queues = queues
        fig = make_subplots(
            rows=3,
            cols=2,
            specs=[[{}, {}], [{}, {}], [{"colspan": 2}, None]],
            subplot_titles=(
                "(a) queue sums: known + expected unknown",
                "(b) swat risk per queue",
                "(b) swat probability of each face-down card",
                "(c) move evaluation: expected penalty",
                "(d) penalties across the turns",
            ),
            vertical_spacing=0.12,
            horizontal_spacing=0.1,
        )
        qlabels = [f"Queue {q + 1}" for q in range(queues)]
        fig.add_trace(
            go.Bar(name="known sum", x=list(qlabels), y=[0.0] * queues, marker_color="#999999",
                   legendgroup="a", showlegend=False, hovertemplate="known: %{y}<extra></extra>"),
            row=1, col=1,
        )
        fig.add_trace(
            go.Bar(name="expected unknown", x=list(qlabels), y=[0.0] * queues,
                   marker_color="#cccccc", marker_pattern_shape="/", legendgroup="a",
                   showlegend=False,
                   hovertemplate="expected unknown: %{y:.2f}<extra></extra>"),
            row=1, col=1,
        )
        fig.add_hline(y=TARGET, line_dash="dash", line_color="#d55e00", row=1, col=1,
                      annotation_text="10", annotation_position="top left")
        for label, colour, pattern in zip(
            ("P(< 10)", "P(= 10)", "P(> 10)"), OUTCOME_COLOURS, OUTCOME_PATTERNS, strict=True
        ):
            fig.add_trace(
                go.Bar(name=label, x=list(qlabels), y=[0.0] * queues, marker_color=colour,
                       marker_pattern_shape=pattern, showlegend=False,
                       hovertemplate=f"{label}: %{{y:.3f}}<extra></extra>"),
                row=1, col=2,
            )
        fig.add_trace(
            go.Bar(name="P(swatted)", x=[], y=[], showlegend=False, marker_color="#777777",
                   hovertemplate="%{x}: P(swatted) %{y:.3f}<extra></extra>"),
            row=2, col=1,
        )
        fig.add_trace(
            go.Bar(name="expected penalty", x=[], y=[], showlegend=False, marker_color="#777777",
                   hovertemplate="%{x}: %{y:.3f}<extra></extra>"),
            row=2, col=2,
        )
        for seat, name in enumerate(self.players):
            colour = self.colours[seat]
            fig.add_trace(
                go.Scatter(name=name, x=[], y=[], mode="lines+markers",
                           line_color=COLOUR_HEX.get(colour, "#777777"),
                           marker_color=COLOUR_HEX.get(colour, "#777777"),
                           marker_symbol=seat, legendgroup="d"),
                row=3, col=1,
            )
        fig.add_trace(
            go.Scatter(name="expected (viewer)", x=[], y=[], mode="lines",
                       line_dash="dot", line_color="#777777", marker_color="#777777",
                       legendgroup="d"),
            row=3, col=1,
        )
        fig.update_yaxes(range=[0, 1], row=1, col=2)
        fig.update_yaxes(range=[0, 1], row=2, col=1)
        fig.update_yaxes(rangemode="tozero", row=1, col=1)
        fig.update_yaxes(rangemode="tozero", row=2, col=2)
        fig.update_yaxes(rangemode="tozero", title_text="penalty", row=3, col=1)
        fig.update_xaxes(title_text="turns played", row=3, col=1)
        fig.update_xaxes(tickangle=-60, tickfont_size=10, row=2, col=2)
        fig.update_xaxes(tickfont_size=10, row=2, col=1)
        fig.update_layout(
            barmode="stack",
            height=720,
            margin={"l": 40, "r": 20, "t": 80, "b": 40},
            legend={"orientation": "h", "y": -0.12},
            template="plotly_white",
            # a white card in JupyterLab's dark theme too (Plotly cannot read --jp-* colours)
            paper_bgcolor="white",
            plot_bgcolor="white",
            uirevision="tenleave",
            transition={"duration": 0},
        )
        self.trace_count = len(fig.data)
        self._fixed_colours: list[Any] = [
            tr.marker.color for tr in fig.data[:7]
        ] + [self._colour(s) for s in range(len(self.players))] + ["#777777"]
        self.figure = go.FigureWidget(fig)
        self._sent: dict[int, Any] = {}

    def _colour(self, seat: int) -> str:
        return COLOUR_HEX.get(self.colours[seat], "#777777")

    def _pattern(self, seat: int) -> str:
        return COLOUR_PATTERN.get(self.colours[seat], "")

    def update(
        self,
        view: Mapping[str, Any] | None,
        odds: Mapping[str, Any] | None,
        timeline: Sequence[TimelinePoint],
        title: str = "",
    ) -> None:
        """Refresh every trace in place from ``view`` (the seat whose odds are shown) and
        its ``odds``; ``None`` empties the panels (e.g. behind the hot-seat cover).

        One ``plotly_update`` message carries every trace's x, y and colour (plus one
        restyle when the card patterns change). Every trace gets every key: Plotly's
        ``batch_update`` marks unchanged traces with a sentinel that reaches Plotly.js as
        ``null`` and resets them.
        """
        n = len(self.players)
        xs: list[list[Any]] = [[] for _ in range(self.trace_count)]
        ys: list[list[Any]] = [[] for _ in range(self.trace_count)]
        colours: list[Any] = list(self._fixed_colours)
        patterns: list[str] = []
        if view is not None:
            known, unknown = expected_unknown_sums(view)
            qlabels = [f"Queue {q + 1}" for q in range(len(known))]
            xs[0], ys[0] = list(qlabels), known
            xs[1], ys[1] = list(qlabels), unknown
            queues = odds["queues"] if odds else []
            for k, key in enumerate(("p_under", "p_exact", "p_over")):
                xs[2 + k] = list(qlabels)
                ys[2 + k] = [q[key] for q in queues]
            card_colours: list[str] = []
            for q, (cards, qodds) in enumerate(zip(view["queues"], queues, strict=False)):
                for i, (card, codds) in enumerate(zip(cards, qodds["cards"], strict=False)):
                    owner = card["owner"]
                    initial = self.colours[owner][:1].upper()
                    xs[5].append(f"Q{q + 1}·{ROMAN[i]} {initial}")
                    ys[5].append(codds["p_swatted"])
                    card_colours.append(self._colour(owner))
                    patterns.append(self._pattern(owner))
            colours[5] = card_colours
            moves = sorted(
                (odds or {}).get("moves", []),
                key=lambda m: (m["expected_penalty"], _move_label(m)),
            )
            mover = (odds or {}).get("seat")
            xs[6] = [_move_label(m) for m in moves]
            ys[6] = [m["expected_penalty"] for m in moves]
            colours[6] = self._colour(mover) if mover is not None else "#777777"
            turns = [p.turn for p in timeline]
            for seat in range(n):
                xs[7 + seat] = turns
                ys[7 + seat] = [p.penalty[seat] for p in timeline]
            exp = [p for p in timeline if p.expected is not None]
            xs[7 + n] = [p.turn for p in exp]
            ys[7 + n] = [p.expected for p in exp]
        # Only the traces that changed go to the browser (every key of each: see above).
        sent = self._sent
        changed = [
            i for i in range(self.trace_count)
            if sent.get(i) != (xs[i], ys[i], colours[i], patterns if i == 5 else None)
        ]
        for i in changed:
            sent[i] = (xs[i], ys[i], colours[i], patterns if i == 5 else None)
        if changed:
            self.figure.plotly_update(
                restyle_data={
                    "x": [xs[i] for i in changed],
                    "y": [ys[i] for i in changed],
                    "marker.color": [colours[i] for i in changed],
                },
                relayout_data={"title.text": title},
                trace_indexes=changed,
            )
        elif self.figure.layout.title.text != title:
            self.figure.plotly_relayout({"title.text": title})
        if 5 in changed:
            self.figure.plotly_restyle({"marker.pattern.shape": [patterns]}, [5])

    def clear(self) -> None:
        """Empty every trace (nothing of any seat's view is left in the figure)."""
        self.update(None, None, [], "")


class OddsFeed:
    """What the panels show for a session: the viewing seat's view, its odds and the
    timeline, computed from that seat's view only. Caches each (turn, seat)'s expected
    penalty while that turn's position stays in the history."""

    def __init__(self) -> None:
        self._expected: dict[tuple[int, int], tuple[Game, float]] = {}

    def _expected_at(self, history: Sequence[Game], turn: int, seat: int) -> float:
        game = history[turn]
        got = self._expected.get((turn, seat))
        if got is None or got[0] is not game:  # a new line after undo, goto or load
            odds = seat_odds(game.view(seat), moves=False)
            got = (game, game.penalty[seat] + float(odds["expected_penalty"][seat]))
            self._expected[(turn, seat)] = got
        return got[1]

    def data(
        self, session: Session
    ) -> tuple[Mapping[str, Any], dict[str, Any], list[TimelinePoint], str]:
        """``(view, odds, timeline, title)`` for :meth:`Panels.update`."""
        seat = session.seat
        shown = session.shown()
        view = shown.view(seat)
        odds: dict[str, Any] = dict(seat_odds(view))
        if any(s["kind"] == "play" for s in session.pending):
            odds.pop("moves", None)
        elif session.pending:  # after a peek, rotate or wake, waking is no longer legal
            odds["moves"] = [m for m in odds.get("moves", []) if not m.get("wake")]
        if seat is None and shown.to_move is not None:
            odds["moves"] = seat_odds(shown.view(shown.to_move)).get("moves", [])
            odds["seat"] = shown.to_move
        history = session.history
        timeline = [
            TimelinePoint(
                t, history[t].penalty,
                None if seat is None else self._expected_at(history, t, seat),
            )
            for t in range(session.turn + 1)
        ]
        who = "the teacher's view" if seat is None else f"{shown.players[seat]}'s view"
        title = f"Odds — {who}, after {shown.turns_applied} turns"
        return view, odds, timeline, title


class SessionPanels(Panels):
    """The panels of one session: refreshed from its viewing seat, emptied when nobody
    may see them."""

    def __init__(self, session: Session) -> None:
        game = session.live
        super().__init__(game.players, game.view(None)["colours"], game.queue_count)
        self._feed = OddsFeed()
        self._holds: tuple[int | None] | None = None
        """(seat,) whose odds the figure holds (seat ``None``: the teacher's), or None."""

    def refresh(self, session: Session) -> None:
        """Show the odds of the session's viewing seat, or nothing. Behind the hot-seat
        cover, or once another seat (or the teacher) is viewing, the figure must hold
        nothing of the previous view: it is emptied even when the odds are hidden (hidden
        panels are still synced to the browser)."""
        if session.covered or not session.show_odds:
            if self._holds is not None and (session.covered or self._holds != (session.seat,)):
                self.clear()
                self._holds = None
            return
        self.update(*self._feed.data(session))
        self._holds = (session.seat,)
