"""The typed errors of tenleave_widget.

Every error is a :class:`ValueError`, so ``except ValueError`` catches them all, as with
python-chess's ``IllegalMoveError``. An error leaves the game exactly as it was.

>>> from tenleave_widget import Game, IllegalActionError
>>> g = Game(["Ana", "Ben"])
>>> try:
...     g.apply({"seat": 1, "play": ["1", 0]})
... except IllegalActionError as e:
...     print(e)
seat 1 cannot move: it is seat 0's turn
"""

from __future__ import annotations


class TenLeaveError(ValueError):
    """Base class of every error raised by tenleave_widget."""


class IllegalActionError(TenLeaveError):
    """An action (a turn, or a step of one) that the rules do not allow right now."""


class InvalidRulesError(TenLeaveError):
    """A rule-option set (a variant) that is malformed."""


class InvalidViewError(TenLeaveError):
    """A seat view (``docs/view.md``) that is malformed or inconsistent."""


class SetupError(TenLeaveError):
    """Bad arguments for setting up a game, a bot or a simulation."""


class InvalidRecordError(TenLeaveError):
    """A ``tenleave-record/1`` record that is malformed or holds an illegal turn.

    ``turn`` is the 0-based index of the offending turn, or ``None`` when the record as a
    whole is at fault.
    """

    def __init__(self, message: str, turn: int | None = None) -> None:
        self.turn = turn
        self.reason = message
        super().__init__(f"turn {turn}: {message}" if turn is not None else message)
