"""A student at a dealer's table from marimo (``marimo run``, loopback, headless), through
Debian's Chromium: the marimo student, a second student (a seat's table in this test's
process, its own kernel's part) and a greedy bot play a whole game; the marimo student
plays by clicking, and at each of its turns the drawn table is the table of the real
game's view of its seat."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from programs.dealer.harness import call_in, served_in_thread

from tenleave_widget.widget.remote import join

from .driver import TIMEOUT
from .hosts import marimo_server
from .test_dealer_join import click_to_the_end, create_table

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
                click_to_the_end(root, s, game, other, 240, lambda k, idle: root.evaluate(
                    """(el, [k, idle]) => new Promise((ok, no) => {
                        const done = () => el.dataset.turns === String(k)
                            && (!idle || el.dataset.busy === '0');
                        if (done()) return ok(true);
                        const o = new MutationObserver(() => {
                            if (done()) { o.disconnect(); ok(true); } });
                        o.observe(el, {attributes: true});
                        setTimeout(() => { o.disconnect();
                            no(new Error(JSON.stringify(el.dataset))); }, 30000);
                    })""", [k, idle]))
            finally:
                other.close()
