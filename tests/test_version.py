"""The package's version is written once, in pyproject.toml; everything else reads it."""

from __future__ import annotations

import json
import re
from importlib.metadata import version
from pathlib import Path

import tenleave_widget

ROOT = Path(__file__).resolve().parents[1]


def test_the_version_is_pyprojects_and_written_nowhere_else() -> None:
    project = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    (written,) = re.findall(r'^version = "([^"]+)"$', project, re.M)
    assert tenleave_widget.__version__ == version("tenleave_widget") == written
    assert "version" not in json.loads((ROOT / "package.json").read_text(encoding="utf-8"))
    assigned = re.compile(r"^__version__\s*=", re.M)
    assert not [p for p in (ROOT / "tenleave_widget").rglob("*.py")
                if assigned.search(p.read_text(encoding="utf-8"))]
