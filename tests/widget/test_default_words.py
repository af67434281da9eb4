"""What the table, the coach, the lesson and the review show by default, read as a
12-year-old would: every string a seat meets without asking for *Details* (the status
line, the message line, the turns in words, the coach's question, verdicts, tally and
second looks, the lesson's words, the cover, the panels, the review's summary) holds none
of the analyst's words: margin, interval, 95%, worlds, posterior, β, and "accuracy" only
with "out of 100" (its unit). The teacher's notes are the teacher's own text, not the
table's, and are not read here."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from tenleave_widget.widget import TenLeaveWidget, hotseat, play, replay

GAMES = Path(__file__).resolve().parents[2] / "examples" / "games"
BANNED = re.compile(r"\bmargins?\b|\bintervals?\b|95%|\bworlds?\b|\bposterior\b|β"
                    r"|\(\d+\.\d+ to \d+\.\d+\)", re.IGNORECASE)
"""The analyst's words and an interval's figures ("(2.1 to 3.4)"): they belong behind
*Details*, or in the analyst's notebooks."""
PANEL_STRUCTURE = {"colours", "players", "state", "measure", "cards", "type", "mode",
                   "symbol", "color", "fgcolor", "shape", "xref", "yref", "xanchor",
                   "yanchor", "anchor", "textposition", "hoverinfo", "orientation", "barmode",
                   "clickmode", "dash", "rangemode", "tickformat", "legend", "legendgroup",
                   "meta", "insidetextanchor", "fillcolor", "layer", "align", "traceorder",
                   "autorange", "fillmode", "plot_bgcolor", "paper_bgcolor", "family", "y",
                   "x", "customdata", "details"}
"""Plotly's settings and the panels' on-demand ``details``: not words a reader meets."""


def strings(obj: Any, key: str = "") -> Iterator[tuple[str, str]]:
    if isinstance(obj, str):
        if key not in PANEL_STRUCTURE:
            yield key, obj
    elif isinstance(obj, dict):
        for k, v in obj.items():
            yield from strings(v, str(k))
    elif isinstance(obj, list):
        for v in obj:
            yield from strings(v, key)


def shown(w: TenLeaveWidget) -> list[tuple[str, str]]:
    """Every string of the table's state that is on screen by default."""
    s = w.session.state()
    found = [("status", s["status"]), ("message", s["message"]["text"]),
             ("cover", s["cover"]["text"]), ("wake_why", s["offers"]["wake_why"])]
    found += [("narration", line) for turn in s["narration"]["turns"] for line in turn["lines"]]
    found += [("swat", q["text"]) for turn in s["narration"]["turns"]
              for sw in turn["swats"] for q in sw["queues"]]
    coach = s["coach"]
    if coach["ask"] is not None:
        found.append(("coach ask", coach["ask"]["text"]))  # its "detail": behind Details
    found.append(("coach summary", coach["summary"]))
    found += [("coach look", look["text"]) for look in coach["looks"]]
    if s["lesson"] is not None:
        found += [(f"lesson {k}", v) for k, v in s["lesson"].items() if isinstance(v, str)]
    found += [(f"panels {k}", v) for k, v in strings(s["panels"])]
    return [(k, t) for k, t in found if t]


def banned(found: list[tuple[str, str]]) -> list[tuple[str, str]]:
    return sorted({(k, t[:160]) for k, t in found
                   if BANNED.search(t) or (re.search(r"\baccuracy\b", t, re.IGNORECASE)
                                            and "out of 100" not in t)})


def coached_games() -> Iterator[TenLeaveWidget]:
    """Tables with the coach on, played to the end by random clicks (the coach's verdicts,
    its question, its tally and second looks)."""
    for mode, seed in (("after", 3), ("before", 4)):
        w = play(players=2, human=0, bots=["greedy"], seed=seed, bot_delay=0, coach=mode,
                 coach_samples=2)
        w.coach_threshold = 0.0
        rng = random.Random(seed)
        while not w.game.finished:
            yield w
            if w.table.coach["ask"] is not None:
                w.handle_intent({"kind": "confirm", "answer": "play"})
                continue
            o = w.table.offers
            w.handle_intent({"kind": "play", "card": rng.choice(o["play_cards"]),
                             "queue": rng.choice(o["play_queues"])})
            w.handle_intent({"kind": "end"})
        yield w
        for look in w.table.coach["looks"]:
            w.handle_intent({"kind": "showme", "turn": look["turn"]})
            yield w
            w.handle_intent({"kind": "showme", "turn": None})


def lessons() -> Iterator[TenLeaveWidget]:
    """Each sample game's lesson, every question and answer, in the teacher's view."""
    for n in (2, 3, 4, 5):
        w = replay(GAMES / f"game-{n}-seats.json", show_odds=False)
        yield w
        for _ in w.session.lesson.moments:
            w.next_moment()
            yield w
            w.reveal()
            yield w


def test_no_default_string_holds_the_analysts_words() -> None:
    seen: list[tuple[str, str]] = []
    for w in (*coached_games(), *lessons()):
        seen += shown(w)
    h = hotseat(2, seed=2)
    h.send_intent({"kind": "play", "card": h.table.offers["play_cards"][0], "queue": 0})
    h.send_intent({"kind": "end"})
    seen += shown(h)
    r = replay(GAMES / "game-2-seats.json", turn=6)
    r.review(samples=2)
    seen += shown(r)
    panel = r.review_panel
    assert panel is not None
    seen.append(("review summary", re.sub(r"<[^>]+>", " ", panel.summary.value)))
    kinds = {k for k, _ in seen}
    assert {"coach summary", "coach look", "lesson question", "lesson answer", "cover",
            "narration", "status", "review summary"} <= kinds, kinds
    assert any(k == "narration" and t.startswith("Coach: ") for k, t in seen)
    bad = banned(seen)
    assert bad == [], "\n".join(f"{k}: {t}" for k, t in bad)
