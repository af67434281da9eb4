"""The teacher's page of the largest sample game stays small enough to mail."""

from __future__ import annotations

from pathlib import Path

import pytest

from tenleave_widget.programs.export import render_html

SAMPLE = Path(__file__).resolve().parents[2] / "examples" / "games" / "game-5-seats.json"
MAILABLE = 1_500_000
"""Bytes: the page a teacher can attach to a mail (under the common 2 MB limits, with room
for the encoding a mail adds)."""


@pytest.mark.slow
def test_the_teachers_page_of_the_five_seat_sample_can_be_mailed() -> None:
    page = render_html(SAMPLE).encode("utf-8")
    assert len(page) <= MAILABLE, f"{len(page):,} bytes"
