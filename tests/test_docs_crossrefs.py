"""Every Sphinx-style cross-reference in the package's docstrings (``:func:`name```) names an
object that exists: the fast lane's copy of the check the documentation build makes
(``tools/docs/crossrefs.py``, whose warnings fail ``make docs``)."""

from __future__ import annotations

import sys
from pathlib import Path

import griffe

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools" / "docs"))
import crossrefs  # noqa: E402


def test_every_docstring_cross_reference_resolves() -> None:
    package = griffe.load("tenleave_widget", resolve_aliases=True, resolve_external=False)
    assert isinstance(package, griffe.Module)
    assert crossrefs.check(package, rewrite=False) == []


def _module(code: str) -> griffe.Module:
    return griffe.visit("m", filepath=Path("m.py"), code=code)


def test_the_check_can_fail() -> None:
    ok = _module('"""See :func:`f`, :class:`KeyError` and :mod:`json`."""\ndef f(): ...\n')
    assert crossrefs.check(ok, rewrite=False) == []
    gone = _module('"""See :func:`~.nowhere.f`."""\ndef f(): ...\n')
    (problem,) = crossrefs.check(gone, rewrite=False)
    assert ":func:`~.nowhere.f` resolves to nothing" in problem


def test_references_become_markdown_and_doctests_are_fenced() -> None:
    m = _module('"""Uses :func:`f`.\n\n>>> f()\n1\n\nAfter::\n\n    f()\n"""\ndef f(): ...\n')
    crossrefs.RENDERED.clear()
    crossrefs.RENDERED.add("m.f")
    crossrefs.check(m, rewrite=True)
    assert m.docstring is not None
    text = m.docstring.value
    assert "[`f`][m.f]" in text
    assert "```pycon\n>>> f()\n1\n```" in text
    assert "After:\n\n```\nf()\n```" in text
    crossrefs.RENDERED.clear()
