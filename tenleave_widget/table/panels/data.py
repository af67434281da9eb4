"""The data of the odds panels: a pure function of one seat's view and its odds.

Everything a panel says is computed here, typed (:class:`PanelData`); :mod:`.figures`
makes each panel a Plotly figure from it, which the browser draws with the plotly.js the
widget's bundle carries (``js/panels/``), in the widget and in the HTML export alike.
Nothing here reads a hidden card: the input is the seat's view (``docs/view.md``) and the
odds computed from it.

The panels, in plain words:

- **outcome** — *If SleepKid woke now*: per queue, P(under 10), P(exactly 10) and
  P(over 10), the queue's cards front first as the seat sees them (``?`` for a value it
  does not know). An empty queue says so instead of a bar.
- **cards** — *Chance each card is swatted now*: every table card's P(swatted).
- **moves** — *the one-swat measure*: for the seat to move, each legal move's expected
  penalty to that seat of **one swat right after the move** (not the rest of the game);
  lower is better. ``empty`` says why there are none.
- **timeline** — *Penalties so far*: each seat's penalty after each turn, ending at the
  position shown (so the table and the timeline always agree, also during a wake), and
  the viewing seat's penalty plus the expected penalty of a swat right then.

>>> from tenleave_widget import Game
>>> from tenleave_widget.analysis.odds import seat_odds
>>> g = Game(["Ana", "Ben", "Cy"], seed=1)
>>> g.apply({"seat": 0, "play": ["4*", 0]})
>>> v = g.view(1)
>>> d = panel_data(v, seat_odds(v), [TimelinePoint(0, [0, 0, 0], 0.0)])
>>> d["outcome"][0]["cards"], d["outcome"][1]["empty"], d["moves"]["seat"]
(['?*'], True, 1)
>>> d["timeline"]["turns"], d["timeline"]["penalty"][0]
([0, 1], [0, 0])
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from ...analysis.odds import SeatOdds
from ...engine.view import View

__all__ = [
    "ROMAN",
    "CardChart",
    "FigureJSON",
    "MoveChart",
    "MovesChart",
    "OutcomeChart",
    "PanelData",
    "PanelFigure",
    "SuggestCard",
    "SuggestChart",
    "TimelineChart",
    "TimelinePoint",
    "hidden_panels",
    "move_label",
    "panel_data",
    "quiet_suggest",
]

ROMAN = ("I", "II", "III", "IV", "V", "VI")


class OutcomeChart(TypedDict):
    """One queue in a swat right now."""

    queue: int
    cards: list[str]
    """Front first: the value the seat knows, or ``"?"`` (``"?*"`` for a marked back)."""
    empty: bool
    p_under: float
    p_exact: float
    p_over: float
    total: dict[str, float]
    """The distribution of the queue's total when the flipping stops (total -> chance)."""


class CardChart(TypedDict):
    """One table card's fate in a swat right now."""

    queue: int
    position: int
    label: str
    owner: int
    value: int | None
    p_swatted: float


class MoveChart(TypedDict):
    label: str
    kind: str
    """The kind of decision (``tenleave_widget.analysis.analyse.KINDS``; a one-swat row is
    ``"play"`` or ``"wake"``)."""
    expected_penalty: float
    """The one-swat measure: the mover's expected penalty of a swat right after."""
    best: bool
    """One swat ahead: the lowest. The whole game: in the analysis's best group (its ★
    when ``MovesChart.star``), or about equally good as the best (``MovesChart.star``
    false: the ones marked are "about equally good"); none before the analysis stops."""
    final: float | None
    """The whole-game measure (:mod:`tenleave_widget.analysis.analyse`, the one analysis of
    the position): the mover's expected final penalty, ``None`` until the first worlds
    are played (filled by the widget)."""
    final_ci95: list[float]
    margin: float | None
    """The expected final margin (penalty minus the mean of the others'; lower wins)."""
    margin_ci95: list[float]
    worse: float | None
    """Points of expected margin worse than the best decision, paired on common worlds
    (the best: 0)."""
    worse_ci95: list[float]
    """``worse``'s paired 95% interval (the whiskers; the words read the same)."""
    same: list[str]
    """Other decisions that play out exactly alike (shown as this row)."""


class MovesChart(TypedDict):
    seat: int | None
    """The seat whose moves these are (the seat to move), or None."""
    moves: list[MoveChart]
    empty: str
    """Why no move is listed ('' when some are)."""
    measure: Literal["swat", "game"]
    """What ranks the moves and marks the best: one swat ahead, or the whole game."""
    worlds: int
    """Worlds played so far for the whole-game values (0: none yet) ..."""
    target: int
    """... out of at most this many (0: the whole-game values are not computed here)."""
    done: bool
    """The analysis has stopped: its figures are final (``worlds`` is what it played)."""
    star: bool
    """The analysis's best is clearly better than every other decision (a ★); else the
    rows marked ``best`` are about equally good."""


class TimelineChart(TypedDict):
    turns: list[int]
    penalty: list[list[int]]
    """Per seat, its penalty after each of ``turns``."""
    expected: list[float | None]
    """The viewing seat's penalty plus the expected penalty of a swat right then
    (empty for the teacher's view)."""
    viewer: int | None


class SuggestCard(TypedDict):
    """A card the seat cannot see (a face-down table card, or one of an opponent's unseen
    hand cards of one back: ``size`` of them), its chance of each value (``"3"`` -> p) by
    the rules alone and as the players' choices suggest (:mod:`.suggest`)."""

    label: str
    owner: int
    back: str
    key: int | None
    """The table card's key (the turn that played it); ``None`` for a hand."""
    size: int
    uniform: dict[str, float]
    inferred: dict[str, float]


class SuggestChart(TypedDict):
    """*What their plays suggest* (:mod:`.suggest`): its controls' settings, and
    what it shows once read (``state``: ``"off"`` not computed here, ``"reading"`` under
    way, ``"ready"``, or ``"quiet"``: only ``message``)."""

    level: Literal["random", "careful", "fitted"]
    """How carefully the opponents are taken to play (the rationality control)."""
    odds_model: Literal["uniform", "inferred"]
    """What the queue odds (the outcome panel) are read from (the switch)."""
    state: Literal["off", "reading", "ready", "quiet"]
    cards: list[SuggestCard]
    reason: str
    """The biggest change and the choice behind it, in plain words ('' when none)."""
    details: str
    """For an analyst (under a disclosure): the model, each opponent's beta, how the
    worlds were weighed."""
    message: str


class FigureJSON(TypedDict):
    """A Plotly figure as JSON: what ``go.Figure.to_plotly_json()`` gives."""

    data: list[dict[str, Any]]
    layout: dict[str, Any]


class _Figure(TypedDict):
    name: str
    alt: str
    figure: FigureJSON


class PanelFigure(_Figure, total=False):
    """One panel as a Plotly figure, with its accessible name and a text alternative
    holding the same numbers (read by a screen reader instead of the chart)."""

    caption: str
    """Words shown under the chart (the plain words' verdict: :mod:`.plain`)."""


class PanelData(TypedDict):
    """Everything the panels draw (``PanelData`` in ``js/protocol.ts``)."""

    state: Literal["live", "finished", "hidden"]
    title: str
    message: str
    """Shown instead of the odds charts when the state is not live."""
    players: list[str]
    colours: list[str]
    outcome: list[OutcomeChart]
    cards: list[CardChart]
    moves: MovesChart
    timeline: TimelineChart
    suggest: SuggestChart
    figures: dict[str, PanelFigure]
    """The panels as Plotly figures (:func:`panel_figures`), what the table draws."""
    details: bool
    """The figures' words are the analyst's (the *Details* switch); else plain words
    (:mod:`.plain`)."""


@dataclass(frozen=True)
class TimelinePoint:
    """The penalties after ``turn`` turns, and the viewing seat's penalty plus the
    expected penalty of a swat right then (``None`` for the teacher's view)."""

    turn: int
    penalty: list[int]
    expected: float | None


def move_label(move: Mapping[str, Any]) -> str:
    """A move in words: ``"wake SleepKid"`` or ``"3* on queue 2"``.

    >>> move_label({"play": ["3*", 1]}), move_label({"wake": True})
    ('3* on queue 2', 'wake SleepKid')
    """
    if move.get("wake"):
        return "wake SleepKid"
    card, queue = move["play"]
    return f"{card} on queue {queue + 1}"


def _name(view: Mapping[str, Any], seat: int | None) -> str:
    return "the teacher" if seat is None else str(view["players"][seat])


def _and(names: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _winners(view: Mapping[str, Any]) -> str:
    """Who won, in words: ``"Ben wins with 4"``, ``"Ana, Cy and Dee share the win with 9"``.

    >>> _winners({"players": ["Ana", "Ben", "Cy", "Dee"], "winners": [0, 2, 3],
    ...           "penalty": [9, 12, 9, 9]})
    'Ana, Cy and Dee share the win with 9'
    """
    seats = list(view["winners"] or [])
    if not seats:
        return "nobody has won yet"
    names = [str(view["players"][s]) for s in seats]
    low = view["penalty"][seats[0]]
    if len(names) == 1:
        return f"{names[0]} wins with {low}"
    return f"{_and(names)} share the win with {low}"


def _timeline(
    view: View, points: Sequence[TimelinePoint], expected_now: float | None
) -> TimelineChart:
    """The timeline, ending at the position shown: a last point is added when the view
    is ahead of the history (a turn in progress that swatted, e.g. a wake)."""
    points = list(points)
    now = TimelinePoint(view["turns_applied"], list(view["penalty"]), expected_now)
    if not points or points[-1].penalty != now.penalty or points[-1].turn != now.turn:
        points = [p for p in points if p.turn < now.turn] + [now]
    seats = len(view["players"])
    expected = [p.expected for p in points] if view["seat"] is not None else []
    return {
        "turns": [p.turn for p in points],
        "penalty": [[p.penalty[s] for p in points] for s in range(seats)],
        "expected": expected,
        "viewer": view["seat"],
    }


def panel_data(
    view: View,
    odds: SeatOdds,
    timeline: Sequence[TimelinePoint],
    *,
    moves_seat: int | None = None,
    moves_empty: str = "",
) -> PanelData:
    """The panels' data of a seat's view: what each panel says, before any figure.

    Args:
        view: the seat's view (``docs/view.md``).
        odds: its odds (:func:`~tenleave_widget.analysis.odds.seat_odds` of the view).
        timeline: the penalties after each turn so far, ending at the position shown.
        moves_seat: whose moves ``odds["moves"]`` are, when present (default: the view's
            seat).
        moves_empty: why there are no moves (the caller knows, e.g. a card already
            played this turn); a default reason otherwise.

    Returns:
        :class:`PanelData`: ``outcome``, ``cards``, ``moves`` and ``timeline`` (the
        module docstring says what each holds), the players and their colours.
    """
    seat = view["seat"]
    finished = bool(view["finished"])
    outcome: list[OutcomeChart] = []
    cards: list[CardChart] = []
    for q, (queue, qodds) in enumerate(zip(view["queues"], odds["queues"], strict=True)):
        shown = [str(c["value"]) if c["value"] is not None
                 else ("?*" if c["back"] == "marked" else "?") for c in queue]
        outcome.append({
            "queue": q, "cards": shown, "empty": not queue,
            "p_under": 0.0 if not queue else float(qodds["p_under"]),
            "p_exact": float(qodds["p_exact"]), "p_over": float(qodds["p_over"]),
            "total": {str(t): float(p) for t, p in qodds.get("total", {}).items()},
        })
        for i, (card, codds) in enumerate(zip(queue, qodds["cards"], strict=True)):
            owner = int(card["owner"])
            value = card["value"]
            cards.append({
                "queue": q, "position": i, "owner": owner, "value": value,
                "label": f"queue {q + 1} · {ROMAN[i]} · {view['players'][owner]} "
                         f"({'?' if value is None else value})",
                "p_swatted": float(codds["p_swatted"]),
            })
    mover = seat if moves_seat is None else moves_seat
    raw = list(odds.get("moves", []))
    low = min((m["expected_penalty"] for m in raw), default=0.0)
    ranked = sorted(raw, key=lambda m: (m["expected_penalty"], move_label(m)))
    moves: list[MoveChart] = [
        {"label": move_label(m), "kind": "wake" if m.get("wake") else "play",
         "expected_penalty": float(m["expected_penalty"]),
         "best": m["expected_penalty"] <= low + 1e-9, "final": None, "final_ci95": [],
         "margin": None, "margin_ci95": [], "worse": None, "worse_ci95": [], "same": []}
        for m in ranked
    ]
    if moves:
        empty = ""
    elif finished:
        empty = "The game is over: there are no moves left."
    elif moves_empty:
        empty = moves_empty
    elif view["to_move"] is not None:
        empty = (f"It is {_name(view, view['to_move'])}'s turn: their moves are shown "
                 "only in their own view.")
    else:
        empty = "No moves to show."
    expected_now = None if seat is None else (
        float(view["penalty"][seat]) + float(odds["expected_penalty"][seat]))
    turns = int(view["turns_applied"])
    whose = ("the teacher's view (every card face up)" if seat is None
             else f"{_name(view, seat)}'s view")
    if finished:
        message = (f"Game over: {_winners(view)}. No swat is coming, so there are no odds "
                   "to show.")
        title = f"Odds — {whose}, game over after {turns} turns"
    else:
        message = ""
        title = f"Odds — {whose}, after {turns} turns"
    data: PanelData = {
        "state": "finished" if finished else "live",
        "title": title,
        "message": message,
        "players": list(view["players"]),
        "colours": list(view["colours"]),
        "outcome": [] if finished else outcome,
        "cards": [] if finished else cards,
        "moves": {"seat": None if finished else mover, "moves": moves, "empty": empty,
                  "measure": "swat", "worlds": 0, "target": 0, "done": False,
                  "star": False},
        "timeline": _timeline(view, timeline, None if finished else expected_now),
        "suggest": quiet_suggest(),
        "figures": {},
        "details": True,
    }
    return data


def quiet_suggest(state: Literal["off", "quiet"] = "off", message: str = "",
                  level: Literal["random", "careful", "fitted"] = "fitted",
                  odds_model: Literal["uniform", "inferred"] = "uniform") -> SuggestChart:
    """*What their plays suggest* showing nothing (not computed here, or only a message).

    >>> quiet_suggest()["state"]
    'off'
    """
    return {"level": level, "odds_model": odds_model, "state": state, "cards": [],
            "reason": "", "details": "", "message": message}


def hidden_panels(players: Sequence[str], colours: Sequence[str], message: str) -> PanelData:
    """Panels that show nothing but ``message`` (behind the hot-seat cover, odds off).

    >>> hidden_panels(["Ana", "Ben"], ["red", "yellow"], "Odds are off.")["state"]
    'hidden'
    """
    return {
        "state": "hidden", "title": "Odds", "message": message,
        "players": list(players), "colours": list(colours), "outcome": [], "cards": [],
        "moves": {"seat": None, "moves": [], "empty": message, "measure": "swat",
                  "worlds": 0, "target": 0, "done": False, "star": False},
        "timeline": {"turns": [], "penalty": [[] for _ in players], "expected": [],
                     "viewer": None},
        "suggest": quiet_suggest(),
        "figures": {},
        "details": False,
    }
