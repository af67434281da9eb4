"""Moving the bots of a live table: paced, cancellable, and never stuck.

Bots move one after the other, ``delay`` seconds apart on the running event loop (four
times as long after a swat, so the reveal can be followed), or all at once when the delay
is 0 or no loop runs (a script, a test). A move scheduled before the line changed (undo,
``goto``, ``load``: the session's ``generation`` moved on) is dropped. Any exception
while a bot moves (a bug, an illegal turn) stops the table waiting (it never stays
"thinking…") and pauses the game with one plain sentence on the table ("Ben (the greedy
bot) could not move; the game is paused — details are in the log"): the error's text
may name a hidden card ("the greedy bot chose Turn(seat=1, card='5', …)"), so it goes
only to the kernel's log and to :attr:`BotRunner.errors` (``w.errors``), never to the
table. Undo then takes the human's last turn back, and the game goes on.

What a bot plays from a position depends only on that position (its cards included) and
the game's seed: each decision gets a bot seeded by :func:`decision_seed` (the seed, the
seat, the turns played), so a game is reproducible and one position is never sampled by
repeating it. That alone does not stop probing from *different* plays (each answer tells
something about the same hidden cards): a take-back of a bot's answer also deals the
cards the human cannot see again (:mod:`~tenleave_widget.table.session.redeal`), so the bots
answer each try from another world.

A bot that thinks (:data:`THINKERS`: ``lookahead``, ``reader``; tens to hundreds of milliseconds a
decision) decides in a worker thread when a loop runs: the thread holds a copy of the
game and gives only the turn back to the loop, which applies it unless the line changed
meanwhile. Python switches threads every few milliseconds (``sys.getswitchinterval()``),
so the kernel keeps handling messages while the bot thinks.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import random
from collections.abc import Callable
from dataclasses import dataclass

from ..analysis import bots
from ..analysis.bots import Bot, make_bot
from ..engine.game import Game
from ..engine.turn import Turn
from ..table import tasks
from ..table.session.machine import Session

__all__ = ["THINKERS", "BotFailure", "BotRunner", "decide", "decision_seed"]

log = logging.getLogger(__name__)

THINKERS = frozenset({"lookahead", "reader"})
"""The bots whose decision runs in a worker thread on a running loop."""


def decide(bot: Bot, game: Game, seat: int) -> Turn:
    """The turn ``bot`` plays for ``seat``, the seat to move in ``game``.

    The one place the widget asks a bot: ``game`` is the live game; the engine's
    :func:`~tenleave_widget.analysis.bots.decide` runs the bot protocol (the bot sees only the
    seat's view and the legal turns) on a copy of it.

    Args:
        bot: the bot (:func:`~tenleave_widget.analysis.bots.make_bot`).
        game: the live game (not changed).
        seat: the seat to move.

    Returns:
        The turn the bot plays.
    """
    return bots.decide(bot, game.copy(), seat)


def decision_seed(seed: int, seat: int, turns: int) -> int:
    """The seed of the bot decision of ``seat`` after ``turns`` turns of a game seeded
    ``seed``: the same position, the same seed, the same answer.

    Args:
        seed: the table's seed.
        seat: the seat to move.
        turns: the turns played.

    Returns:
        A 64-bit seed.

    Example:
        >>> decision_seed(1, 2, 3) == decision_seed(1, 2, 3) != decision_seed(1, 2, 4)
        True
    """
    return random.Random(f"tenleave-bot/{seed}/{seat}/{turns}").getrandbits(64)


@dataclass(frozen=True)
class BotFailure:
    """A bot that could not move (kept in the kernel: ``w.errors``; it may name hidden
    cards, so it is never synced). ``turn``: the turns played when the bot was asked.

    Args:
        seat: the bot's seat.
        bot: the bot's name.
        turn: the turns played when it was asked.
        error: the exception it raised.
    """

    seat: int
    bot: str
    turn: int
    error: BaseException

    def __str__(self) -> str:
        what = f"{type(self.error).__name__}: {self.error}"
        return f"seat {self.seat} ({self.bot} bot) after {self.turn} turns: {what}"


class BotRunner:
    """Moves the bots of ``session``; ``changed`` is called after every change to show.

    Args:
        session: the table's session.
        delay: seconds between two bot turns.
        seed: the table's seed (``None``: one drawn now).
        changed: called after every change to show.
    """

    def __init__(
        self, session: Session, delay: float, seed: int | None, changed: Callable[[], None]
    ) -> None:
        self.session = session
        self.delay = delay
        self.changed = changed
        # without a seed, one drawn now: the bots' answers still depend on the position only
        self.seed = seed if seed is not None else random.SystemRandom().getrandbits(64)
        self.bots: dict[int, Callable[[int], Bot]] = {
            s: functools.partial(make_bot, name) for s, name in session.bots.items()
        }
        """Each bot seat's bot maker: a decision's seed -> the bot that makes it."""
        self.errors: list[BotFailure] = []
        """Every bot failure of this table, oldest first (the details the table omits)."""

    def at_once(self) -> bool:
        """Whether :meth:`start` would move the bots now, in this call, and show the table
        once after their turns, quickly: a bot to move, no delay (or no running loop) and no
        bot of the table one that thinks (:data:`THINKERS`). Its caller then need not show
        the table first."""
        session = self.session
        return (session.bot_to_move() is not None and self._pacing_loop() is None
                and not any(b in THINKERS for b in session.bots.values()))

    def _pacing_loop(self) -> asyncio.AbstractEventLoop | None:
        """The running loop the bots' turns are paced on (``delay`` apart), or None: no
        delay, or no running loop (a script, a test), and the bots move at once."""
        if self.delay <= 0:
            return None
        try:
            return asyncio.get_running_loop()
        except RuntimeError:
            return None

    def start(self) -> None:
        """Let the bots move until a human is to move (the session is shown meanwhile)."""
        session = self.session
        if session.bot_to_move() is None:
            if session.busy:
                session.busy = False
                self.changed()
            return
        session.busy = True
        session.stalled = False
        generation = session.generation
        loop = self._pacing_loop()
        if loop is None:
            while self._move(generation):
                pass
            session.busy = False
            self.changed()
            return
        self.changed()
        swat = any(e["kind"] == "swat" for e in session.live.events())
        loop.call_later(self.delay * (4 if swat else 1), self._tick, generation)

    def _move(self, generation: int) -> bool:
        """Let the bot to move play one turn; False when none moved (a human's turn, the
        line changed, or the bot failed: then the failure is on the table)."""
        session = self.session
        seat = session.bot_to_move()
        if generation != session.generation or seat is None:
            return False
        try:
            live = session.live
            bot = self.bots[seat](decision_seed(self.seed, seat, live.turns_applied))
            session.apply(decide(bot, live, seat))
        except Exception as e:  # noqa: BLE001 - any bug must reach the table, not hang it
            self._failed(seat, e)
            return False
        return True

    def _tick(self, generation: int) -> None:
        """One paced bot move (called by the event loop)."""
        seat = self.session.bot_to_move()
        if (generation == self.session.generation and seat is not None
                and self.session.bots[seat] in THINKERS):
            self._think(generation, seat)
            return
        self._after(generation, self._move(generation))

    def _think(self, generation: int, seat: int) -> None:
        """Let a thinking bot decide in the worker thread, then move on the loop."""
        loop = asyncio.get_running_loop()
        live = self.session.live
        try:
            bot = self.bots[seat](decision_seed(self.seed, seat, live.turns_applied))
        except Exception as e:  # noqa: BLE001 - shown on the table
            self._failed(seat, e)
            self._after(generation, False)
            return
        future = tasks.run(loop, functools.partial(decide, bot, live.copy(), seat)).future

        def done(f: asyncio.Future[Turn]) -> None:
            if generation != self.session.generation:
                return  # the line changed while the bot thought: its turn is dropped
            try:
                self.session.apply(f.result())
            except Exception as e:  # noqa: BLE001 - any bug must reach the table
                self._failed(seat, e)
                self._after(generation, False)
                return
            self._after(generation, True)

        future.add_done_callback(done)

    def _failed(self, seat: int, e: Exception) -> None:
        """The bot of ``seat`` failed with ``e``: the detail to the log and :attr:`errors`,
        a plain sentence to the table (:meth:`Session.bot_failed`)."""
        session = self.session
        failure = BotFailure(seat, session.bots[seat], session.live.turns_applied, e)
        log.error("the %s bot could not move: %s", failure.bot, failure, exc_info=e)
        self.errors.append(failure)
        session.busy = False
        session.bot_failed(seat)

    def _after(self, generation: int, moved: bool) -> None:
        """After a paced move: show it and go on, or stop waiting."""
        try:
            if not moved:
                if generation == self.session.generation:
                    self.session.busy = False
                    self.changed()
                return
            self.changed()
            self.start()
        except Exception:  # a failure while showing: never leave the table busy
            log.exception("the table could not be updated after a bot's move")
            self.session.busy = False
