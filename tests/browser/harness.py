"""A real JupyterLab server and Debian's Chromium for the browser tests.

See /work/shared/notes/jupyter-browser-testing.md for why each setting is here.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psutil
import requests

CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


# The panels of a play table, each a Plotly chart (table/panels/figures.py FIGURE_KEYS but the
# replay's review graph); issue 19 added "suggest".
PLAY_FIGURES = ("outcome", "moves", "cards", "suggest", "timeline")


# A play table's first state (no card on the table, no turn played) has nothing to plot in
# three panels: they show their words (js/panels/panels.ts); plotly.js draws the other two.
FIRST_WORDS = ("outcome", "cards", "timeline")


def wait_play_plots(page: Any, scope: str = "") -> None:
    """Wait until every panel of a play table shows what its figure drew: its Plotly
    chart, or the words of a figure with nothing to plot (the panel's ``data-drawn``;
    locators pierce marimo's shadow roots)."""
    for key in PLAY_FIGURES:
        page.locator(f"{scope} .tl-panel-{key}[data-drawn]".strip()).first.wait_for(
            state="attached", timeout=60_000)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def is_session_of(path: str, notebook: str) -> bool:
    """Whether a session's ``path`` is ``notebook`` (by whole name: "replay.ipynb" ends with
    "play.ipynb", so a test reading play.ipynb's kernel once got the replay's)."""
    return path == notebook or path.endswith("/" + notebook)


@dataclass
class LabServer:
    root: Path
    port: int
    token: str
    runtime_dir: Path
    proc: subprocess.Popen[bytes]
    log_path: Path
    settings_dir: Path | None = None
    children: set[int] = field(default_factory=set)
    app: str = "lab"  # or "notebook" (Notebook 7: tests/browser/hosts.py)

    def save_widget_state(self, on: bool) -> None:
        """JupyterLab's "Save Widget State Automatically" (applies at the next page load)."""
        assert self.settings_dir is not None
        p = (self.settings_dir / "@jupyter-widgets" / "jupyterlab-manager"
             / "plugin.jupyterlab-settings")
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(json.dumps({"saveState": on}))

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def api(self, path: str) -> Any:
        r = requests.get(f"{self.base}{path}", params={"token": self.token}, timeout=10)
        r.raise_for_status()
        return r.json()

    def url(self, notebook: str, theme: str | None = None) -> str:
        if self.app == "notebook":
            return f"{self.base}/notebooks/{notebook}?token={self.token}"
        return f"{self.base}/lab/tree/{notebook}?reset&token={self.token}"

    def remember_children(self) -> None:
        try:
            for child in psutil.Process(self.proc.pid).children(recursive=True):
                self.children.add(child.pid)
        except psutil.NoSuchProcess:
            pass

    def kernel_client(self, notebook: str) -> Any:
        """A BlockingKernelClient connected to the kernel of `notebook`'s session."""
        from jupyter_client import BlockingKernelClient

        deadline = time.monotonic() + 60
        while True:
            sessions = self.api("/api/sessions")
            for s in sessions:
                if is_session_of(s.get("path", ""), notebook) and s.get("kernel"):
                    kid = s["kernel"]["id"]
                    conn = self.runtime_dir / f"kernel-{kid}.json"
                    if conn.exists():
                        kc = BlockingKernelClient(connection_file=str(conn))
                        kc.load_connection_file()
                        kc.start_channels()
                        kc.wait_for_ready(timeout=30)
                        self.remember_children()
                        return kc
            if time.monotonic() > deadline:
                raise TimeoutError(f"no kernel session for {notebook}: {sessions}")
            time.sleep(0.2)

    def stop(self) -> None:
        self.remember_children()
        try:
            requests.post(
                f"{self.base}/api/shutdown", params={"token": self.token}, timeout=10
            )
            self.proc.wait(timeout=20)
        except Exception:
            if self.proc.poll() is None:
                os.kill(self.proc.pid, signal.SIGTERM)
                try:
                    self.proc.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    os.kill(self.proc.pid, signal.SIGKILL)
        for pid in self.children:
            try:
                p = psutil.Process(pid)
                p.terminate()
                p.wait(timeout=5)
            except (psutil.NoSuchProcess, psutil.TimeoutExpired):
                pass


def _write_settings(settings: Path, dark: bool) -> None:
    files = {
        "@jupyterlab/apputils-extension/notification.jupyterlab-settings": {
            "fetchNews": "false",
            "checkForUpdates": False,
        },
        "@jupyterlab/notebook-extension/tracker.jupyterlab-settings": {
            "windowingMode": "none"
        },
    }
    if dark:
        files["@jupyterlab/apputils-extension/themes.jupyterlab-settings"] = {
            "theme": "JupyterLab Dark"
        }
    for rel, content in files.items():
        p = settings / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(json.dumps(content))


@contextmanager
def lab_server(tmp: Path, notebooks: list[Path], app: str = "lab") -> Iterator[LabServer]:
    root = tmp / "root"
    root.mkdir()
    for nb in notebooks:
        shutil.copy(nb, root / nb.name)
    dirs = {name: tmp / name for name in ("config", "runtime", "data", "settings", "ws")}
    for d in dirs.values():
        d.mkdir()
    _write_settings(dirs["settings"], dark=False)
    env = dict(os.environ)
    env.update(
        JUPYTER_CONFIG_DIR=str(dirs["config"]),
        JUPYTER_RUNTIME_DIR=str(dirs["runtime"]),
        JUPYTER_DATA_DIR=str(dirs["data"]),
        JUPYTERLAB_SETTINGS_DIR=str(dirs["settings"]),
        JUPYTERLAB_WORKSPACES_DIR=str(dirs["ws"]),
        JUPYTER_PLATFORM_DIRS="1",
    )
    port = free_port()
    token = "tenleave-test-token"
    log_path = tmp / "jupyter.log"
    log = log_path.open("wb")
    jupyter = Path(sys.executable).parent / "jupyter"
    proc = subprocess.Popen(
        [
            str(jupyter), app, "--no-browser", "--ip=127.0.0.1", f"--port={port}",
            "--port-retries=0", "--allow-root", f"--IdentityProvider.token={token}",
            f"--ServerApp.root_dir={root}",
        ],
        env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
    )
    server = LabServer(
        root, port, token, dirs["runtime"], proc, log_path, dirs["settings"], app=app
    )
    deadline = time.monotonic() + 60
    while True:
        if proc.poll() is not None:
            raise RuntimeError(f"jupyter lab exited: {log_path.read_text()[-3000:]}")
        try:
            server.api("/api/status")
            break
        except requests.RequestException:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.3)
    try:
        yield server
    finally:
        server.stop()
        log.close()


def set_theme(settings_dir: Path, dark: bool) -> None:
    _write_settings(settings_dir, dark)
