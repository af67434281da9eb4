"""The suite's lanes (README, "Developing"): ``make check`` runs everything but the tests
marked ``browser`` (Chromium against a real JupyterLab, Notebook 7 or marimo), ``notebook``
(an example notebook run by nbclient, or a Jupyter server started) and ``slow`` (1.5 s
or more on a quiet 2-core machine, as ``make check`` runs it); ``make test`` (CI) runs
them all, none skipped.

The tests live in the folder of the layer they test (``engine/``, ``analysis/``, ``table/``,
``programs/``, ``widget/``; ``browser/`` drives the page); the three that test the whole
project stay here: the layers' imports, the README's examples and the fuzz run. Shared
helpers (``helpers.py``, ``naive_odds.py``) and data (``data/``, ``golden/``) are here too,
on the import path (pyproject's ``pythonpath``); a test that borrows another folder's
helper names it by package (``from widget.test_widget_secrets import swapped_record``).

Tests in ``tests/browser/`` are marked ``browser`` and the notebook runners ``notebook``
here, by file; a slow test is marked where it stands: ``@pytest.mark.slow`` on the test, a
module's ``pytestmark``, or ``pytest.param(..., marks=pytest.mark.slow)`` for one parameter.

A run whose ``-m`` expression can select no ``browser`` test (``make check``'s) does not
collect ``browser/`` at all, nor the notebook files when it can select no ``notebook`` test:
their imports (Playwright's harness, nbformat and jsonschema, some 5 s of CPU) would be paid
by every xdist worker for tests deselected anyway. The tests selected are the same.
"""

import itertools
import re
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from _pytest.mark.expression import Expression

sys.path.insert(0, str(Path(__file__).parent))

TESTS = Path(__file__).parent
NOTEBOOK_FILES = {TESTS / "widget" / "test_examples.py", TESTS / "widget" / "test_lab.py"}


def never_selected(markexpr: str, mark: str) -> bool:
    """Whether the ``-m`` expression ``markexpr`` is false for every test marked ``mark``,
    whatever other marks it carries (every subset of the names the expression uses)."""
    try:
        expression = Expression.compile(markexpr)
    except Exception:  # noqa: BLE001 - pytest reports a malformed -m itself
        return False
    names = sorted(set(re.findall(r"[A-Za-z_][\w.]*", markexpr)) - {"and", "or", "not", mark})
    if not markexpr.strip() or len(names) > 10:
        return False
    subsets = (on for k in range(len(names) + 1) for on in itertools.combinations(names, k))
    return not any(expression.evaluate(_carries({mark, *on})) for on in subsets)


def _carries(marks: set[str]) -> Callable[..., bool]:
    """The ``-m`` matcher of a test that carries exactly ``marks``."""
    return lambda name, /, **_: name in marks


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """Leave out ``browser/`` and the notebook files when ``-m`` selects none of their
    tests (each of them is marked by its file, below)."""
    markexpr = config.getoption("markexpr", "") or ""
    if collection_path == TESTS / "browser" and never_selected(markexpr, "browser"):
        return True
    if collection_path in NOTEBOOK_FILES and never_selected(markexpr, "notebook"):
        return True
    return None


@pytest.hookimpl(tryfirst=True)  # before -m and -k deselect: every collected test is here
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        path = Path(str(item.path))
        if TESTS / "browser" in path.parents:
            item.add_marker(pytest.mark.browser)
        elif path in NOTEBOOK_FILES:
            item.add_marker(pytest.mark.notebook)
