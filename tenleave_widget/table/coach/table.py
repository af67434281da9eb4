"""What the table shows of the coach (:mod:`.verdicts`), and the coach's intents: a mixin of
:class:`~..session.machine.Session`.

- *The control* (``{"kind": "coach", "mode": ...}``): ``off``, ``after`` or ``before``, in
  play and hot-seat modes, not behind the cover.
- *"Are you sure?"* (``before``, :mod:`.check`): *End turn* on a turn that loses more
  than the threshold on the screen keeps the turn in progress and asks
  (:class:`~..protocol.CoachAsk`); until it is answered (``{"kind": "confirm", "answer":
  "play" | "back"}``) the seat may do nothing else. *Play it anyway* ends the turn as
  chosen; *Take it back* takes back its steps that revealed nothing (as *Start the turn
  again* does: a peek or a wake stays).
- *"Show me"* (``{"kind": "showme", "turn": k}``): the position before turn ``k`` as the
  seat saw it, with the better move drawn as the review draws its best move
  (:class:`~..protocol.BestMove`): a turn the coach judged for the seat on screen, or the
  turn it asks about. ``turn: null`` goes back to the game. The seat cannot play while
  it looks (the bots go on).
- *At game over*: the seat's tally in words and its decisions worth a second look (the
  largest losses labelled inaccuracy or worse), each a "Show me" of that turn: the
  finished game's table moved back to it, as a replay would be.

Secrecy: all of it is the seat on screen's own (its verdicts, its view then), never
behind the hot-seat cover.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal, cast

from ...analysis.review import LABELS, ScreenLoss, turn_text
from ...engine.turn import AFTER, Turn, TurnStep
from ...engine.view import View
from ..protocol import BestMove, CoachLook, CoachState, WidgetMessageError
from ..session.offers import final_steps
from ..words.coach import (
    MODE_SAID,
    NO_TIME,
    TAKEN_BACK,
    TAKEN_BACK_KEPT,
    look_text,
    show_status,
    show_text,
)
from .check import ask_words
from .verdicts import COACH_MODES, Coach, Verdict, tally_words

if TYPE_CHECKING:
    from ...engine.game import Game
    from ..session.modes import ModePolicy

__all__ = ["LOOKS", "CoachTable", "drawn_move"]

LOOKS = 3
"""At game over, how many decisions worth a second look are listed (the largest losses)."""

SECOND_LOOK = LABELS[2:]
"""The labels worth a second look: inaccuracy, mistake, blunder."""


def drawn_move(best: Turn, text: str) -> BestMove:
    """A turn as the table draws a best move: its card and queue, its rotation (before or
    after the play) and its wake (a peek is not drawn)."""
    when: Literal["before", "after"] | None = None
    if best.rotate is not None:
        when = "after" if best.extra == AFTER else "before"
    return {"card": best.card, "queue": best.queue, "rotate": best.rotate,
            "rotate_when": when, "wake": best.wake, "text": text}


class CoachTable:
    """The coach half of a session (see the module docstring)."""

    coach: Coach
    seat: int | None
    covered: bool
    humans: list[int]
    history: list[Game]
    pending: list[TurnStep]
    mode: ModePolicy

    asking: dict[str, Any] | None = None
    """The question asked: ``{"turn", "seat", "loss"}`` (a :class:`ScreenLoss`)."""
    showing: tuple[int, int] | None = None
    """"Show me": (turn, seat) — the position before that turn, for that seat."""

    if TYPE_CHECKING:
        @property
        def live(self) -> Game: ...

        def say(self, text: str, level: str = "info") -> None: ...

        def shown(self) -> Game: ...

        def end_turn(self) -> bool: ...

        preview: Game | None

    # ------------------------------------------------------------------ intents
    def coach_intent(self, intent: dict[str, Any]) -> bool:
        """Handle a coach intent (``coach``, ``confirm``, ``showme``); True if the turns
        changed (a turn played anyway)."""
        if intent["kind"] == "coach":
            self._set_coach(intent["mode"])
        elif intent["kind"] == "showme":
            self._show_me(intent["turn"])
        else:
            return self._confirm(intent["answer"])
        return False

    def _set_coach(self, mode: str) -> None:
        if not self.mode.live:
            raise WidgetMessageError("the coach is for play and hot-seat: a replay has a review")
        if self.covered:
            raise WidgetMessageError("the screen is covered: the next player must uncover it")
        if mode not in COACH_MODES:
            raise WidgetMessageError(f"the coach must be one of {', '.join(COACH_MODES)}")
        self.coach.mode = mode
        if mode != "before":
            self.asking = None
            self.coach.check.forget()
        self.say(MODE_SAID[mode])

    def _confirm(self, answer: object) -> bool:
        if self.asking is None:
            raise WidgetMessageError("the coach has not asked anything")
        if answer not in ("play", "back"):
            raise WidgetMessageError("the answer must be 'play' (play it anyway) or 'back'")
        self.asking = None
        self.showing = None
        if answer == "play":
            return self.end_turn()
        keep = final_steps(self.pending)
        self.pending = self.pending[:keep]
        self.preview = self.live.preview(self.pending) if self.pending else None
        self.say(TAKEN_BACK if not keep else TAKEN_BACK_KEPT)
        return False

    def _show_me(self, turn: object) -> None:
        if turn is None:
            if self.showing is None:
                raise WidgetMessageError("the coach is not showing anything")
            self.showing = None
            self.say("")
            return
        if self.covered or self.seat is None:
            raise WidgetMessageError("the screen is covered: the next player must uncover it")
        assert isinstance(turn, int)
        if self._better(turn) is None:
            raise WidgetMessageError(
                f"the coach has no better move to show for turn {turn + 1} of this seat"
            )
        self.showing = (turn, self.seat)

    # ---------------------------------------------------------------- ending a turn
    def coach_asks(self, turn: Turn) -> bool:
        """*End turn* on ``turn``: whether the coach asks first (it then holds the turn;
        the answer comes as a ``confirm``). A check not ready lets the turn pass."""
        if self.coach.mode != "before":
            return False
        k = self.live.turns_applied
        s = self.coach.check.loss(k, turn.seat, turn)
        if s is None:
            self.coach_note = NO_TIME
            return False
        self.coach_note = ""
        if not self.coach.check.asks(s):
            return False
        self.asking = {"turn": k, "seat": turn.seat, "loss": s}
        self.say("")
        return True

    coach_note: str = ""
    """Said after a turn the coach could not check in time (``before``)."""

    def coach_wants(self) -> tuple[int, int, View] | None:
        """``before``: the decision to screen now — (turn, seat, its view) of the human
        seat to move at the live position — or ``None``."""
        g = self.live
        if self.coach.mode != "before" or not self.mode.live or g.finished:
            return None
        seat = g.to_move
        if seat is None or seat not in self.humans:
            return None
        return g.turns_applied, seat, g.view(seat)

    def coach_forget(self) -> None:
        """The line changed (a take-back, a load, another game): no question, no showing."""
        self.asking = None
        self.showing = None
        self.coach.check.forget()

    # ------------------------------------------------------------------- drawing
    def coach_view(self, turn: int) -> View | None:
        """The seat on screen's view just before ``turn`` (what its coach's words may name),
        or ``None`` when there is no such turn or no seat."""
        if self.seat is None or not 0 <= turn < len(self.history):
            return None
        return self.history[turn].view(self.seat)

    def _better(self, turn: int) -> tuple[Turn, str, str, list[str]] | None:
        """The better move of the seat on screen at ``turn`` (the analysis's best), its
        words, the words of the turn played and the moves about as good as the best
        (``[]`` where it is clearly best), or ``None``."""
        a = self.asking
        if a is not None and a["turn"] == turn and a["seat"] == self.seat:
            s = cast(ScreenLoss, a["loss"])
            return (s.best, turn_text(s.best, words=True), turn_text(s.played, words=True),
                    self.coach.check.equal(turn, s.played.seat))
        v = self.coach.of_turn(turn)
        if v is None or v["seat"] != self.seat or v["best"] == v["played"]:
            return None
        best = Turn.from_json(dict(v["best"]))
        played = Turn.from_json(dict(v["played"]))
        return (best, turn_text(best, words=True), turn_text(played, words=True),
                self.coach.equal_of(turn))

    def shown_turn(self) -> int | None:
        """The turn "Show me" shows the position before, for the seat on screen, or None."""
        if self.showing is None or self.covered or self.showing[1] != self.seat:
            return None
        return self.showing[0] if self.showing[0] < len(self.history) else None

    def coach_best(self) -> BestMove | None:
        """"Show me": the better move to draw on the position before the turn (the
        analysis's best; where others are about as good, the words name them too)."""
        k = self.shown_turn()
        found = None if k is None else self._better(k)
        if found is None:
            return None
        best, text, played, equal = found
        return drawn_move(best, show_text(text, played, equal))

    def coach_status(self) -> str:
        """The status line while "Show me" is on, else ``""``."""
        k = self.shown_turn()
        found = None if k is None else self._better(k)
        if k is None or found is None:
            return ""
        _, text, played, equal = found
        return show_status(k, text, played, equal)

    def coach_state(self) -> CoachState:
        """The coach as the seat on screen may see it (nothing behind the cover)."""
        mode = cast(Literal["off", "after", "before"], self.coach.mode)
        out: CoachState = {"mode": mode, "control": self.mode.live and not self.covered,
                           "ask": None, "show": None, "showing": None, "summary": "",
                           "looks": []}
        seat = self.seat
        if self.covered or seat is None or not self.mode.live:
            return out
        a = self.asking
        if a is not None and a["seat"] == seat:
            out["ask"] = ask_words(cast(ScreenLoss, a["loss"]),
                                   self.coach.check.equal(a["turn"], seat),
                                   self.coach_view(a["turn"]))
        out["showing"] = self.shown_turn()
        mine = [v for v in self.coach.verdicts if v["seat"] == seat]
        better = [v for v in mine if v["best"] != v["played"]]
        if better:
            out["show"] = better[-1]["turn"]
        if self.live.finished and seat in self.humans and mine:
            t = self.coach.tally(seat)
            out["summary"] = tally_words(t, lead="Your game")
            out["looks"] = self._looks(mine)
        return out

    def _looks(self, mine: list[Verdict]) -> list[CoachLook]:
        worth = [v for v in mine if v["label"] in SECOND_LOOK and v["best"] != v["played"]]
        worth = sorted(worth, key=lambda v: -float(v["loss"]))[:LOOKS]
        return [{"turn": v["turn"], "text": look_text(
                    v["turn"], v["label"], Turn.from_json(dict(v["played"])),
                    Turn.from_json(dict(v["best"])), float(v["loss"]),
                    self.coach.equal_of(v["turn"]), self.coach_view(v["turn"]),
                    v.get("near"))}
                for v in sorted(worth, key=lambda v: v["turn"])]
