"""The moves panel's background job (table/panels/lookahead.py ``_chunk``): an analysis's
first figures come after its first small step, and the figures are made in a slice of
their own."""

from __future__ import annotations

from tenleave_widget import Game
from tenleave_widget.analysis import analyse as one
from tenleave_widget.analysis.analyse import FIRST_STEP, Analysing, Settings, settings_for
from tenleave_widget.table.panels.lookahead import _chunk


def run(job: object) -> tuple[int, object]:
    """Run a generator job to its end: (its slices, its result)."""
    slices = 0
    try:
        while True:
            next(job)  # type: ignore[call-overload]
            slices += 1
    except StopIteration as end:
        return slices, end.value


def test_the_first_step_plays_every_decision_in_a_few_worlds() -> None:
    one.clear_cache()
    g = Game(3, seed=4)
    a = Analysing(g.view(0), Settings())
    assert FIRST_STEP < Settings().first
    a.step()
    first = a.figures()
    assert first is not None and first["stopped"] == "running"
    assert first["worlds"] == FIRST_STEP
    assert all(d["worlds"] == FIRST_STEP for d in first["decisions"] if d["kind"] != "peek first")


def test_the_first_chunk_ends_at_the_first_figures_then_chunks_run_their_time() -> None:
    one.clear_cache()
    g = Game(3, seed=4)
    ev = Analysing(g.view(0), settings_for(64))
    # however long the chunk may be, the first one ends once there are figures
    slices, figures = run(_chunk(ev, 60_000.0))
    assert not ev.done and figures is not None
    assert figures["worlds"] == FIRST_STEP  # type: ignore[index]
    assert slices >= 1  # the figures in a slice of their own, after the worlds
    # the next chunks analyse for their time (here: to the end) and give the final figures
    slices, figures = run(_chunk(ev, 60_000.0))
    assert ev.done and figures == ev.result
