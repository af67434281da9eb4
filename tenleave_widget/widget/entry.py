"""The entry points: ``play``, ``hotseat`` and ``replay``.

Each builds a game and hands its arguments to :class:`~.controller.TenLeaveWidget`, whose
one check (:func:`~.config.check_config`) names a bad argument.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..analysis.review import saved_review
from ..engine.game import Game
from ..engine.lesson import fit_lesson
from ..engine.record import RecordSource, parse_record, record_object
from ..table.protocol import Mode, WidgetMessageError
from ..table.session.config import assign_seats, new_game
from .branch_view import show_original
from .controller import TenLeaveWidget

__all__ = ["hotseat", "play", "replay"]


def play(
    players: int | Sequence[str] = 3,
    human: int | Sequence[int] = 0,
    bots: Sequence[str] | None = None,
    *,
    seed: int | None = None,
    first: int = 0,
    bot_delay: float = 0.5,
    show_odds: bool = True,
    coach: str = "off",
    coach_samples: int | None = None,
    size: str | None = None,
) -> TenLeaveWidget:
    """A table to play a game against bots (one human seat) or hot-seat (several).

    Show it as the last line of a cell. Bots move after the human, ``bot_delay`` seconds
    apart so that a person can follow; with one human seat the table offers undo (the
    cards that seat cannot see are dealt again, so undo cannot probe them).

    Args:
        players: the number of seats (2 to 5), or the players' names.
        human: the human seat, or seats.
        bots: the bots of the other seats in seat order (``"random"``, ``"greedy"``,
            ``"lookahead"``, ``"reader"``), repeated when there are more seats than names
            (default :data:`~tenleave_widget.table.session.config.DEFAULT_BOTS`:
            ``play(players=2)`` is one human against greedy).
        seed: seeds the deal, the tokens and the bots (``None``: fresh entropy).
        first: the seat that plays first.
        bot_delay: seconds between the bots' turns.
        show_odds: show the odds panels beside the table.
        coach: ``"off"``, ``"after"`` (each human decision judged as the review would, told
            to its seat in words and kept in ``w.verdicts``) or ``"before"`` (also asks
            before a move that loses more than ``w.coach_threshold`` points).
        coach_samples: the coach's worlds per decision (default: the review's).
        size: ``"small"``, ``"medium"``, ``"large"`` or ``"projector"`` (default: the
            kernel's, :func:`~tenleave_widget.set_default_size`).

    Returns:
        The widget (:class:`~.controller.TenLeaveWidget`): ``w.game`` is the game,
        ``w.record()`` its record, ``w.figures()`` its panels as Plotly figures.

    Raises:
        WidgetMessageError: a bad number of seats, seat, bot name, ``coach``, ``size`` or
            delay (a ``ValueError``; the message names it).

    Example:
        >>> w = play(players=3, human=0, bots=["greedy", "random"], seed=1)
        >>> w.game.seats, w.game.to_move
        (3, 0)
    """
    game = new_game(players, seed, first)
    humans, assignment = assign_seats(game, human, bots)
    mode: Mode = "hotseat" if len(humans) > 1 else "play"
    return TenLeaveWidget(
        game, mode=mode, humans=humans, bots=assignment, bot_delay=bot_delay, seed=seed,
        show_odds=show_odds, coach=coach, coach_samples=coach_samples, size=size,
    )


def hotseat(
    players: int | Sequence[str] = 2, *, seed: int | None = None, show_odds: bool = False,
    coach: str = "off", coach_samples: int | None = None, size: str | None = None,
) -> TenLeaveWidget:
    """A pass-the-laptop table: every seat human, on one screen, a cover between seats.

    Args:
        players: the number of seats (2 to 5), or the players' names.
        seed: seeds the deal and the tokens.
        show_odds: show the odds panels (of the seat on screen, never behind the cover).
        coach: as :func:`play`'s: a seat's verdicts are told to that seat only.
        coach_samples: as :func:`play`'s.
        size: as :func:`play`'s.

    Returns:
        The widget (:class:`~.controller.TenLeaveWidget`).

    Raises:
        WidgetMessageError: a bad number of seats, ``coach`` or ``size``.
    """
    game = new_game(players, seed, 0)
    return TenLeaveWidget(
        game, mode="hotseat", humans=list(range(game.seats)), bots={}, seed=seed,
        show_odds=show_odds, coach=coach, coach_samples=coach_samples, size=size,
    )


def replay(
    record: RecordSource, *, seat: int | None = None, turn: int = 0, show_odds: bool = True,
    lesson: Any = None, original: RecordSource | None = None, size: str | None = None,
    lock: bool = False,
) -> TenLeaveWidget:
    """A table that steps through a recorded game, from the teacher's view or a seat's.

    A review saved with the record is shown once checked against it. A game played on
    from another's position (its record's ``branch``, RULES.md §8) says so in the status
    line. The record's ``lesson`` (RULES.md §8), or ``lesson`` given here instead, is
    shown on the table: *Next moment* puts its first question there
    (``w.next_moment()``). A table in one seat's view (a student's own replay) shows a
    lesson only when it is given here, and does not point to the teacher's notes.

    Args:
        record: a record (a dict), or the path of a record file.
        seat: whose view (``None``: the teacher's, everything shown).
        turn: the number of turns applied at first (0: before the first turn).
        show_odds: show the odds panels.
        lesson: a lesson for this table, instead of the record's.
        original: for a branch, the record of the game it was played on from, shown
            below it and stepped with it (``w.original``).
        size: as :func:`play`'s.
        lock: with ``seat``, a student's replay of their own game: every view, lesson
            moment and panel stays that seat's, and a switch to another view (the menu,
            ``set_perspective``, a lesson moment written for another view) is refused in
            one line; the original's replay below a branch is locked too.

    Returns:
        The widget (:class:`~.controller.TenLeaveWidget`) in replay mode.

    Raises:
        RecordError: the record, its saved review, its lesson or ``original`` is invalid
            (the message names the field or the turn).
        WidgetMessageError: a bad ``turn``, ``seat``, ``size`` or ``lock``.

    Example:
        >>> from tenleave_widget import Game
        >>> g = Game(["Ana", "Ben"], seed=1)
        >>> g.apply({"seat": 0, "play": ["5", 0]})
        >>> w = replay(g.to_record(), turn=1)
        >>> w.game.turns_applied
        1
    """
    record = record_object(record)  # read once: the game and its saved review agree
    game = Game.from_record(record)
    if turn is None:  # None is "the last turn" for TenLeaveWidget, not an argument here
        raise WidgetMessageError(f"turn must be an integer 0..{game.turns_applied}, not None")
    saved = saved_review(record)  # a review saved with the record (checked against it)
    w = TenLeaveWidget(game, mode="replay", perspective=seat, turn=turn, show_odds=show_odds,
                       size=size, lock=lock)
    head = parse_record(record)  # checked by Game.from_record above
    w.session.branch = head.branch  # the status line names the branch
    if lesson is not None:
        w.set_lesson(lesson)  # checked against this game: a wrong turn is an error
    if seat is None:  # the record's lesson and notes are the teacher's
        w.session.lesson.load(
            w.session.lesson.lesson or fit_lesson(head.lesson, game.turns_applied))
    else:  # a student's replay from their own seat: no lesson, no pointer to the notes
        w.session.teachers = False
    w._refresh()
    if saved is not None and w.review_panel is not None:
        w.review_panel.set_review(saved)
    if original is not None:
        show_original(w, original)
    return w
