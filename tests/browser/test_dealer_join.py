"""Students at one dealer's table from separate kernels, in a real JupyterLab and in
Notebook 7, through Debian's Chromium: two students (each a notebook of its own, so a
kernel of its own) join a 3-seat table with a bot seat through ``join(url, code, name)``
and play a whole game against each other by clicking. Each browser shows the table of its
seat's view of the real game (the dealer's, in this test's process) and nothing more: at
each of its turns the drawn table is the table of ``Game.view(seat)``.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import nbformat
import pytest
from programs.dealer.harness import Served, call_in, served_in_thread

from .conftest import artifact
from .driver import Kernel, open_and_run
from .harness import LabServer, lab_server
from .hosts import open_and_run_notebook7
from .test_browser import TABLE_JS, choose_theme, table_of

DEADLINE = 300.0
"""Seconds a whole game may take (bounded; about a minute here)."""


def student_notebook(folder: Path, name: str, url: str, code: str) -> str:
    """A student's notebook: ``join`` the table as ``name``."""
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell("import tenleave_widget.widget as tw"),
                nbformat.v4.new_code_cell(f"w = tw.join({url!r}, {code!r}, {name!r})\nw")]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                 "language": "python"}
    path = folder / f"join-{name.lower()}.ipynb"
    nbformat.write(nb, path)
    return path.name


def create_table(s: Served, players: int, bots: dict[str, str]) -> dict[str, Any]:
    """A table made on the dealer's loop, as the teacher's ``create`` frame would."""
    def make() -> dict[str, Any]:
        config = s.dealer.table_config({"players": players, "bots": bots})
        return s.dealer.create(config).summary()
    summary: dict[str, Any] = call_in(s, make)
    return summary


def play_whole_game(browser: Any, server: LabServer, opener: Any, stem: str,
                    dark: bool = False) -> None:
    """Two students and a greedy bot, to the end; screenshots of their second turns
    (``dark``: the first student's in the dark theme too)."""
    with served_in_thread(seed=31, bot_delay=0.05) as s:
        t = create_table(s, 3, {"2": "greedy"})
        game = call_in(s, lambda: s.dealer.tables[t["table"]].game)
        students = []
        for name in ("Ana", "Ben"):
            nb = student_notebook(server.root, name, s.url, t["code"])
            context = browser.new_context(viewport={"width": 1280, "height": 720})
            page = context.new_page()
            errors: list[str] = []
            page.on("pageerror", lambda e, errors=errors: errors.append(str(e)))
            root = opener(page, server, nb)
            students.append((page, root, Kernel(server, nb), context, errors))
        try:
            seats = [k.eval("w.seat") for _, _, k, _, _ in students]
            assert seats == [0, 1]
            clicked = [0, 0]
            end = time.monotonic() + DEADLINE
            while not call_in(s, lambda: game.finished):
                assert time.monotonic() < end, "the game did not end in time"
                for i, (page, root, kernel, _, _) in enumerate(students):
                    real = call_in(s, lambda: game.copy())
                    if real.finished or real.to_move != i:
                        continue
                    k = real.turns_applied
                    page.wait_for_function(
                        "([el, k]) => el.dataset.turns === String(k)"
                        " && el.dataset.busy === '0'", arg=[root.element_handle(), k],
                        timeout=30_000)
                    # what the browser draws is the seat's view of the real game
                    assert root.evaluate(TABLE_JS) == table_of(real.view(i))
                    card, queue = kernel.eval(
                        "[[t.card, t.queue] for t in w.session.live.legal_turns"
                        " if t.action == 'none'][0]")
                    page.click(f"[data-testid='hand-card-{card}']")
                    page.click(f"[data-testid='play-{queue}']")
                    page.wait_for_function(
                        "(el) => el.dataset.pending === '1'", arg=root.element_handle(),
                        timeout=20_000)
                    if clicked[i] == 1:
                        page.screenshot(path=str(artifact(f"{stem}-{i}.png")))
                        if dark and i == 0:  # the guide's pictures: light, then dark
                            choose_theme(page, "JupyterLab Dark", False)
                            page.screenshot(path=str(artifact(f"{stem}-{i}-dark.png")))
                            choose_theme(page, "JupyterLab Light", True)
                    page.click("[data-testid='end']")
                    page.wait_for_function(
                        "([el, k]) => Number(el.dataset.turns) > k",
                        arg=[root.element_handle(), k], timeout=30_000)
                    clicked[i] += 1
                time.sleep(0.01)
            record = call_in(s, lambda: game.to_record())
            assert clicked[0] >= 5 and clicked[1] >= 5
            assert {turn["seat"] for turn in record["turns"]} == {0, 1, 2}
            final = call_in(s, lambda: game.copy())
            for i, (page, root, kernel, _, errors) in enumerate(students):
                n = final.turns_applied
                page.wait_for_function("([el, n]) => el.dataset.turns === String(n)",
                                       arg=[root.element_handle(), n], timeout=30_000)
                assert root.evaluate(TABLE_JS) == table_of(final.view(i))
                assert kernel.eval("w.session.live.finished")
                assert [e for e in errors if "reading 'schema'" not in e] == []
        finally:
            for _, _, kernel, context, _ in students:
                try:
                    kernel.eval("w.close()")
                finally:
                    kernel.close()
                    context.close()


def test_two_students_play_a_whole_game_in_jupyterlab(browser: Any, lab: LabServer) -> None:
    play_whole_game(browser, lab, lambda page, server, nb: open_and_run(page, server, nb),
                    "dealer-join-lab", dark=True)


@pytest.fixture(scope="module")
def notebook7(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LabServer]:
    with lab_server(tmp_path_factory.mktemp("nb7-join"), [], app="notebook") as server:
        yield server


def test_two_students_play_a_whole_game_in_notebook7(browser: Any,
                                                     notebook7: LabServer) -> None:
    play_whole_game(browser, notebook7, open_and_run_notebook7, "dealer-join-nb7")


def click_to_the_end(root: Any, s: Served, game: Any, other: Any, seconds: float,
                     wait_turns: Any, midway: Any = None) -> None:
    """Seat 0 plays by clicks on the table ``root`` (a random plain play at each turn,
    after checking that the drawn table is the real game's view of seat 0), seat 1 is
    ``other`` (a student's table in this process), the dealer's bot the rest, to the end;
    then the drawn table is the end's. ``wait_turns(k, idle)``: wait until the table
    shows ``k`` turns (and, if ``idle``, that nothing is busy). ``midway()`` is called
    once after the second click (a dropped line, say)."""
    from widget.test_remote import my_turn, play_one

    rng = random.Random(6)
    clicked = 0
    end = time.monotonic() + seconds
    while not call_in(s, lambda: game.finished):
        assert time.monotonic() < end, "the game did not end in time"
        real = call_in(s, lambda: game.copy())
        if real.finished:
            break
        if real.to_move == 1 and my_turn(other):
            play_one(other, rng)
        elif real.to_move == 0:
            k = real.turns_applied
            wait_turns(k, True)
            assert root.evaluate(TABLE_JS) == table_of(real.view(0))
            plays = [x for x in real.legal_turns if x.action == "none"]
            choice = plays[rng.randrange(len(plays))]
            root.locator(f"[data-testid='hand-card-{choice.card}']").first.click()
            root.locator(f"[data-testid='play-{choice.queue}']").first.click()
            root.locator("[data-testid='end']").first.click()
            deadline = time.monotonic() + 60
            while call_in(s, lambda: game.turns_applied) == k:
                assert time.monotonic() < deadline, "the turn never reached the dealer"
                time.sleep(0.01)
            clicked += 1
            if clicked == 2 and midway is not None:
                midway()
        time.sleep(0.01)
    assert clicked >= 5
    final = call_in(s, lambda: game.copy())
    wait_turns(final.turns_applied, False)
    assert final.finished and root.evaluate(TABLE_JS) == table_of(final.view(0))
