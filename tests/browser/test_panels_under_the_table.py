"""The odds panels at 1280x720 in JupyterLab, the file browser open (as it starts) and
closed: the first panel is beside the table, and the panels that do not fit beside it go
under it, the whole width, instead of one column three screens tall beside blank space;
each chart is drawn at its panel's width — for the example play table and a replay of the
3-seat sample with its five panels."""

from __future__ import annotations

from typing import Any

from .conftest import artifact
from .driver import open_and_run
from .harness import LabServer
from .test_narrow_window import play_and_replay, window

# The table's box and each panel's (left, top, right, bottom, px), the bottom of the table's
# margin box (a panel is beside the floating table while its top is above that edge: a box
# of its own never overlaps a float's margin), and each drawn chart's width against its
# panel's inner width.
BOXES = """() => {
    const root = document.querySelector('.jp-OutputArea-output .tl-root');
    const box = (el) => { const b = el.getBoundingClientRect();
                          return [b.left, b.top, b.right, b.bottom].map(Math.round); };
    const panels = [...root.querySelectorAll('.tl-panel')].map((p) => {
        const svg = p.querySelector('.tl-plot:not([hidden]) .main-svg');
        return {figure: p.dataset.figure, box: box(p), inner: p.clientWidth,
                chart: svg ? Math.round(svg.getBoundingClientRect().width) : null};
    });
    const main = root.querySelector('.tl-main');
    const edge = main.getBoundingClientRect().bottom
        + parseFloat(getComputedStyle(main).marginBottom);
    return {main: box(main), edge: Math.round(edge), panels};
}"""

DRAWN = """() => { const r = document.querySelector('.jp-OutputArea-output .tl-root');
    const p = r && r.querySelector('.tl-panels[data-revision]');
    return r && r.dataset.busy === '0' && p !== null
      && [...p.querySelectorAll('.tl-plot:not([hidden])')].every(
           (el) => el.querySelector('.main-svg') !== null
                   && Math.abs(el.querySelector('.main-svg').getBoundingClientRect().width
                               - el.getBoundingClientRect().width) <= 2); }"""

LEFT_STACK_HIDDEN = ("() => document.querySelector('#jp-left-stack')"
                     ".classList.contains('lm-mod-hidden')")

FILES_TAB = ".jp-SideBar.jp-mod-left .lm-TabBar-tab[data-id='filebrowser']"


def check_flow(page: Any, shot: str) -> None:
    page.wait_for_function(DRAWN, timeout=120_000)
    found = page.evaluate(BOXES)
    page.screenshot(path=str(artifact(shot)))
    left, _top, right, bottom = found["main"]
    panels = found["panels"]
    assert len(panels) >= 4, found
    first = panels[0]["box"]
    assert first[0] >= right and first[1] < bottom, ("first panel beside the table", found)
    under = 0
    for panel in panels:
        p_left, p_top, p_right, _ = panel["box"]
        if p_top >= found["edge"] - 1:  # under the table: the whole width, from the table's left
            under += 1
            assert abs(p_left - left) <= 2 and p_right > right, (panel, found)
        else:  # beside it
            assert p_left >= right, (panel, found)
        if panel["chart"] is not None:  # drawn at its panel's width, not at a former one
            assert abs(panel["chart"] - panel["inner"]) <= 16, (panel, found)
    assert under >= 1, ("the panels after the table's height go under it", found)


def test_at_1280x720_the_panels_past_the_table_go_under_it(browser: Any, lab: LabServer
                                                           ) -> None:
    with window(browser, 1280) as page:
        for name in play_and_replay(lab, "under", 3, 1, 14):
            open_and_run(page, lab, name)
            stem = name.removesuffix(".ipynb")
            assert page.evaluate(LEFT_STACK_HIDDEN) is False  # the file browser is open
            check_flow(page, f"{stem}-files-1280x720.png")
            page.click(FILES_TAB)  # the file browser closed: a wider output area
            page.wait_for_function(LEFT_STACK_HIDDEN, timeout=20_000)
            check_flow(page, f"{stem}-nofiles-1280x720.png")
            page.click(FILES_TAB)
            page.wait_for_function(f"() => !({LEFT_STACK_HIDDEN})()", timeout=20_000)
