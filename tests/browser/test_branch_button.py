"""*Play on from here* in real JupyterLab + Chromium: the replay's button opens a play table
below the replay at the position shown, and that table plays."""

from __future__ import annotations

from typing import Any

from .driver import Kernel, open_and_run
from .harness import LabServer


def test_play_on_from_here_opens_a_play_table(page: Any, lab: LabServer) -> None:
    open_and_run(page, lab, "replay.ipynb")
    kernel = Kernel(lab, "replay.ipynb")
    try:
        for t in (1, 2, 3):
            page.click("[data-testid=next]")
            page.wait_for_function(
                f"() => document.querySelector('.tl-root').dataset.turns === '{t}'",
                timeout=30_000,
            )
        page.click("[data-testid=branch]")
        page.wait_for_function(
            "() => [...document.querySelectorAll('.tl-root')]"
            ".some(r => r.dataset.mode === 'play')", timeout=60_000,
        )
        assert kernel.eval("len(r.branches)") == 1
        assert kernel.eval("r.branches[0].record()['branch']['turn']") == 3
        # the new table is a live game: its human seat (the seat to move at turn 3) plays
        page.wait_for_function(
            "() => { const t = [...document.querySelectorAll('.tl-root')]"
            ".find(r => r.dataset.mode === 'play');"
            " return t && t.textContent.includes('Playing on from turn 3'); }",
            timeout=30_000,
        )
        assert kernel.eval("r.branches[0].game.turns_applied") == 3
        assert kernel.eval("r.turn") == 3  # the replay stays where it was
        assert page.errors == []
    finally:
        kernel.close()
