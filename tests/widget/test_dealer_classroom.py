"""The teacher's classroom at a real dealer on 127.0.0.1: tables created with seats, bots
and the Human Defense variant, each table's join code, who sits where and how far its
game is, and the class report of the finished games; typed errors for bad arguments and
a bad token."""

from __future__ import annotations

import random

import pytest
from programs.dealer.harness import call_in, served_in_thread

from tenleave_widget.programs.dealer.wire import WireError
from tenleave_widget.table.protocol import WidgetMessageError
from tenleave_widget.widget.classroom import classroom
from tenleave_widget.widget.remote import join

from .test_remote import my_turn, play_one, until


def test_the_teacher_creates_tables_watches_them_and_opens_the_class_report() -> None:
    with served_in_thread(seed=41, bot_delay=0) as s:
        room = classroom(s.url, s.token)
        try:
            assert room.tables == []
            assert "No table yet" in room.view.value
            room.create(players=2, bots=1, bot="random", token_change=False)
            room.create(players=3)
            until(lambda: len(room.tables) == 2, 10, "two tables")
            first, second = room.tables
            assert [x["kind"] for x in first["seats"]] == ["human", "bot"]
            dealer_table = call_in(s, lambda: s.dealer.tables[first["table"]])
            assert dealer_table.game.rules.daybreak_token_change is False
            assert [x["kind"] for x in second["seats"]] == ["human"] * 3
            until(lambda: first["code"] in room.view.value, 10, "the codes shown")
            assert second["code"] in room.view.value
            w = join(s.url, first["code"], "<b>Ana</b>", show_odds=False)
            try:
                until(lambda: room.tables[0]["seats"][0]["connected"], 10, "Ana seated")
                until(lambda: "&lt;b&gt;Ana&lt;/b&gt;" in room.view.value, 10, "Ana shown")
                assert "<b>Ana</b>" not in room.view.value  # names are escaped
                with pytest.raises(WidgetMessageError, match="no game has finished"):
                    room.report(samples=2)
                rng = random.Random(3)
                game = dealer_table.game
                while not call_in(s, lambda: game.finished):
                    if my_turn(w):
                        play_one(w, rng)
                until(lambda: room.tables[0]["finished"], 10, "the end shown")
                until(lambda: "finished" in room.view.value, 10, "the end in the view")
            finally:
                w.close()
            # the teacher's frames and view never hold a face-down value of a game going on
            assert all(c["value"] is None for q in room.tables[1]["view"]["queues"] for c in q)
            c = room.report(samples=2)
            assert len(c.games) == 1
            assert "<iframe" in room.report_view.value and "srcdoc" in room.report_view.value
            for bad, words in [(dict(players=6), "players"), (dict(bots=3), "bots"),
                               (dict(bot="clever"), "bot"), (dict(token_change="no"),
                                                            "token_change"),
                               (dict(idle=-1), "idle")]:
                with pytest.raises(WidgetMessageError, match=words):
                    room.create(**bad)  # type: ignore[arg-type]
        finally:
            room.close()


def test_classroom_refuses_a_bad_token_and_bad_arguments() -> None:
    with served_in_thread(seed=42) as s:
        with pytest.raises(WireError) as e:
            classroom(s.url, "not-the-token")
        assert e.value.fault == "bad-token"
        for args, words in [(("http://x", s.token), "url"), ((s.url, ""), "token"),
                            ((s.url, 5), "token")]:
            with pytest.raises(WidgetMessageError, match=words):
                classroom(*args)  # type: ignore[arg-type]
        with pytest.raises(WidgetMessageError, match="timeout"):
            classroom(s.url, s.token, timeout=0)


@pytest.mark.parametrize("timeout", [0, -1, True, "10", float("nan"), float("inf"), 10**400,
                                     3601])
def test_every_wait_for_the_dealer_refuses_a_timeout_no_clock_can_time(timeout: object) -> None:
    """``join``, ``classroom`` and the classroom's ``report``: a timeout outside (0, 3600]
    seconds (NaN and an infinite or huge one raised ``OverflowError`` from the clock, or
    never ended) is refused at once, naming it, before anything is sent."""
    said = r"^timeout must be seconds, more than 0 and at most 3600, not "
    with served_in_thread(seed=43) as s:
        with pytest.raises(WidgetMessageError, match=said):
            classroom(s.url, s.token, timeout=timeout)  # type: ignore[arg-type]
        with pytest.raises(WidgetMessageError, match=said):
            join(s.url, "ABCD22", "Ana", timeout=timeout)  # type: ignore[arg-type]
        room = classroom(s.url, s.token)
        try:
            with pytest.raises(WidgetMessageError, match=said):
                room.report(timeout=timeout)  # type: ignore[arg-type]
            assert room.report_view.value == ""
        finally:
            room.close()
