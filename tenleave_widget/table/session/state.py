"""What a session holds: every attribute of a :class:`~.machine.Session`, set from its game
and set-up, declared once for the parts that act on them (each a mixin of the session):

- :mod:`.game_line`: the game's history and the position shown; turns applied, taken
  back, loaded; play again;
- :mod:`.turn_in_progress`: the steps of the human's turn before *End turn*;
- :mod:`.bot_seats`: which bot is to move, its pending move cancelled when the line
  changes, a bot that could not move;
- :mod:`.preferences`: the table's UI preferences (odds, size, measure, details, the
  suggest panel's level and model);
- :mod:`.table_view`: what the table shows (the seat's projection, the turns in words,
  the status line);
- :mod:`.review_state` and :mod:`..coach.table`: what the table shows of a review and of the
  coach.

The methods one part calls on another are declared here for the type checker only.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from ...analysis.review import Review
from ...engine.game import Game
from ...engine.turn import TurnStep
from ..coach.verdicts import Coach
from ..panels.feed import PanelFeed
from ..panels.lookahead import LookaheadFeed
from ..panels.suggest import SuggestFeed
from ..protocol import BestMove, CoachState, Message
from .config import Config
from .default_size import default_size
from .history import build_history
from .lesson import LessonRun
from .modes import MODES, ModePolicy

if TYPE_CHECKING:
    from ...analysis.review import TurnReview
    from ...engine.turn import Turn
    from ...engine.view import View

__all__ = ["SessionState"]


class SessionState:
    """The attributes of a session (see the module docstring)."""

    def __init__(self, game: Game, config: Config) -> None:
        self.config = config
        self.mode: ModePolicy = MODES[config.mode]
        self.humans: list[int] = list(config.humans)
        self.bots: dict[int, str] = dict(config.bots)
        self.history: list[Game] = build_history(game)
        """The positions of the line of play: the game after 0, 1, … turns."""
        self.turn = len(self.history) - 1 if config.turn is None else config.turn
        self.pending: list[TurnStep] = []
        """The steps of the turn in progress."""
        self.preview: Game | None = None
        """The live game with the pending steps done, or ``None``."""
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
        """The hot-seat cover is up: the table shows public facts only."""
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
        """The moves' whole-game values, computed in slices (:mod:`..panels.lookahead`)."""
        self.suggest = SuggestFeed()
        """*What their plays suggest* and its controls (:mod:`..panels.suggest`)."""
        self.measure = "swat"
        """What ranks the moves panel: one swat ahead, or the whole game (the switch)."""
        self.size = default_size()
        """The table's size (the size control): one of :data:`~..protocol.SIZES`."""
        self.games = 1
        """Games played at this table (play again starts the next one)."""
        self.coach = Coach(config.coach, config.coach_samples)
        """The coach's verdicts of the humans' decisions (:mod:`..coach.verdicts`)."""
        self.branch: dict[str, Any] | None = None
        """The record's ``branch`` (RULES.md §8): the game was played on from turn
        ``branch["turn"]`` of the game ``branch["from"]``; ``None`` for a whole game."""
        self.details = False
        """The panels' *Details* switch (a UI preference): the analyst's words, not plain."""
        self.lesson = LessonRun()
        """The record's lesson (replay) and the moment on the table (:mod:`.lesson`)."""
        self.teachers = True
        """Whether the table is the teacher's (a replay opened in the teacher's view, or the
        teacher's export): a seat's view then says that a turn has a teacher's note. A
        student's replay, opened in its own seat's view, does not."""

    if TYPE_CHECKING:
        # the coach's state (class attributes of :class:`~..coach.table.CoachTable`)
        asking: dict[str, Any] | None
        showing: tuple[int, int] | None
        coach_note: str

        # .game_line
        @property
        def live(self) -> Game: ...

        def current(self) -> Game: ...

        def shown(self) -> Game: ...

        def order_from(self, seat: int | None) -> list[int]: ...

        def apply(self, turn: Turn) -> None: ...

        def take_back_to(self, turn: int) -> None: ...

        def last_human_turn(self) -> int: ...

        # .turn_in_progress
        def my_turn(self) -> bool: ...

        # .bot_seats
        def cancel_bots(self) -> None: ...

        # .table_view
        def branch_text(self) -> str: ...

        # .session
        def say(self, text: str, level: str = "info") -> None: ...

        def clear_error(self, error: Message | None) -> None: ...

        # .review_state
        def judged(self, turn: int) -> TurnReview | None: ...

        def best_move(self) -> BestMove | None: ...

        def best_text(self) -> str: ...

        # .coach_table
        def shown_turn(self) -> int | None: ...

        def coach_forget(self) -> None: ...

        def coach_asks(self, turn: Turn) -> bool: ...

        def coach_best(self) -> BestMove | None: ...

        def coach_status(self) -> str: ...

        def coach_state(self) -> CoachState: ...

        def coach_view(self, turn: int) -> View | None: ...
