"""The size of a built JupyterLite site (``make lite``'s ``lite/``), as a teacher copies it:
its bytes on disk, and compressed as a ``.tar.gz`` and as a ``.zip`` (both at the
default level: ``tar czf`` and ``zip -r`` give the same within 1 %), with the parts
that weigh most.

    python3 tools/lite/size.py lite            # or any built site folder
    python3 tools/lite/size.py lite --json     # one JSON line

Standard library only (the archives are written to a temporary folder and removed).
"""

from __future__ import annotations

import argparse
import json
import tarfile
import tempfile
import zipfile
import zlib
from pathlib import Path
from typing import Any

PARTS = ["build", "extensions", "static/pyodide", "pypi", "files"]
"""The parts of a site reported apart (the rest is summed as ``other``)."""


def part(rel: Path) -> str:
    """The :data:`PARTS` entry ``rel`` (a path in the site) is under, or ``other``."""
    text = rel.as_posix()
    return next((p for p in PARTS if text == p or text.startswith(p + "/")), "other")


def measure(site: Path) -> dict[str, Any]:
    """Bytes on disk, as a tgz and as a zip, and per part (raw and deflated)."""
    files = sorted(p for p in site.rglob("*") if p.is_file())
    raw: dict[str, int] = {}
    packed: dict[str, int] = {}
    for f in files:
        key = part(f.relative_to(site))
        data = f.read_bytes()
        raw[key] = raw.get(key, 0) + len(data)
        packed[key] = packed.get(key, 0) + len(zlib.compress(data, 6))
    with tempfile.TemporaryDirectory() as tmp:
        tgz = Path(tmp) / "site.tar.gz"
        with tarfile.open(tgz, "w:gz", compresslevel=6) as t:
            t.add(site, arcname=site.name)
        zp = Path(tmp) / "site.zip"
        with zipfile.ZipFile(zp, "w", zipfile.ZIP_DEFLATED, compresslevel=6) as z:
            for f in files:
                z.write(f, Path(site.name) / f.relative_to(site))
        sizes = {"tgz": tgz.stat().st_size, "zip": zp.stat().st_size}
    return {"site": str(site), "files": len(files), "bytes": sum(raw.values()), **sizes,
            "parts": {k: {"bytes": raw[k], "deflated": packed[k]}
                      for k in sorted(raw, key=lambda k: -raw[k])}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("site", type=Path, nargs="?", default=Path("lite"))
    parser.add_argument("--json", action="store_true", help="one JSON line")
    args = parser.parse_args()
    if not (args.site / "jupyter-lite.json").is_file():
        raise SystemExit(f"{args.site} is not a built site (no jupyter-lite.json): make lite")
    m = measure(args.site)
    if args.json:
        print(json.dumps(m))
        return
    mb = 1e6
    print(f"{m['site']}: {m['files']} files, {m['bytes'] / mb:.1f} MB; "
          f"tar.gz {m['tgz'] / mb:.1f} MB, zip {m['zip'] / mb:.1f} MB")
    for name, p in m["parts"].items():
        print(f"  {name + '/':16} {p['bytes'] / mb:5.1f} MB "
              f"({p['deflated'] / mb:4.1f} MB deflated)")


if __name__ == "__main__":
    main()
