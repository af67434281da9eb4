"""The widget's session without Jupyter, and the bot runner's failure handling."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

from tenleave_widget import Game, Turn
from tenleave_widget.table.protocol import WidgetMessageError
from tenleave_widget.table.session.config import check_config
from tenleave_widget.table.session.machine import Session

GAMES = Path(__file__).resolve().parents[2] / "examples" / "games"


# every module of the presentation model (table/), the engine and the analysis, and the bot
# runner (in widget/, but pure: it paces bots on an event loop)
PACKAGE = Path(__file__).resolve().parents[2] / "tenleave_widget"
PURE = sorted(
    ".".join(p.relative_to(PACKAGE.parent).with_suffix("").parts).removesuffix(".__init__")
    for folder in ("engine", "analysis", "table")
    for p in (PACKAGE / folder).rglob("*.py")
) + ["tenleave_widget.widget.bot_runner"]


def test_the_session_imports_nothing_from_jupyter() -> None:
    assert "tenleave_widget.table.session.machine" in PURE and len(PURE) > 20
    modules = ", ".join(PURE)
    code = (
        f"import sys, {modules}\n"
        "print(sorted({'anywidget', 'ipywidgets', 'traitlets', 'plotly', 'IPython'}"
        " & {m.split('.')[0] for m in sys.modules}))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def session(game: Game, **kwargs: Any) -> Session:
    return Session(game, check_config(game, **kwargs))


def test_a_turn_through_the_session() -> None:
    game = Game(["Ana", "Ben"], seed=1)
    s = session(game, humans=[0], bots={1: "random"})
    assert s.state()["offers"]["active"] and s.state()["status"].startswith("Your turn, Ana")
    assert s.handle({"kind": "play", "card": "3*", "queue": 1}) is False
    state = s.state()
    assert state["view"]["queues"][1][0]["value"] == 3 and state["offers"]["end"]
    assert s.live.turns_applied == 0  # nothing applied before the turn ends
    assert s.handle({"kind": "end"}) is True
    assert s.live.turns == [Turn(0, "3*", 1)] and s.bot_to_move() == 1
    assert s.state()["status"] == "Ben (random bot) is thinking…"
    assert not s.state()["offers"]["active"]
    json.dumps(s.state())  # a table state is JSON


def test_a_refused_intent_changes_nothing() -> None:
    game = Game(2, seed=1)
    s = session(game, humans=[0], bots={1: "random"})
    before = json.dumps(s.state(), sort_keys=True)
    for intent in ({"kind": "end"}, {"kind": "goto", "turn": 0}, {"kind": "undo"},
                   {"kind": "perspective", "seat": None}, {"kind": "play", "card": "9",
                                                             "queue": 0}):
        with pytest.raises(ValueError):
            s.handle(intent)  # type: ignore[arg-type]
    assert json.dumps(s.state(), sort_keys=True) == before


def test_the_hotseat_cover_is_a_public_projection() -> None:
    game = Game(["Ana", "Ben"], seed=2)
    s = session(game, mode="hotseat", humans=[0, 1])
    s.handle({"kind": "play", "card": "1", "queue": 0})
    s.handle({"kind": "end"})
    state = s.state()
    assert state["cover"]["shown"] and state["perspective"] == 1
    assert all(h["cards"] is None for h in state["view"]["hands"])
    assert all(c["value"] is None for q in state["view"]["queues"] for c in q)
    assert state["narration"]["turns"] == [] and not state["offers"]["active"]
    s.handle({"kind": "uncover"})
    assert s.state()["view"] == s.live.view(1)


def test_replay_through_the_session() -> None:
    record = json.loads((GAMES / "game-2-seats.json").read_text())
    game = Game.from_record(record)
    s = session(game, mode="replay", perspective=0, turn=0)
    s.handle({"kind": "goto", "turn": 5})
    assert s.state()["view"] == Game.from_record(record, turns=5).view(0)
    assert s.state()["replay"]["turn"] == 5
    with pytest.raises(WidgetMessageError):
        s.handle({"kind": "play", "card": "1", "queue": 0})


# ------------------------------------------------------------- the bot runner


class Broken:
    """A bot with a bug."""

    name = "broken"

    def choose(self, view: Any, legal: Any) -> Turn:
        raise RuntimeError("a bug in the bot")


class Illegal:
    """A bot that answers with a turn the rules do not allow."""

    name = "illegal"

    def choose(self, view: Any, legal: Any) -> Turn:
        return Turn(view["to_move"], "9", 0)


def vs(bot: Any, delay: float) -> Any:
    from tenleave_widget.widget import TenLeaveWidget

    w = TenLeaveWidget(Game(["Ana", "Ben"], seed=1), humans=[0], bots={1: "random"},
                       bot_delay=delay)
    w._bots.bots[1] = lambda _seed: bot
    return w


@pytest.mark.parametrize("bot", [Broken(), Illegal()])
def test_a_failing_bot_is_shown_not_waited_for(bot: Any, caplog: Any) -> None:
    w = vs(bot, 0)
    w.handle_intent({"kind": "play", "card": "1", "queue": 0})
    w.handle_intent({"kind": "end"})  # the bot fails at once (no delay): shown, logged
    assert w.table.message["level"] == "error"
    assert w.table.message["text"].startswith(
        "Ben (the random bot) could not move; the game is paused — details are in the log"
    )
    detail = "a bug in the bot" if isinstance(bot, Broken) else "not a legal turn"
    assert detail not in json.dumps(w.table.get_state(), default=repr)  # only in the kernel
    assert [(e.seat, e.bot, e.turn) for e in w.errors] == [(1, "random", 1)]
    assert detail in str(w.errors[0]) and detail in caplog.text
    assert not w.table.busy and "thinking" not in w.table.status
    assert "could not move" in w.table.status
    assert w.game.turns_applied == 1  # the human's turn stays; nothing half-applied
    assert any("could not move" in r.getMessage() for r in caplog.records)


@pytest.mark.parametrize("bot", [Broken(), Illegal()])
def test_a_failing_paced_bot_is_shown_not_waited_for(bot: Any) -> None:
    async def scenario() -> dict[str, Any]:
        w = vs(bot, 0.01)
        w.handle_intent({"kind": "play", "card": "1", "queue": 0})
        w.handle_intent({"kind": "end"})
        assert w.table.busy  # the bot is scheduled on the loop
        for _ in range(500):  # not a timing test: wait until the runner gave up
            await asyncio.sleep(0.01)
            if not w.table.busy:
                break
        return {"busy": w.table.busy, "status": w.table.status, "message": w.table.message}

    results: list[dict[str, Any]] = []
    thread = threading.Thread(target=lambda: results.append(asyncio.run(scenario())))
    thread.start()
    thread.join()
    got = results[0]
    assert not got["busy"] and "thinking" not in got["status"]
    assert got["message"]["level"] == "error"


def test_undo_after_a_failed_bot_lets_the_human_play_again() -> None:
    w = vs(Broken(), 0)
    w.handle_intent({"kind": "play", "card": "1", "queue": 0})
    w.handle_intent({"kind": "end"})
    w.handle_intent({"kind": "undo"})
    assert w.game.turns_applied == 0 and w.table.offers["active"]
    assert w.table.status.startswith("Your turn")


def test_a_failed_bot_in_hotseat_with_bots_is_undone_and_the_game_goes_on() -> None:
    """Hot-seat with a bot: undo is refused while the game runs (it is for one player
    against bots), offered once the bot could not move; it takes back the last human's
    turn (Ben's, who played before the bot), and the game goes on from there."""
    from tenleave_widget.widget import TenLeaveWidget

    w = TenLeaveWidget(Game(["Ana", "Ben", "Cy"], seed=1), mode="hotseat", humans=[0, 1],
                       bots={2: "random"}, bot_delay=0)
    working = w._bots.bots[2]
    w._bots.bots[2] = lambda _seed: Broken()
    w.handle_intent({"kind": "play", "card": "1", "queue": 0})
    w.handle_intent({"kind": "end"})
    assert not w.table.offers["undo"]  # not paused: hot-seat has no undo
    with pytest.raises(WidgetMessageError, match="undo is for one player against bots"):
        w.handle_intent({"kind": "undo"})
    w.handle_intent({"kind": "uncover"})
    w.handle_intent({"kind": "play", "card": w.table.offers["play_cards"][0], "queue": 1})
    w.handle_intent({"kind": "end"})
    assert w.game.turns_applied == 2 and [e.seat for e in w.errors] == [2]
    assert w.table.message["text"] == (
        "Cy (the random bot) could not move; the game is paused — details are in the log."
        " Undo takes Ben's last turn back."
    )
    assert w.table.offers["undo"] and "a bug in the bot" not in json.dumps(
        w.table.get_state(), default=repr)
    w._bots.bots[2] = working
    w.handle_intent({"kind": "undo"})
    assert w.game.turns_applied == 1 and w.game.to_move == 1
    assert w.table.message["text"] == "Ben's last turn was taken back."
    assert not w.table.offers["undo"]  # running again: no undo in hot-seat
    w.handle_intent({"kind": "play", "card": w.table.offers["play_cards"][0], "queue": 1})
    w.handle_intent({"kind": "end"})  # the bot moves now (no delay): Ana's turn again
    assert w.game.turns_applied == 3 and w.game.to_move == 0
    assert len(w.errors) == 1
