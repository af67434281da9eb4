"""The entry points: ``play``, ``hotseat`` and ``replay_widget``.

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

__all__ = ["hotseat", "play", "replay_widget"]


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
    """A game against bots (one human seat) or hot-seat (several human seats).

    ``bots`` names the bots of the other seats in seat order (``"greedy"``, ``"random"``),
    repeated if there are more seats than names (default
    :data:`~tenleave_widget.table.session.config.DEFAULT_BOTS`, as many of them as there are other
    seats: ``play(players=2)`` is one human against greedy). Bots move after the human,
    ``bot_delay`` seconds apart so that a person can follow. With one human, the widget
    offers undo.
    ``coach="after"``: every human decision is judged as the review would (in the
    background, ``coach_samples`` worlds per decision;
    :mod:`~tenleave_widget.table.coach.verdicts`), told to its seat in words and kept in
    ``w.verdicts``.
    ``size``: the table's size (``"small"``, ``"medium"``, ``"large"``, ``"projector"``);
    default: the kernel's (:func:`~tenleave_widget.set_default_size`).
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
    """Every seat human, on one screen, with a cover between seats. ``coach`` and
    ``size`` as in :func:`play`: a seat's verdicts are told to that seat only."""
    game = new_game(players, seed, 0)
    return TenLeaveWidget(
        game, mode="hotseat", humans=list(range(game.seats)), bots={}, seed=seed,
        show_odds=show_odds, coach=coach, coach_samples=coach_samples, size=size,
    )


def replay_widget(
    record: RecordSource, *, seat: int | None = None, turn: int = 0, show_odds: bool = True,
    lesson: Any = None, original: RecordSource | None = None, size: str | None = None,
) -> TenLeaveWidget:
    """A record (a dict, or the path of a record file) in replay mode: step through its
    turns, from the teacher's view (``seat=None``, everything shown) or one seat's view.
    A review saved with the record is shown once checked against it (an invalid one is a
    :class:`~tenleave_widget.RecordError`). A game played on from another's position
    (its record's ``branch``, RULES.md §8) says so in the status line. The record's
    ``lesson`` (RULES.md §8), or ``lesson`` given here instead, is shown on the table:
    *Next moment* puts its first question there (``w.next_moment()``). A table opened in
    one seat's view (a student's own replay) shows the record's lesson only when it is
    given here, and does not point to the teacher's notes. ``original``: for
    a branch, the record of the game it was played on from, shown below it and stepped
    with it (:mod:`.branch_view`; ``w.original``). ``size`` as in :func:`play`."""
    record = record_object(record)  # read once: the game and its saved review agree
    game = Game.from_record(record)
    if turn is None:  # None is "the last turn" for TenLeaveWidget, not an argument here
        raise WidgetMessageError(f"turn must be an integer 0..{game.turns_applied}, not None")
    saved = saved_review(record)  # a review saved with the record (checked against it)
    w = TenLeaveWidget(game, mode="replay", perspective=seat, turn=turn, show_odds=show_odds,
                       size=size)
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
