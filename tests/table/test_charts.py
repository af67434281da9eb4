"""The panel data (tenleave_widget/table/panels/data.py) and its figures (figures.py): what
each panel says, its empty and finished states, the timeline ending at the position shown,
and that it is a function of the seat's view only (a hidden card's value cannot change
it)."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest

from tenleave_widget import Game
from tenleave_widget.analysis.odds import seat_odds
from tenleave_widget.table.panels import figures as charts
from tenleave_widget.table.panels.data import PanelData, TimelinePoint, hidden_panels
from tenleave_widget.table.panels.data import panel_data as bare_data
from tenleave_widget.table.panels.figures import (
    REVIEW_SYMBOLS,
    odds_figures,
    panel_figures,
    review_figure,
    with_figures,
)


def panel_data(*args: Any, **kwargs: Any) -> PanelData:
    """The panels' data with their figures, as the table syncs them."""
    return with_figures(bare_data(*args, **kwargs))

GAMES = Path(__file__).resolve().parents[2] / "examples" / "games"


def _points(record: dict[str, Any], turns: int, seat: int | None) -> list[TimelinePoint]:
    out = []
    for t in range(turns + 1):
        g = Game.from_record(record, turns=t)
        exp = None
        if seat is not None:
            exp = g.penalty[seat] + seat_odds(g.view(seat), moves=False)["expected_penalty"][seat]
        out.append(TimelinePoint(t, g.penalty, exp))
    return out


def _data(record: dict[str, Any], turns: int, seat: int | None) -> PanelData:
    g = Game.from_record(record, turns=turns)
    view = g.view(seat)
    return panel_data(view, seat_odds(view), _points(record, turns, seat))


def _record(n: int) -> dict[str, Any]:
    rec: dict[str, Any] = json.loads((GAMES / f"game-{n}-seats.json").read_text())
    return rec


def test_start_of_game_says_the_queues_are_empty() -> None:
    g = Game(["Ana", "Ben", "Cy"], seed=3)
    view = g.view(0)
    d = panel_data(view, seat_odds(view), [TimelinePoint(0, [0, 0, 0], 0.0)])
    assert d["state"] == "live"
    assert all(q["empty"] and q["p_under"] == 0.0 for q in d["outcome"])  # no "100% risk"
    assert d["cards"] == []
    assert d["moves"]["seat"] == 0 and len(d["moves"]["moves"]) == 12  # 6 cards x 2 queues
    assert sum(m["best"] for m in d["moves"]["moves"]) >= 1
    assert d["moves"]["moves"] == sorted(d["moves"]["moves"],
                                         key=lambda m: m["expected_penalty"])


def test_finished_game_says_so_and_names_the_winners() -> None:
    rec = _record(3)
    d = _data(rec, len(rec["turns"]), 0)
    g = Game.from_record(rec)
    assert d["state"] == "finished"
    assert d["outcome"] == [] and d["cards"] == [] and d["moves"]["moves"] == []
    names = [rec["players"][s] for s in g.winners or []]
    assert all(n in d["message"] for n in names) and "Game over" in d["message"]
    assert [row[-1] for row in d["timeline"]["penalty"]] == g.penalty
    assert d["timeline"]["turns"][-1] == len(rec["turns"])


def test_not_your_turn_says_whose_it_is() -> None:
    rec = _record(3)
    g = Game.from_record(rec, turns=4)
    seat = (g.to_move + 1) % 3  # type: ignore[operator]
    d = _data(rec, 4, seat)
    assert d["moves"]["moves"] == []
    assert rec["players"][g.to_move] in d["moves"]["empty"]  # type: ignore[index]


def test_timeline_ends_at_the_position_shown() -> None:
    """During a wake turn the table shows the swat's penalties: so does the timeline."""
    rec = _record(3)
    k = next(i for i, t in enumerate(rec["turns"]) if t.get("wake"))
    g = Game.from_record(rec, turns=k)
    woken = g.preview([{"kind": "wake"}])  # the turn in progress: woken, not played
    view = woken.view(0)
    d = panel_data(view, seat_odds(view), _points(rec, k, 0))
    assert [row[-1] for row in d["timeline"]["penalty"]] == view["penalty"]
    assert view["penalty"] != g.penalty  # the wake swatted someone


def test_panel_data_is_a_function_of_the_view_only() -> None:
    """Swapping two of an opponent's cards that the seat does not know (same back) leaves
    the seat's panel data identical."""
    rng = random.Random(7)
    checked = 0
    for _ in range(200):
        g = Game(3, seed=rng.randrange(10**6))
        while not g.finished and len(g.to_record()["turns"]) < rng.randrange(3, 14):
            g.apply(g.legal_turns.sample(rng))
        if g.finished:
            continue
        rec = g.to_record()
        seat = rng.randrange(3)
        turns = rec["turns"]
        for i in range(len(turns)):
            for j in range(i + 1, len(turns)):
                a, b = turns[i], turns[j]
                if (a["seat"] == b["seat"] != seat and a["play"][0] != b["play"][0]
                        and a["play"][0].endswith("*") == b["play"][0].endswith("*")):
                    other = copy.deepcopy(rec)
                    other["turns"][i]["play"][0], other["turns"][j]["play"][0] = (
                        b["play"][0], a["play"][0])
                    try:
                        Game.from_record(other)
                    except ValueError:
                        continue
                    seen = g.view(seat)
                    if any(c["value"] is not None and c["owner"] != seat
                           for q in seen["queues"] for c in q):
                        continue  # a peeked card: the seat may know one of them
                    if seen["safe"] or any(seen["swatted"]):
                        continue  # flipped values are public: keep to the simple case
                    mine = _data(rec, len(turns), seat)
                    theirs = _data(other, len(turns), seat)
                    assert json.dumps(mine, sort_keys=True) == json.dumps(theirs, sort_keys=True)
                    checked += 1
                    break
            else:
                continue
            break
    assert checked >= 20


def test_hidden_panels_hold_nothing() -> None:
    d = hidden_panels(["Ana", "Ben"], ["red", "yellow"], "Pass the screen to Ben.")
    assert d["outcome"] == [] and d["cards"] == [] and d["moves"]["moves"] == []
    assert d["timeline"]["turns"] == [] and d["message"] == "Pass the screen to Ben."


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_panel_data_is_small(n: int) -> None:
    rec = _record(n)
    d = _data(rec, len(rec["turns"]) // 2, 0)
    figures = d.pop("figures")  # type: ignore[misc]
    assert len(json.dumps(d)) < 8_000  # a few KB a position, no chart library
    assert len(json.dumps(figures)) < 24_000  # the four figures: tens of KB, no plotly.js


# ------------------------------------------------------------------- the figures


def _positions() -> list[tuple[dict[str, Any], int, int | None]]:
    """(record, turns, seat): the start, the middle and the end of each sample game, seen
    by a seat and by the teacher."""
    out = []
    for n in (2, 3, 4, 5):
        rec = _record(n)
        for turns in (0, len(rec["turns"]) // 2, len(rec["turns"])):
            for seat in (0, None):
                out.append((rec, turns, seat))
    return out


def test_every_figure_is_a_plotly_figure_and_plain_json() -> None:
    """plotly.py accepts every figure (it validates each trace and layout key), and its
    JSON is the figure's (the table syncs what an analyst gets); no NaN or numpy type."""
    import plotly.graph_objects as go

    kinds: set[str] = set()
    for rec, turns, seat in _positions():
        d = _data(rec, turns, seat)
        assert d["figures"] == panel_figures(d)
        for key, panel in d["figures"].items():
            kinds.add(key)
            text = json.dumps(panel, allow_nan=False)
            fig = go.Figure(panel["figure"])  # raises on an invalid property
            again = json.loads(json.dumps(fig.to_plotly_json()["data"], allow_nan=False))
            assert again == json.loads(text)["figure"]["data"], key
            assert panel["name"] and panel["alt"], key
    assert kinds == {"outcome", "moves", "cards", "timeline"}


def test_the_outcome_figure_names_the_three_ends_in_words() -> None:
    rec = _record(3)
    d = _data(rec, 4, 0)
    panel = d["figures"]["outcome"]
    bars = panel["figure"]["data"][:3]
    assert [b["name"].split(":")[0] for b in bars] == ["under 10", "exactly 10", "over 10"]
    assert all(b["marker"]["pattern"] for b in bars) and bars[0]["showlegend"]
    full = [q for q in d["outcome"] if not q["empty"]]
    assert full
    q = full[0]
    row = bars[0]["y"][q["queue"]]
    assert row.startswith(f"Queue {q['queue'] + 1} (")
    words = f"under 10 {charts.percent(q['p_under'])}, exactly 10 {charts.percent(q['p_exact'])}"
    assert f"{row}: {words}" in panel["alt"]
    biggest = max(("p_under", "p_exact", "p_over"), key=lambda k: q[k])  # type: ignore[literal-required]
    i = ("p_under", "p_exact", "p_over").index(biggest)
    assert bars[i]["text"][q["queue"]] == charts.percent(q[biggest])  # type: ignore[literal-required]
    totals = [t for t in panel["figure"]["data"][3:] if t["name"] == f"Queue {q['queue'] + 1}"]
    assert len(totals) == 1 and abs(sum(totals[0]["y"]) - 1) < 1e-9  # the total's distribution
    assert all("would total" in h for h in totals[0]["hovertext"])


def test_empty_states_are_said_in_words() -> None:
    g = Game(["Ana", "Ben", "Cy"], seed=3)
    view = g.view(0)
    d = panel_data(view, seat_odds(view), [TimelinePoint(0, [0, 0, 0], 0.0)])
    f = d["figures"]
    assert f["cards"]["alt"] == "No card on the table: nothing can be swatted."
    assert f["cards"]["figure"]["data"] == []
    note = f["cards"]["figure"]["layout"]["annotations"][0]["text"]
    assert note.replace("<br>", " ") == f["cards"]["alt"]  # wrapped: plotly.js does not
    # every queue empty: no bar to draw, the words alone (plotly.js draws no chart)
    assert f["outcome"]["alt"] == "Every queue is empty: nothing to swat."
    assert f["outcome"]["figure"]["data"] == []
    g.apply({"seat": 0, "play": ["2", 0]})
    view = g.view(1)
    f = panel_data(view, seat_odds(view), [TimelinePoint(0, [0, 0, 0], 0.0)])["figures"]
    # one queue empty beside a queue with a card: the chart, the empty queue said on it
    notes = [a["text"] for a in f["outcome"]["figure"]["layout"]["annotations"]]
    assert notes.count("empty: nothing to swat") == 1
    assert "Queue 2: empty, nothing to swat." in f["outcome"]["alt"]
    rec = _record(3)
    g = Game.from_record(rec, turns=4)
    other = (g.to_move + 1) % 3  # type: ignore[operator]
    moves = _data(rec, 4, other)["figures"]["moves"]
    assert moves["figure"]["data"] == [] and rec["players"][g.to_move] in moves["alt"]
    assert hidden_panels(["Ana", "Ben"], ["red", "yellow"], "x")["figures"] == {}
    over = _data(rec, len(rec["turns"]), 0)
    assert set(over["figures"]) == {"timeline"}


def test_the_moves_figure_marks_the_best_with_intervals_for_the_whole_game() -> None:
    rec = _record(3)
    mover = Game.from_record(rec, turns=3).to_move
    d = _data(rec, 3, mover)
    moves = d["moves"]
    fig = d["figures"]["moves"]
    assert fig["figure"]["data"][0]["type"] == "bar"
    best = [m for m in moves["moves"] if m["best"]]
    labels = fig["figure"]["data"][0]["y"]
    assert labels[0] == best[0]["label"] + " ★" and "(★ lowest)" in fig["alt"]
    game = copy.deepcopy(moves)
    game["measure"], game["worlds"], game["target"] = "game", 96, 1024
    game["done"], game["star"] = True, True
    for i, m in enumerate(game["moves"]):
        m["margin"], m["margin_ci95"] = i - 1.0, [i - 1.5, i - 0.25]
        m["final"], m["final_ci95"] = 5.0 + i, [4.0 + i, 6.0 + i]
        m["worse"], m["worse_ci95"] = float(i), ([0.0, 0.0] if i == 0 else [i - 0.5, i + 0.75])
        m["best"] = i == 0
    g = charts.moves_figure(game, d["players"])
    trace = g["figure"]["data"][0]
    # the whiskers are the paired interval against the best, the x its points worse
    assert trace["x"][:2] == [0.0, 1.0]
    assert trace["error_x"]["array"][1] == pytest.approx(0.75)
    assert trace["error_x"]["arrayminus"][1] == pytest.approx(0.5)
    assert trace["y"][0].endswith(" ★") and not trace["y"][1].endswith("★")
    assert "★ best for the game" in g["alt"] and "96 sampled worlds" in g["alt"]
    assert "worse than the best by +1.00 [+0.50, +1.75]" in trace["hovertext"][1]
    assert "margin −1.00 [−1.50, −0.25]" in trace["hovertext"][0]
    assert g["name"].endswith("value over the whole game")
    # not separated: both marked "about equally good", no ★
    game["star"], game["moves"][1]["best"] = False, True
    game["moves"][1]["worse_ci95"] = [-0.2, 2.2]
    g2 = charts.moves_figure(game, d["players"])
    ys = g2["figure"]["data"][0]["y"]
    assert ys[0].endswith(" ≈") and ys[1].endswith(" ≈") and ys[2] == game["moves"][2]["label"]
    assert "★" not in g2["alt"] and "(≈ about equally good)" in g2["alt"]
    # still thinking: no mark
    game["done"] = False
    assert "thinking… 96 worlds so far" in charts.moves_figure(game, d["players"])["alt"]
    # the error bars have one colour, not the markers' list (plotly.js: "Invalid color
    # specifier", then black bars), and not black (they vanish on a dark page)
    colour = trace["error_x"]["color"]
    assert isinstance(colour, str) and colour.lower() not in ("#000", "#000000", "black")
    # "... and N more": inside the figure, from the plot's right end leftwards
    more = [a for a in g["figure"]["layout"]["annotations"] if "more, each" in a["text"]]
    assert all(a["x"] == 1 and a["xanchor"] == "right" for a in more)


def test_the_timelines_end_labels_do_not_overlap() -> None:
    # Ana ends on 13 and Ben on 14: one point apart is less than a line of 11 px type
    timeline = {"turns": [0, 1, 2], "penalty": [[0, 5, 13], [0, 6, 14], [0, 2, 22]],
                "expected": [], "viewer": None}
    f = charts.timeline_figure(timeline, ["Ana", "Ben", "Cy"], ["red", "yellow", "green"])
    layout = f["figure"]["layout"]
    bottom, top = layout["yaxis"]["range"]
    per_point = charts.TIMELINE_PLOT_HEIGHT / (top - bottom)
    places = sorted(a["y"] * per_point + a["yshift"] for a in layout["annotations"])
    assert [a["text"] for a in layout["annotations"]] == ["Ana: 13", "Ben: 14", "Cy: 22"]
    assert all(b - a >= charts.TIMELINE_LABEL_GAP for a, b in zip(places, places[1:], strict=False))
    height = layout["height"] - layout["margin"]["t"] - layout["margin"]["b"]
    assert height == charts.TIMELINE_PLOT_HEIGHT


def test_a_timeline_of_one_point_is_its_words() -> None:
    # no turn played: nothing to draw a line of (and plotly.js draws no chart for it)
    players, colours = ["Ana", "Ben", "Cy"], ["red", "yellow", "green"]
    start = {"turns": [0], "penalty": [[0], [0], [0]], "expected": [0.0], "viewer": 0}
    f = charts.timeline_figure(start, players, colours)
    assert f["figure"]["data"] == []
    assert f["alt"] == "No turn played yet: nobody has a penalty."
    assert [a["text"] for a in f["figure"]["layout"]["annotations"]] == [f["alt"]]
    # a replay's table from a later turn on: the penalties then, in words
    later = {"turns": [12], "penalty": [[3], [0], [5]], "expected": [], "viewer": None}
    assert charts.timeline_figure(later, players, colours)["alt"] == (
        "After turn 12: Ana 3, Ben 0, Cy 5.")
    # two points are a line: a chart
    two = {"turns": [0, 1], "penalty": [[0, 0], [0, 2], [0, 0]], "expected": [],
           "viewer": None}
    assert len(charts.timeline_figure(two, players, colours)["figure"]["data"]) == 3


def test_the_timeline_figure_names_tied_seats_together() -> None:
    rec = _record(4)
    d = _data(rec, len(rec["turns"]) // 2, 1)
    fig = d["figures"]["timeline"]
    traces = fig["figure"]["data"]
    assert [t["name"] for t in traces[:4]] == rec["players"]
    assert len({t["marker"]["symbol"] for t in traces[:4]}) == 4  # told apart without colour
    assert traces[4]["line"]["dash"] == "dot"  # the viewer's penalty if SleepKid woke
    ends = [a["text"] for a in fig["figure"]["layout"]["annotations"]]
    last = [row[-1] for row in d["timeline"]["penalty"]]
    assert sum(len(e.split(":")[0].split(", ")) for e in ends) == 4
    assert all(e.endswith(f": {p}") for e, p in zip(ends, sorted(set(last)), strict=True))


def test_the_review_figure_shows_a_seat_its_own_decisions_only() -> None:
    from tenleave_widget.analysis.review import review

    rec = _record(2)
    r = review(rec, samples=4, seed=1)
    colours = Game.from_record(rec).view(None)["colours"]
    teacher = review_figure(r, None, colours, 3)
    seats = [t for t in teacher["figure"]["data"] if t.get("meta") != "key"]
    assert [t["name"] for t in seats] == rec["players"]
    key = [t["name"] for t in teacher["figure"]["data"] if t.get("meta") == "key"]
    assert key == [lab for lab in REVIEW_SYMBOLS if any(t.label == lab for t in r.turns)]
    mine = review_figure(r, 1, colours, 3)
    (trace, *key) = mine["figure"]["data"]  # the key: only the labels of seat 1's decisions
    assert [k["name"] for k in key] == [
        lab for lab in REVIEW_SYMBOLS if any(t.label == lab for t in r.turns if t.seat == 1)]
    assert trace["customdata"] == [t.turn for t in r.turns if t.seat == 1]
    assert all(name not in mine["alt"] for name in rec["players"][:1])
    assert mine["figure"]["layout"]["shapes"][0]["x0"] == 4  # the decision shown: turn 4


def test_figures_gives_plotly_figures_of_a_view() -> None:
    import plotly.graph_objects as go

    rec = _record(3)
    g = Game.from_record(rec, turns=5)
    figs = odds_figures(g.view(0))
    assert list(figs) == ["outcome", "moves", "cards", "timeline"]
    assert all(isinstance(f, go.Figure) for f in figs.values())
    assert figs["outcome"].layout.title.text.startswith("If SleepKid woke now")
    over = odds_figures(Game.from_record(rec).view(None))
    assert list(over) == ["timeline"]
