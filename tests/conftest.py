"""The suite's lanes (README, "Developing"): ``make check`` runs everything but the tests
marked ``browser`` (Chromium against a real JupyterLab, Notebook 7 or marimo), ``notebook``
(an example notebook run by nbclient, or a Jupyter server started) and ``slow`` (a few
seconds or more on a quiet 2-core machine); ``make test`` (CI) runs them all, none skipped.

The tests live in the folder of the layer they test (``engine/``, ``analysis/``, ``table/``,
``programs/``, ``widget/``; ``browser/`` drives the page); the three that test the whole
project stay here: the layers' imports, the README's examples and the fuzz run. Shared
helpers (``helpers.py``, ``naive_odds.py``) and data (``data/``, ``golden/``) are here too,
on the import path (pyproject's ``pythonpath``); a test that borrows another folder's
helper names it by package (``from widget.test_widget_secrets import swapped_record``).

Tests in ``tests/browser/`` are marked ``browser`` and the notebook runners ``notebook``
here, by file; a slow test is marked where it stands: ``@pytest.mark.slow`` on the test, a
module's ``pytestmark``, or ``pytest.param(..., marks=pytest.mark.slow)`` for one parameter.
"""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

TESTS = Path(__file__).parent
NOTEBOOK_FILES = {TESTS / "widget" / "test_examples.py", TESTS / "widget" / "test_lab.py"}


@pytest.hookimpl(tryfirst=True)  # before -m and -k deselect: every collected test is here
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        path = Path(str(item.path))
        if TESTS / "browser" in path.parents:
            item.add_marker(pytest.mark.browser)
        elif path in NOTEBOOK_FILES:
            item.add_marker(pytest.mark.notebook)
