"""The widget's review shows what explains each result (issue 22, point 3): the review's
breakdown, final = start + decisions + luck + rest, a sentence per player it may show."""

from __future__ import annotations

import re
from pathlib import Path

from tenleave_widget.widget import replay

GAME = Path(__file__).resolve().parents[2] / "examples" / "games" / "game-2-seats.json"


def sentences(html: str) -> list[str]:
    return re.findall(r"<p class='tl-review-result'>(.*?)</p>", html)


def test_the_review_panel_explains_each_result_in_words() -> None:
    w = replay(GAME, turn=4)
    w.review(samples=2, seed=1)
    assert w.review_panel is not None
    r = w.review_result
    assert r is not None
    said = sentences(w.review_panel.summary.value)
    assert len(said) == len(r.players)
    for s, line in zip(r.seats, said, strict=True):
        name = r.players[s.seat]
        assert line.startswith(f"{name} ended with {s.final_penalty} points.")
        # every term named, and the terms add up to the result (to the rounding shown)
        for word in ("first decision", "own decisions", "luck in the swats", "the rest"):
            assert word in line
        start = float(re.search(r"about (\d+\.\d)", line)[1])  # type: ignore[index]
        signed = [(-1 if m[0] == "took" else 1) * float(m[1])
                  for m in re.findall(r"(added|took) (\d+\.\d)", line)]
        assert abs(start + sum(signed) - s.final_penalty) <= 0.05 * (len(signed) + 1)
    w.set_perspective(1)  # a seat's view: only that seat's result
    assert [x.split()[0] for x in sentences(w.review_panel.summary.value)] == [r.players[1]]
