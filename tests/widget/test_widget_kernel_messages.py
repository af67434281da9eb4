"""Forged front-end messages through a real kernel (issue 14, items 3 and 4).

A second client of the kernel sends ``comm_msg``s to the table widget's comm, exactly as
a forged front end would: deeply nested, huge, with a huge integer. Each one must end as
one short error message on the table — never a traceback in the kernel's output.

(Nesting beyond about 980 levels never reaches the widget: the kernel's own message
parser refuses it and logs "Invalid message"; that is ipykernel's answer, not ours.)
"""

from __future__ import annotations

import json
import queue
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from jupyter_client.blocking.client import BlockingKernelClient
from jupyter_client.manager import start_new_kernel

import tenleave_widget

pytestmark = pytest.mark.slow  # a real kernel, started for the module

SHORT = 200


@pytest.fixture(scope="module")
def kernel() -> Iterator[BlockingKernelClient]:
    km, kc = start_new_kernel(kernel_name="python3")
    try:
        yield kc
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)


def execute(kc: BlockingKernelClient, code: str) -> tuple[str, list[dict[str, Any]]]:
    """Run ``code``; its stdout and every other output message (errors, stderr)."""
    msg_id = kc.execute(code)
    out: list[str] = []
    other: list[dict[str, Any]] = []
    while True:
        m = kc.get_iopub_msg(timeout=60)
        if m["parent_header"].get("msg_id") != msg_id:
            other.append(m)
            continue
        if m["msg_type"] == "stream" and m["content"]["name"] == "stdout":
            out.append(m["content"]["text"])
        elif m["msg_type"] in ("stream", "error"):
            other.append(m)
        elif m["msg_type"] == "status" and m["content"]["execution_state"] == "idle":
            return "".join(out), other


def drain(kc: BlockingKernelClient, seconds: float) -> list[dict[str, Any]]:
    got = []
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            got.append(kc.get_iopub_msg(timeout=0.2))
        except queue.Empty:
            pass
    return got


def problems(messages: list[dict[str, Any]]) -> list[str]:
    """Tracebacks and stderr output among iopub messages."""
    return [
        str(m["content"])[:300] for m in messages
        if m["msg_type"] == "error"
        or (m["msg_type"] == "stream" and m["content"]["name"] == "stderr")
    ]


def deep(n: int) -> Any:
    out: Any = "x"
    for _ in range(n):
        out = [out]
    return out


FORGED = [
    {"kind": "play", "card": deep(900), "queue": 0},
    {"kind": "play", "card": deep(975), "queue": 0},
    {"kind": "goto", "turn": deep(960)},
    {"kind": "k" * 2_000_000},
    {"kind": "goto", "turn": int("9" * 4000)},
    {"kind": "play", "card": "1", "queue": 0, "\x1b[2J" * 100_000: 1},
]


def test_forged_comm_messages_end_on_the_table(kernel: BlockingKernelClient) -> None:
    out, other = execute(kernel, (
        "import tenleave_widget as tw\n"
        "w = tw.play(players=3, human=0, bots=['random'], seed=1, bot_delay=0)\n"
        "print(w.table.model_id, tw.__file__)"
    ))
    assert not problems(other), other
    comm_id, package = out.split()
    assert Path(package).parent == Path(tenleave_widget.__file__).parent  # the code under test
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(5000)  # for this client to encode the deep messages
    try:
        for intent in FORGED:
            before, _ = execute(kernel, "print(w.table.message['id'])")
            msg = kernel.session.msg(
                "comm_msg", {"comm_id": comm_id, "data": {"method": "custom", "content": intent}}
            )
            kernel.shell_channel.send(msg)
            seen = drain(kernel, 1.0)
            deadline = time.monotonic() + 20
            while True:
                now, other = execute(
                    kernel,
                    "import json; print(json.dumps(w.table.message))",
                )
                seen += other
                message = json.loads(now)
                if message["id"] > int(before) or time.monotonic() > deadline:
                    break
                seen += drain(kernel, 0.3)
            label = str(intent)[:60]
            assert not problems(seen), (label, problems(seen))
            assert message["id"] > int(before), (label, "the table's message was not updated")
            assert message["level"] == "error", label
            assert 0 < len(message["text"]) <= SHORT and message["text"].isprintable(), \
                (label, message["text"][:200])
    finally:
        sys.setrecursionlimit(limit)
    state, other = execute(kernel, "print(w.game.turns_applied, w.table.offers['active'])")
    assert state.split() == ["0", "True"] and not problems(other)

