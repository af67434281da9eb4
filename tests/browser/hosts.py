"""Front ends other than JupyterLab that host the widget: Notebook 7 and marimo.

Notebook 7 is the JupyterLab harness (`harness.lab_server`) started as `jupyter notebook`;
marimo is `marimo run` on loopback, a free port, headless, with its config, cache and state
folders in a temporary directory (so a test run leaves nothing in the user's home) and no
update check (nothing leaves the machine).
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import requests

from .driver import TIMEOUT
from .harness import LabServer, free_port, is_session_of

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def open_and_run_notebook7(page: Any, server: LabServer, notebook: str) -> Any:
    """Open `notebook` in Notebook 7, wait for its kernel, run all cells, and return the
    widget's root element locator (the same selectors as JupyterLab)."""
    page.goto(server.url(notebook), timeout=TIMEOUT)
    page.wait_for_selector(".jp-Notebook .jp-CodeCell", timeout=TIMEOUT)
    deadline = time.monotonic() + TIMEOUT / 1000
    while not any(
        is_session_of(s.get("path", ""), notebook)
        and (s.get("kernel") or {}).get("execution_state") == "idle"
        for s in server.api("/api/sessions")
    ):
        if time.monotonic() > deadline:
            raise TimeoutError(f"no idle kernel for {notebook} in Notebook 7")
        time.sleep(0.2)
    page.wait_for_selector(
        ".jp-Notebook-ExecutionIndicator[data-status='idle']", timeout=TIMEOUT
    )
    page.click("#jp-MainMenu >> text=Run")
    page.click('.lm-Menu-item[data-command="runmenu:run-all"]')
    root = page.locator(".jp-OutputArea-output .tl-root").first
    root.wait_for(timeout=TIMEOUT)
    page.locator(".jp-OutputArea-output .tl-panels").first.wait_for(
        state="attached", timeout=TIMEOUT
    )
    return root


@dataclass
class MarimoServer:
    port: int
    proc: subprocess.Popen[bytes]
    log_path: Path

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    def stop(self) -> None:
        """Stop `marimo run` and its kernel (its own process group, started here)."""
        if self.proc.poll() is not None:
            return
        os.killpg(self.proc.pid, signal.SIGTERM)
        try:
            self.proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=10)


@contextmanager
def marimo_server(tmp: Path, notebook: Path) -> Iterator[MarimoServer]:
    """`marimo run` serving a copy of `notebook` (read-only app mode)."""
    app = tmp / notebook.name
    shutil.copy(notebook, app)
    env = dict(os.environ)
    for name in ("XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME", "XDG_DATA_HOME"):
        d = tmp / name.lower()
        d.mkdir(exist_ok=True)
        env[name] = str(d)
    env["MARIMO_SKIP_UPDATE_CHECK"] = "1"
    port = free_port()
    log_path = tmp / "marimo.log"
    marimo = Path(sys.executable).parent / "marimo"
    with log_path.open("wb") as log:
        proc = subprocess.Popen(
            [
                str(marimo), "run", str(app), "--headless", "--host", "127.0.0.1",
                "--port", str(port), "--no-token", "--no-sandbox",
            ],
            env=env, cwd=tmp, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
        )
        server = MarimoServer(port, proc, log_path)
        try:
            deadline = time.monotonic() + 60
            while True:
                if proc.poll() is not None:
                    raise RuntimeError(f"marimo run exited: {log_path.read_text()[-3000:]}")
                try:
                    requests.get(server.url, timeout=5).raise_for_status()
                    break
                except requests.RequestException:
                    if time.monotonic() > deadline:
                        raise
                    time.sleep(0.2)
            yield server
        finally:
            server.stop()
