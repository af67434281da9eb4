"""The coach's words for a student: what to do differently, in the order it is done, and
about how many points it is worth (the analyst's figures and intervals are the *Details*'),
in one place a teacher can translate."""

from __future__ import annotations

from ...analysis.review import turn_text
from ...engine.turn import Turn

__all__ = ["about_points", "instead_words"]


def about_points(loss: float) -> str:
    """A loss in whole points, as a student says it.

    >>> about_points(4.2), about_points(1.4), about_points(0.3)
    ('about 4 points', 'about 1 point', 'less than a point')
    """
    n = round(loss)
    if n < 1:
        return "less than a point"
    return f"about {n} point{'' if n == 1 else 's'}"


def instead_words(played: Turn, best: Turn) -> str:
    """What to do differently from ``played``, in the order it is done: only the step to
    add when ``best`` is ``played`` with a rotation, else the whole better move; a rotation
    says what it does.

    >>> instead_words(Turn(0, "5", 0), Turn(0, "5", 0, rotate=0, extra="after"))
    'Then rotate queue 1 (its front card goes to the back)'
    >>> instead_words(Turn(0, "5", 0), Turn(0, "5", 0, rotate=1, extra="before"))
    'Rotate queue 2 first (its front card goes to the back), then play your 5 on queue 1'
    >>> instead_words(Turn(0, "3*", 0), Turn(0, "5", 1))
    'Instead: 5 on queue 2'
    """
    moves = "(its front card goes to the back)"
    same_play = (played.card, played.queue, played.peek, played.wake) == (
        best.card, best.queue, best.peek, best.wake)
    if same_play and played.rotate is None and best.rotate is not None:
        if best.extra == "after":
            return f"Then rotate queue {best.rotate + 1} {moves}"
        return (f"Rotate queue {best.rotate + 1} first {moves}, then play your {best.card} "
                f"on queue {best.queue + 1}")
    words = turn_text(best, words=True)
    if best.rotate is not None:
        words = words.replace(f"rotate queue {best.rotate + 1}",
                              f"rotate queue {best.rotate + 1} {moves}")
    return f"Instead: {words}"
