"""Driving a notebook in JupyterLab (see shared/notes/jupyter-browser-testing.md)."""

from __future__ import annotations

import ast
import json
import time
from typing import Any

from .harness import LabServer

TIMEOUT = 60_000


def open_and_run(page: Any, lab: LabServer, notebook: str, panels: bool = True) -> Any:
    """Open `notebook`, run all cells, and return the widget's root element locator
    (once its odds panels are drawn, unless ``panels`` is false: a table without them)."""
    page.goto(lab.url(notebook), timeout=TIMEOUT)
    page.wait_for_selector(".jp-Notebook .jp-CodeCell", timeout=TIMEOUT)
    page.wait_for_function(
        "() => (document.querySelector('#jp-main-statusbar')?.textContent || '')"
        ".includes('| Idle')",
        timeout=TIMEOUT,
    )
    page.click("#jp-MainMenu >> text=Run")
    page.click('.lm-Menu-item[data-command="runmenu:run-all"]')
    root = page.locator(".jp-OutputArea-output .tl-root").first
    root.wait_for(timeout=TIMEOUT)
    if panels:
        page.locator(".jp-OutputArea-output .tl-panels").first.wait_for(
            state="attached", timeout=TIMEOUT
        )
    return root


class Kernel:
    """Reads Python-side state of the notebook's kernel."""

    def __init__(self, lab: LabServer, notebook: str) -> None:
        self.client = lab.kernel_client(notebook)

    def eval(self, expr: str) -> Any:
        """The value of a JSON-able Python expression in the notebook's namespace."""
        code = f"__import__('json').dumps({expr})"
        msg_id = self.client.execute("", silent=True, user_expressions={"v": code})
        deadline = time.monotonic() + 30
        while True:
            reply = self.client.get_shell_msg(timeout=30)
            if reply["parent_header"].get("msg_id") == msg_id:
                break
            if time.monotonic() > deadline:
                raise TimeoutError(expr)
        result = reply["content"]["user_expressions"]["v"]
        if result.get("status") != "ok":
            raise RuntimeError(f"{expr}: {result}")
        return json.loads(ast.literal_eval(result["data"]["text/plain"]))

    def close(self) -> None:
        self.client.stop_channels()


def wait_idle(page: Any, root: Any, turns: int | None = None) -> None:
    """Wait until no bot is thinking (and, if given, `turns` turns were played)."""
    cond = "el => el.dataset.busy === '0'"
    if turns is not None:
        cond = f"el => el.dataset.busy === '0' && el.dataset.turns === '{turns}'"
    root.evaluate(
        f"""(el) => new Promise((resolve, reject) => {{
            const ok = {cond};
            if (ok(el)) return resolve(true);
            const obs = new MutationObserver(() => {{
                if (ok(el)) {{ obs.disconnect(); resolve(true); }}
            }});
            obs.observe(el, {{attributes: true}});
            setTimeout(() => {{
                obs.disconnect();
                reject(new Error('not idle: ' + JSON.stringify(el.dataset)));
            }}, 30000);
        }})"""
    )


def run_again_and_save(page: Any) -> None:
    """Run every cell of the open notebook a second time (the first table is replaced),
    wait for the new table to settle, and save the notebook through the File menu."""
    first = page.locator(".tl-root").first.element_handle()
    page.click("#jp-MainMenu >> text=Run")
    page.click('.lm-Menu-item[data-command="runmenu:run-all"]')
    page.wait_for_function("(old) => !old.isConnected", arg=first, timeout=30_000)
    wait_idle(page, page.locator(".tl-root").first, 0)
    page.click("#jp-MainMenu >> text=File")
    page.click('.lm-Menu-item[data-command="docmanager:save"]')
    page.wait_for_function("() => !document.querySelector('.jp-mod-dirty')", timeout=20_000)
