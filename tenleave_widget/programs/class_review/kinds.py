"""The kinds of a decision, for a class review's table of losses by kind.

**Kinds of decision** (:func:`kinds_of`; a decision has one kind of each family):

- *action*: ``wake`` (SleepKid woken before the play), ``peek``, ``rotate`` or
  ``play only``;
- *card*: ``high card`` (a 4 or a 5) or ``low card`` (1 to 3);
- *back*: ``marked card`` (its back shows ``*``) or ``plain card``;
- *round*: ``early in a round`` (fewer cards on the table than a queue holds) or
  ``late in a round`` (at least as many).

>>> from tenleave_widget.engine.turn import Turn
>>> view = {"queue_capacity": 4, "queues": [[{}], [{}, {}, {}]]}
>>> kinds_of(view, Turn(0, "5*", 1, wake=True))
['wake', 'high card', 'marked card', 'late in a round']
"""


from __future__ import annotations

from ...engine.cards import MARKED, card_back, card_value
from ...engine.turn import Turn
from ...engine.view import View

__all__ = ["KINDS", "kinds_of"]


def kinds_of(view: View, played: Turn) -> list[str]:
    """The kinds of a decision, one of each family (see the module docstring)."""
    action = {"wake": "wake", "peek": "peek", "rotate": "rotate"}.get(played.action,
                                                                       "play only")
    card = "high card" if card_value(played.card) >= 4 else "low card"
    back = "marked card" if card_back(played.card) == MARKED else "plain card"
    on_table = sum(len(q) for q in view["queues"])
    when = "early in a round" if on_table < int(view["queue_capacity"]) else "late in a round"
    return [action, card, back, when]


KINDS = ("wake", "peek", "rotate", "play only", "high card", "low card", "marked card",
         "plain card", "early in a round", "late in a round")
"""Every kind, in the report's order."""


