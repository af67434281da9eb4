"""Fixtures of the browser tests: one JupyterLab server and one Chromium for the session.

A missing /usr/bin/chromium FAILS these tests (it is never a skip): `make test` installs it.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .harness import ARTIFACTS, CHROMIUM, LabServer, lab_server
from .notebooks import write_notebooks


@pytest.fixture(scope="session")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LabServer]:
    tmp = tmp_path_factory.mktemp("lab")
    src = tmp / "src"
    src.mkdir()
    notebooks = write_notebooks(src)
    with lab_server(tmp, notebooks) as server:
        yield server


# Per module, not per session: Playwright's sync API keeps an asyncio loop running in the
# main thread while it is open, and the widget's code (bot runner, review panel) schedules
# on a running loop: later non-browser tests would hang or fail (test_widget_review did).
@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not CHROMIUM.exists():
        pytest.fail(f"{CHROMIUM} is missing: install Debian's chromium (make test does)")
    from playwright.sync_api import sync_playwright

    ARTIFACTS.mkdir(exist_ok=True)
    with sync_playwright() as pw:
        b = pw.chromium.launch(
            executable_path=str(CHROMIUM),
            args=[
                "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update",
                "--disable-sync",
            ],
        )
        try:
            yield b
        finally:
            b.close()


@pytest.fixture()
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.errors = errors
    try:
        yield pg
    finally:
        context.close()


def artifact(name: str) -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS / name
