"""A game as one self-contained HTML page: step through it offline, without Python.

Every position is computed here, at export time, by the widget's own pure session
(:class:`tenleave_widget.table.session.machine.Session`, replay mode) and drawn in the page by the
widget's own renderer (``js/export.ts``, a separate esbuild entry bundling ``mountTable``,
which draws the table and its odds panels, inlined with its CSS; the states as JSON). The
page holds the front end and the JSON deflated, in base64; its one plain script
(:data:`LOADER`) inflates them with the browser's ``DecompressionStream`` and runs the
front end (the teacher's page of the 5-seat sample: 0.82 MB, was 3.1 MB;
``benchmarks/bench_export_size.py``). The page loads nothing: no kernel, no network, no
other file.

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
>>> page.startswith("<!doctype html>"), page.count("<script"), "<script src" in page
(True, 3, False)
>>> page_payload(page)["players"]
['Ana', 'Ben']

**Its figures.** Each position's odds panels of that view (what a swat right now would
do) and the moves' **one-swat** measure: each move's figure is the one analysis's
``immediate_expected_penalty`` of the same view (:mod:`tenleave_widget.analysis.analyse`
computes it with the same function; ``tests/programs/test_export.py`` compares them). The
page shows no whole-game values, no ★ for the game and no verdicts: those are the one
analysis's, shown by a table, the review and ``tenleave evaluate``, and computing them for
every position of every view would make an export take minutes.

**Bounded.** Every field of a record is bounded
(:data:`~tenleave_widget.engine.record.LIMITS`), so the page grows with the game's turns,
not with any one field: it is at most :func:`size_limit` bytes — the front end (scripts
and styles, the same for every game), plus at most :data:`FIRST_LIMIT` bytes for a view's
first position, :data:`POSITION_LIMIT` for each later one (each position is stored as a
patch of the one before: see "the page's encoding" below) and :data:`NOTE_LIMIT` per
position's note — and game data beyond that bound is refused
(:class:`ExportError`) before anything is written. **Atomic**: the page is written to a
temporary file in the same folder, then renamed over ``path``; on any error ``path`` is
left exactly as it was.

Layering: this module sits beside ``simulate`` and ``cli``, above the engine and the odds;
from the widget package it imports only the pure, Jupyter-free half (``widget.session``
and what it uses: no anywidget, ipywidgets, traitlets or plotly; ``tests/test_layers.py``).
"""

from __future__ import annotations

import base64
import html
import json
import zlib
from pathlib import Path
from typing import Any

from ..engine.errors import TenLeaveError, excerpt
from ..engine.game import Game
from ..engine.record import RecordSource, check_path, write_atomically
from ..table.protocol import TableState
from ..table.session.config import check_config
from ..table.session.machine import Session

__all__ = ["ExportError", "data_limit", "export_data", "export_html", "packed", "page_payload",
           "patch", "render_html", "size_limit", "unpacked", "unpatch"]

STATIC = Path(__file__).resolve().parents[1] / "static"
FORMAT = "tenleave-export/2"
SEAT_NOTE = "(a teacher's note on this turn: it is in the teacher's export only)"

FIRST_LIMIT = 24 * 1024
"""The most bytes of the page's JSON for the first position of one view (stored whole, or
as a patch of the view before's), with every record field at its bound. The largest
measured: 21,941 bytes (5 seats, ``tests/engine/test_record_bounds.py``)."""
POSITION_LIMIT = 24 * 1024
"""The most bytes of the page's JSON for any later position of one view, the note aside:
a patch of the position before (what changed: the cards, the odds panels, one more turn
of penalties and words), the same at turn 1 as at turn 50. The largest measured with every
record field at its bound: 20,411 bytes (5 seats, 50 turns)."""
NOTE_LIMIT = 24 * 1024
"""The most bytes of one position's note in the teacher's export: ``MAX_NOTE_LENGTH``
characters of at most 6 bytes each (``<`` is written ``\\u003c``)."""
DATA_LIMIT = 2 * 1024
"""The most bytes of the page's JSON outside its positions (the names, the views)."""
PAGE_LIMIT = 8 * 1024
"""The most bytes of the page around its front end and its JSON (the title, twice)."""


class ExportError(TenLeaveError):
    """An export that cannot be made (a bad perspective, a missing front-end build, a
    page that cannot be written)."""


def data_limit(turns: int, views: int, *, teacher: bool) -> int:
    """The most bytes of the page's JSON for a game of ``turns`` turns in ``views`` views
    (a seat's export: 1; the teacher's: the seats + 1, with the notes)::

        DATA_LIMIT + views * FIRST_LIMIT + turns * views * POSITION_LIMIT
                   + (turns + 1) * (NOTE_LIMIT if teacher else 0)

    — linear in the turns, whatever the record's fields hold: a turn adds the same bytes
    at turn 50 as at turn 1.

    >>> data_limit(50, 6, teacher=True) - data_limit(49, 6, teacher=True)
    172032
    >>> data_limit(50, 6, teacher=True)
    8775680
    """
    notes = (turns + 1) * NOTE_LIMIT if teacher else 0
    return DATA_LIMIT + views * FIRST_LIMIT + turns * views * POSITION_LIMIT + notes


def size_limit(turns: int, views: int, *, teacher: bool) -> int:
    """The largest page an export may be, in bytes: its front end (the scripts and
    styles, the same for every game), :data:`PAGE_LIMIT`, and :func:`data_limit`."""
    front = sum(len(_asset(name).encode("utf-8")) for name in ("export.css", "export.js"))
    return front + PAGE_LIMIT + data_limit(turns, views, teacher=teacher)


def _perspectives(game: Game, perspective: object) -> list[int | None]:
    if perspective is None:
        return [None, *range(game.seats)]
    if type(perspective) is not int or not 0 <= perspective < game.seats:
        raise ExportError(
            f"perspective must be a seat 0..{game.seats - 1}, or None for the teacher's "
            f"export, not {excerpt(perspective)}"
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


def export_data(record: RecordSource, perspective: int | None = None) -> dict[str, Any]:
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


# ------------------------------------------------------------------ the page's encoding
# Each position's state is stored as a patch of the position before it in the same view
# (the first position of a view: of the first position of the view before it; the very
# first: of nothing), so what every position repeats — the layouts and the themes of its
# figures, the names, the whole game's penalties so far — is stored once. A patch ``E`` of
# a value ``prev`` (``None``: no value) is one of:
#
# - ``0``: ``prev`` itself;
# - ``[0, v]``: the value ``v``;
# - ``[1, {key: E, ...}, [deleted keys]]``: the object ``prev`` with each listed key patched
#   (a new key: patched from nothing, in its sorted place) and the deleted keys removed (the
#   list may be absent);
# - ``[2, n, [E, ...]]``: the array ``prev[:n]`` followed by the listed items, the i-th
#   patched from ``prev[n + i]`` (from nothing past the end of ``prev``).
#
# The page undoes it (``js/export.ts``, ``unpatch``); :func:`unpatch` here is the same in
# Python, for the tests. A patch only ever refers to positions of the same export, so a
# seat's export still holds only what that seat's view held, turn by turn.


def _same(a: Any, b: Any) -> bool:
    """``a`` and ``b`` are the same JSON (``1``, ``1.0`` and ``True`` differ)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_same(v, b[k]) for k, v in a.items())
    if isinstance(a, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


def patch(prev: Any, cur: Any) -> Any:
    """The patch that turns ``prev`` into ``cur`` (see above).

    >>> patch({"a": [1, 2], "b": "x"}, {"a": [1, 2, 3], "b": "x"})
    [1, {'a': [2, 2, [[0, 3]]]}]
    >>> unpatch({"a": [1, 2], "b": "x"}, _) == {"a": [1, 2, 3], "b": "x"}
    True
    """
    if _same(prev, cur):
        return 0
    if isinstance(prev, dict) and isinstance(cur, dict):
        changed = {k: patch(prev.get(k), v) for k, v in cur.items()
                   if k not in prev or not _same(prev[k], v)}
        deleted = [k for k in prev if k not in cur]
        return [1, changed, deleted] if deleted else [1, changed]
    if isinstance(prev, list) and isinstance(cur, list):
        n = 0
        while n < min(len(prev), len(cur)) and _same(prev[n], cur[n]):
            n += 1
        tail = [patch(prev[i], cur[i]) if i < len(prev) else [0, cur[i]]
                for i in range(n, len(cur))]
        return [2, n, tail]
    return [0, cur]


def unpatch(prev: Any, e: Any) -> Any:
    """The value that the patch ``e`` makes of ``prev`` (``prev`` is not changed)."""
    if e == 0 and type(e) is int:
        return prev
    if e[0] == 0:
        return e[1]
    if e[0] == 1:
        out = dict(prev) if isinstance(prev, dict) else {}
        for k in e[2] if len(e) > 2 else ():
            del out[k]
        added = False
        for k, sub in e[1].items():
            added = added or k not in out
            out[k] = unpatch(out.get(k), sub)
        # the page's JSON is written with sorted keys: a new key takes its sorted place
        return {k: out[k] for k in sorted(out)} if added else out
    base = prev if isinstance(prev, list) else []
    return base[:e[1]] + [unpatch(base[e[1] + i] if e[1] + i < len(base) else None, sub)
                          for i, sub in enumerate(e[2])]


def packed(data: dict[str, Any]) -> dict[str, Any]:
    """``data`` (:func:`export_data`) as the page holds it: ``states`` replaced by
    ``patches`` (``patches[p][t]``: the patch of the state of perspective p after t turns,
    from the one before it)."""
    states: list[list[Any]] = data["states"]
    patches: list[list[Any]] = []
    prev: Any = None
    for view in states:
        first = view[0] if view else None
        row = []
        for state in view:
            row.append(patch(prev, state))
            prev = state
        prev = first
        patches.append(row)
    return {**{k: v for k, v in data.items() if k != "states"}, "patches": patches}


def unpacked(data: dict[str, Any]) -> dict[str, Any]:
    """The inverse of :func:`packed` (what the page does, in Python)."""
    states: list[list[Any]] = []
    prev: Any = None
    for row in data["patches"]:
        view = []
        for e in row:
            prev = unpatch(prev, e)
            view.append(prev)
        prev = view[0] if view else None
        states.append(view)
    return {**{k: v for k, v in data.items() if k != "patches"}, "states": states}


def _asset(name: str) -> str:
    path = STATIC / name
    if not path.exists():
        raise ExportError(
            f"the export's front end is not built ({path} is missing): run "
            "`pip install -e .` (or `npm install && npm run build`) in the repository"
        )
    return path.read_text(encoding="utf-8")


def _deflated(data: bytes) -> str:
    """``data`` deflated (raw, level 9) and written in base64: how the page holds its data
    and its front end, which a short inline script inflates with the browser's own
    ``DecompressionStream`` (:data:`LOADER`): the page still loads nothing."""
    z = zlib.compressobj(9, zlib.DEFLATED, -15)
    return base64.b64encode(z.compress(data) + z.flush()).decode("ascii")


LOADER = """(async () => {
  const inflate = async (id) => {
    const el = document.getElementById(id);
    const bytes = Uint8Array.from(atob(el.textContent), (c) => c.charCodeAt(0));
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate-raw"));
    const text = await new Response(stream).text();
    el.remove();
    return text;
  };
  try {
    const data = document.createElement("script");
    data.type = "application/json";
    data.id = "tenleave-data";
    data.textContent = await inflate("tenleave-data-deflated");
    document.body.append(data);
    const code = document.createElement("script");
    code.textContent = await inflate("tenleave-code-deflated");
    document.body.append(code);
  } catch (err) {
    document.getElementById("tenleave-export")
      .append(`This page is damaged or this browser is too old to show it: ${err}`);
  }
})();"""
"""The page's one plain script: it inflates the data (into the ``tenleave-data`` JSON the
front end reads) and the front end, then runs the front end."""


def page_payload(page: str) -> dict[str, Any]:
    """The data an export page holds (what its ``tenleave-data`` JSON becomes in the
    browser): the packed states (:func:`unpacked` unpacks them).
    Raises :class:`ExportError` when the page holds none."""
    start = page.find('id="tenleave-data-deflated">')
    if start < 0:
        raise ExportError("this is not an export page (it holds no game data)")
    start += len('id="tenleave-data-deflated">')
    blob = base64.b64decode(page[start:page.index("</script>", start)])
    data: dict[str, Any] = json.loads(zlib.decompress(blob, -15).decode("utf-8"))
    return data


def _script_safe(text: str) -> str:
    """``text`` safe inside a ``<script>`` element (no closing tag can appear)."""
    return text.replace("</", "<\\/")


def render_html(record: RecordSource, perspective: int | None = None) -> str:
    """The page of :func:`export_html`, as a string: at most :func:`size_limit` bytes of
    UTF-8 (game data beyond :func:`data_limit` is an :class:`ExportError`)."""
    data = packed(export_data(record, perspective))
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
    page = (
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
        '<script type="application/octet-stream" id="tenleave-data-deflated">'
        f"{_deflated(payload.encode('utf-8', 'surrogatepass'))}</script>\n"
        '<script type="application/octet-stream" id="tenleave-code-deflated">'
        f"{_deflated(_script_safe(js).encode('utf-8'))}</script>\n"
        f"<script>{LOADER}</script>\n"
        "</body></html>\n"
    )
    views = len(data["perspectives"])
    limit = data_limit(data["total"], views, teacher=perspective is None)
    size = len(payload.encode("utf-8", "surrogatepass"))
    if size > limit:  # cannot happen with every field within its bound: a safety net
        raise ExportError(
            f"the game's data would be {size:,} bytes, more than the {limit:,} allowed for "
            f"{data['total']} turns in {views} view(s)"
        )
    return page


def export_html(
    record: RecordSource, path: str | Path, perspective: int | None = None
) -> Path:
    """Write the game of ``record`` (a ``tenleave-record/1`` object, or the path of a
    record file) to ``path`` as one self-contained HTML page that steps through it
    offline: the widget's table (first / previous / next / last, slider, arrow keys,
    notes, swats in words) and the odds panels of every position. ``perspective``: a
    seat (that seat's knowledge only, turn by turn) or ``None`` (the teacher's export:
    every view, with a perspective menu).

    The page is made completely, within :func:`size_limit`, then written atomically (a
    temporary file in the same folder, renamed over ``path``): on any error — an invalid
    record, a full disk, a failure mid-write — ``path`` is left exactly as it was. A
    ``path`` that is not a file's path is refused before the page is made
    (:func:`~tenleave_widget.engine.record.check_path`)."""
    out = Path(check_path(path))
    page = render_html(record, perspective)
    try:
        data = page.encode("utf-8")
    except UnicodeEncodeError as e:  # not from a valid record: every text is checked
        raise ExportError(f"the page holds text that is not UTF-8: {e.reason}") from None
    try:
        write_atomically(out, data)
    except OSError as e:
        where = excerpt(str(out), 200)
        raise ExportError(f"cannot write the page to {where}: {e.strerror or e}") from None
    return out
