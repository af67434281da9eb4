"""The table renderer without Jupyter: a plain page draws a table state computed in
Python with ``renderTableState`` from the same bundle (what an HTML export will reuse).
"""

from __future__ import annotations

import json
from typing import Any

from tenleave_widget import Game
from tenleave_widget.table.session.config import check_config
from tenleave_widget.table.session.machine import Session
from tenleave_widget.widget.table_widget import STATIC

from .conftest import artifact
from .test_browser import TABLE_JS, table_of

ORIGIN = "http://tenleave.test"
PAGE = """<!doctype html>
<html><head><meta charset="utf-8"><link rel="stylesheet" href="widget.css"></head>
<body><div id="table"></div>
<script type="module">
import { renderTableState } from "./widget.js";
window.sent = [];
const state = await (await fetch("state.json")).json();
renderTableState(document.getElementById("table"), state, (i) => window.sent.push(i));
</script></body></html>"""


def serve(page: Any, state: dict[str, Any]) -> None:
    files = {
        "/index.html": (PAGE, "text/html"),
        "/widget.js": ((STATIC / "widget.js").read_text(), "text/javascript"),
        "/widget.css": ((STATIC / "widget.css").read_text(), "text/css"),
        "/state.json": (json.dumps(state), "application/json"),
    }

    def handle(route: Any) -> None:
        path = route.request.url[len(ORIGIN):]
        body, kind = files[path]
        route.fulfill(status=200, body=body, content_type=kind)

    page.route(f"{ORIGIN}/**", handle)
    page.goto(f"{ORIGIN}/index.html")


def test_a_plain_page_draws_a_table_state_from_python(page: Any) -> None:
    record = Game.from_record(
        str(STATIC.parents[1] / "examples" / "games" / "game-3-seats.json")
    ).to_record()
    game = Game.from_record(record)
    session = Session(game, check_config(game, mode="replay", perspective=1, turn=9))
    state = session.state()
    serve(page, dict(state))
    root = page.locator("#table .tl-root")
    root.wait_for()
    assert root.evaluate(TABLE_JS) == table_of(state["view"])
    assert root.get_attribute("data-mode") == "replay"
    turns = page.locator("[data-testid=turn]").inner_text()
    assert turns == f"after 9 of {game.turns_applied} turns"
    page.click("[data-testid=next]")  # no model: the intent goes to the page's callback
    assert page.evaluate("window.sent") == [{"kind": "goto", "turn": 10}]
    page.screenshot(path=str(artifact("static-page.png")), full_page=True)
    assert page.errors == []
