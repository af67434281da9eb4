"""The lanes' selection by marks (``tests/conftest.py``): a run whose ``-m`` expression
can select no test of a mark does not collect the files whose tests all carry it."""

from __future__ import annotations

import re
from pathlib import Path

from conftest import never_selected

FAST = re.search(r"^FAST := (.+)$", (Path(__file__).parents[1] / "Makefile").read_text(),
                 re.MULTILINE)


def test_the_fast_lane_selects_no_browser_or_notebook_test() -> None:
    assert FAST is not None
    fast = FAST.group(1).strip()
    assert never_selected(fast, "browser") and never_selected(fast, "notebook")
    assert not never_selected(fast, "engine")  # an unmarked-by-file test may be selected


def test_an_expression_that_may_select_a_mark_keeps_its_files() -> None:
    for expr in ("browser", "slow", "not slow", "browser or notebook or slow",
                 "not browser or slow", "not (notebook and slow)", ""):
        assert not never_selected(expr, "browser"), expr
    assert never_selected("not browser", "browser")
    assert never_selected("not (browser or notebook)", "notebook")
    assert never_selected("slow and not browser", "browser")
    assert not never_selected("not browser and (", "browser")  # malformed: pytest says so
