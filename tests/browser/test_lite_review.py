"""The JupyterLite site answers clicks while *Review this game* runs (no threads in Pyodide:
the review runs on the kernel's event loop, a slice at a time, and the kernel reads the
page's messages between two slices).

A replay of the 3-seat sample game is opened in the site's kernel, its review started, and
the replay's next / previous buttons clicked one after the other while the review runs:
each click waits (bounded) for the table to show the turn it asked for, and the review's
progress is read at the click and at the answer. The test asserts on that state: every
click is answered while the review is on the decision it was on at the click (or the
next one), never after several decisions, and the review's result is shown at its end.
The latencies themselves (milliseconds, the page's clock) are printed and written to
``test-artifacts/lite-review-clicks.json`` (a test asserts no time).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from .conftest import artifact
from .test_lite import TIMEOUT, built_site, open_and_run, run_cell, serve

REPLAY = """\
from tenleave_widget import replay
r = replay("games/game-3-seats.json", seat=None)
r"""
"""A replay of the 3-seat sample game (30 turns) in the kernel of the open notebook."""

CLICK_JS = """
async ([root, testid, want, bound]) => {
  const bar = () => {
    const el = document.querySelector('.tl-review .progress-bar');
    return el ? parseFloat(el.style.width) || 0 : -1;
  };
  const before = bar();
  const t0 = performance.now();
  root.querySelector(`[data-testid=${testid}]`).click();
  await new Promise((resolve, reject) => {
    if (root.dataset.turns === want) { resolve(); return; }
    const timer = setTimeout(() => { obs.disconnect(); reject(new Error('no answer')); },
                             bound);
    const obs = new MutationObserver(() => {
      if (root.dataset.turns === want) { clearTimeout(timer); obs.disconnect(); resolve(); }
    });
    obs.observe(root, {attributes: true});
  });
  return {ms: performance.now() - t0, before, after: bar()};
}
"""
"""Click the button ``testid`` of the table ``root`` and wait (at most ``bound`` ms) for it
to show ``want`` turns: the milliseconds it took and the review's progress (% of its
decisions) at the click and at the answer."""

CLICKS = 12
"""The most clicks made during one review."""


@pytest.fixture(scope="module")
def lite() -> Iterator[str]:
    """The site's base URL."""
    with serve(built_site()) as url:
        yield url


def clicks_during_a_review(page: Any, url: str, most: int = CLICKS) -> list[dict[str, float]]:
    """The replay opened in the site, its review started and the table clicked while it
    runs, once at each of its first decisions (at most ``most`` times), until the
    review's result is shown: each click's latency and progress."""
    open_and_run(page, url, "play.ipynb")
    cell = run_cell(page, REPLAY)
    root = cell.locator(".tl-root")
    root.wait_for(timeout=TIMEOUT)
    page.wait_for_function("el => el.dataset.connected === '1' && el.dataset.turns === '0'",
                           arg=root.element_handle(), timeout=TIMEOUT)
    start = cell.locator(".tl-review-start")
    start.click()
    page.wait_for_function("el => el.disabled", arg=start.element_handle(), timeout=TIMEOUT)
    clicks: list[dict[str, float]] = []
    turn = 0
    while len(clicks) < most and start.is_disabled():
        testid, turn = ("next", turn + 1) if turn == 0 else ("prev", turn - 1)
        click = page.evaluate(CLICK_JS, [root.element_handle(), testid, str(turn), TIMEOUT])
        clicks.append(click)
        # the next click at a later decision: the review's bar has moved on, or it ended
        page.wait_for_function(
            "([button, was]) => button.disabled === false || "
            "parseFloat(document.querySelector('.tl-review .progress-bar')?.style.width"
            " || '0') > was",
            arg=[start.element_handle(), click["after"]], timeout=TIMEOUT)
    # the review's end: its result shown (the button offers to review again)
    page.wait_for_function("el => !el.disabled && el.textContent.includes('Review again')",
                           arg=start.element_handle(), timeout=600_000)
    return clicks


def test_clicks_during_a_review_are_answered_between_slices(page: Any, lite: str) -> None:
    clicks = clicks_during_a_review(page, lite)
    artifact("lite-review-clicks.json").write_text(json.dumps(clicks, indent=1))
    ms = sorted(c["ms"] for c in clicks)
    print(f"lite review: {len(clicks)} clicks, median {ms[len(ms) // 2]:.0f} ms, "
          f"max {ms[-1]:.0f} ms; progress {[(c['before'], c['after']) for c in clicks]}")
    assert len(clicks) >= 3, "the review ended before three clicks"
    # One decision of the 30 is 3.3% of the bar: answered within the decision under way
    late = [c for c in clicks if c["after"] - c["before"] > 100 / 30 + 0.5]
    assert not late, f"clicks answered only after several decisions: {late}"
