"""How a table is set up (mode, human and bot seats, pacing, …), checked in one place.

:func:`check_config` is the one check behind :class:`TenLeaveWidget` and the entry
points (``play``, ``hotseat``, ``replay``): a bad argument raises
:class:`WidgetMessageError` naming it, before anything is built.

>>> from tenleave_widget import Game
>>> check_config(Game(2, seed=1), mode="play", humans=[0], bots={1: "greedy"}).bots
{1: 'greedy'}
>>> check_config(Game(2, seed=1), mode="play", humans=[0], bots={1: "chess"})  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
tenleave_widget.table.protocol.WidgetMessageError: seat 1: unknown bot 'chess' (choose ...
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from ...analysis.bots import check_bot, check_bot_delay
from ...analysis.lookahead import MAX_SAMPLES
from ...engine.errors import SetupError, TenLeaveError, excerpt, json_kind
from ...engine.game import Game
from ..coach.verdicts import COACH_MODES
from ..protocol import Mode, WidgetMessageError

__all__ = [
    "Config", "assign_seats", "check_config", "check_delay", "check_humans", "is_seat",
    "new_game",
]

MODES = ("play", "hotseat", "replay")


@dataclass(frozen=True)
class Config:
    """A checked set-up. ``humans`` sorted; ``bots`` maps each bot seat to a bot name;
    ``perspective`` and ``turn`` are for replay mode (``turn`` ``None``: the last)."""

    mode: Mode
    humans: list[int] = field(default_factory=list)
    bots: dict[int, str] = field(default_factory=dict)
    perspective: int | None = None
    turn: int | None = None
    bot_delay: float = 0.5
    seed: int | None = None
    show_odds: bool = True
    coach: str = "off"
    """The coach (:mod:`..coach.verdicts`): ``"off"``, ``"after"`` or ``"before"`` (play and
    hot-seat modes)."""
    coach_samples: int | None = None
    """The coach's budget: worlds per decision (``None``: the review's default)."""
    locked: bool = False
    """Replay mode: the table stays in ``perspective``'s view (a student's own replay):
    every view, lesson moment and panel is that seat's, and a switch is refused."""


def is_seat(game: Game, seat: object) -> bool:
    return type(seat) is int and 0 <= seat < game.seats


def check_humans(game: Game, humans: object) -> list[int]:
    """The human seats, sorted; raise :class:`WidgetMessageError` naming a bad one."""
    if isinstance(humans, (str, bytes)) or not isinstance(humans, Sequence):
        raise WidgetMessageError(f"humans must be a list of seats, not {excerpt(humans)}")
    for s in humans:
        if not is_seat(game, s):
            raise WidgetMessageError(
                f"human seat {excerpt(s)} does not exist (seats 0..{game.seats - 1})"
            )
    return sorted(set(cast(Sequence[int], humans)))


def _bots(game: Game, bots: object, humans: Sequence[int]) -> dict[int, str]:
    if bots is None:
        return {}
    if not isinstance(bots, Mapping):
        raise WidgetMessageError(f"bots must map seats to bot names, not {excerpt(bots)}")
    out: dict[int, str] = {}
    for s, name in bots.items():
        if not is_seat(game, s):
            raise WidgetMessageError(
                f"bot seat {excerpt(s)} does not exist (seats 0..{game.seats - 1})"
            )
        if s in humans:
            raise WidgetMessageError(f"seat {s} cannot be both human and bot")
        try:
            out[s] = check_bot(name)  # the engine's one check of a bot name
        except SetupError as e:
            raise WidgetMessageError(f"seat {s}: {e}") from None
    return out


def check_delay(bot_delay: object) -> float:
    """The seconds between two bot turns
    (:func:`~tenleave_widget.analysis.bots.check_bot_delay`); raise
    :class:`WidgetMessageError` naming ``bot_delay`` otherwise."""
    try:
        return check_bot_delay(bot_delay, "bot_delay")
    except SetupError as e:
        raise WidgetMessageError(str(e)) from None


def check_config(
    game: object,
    *,
    mode: object = "play",
    humans: object = (0,),
    bots: object = None,
    perspective: object = None,
    turn: object = None,
    bot_delay: object = 0.5,
    seed: object = None,
    show_odds: object = True,
    coach: object = "off",
    coach_samples: object = None,
    locked: object = False,
) -> Config:
    """The set-up of a table for ``game``, checked; raise :class:`WidgetMessageError`
    naming the first bad argument."""
    if not isinstance(game, Game):
        raise WidgetMessageError(f"game must be a Game, not {json_kind(game)}")
    if mode not in MODES:
        raise WidgetMessageError(
            f"unknown mode {excerpt(mode)} (choose from 'play', 'hotseat', 'replay')"
        )
    delay = check_delay(bot_delay)
    if seed is not None and type(seed) is not int:
        raise WidgetMessageError(f"seed must be an integer or None, not {excerpt(seed)}")
    if not isinstance(show_odds, bool):
        raise WidgetMessageError(f"show_odds must be True or False, not {excerpt(show_odds)}")
    if coach not in COACH_MODES:
        raise WidgetMessageError(
            f"coach must be one of {', '.join(map(repr, COACH_MODES))}, not {excerpt(coach)}"
        )
    if coach_samples is not None and (
            type(coach_samples) is not int or not 1 <= coach_samples <= MAX_SAMPLES):
        raise WidgetMessageError(
            f"coach_samples must be a whole number 1..{MAX_SAMPLES} (worlds per decision, "
            f"the review's bound) or None, not {excerpt(coach_samples)}"
        )
    total = game.turns_applied
    if mode == "replay":
        if coach != "off":
            raise WidgetMessageError("the coach is for play and hot-seat: a replay has a review")
        if perspective is not None and not is_seat(game, perspective):
            raise WidgetMessageError(
                f"perspective must be a seat 0..{game.seats - 1} or None (the teacher's "
                f"view), not {excerpt(perspective)}"
            )
        if turn is not None and not (type(turn) is int and 0 <= turn <= total):
            raise WidgetMessageError(f"turn must be an integer 0..{total}, not {excerpt(turn)}")
        if not isinstance(locked, bool):
            raise WidgetMessageError(f"lock must be True or False, not {excerpt(locked)}")
        if locked and perspective is None:
            raise WidgetMessageError(
                "lock=True keeps a replay in one seat's view: give the seat (seat=P)")
        return Config(
            "replay", perspective=cast("int | None", perspective),
            turn=turn, bot_delay=delay, seed=seed,
            show_odds=show_odds, locked=locked,
        )
    human_seats = check_humans(game, humans)
    bot_seats = _bots(game, bots, human_seats)
    if not human_seats:
        raise WidgetMessageError(f"{mode} mode needs at least one human seat")
    missing = [s for s in range(game.seats) if s not in human_seats and s not in bot_seats]
    if missing:
        raise WidgetMessageError(f"seats {missing} are neither human nor bot")
    if perspective is not None:
        raise WidgetMessageError(
            "perspective is for replay mode: in play the table shows the human seat's view"
        )
    if turn is not None:
        raise WidgetMessageError(
            "turn is for replay mode: play continues from the game's last turn"
        )
    if locked is not False:
        raise WidgetMessageError("lock is for replay mode: a play table shows its human seat")
    return Config(
        cast(Mode, mode), humans=human_seats, bots=bot_seats, bot_delay=delay,
        seed=seed, show_odds=show_odds, coach=coach,
        coach_samples=coach_samples,
    )


def new_game(players: Any, seed: Any, first: Any) -> Game:
    """A new game for ``play`` / ``hotseat``; a bad argument raises
    :class:`WidgetMessageError` naming it."""
    if seed is not None and type(seed) is not int:
        raise WidgetMessageError(f"seed must be an integer or None, not {excerpt(seed)}")
    if not (type(players) is int or (
        isinstance(players, Sequence) and not isinstance(players, (str, bytes))
    )):
        raise WidgetMessageError(
            f"players must be a number of seats or a list of names, not {excerpt(players)}"
        )
    try:
        return Game(players, seed=seed, first=first)
    except TenLeaveError as e:
        raise WidgetMessageError(str(e)) from None


DEFAULT_BOTS = ("greedy", "random")
"""``play``'s bots when none are named: the other seats get these in turn, as many as
there are other seats (one greedy bot in a 2-seat game; greedy, random, greedy in a 4-seat
one)."""


def assign_seats(game: Game, human: object, bots: object) -> tuple[list[int], dict[int, str]]:
    """The human seats and each other seat's bot, from ``play``'s ``human`` (a seat or a
    list of seats) and ``bots`` (bot names in seat order, repeated if fewer than the
    seats; ``None``: :data:`DEFAULT_BOTS`); a bad argument raises
    :class:`WidgetMessageError` naming it.

    >>> assign_seats(Game(3, seed=1), 0, ["greedy"])
    ([0], {1: 'greedy', 2: 'greedy'})
    >>> assign_seats(Game(2, seed=1), 0, None)
    ([0], {1: 'greedy'})
    """
    if isinstance(human, int) and not isinstance(human, bool):
        humans: list[Any] = [human]
    elif isinstance(human, Sequence) and not isinstance(human, (str, bytes)):
        humans = list(human)
    else:
        raise WidgetMessageError(f"human must be a seat or a list of seats, not {excerpt(human)}")
    seats = check_humans(game, humans)
    others = [s for s in range(game.seats) if s not in seats]
    if bots is None:
        names = list(DEFAULT_BOTS[: len(others)])
    elif isinstance(bots, str):
        names = [bots]
    elif isinstance(bots, Sequence) and all(isinstance(b, str) for b in bots):
        names = list(cast(Sequence[str], bots))
    else:
        raise WidgetMessageError(f"bots must be a list of bot names, not {excerpt(bots)}")
    if others and not names:
        raise WidgetMessageError(f"seats {others} need bots: pass bots=[...] or make them human")
    if len(names) > len(others):
        raise WidgetMessageError(f"{len(names)} bots for {len(others)} non-human seats")
    return seats, {s: names[k % len(names)] for k, s in enumerate(others)}
