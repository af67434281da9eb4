"""A size set once for the kernel (issue 22, point 4): ``tenleave_widget.set_default_size``
is remembered for every new table; ``size=`` chooses one table's size."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

import tenleave_widget
from tenleave_widget.table.session.default_size import default_size
from tenleave_widget.widget import WidgetMessageError, hotseat, play, replay

GAME = Path(__file__).resolve().parents[2] / "examples" / "games" / "game-3-seats.json"


@pytest.fixture(autouse=True)
def medium_again() -> Iterator[None]:
    yield
    tenleave_widget.set_default_size("medium")


def test_the_default_size_is_remembered_for_new_tables() -> None:
    before = play(2, seed=1, bot_delay=0)
    assert before.size == "medium" == before.table.size
    tenleave_widget.set_default_size("projector")
    assert default_size() == "projector"
    tables = [play(2, seed=1, bot_delay=0), hotseat(2, seed=1), replay(GAME)]
    assert [t.table.size for t in tables] == ["projector"] * 3
    assert before.table.size == "medium"  # a table already shown keeps its size
    branch = tables[2].play_from_here(human=0, bots=["greedy"])
    assert branch.table.size == "projector"


def test_size_chooses_one_tables_size() -> None:
    tenleave_widget.set_default_size("large")
    assert play(2, seed=1, bot_delay=0, size="small").table.size == "small"
    assert hotseat(2, seed=1, size="medium").table.size == "medium"
    assert replay(GAME, size="projector").table.size == "projector"
    assert play(2, seed=1, bot_delay=0).table.size == "large"


@pytest.mark.parametrize("bad", ["huge", "", 3, None])
def test_a_bad_size_is_refused_naming_the_sizes(bad: object) -> None:
    with pytest.raises(WidgetMessageError, match="size must be one of small, medium, large, "
                                                 "projector"):
        tenleave_widget.set_default_size(bad)  # type: ignore[arg-type]
    assert default_size() == "medium"
    if bad is not None:
        with pytest.raises(WidgetMessageError, match="size must be one of"):
            play(2, seed=1, bot_delay=0, size=bad)  # type: ignore[arg-type]
