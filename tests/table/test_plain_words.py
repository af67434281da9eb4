"""Plain words by default (issue 22, point 2): every text of every panel the widget can
produce — titles, axis titles, trace names, hover texts, annotations, text alternatives,
messages — and the narration, read over many positions and every panel state, holds none
of the analyst's words (``plain_panels.JARGON``); the *Details* switch brings them back.

The test reads the panels generically (every string under ``panels``, every figure
present, whatever its key), so a new panel is covered without changing it."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from helpers import random_game

from tenleave_widget import Game
from tenleave_widget.table.panels.plain import JARGON, disagreement
from tenleave_widget.widget import TenLeaveWidget, hotseat, replay

GAMES = Path(__file__).resolve().parents[2] / "examples" / "games"
STRUCTURE = {"colours", "players", "state", "measure", "cards", "type", "mode", "symbol",
             "color", "fgcolor", "shape", "xref", "yref", "xanchor", "yanchor", "anchor",
             "textposition", "hoverinfo", "orientation", "barmode", "clickmode", "dash",
             "rangemode", "tickformat", "legend", "legendgroup", "meta", "insidetextanchor",
             "fillcolor", "layer", "align", "traceorder", "autorange", "fillmode",
             "plot_bgcolor", "paper_bgcolor", "family", "y", "x", "customdata"}
"""Keys whose strings are not words for a reader (colours, Plotly settings, the rows'
category labels on an axis are read through ``hovertext`` and ``alt`` too)."""
ON_DEMAND = {"details"}
"""A panel's field named ``details`` holds the analyst's words, shown only on demand (the
suggest panel's folded *details*): the one name a panel may give them."""


def texts(obj: Any, key: str = "") -> Iterator[tuple[str, str]]:
    """Every string a reader may meet under ``obj``, with its key."""
    if isinstance(obj, str):
        if key not in STRUCTURE and key not in ON_DEMAND:
            yield key, obj
    elif isinstance(obj, dict):
        for k, v in obj.items():
            yield from texts(v, str(k))
    elif isinstance(obj, list):
        for v in obj:
            yield from texts(v, key)


def read(w: TenLeaveWidget) -> list[tuple[str, str]]:
    state = w.session.state()
    found = list(texts(state["panels"]))
    for turn in state["narration"]["turns"]:
        found += [("narration", line) for line in turn["lines"]]
    found.append(("status", state["status"]))
    return found


def jargon(found: list[tuple[str, str]]) -> list[tuple[str, str]]:
    return [(k, t) for k, t in found if JARGON.search(t)]


def both_measures(w: TenLeaveWidget) -> Iterator[None]:
    for measure in ("swat", "game"):
        w.send_intent({"kind": "measure", "measure": measure})
        w.think()
        yield


def replays() -> Iterator[TenLeaveWidget]:
    rng = random.Random(22)
    for n in (2, 3, 4, 5):
        rec = GAMES / f"game-{n}-seats.json"
        total = len(Game.from_record(rec).turns)
        for seat in (None, *range(n)):
            w = replay(rec, seat=seat, turn=rng.randrange(total))
            w.session.lookahead.budget = 4
            yield w


@pytest.mark.slow
def test_no_panel_text_holds_the_analysts_words_by_default() -> None:
    seen: list[tuple[str, str]] = []
    bad: list[tuple[str, str]] = []
    rng = random.Random(5)
    for w in replays():
        for t in sorted({*rng.sample(range(w.session.live.turns_applied + 1), 3),
                         w.session.live.turns_applied}):
            w.goto(t)
            for _ in both_measures(w):
                found = read(w)
                seen += found
                bad += jargon(found)
    for seed in range(12):  # play tables, a turn in progress, odds off, the cover
        g = random_game(2 + seed % 4, seed, turns=seed * 3 % 20)
        if g.finished:
            continue
        mover = g.to_move
        assert mover is not None
        bots = {s: "random" for s in range(g.seats) if s != mover}
        w = TenLeaveWidget(g, mode="play", humans=[mover], bots=bots, bot_delay=0, seed=seed)
        w.session.lookahead.budget = 4
        for _ in both_measures(w):
            bad += jargon(read(w))
        offers = w.table.offers
        if offers["play_cards"]:
            w.send_intent({"kind": "play", "card": offers["play_cards"][0],
                           "queue": offers["play_queues"][0]})
            bad += jargon(read(w))
        w.send_intent({"kind": "odds", "show": False})
        bad += jargon(read(w))
    h = hotseat(3, seed=2)
    h.send_intent({"kind": "play", "card": h.table.offers["play_cards"][0], "queue": 0})
    h.send_intent({"kind": "end"})
    assert h.table.cover["shown"]
    bad += jargon(read(h))
    assert bad == [], sorted({(k, t[:150]) for k, t in bad})[:20]
    kinds = {k for k, _ in seen}
    assert {"alt", "hovertext", "name", "text", "title", "narration"} <= kinds, kinds
    assert any("Best for the whole game" in t for _, t in seen)


def test_the_review_panel_speaks_plainly_too() -> None:
    w = replay(GAMES / "game-2-seats.json", turn=6)
    w.review(samples=2)
    found = read(w)
    assert any(k == "hovertext" and "points worse than the best" in t for k, t in found)
    assert jargon(found) == []
    assert any(t.startswith("Review: ") for k, t in found if k == "narration")
    # the review's summary below the table: its headings, its footnote and the sentence
    # that explains each result, in plain words too
    panel = w.review_panel
    assert panel is not None
    summary = re.sub(r"<[^>]+>", " ", panel.summary.value)
    assert "Points lost a move" in summary and "Luck:" in summary
    assert "ended with" in summary  # the results explained
    assert not JARGON.search(summary), JARGON.findall(summary)
    # its controls: the button's whole label, and the analyst's number of worlds hidden
    assert panel.button.layout.width == "auto"
    assert panel.samples.layout.display == "none"
    w.send_intent({"kind": "details", "show": True})
    assert panel.samples.layout.display == ""
    assert jargon(read(w))  # the analyst's words are the details'
    detail = re.sub(r"<[^>]+>", " ", panel.summary.value)
    assert "points of expected margin" in detail and "worlds per decision" in detail


def test_the_details_switch_shows_the_analysts_figures() -> None:
    w = replay(GAMES / "game-3-seats.json", turn=16, seat=1)
    w.session.lookahead.budget = 4
    w.send_intent({"kind": "measure", "measure": "game"})
    w.think()
    plain = w.table.panels
    assert plain["details"] is False
    assert "error_x" not in plain["figures"]["moves"]["figure"]["data"][0]
    assert w.send_intent({"kind": "details", "show": True})
    details = w.table.panels
    assert details["details"] is True
    assert "margin" in details["figures"]["moves"]["alt"]
    assert "error_x" in details["figures"]["moves"]["figure"]["data"][0]
    # the same numbers: the rows and their order do not change with the words
    assert plain["moves"] == details["moves"]
    w.send_intent({"kind": "details", "show": False})
    assert w.table.panels["figures"] == plain["figures"]


@pytest.mark.parametrize(("swat", "game", "why"), [
    ("1 on queue 1", "5* on queue 1", "it keeps your 5* for a worse moment"),
    ("5 on queue 1", "2 on queue 2", "it spends your 5 now"),
    ("3* on queue 1", "3* on queue 2", "kinder on the other queue"),
])
def test_one_sentence_says_why_the_rankings_disagree(swat: str, game: str, why: str) -> None:
    moves = {"star": True, "done": True, "moves": [
        {"label": swat, "kind": "play", "expected_penalty": 0.5, "worse": 3.0,
         "worse_ci95": [2.0, 4.0]},
        {"label": game, "kind": "play", "expected_penalty": 1.5, "worse": 0.0,
         "worse_ci95": [0.0, 0.0]},
    ]}
    said = disagreement(moves)  # type: ignore[arg-type]
    assert said.startswith(f"{swat} is safest for the next swat, but ") and why in said
    assert said.endswith(f"{game} is better for the whole game.") and said.count(".") == 1
    moves["moves"][0]["worse_ci95"] = [-0.5, 6.5]  # not clearly worse: nothing to say
    assert disagreement(moves) == ""  # type: ignore[arg-type]
    moves["moves"][0]["worse_ci95"] = [2.0, 4.0]
    moves["star"] = False  # no separated best (no ★): nothing to say either
    assert disagreement(moves) == ""  # type: ignore[arg-type]
