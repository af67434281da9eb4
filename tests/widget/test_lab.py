"""`make lab` as a user runs it (after its install step): JupyterLab starts with no Node
traceback in its log (the project's package.json once said ``"type": "module"``, which
made JupyterLab's own helper scripts inside the .venv fail with "require is not defined
in ES module scope"), and it opens a working copy of examples/, so running and saving
the notebooks leaves the tracked examples untouched."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parents[2]
TOKEN = "tenleave-lab-test"
PROBLEMS = re.compile(r"Traceback|Error:|require is not defined|ERR_|\[E ", re.I)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _git_status(path: str) -> str:
    return subprocess.run(["git", "status", "--porcelain", "--", path], cwd=ROOT,
                          capture_output=True, text=True, check=True).stdout


def test_package_json_is_not_an_es_module_scope() -> None:
    # every .js file below the project folder (.venv's included) would be read as ESM
    assert "type" not in json.loads((ROOT / "package.json").read_text(encoding="utf-8"))


def test_make_lab_starts_cleanly_on_a_working_copy(tmp_path: Path) -> None:
    before = _git_status("examples")
    work = tmp_path / "my-examples"
    port = _free_port()
    env = dict(os.environ)
    for name in ("JUPYTER_CONFIG_DIR", "JUPYTER_RUNTIME_DIR", "JUPYTER_DATA_DIR",
                 "JUPYTERLAB_SETTINGS_DIR", "JUPYTERLAB_WORKSPACES_DIR"):
        (tmp_path / name).mkdir()
        env[name] = str(tmp_path / name)
    env["JUPYTER_PLATFORM_DIRS"] = "1"
    flags = (f"--no-browser --ip=127.0.0.1 --port={port} --port-retries=0 "
             f"--IdentityProvider.token={TOKEN}")
    log_path = tmp_path / "lab.log"
    with log_path.open("wb") as log:
        proc = subprocess.Popen(
            ["make", "--no-print-directory", "lab-open", f"VENV={sys.prefix}",
             f"LAB_DIR={work}", f"LAB_FLAGS={flags}"],
            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        base = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + 90
            while True:
                assert proc.poll() is None, log_path.read_text()[-3000:]
                try:
                    requests.get(f"{base}/api/status", params={"token": TOKEN},
                                 timeout=5).raise_for_status()
                    break
                except requests.RequestException:
                    assert time.monotonic() < deadline, "JupyterLab did not start"
                    time.sleep(0.3)
            # the page and the build check a browser's first visit triggers
            for path in ("/lab", "/lab/api/build"):
                requests.get(base + path, params={"token": TOKEN}, timeout=30)
            # what JupyterLab does when a notebook is run and autosaved
            got = requests.get(f"{base}/api/contents/play.ipynb",
                               params={"token": TOKEN}, timeout=10)
            got.raise_for_status()
            model = got.json()
            model["content"]["cells"][0]["source"] += "\n(edited in the lab)"
            saved = requests.put(f"{base}/api/contents/play.ipynb", params={"token": TOKEN},
                                 json={"type": "notebook", "format": "json",
                                       "content": model["content"]}, timeout=10)
            saved.raise_for_status()
            time.sleep(3)  # let anything started at the first visit write to the log
            requests.post(f"{base}/api/shutdown", params={"token": TOKEN}, timeout=10)
            proc.wait(timeout=30)
        finally:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGTERM)
                proc.wait(timeout=20)
    text = log_path.read_text(errors="replace")
    assert "your working copy of examples/" in text
    problems = [line for line in text.splitlines() if PROBLEMS.search(line)]
    assert problems == [], "\n".join(problems[:20])
    assert "(edited in the lab)" in (work / "play.ipynb").read_text(encoding="utf-8")
    assert {"classroom.ipynb", "games", "play.ipynb"} <= {p.name for p in work.iterdir()}
    assert _git_status("examples") == before  # the tracked examples are untouched
