"""A student at a dealer's table from the JupyterLite site (Pyodide: the kernel is in the
browser and Python cannot open a socket, so the seat's link is the browser's own
WebSocket): ``w = await join_async(url, code, name)`` in a cell, then a whole game by
clicking against a student in this test's process and a greedy bot, its line cut once
(it resumes its seat by itself); at each of the Lite student's turns the drawn table is
the table of the real game's view of its seat."""

from __future__ import annotations

import time
from typing import Any

from programs.dealer.harness import call_in, served_in_thread

from tenleave_widget.widget.remote import join

from .test_dealer_join import click_to_the_end, create_table
from .test_lite import TIMEOUT, lite, open_and_run, run_cell  # noqa: F401 (lite: a fixture)

WAIT_TURN_JS = """([el, k]) => el.dataset.turns === String(k) && el.dataset.busy === '0'"""


def test_a_student_in_jupyterlite_plays_a_whole_game(page: Any, lite: str) -> None:  # noqa: F811
    with served_in_thread(seed=71, bot_delay=0.05) as s:
        t = create_table(s, 3, {"2": "greedy"})
        game = call_in(s, lambda: s.dealer.tables[t["table"]].game)
        open_and_run(page, lite, "play.ipynb")  # its first cell installs the package
        cell = run_cell(page, "from tenleave_widget.widget.remote import join_async\n"
                              f"lw = await join_async({s.url!r}, {t['code']!r}, 'Lia', "
                              "show_odds=False)\nprint('LINK', type(lw.link).__name__)\nlw")
        root = cell.locator(".tl-root")
        root.wait_for(timeout=TIMEOUT)
        # the browser's own WebSocket carries the seat: Python cannot open a socket there
        assert "LINK BrowserLink" in cell.locator(".jp-OutputArea-output").first.inner_text()
        other = join(s.url, t["code"], "Ben", show_odds=False)
        try:
            assert call_in(s, lambda: game.players[0]) == "Lia"
            seated = call_in(s, lambda: s.dealer.tables[t["table"]].clients[0])

            def drop() -> None:
                """The line cut in the browser: the seat must come back by itself."""
                run_cell(page, "lw.drop()")
                end = time.monotonic() + 60
                while call_in(s, lambda: s.dealer.tables[t["table"]].clients.get(0)) in (
                        seated, None):
                    assert time.monotonic() < end, "the Lite seat did not resume"
                    time.sleep(0.05)

            click_to_the_end(root, s, game, other, 400, lambda k, idle: page.wait_for_function(
                WAIT_TURN_JS if idle else "([el, k]) => el.dataset.turns === String(k)",
                arg=[root.element_handle(), k], timeout=TIMEOUT), drop)
        finally:
            other.close()
