"""The odds panels of a session: their data (:mod:`.data`) and figures (:mod:`.figures`),
computed from the viewing seat's view only, synced in the table state (``panels``) and
drawn by the plotly.js of the widget's bundle (``js/panels/``), in JupyterLab's theme;
plotly.js is saved once per notebook, whatever the number of tables.

Behind the hot-seat cover, or with the odds switched off, the panels hold only a message
(nothing of any seat's view, and nothing is computed).

>>> from tenleave_widget import Game
>>> from tenleave_widget.table.session.config import check_config
>>> from tenleave_widget.table.session.machine import Session
>>> g = Game(["Ana", "Ben", "Cy"], seed=1)
>>> s = Session(g, check_config(g, mode="play", humans=[0], bots={1: "greedy", 2: "random"}))
>>> data = PanelFeed().data(s)
>>> data["state"], data["moves"]["seat"], [q["empty"] for q in data["outcome"]]
('live', 0, [True, True])
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

from ...analysis.odds import seat_odds
from .data import PanelData, TimelinePoint, hidden_panels, panel_data
from .figures import COLOUR_HEX, moves_figure, review_figure, with_figures
from .lookahead import LookaheadSession
from .plain import plain_figures
from .suggest import SuggestSession

if TYPE_CHECKING:
    from ...analysis.review import Review
    from ...engine.game import Game

__all__ = ["COLOUR_HEX", "PanelFeed", "PanelSession"]


class PanelSession(LookaheadSession, SuggestSession, Protocol):
    """What the panels read of a session (:class:`~..session.machine.Session` is one; a
    ``Protocol``, so that this module does not import the session, which imports it)."""

    review: Review | None
    turn: int
    history: list[Game]
    details: bool

    @property
    def live(self) -> Game: ...


COVERED = "The odds are hidden while the screen is passed to the next player."
ODDS_OFF = "The odds are switched off: tick \u201cshow odds\u201d on the table to see them."
PLAYED = ("A card is already played in this turn: end the turn (or start it again) to "
          "see moves.")


class PanelFeed:
    """What the panels show for a session. Caches each (turn, seat)'s expected penalty
    while that turn's position stays in the history."""

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

    def data(self, session: PanelSession) -> PanelData:
        data = self._odds(session)
        if session.review is not None and not session.covered:
            # replay: the review's evaluation graph (a seat's view: its own decisions only)
            colours = session.live.view(None)["colours"]
            data["figures"]["review"] = review_figure(session.review, session.seat, colours,
                                                      session.turn)
        data["details"] = session.details
        if not session.details:  # plain words by default (the Details switch: the analyst's)
            data["figures"] = plain_figures(data)
        return data

    def _odds(self, session: PanelSession) -> PanelData:
        live = session.live
        colours = live.view(None)["colours"]
        if session.covered:
            return hidden_panels(live.players, colours, COVERED)
        if not session.show_odds:
            return hidden_panels(live.players, colours, ODDS_OFF)
        seat = session.seat
        shown = session.shown()
        view = shown.view(seat)
        odds = session.suggest.odds(session, seat_odds(view))  # a new dict: changed below
        empty = ""
        if any(s["kind"] == "play" for s in session.pending):
            odds.pop("moves", None)
            empty = PLAYED
        elif session.pending:  # after a peek, rotate or wake, waking is no longer legal
            odds["moves"] = [m for m in odds.get("moves", []) if not m.get("wake")]
        mover = seat
        if seat is None and shown.to_move is not None:
            odds["moves"] = seat_odds(shown.view(shown.to_move)).get("moves", [])
            mover = shown.to_move
        history = session.history
        timeline = [
            TimelinePoint(
                t, history[t].penalty,
                None if seat is None else self._expected_at(history, t, seat),
            )
            for t in range(session.turn + 1)
        ]
        data = with_figures(panel_data(view, odds, timeline, moves_seat=mover,
                                       moves_empty=empty))
        if data["state"] == "live":
            data["moves"] = session.lookahead.annotate(session, data["moves"])
            data["figures"]["moves"] = moves_figure(data["moves"], data["players"])
        session.suggest.annotate(session, data)
        return data
