"""The coach in real JupyterLab + Chromium: a turn ended, the table keeps answering, and
the verdict (computed in the background) is told under the turn and in the message line."""

from __future__ import annotations

from typing import Any

from .driver import Kernel, open_and_run, wait_idle
from .harness import LabServer


def test_a_coached_turn_is_told_on_the_table(page: Any, lab: LabServer) -> None:
    root = open_and_run(page, lab, "coached.ipynb")
    kernel = Kernel(lab, "coached.ipynb")
    try:
        wait_idle(page, root, 0)
        page.click("[data-testid='hand-card-4*']")
        page.click("[data-testid='play-0']")
        page.click("[data-testid='end']")
        wait_idle(page, root, 2)  # the bot answered
        page.wait_for_function(
            "() => document.querySelector('[data-testid=message]')"
            "?.textContent.includes('Coach:')", timeout=120_000,
        )
        assert "Coach:" in root.text_content()
        verdicts = kernel.eval("w.verdicts")
        assert [(v["turn"], v["seat"], v["played"]["play"]) for v in verdicts] == [
            (0, 0, ["4*", 0])]
        assert page.errors == []
    finally:
        kernel.close()
