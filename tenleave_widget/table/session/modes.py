"""What differs between the three modes of a table, one policy object each.

* :class:`PlayMode`: one or more humans against bots; undo for one human against bots.
* :class:`HotseatMode`: several humans on one screen; a cover between them.
* :class:`ReplayMode`: a record stepped through, from the teacher's view or a seat's.

The session (:mod:`.machine`) asks its mode instead of testing ``mode ==``. A policy
reads and changes a session through :class:`ModeSession`, what it needs of one (a
``Protocol``: this module does not import the session, which imports it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from ...engine.errors import excerpt
from ...engine.turn import TurnStep
from ..protocol import Mode, ReplayState, WidgetMessageError
from ..words.narration import seat_name
from ..words.status import PLAYED, WAIT, bot_thinking, replay_turn, turn_of, your_turn

if TYPE_CHECKING:
    from ...engine.game import Game
    from .config import Config

__all__ = ["MODES", "HotseatMode", "ModePolicy", "ModeSession", "PlayMode", "ReplayMode"]


class ModeSession(Protocol):
    """What a mode policy reads and changes of a session (:class:`~.machine.Session` is
    one; mypy checks it where the session passes itself)."""

    config: Config
    humans: list[int]
    bots: dict[int, str]
    history: list[Game]
    turn: int
    seat: int | None
    covered: bool
    busy: bool
    stalled: bool
    pending: list[TurnStep]
    teachers: bool

    @property
    def live(self) -> Game: ...

    def say(self, text: str, level: str = "info") -> None: ...

    def order_from(self, seat: int | None) -> list[int]: ...

    def last_human_turn(self) -> int: ...

    def take_back_to(self, turn: int) -> None: ...

    def cancel_bots(self) -> None: ...


class ModePolicy:
    """A live game (play or hot-seat): the table shows the last position, humans and
    bots move, ``goto`` takes turns back."""

    name: Mode = "play"
    live = True
    """Turns are played (by humans and bots), not only shown."""

    def first_seat(self, session: ModeSession) -> int | None:
        """The seat on screen when the table opens: the first human to move."""
        humans = session.humans
        order = session.order_from(session.live.to_move)
        return next((s for s in order if s in humans), humans[0])

    def shown_index(self, session: ModeSession) -> int:
        """Which position of the history is on the table."""
        return len(session.history) - 1

    def goto(self, session: ModeSession, turn: int) -> None:
        """``w.goto(turn)``: take back every turn after ``turn``."""
        session.cancel_bots()
        session.take_back_to(turn)
        self.after_turn(session)

    def goto_intent(self, session: ModeSession, turn: int) -> None:
        raise WidgetMessageError("go-to-turn is for replay mode")

    def perspective_intent(self, session: ModeSession, seat: int | None) -> None:
        raise WidgetMessageError("the perspective can only be changed in replay mode")

    def load_turn(self, total: int, turn: object) -> int:
        """The turn shown after loading a record of ``total`` turns."""
        if turn is not None:
            raise WidgetMessageError(
                "turn is for replay mode: play continues from the record's end "
                "(then goto(n) takes turns back)"
            )
        return total

    def undo_refusal(self, session: ModeSession) -> str | None:
        """Why undo is not allowed now, or ``None``: undo is for one player against bots,
        and, with several humans, the way on when a bot could not move (the game is
        paused): it takes back the last human's turn and what followed, as in play."""
        if not session.stalled:
            return "undo is for one player against bots"
        if not any(t.seat in session.humans for t in session.live.turns):
            return "there is no turn of a player to take back"
        return None

    def after_turn(self, session: ModeSession) -> None:
        """After a turn (a human's, a bot's, or a take-back)."""

    def redeal_for(self, session: ModeSession) -> int | None:
        """The seat whose unseen cards are dealt again when bots' turns are taken back
        (undo, ``goto``), or ``None``: only one human against bots re-deals (with several
        humans, every hidden card is some human's, known to them)."""
        return None

    def narrated_turns(self, session: ModeSession) -> list[int]:
        """The turns told in words: every turn since the viewer last moved."""
        return turns_since([t.seat for t in session.live.turns], session.seat,
                           session.live.seats)

    def replay_state(self, session: ModeSession) -> ReplayState:
        return {"turn": session.turn, "total": session.turn, "note": "", "note_turn": None}

    def turn_status(self, session: ModeSession, mover: int) -> str:
        """The status line while the game runs and ``mover`` is to move."""
        players = session.live.players
        if mover == session.seat and mover in session.humans:
            if session.busy:
                return WAIT
            if any(s["kind"] == "play" for s in session.pending):
                return PLAYED
            return self.your_turn(session, mover)
        if mover in session.bots:
            if session.stalled:
                return self.stalled_text(session, mover)
            return bot_thinking(seat_name(players, mover), session.bots[mover])
        return turn_of(seat_name(players, mover))

    def undo_whose(self, session: ModeSession) -> str:
        """Whose turn undo takes back, in words: ``"your"`` with one human, else the
        name of the human who played last (``"Ana's"``)."""
        if len(session.humans) == 1:
            return "your"
        last = session.last_human_turn()
        return f"{seat_name(session.live.players, session.live.turns[last].seat)}'s"

    def your_turn(self, session: ModeSession, mover: int) -> str:
        return your_turn(seat_name(session.live.players, mover))

    def stalled_text(self, session: ModeSession, seat: int) -> str:
        """The table's words for a bot that could not move: who, never why (the error's
        text may name a hidden card)."""
        name = seat_name(session.live.players, seat)
        text = (f"{name} (the {session.bots[seat]} bot) could not move; the game is paused"
                " — details are in the log")
        if self.undo_refusal(session) is None:
            text += ". Undo takes " + self.undo_whose(session) + " last turn back"
        return text + "."


class PlayMode(ModePolicy):
    """Humans against bots; with one human, undo (when it reveals nothing)."""

    name: Mode = "play"

    def undo_refusal(self, session: ModeSession) -> str | None:
        """Undo takes back the human's last turn, the bots' answers and the steps of the
        turn in progress; it is refused when any of them revealed a face-down value the
        human has seen: a swat (wake, automatic wake, daybreak) or a peek by the human —
        unless a bot could not move (the game is paused): then undo is the way on, and
        what the human saw is re-dealt with the rest (:mod:`.redeal`)."""
        if len(session.humans) != 1:
            return super().undo_refusal(session)
        human = session.humans[0]
        live = session.live
        mine = [i for i, t in enumerate(live.turns) if t.seat == human]
        if not mine:
            return "there is no turn of yours to take back"
        if session.stalled:
            return None  # a bot failed: undo is the way on (what it takes back is re-dealt)
        why = "cannot undo: {} (face-down values were shown), so it cannot be taken back"
        for step in session.pending:
            if step["kind"] == "peek":
                return why.format("you peeked at a card in this turn")
            if step["kind"] == "wake":
                return why.format("you woke SleepKid in this turn")
        for i in range(mine[-1], live.turns_applied):
            for e in live.events(i):
                if e["kind"] == "swat":
                    who = "your" if live.turns[i].seat == human else (
                        f"{seat_name(live.players, live.turns[i].seat)}'s"
                    )
                    return why.format(f"SleepKid swatted in {who} turn {i + 1}")
                if e["kind"] == "peek" and e["seat"] == human:
                    return why.format(f"you peeked at a card in turn {i + 1}")
        return None

    def redeal_for(self, session: ModeSession) -> int | None:
        return session.humans[0] if len(session.humans) == 1 else None

    def your_turn(self, session: ModeSession, mover: int) -> str:
        text = super().your_turn(session, mover)
        refusal = self.undo_refusal(session)
        if refusal is not None and refusal.startswith("cannot undo"):
            text += " (No undo: a swat or your peek has shown cards since your last turn.)"
        return text


class HotseatMode(ModePolicy):
    """Several humans on one screen: when another human is to move, a cover hides the
    table until they are ready."""

    name: Mode = "hotseat"

    def after_turn(self, session: ModeSession) -> None:
        nxt = session.live.to_move
        if nxt is not None and nxt in session.humans and nxt != session.seat:
            session.seat = nxt
            session.covered = True


class ReplayMode(ModePolicy):
    """A record stepped through: nobody moves; the perspective is a choice."""

    name: Mode = "replay"
    live = False

    def first_seat(self, session: ModeSession) -> int | None:
        return session.config.perspective

    def shown_index(self, session: ModeSession) -> int:
        return session.turn

    def goto(self, session: ModeSession, turn: int) -> None:
        self.goto_intent(session, turn)

    def goto_intent(self, session: ModeSession, turn: int) -> None:
        total = len(session.history) - 1
        if not 0 <= turn <= total:
            raise WidgetMessageError(f"turn must be 0..{total}, not {turn}")
        session.turn = turn
        session.say("")

    def perspective_intent(self, session: ModeSession, seat: int | None) -> None:
        if seat is not None and not 0 <= seat < session.live.seats:
            raise WidgetMessageError(f"seat {seat} does not exist")
        locked = session.config.perspective
        if session.config.locked and seat != locked:
            name = seat_name(session.live.players, locked or 0)
            raise WidgetMessageError(f"this replay stays in {name}'s view: it cannot show "
                                     "another")
        session.seat = seat
        session.say("")

    def load_turn(self, total: int, turn: object) -> int:
        shown = 0 if turn is None else turn
        if type(shown) is not int or not 0 <= shown <= total:
            raise WidgetMessageError(f"turn must be an integer 0..{total}, not {excerpt(turn)}")
        return shown

    def narrated_turns(self, session: ModeSession) -> list[int]:
        return [session.turn - 1] if session.turn > 0 else []

    def replay_state(self, session: ModeSession) -> ReplayState:
        notes = session.live.notes
        note_turn = session.turn - 1 if session.turn > 0 else None
        note = notes.get(note_turn, "") if note_turn is not None else ""
        if note and session.seat is not None:
            # A note is free text by the teacher: it may name values this seat does not
            # know, so a seat's view of the teacher's table only says that there is one; a
            # student's own replay does not point to it.
            note = ("(a teacher's note: switch to the teacher's view to read it)"
                    if session.teachers else "")
        return {
            "turn": session.turn,
            "total": len(session.history) - 1,
            "note": note,
            "note_turn": note_turn if note else None,
        }

    def turn_status(self, session: ModeSession, mover: int) -> str:
        return replay_turn(session.turn + 1, seat_name(session.live.players, mover))


def turns_since(played: list[int], seat: int | None, seats: int) -> list[int]:
    """The indices of the last turns of ``played`` (the seat of each turn, in order) that
    ``seat`` has not answered yet: back to and with its own last turn, at most one round of
    ``seats`` turns; ``[]`` when nothing was played.

    >>> turns_since([0, 1, 2, 0, 1], 0, 3)
    [3, 4]
    >>> turns_since([0, 1], None, 3)
    [0, 1]
    """
    start = len(played) - 1
    while start > 0 and played[start] != seat and len(played) - start < seats:
        start -= 1
    return list(range(max(start, 0), len(played)))


MODES: dict[str, ModePolicy] = {m.name: m for m in (PlayMode(), HotseatMode(), ReplayMode())}
