"""The table's state machine, pure: no Jupyter, no traitlets, no threads.

A :class:`Session` holds one game's history, the position shown, the steps of the turn in
progress and who is looking; it takes :data:`~.protocol.Intent` s and answers with one
:class:`~.protocol.TableState`: the viewing seat's projection of the game (the hot-seat
cover shows only public facts), what that seat may do, the status line and the turns in
words. What changes between modes is asked of its :mod:`mode policy <.modes>`.

>>> from tenleave_widget import Game
>>> from tenleave_widget.table.config import check_config
>>> s = Session(Game(2, seed=1), check_config(Game(2, seed=1), humans=[0], bots={1: "random"}))
>>> s.handle({"kind": "play", "card": "2", "queue": 0})
False
>>> s.state()["pending"]
['played 2 on queue 1']
>>> s.handle({"kind": "end"})           # the turn is applied; a bot is now to move
True
>>> s.bot_to_move()
1
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, cast

from ..analysis.review import Review
from ..engine.errors import excerpt
from ..engine.game import Game
from ..engine.turn import Turn
from .coach import Coach, tally_words, verdict_words
from .coach_table import CoachTable
from .config import Config
from .default_size import default_size
from .history import build_history, public_view
from .lesson import LessonRun
from .lookahead_panel import MEASURES, LookaheadFeed
from .modes import MODES
from .narration import and_list, describe_turn, seat_name, step_text, token_before
from .offers import final_steps, offers
from .panels import PanelFeed
from .plain_panels import plain_review_words
from .protocol import (
    SIZES,
    Cover,
    Intent,
    Message,
    Narration,
    StepIntent,
    TableState,
    WidgetMessageError,
)
from .redeal import redeal
from .review_state import ReviewState, review_words
from .suggest_panel import SuggestFeed

__all__ = ["Session", "build_history", "public_view"]


class Session(ReviewState, CoachTable):
    """One table: the game's history, the position shown, the turn in progress and the
    viewing seat. Bots are moved from outside (:mod:`.bot_runner`): the session only says
    which seat a bot should move (:meth:`bot_to_move`) and applies its turn."""

    def __init__(self, game: Game, config: Config) -> None:
        self.config = config
        self.mode = MODES[config.mode]
        self.humans: list[int] = list(config.humans)
        self.bots: dict[int, str] = dict(config.bots)
        self.history: list[Game] = build_history(game)
        self.turn = len(self.history) - 1 if config.turn is None else config.turn
        self.pending: list[dict[str, Any]] = []
        self.preview: Game | None = None
        self.busy = False
        """A bot is thinking (set by the bot runner)."""
        self.stalled = False
        """The bot to move could not move: the game is paused until the line changes."""
        self.generation = 0
        """Bumped whenever the line of play changes under a waiting bot (undo, goto, load)."""
        self.deals = random.Random(
            f"tenleave-redeal/{config.seed}" if config.seed is not None
            else random.SystemRandom().getrandbits(64)
        )
        """Draws the hidden cards again when bots' answers are taken back (:meth:`take_back_to`)."""
        self.covered = False
        self.show_odds = config.show_odds
        self.message: Message = {"id": 0, "level": "", "text": ""}
        self.seat: int | None = None
        self.seat = self.mode.first_seat(self)
        self.review: Review | None = None
        """The game review of the record (replay mode), once computed or loaded."""
        self.show_best = False
        """Replay mode: name the best move of the position shown (from the mover's view)."""
        self.panels = PanelFeed()
        self.lookahead = LookaheadFeed()
        """The moves' whole-game values, computed in slices (:mod:`.lookahead_panel`)."""
        self.suggest = SuggestFeed()
        """*What their plays suggest* and its controls (:mod:`.suggest_panel`)."""
        self.measure = "swat"
        """What ranks the moves panel: one swat ahead, or the whole game (the switch)."""
        self.size = default_size()
        """The table's size (the size control): one of :data:`~.protocol.SIZES`."""
        self.games = 1
        """Games played at this table (play again starts the next one)."""
        self.coach = Coach(config.coach, config.coach_samples)
        """The coach's verdicts of the humans' decisions (:mod:`.coach`)."""
        self.branch: dict[str, Any] | None = None
        """The record's ``branch`` (RULES.md §8): the game was played on from turn
        ``branch["turn"]`` of the game ``branch["from"]``; ``None`` for a whole game."""
        self.details = False
        """The panels' *Details* switch (a UI preference): the analyst's words, not plain."""
        self.lesson = LessonRun()
        """The record's lesson (replay) and the moment on the table (:mod:`.lesson`)."""

    # -------------------------------------------------------------- positions
    @property
    def live(self) -> Game:
        """The game as played so far (the last position of the history)."""
        return self.history[-1]

    def current(self) -> Game:
        """The position shown: the live game, or the replay at the chosen turn (or the
        position before a turn the coach shows: :mod:`.coach_table`)."""
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

    # ------------------------------------------------------------------ intents
    def handle(self, intent: Intent) -> bool:
        """Apply one checked intent, or raise a :class:`TenLeaveError` (nothing changed).
        True when the turns changed, so that bots may have to move. A success clears the
        error it follows (what the intent itself says stays)."""
        error = self.message if self.message["level"] == "error" else None
        moved = self._handle(intent)
        self.clear_error(error)
        return moved

    def clear_error(self, error: Message | None) -> None:
        """After a success: take ``error`` (the message shown before it) off the table,
        unless something else has been said since."""
        if error is not None and self.message is error:
            self.say("")

    def _handle(self, intent: Intent) -> bool:
        if intent["kind"] in ("play", "peek", "rotate", "wake"):
            self._step(intent)
            return False
        if intent["kind"] == "end":
            return self._end()
        if intent["kind"] in ("coach", "confirm", "showme"):
            return self.coach_intent(dict(intent))
        if intent["kind"] == "undo":
            self._undo()
            return True
        if intent["kind"] == "reset":
            self._reset()
        elif intent["kind"] == "uncover":
            if not self.covered:
                raise WidgetMessageError("the screen is not covered")
            self.covered = False
            self.say("")
        elif intent["kind"] == "goto":
            self.mode.goto_intent(self, intent["turn"])
        elif intent["kind"] == "perspective":
            self.mode.perspective_intent(self, intent["seat"])
        elif intent["kind"] == "odds":
            self.show_odds = intent["show"]
        elif intent["kind"] == "size":
            if intent["size"] not in SIZES:
                raise WidgetMessageError(f"size must be one of {', '.join(SIZES)}")
            self.size = intent["size"]
        elif intent["kind"] == "measure":
            if intent["measure"] not in MEASURES:
                raise WidgetMessageError(f"measure must be one of {', '.join(MEASURES)}")
            self.measure = intent["measure"]
        elif intent["kind"] == "rationality":
            self.suggest.set_level(intent["level"])
        elif intent["kind"] == "odds_model":
            self.suggest.set_odds_model(intent["model"])
        elif intent["kind"] == "again":
            self._again()
            return True
        elif intent["kind"] == "moment":
            self.lesson.go(self, intent["index"])
        elif intent["kind"] == "reveal":
            self.lesson.reveal(self, intent["show"])
        elif intent["kind"] == "details":
            self.details = intent["show"]
        return False

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
        self.say(f"Game {self.games}: the same players, a new order of Human Defense tokens.")

    def say(self, text: str, level: str = "info") -> None:
        """Show ``text`` in the table's message line (``level`` ``"error"`` or ``"info"``)."""
        self.message = cast(
            Message, {"id": self.message["id"] + 1, "level": level, "text": text}
        )

    def my_turn(self) -> bool:
        """The seat on screen is a human to move, and may act."""
        return self.turn_refusal() is None

    def turn_refusal(self) -> str | None:
        """Why the seat on screen may not act now, or ``None``."""
        if not self.mode.live:
            return "this is a replay: use the turn controls"
        if self.covered:
            return "the screen is covered: the next player must uncover it"
        g = self.live
        if g.finished:
            return "the game is over"
        if self.asking is not None:
            return "answer the coach first: play it anyway, or take it back"
        if self.shown_turn() is not None:
            return "the coach is showing an earlier turn: go back to the game first"
        if self.busy or g.to_move != self.seat or g.to_move not in self.humans:
            return f"it is not your turn: {seat_name(g.players, g.to_move or 0)} is to move"
        return None

    def _require_turn(self) -> None:
        refusal = self.turn_refusal()
        if refusal is not None:
            raise WidgetMessageError(refusal)

    def _step(self, step: StepIntent) -> None:
        self._require_turn()
        steps = [*self.pending, dict(step)]
        self.preview = self.live.preview(steps)  # raises IllegalActionError
        self.pending = steps
        self.say("")

    def _reset(self) -> None:
        """Drop the steps of the turn in progress that revealed nothing. A peek or a wake
        is final (the card was seen, the swat happened), and so is every step before it."""
        self._require_turn()
        pending = self.pending
        if not pending:
            raise WidgetMessageError("nothing to take back in this turn")
        keep = final_steps(pending)
        if keep == len(pending):
            last = pending[keep - 1]
            what = (
                "you peeked at a card and have seen it"
                if last["kind"] == "peek" else "SleepKid has woken and swatted"
            )
            then = (
                "end the turn" if any(s["kind"] == "play" for s in pending)
                else "play a card, then end the turn"
            )
            raise WidgetMessageError(f"this turn cannot be started again: {what}; {then}")
        kept = pending[:keep]
        self.preview = self.live.preview(kept) if kept else None
        self.pending = kept
        if kept:
            what = "peek" if kept[-1]["kind"] == "peek" else "wake"
            self.say(f"Your {what} stays (it cannot be taken back); the steps after it were.")
        else:
            self.say("")

    def _end(self) -> bool:
        """*End turn*; False when the coach asks first (``coach="before"``)."""
        self._require_turn()
        seat = self.live.to_move
        assert seat is not None
        turn = Turn.from_steps(seat, list(self.pending))  # raises if there is no play yet
        if self.coach_asks(turn):
            return False
        return self.end_turn()

    def end_turn(self) -> bool:
        """End the turn in progress as it stands (checked by :meth:`_end`)."""
        seat = self.live.to_move
        assert seat is not None
        turn = Turn.from_steps(seat, list(self.pending))
        before = self.live
        self.apply(turn)
        self.coach.ended(before.turns_applied, before.view(seat), turn)
        self.say(self.coach_note)
        self.coach_note = ""
        return True

    def _undo(self) -> None:
        refusal = self.mode.undo_refusal(self)
        if refusal is not None:
            raise WidgetMessageError(refusal)
        last = self.last_human_turn()
        whose = self.mode.undo_whose(self)
        self.cancel_bots()
        self.take_back_to(last)
        self.mode.after_turn(self)
        self.say(f"{whose.capitalize()} last turn was taken back.")

    def last_human_turn(self) -> int:
        """The index of the last turn a human played (undo takes the line back to it)."""
        return max(i for i, t in enumerate(self.live.turns) if t.seat in self.humans)

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

    def bot_to_move(self) -> int | None:
        """The seat of the bot to move, or ``None`` (a human's turn, a replay, game over)."""
        g = self.live
        if not self.mode.live or g.finished or g.to_move not in self.bots:
            return None
        return g.to_move

    def cancel_bots(self) -> None:
        """Forget a bot's pending move: the line is about to change."""
        self.generation += 1
        self.busy = False
        self.stalled = False

    def bot_failed(self, seat: int) -> None:
        """The bot of ``seat`` could not move: pause the game and say so in plain words.
        Nothing of the error is shown (its text may name a hidden card: the bot runner
        keeps it for the log and ``w.errors``)."""
        self.stalled = True
        self.say(self.mode.stalled_text(self, seat), "error")

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
                "the record has other players; build a new widget with replay_widget(record)"
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

    def coached(self, verdict: Mapping[str, Any]) -> None:
        """A verdict came in: say it, and the seat's tally so far, if its seat is on screen
        (never behind the cover)."""
        seat = verdict["seat"]
        if seat == self.seat and not self.covered and self.message["level"] != "error":
            self.say(f"{verdict_words(verdict)} {tally_words(self.coach.tally(seat))}")

    # -------------------------------------------------------------------- state
    def state(self) -> TableState:
        """What the table shows now: the viewing seat's projection of the session."""
        shown = self.shown()
        view = shown.view(self.seat)
        cover: Cover = {"shown": False, "seat": None, "text": ""}
        if self.covered:
            view = public_view(view)
            name = seat_name(shown.players, self.seat or 0)
            cover = {
                "shown": True, "seat": self.seat,
                "text": f"Pass the screen to {name}. Everyone else: look away.",
            }
        return {
            "view": view,
            "mode": self.mode.name,
            "perspective": self.seat,
            "offers": offers(self),
            "pending": [step_text(s) for s in self.pending],
            "message": self.message,
            "narration": self.narration(),
            "replay": self.mode.replay_state(self),
            "cover": cover,
            "busy": self.busy,
            "show_odds": self.show_odds,
            "status": self.status(),
            "panels": self.panels.data(self),
            "size": self.size,  # type: ignore[typeddict-item]
            "best": self.coach_best() or self.best_move(),
            "coach": self.coach_state(),
            "lesson": self.lesson.state(self),
        }

    def narration(self) -> Narration:
        """The turns since the viewer last moved (replay: the turn just shown), and the
        turn in progress, in words (nothing behind the cover); and which seats are bots, of
        which kind (public: the table's set-up)."""
        roles = [f"{self.bots[s]} bot" if s in self.bots else ""
                 for s in range(len(self.live.players))]
        if self.covered:
            return {"turns": [], "roles": roles}
        players = self.live.players
        viewer = self.seat
        turns = []
        for i in self.mode.narrated_turns(self):
            after = self.history[i + 1]
            events = after.events(i)
            words = describe_turn(
                events, players, token_before(after, events), viewer, i, after.turns[i].seat
            )
            judged = self.judged(i)
            if judged is not None:
                objective = self.review.objective if self.review else "margin"
                said = review_words(judged, objective)
                said = said if self.details else plain_review_words(said)
                words["lines"] = [*words["lines"], said]
            verdict = self.coach.of_turn(i)
            if verdict is not None and verdict["seat"] == viewer:  # to that seat only
                words["lines"] = [*words["lines"], verdict_words(verdict)]
            turns.append(words)
        if self.preview is not None:
            events = self.preview.events()
            entry = describe_turn(
                events, players, token_before(self.preview, events), viewer,
                self.live.turns_applied, self.seat or 0,
            )
            entry["pending"] = True
            turns.append(entry)
        return {"turns": turns, "roles": roles}

    def status(self) -> str:
        """The status line: whose turn, what to do, or the result."""
        g = self.shown()
        if self.covered:
            return f"Pass the screen to {seat_name(g.players, self.seat or 0)}."
        if g.finished:
            winners = g.winners or []
            low = g.penalty[winners[0]] if winners else 0
            names = and_list([seat_name(g.players, s) for s in winners])
            if len(winners) == 1:
                return f"Game over: {names} wins with {low}." + self.branch_text()
            return f"Game over: {names} share the win with {low}." + self.branch_text()
        showing = self.coach_status()
        if showing:
            return showing
        mover = g.to_move
        assert mover is not None
        return self.mode.turn_status(self, mover) + self.best_text() + self.branch_text()

    def branch_text(self) -> str:
        """Replay of a branched game: the status line says where it branched from."""
        if self.branch is None or self.mode.live:
            return ""
        return (f" (A branch: played on from turn {self.branch['turn']} of game "
                f"{self.branch['from'].removeprefix('sha256:')[:12]}.)")

