"""The dealer server on a real socket: whole games over the wire, each seat sent only its
view, the teacher only the public state; bad frames refused one by one with the game
unchanged; the store resuming every game after a restart; bots and idle seats."""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
import ssl
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed, WebSocketException

from tenleave_widget import Game
from tenleave_widget.analysis.infer import with_history
from tenleave_widget.engine.errors import SetupError
from tenleave_widget.engine.record import load_record
from tenleave_widget.programs.dealer.client import Client
from tenleave_widget.programs.dealer.dealer import Dealer
from tenleave_widget.programs.dealer.stand_in import stand_in
from tenleave_widget.programs.dealer.store import Store
from tenleave_widget.programs.dealer.wire import MAX_FRAME, public_view

from .harness import choose, play_all, served, start_serve, table, teacher


def test_a_whole_game_each_seat_sees_only_its_view(tmp_path: Path) -> None:
    """Two students and a bot play a whole game: every state frame a seat receives is
    the engine's view of that seat at that moment, every frame the teacher receives holds
    no face-down value, and the finished game is a valid record in the records folder."""

    async def main() -> None:
        async with served(tmp_path / "class.db", seed=1) as s:
            watcher = await teacher(s.url, s.token)
            t = await table(s.url, s.token, 3, bots={"1": "random"})
            game = s.dealer.tables[t["table"]].game
            students = [Client(s.url), Client(s.url)]
            for c, name in zip(students, ["Ana", "Cy"], strict=True):
                await c.join(t["code"], name)
            assert [c.seat for c in students] == [0, 2]
            await students[0].expect("state")  # Cy's name, in Ana's view too

            def now(v: dict[str, Any]) -> None:  # the view a seat plays from is the game's
                assert v == game.view(v["seat"])

            seen = sum(await play_all(students, 3, check=now))
            for c in students:
                for text in c.frames:
                    msg = json.loads(text)
                    if msg["kind"] == "state":
                        assert msg["seat"] == c.seat and msg["view"]["seat"] == c.seat
                await c.close()
            assert seen == 2 * 10  # every card of the two students' hands
            assert game.players == ["Ana", "random bot", "Cy"]
            while True:  # the teacher's frames: public state only
                msg = await watcher.recv()
                view = msg["table"]["view"]
                assert view["seat"] is None and all(h["cards"] is None for h in view["hands"])
                assert all(c["value"] is None for q in view["queues"] for c in q)
                if msg["table"]["finished"]:
                    assert view == public_view(game)
                    break
            await watcher.close()
        record = load_record(tmp_path / "class-records" / f"{t['table']}.json")
        assert Game.from_record(record).finished and record["players"][0] == "Ana"
        assert record == game.to_record()

    asyncio.run(main())


def bad_frames(seat: int, other: int) -> list[tuple[str | bytes, str]]:
    """Hostile frames and the fault each must be refused with."""
    w = '"wire":"tenleave-wire/1"'
    return [
        ("{not json", "malformed"),
        (b"\xff\xfe", "malformed"),
        ("[1, 2]", "malformed"),
        ('{"kind":"turn"}', "version"),
        ('{"wire":"tenleave-wire/2","kind":"turn"}', "version"),
        ("{" + w + ',"kind":"shuffle"}', "unknown-kind"),
        ("{" + w + ',"kind":"turn","at":0,"turn":"3* 0"}', "bad-field"),
        ("{" + w + ',"kind":"turn","turn":{"play":["1",0]}}', "bad-field"),
        ("{" + w + f',"kind":"turn","at":5,"turn":{{"seat":{seat},"play":["1",0]}}}}', "stale"),
        ("{" + w + f',"kind":"turn","at":0,"turn":{{"seat":{other},"play":["1",0]}}}}',
         "wrong-seat"),
        ("{" + w + ',"kind":"turn","at":0,"turn":{"seat":true,"play":["1",0]}}', "wrong-seat"),
        ("{" + w + f',"kind":"turn","at":0,"turn":{{"seat":{seat},"play":["9",0]}}}}',
         "illegal-turn"),
        ("{" + w + f',"kind":"turn","at":0,"turn":{{"seat":{seat},"play":["1",7]}}}}',
         "illegal-turn"),
        ("{" + w + f',"kind":"turn","at":0,"turn":{{"seat":{seat},"play":["1",0],"wake":true}}}}',
         "illegal-turn"),
        ("{" + w + ',"kind":"undo"}', "no-undo"),
        ("{" + w + ',"kind":"create","players":3}', "forbidden"),
        ("{" + w + ',"kind":"resume","token":"x"}', "forbidden"),
        ("{" + w + ',"kind":"ping","pad":"' + "x" * MAX_FRAME + '"}', "too-large"),
    ]


def test_every_bad_frame_gets_one_error_and_changes_nothing(tmp_path: Path) -> None:
    async def main() -> None:
        async with served(tmp_path / "s.db", seed=2) as s:
            t = await table(s.url, s.token, 2)
            a, b = Client(s.url), Client(s.url)
            await a.join(t["code"], "Ana")
            await b.join(t["code"], "Ben")
            await a.expect("state")  # Ben's name
            game = s.dealer.tables[t["table"]].game
            before = game.copy()
            for client, seat, other in ((a, 0, 1), (b, 1, 0)):
                for text, fault in bad_frames(seat, other):
                    if fault == "illegal-turn" and seat != game.to_move:
                        fault = "not-your-turn"
                    await client.send_text(text)
                    msg = await client.expect("error")
                    assert msg["fault"] == fault, (text, msg)
                    assert game == before and game.turns_applied == 0
                await client.send("ping")  # the connection is kept
                await client.expect("pong")
            # b's turn before a's: not b's turn (a reply of its own kind)
            await b.play({"seat": 1, "play": ["1", 0]})
            assert (await b.expect("error"))["fault"] == "not-your-turn"
            # a real turn, then the same frame again (a replay): refused, nothing changed
            await a.play({"seat": 0, "play": ["1", 0]})
            await a.expect("state")
            await b.expect("state")
            after = game.copy()
            await a.play({"seat": 0, "play": ["1", 0]}, at=0)
            assert (await a.expect("error"))["fault"] == "stale"
            await a.play({"seat": 0, "play": ["1", 0]})
            assert (await a.expect("error"))["fault"] == "not-your-turn"
            assert game == after
            # joining with a bad code, a full table, a forged token, a forged teacher
            for hello, fault in ((dict(kind="join", code="ZZZZZZ", name="Eve"), "bad-code"),
                                 (dict(kind="join", code=t["code"], name="Eve"), "table-full"),
                                 (dict(kind="resume", token=a.token + "x"), "bad-token"),
                                 (dict(kind="teacher", token=a.token), "bad-token"),
                                 (dict(kind="turn", turn={"play": ["1", 0]}), "not-seated")):
                eve = Client(s.url)
                await eve.open()
                await eve.send(**hello)  # type: ignore[arg-type]
                assert (await eve.expect("error"))["fault"] == fault
                await eve.close()
            assert game == after

    asyncio.run(main())


def test_a_flood_gets_one_error_frame_then_the_connection_closes() -> None:
    async def main() -> None:
        async with served(seed=3) as s:
            t = await table(s.url, s.token, 2)
            a = Client(s.url)
            await a.join(t["code"], "Ana")
            assert a.ws is not None
            for _ in range(200):
                try:
                    await a.send("ping")
                except ConnectionClosed:
                    break
            kinds = []
            with pytest.raises(ConnectionClosed) as closed:
                while True:
                    kinds.append((await a.recv())["kind"])
            assert kinds.count("error") == 1 and kinds[-1] == "error"
            assert set(kinds) == {"pong", "error"}
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
            assert "flood" in closed.value.rcvd.reason
            # the seat is kept: its token resumes it
            again = Client(s.url)
            await again.resume(a.token)
            assert again.seat == 0

    asyncio.run(main())


def test_a_restarted_server_resumes_every_game_where_it_was(tmp_path: Path) -> None:
    """Turns are committed before they are broadcast: after a restart on the same store
    every table is at its last turn, each seat's token resumes it with the full state,
    and the game goes on to the end; nothing in the store is a seat's token."""
    store = tmp_path / "class.db"

    async def first() -> tuple[str, list[str], list[dict[str, Any]], str]:
        async with served(store) as s:
            t = await table(s.url, s.token, 3, bots={"2": "greedy"})
            cs = [Client(s.url), Client(s.url)]
            for c, name in zip(cs, ["Ana", "Ben"], strict=True):
                await c.join(t["code"], name)
            game = s.dealer.tables[t["table"]].game
            await play_all(cs, 5, until=12)
            views = [game.view(s) for s in range(3)]
            return t["table"], [c.token or "" for c in cs], views, s.token

    table_id, tokens, views, teacher_token = asyncio.run(first())
    data = b"".join(p.read_bytes() for p in tmp_path.iterdir() if p.is_file())
    assert all(tok.encode() not in data for tok in tokens)

    async def second() -> None:
        async with served(store) as s:
            assert s.token == teacher_token
            game = s.dealer.tables[table_id].game
            assert game.turns_applied >= 12
            cs = [Client(s.url), Client(s.url)]
            for seat, (c, tok) in enumerate(zip(cs, tokens, strict=True)):
                await c.resume(tok)
                assert c.seat == seat and c.view == with_history(game, seat)
                # what a student's kernel can rebuild from the wire alone
                assert stand_in(c.view).view(seat) == game.view(seat)
                if game.turns_applied == 12:
                    assert {k: v for k, v in c.view.items() if k != "history"} == views[seat]
            await play_all(cs, 6)
            assert Game.from_record(game.to_record()).finished

    asyncio.run(second())
    db = sqlite3.connect(store)
    assert db.execute("SELECT COUNT(*) FROM turns").fetchone()[0] == 30  # 3 seats x 10
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_an_idle_seat_is_played_by_a_bot_until_its_student_returns() -> None:
    async def main() -> None:
        async with served(seed=4) as s:
            t = await table(s.url, s.token, 2, idle=0.05, idle_bot="random")
            a, b = Client(s.url), Client(s.url)
            await a.join(t["code"], "Ana")
            await b.join(t["code"], "Ben")
            tab = s.dealer.tables[t["table"]]
            await b.close()  # Ben leaves; Ana waits: the stand-ins play both seats
            while tab.game.turns_applied < 4:
                await a.recv()
            assert tab.stand_in_turns >= 4
            back = Client(s.url)
            await back.resume(b.token)  # the stand-ins may have played on since: the
            # view is the game's after the turns it says
            assert back.view is not None
            k = back.view["turns_applied"]
            assert back.view == with_history(Game.from_record(tab.game.to_record(), k), 1)

    asyncio.run(main())


def test_serve_refuses_a_missing_certificate_in_one_line(tmp_path: Path) -> None:
    p = subprocess.run([sys.executable, "-m", "tenleave_widget", "serve", "--port", "0",
                        "--certfile", str(tmp_path / "none.pem")],
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 2 and p.stdout == ""
    assert p.stderr.startswith("tenleave: cannot use the certificate") and \
        p.stderr.count("\n") == 1


@pytest.mark.parametrize(("option", "value", "said"), [
    ("--port", "99999", "the port must be a whole number 0..65535 (0: any free port), not 99999"),
    ("--port", "-5", "the port must be a whole number 0..65535 (0: any free port), not -5"),
    ("--bot-delay", "-1", "the bots' delay must be a number of seconds 0..60, not -1.0"),
    ("--bot-delay", "nan", "the bots' delay must be a number of seconds 0..60, not nan"),
    ("--bot-delay", "inf", "the bots' delay must be a number of seconds 0..60, not inf"),
])
def test_serve_refuses_a_bad_port_or_delay_in_one_line_before_opening_anything(
        tmp_path: Path, option: str, value: str, said: str) -> None:
    store = tmp_path / "class.db"
    p = subprocess.run([sys.executable, "-m", "tenleave_widget", "serve", "--port", "0",
                        "--store", str(store), option, value],
                       capture_output=True, text=True, timeout=60)
    assert (p.returncode, p.stdout, p.stderr) == (2, "", f"tenleave: {said}\n")
    assert list(tmp_path.iterdir()) == []  # no store, no records folder


@pytest.mark.parametrize("delay", [-0.5, float("nan"), float("inf"), 61, True, "1"])
def test_a_dealer_refuses_a_bot_delay_that_is_not_a_wait(delay: object) -> None:
    with pytest.raises(SetupError, match=r"^the bots' delay must be a number of seconds "
                                         r"0\.\.60, not "):
        Dealer(Store(":memory:"), bot_delay=delay)  # type: ignore[arg-type]


def test_tls_with_a_certificate_serves_wss(tmp_path: Path) -> None:
    """``--certfile`` (key in the same file): the address is wss://, a client that trusts
    the certificate plays, a plain ws:// client gets nothing."""
    pem = tmp_path / "dealer.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                    "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
                    "-keyout", str(pem), "-out", str(pem)],
                   check=True, capture_output=True, timeout=60)
    trust = ssl.create_default_context(cafile=str(pem))

    async def main() -> None:
        async with served(seed=5, certfile=pem) as s:
            assert s.url.startswith("wss://127.0.0.1:")
            t = Client(s.url, ssl=trust)
            await t.teacher(s.token)
            made = await t.create(2)
            a = Client(s.url, ssl=trust)
            await a.join(made["code"], "Ana")
            await a.play({"play": ["1", 0]})
            assert (await a.expect("state"))["view"]["turns_applied"] == 1
            with pytest.raises((OSError, WebSocketException)):
                await Client(s.url.replace("wss://", "ws://")).open()

    asyncio.run(main())


def test_each_turn_is_in_the_store_before_any_frame_tells_of_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every broadcast finds its turn already committed (read back through a second
    connection to the file); a turn the store refuses is refused to its seat with the
    fault ``store``, the game unchanged and nothing broadcast."""
    from tenleave_widget.programs.dealer import dealer as dealer_module
    from tenleave_widget.programs.dealer.store import Store

    store = tmp_path / "s.db"
    checked: list[int] = []
    broadcast = dealer_module.Dealer._broadcast

    def checking(self: Any, table: Any) -> None:
        committed = sqlite3.connect(store).execute(
            "SELECT COUNT(*) FROM turns WHERE table_id = ?", (table.id,)).fetchone()[0]
        assert committed == table.game.turns_applied
        checked.append(committed)
        broadcast(self, table)

    monkeypatch.setattr(dealer_module.Dealer, "_broadcast", checking)

    async def main() -> None:
        async with served(store, seed=6) as s:
            t = await table(s.url, s.token, 2, bots={"1": "random"})
            a = Client(s.url)
            await a.join(t["code"], "Ana")
            game = s.dealer.tables[t["table"]].game
            await play_all([a], 1, until=6)

            def refuse(*args: Any) -> None:
                raise sqlite3.OperationalError("disk I/O error")

            monkeypatch.setattr(Store, "add_turn", refuse)
            while a.view is None or a.view["to_move"] != 0:
                await a.recv()
            before, sent = game.copy(), len(checked)
            await a.play(choose(a.view, random.Random(1)))
            msg = await a.expect("error")
            assert msg["fault"] == "store" and game == before and len(checked) == sent

    asyncio.run(main())
    assert checked and checked[-1] >= 6


def test_the_teacher_creates_a_table_of_a_variant() -> None:
    """``create`` with a record's ``rules`` (other Human Defense tokens): the table's game
    plays them; a bad variant is refused naming it."""
    tokens = {"A": [1], "B": [2], "C": [3, 4]}

    async def main() -> None:
        async with served(seed=8) as s:
            t = await teacher(s.url, s.token)
            made = await t.create(3, rules={"tokens": tokens})
            game = s.dealer.tables[made["table"]].game
            assert game.rules.to_json()["tokens"] == tokens
            assert made["view"]["rules"]["tokens"] == tokens
            await t.send("create", players=3, rules={"tokens": {"A": [9]}})
            msg = await t.expect("error")
            assert msg["fault"] == "bad-field" and "create:" in msg["message"]
            await t.send("create", players=6)
            assert (await t.expect("error"))["fault"] == "bad-field"
            await t.send("create", players=3, bots={"7": "random"})
            assert (await t.expect("error"))["fault"] == "bad-field"

    asyncio.run(main())


def test_a_server_killed_mid_game_resumes_it_where_it_was(tmp_path: Path) -> None:
    """SIGKILL mid-game, then the same command on the same store and port: each student's
    token resumes its seat at the turn it last saw or later, never earlier, and the game
    goes on to a valid end; SIGTERM then ends the server cleanly (143, one line)."""
    import signal

    store = tmp_path / "class.db"

    async def main() -> None:
        procs = []
        try:
            proc, url, token = await start_serve(store)
            procs.append(proc)
            t = await table(url, token, 3, bots={"1": "random"})
            cs = [Client(url), Client(url)]
            for c, name in zip(cs, ["Ana", "Cy"], strict=True):
                await c.join(t["code"], name)
            await play_all(cs, 3, until=12)
            seen = [c.view["turns_applied"] for c in cs if c.view is not None]
            proc.send_signal(signal.SIGKILL)
            await asyncio.wait_for(proc.wait(), 30)
            port = int(url.rsplit(":", 1)[1])
            proc, url2, token2 = await start_serve(store, port)
            procs.append(proc)
            assert (url2, token2) == (url, token)
            again = [Client(url), Client(url)]
            for c, old, k in zip(again, cs, seen, strict=True):
                await c.resume(old.token)
                assert c.view is not None and c.view["turns_applied"] >= k
            await play_all(again, 4)
            proc.send_signal(signal.SIGTERM)  # with students connected
            assert await asyncio.wait_for(proc.wait(), 60) == 143
            assert proc.stderr is not None
            assert (await proc.stderr.read()).decode() == "tenleave: terminated\n"
        finally:  # a failed assertion leaves no server running
            for proc in procs:
                if proc.returncode is None:
                    proc.kill()
                    await proc.wait()

    asyncio.run(main())
    folder = tmp_path / "class-records"
    record = load_record(next(folder.iterdir()))
    assert Game.from_record(record).finished and len(record["turns"]) == 30
