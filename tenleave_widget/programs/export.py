"""A game as one self-contained HTML page: step through it offline, without Python.

Every position is computed here, at export time, by the widget's own pure session
(:class:`tenleave_widget.table.session.Session`, replay mode) and drawn in the page by the
widget's own renderer (``js/export.ts``, a separate esbuild entry bundling ``mountTable``,
which draws the table and its odds panels, inlined with its CSS; the states as JSON). The
page loads nothing: no kernel, no network, no other file.

A **seat's export** (``perspective=P``) holds, for every turn, only seat P's view of that
position (``docs/view.md``), the odds panels of that view, and words made from public
events — exactly what P knew then. Teacher's notes may name hidden values, so a seat's
export only says that a note exists. The **teacher's export** (``perspective=None``) holds
the teacher's view and every seat's view, with a perspective menu, and the notes.

>>> import tempfile, pathlib
>>> g = Game(["Ana", "Ben"], seed=1)
>>> g.apply({"seat": 0, "play": ["4*", 0]})
>>> out = pathlib.Path(tempfile.mkdtemp()) / "game.html"
>>> export_html(g.to_record(), out, perspective=1).name   # Ben's view: "?" for Ana's 4*
'game.html'
>>> page = out.read_text(encoding="utf-8")
>>> page.startswith("<!doctype html>"), page.count("<script"), "src=" in page
(True, 2, False)

Layering: this module sits beside ``simulate`` and ``cli``, above the engine and the odds;
from the widget package it imports only the pure, Jupyter-free half (``widget.session``
and what it uses: no anywidget, ipywidgets, traitlets or plotly; ``tests/test_layers.py``).
"""

from __future__ import annotations

import html
import json
from pathlib import Path
from typing import Any

from ..engine.errors import TenLeaveError
from ..engine.game import Game
from ..table.config import check_config
from ..table.protocol import TableState
from ..table.session import Session

__all__ = ["ExportError", "export_data", "export_html", "render_html"]

STATIC = Path(__file__).resolve().parents[1] / "static"
FORMAT = "tenleave-export/1"
SEAT_NOTE = "(a teacher's note on this turn: it is in the teacher's export only)"


class ExportError(TenLeaveError):
    """An export that cannot be made (a bad perspective, a missing front-end build)."""


def _perspectives(game: Game, perspective: object) -> list[int | None]:
    if perspective is None:
        return [None, *range(game.seats)]
    if type(perspective) is not int or not 0 <= perspective < game.seats:
        raise ExportError(
            f"perspective must be a seat 0..{game.seats - 1}, or None for the teacher's "
            f"export, not {perspective!r}"
        )
    return [perspective]


def _table_states(session: Session, seat: int | None, total: int) -> list[TableState]:
    session.handle({"kind": "perspective", "seat": seat})
    states: list[TableState] = []
    for t in range(total + 1):
        session.handle({"kind": "goto", "turn": t})
        state = session.state()
        if seat is not None and state["replay"]["note"]:
            state["replay"] = {**state["replay"], "note": SEAT_NOTE}
        states.append(state)
    return states


def export_data(record: Any, perspective: int | None = None) -> dict[str, Any]:
    """Everything the page shows, computed now: for each perspective and each turn, the
    table state, the odds panels included (JSON-able)."""
    game = Game.from_record(record)
    views = _perspectives(game, perspective)
    total = game.turns_applied
    session = Session(game, check_config(game, mode="replay", perspective=views[0], turn=0))
    return {
        "format": FORMAT,
        "players": list(game.players),
        "perspectives": views,
        "total": total,
        "states": [_table_states(session, seat, total) for seat in views],
    }


def _asset(name: str) -> str:
    path = STATIC / name
    if not path.exists():
        raise ExportError(
            f"the export's front end is not built ({path} is missing): run "
            "`pip install -e .` (or `npm install && npm run build`) in the repository"
        )
    return path.read_text(encoding="utf-8")


def _script_safe(text: str) -> str:
    """``text`` safe inside a ``<script>`` element (no closing tag can appear)."""
    return text.replace("</", "<\\/")


def render_html(record: Any, perspective: int | None = None) -> str:
    """The page of :func:`export_html`, as a string."""
    data = export_data(record, perspective)
    players = data["players"]
    who = "teacher's export" if perspective is None else f"{players[perspective]}'s view"
    title = f"10 to Leave — {' · '.join(players)} — {who}"
    # "<" written as \u003c: the JSON stays valid and no tag can end the script early.
    payload = json.dumps(
        data, separators=(",", ":"), sort_keys=True, ensure_ascii=False
    ).replace("<", "\\u003c")
    whose = "teacher" if perspective is None else str(perspective)
    css = _asset("export.css")
    js = _asset("export.js")
    return (
        "<!doctype html>\n"
        '<html lang="en"><head><meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
        "script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:\">\n"
        f"<title>{html.escape(title)}</title>\n"
        f"<style>{_script_safe(css)}</style>\n"
        "</head><body>\n"
        f'<main id="tenleave-export" data-perspective="{whose}">'
        f"<h1>{html.escape(title)}</h1>"
        '<p class="tl-export-loading">Loading the game…</p></main>\n'
        f'<script type="application/json" id="tenleave-data">{payload}</script>\n'
        f"<script>{_script_safe(js)}</script>\n"
        "</body></html>\n"
    )


def export_html(record: Any, path: str | Path, perspective: int | None = None) -> Path:
    """Write the game of ``record`` (a ``tenleave-record/1`` object or path) to ``path``
    as one self-contained HTML page that steps through it offline: the widget's table
    (first / previous / next / last, slider, arrow keys, notes, swats in words) and the
    odds panels of every position. ``perspective``: a seat (that seat's knowledge only,
    turn by turn) or ``None`` (the teacher's export: every view, with a perspective menu).

    The page is made completely before anything is written: on an error, ``path`` is
    left as it was."""
    page = render_html(record, perspective)
    out = Path(path)
    try:
        out.write_text(page, encoding="utf-8")
    except OSError as e:
        raise ExportError(f"cannot write the page to {str(out)!r}: {e.strerror or e}") from None
    return out
