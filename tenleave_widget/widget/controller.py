"""The widget a notebook shows: the card table beside the odds panels, for one game.

:class:`TenLeaveWidget` wires a pure :class:`~.session.machine.Session` (the state machine) to a
:class:`~.table_widget.TableWidget` (synced traitlets; the odds panels' data is one of them,
drawn by the widget's own bundle) and a :class:`~.bot_runner.BotRunner`. A click's intent is checked
against the protocol, handled by the session, and the session's new table state is synced.
"""

from __future__ import annotations

import logging
import random
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import ipywidgets

from ..analysis.review import Review, attach_review
from ..engine.errors import TenLeaveError, excerpt, one_line
from ..engine.game import Game
from ..engine.lesson import fit_lesson
from ..engine.record import parse_record, public_digest, record_object, save_record
from ..programs.export import export_html
from ..table.coach.check import CheckRunner
from ..table.coach.verdicts import CoachRunner, Judged
from ..table.panels.figures import as_figures
from ..table.panels.lookahead import Thinker
from ..table.panels.suggest import Reader
from ..table.protocol import Mode, WidgetMessageError, parse_intent
from ..table.session.config import assign_seats, check_config, check_delay
from ..table.session.default_size import check_size
from ..table.session.machine import Session
from ..table.session.redeal import redeal as redeal_hidden
from ..table.words.errors import plain_words
from .bot_runner import BotFailure, BotRunner
from .lesson_controls import LessonControls
from .owned import KernelOwned
from .review_panel import ReviewPanel
from .table_widget import TableWidget

if TYPE_CHECKING:
    import plotly.graph_objects as go

__all__ = ["TenLeaveWidget"]

log = logging.getLogger(__name__)

MAX_BRANCHES = 3
"""The most *Play on from here* tables shown below a replay (the oldest goes first)."""


class TenLeaveWidget(LessonControls, KernelOwned, ipywidgets.VBox):  # type: ignore[misc]
    """The table and its odds panels for one game, in play, hot-seat or replay mode.

    Build it with :func:`play`, :func:`hotseat` or :func:`replay`. Scripting API:
    :meth:`load`, :meth:`save`, :meth:`goto`, :attr:`game`, :attr:`turn`,
    :meth:`set_perspective`, :meth:`handle_intent` (what a browser click sends); a
    lesson: :meth:`next_moment`, :meth:`reveal` (:class:`~.lesson_controls.LessonControls`).

    Args:
        game: the game to show (a replay shows its turns; a play table plays on from it).
        mode: ``"play"`` (one human seat against bots), ``"hotseat"`` (several human
            seats on one screen) or ``"replay"``.
        humans: the human seats (play and hot-seat).
        bots: the bot of each other seat, by seat (``"random"``, ``"greedy"``,
            ``"lookahead"``, ``"reader"``).
        perspective: the seat whose view is shown; ``None``: the teacher's.
        turn: replay mode: the position shown first (turns applied).
        bot_delay: seconds between two bot turns.
        seed: seeds the bots' choices and the re-deals of an undo.
        show_odds: show the odds panels beside the table.
        coach: ``"off"``, ``"after"`` or ``"before"`` (as :func:`~.entry.play`'s).
        coach_samples: the coach's worlds per decision (default: the review's).
        size: ``"small"``, ``"medium"``, ``"large"`` or ``"projector"`` (default: the
            kernel's, :func:`~tenleave_widget.set_default_size`).
        lock: replay mode: the perspective cannot be changed from the table.

    Raises:
        WidgetMessageError: a bad mode, seat, bot, delay, seed, ``coach``, ``size`` or
            turn (the message names it).

    Example:
        >>> from tenleave_widget import Game
        >>> w = TenLeaveWidget(Game(2, seed=1), mode="replay")
        >>> w.turn, w.perspective is None
        (0, True)
    """

    session_class: type[Session] = Session
    """The session a table is built with (a remote seat's table has its own)."""

    def __init__(
        self,
        game: Game,
        *,
        mode: Mode = "play",
        humans: Sequence[int] = (0,),
        bots: Mapping[int, str] | None = None,
        perspective: int | None = None,
        turn: int | None = None,
        bot_delay: float = 0.5,
        seed: int | None = None,
        show_odds: bool = True,
        coach: str = "off",
        coach_samples: int | None = None,
        size: str | None = None,
        lock: bool = False,
    ) -> None:
        if size is not None:
            check_size(size)
        config = check_config(
            game, mode=mode, humans=humans, bots=bots, perspective=perspective, turn=turn,
            bot_delay=bot_delay, seed=seed, show_odds=show_odds, coach=coach,
            coach_samples=coach_samples, locked=lock,
        )
        self.mode: Mode = config.mode
        self.session = self.session_class(game, config)
        if size is not None:
            self.session.size = size  # else the kernel's default (set_default_size)
        self.table = TableWidget()
        self._bots = BotRunner(self.session, config.bot_delay, config.seed, self._refresh)
        self.session.lookahead.enabled = True
        self._thinker = Thinker(self.session, self._refresh_panels)
        self.session.suggest.enabled = True
        self._reader = Reader(self.session, self._refresh_panels)
        self._coach = CoachRunner(self.session.coach, self._coached)
        self._check = CheckRunner(self.session.coach.check, self.session.coach_wants)
        self.review_panel: ReviewPanel | None = None
        """Replay mode: the game review's controls, evaluation graph and summary."""
        parts = [self.table]
        if self.mode == "replay":
            self.review_panel = ReviewPanel(self.session, self.goto, self._refresh)
            parts.append(self.review_panel)  # after the odds: theirs is the first figure
        self._own: tuple[ipywidgets.Widget, ...] = tuple(parts)
        self.branches: list[TenLeaveWidget] = []
        """Replay mode: the tables opened by *Play on from here* (shown below the replay)."""
        self.original: TenLeaveWidget | None = None
        """A branch's replay: the original game's, below it (``replay(...,
        original=...)``, :mod:`.branch_view`)."""
        self.followers: list[Callable[[], None]] = []
        """Called after every refresh (the original's replay steps with the branch's)."""
        super().__init__(parts)
        self.table.on_msg(self._on_table_msg)
        self._refresh()
        self._bots.start()

    # ----------------------------------------------------------- public API
    @property
    def game(self) -> Game:
        """A copy of the current game: the live game, or the replay at the chosen turn."""
        return self.session.current().copy()

    @property
    def table_game(self) -> Game:
        """A copy of the position on the table: :attr:`game` plus the steps of the turn in
        progress (a peek, the card just played), not yet ended."""
        return self.session.shown().copy()

    @property
    def turn(self) -> int:
        """The number of turns played at the position shown."""
        return self.session.turn

    @property
    def panels(self) -> dict[str, Any]:
        """The odds panels' data as synced
        (:class:`tenleave_widget.table.panels.data.PanelData`)."""
        return dict(self.table.panels)

    def figures(self) -> dict[str, go.Figure]:
        """The panels shown now as ``plotly.graph_objects.Figure`` objects (``outcome``,
        ``moves``, ``cards``, ``timeline``, and ``review`` once a replay is reviewed; none
        while the odds are hidden): the figures the table draws, to ``show()``,
        ``write_html`` or put in a report (:func:`tenleave_widget.odds_figures`)."""
        return as_figures(self.table.panels["figures"])

    @property
    def size(self) -> str:
        """The table's size: ``"small"``, ``"medium"``, ``"large"`` or ``"projector"``."""
        return self.session.size

    @size.setter
    def size(self, size: str) -> None:
        self.handle_intent({"kind": "size", "size": size})

    @property
    def bot_delay(self) -> float:
        """Seconds between two bot turns (0: the bots answer at once); may be changed."""
        return self._bots.delay

    @bot_delay.setter
    def bot_delay(self, seconds: float) -> None:
        self._bots.delay = check_delay(seconds)

    @property
    def errors(self) -> list[BotFailure]:
        """Every bot failure of this table, oldest first: the seat, the bot, the turns
        played and the exception. The table only says that a bot could not move (the
        error's text may name a hidden card); the details are here and in the log."""
        return list(self._bots.errors)

    @property
    def perspective(self) -> int | None:
        """The seat whose view is shown (``None``: the teacher's omniscient view)."""
        return self.session.seat

    def set_perspective(self, seat: int | None) -> None:
        """Replay mode: show the table as a seat sees it, or everything.

        Args:
            seat: the seat; ``None`` for the teacher's view of every card.

        Raises:
            WidgetMessageError: ``seat`` is not a seat of the game, the table is not a
                replay, or the replay is locked to its perspective.
        """
        self.handle_intent({"kind": "perspective", "seat": seat})

    def goto(self, turn: int) -> None:
        """Move the table to the position after ``turn`` turns.

        In replay mode the table shows that position; in play mode every turn after it is
        taken back (the cards the human cannot see are dealt again, and the bots move
        again if it is their turn).

        Args:
            turn: the number of turns applied, 0 to the game's.

        Raises:
            WidgetMessageError: ``turn`` is out of range, or a take-back is not allowed
                here (the table is unchanged).
        """
        self.session.goto(turn)
        self._refresh()
        self._bots.start()

    def load(self, record: Any, turn: int | None = None) -> None:
        """Load another game into this table.

        Everything is checked before anything changes: on an error the widget is exactly
        as it was.

        Args:
            record: a ``tenleave-record/1`` object, or the path of a record file.
            turn: replay mode: the position shown (default 0); play mode continues from
                the record's end, and ``turn`` must be left out.

        Raises:
            RecordError: the record is invalid.
            WidgetMessageError: other players than this table's, or a bad ``turn``.
        """
        record = record_object(record)  # read once
        lesson = parse_record(record).lesson if self.mode == "replay" else None
        game = Game.from_record(record)
        self.session.load(game, turn)
        self.session.lesson.load(fit_lesson(lesson, game.turns_applied))
        if self.review_panel is not None:
            self.review_panel.set_review(None)
        self._refresh()
        self._bots.start()

    def record(self) -> dict[str, Any]:
        """The whole game as a ``tenleave-record/1`` object (with its notes, and its review
        as the optional ``review`` section once computed)."""
        rec = dict(self.session.live.to_record())
        if self.session.branch is not None:
            rec["branch"] = dict(self.session.branch)
        if self.lesson is not None:
            rec["lesson"] = self.lesson
        r = self.session.review
        return attach_review(rec, r) if r is not None else rec

    def play_from_here(
        self,
        human: int | Sequence[int] = 0,
        bots: Sequence[str] = ("greedy", "random"),
        *,
        redeal: bool = False,
        seed: int | None = None,
        bot_delay: float = 0.5,
        show_odds: bool | None = None,
        coach: str = "off",
        coach_samples: int | None = None,
    ) -> TenLeaveWidget:
        """Replay mode: a new play table (hot-seat with several human seats) that starts
        at the position shown, ``human`` and ``bots`` as in :func:`~.entry.play`.

        The seats' hands and face-down cards are the record's (the teacher's what-if);
        ``redeal=True`` (one human seat) deals the cards that seat cannot see again from
        its view (:func:`~tenleave_widget.table.session.redeal.redeal`), so that it plays on with
        its own knowledge only. The new game's record says where it branched from
        (``branch``: this game's :func:`~tenleave_widget.engine.record.public_digest`,
        which no seat can learn a hidden card from, and the turn; RULES.md §8). The
        record's notes stay with the original. The Human Defense tokens revealed after the
        branch point are drawn anew (not the original's later ones): ``seed`` fixes them,
        with the re-deal and the bots' choices, so that the same ``seed`` plays the same
        branch again.

        Args:
            human: the human seat, or seats (hot-seat).
            bots: the bots of the other seats, as in :func:`~.entry.play`.
            redeal: deal again the cards the one human seat cannot see.
            seed: seeds the re-deal, the later tokens and the bots (``None``: fresh
                entropy).
            bot_delay: seconds between the bots' turns.
            show_odds: show the odds panels (default: as this replay does).
            coach: as in :func:`~.entry.play`.
            coach_samples: as in :func:`~.entry.play`.

        Returns:
            The new table (show it as the last line of a cell).

        Raises:
            WidgetMessageError: this table is not a replay, the game is over at the
                position shown, or a bad seat, bot, ``redeal`` or ``seed`` (``redeal=True``
                with several human seats included).

        Example:
            >>> from tenleave_widget import Game
            >>> replayed = TenLeaveWidget(Game(2, seed=1), mode="replay")
            >>> t = replayed.play_from_here(human=0, bots=["greedy"], seed=3)
            >>> t.mode, t.game.to_move
            ('play', 0)
        """
        if self.mode != "replay":
            raise WidgetMessageError(
                "play on from here is for a replay: use replay(record), then go to a turn"
            )
        start = self.session.current()
        if start.finished:
            raise WidgetMessageError(
                "nothing is left to play at this turn: go to an earlier turn to play on from it"
            )
        humans, assignment = assign_seats(start, human, bots)
        if not isinstance(redeal, bool):
            raise WidgetMessageError(f"redeal must be True or False, not {excerpt(redeal)}")
        if seed is not None and type(seed) is not int:
            raise WidgetMessageError(f"seed must be an integer or None, not {excerpt(seed)}")
        game = start.copy()
        if redeal:
            if len(humans) != 1:
                raise WidgetMessageError(
                    "redeal=True deals again the cards one seat cannot see: give one human seat"
                )
            rng = random.Random(
                f"tenleave-branch/{seed}" if seed is not None
                else random.SystemRandom().getrandbits(64)
            )
            game = redeal_hidden(self.session.history[0], start, humans[0], rng)[-1]
        game.notes = {}
        # the tokens after the branch point: drawn anew, from the seed when there is one
        game.redraw_tokens(f"tenleave-branch-tokens/{seed}" if seed is not None else None)
        w = TenLeaveWidget(
            game, mode="hotseat" if len(humans) > 1 else "play", humans=humans,
            bots=assignment, bot_delay=bot_delay, seed=seed,
            show_odds=self.session.show_odds if show_odds is None else show_odds,
            coach=coach, coach_samples=coach_samples,
        )
        n = start.turns_applied
        w.session.branch = {"from": public_digest(self.session.live.to_record()), "turn": n}
        dealt = ": the cards you cannot see were dealt again" if redeal else ""
        w.session.say(f"Playing on from turn {n} of the replay{dealt}.")
        w._refresh()
        return w

    @property
    def verdicts(self) -> list[dict[str, Any]]:
        """The coach's verdicts (``coach="after"``), one per human decision judged so far,
        in turn order: ``{"turn", "seat", "played", "label", "near", "loss", "loss_ci95",
        "best"}`` — record turn objects, the review's unit and labels (the review of the
        record gives the same, with the review's default seed and the coach's budget)."""
        return [dict(v) for v in self.session.coach.verdicts]

    def tally(self, seat: int | None = None) -> dict[str, Any]:
        """The coach's running tally of a human seat: decisions coached, the count of each
        label, mean loss and accuracy.

        Args:
            seat: the human seat (default: the one on screen).

        Returns:
            The tally, as a JSON-ready dict.

        Raises:
            WidgetMessageError: ``seat`` is not a human seat of this table.
        """
        s = self.session.seat if seat is None else seat
        if s not in self.session.humans:
            raise WidgetMessageError(f"seat {excerpt(s)} is not a human seat of this table")
        return dict(self.session.coach.tally(s))

    @property
    def coach_threshold(self) -> float:
        """``coach="before"``: the loss (points of margin, on the review's screen) above
        which *End turn* asks "Are you sure?"; by default 2, the review's upper bound of
        an inaccuracy (a mistake or a blunder is asked about). May be changed."""
        return self.session.coach.check.threshold

    @coach_threshold.setter
    def coach_threshold(self, points: float) -> None:
        if isinstance(points, bool) or not isinstance(points, (int, float)) or not (
                0 <= points <= sys.float_info.max):  # NaN, infinities, ints no float holds
            raise WidgetMessageError(
                f"coach_threshold must be a number of points >= 0, not {excerpt(points)}")
        self.session.coach.check.threshold = float(points)

    def save(self, path: str | Path) -> None:
        """Save :meth:`record` as a record file, atomically.

        Args:
            path: the file to write (``replay(path)`` opens it again).

        Raises:
            OSError: the file could not be written (an old one is left as it was).
        """
        save_record(self.record(), path)

    def review(self, samples: int | None = None, seed: int = 0) -> None:
        """Replay mode: review the game — every decision judged from its mover's view, the
        luck of every swat (:func:`tenleave_widget.analysis.review.review`).

        In a running kernel it works in the background with a progress bar; the result is
        kept (:attr:`review_result`), labels the narration, and is saved with the record.

        Args:
            samples: worlds per decision (default: the review's, 48).
            seed: the review's seed: the same seed gives the same review.

        Raises:
            WidgetMessageError: the table is not in replay mode.
            SetupError: ``samples`` or ``seed`` is not one a review takes (named); the
                table is left as it was.
        """
        if self.review_panel is None:
            raise WidgetMessageError("the review is for replay mode: use replay(record)")
        self.review_panel.start(samples, seed)

    @property
    def review_result(self) -> Review | None:
        """The game review once computed (or read from the record), else ``None``."""
        return self.session.review

    def show_best(self, on: bool = True) -> None:
        """Replay mode: name the best move of the position shown (from the mover's view;
        in a seat's view, that seat's moves only), or stop naming it.

        Args:
            on: name it (``False``: hide it again).

        Raises:
            WidgetMessageError: the table is not in replay mode.
        """
        if self.review_panel is None:
            raise WidgetMessageError("the review is for replay mode: use replay(record)")
        self.review_panel.best.value = bool(on)

    def export_html(self, path: str | Path) -> Path:
        """Write the game as one self-contained HTML page that steps through it offline
        (:func:`tenleave_widget.programs.export.export_html`), seen as the table shows it.

        From the teacher's view the page is the teacher's export (every view); from a
        seat's view it holds only what that seat knew at each turn.

        Args:
            path: the page to write.

        Returns:
            The path written.

        Raises:
            RecordError: the game is beyond the page's bounds.
            OSError: the page could not be written (an old one is left as it was).
        """
        return export_html(self.record(), path, perspective=self.perspective)

    def handle_intent(self, intent: object) -> None:
        """Apply one message of the kind the table sends when clicked.

        Args:
            intent: e.g. ``{"kind": "play", "card": "3*", "queue": 1}`` or ``{"kind":
                "end"}`` (the intents: ``docs/widget.md``).

        Raises:
            TenLeaveError: the intent is malformed or not allowed now; nothing changed.
        """
        checked = parse_intent(intent)
        if checked["kind"] == "branch":
            self._branch()
            return
        moved = self.session.handle(checked)
        if checked["kind"] == "hello":  # a table was drawn: tell it the kernel is there
            self.table.send({"kind": "connected"})
        if not (moved and self._bots.at_once()):  # (else shown once, after the bots' turns)
            self._refresh()
        if moved:
            self._bots.start()
            self._coach.kick()

    def send_intent(self, intent: object) -> bool:
        """As a click would: apply the intent, or show the error on the table, in plain
        words for the student (:func:`~.words.errors.plain_words`); nothing is raised.

        Args:
            intent: an intent as :meth:`handle_intent` takes it.

        Returns:
            ``True`` if it was applied, ``False`` if the table shows why not.
        """
        try:
            self.handle_intent(intent)
        except TenLeaveError as e:
            self._refuse(plain_words(e))
            return False
        return True

    # ------------------------------------------------------------ internals
    def _branch(self) -> None:
        """The replay's *Play on from here* button: a play table below the replay (the
        last :data:`MAX_BRANCHES` kept), for the seat whose view is shown — its unseen
        cards re-dealt, so that it plays with its own knowledge — or, from the teacher's
        view, for the seat to move with the record's cards; greedy bots for the others."""
        start = self.session.current()
        seat = self.session.seat
        human = seat if seat is not None else start.to_move
        if human is None:
            raise WidgetMessageError(
                "nothing is left to play at this turn: go to an earlier turn to play on from it"
            )
        t = self.play_from_here(human=human, bots=["greedy"], redeal=seat is not None)
        self.branches = [*self.branches, t][-MAX_BRANCHES:]
        self.children = (*self._own, *self.branches)
        name = start.players[human]
        self.session.say(
            f"Below: a new table playing on from turn {start.turns_applied}, {name} against "
            "greedy bots."
        )
        self._refresh()

    def _refuse(self, text: str) -> None:
        self.session.say(one_line(text), "error")
        self.table.show(self.session.state())

    def _on_table_msg(self, _widget: Any, content: Any, _buffers: Any) -> None:
        """The browser's door: whatever arrives, the answer is on the table (a bug is
        logged and shown there too, never left as a traceback in the kernel's output)."""
        try:
            self.send_intent(content)
        except Exception as e:  # noqa: BLE001 - the front end must get an answer
            log.exception("a message from the browser could not be handled")
            self._refuse(f"the message could not be handled: {type(e).__name__}")

    def _refresh(self) -> None:
        """Push the session's table state (the panels' data included) to the browser,
        then the review panel (replay mode)."""
        self._thinker.prime()
        self.table.show(self.session.state())
        if self.review_panel is not None:
            self.review_panel.refresh()
        self._thinker.kick()
        self._check.kick()
        self._reader.kick()
        for follow in self.followers:
            follow()

    def _coached(self, verdict: Judged) -> None:
        """A verdict came in (on the loop): tell its seat, if on screen."""
        self.session.coached(verdict)
        self._refresh()

    def _refresh_panels(self) -> None:
        """Push the panels' data only (the whole-game values came in)."""
        self.table.panels = dict(self.session.panels.data(self.session))

    def think(self, ms: float | None = None) -> None:
        """Compute the moves' whole-game values now: in a notebook they fill in by
        themselves, in slices, on the kernel's event loop; a script without a running loop
        calls this.

        Args:
            ms: work for about this many milliseconds; ``None``: until every value is
                computed.
        """
        feed = self.session.lookahead
        while not feed.advance(self.session, ms if ms is not None else 1000.0):
            if ms is not None:
                break
        self.session.suggest.advance(self.session)  # and what their plays suggest
        self._refresh_panels()
