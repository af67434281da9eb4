"""The swat (RULES.md §4) and daybreak (§6) on plain values: the one kernel.

A queue is a list of card values, front (nearest SleepKid) first. A swat flips cards from
the front until the running total reaches 10 (:data:`~.rules.TARGET`) or the queue ends;
then

- a total **under** 10: the highest flipped card is swatted (every card tied for it);
- **exactly** 10: a swing and miss, nothing is swatted;
- **over** 10: the flipped cards at the Human Defense token's positions (1 = position I,
  the front) are swatted.

The flipped cards leave the queue (swatted or safe); the others move up. At daybreak the
table is swatted pass after pass until it is empty: in a pass, a queue holding exactly
one card lets it escape unflipped, every other queue is swatted; between passes the
token may change (a variant), which the caller decides.

Who uses it: the engine (:mod:`.game`) swats its cards with :func:`swat` (its daybreak
loop is :func:`daybreak` written out on its card ids, to reveal a token and write the
events between passes; ``Game.daybreak_views`` gives the tables before each pass, which
the review's luck reads); the exact odds judge every enumerated outcome with
:func:`swat`. The lookahead's
play-out simulator keeps copies specialised to its packed cards, for speed (see
``Simulator`` in :mod:`tenleave_widget.analysis.playout`). ``tests/engine/test_swat.py`` checks
the engine and those copies against this module.

>>> swat([4, 5, 3], (1, 2))  # 12 > 10: positions I and II
(3, 12, (0, 1))
>>> swat([5, 5, 2], (3, 4))  # 10 after two cards: a swing and miss; the 2 stays
(2, 10, ())
>>> swat([2, 3, 3], (1, 2))  # 8 < 10: the highest, both 3s
(3, 8, (1, 2))
>>> queues = [[5], [4, 4, 3, 1]]
>>> list(daybreak(queues, lambda i: ((1, 2), (3, 4))[i]))  # the 5 escapes; 11; then the 1 escapes
[[None, (3, 11, (0, 1))], [(0, 0, ()), None]]
>>> queues
[[], []]
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Literal

from .rules import TARGET

__all__ = ["NOTHING", "VALUES", "Swat", "daybreak", "daybreak_pass", "outcome", "swat"]


Swat = tuple[int, int, tuple[int, ...]]
"""A swat of one queue: ``(flipped, total, hit)`` — how many cards were flipped from the
front, their total, and the indices (0 = front) of the flipped cards swatted, ascending.
A plain tuple: the engine makes one per queue swatted, and a named tuple's constructor
cost 2% of a whole self-play game (callgrind)."""


VALUES: tuple[int, ...] = tuple(range(TARGET + 1))
"""The identity on card values: the default ``value`` of :func:`swat` (a queue of values)."""

NOTHING: Swat = (0, 0, ())
"""The swat of an empty queue."""


def swat(queue: Sequence[int], positions: Sequence[int], value: Sequence[int] = VALUES) -> Swat:
    """The swat of a queue, front first (the queue is not changed: its first ``flipped``
    cards leave it). ``positions``: the token's, ascending, 1 = the front. A card ``c`` of
    the queue has the value ``value[c]``: by default the queue holds values; the engine
    passes its table of card ids' values.

    Args:
        queue: the queue's cards, front first (values, or ids into ``value``).
        positions: the token's positions, ascending, 1 = the front.
        value: the value of each card id (by default a card is its value).

    Returns:
        ``(flipped, total, swatted)``: how many cards were flipped, their total, and the
            indices (in the queue) of the cards swatted.

    Example:
        >>> swat([], (1, 2)), swat([4, 1], (1, 2))
        ((0, 0, ()), (2, 5, (0,)))
        >>> swat([1, 0, 2], (2, 3), value=[4, 5, 3])  # cards 1, 0, 2 of values 5, 4, 3
        (3, 12, (1, 2))
    """
    total = 0
    k = 0
    for c in queue:
        total += value[c]
        k += 1
        if total >= TARGET:
            break
    if total < TARGET:  # every card flipped: the highest is swatted (all tied for it)
        if not k:
            return NOTHING
        top = 0
        hit = []
        i = 0
        for c in queue:
            v = value[c]
            if v > top:
                top = v
                hit = [i]
            elif v == top:
                hit.append(i)
            i += 1
        return (k, total, tuple(hit))
    if total == TARGET:  # a swing and miss
        return (k, total, ())
    over = []
    for p in positions:  # over 10: the cards at the Human Defense token's positions
        if p <= k:
            over.append(p - 1)
    return (k, total, tuple(over))


def outcome(total: int) -> Literal["under", "exact", "over"]:
    """``"under"``, ``"exact"`` or ``"over"``: how a swat's total compares with 10.

    Args:
        total: a swat's total.

    Returns:
        ``"under"``, ``"exact"`` or ``"over"``.

    Example:
        >>> [outcome(t) for t in (7, 10, 13)]
        ['under', 'exact', 'over']
    """
    return "under" if total < TARGET else "exact" if total == TARGET else "over"


def daybreak_pass(
    queues: list[list[int]], positions: Sequence[int], value: Sequence[int] = VALUES
) -> list[Swat | None]:
    """One daybreak pass, in place: per queue, ``None`` when its single card escaped
    unflipped (it leaves the queue), else its swat (the flipped cards leave it; an
    empty queue's swat flips nothing).

    Args:
        queues: the queues, front first; changed in place.
        positions: the token's positions for this pass.
        value: the value of each card id, as for :func:`swat`.

    Returns:
        One entry per queue: its swat, or ``None`` for a single card that escaped.
    """
    out: list[Swat | None] = []
    for q in queues:
        if len(q) == 1:
            q.clear()
            out.append(None)
        else:
            s = swat(q, positions, value)
            del q[: s[0]]
            out.append(s)
    return out


def daybreak(
    queues: list[list[int]],
    positions: Callable[[int], Sequence[int]],
    value: Sequence[int] = VALUES,
) -> Iterator[list[Swat | None]]:
    """Daybreak, in place: the passes (:func:`daybreak_pass`) until every queue is empty,
    one at a time. Pass ``i`` swats with the token positions ``positions(i)``, called
    when the pass is asked for (after pass ``i - 1`` was handed out; ``i = 0`` first: the
    current token): there the caller changes the token between passes, or not (the
    ``daybreak_token_change`` variant).

    Args:
        queues: the queues, front first; emptied in place.
        positions: the token's positions of pass ``i``, asked for when the pass is.
        value: the value of each card id, as for :func:`swat`.

    Returns:
        An iterator of the passes, each as :func:`daybreak_pass` returns it.
    """
    i = 0
    while any(queues):
        yield daybreak_pass(queues, positions(i), value)
        i += 1
