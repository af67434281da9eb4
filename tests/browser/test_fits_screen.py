"""Issue 22, "Fits the screen", in the real browser: at 1280x720 in JupyterLab the default
(medium) size shows the queues, the hand, the last event, the scores and the first odds
panel without scrolling, for the example play table (examples/play.ipynb), in the light
and dark themes; and for a replay of each sample game (2..5 seats) with its lesson, at
every question of the lesson and with its answer shown (the table after the turn: a swat,
the game over), the lesson above the table and its panels, in the teacher's view and in
a seat's; and the same lessons at projector size, the lesson beside the board (the panels
below), with a long swat account too (the README's projector picture)."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import nbformat
import pytest

from .axe import axe_violations
from .conftest import artifact
from .driver import Kernel, open_and_run
from .harness import LabServer
from .notebooks import _notebook
from .test_browser import choose_theme

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

PARTS = (("queues", ".tl-queues"), ("hand", ".tl-hand"),
         ("last event", ".tl-events .tl-lastevent"), ("scores", "[data-testid=seats]"),
         ("first panel", ".tl-panels .tl-panel"))


VISIBLE_JS = """() => { const r = document.querySelector(
    '.jp-WindowedPanel-outer, .jp-NotebookPanel-notebook').getBoundingClientRect();
    return [r.top, Math.min(r.bottom, window.innerHeight)]; }"""


def boxes(page: Any, parts: tuple[tuple[str, str], ...] = PARTS) -> dict[str, tuple[float, float]]:
    """The parts' top and bottom (px, in the viewport) once the table is scrolled to
    the top of the notebook's area, as Run All and a click on the table leave it."""
    root = page.locator(".jp-OutputArea-output .tl-root").first
    root.evaluate("el => el.scrollIntoView({block: 'start'})")
    page.wait_for_function("() => document.querySelector('.tl-root').dataset.busy === '0'")
    found = {}
    for name, sel in parts:
        box = page.locator(f".tl-root {sel}").first.bounding_box()
        assert box is not None, name
        found[name] = (round(box["y"]), round(box["y"] + box["height"]))
    return found


def live_turn(page: Any) -> None:
    """Wait until the table is live (not a saved copy), Ana is to move and a chart is drawn."""
    page.wait_for_function(
        "() => { const r = document.querySelector('.jp-OutputArea-output .tl-root');"
        " return r && r.dataset.connected !== '0' && r.dataset.toMove === '0'"
        " && r.dataset.busy === '0' && r.querySelector('.tl-hand .tl-handbtn') !== null"
        " && r.querySelector('.tl-panels .tl-panel .js-plotly-plot') !== null; }",
        timeout=60_000)


def check_fits(page: Any, shot: str, parts: tuple[tuple[str, str], ...] = PARTS,
               size: str = "medium") -> dict[str, tuple[float, float]]:
    visible = page.evaluate(VISIBLE_JS)
    found = boxes(page, parts)
    shown = page.locator(".tl-root [data-testid=size]").input_value()
    page.screenshot(path=str(artifact(shot)))
    print(shot, "visible", visible, found)
    assert shown == size
    for name, (top, bottom) in found.items():
        assert visible[0] - 1 <= top and bottom <= visible[1] + 1, (name, top, bottom, visible)
    return found


def test_a_play_table_fits_1280x720_at_the_default_size(browser: Any, lab: LabServer) -> None:
    shutil.copy(EXAMPLES / "play.ipynb", lab.root / "fit-play.ipynb")
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    page = context.new_page()
    try:
        open_and_run(page, lab, "fit-play.ipynb")
        live_turn(page)
        check_fits(page, "fit-play-light-1280x720.png")
        choose_theme(page, "JupyterLab Dark", light=False)  # reloads the page: run it again
        open_and_run(page, lab, "fit-play.ipynb")
        live_turn(page)
        check_fits(page, "fit-play-dark-1280x720.png")
    finally:
        context.close()


LESSON_PARTS = (("lesson", "[data-testid=lesson]"), ("question", "[data-testid=question]"),
                *PARTS)

# (the first panel drawn, when the odds are shown)
PANEL_DRAWN = """(!r.querySelector('[data-testid=odds-toggle]').checked
      || r.querySelector('.tl-panels .tl-panel .js-plotly-plot') !== null)"""

AT_MOMENT_JS = """(m) => { const r = document.querySelector('.jp-OutputArea-output .tl-root');
    const l = r && r.querySelector('[data-testid=lesson]');
    return r.dataset.connected !== '0' && r.dataset.busy === '0' && l && l.dataset.moment === m
      && r.querySelector('[data-testid=question]') !== null && """ + PANEL_DRAWN + "; }"

# the answer shown: in the question's place, the table one turn on (the turn is played)
ANSWER_PARTS = (("lesson", "[data-testid=lesson]"), ("answer", "[data-testid=answer]"),
                *PARTS)

AT_ANSWER_JS = """([m, turns]) => {
    const r = document.querySelector('.jp-OutputArea-output .tl-root');
    const l = r && r.querySelector('[data-testid=lesson]');
    return r.dataset.connected !== '0' && r.dataset.busy === '0' && l && l.dataset.moment === m
      && r.dataset.turns === turns && r.querySelector('[data-testid=answer]') !== null
      && """ + PANEL_DRAWN + "; }"


ANIMATIONS_DONE_JS = "() => document.getAnimations().every(a => a.playState === 'finished')"


def no_axe_violation(page: Any) -> None:
    """axe-core finds no serious violation in the table, once its swat is revealed (the
    colours are read after the animations)."""
    page.wait_for_function(ANIMATIONS_DONE_JS, timeout=20_000)
    bad = axe_violations(page)
    assert bad == [], json.dumps(bad, indent=1)[:4000]


# ... and the teacher's note on its turn (the answer often says "the teacher's note on the
# table explains it"): at small and medium size beside the table, above the odds panels
# (the first panel then follows it, below) or, without them, beside the board
NOTE = ("note", "[data-testid=note]")
ANSWER_NOTE_PARTS = (*ANSWER_PARTS[:-1], NOTE)


def teachers_note(n: int, m: int) -> bool:
    """Whether moment ``m``'s answer in the ``n``-seat sample game's lesson, in a teacher's
    replay, shows a teacher's note: the record has a note on the turn the answer plays, and
    the moment is not asked from one seat's view (a seat's view only says that there is a
    note, in its place below the scores)."""
    games = Path(__file__).resolve().parents[2] / "examples" / "games"
    record = json.loads((games / f"game-{n}-seats.json").read_text())
    moment = record["lesson"]["moments"][m]
    return moment.get("perspective") is None and str(moment["turn"]) in record.get("notes", {})


def show_answer(page: Any, root: Any, m: int, turn: int, shot: str,
                parts: tuple[tuple[str, str], ...] = ANSWER_PARTS, size: str = "medium") -> None:
    """Show moment ``m``'s answer (its question is on the table, before turn index ``turn``)
    and check that it and the table after the turn fit the screen."""
    root.locator("[data-testid=lesson-answer]").click()
    page.wait_for_function(AT_ANSWER_JS, arg=[str(m), str(turn + 1)], timeout=60_000)
    assert root.locator("[data-testid=question]").count() == 0  # the answer in its place
    check_fits(page, shot, parts, size)


def note_follows(page: Any) -> None:
    """The teacher's note is beside the table: at the top of the side column, the odds
    panels after it (when they are shown), else beside the scores."""
    note = page.locator(".tl-root [data-testid=note]").bounding_box()
    scores = page.locator(".tl-root [data-testid=seats]").bounding_box()
    assert note["x"] >= scores["x"] + scores["width"], (note, scores)
    panel = page.locator(".tl-root .tl-panels .tl-panel").first
    if panel.count():
        assert panel.bounding_box()["y"] >= note["y"] + note["height"], (note, panel)


def open_lesson(page: Any, lab: LabServer, name: str, n: int, view: str, extra: str = ""
                ) -> tuple[Any, list[int]]:
    """Open a replay of the ``n``-seat sample game with its lesson, in the teacher's view or
    Ben's (``extra``: more arguments of replay; with ``show_odds=False`` among them,
    no panels are waited for), in notebook ``name``: its table and the turn of each of its
    moments."""
    games = Path(__file__).resolve().parents[2] / "examples" / "games"
    seat = "None" if view == "teacher" else "1"
    shutil.copy(games / f"game-{n}-seats.json", lab.root / f"game-{n}-seats.json")
    nbformat.write(_notebook([
        "import tenleave_widget.widget as tw",
        f"w = tw.replay('game-{n}-seats.json', seat={seat}{extra})\nw"]), lab.root / name)
    root = open_and_run(page, lab, name, panels="show_odds=False" not in extra)
    kernel = Kernel(lab, name)
    try:
        turns: list[int] = kernel.eval("[m['turn'] for m in w.session.lesson.moments]")
    finally:
        kernel.close()
    return root, turns


@pytest.mark.parametrize("view", ["teacher", "seat"])
def test_a_replay_with_its_lesson_fits_1280x720_at_every_question(
    browser: Any, lab: LabServer, view: str
) -> None:
    """Each sample game's replay (2..5 seats) with its lesson, the odds shown, in the
    teacher's view or Ben's: Next moment, pressed on the table, puts each question there;
    at each, the lesson, its question, the queues, the hand, the last event, the scores and
    the first panel are all inside the notebook's area at 1280x720, without scrolling; and
    so are the lesson, the answer and the table after the turn once Show the answer is
    pressed (a wake swat, the daybreak's passes and the game over among them)."""
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        for n in (2, 3, 4, 5):
            root, turns = open_lesson(page, lab, f"fit-lesson-{n}-{view}.ipynb", n, view)
            for m, turn in enumerate(turns):
                root.locator("[data-testid=lesson-next]").click()  # Start, then Next moment
                page.wait_for_function(AT_MOMENT_JS, arg=str(m), timeout=60_000)
                check_fits(page, f"fit-lesson-{n}-{view}-q{m + 1}-1280x720.png", LESSON_PARTS)
                # the teacher's note on the answer's turn, on screen beside the table (a
                # seat's view only says that there is one, below the scores)
                noted = view == "teacher" and teachers_note(n, m)
                show_answer(page, root, m, turn, f"fit-lesson-{n}-{view}-a{m + 1}-1280x720.png",
                            ANSWER_NOTE_PARTS if noted else ANSWER_PARTS)
                if noted:
                    note_follows(page)
                if n == 5 and m == len(turns) - 1:  # the compact game over, the answer
                    no_axe_violation(page)
        if view == "teacher":  # the largest table in the dark theme too: its first question,
            # and its last answer (the daybreak's passes, the game over)
            choose_theme(page, "JupyterLab Dark", light=False)
            root = open_and_run(page, lab, "fit-lesson-5-teacher.ipynb")
            for m in range(len(turns)):
                root.locator("[data-testid=lesson-next]").click()
                page.wait_for_function(AT_MOMENT_JS, arg=str(m), timeout=60_000)
                if m == 0:
                    check_fits(page, "fit-lesson-5-teacher-dark-1280x720.png", LESSON_PARTS)
            show_answer(page, root, len(turns) - 1, turns[-1],
                        "fit-lesson-5-teacher-dark-answer-1280x720.png", ANSWER_NOTE_PARTS)
            note_follows(page)
            no_axe_violation(page)
        assert errors == []
    finally:
        if view == "teacher":
            choose_theme(page, "JupyterLab Light", light=True)
        context.close()


def test_without_the_odds_each_answers_note_is_beside_the_board_at_1280x720(
    browser: Any, lab: LabServer
) -> None:
    """The lessons as examples/classroom.ipynb shows them (``show_odds=False``, medium
    size, the teacher's view): with each answer shown, the teacher's note on its turn is
    on screen, in a column beside the hand, the last turn and the scores (a long note
    scrolls in its box), and the lesson, the answer and the table after the turn fit
    1280x720 too; in the light and the dark theme. (Before: the note was below the scores
    and the cards' key, off the screen.)"""
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        for theme, games in (("light", (2, 3, 4, 5)), ("dark", (4,))):
            if theme == "dark":
                choose_theme(page, "JupyterLab Dark", light=False)
            for n in games:
                name = f"fit-noodds-{n}-{theme}.ipynb"
                root, turns = open_lesson(page, lab, name, n, "teacher", ", show_odds=False")
                noted = [m for m in range(len(turns)) if teachers_note(n, m)]
                assert len(noted) >= len(turns) - 1  # one 3-seat question is Ben's: his view
                for m, turn in enumerate(turns):
                    root.locator("[data-testid=lesson-next]").click()
                    page.wait_for_function(AT_MOMENT_JS, arg=str(m), timeout=60_000)
                    show_answer(page, root, m, turn,
                                f"fit-noodds-{n}-a{m + 1}-{theme}-1280x720.png",
                                ANSWER_NOTE_PARTS if m in noted else ANSWER_PARTS[:-1])
                    if m not in noted:
                        continue
                    assert root.locator(".tl-teach [data-testid=note]").count() == 1, m
                    box = page.locator(".tl-root [data-testid=note]").bounding_box()
                    row = page.locator(".tl-root .tl-board").bounding_box()
                    assert box["x"] >= row["x"] + row["width"], (box, row)  # beside the board
        assert errors == []
    finally:
        choose_theme(page, "JupyterLab Light", light=True)
        context.close()


# projector size: the panels are below the table; the lesson is in the teaching column,
# beside the hand, the last turn and the scores
# beside the hand, the last turn and the scores, whose columns have their headings
BOARD = (*PARTS[:-1], ("score headings", "[data-testid=seats] thead"))
PROJECTOR_QUESTION = (("lesson", "[data-testid=lesson]"), ("question", "[data-testid=question]"),
                      *BOARD)
PROJECTOR_ANSWER = (("lesson", "[data-testid=lesson]"), ("answer", "[data-testid=answer]"),
                    *BOARD)


def beside_the_scores(page: Any) -> None:
    lesson = page.locator(".tl-root [data-testid=lesson]").bounding_box()
    scores = page.locator(".tl-root [data-testid=seats]").bounding_box()
    assert lesson["x"] >= scores["x"] + scores["width"], (lesson, scores)


AT_PROJECTOR_JS = """(m) => { const r = document.querySelector('.jp-OutputArea-output .tl-root');
    const l = r && r.querySelector('[data-testid=lesson]');
    return r.dataset.connected !== '0' && r.dataset.busy === '0' && l && l.dataset.moment === m
      && r.classList.contains('tl-size-projector')
      && r.querySelector('[data-testid=question]') !== null; }"""


@pytest.mark.parametrize("view", ["teacher", "seat"])
def test_at_projector_size_every_question_and_answer_fits_1280x720(
    browser: Any, lab: LabServer, view: str
) -> None:
    """The same lessons at projector size (``replay(..., size="projector")``): at
    every question and with every answer shown, the lesson (its question, then its answer)
    beside the board, the queues, the hand, the last event and the scores are all inside
    the notebook's area at 1280x720."""
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        for n in (2, 3, 4, 5):
            root, turns = open_lesson(page, lab, f"fit-projector-{n}-{view}.ipynb", n, view,
                                      ", size='projector'")
            for m, turn in enumerate(turns):
                root.locator("[data-testid=lesson-next]").click()
                page.wait_for_function(AT_PROJECTOR_JS, arg=str(m), timeout=60_000)
                check_fits(page, f"fit-projector-{n}-{view}-q{m + 1}-1280x720.png",
                           PROJECTOR_QUESTION, "projector")
                beside_the_scores(page)
                show_answer(page, root, m, turn, f"fit-projector-{n}-{view}-a{m + 1}-1280x720.png",
                            PROJECTOR_ANSWER, "projector")
                beside_the_scores(page)
        assert errors == []
    finally:
        context.close()


def test_at_projector_size_a_long_swat_account_fits_1280x720(browser: Any, lab: LabServer
                                                              ) -> None:
    """The 4-seat sample game after turn 32 (every queue full: a swat on three queues), in
    the teacher's view at projector size, its note beside: the queues, the hand, the last
    event and the scores fit 1280x720 (the README's projector picture)."""
    games = Path(__file__).resolve().parents[2] / "examples" / "games"
    shutil.copy(games / "game-4-seats.json", lab.root / "game-4-seats.json")
    nbformat.write(_notebook([
        "import tenleave_widget.widget as tw",
        "t = tw.replay('game-4-seats.json', seat=None, turn=32, size='projector')\nt"]),
        lab.root / "fit-turn-32.ipynb")
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    page = context.new_page()
    try:
        open_and_run(page, lab, "fit-turn-32.ipynb")
        page.wait_for_function(
            "() => { const r = document.querySelector('.jp-OutputArea-output .tl-root');"
            " return r && r.dataset.busy === '0' && r.dataset.turns === '32'"
            " && r.classList.contains('tl-size-projector')"
            " && r.querySelectorAll('[data-testid=swat] .tl-swatrow').length === 3"
            " && r.querySelector('[data-testid=note]') !== null; }", timeout=60_000)
        check_fits(page, "fit-projector-4-turn-32-1280x720.png", BOARD, "projector")
        note = page.locator(".tl-root [data-testid=note]").bounding_box()
        scores = page.locator(".tl-root [data-testid=seats]").bounding_box()
        assert note["x"] >= scores["x"] + scores["width"], (note, scores)
    finally:
        context.close()


HEADINGS_JS = """() => [...document.querySelectorAll('.tl-root [data-testid=seats] thead th')]
    .map(th => th.textContent)"""

AT_TURN_32_JS = """(size) => { const r = document.querySelector('.jp-OutputArea-output .tl-root');
    return r && r.dataset.busy === '0' && r.dataset.turns === '32'
      && r.classList.contains('tl-size-' + size)
      && r.querySelectorAll('[data-testid=swat] .tl-swatrow').length === 3; }"""


def open_turn_32(page: Any, lab: LabServer) -> None:
    """Open the 4-seat sample game after turn 32 at projector size, in the teacher's view
    (every queue full: a swat on three queues, the teacher's note beside: the tallest
    board), and wait until its swat is told."""
    games = Path(__file__).resolve().parents[2] / "examples" / "games"
    shutil.copy(games / "game-4-seats.json", lab.root / "game-4-seats.json")
    nbformat.write(_notebook([
        "import tenleave_widget.widget as tw",
        "p32 = tw.replay('game-4-seats.json', seat=None, turn=32, size='projector')"
        "\np32"]), lab.root / "fit-projector-turn-32.ipynb")
    open_and_run(page, lab, "fit-projector-turn-32.ipynb")
    page.wait_for_function(AT_TURN_32_JS, arg="projector", timeout=60_000)
    page.wait_for_function(ANIMATIONS_DONE_JS, timeout=20_000)


def each_theme_at_turn_32(browser: Any, lab: LabServer, check: Callable[[Any, str], None]
                          ) -> None:
    """Open the tallest board (``open_turn_32``) at 1280x720 in the light theme, then the
    dark one, and run ``check(page, theme)`` on each."""
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    page = context.new_page()
    try:
        for theme in ("light", "dark"):
            if theme == "dark":
                choose_theme(page, "JupyterLab Dark", light=False)
            open_turn_32(page, lab)
            check(page, theme)
    finally:
        choose_theme(page, "JupyterLab Light", light=True)
        context.close()


def test_at_projector_size_the_scores_have_headings_in_plain_words(
    browser: Any, lab: LabServer
) -> None:
    """At projector size the scores' columns have headings in plain words (a class at a
    projector reads what the numbers are), and the queues, the hand, the last turn, the
    scores and their headings still fit 1280x720 on the tallest board, in the light and
    the dark theme. At medium size the headings are the same words."""

    def check(page: Any, theme: str) -> None:
        check_fits(page, f"fit-projector-headings-{theme}-1280x720.png", BOARD, "projector")
        assert page.evaluate(HEADINGS_JS) == ["Player", "In hand", "Swatted", "Penalty"]
        if theme == "dark":
            page.select_option(".tl-root [data-testid=size]", "medium")
            page.wait_for_function(AT_TURN_32_JS, arg="medium", timeout=60_000)
            # one set of words at every size
            assert page.evaluate(HEADINGS_JS) == ["Player", "In hand", "Swatted", "Penalty"]

    each_theme_at_turn_32(browser, lab, check)


# how far the table's first row is from its border, in its own type's size (em)
INSET_JS = """() => { const root = document.querySelector('.jp-OutputArea-output .tl-root');
    const r = root.getBoundingClientRect();
    const top = root.querySelector('.tl-top').getBoundingClientRect();
    const em = parseFloat(getComputedStyle(root).fontSize);
    return {left: (top.left - r.left) / em, right: (r.right - top.right) / em,
            top: (top.top - r.top) / em}; }"""


def test_at_projector_size_the_table_has_margins_and_still_fits(
    browser: Any, lab: LabServer
) -> None:
    """At projector size the table keeps a margin of at least its type's size between its
    border and its rows on the left and the right (0.75 of it above its first row), and
    the tallest board still fits 1280x720, in the light and the dark theme (the other
    tests here check every lesson's questions and answers at this size). (Before: 0.62.)"""

    def check(page: Any, theme: str) -> None:
        check_fits(page, f"fit-projector-margins-{theme}-1280x720.png", BOARD, "projector")
        inset = page.evaluate(INSET_JS)
        assert inset["left"] >= 1 and inset["right"] >= 1, inset
        assert inset["top"] >= 0.75, inset

    each_theme_at_turn_32(browser, lab, check)
