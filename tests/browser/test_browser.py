"""The widget in a real JupyterLab, driven through Debian's Chromium.

Play a full turn by clicking and see the bots answer; an illegal click is answered with a
message and changes nothing; step through a recorded game with the buttons and the arrow
keys; light- and dark-theme screenshots go to test-artifacts/.
"""

from __future__ import annotations

from typing import Any

from .conftest import artifact
from .driver import Kernel, open_and_run, wait_idle
from .harness import FIRST_WORDS, PLAY_FIGURES, LabServer, wait_play_plots

TABLE_JS = """(root) => ({
    turns: Number(root.dataset.turns),
    toMove: root.dataset.toMove === '' ? null : Number(root.dataset.toMove),
    queues: [...root.querySelectorAll('.tl-queue')].map(q =>
        [...q.querySelectorAll('.tl-slots .tl-card')].map(c => ({
            key: Number(c.dataset.key), owner: Number(c.dataset.owner), back: c.dataset.back,
            value: c.dataset.value === '' ? null : Number(c.dataset.value)}))),
    penalty: [...root.querySelectorAll('[data-testid^="seat-"]')].map(
        r => Number(r.dataset.penalty)),
    handSizes: [...root.querySelectorAll('[data-testid^="seat-"]')].map(
        r => Number(r.dataset.hand)),
    token: root.querySelector('[data-testid="token"] strong')?.textContent,
    labelled: [...root.querySelectorAll('.tl-card')].every(c => c.getAttribute('aria-label')),
})"""

# The odds panels' Plotly charts: the data plotly.js holds for each (el.data).
PLOT_JS = """() => JSON.stringify([...document.querySelectorAll(
    '.jp-OutputArea-output .tl-panels .js-plotly-plot')].map(el => el.data))"""
# What each panel shows: its chart drawn by plotly.js, or its words.
SHOWS_JS = """() => Object.fromEntries([...document.querySelectorAll(
    '.jp-OutputArea-output .tl-panel')].map(p => [p.dataset.figure,
    p.querySelector('.js-plotly-plot:not([hidden]) svg.main-svg') ? 'chart'
    : p.querySelector('.tl-plot-words:not([hidden])') ? 'words' : 'bare']))"""
# No flicker: at every frame until stopped, each panel shows a drawn chart (or the words
# of a figure with nothing to plot), never an empty or missing one. Counts the frames
# looked at and lists the panels seen bare.
WATCH_JS = """() => {
    const w = window.__tlWatch = {frames: 0, bare: [], stop: false};
    const look = () => {
        w.frames += 1;
        for (const p of document.querySelectorAll('.jp-OutputArea-output .tl-panel')) {
            const chart = p.querySelector('.js-plotly-plot:not([hidden]) svg.main-svg');
            const words = p.querySelector('.tl-plot-words:not([hidden])');
            if (!chart && !words) w.bare.push(`${p.dataset.figure} at frame ${w.frames}`);
        }
        if (!w.stop) requestAnimationFrame(look);
    };
    requestAnimationFrame(look);
}"""
WATCHED_JS = "() => { window.__tlWatch.stop = true; return window.__tlWatch; }"
# The chart each of `keys`' panels shows: marked, its data kept, and its draws counted
# (plotly.js's plotly_afterplot) from now on.
MARK_SHOWN_JS = """(keys) => Object.fromEntries(keys.map(key => {
    const el = document.querySelector(
        `.jp-OutputArea-output .tl-panel-${key} .js-plotly-plot`);
    el.__tlShown = true;
    el.__tlDraws = 0;
    if (!el.__tlCounted) {
        el.__tlCounted = true;
        el.on('plotly_afterplot', () => { el.__tlDraws += 1; });
    }
    return [key, JSON.stringify(el.data)];
}))"""
# For each of `keys`' panels: the chart it shows now, whether it is the one marked, its
# data and the times it was drawn since it was marked.
SHOWN_JS = """(keys) => Object.fromEntries(keys.map(key => {
    const el = document.querySelector(
        `.jp-OutputArea-output .tl-panel-${key} .js-plotly-plot`);
    return [key, {marked: el.__tlShown === true, data: JSON.stringify(el.data),
                  draws: el.__tlDraws ?? null}];
}))"""
# The outcome chart's bars: in the kernel's panel data, and as drawn.
OUTCOME_X = "[0.0 if q['empty'] else q['p_under'] for q in w.table.panels['outcome']]"
OUTCOME_X_JS = """() => document.querySelector(
    '.jp-OutputArea-output .tl-panel-outcome .js-plotly-plot').data[0].x"""
OUTCOME_IS_JS = f"""(want) => {{ const x = ({OUTCOME_X_JS})();
    return x.length === want.length && x.every((v, i) => v === want[i]); }}"""
TITLE_FILL_JS = """() => getComputedStyle(document.querySelector(
    '.jp-OutputArea-output .tl-panels .js-plotly-plot .xtick text')).fill"""


def table_of(view: dict[str, Any]) -> dict[str, Any]:
    """What the DOM must show of a view."""
    return {
        "turns": view["turns_applied"],
        "toMove": view["to_move"],
        "queues": [
            [{"key": c["key"], "owner": c["owner"], "back": c["back"], "value": c["value"]}
             for c in q]
            for q in view["queues"]
        ],
        "penalty": view["penalty"],
        "handSizes": [h["size"] for h in view["hands"]],
        "token": view["token"],
        "labelled": True,
    }


def wait_message(page: Any, previous_id: int) -> dict[str, Any]:
    page.wait_for_function(
        f"() => Number(document.querySelector('[data-testid=message]')"
        f"?.dataset.messageId) > {previous_id}",
        timeout=20_000,
    )
    el = page.locator("[data-testid=message]").first
    return {"text": el.inner_text(), "cls": el.get_attribute("class")}


def test_play_a_turn_by_clicking_and_the_bots_answer(page: Any, lab: LabServer) -> None:
    root = open_and_run(page, lab, "play.ipynb")
    kernel = Kernel(lab, "play.ipynb")
    try:
        wait_idle(page, root, 0)
        assert root.evaluate(TABLE_JS) == table_of(kernel.eval("w.table.view"))
        wait_play_plots(page, ".jp-OutputArea-output")
        # no card on the table, no turn played: those panels' words; the others' charts
        assert page.evaluate(SHOWS_JS) == {
            key: "words" if key in FIRST_WORDS else "chart" for key in PLAY_FIGURES}
        plots_before = page.evaluate(PLOT_JS)
        page.evaluate(WATCH_JS)
        page.screenshot(path=str(artifact("play-start-light.png")), full_page=True)

        # choose a card, play it on queue 1, peek at it, end the turn
        page.click("[data-testid='hand-card-4*']")
        page.click("[data-testid='play-0']")
        page.wait_for_function("() => document.querySelector('.tl-root').dataset.pending === '1'")
        page.click(".tl-queue >> nth=0 >> button.tl-card.tl-peekable >> nth=0")
        page.wait_for_function("() => document.querySelector('.tl-root').dataset.pending === '2'")

        # an illegal click: a second additional action. Python refuses, nothing changes.
        before = kernel.eval("[w.table.pending, w.game.to_record(), w.table.view]")
        message_id = int(page.locator("[data-testid=message]").get_attribute("data-message-id"))
        page.click(".tl-queue >> nth=0 >> button.tl-card >> nth=0")
        shown = wait_message(page, message_id)
        assert "tl-error" in (shown["cls"] or "") and shown["text"]
        assert kernel.eval("[w.table.pending, w.game.to_record(), w.table.view]") == before
        assert root.evaluate(TABLE_JS) == table_of(before[2])
        page.screenshot(path=str(artifact("play-illegal-click.png")), full_page=True)

        page.click("[data-testid='end']")
        wait_idle(page, root, 3)  # both bots answered
        game = kernel.eval("w.game.to_record()")
        assert len(game["turns"]) == 3
        first = game["turns"][0]
        assert first["play"] == ["4*", 0] and first["seat"] == 0
        assert first["peek"] == [0, 0] and first["extra"] == "after"
        assert [t["seat"] for t in game["turns"]] == [0, 1, 2]
        assert root.evaluate(TABLE_JS) == table_of(kernel.eval("w.table.view"))
        page.wait_for_function(f"() => ({PLOT_JS})() !== {plots_before!r}", timeout=20_000)
        # the charts show the new state
        outcome = kernel.eval(OUTCOME_X)
        page.wait_for_function(OUTCOME_IS_JS, arg=outcome, timeout=20_000)
        assert page.locator("[data-testid=last-event]").count() >= 3

        # a move and its take-back: the charts show the move, then the charts shown before
        # it come back as they were (put back, not drawn again)
        keys = ["outcome", "cards"]
        figures = f"{{k: w.table.panels['figures'][k]['figure'] for k in {keys!r}}}"
        before = kernel.eval(figures)
        shown = page.evaluate(MARK_SHOWN_JS, keys)
        page.locator(".tl-handbtn").first.click()
        page.click("[data-testid='play-1']")
        page.wait_for_function("() => document.querySelector('.tl-root').dataset.pending === '1'")
        changed = [k for k, figure in kernel.eval(figures).items() if figure != before[k]]
        assert changed, "the move changes no chart"
        page.wait_for_function(
            f"(shown) => Object.entries(({SHOWN_JS})({changed!r}))"
            ".every(([k, c]) => !c.marked && c.data !== shown[k])", arg=shown, timeout=20_000)
        page.click("[data-testid='reset']")
        page.wait_for_function("() => document.querySelector('.tl-root').dataset.pending === '0'")
        assert kernel.eval(figures) == before  # the state before the move, again
        page.wait_for_function(OUTCOME_IS_JS, arg=outcome, timeout=20_000)
        page.wait_for_function(
            f"() => Object.values(({SHOWN_JS})({changed!r})).every(c => c.marked)",
            timeout=20_000)
        assert page.evaluate(SHOWN_JS, changed) == {
            key: {"marked": True, "data": shown[key], "draws": 0} for key in changed}
        # no frame, from the first click on, showed a panel without its chart
        watched = page.evaluate(WATCHED_JS)
        assert watched["frames"] > 10 and watched["bare"] == [], watched
        assert page.errors == []
    finally:
        kernel.close()


def test_step_through_a_recorded_game(page: Any, lab: LabServer) -> None:
    root = open_and_run(page, lab, "replay.ipynb")
    kernel = Kernel(lab, "replay.ipynb")
    try:
        total = kernel.eval("r.table.replay['total']")
        truth = kernel.eval(
            "[__import__('tenleave_widget.engine.game', fromlist=['Game']).Game"
            f".from_record('game.json', turns=t).view(None) for t in range({total} + 1)]"
        )

        def at(turn: int) -> None:
            page.wait_for_function(
                f"() => document.querySelector('.tl-root').dataset.turns === '{turn}'",
                timeout=20_000,
            )
            assert root.evaluate(TABLE_JS) == table_of(truth[turn]), turn

        at(0)
        half = total // 2
        for t in range(1, half + 1):  # the buttons
            page.click("[data-testid=next]")
            at(t)
            if kernel.eval("r.table.replay['note']"):
                assert page.locator("[data-testid=note]").inner_text()
        root.focus()
        for t in range(half + 1, total + 1):  # the arrow keys
            page.keyboard.press("ArrowRight")
            at(t)
        page.keyboard.press("ArrowLeft")
        at(total - 1)
        page.keyboard.press("Home")
        at(0)
        page.keyboard.press("End")
        at(total)
        page.click("[data-testid=prev]")
        at(total - 1)
        page.click("[data-testid=first]")
        at(0)
        page.click("[data-testid=last]")
        at(total)
        page.locator("[data-testid=slider]").fill(str(half))
        at(half)
        assert kernel.eval("r.turn") == half
        # a seat's view: only that seat's knowledge on the table
        page.select_option("[data-testid=perspective]", "1")
        page.wait_for_function(
            "() => document.querySelector('.tl-root').dataset.perspective === '1'"
        )
        seat_view = kernel.eval(
            "__import__('tenleave_widget.engine.game', fromlist=['Game']).Game"
            f".from_record('game.json', turns={half}).view(1)"
        )
        assert root.evaluate(TABLE_JS) == table_of(seat_view)
        assert page.errors == []
    finally:
        kernel.close()


ANIMATIONS_DONE_JS = """(el) => el.getAnimations({subtree: true})
    .every(a => a.playState === 'finished')"""


def choose_theme(page: Any, name: str, light: bool) -> None:
    """Pick a JupyterLab theme from the Settings menu and wait until it is applied."""
    page.click("#jp-MainMenu >> text=Settings")
    page.hover(".lm-Menu-item >> text=Theme")
    page.click(f".lm-Menu-item >> text={name}")
    page.wait_for_function(
        f"() => document.body.dataset.jpThemeLight === '{str(light).lower()}'"
        " && document.querySelector('#jupyterlab-splash') === null",  # the splash has gone
        timeout=20_000,
    )


def test_light_and_dark_theme_screenshots(page: Any, lab: LabServer) -> None:
    root = open_and_run(page, lab, "replay.ipynb")
    root.focus()
    total = page.locator("[data-testid=slider]").get_attribute("max")
    page.keyboard.press("End")  # the last turn: the final daybreak swat, flipped in order
    page.wait_for_function(
        f"() => document.querySelector('.tl-root').dataset.turns === '{total}'"
        " && document.querySelector('.tl-root .tl-swat') !== null",
        timeout=20_000,
    )
    # the swat reveal has finished before the picture: wait on the animations' state
    page.wait_for_function(
        f"() => ({ANIMATIONS_DONE_JS})(document.querySelector('.tl-root'))", timeout=20_000
    )
    light_bg = root.evaluate("el => getComputedStyle(el).backgroundColor")
    light_title = page.evaluate(TITLE_FILL_JS)
    root.screenshot(path=str(artifact("table-light.png")))
    # (the table and its panels: beside and under it, the panels have no box of their own)
    page.locator(".tl-layout").first.screenshot(path=str(artifact("panels-light.png")))
    try:
        choose_theme(page, "JupyterLab Dark", light=False)
        # the theme's colours have reached the table (its CSS variables changed)
        page.wait_for_function(
            "(light) => getComputedStyle(document.querySelector('.tl-root'))"
            ".backgroundColor !== light",
            arg=light_bg, timeout=20_000,
        )
        page.wait_for_function(
            f"() => ({ANIMATIONS_DONE_JS})(document.querySelector('.tl-root'))", timeout=20_000
        )
        dark_bg = root.evaluate("el => getComputedStyle(el).backgroundColor")
        assert dark_bg != light_bg
        # the charts re-read the theme: their texts take the dark theme's colour
        page.wait_for_function(f"(light) => ({TITLE_FILL_JS})() !== light",
                               arg=light_title, timeout=20_000)
        root.screenshot(path=str(artifact("table-dark.png")))
        page.locator(".tl-layout").first.screenshot(path=str(artifact("panels-dark.png")))
        root.scroll_into_view_if_needed()
        page.screenshot(path=str(artifact("page-dark.png")))
    finally:
        # back to the light theme for the other tests (the setting is saved on the server)
        choose_theme(page, "JupyterLab Light", light=True)
