"""A front end writes nothing but through intents: comm-level ``update`` messages that set
synced traits directly — of every widget of a table, every synced trait, values of every
type — are refused, the trait keeps its value (nothing echoed to other front ends) and
its true value is sent back to the front end that forged it. A control's own value (the
review's checkbox and number of worlds) is the front end's to set, within its bounds.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import ipywidgets
import pytest

from tenleave_widget import hotseat, play, replay
from tenleave_widget.widget import TenLeaveWidget
from widget.test_widget_secrets import widget_state, widget_tree

GAME = "examples/games/game-3-seats.json"

FORGED: list[Any] = [
    None, True, False, 0, -1, 7, 2**70, 1.5, "", "projector", "x" * 100_000, "IPY_MODEL_",
    [], [1, "x", None], ["IPY_MODEL_"], {}, {"k": [1]},
    {"id": 99, "level": "error", "text": "forged"}, {"figures": {"odds": "junk"}},
]

WRITABLE = {"value"}  # of the review panel's checkbox and number of worlds


def tables() -> Iterator[TenLeaveWidget]:
    yield play(players=3, human=0, bots=["random"], seed=2, bot_delay=0)
    yield hotseat(players=2)
    r = replay(GAME, seat=1, turn=6)
    yield r
    assert r.send_intent({"kind": "branch"})
    yield r  # with a table below it
    rec = r.branches[0].record()
    yield replay(rec, seat=1, original=GAME)


def update(widget: ipywidgets.Widget, state: Any) -> list[dict[str, Any]]:
    """Deliver ``state`` as a front end's ``update`` does (ipywidgets' message handler);
    the messages the widget sent back."""
    sent: list[dict[str, Any]] = []
    widget._send = lambda msg, buffers=None: sent.append(msg)
    try:
        widget._handle_msg({"content": {"data": {"method": "update", "state": state,
                                                 "buffer_paths": []}}, "buffers": []})
    finally:
        del widget._send
    return sent


def writable(widget: ipywidgets.Widget, key: str) -> bool:
    return key in WRITABLE and isinstance(widget, (ipywidgets.Checkbox,
                                                   ipywidgets.BoundedIntText))


def forged_values(root: TenLeaveWidget) -> list[Any]:
    other = f"IPY_MODEL_{root.table.model_id}"
    return [*FORGED, other, [other]]


@pytest.mark.parametrize("case", range(5))
def test_every_synced_trait_refuses_a_forged_update(case: int) -> None:
    root = list(tables())[case]
    before = widget_state(root)
    record, panels = root.record(), json.dumps(root.table.panels, sort_keys=True)
    figures = root.figures() if root.mode != "replay" or root.perspective is None else None
    checked = 0
    for widget in widget_tree(root):
        for key in sorted(widget.keys):
            if writable(widget, key):
                continue
            truth = widget.get_state(key)
            for value in forged_values(root):
                try:
                    sent = update(widget, {key: value})
                except Exception as e:  # noqa: BLE001 - what the kernel would log
                    raise AssertionError((type(widget).__name__, key, repr(value)[:40],
                                          repr(e)[:200])) from None
                assert widget.get_state(key) == truth, (type(widget).__name__, key)
                assert not any(m["method"] == "echo_update" for m in sent), key
                assert {"method": "update", "state": truth, "buffer_paths": []} in sent, \
                    (type(widget).__name__, key, sent[:1])
                checked += 1
    assert checked > 1000
    assert widget_state(root) == before
    assert root.record() == record
    assert json.dumps(root.table.panels, sort_keys=True) == panels
    if figures is not None:
        assert root.figures().keys() == figures.keys()


def test_a_forged_update_of_several_traits_and_odd_states() -> None:
    w = replay(GAME, seat=0, turn=4)
    before = widget_state(w)
    for state in ({"perspective": None, "mode": "play", "size": "x" * 100_000,
                   "panels": {"figures": 1}, "view": {}},
                  "not an object", [1, 2], None, {"no such trait": 1}):
        update(w.table, state)
        update(w, state)
    assert widget_state(w) == before
    assert w.perspective == 0 and w.table.perspective == 0
    w.figures()  # the panels are still the session's
    assert w.send_intent({"kind": "goto", "turn": 5})  # and the intent path still works
    assert w.table.replay["turn"] == 5


def test_the_review_controls_value_is_the_front_ends() -> None:
    w = replay(GAME, turn=4)
    panel = w.review_panel
    assert panel is not None
    update(panel.best, {"value": True})
    assert panel.best.value is True
    update(panel.samples, {"value": 37})
    assert panel.samples.value == 37
    sent = update(panel.samples, {"value": "many", "max": 10**9})
    assert panel.samples.value == 37 and panel.samples.max == 100_000
    assert [m["state"] for m in sent] == [{"max": 100_000, "value": 37}]
