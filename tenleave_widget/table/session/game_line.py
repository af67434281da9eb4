"""The line of play: the game's history (one position per turn), the position shown, a
turn applied, turns taken back (*undo*, ``goto``), a record loaded, and *play again*. A part
of :class:`~.machine.Session` (:mod:`.state`); what differs between play, hot-seat
and replay is asked of the mode (:mod:`.modes`)."""

from __future__ import annotations

from ...engine.errors import excerpt
from ...engine.game import Game
from ...engine.turn import Turn
from ..protocol import WidgetMessageError
from ..words.status import new_game, taken_back
from .history import build_history
from .redeal import redeal
from .state import SessionState

__all__ = ["GameLine"]


class GameLine(SessionState):
    """The line-of-play half of a session (see the module docstring)."""

    # -------------------------------------------------------------- positions
    @property
    def live(self) -> Game:
        """The game as played so far (the last position of the history)."""
        return self.history[-1]

    def current(self) -> Game:
        """The position shown: the live game, or the replay at the chosen turn (or the
        position before a turn the coach shows: :mod:`..coach.table`)."""
        k = self.shown_turn()
        return self.history[self.mode.shown_index(self) if k is None else k]

    def shown(self) -> Game:
        """The position on the table: :meth:`current` with the pending steps done."""
        if self.preview is not None and self.shown_turn() is None:
            return self.preview
        return self.current()

    def order_from(self, seat: int | None) -> list[int]:
        n = self.live.seats
        start = 0 if seat is None else seat
        return [(start + k) % n for k in range(n)]

    # -------------------------------------------------------------------- turns
    def apply(self, turn: Turn) -> None:
        """Play ``turn`` on the live game (a human's ended turn or a bot's), then let the
        mode react (the hot-seat cover); an illegal turn raises and changes nothing."""
        game = self.live.copy()
        game.apply(turn)
        self.history.append(game)
        self.turn = len(self.history) - 1
        self.pending = []
        self.preview = None
        self.mode.after_turn(self)
        if self.covered:
            self.showing = None

    def _again(self) -> None:
        """Play again: a new game with the same players, rules and first seat, and a new
        seed for the Human Defense tokens (the bots keep theirs)."""
        if not self.mode.live:
            raise WidgetMessageError("this is a replay: there is no game to play again")
        g = self.live
        if not g.finished:
            raise WidgetMessageError("the game is not over yet: play it to the end first")
        seed = None if self.config.seed is None else self.config.seed + 7919 * self.games
        game = Game(g.players, rules=g.rules, first=g.first, seed=seed)
        self.cancel_bots()
        self.games += 1
        self.branch = None
        self.coach.forget_from(0)
        self.coach_forget()
        self.history = build_history(game)
        self.turn = 0
        self.pending = []
        self.preview = None
        self.covered = False
        self.seat = self.mode.first_seat(self)
        self.mode.after_turn(self)
        self.say(new_game(self.games))

    def _undo(self) -> None:
        refusal = self.mode.undo_refusal(self)
        if refusal is not None:
            raise WidgetMessageError(refusal)
        last = self.last_human_turn()
        whose = self.mode.undo_whose(self)
        self.cancel_bots()
        self.take_back_to(last)
        self.mode.after_turn(self)
        self.say(taken_back(whose))

    def last_human_turn(self) -> int:
        """The index of the last turn a human played (undo takes the line back to it)."""
        return max(i for i, t in enumerate(self.live.turns) if t.seat in self.humans)

    def take_back_to(self, turn: int) -> None:
        """Forget every turn after ``turn`` turns and the turn in progress. When a bot's
        turn is among them and the mode says so (one human against bots), the cards the
        human cannot see are dealt again (:func:`~.redeal.redeal`): the human has seen
        the bots' answers, and the same cards must not answer another try."""
        taken = self.live.turns[turn:]
        del self.history[turn + 1 :]
        self.coach.forget_from(turn)
        self.coach_forget()
        self.turn = turn
        self.pending = []
        self.preview = None
        human = self.mode.redeal_for(self)
        if human is not None and any(t.seat in self.bots for t in taken):
            self.history = redeal(self.history[0], self.live, human, self.deals)

    def goto(self, turn: object) -> None:
        """Replay: show the position after ``turn`` turns. Play: take back every turn
        after ``turn`` (the bots then move again if it is their turn)."""
        last = len(self.history) - 1
        if type(turn) is not int or not 0 <= turn <= last:
            raise WidgetMessageError(f"turn must be 0..{last}, not {excerpt(turn)}")
        error = self.message if self.message["level"] == "error" else None
        self.mode.goto(self, turn)
        self.clear_error(error)

    def load(self, game: Game, turn: object = None) -> None:
        """Replace the game by ``game`` (same players), all checks first."""
        if game.players != self.live.players or game.queue_count != self.live.queue_count:
            raise WidgetMessageError(
                "the record has other players; build a new widget with replay(record)"
            )
        shown = self.mode.load_turn(game.turns_applied, turn)
        history = build_history(game)
        # nothing has changed so far; from here on nothing raises
        self.cancel_bots()
        self.history = history
        self.turn = shown
        self.branch = None
        self.lesson.load(None)
        self.coach.forget_from(0)
        self.coach_forget()
        self.pending = []
        self.preview = None
        self.say("")
        if self.mode.live:
            self.mode.after_turn(self)
