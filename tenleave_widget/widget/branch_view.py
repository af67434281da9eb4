"""A branch and its original, one after the other.

``replay(branch_record, original=original_record)`` shows the replay of a game
played on from another's position (its record's ``branch``, RULES.md §8) and, below it,
the replay of the original game, which steps with it: the branch's record holds the
original's turns before the branch point, so turn ``k`` of the one is turn ``k`` of the
other until the branch (then each its own way; the original stops at its last turn). The
original is the game ``branch.from`` names: its digest is checked first. Both are
shown from the same view (the teacher's, or the seat's chosen for the branch), each only
what that view may see.
"""

from __future__ import annotations

import html

import ipywidgets

from ..engine.game import Game
from ..engine.record import RecordSource, names_record, record_object
from ..table.protocol import WidgetMessageError
from .controller import TenLeaveWidget
from .owned import owned

__all__ = ["show_original"]


def show_original(w: TenLeaveWidget, original: RecordSource) -> TenLeaveWidget:
    """Below the branch's replay ``w``, the replay of ``original`` (the game it branched
    from, checked by its digest), stepped with ``w``; the original's replay.

    Args:
        w: the branch's replay.
        original: the record (or its path) of the game it branched from.

    Returns:
        The original's replay (shown below ``w``, stepping with it).

    Raises:
        WidgetMessageError: ``w``'s record is not a branch, or ``original`` is not the game
            it names.
        RecordError: ``original`` is not a valid record.
    """
    branch = w.session.branch
    if branch is None:
        raise WidgetMessageError(
            "this record is not a branch (it has no 'branch'): there is no original to show"
        )
    game = Game.from_record(record_object(original))
    if not names_record(branch["from"], game.to_record()):
        raise WidgetMessageError(
            "the original given is not the game this one was played on from "
            "(its digest is not the branch's 'from')"
        )
    o = TenLeaveWidget(game, mode="replay", perspective=w.perspective,
                       turn=min(w.turn, game.turns_applied), show_odds=w.session.show_odds,
                       lock=w.session.config.locked)
    n = branch["turn"]
    label = owned(ipywidgets.HTML)(
        f"<p><strong>The original game</strong> ({html.escape(', '.join(game.players))}): "
        f"the game above was played on from its turn {n}. It steps with the replay above, "
        f"up to its own last turn ({game.turns_applied}).</p>"
    )

    def follow() -> None:
        turn = min(w.turn, o.session.live.turns_applied)
        if o.perspective != w.perspective:
            o.set_perspective(w.perspective)
        if o.turn != turn:
            o.goto(turn)

    w.followers.append(follow)
    w._own = (*w._own, label, o)
    w.children = (*w._own, *w.branches)
    w.original = o
    return o
