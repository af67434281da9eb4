"""The class report's figures and page (programs/class_report.py): plotly.py accepts
every figure; each has an accessible name and a text alternative with its numbers; a
player's name is shown as text, never read as chart markup; the page is one file with
its figures and plotly.js inline and a policy that allows no request."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from tenleave_widget.programs.class_report import FIGURES, as_figures, page, report_figures


def player(name: str, trend: list[float | None]) -> dict[str, Any]:
    return {"name": name, "games": len(trend), "decisions": 12, "accuracy": 64.0,
            "accuracy_ci95": [50.0, 78.0], "mean_loss": 1.25, "mean_loss_ci95": [0.5, 2.0],
            "labels": {"best": 6, "blunder": 1}, "luck": -2.5, "penalty": 31,
            "luck_adjusted": 33.5, "trend": trend}


SUMMARY: dict[str, Any] = {
    "games": 3, "decisions": 40, "failures": ["bad.json: not a record"],
    "judged_by": "the inferred model (<beta> 4)",
    "players": [player("Sam", [20.0, None, 80.0]), player("<b>Ana</b> & co", [70.0])],
    "kinds": [{"kind": "wake", "decisions": 4, "mean_loss": 1.8, "ci95": [0.1, 3.5]},
              {"kind": "peek", "decisions": 9, "mean_loss": 0.4, "ci95": [0.0, 0.9]}],
    "positions": [{"file": "a.json", "game": 0, "turn": 4, "seat": 0, "player": "Sam",
                   "loss": 5.5, "label": "blunder", "played": {}, "best": {}, "gap": 2.5,
                   "found": False, "why": ["largest loss", "clearest best"],
                   "played_text": "3* on queue 2", "best_text": "5 on queue 2"}],
}


def test_plotly_py_accepts_every_figure() -> None:
    figs = report_figures(SUMMARY)
    assert tuple(figs) == FIGURES
    drawn = as_figures(figs)
    assert list(drawn) == list(FIGURES)
    for key, fig in drawn.items():
        assert fig.to_dict()["data"], key


def test_each_figure_has_a_name_and_its_numbers_in_words() -> None:
    figs = report_figures(SUMMARY)
    for key in FIGURES:
        assert figs[key]["name"] and figs[key]["alt"], key
    assert "Sam: accuracy 64 (95% interval 50 to 78)" in figs["accuracy"]["alt"]
    assert "Sam, game by game: 20, no decision to judge, 80." in figs["trend"]["alt"]
    assert "penalty 31, luck −2.50, with average luck 33.5" in figs["result"]["alt"]
    assert "wake: mean loss 1.80 (95% interval 0.10 to 3.50) over 4" in figs["kinds"]["alt"]
    # a bar per player, in order, the interval as error bars
    bar = figs["accuracy"]["figure"]["data"][0]
    assert bar["x"] == [64.0, 64.0]
    assert bar["error_x"]["array"] == [14.0, 14.0] and bar["error_x"]["arrayminus"] == [14.0, 14.0]


def test_a_name_is_text_in_a_chart_not_markup() -> None:
    figs = report_figures(SUMMARY)
    assert figs["accuracy"]["figure"]["data"][0]["y"][1] == "&lt;b&gt;Ana&lt;/b&gt; &amp; co"
    assert figs["trend"]["figure"]["data"][1]["name"] == "&lt;b&gt;Ana&lt;/b&gt; &amp; co"
    # the template reads the (escaped) trace name: a name with %{...} is not a template
    assert "%{fullData.name}" in figs["trend"]["figure"]["data"][0]["hovertemplate"]


def test_the_page_is_one_offline_file() -> None:
    text = page(SUMMARY)
    assert text.startswith("<!doctype html>") and "<script src" not in text
    assert "default-src 'none'" in text  # the browser may fetch nothing
    assert text.count("<script") == 2  # the figures (JSON) and plotly.js with the drawer
    raw = re.search(r'<script type="application/json" id="tenleave-figures">(.*?)</script>',
                    text, re.S)
    assert raw is not None
    assert json.loads(raw.group(1)) == json.loads(json.dumps(report_figures(SUMMARY)))
    assert "&lt;b&gt;Ana&lt;/b&gt; &amp; co" in text and "<b>Ana</b>" not in text
    assert "bad.json: not a record" in text
    for key in FIGURES:
        assert f'data-figure="{key}"' in text and f'id="fig-{key}-alt"' in text
    assert "largest loss, clearest best" in text and "5 on queue 2 — missed it" in text
    # which model judged the games, as text
    assert '<p id="judged-by">Judged by the inferred model (&lt;beta&gt; 4).</p>' in text
    assert "judged-by" not in page({**SUMMARY, "judged_by": ""})


@pytest.mark.parametrize("bad", [float("nan"), float("inf")])
def test_no_nan_reaches_the_page(bad: float) -> None:
    broken = json.loads(json.dumps(SUMMARY))
    broken["kinds"][0]["mean_loss"] = bad
    with pytest.raises(ValueError):
        page(broken)
