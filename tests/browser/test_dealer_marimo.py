"""A student at a dealer's table from marimo (``marimo run``, loopback, headless), through
Debian's Chromium: the marimo student, a second student (a seat's table in this test's
process, its own kernel's part) and a greedy bot play a whole game; the marimo student
plays by clicking, and at each of its turns the drawn table is the table of the real
game's view of its seat."""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any

from programs.dealer.harness import call_in, served_in_thread
from widget.test_remote import my_turn, play_one

from tenleave_widget.widget.remote import join

from .driver import TIMEOUT
from .hosts import marimo_server
from .test_browser import TABLE_JS, table_of
from .test_dealer_join import create_table

APP = '''import marimo

app = marimo.App(width="full")


@app.cell
def _():
    import marimo as mo

    from tenleave_widget.widget import join

    return join, mo


@app.cell
def _(join, mo):
    w = join({url!r}, {code!r}, "Mia")
    table = mo.ui.anywidget(w.table)
    table  # noqa: B018
    return (w,)


if __name__ == "__main__":
    app.run()
'''


def test_a_student_in_marimo_plays_a_whole_game(page: Any, tmp_path: Path) -> None:
    with served_in_thread(seed=61, bot_delay=0.05) as s:
        t = create_table(s, 3, {"2": "greedy"})
        game = call_in(s, lambda: s.dealer.tables[t["table"]].game)
        app = tmp_path / "src" / "marimo_join.py"
        app.parent.mkdir()
        app.write_text(APP.format(url=s.url, code=t["code"]))
        with marimo_server(tmp_path, app) as m:
            page.goto(m.url, timeout=TIMEOUT)
            root = page.locator(".tl-root").first
            root.wait_for(timeout=TIMEOUT)
            other = join(s.url, t["code"], "Ben", show_odds=False)
            try:
                rng = random.Random(6)
                clicked = 0
                end = time.monotonic() + 240
                while not call_in(s, lambda: game.finished):
                    assert time.monotonic() < end, "the game did not end in time"
                    real = call_in(s, lambda: game.copy())
                    if real.finished:
                        break
                    if real.to_move == 1 and my_turn(other):
                        play_one(other, rng)
                    elif real.to_move == 0:
                        k = real.turns_applied
                        root.evaluate(
                            """(el, k) => new Promise((ok, no) => {
                                const done = () => el.dataset.turns === String(k)
                                    && el.dataset.busy === '0';
                                if (done()) return ok(true);
                                const o = new MutationObserver(() => {
                                    if (done()) { o.disconnect(); ok(true); } });
                                o.observe(el, {attributes: true});
                                setTimeout(() => { o.disconnect();
                                    no(new Error(JSON.stringify(el.dataset))); }, 30000);
                            })""", k)
                        assert root.evaluate(TABLE_JS) == table_of(real.view(0))
                        plays = [x for x in real.legal_turns if x.action == "none"]
                        choice = plays[rng.randrange(len(plays))]
                        page.locator(f"[data-testid='hand-card-{choice.card}']").first.click()
                        page.locator(f"[data-testid='play-{choice.queue}']").first.click()
                        page.locator("[data-testid='end']").first.click()
                        deadline = time.monotonic() + 30
                        while call_in(s, lambda: game.turns_applied) == k:
                            assert time.monotonic() < deadline, "the turn never reached the dealer"
                            time.sleep(0.01)
                        clicked += 1
                    time.sleep(0.01)
                assert clicked >= 5
                n = call_in(s, lambda: game.turns_applied)
                root.evaluate(
                    """(el, n) => new Promise((ok, no) => {
                        const done = () => el.dataset.turns === String(n);
                        if (done()) return ok(true);
                        const o = new MutationObserver(() => {
                            if (done()) { o.disconnect(); ok(true); } });
                        o.observe(el, {attributes: true});
                        setTimeout(() => { o.disconnect(); no(new Error('not at the end')); },
                                   30000);
                    })""", n)
                final = call_in(s, lambda: game.copy())
                assert final.finished and root.evaluate(TABLE_JS) == table_of(final.view(0))
            finally:
                other.close()
