"""The size of the HTML export of each sample game, and where its bytes go.

For each ``examples/games/game-N-seats.json``, the teacher's page (every view) and seat
0's page: the page's bytes; its front end (``export.js`` with plotly.js inlined, and
``export.css``) and its data (the JSON of the packed states), as they are and as the page
holds them (deflated, in base64); of the data, the bytes of the panels' figures (what the
page could build from the panels' data instead) and of the rest. The aim: the teacher's
page of the 5-seat sample at most 1.5 MB (1,500,000 bytes).

Run::

    nice python benchmarks/bench_export_size.py --out benchmarks/results/export_size.json

Sizes do not depend on the machine's load (the run takes about a minute).
"""

from __future__ import annotations

import argparse
import base64
import datetime
import json
import sys
import zlib
from pathlib import Path
from typing import Any

from tenleave_widget.programs.export import STATIC, export_data, packed, render_html

GAMES = Path(__file__).resolve().parents[1] / "examples" / "games"
AIM = 1_500_000


def _json(value: Any) -> bytes:
    return json.dumps(value, separators=(",", ":"), sort_keys=True,
                      ensure_ascii=False).replace("<", "\\u003c").encode()


def measure(path: Path, perspective: int | None) -> dict[str, Any]:
    """The sizes of one page (see the module docstring)."""
    page = render_html(path, perspective).encode()
    data = packed(export_data(path, perspective))
    payload = _json(data)
    no_figures = {**data, "patches": [[_without_figures(e) for e in row]
                                      for row in data["patches"]]}
    rest = len(_json(no_figures))
    front = sum((STATIC / n).stat().st_size for n in ("export.js", "export.css"))
    return {
        "page": len(page), "front_end": front, "data": len(payload),
        "data_figures": len(payload) - rest, "data_without_figures": rest,
        "front_end_in_page": _deflated_size((STATIC / "export.js").read_bytes()),
        "data_in_page": _deflated_size(payload),
    }


def _deflated_size(data: bytes) -> int:
    """The bytes of ``data`` deflated (raw, level 9) in base64, as the page holds it."""
    z = zlib.compressobj(9, zlib.DEFLATED, -15)
    return len(base64.b64encode(z.compress(data) + z.flush()))


def _without_figures(e: Any) -> Any:
    """A position's patch without the panels' figures (to count their bytes)."""
    if isinstance(e, list) and e and e[0] == 1 and isinstance(e[1].get("panels"), list):
        panels = e[1]["panels"]
        if panels[0] == 1:
            keep = {k: v for k, v in panels[1].items() if k != "figures"}
            return [1, {**e[1], "panels": [1, keep, *panels[2:]]}, *e[2:]]
        if panels[0] == 0 and isinstance(panels[1], dict):
            keep0 = {k: v for k, v in panels[1].items() if k != "figures"}
            return [1, {**e[1], "panels": [0, keep0]}, *e[2:]]
    return e


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args()
    rows = []
    for seats in (2, 3, 4, 5):
        path = GAMES / f"game-{seats}-seats.json"
        for perspective in (None, 0):
            row = {"game": path.name, "export": "teacher" if perspective is None else "seat 0",
                   **measure(path, perspective)}
            rows.append(row)
            print(json.dumps(row), flush=True)
    teacher5 = next(r for r in rows if r["game"] == "game-5-seats.json"
                    and r["export"] == "teacher")
    out = {
        "command": "nice python benchmarks/bench_export_size.py --out "
                   "benchmarks/results/export_size.json",
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%MZ"),
        "python": sys.version.split()[0],
        "aim": {"page": "teacher's page of game-5-seats.json", "bytes": AIM,
                "met": teacher5["page"] <= AIM},
        "rows": rows,
    }
    if args.out is not None:
        args.out.write_text(json.dumps(out, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
