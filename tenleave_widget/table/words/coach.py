"""The coach's words for a student: what to do differently, in the order it is done, and
about how many points it is worth (the analyst's figures and intervals are the *Details*'),
in one place a teacher can translate.

A rotation names the card it moves only where the seat knows that card (its own, or one it
peeked at): the words are made from the seat's view before the turn, which holds no other
value (:func:`front_card`)."""

from __future__ import annotations

from collections.abc import Sequence

from ...analysis.review.text import LABEL_WORDS, turn_text
from ...engine.turn import Turn
from ...engine.view import View

__all__ = ["MODE_SAID", "MOST_NAMED", "NO_TIME", "TAKEN_BACK", "TAKEN_BACK_KEPT", "about_points",
           "advice", "ask_text", "front_card", "instead_words", "label_text", "look_text",
           "or_list", "show_status", "show_text", "tally_text", "verdict_text"]

MODE_SAID = {
    "off": "The coach is off.",
    "after": "The coach will tell you how good each move was, after it.",
    "before": "The coach will tell you how good each move was, and ask before a move that "
              "loses a lot.",
}
"""What the table says when the coach is set to each of its modes."""

TAKEN_BACK = "Taken back: choose another move."
"""*Take it back* (the coach's question): the turn's steps are undone."""

TAKEN_BACK_KEPT = "Taken back (your peek or wake stays): choose another play."
"""*Take it back* after a peek or a wake, which stays."""

NO_TIME = "(The coach had no time to check this move; its verdict follows.)"
"""Said after a turn the coach could not check before it was ended."""

MOST_NAMED = 3
"""The most moves "about equally good" names (then "and N more")."""


MAYBE = {label: f"maybe {LABEL_WORDS[label]}" for label in ("inaccuracy", "mistake", "blunder")}
"""What a verdict says of an error label its loss may still have (its interval reaches
that label's bound: the verdict's ``near``)."""


def label_text(label: str, near: str | None = None) -> str:
    """A verdict's label, and the error label it may still be where its loss's interval
    reaches that label's bound (``near``; a ``good`` it may be is not said: the words
    already say "less than a point").

    >>> label_text("inaccuracy", "mistake"), label_text("mistake"), label_text("best", "good")
    ('inaccuracy (maybe a mistake)', 'mistake', 'best')
    """
    return f"{label} ({MAYBE[near]})" if near in MAYBE else label


def about_points(loss: float) -> str:
    """A loss in whole points, as a student says it.

    >>> about_points(4.2), about_points(1.4), about_points(0.3)
    ('about 4 points', 'about 1 point', 'less than a point')
    """
    n = round(loss)
    if n < 1:
        return "less than a point"
    return f"about {n} point{'' if n == 1 else 's'}"


def or_list(items: Sequence[str], joiner: str = "or") -> str:
    """Moves in words, at most :data:`MOST_NAMED` of them: ``a or b``, ``a, b or c``,
    ``a, b, c or 2 more``; where a move has a comma of its own, semicolons between them.

    >>> or_list(["a", "b", "c", "d", "e"]), or_list(["a", "b"], "and")
    ('a, b, c or 2 more', 'a and b')
    >>> or_list(["5 on queue 1, then rotate queue 1", "5 on queue 1"])
    '5 on queue 1, then rotate queue 1; or 5 on queue 1'
    """
    shown = list(items[:MOST_NAMED])
    if len(items) > MOST_NAMED:
        shown.append(f"{len(items) - MOST_NAMED} more")
    if len(shown) < 2:
        return "".join(shown)
    if any("," in x for x in shown):
        return f"{'; '.join(shown[:-1])}; {joiner} {shown[-1]}"
    return f"{', '.join(shown[:-1])} {joiner} {shown[-1]}"


def front_card(view: View | None, queue: int) -> str | None:
    """The front card of ``queue`` as the seat of ``view`` may name it (``"your 4"``,
    ``"Ana's 1"``), or ``None`` where the seat does not know its value (face down, not its
    own, not peeked at: the view holds no value then) or there is no view.

    >>> from tenleave_widget import Game
    >>> g = Game(2, seed=1)
    >>> g.apply({"seat": 0, "play": ["4*", 0]})
    >>> front_card(g.view(0), 0), front_card(g.view(1), 0)
    ('your 4', None)
    """
    if view is None or not 0 <= queue < len(view["queues"]) or not view["queues"][queue]:
        return None
    card = view["queues"][queue][0]
    if card["value"] is None:
        return None
    owner = card["owner"]
    if owner == view["seat"]:
        return f"your {card['value']}"
    players = view["players"]
    name = players[owner] if 0 <= owner < len(players) else f"seat {owner + 1}"
    return f"{name}'s {card['value']}"


def _moves(view: View | None, queue: int) -> str:
    known = front_card(view, queue)
    if known is None:
        return "(its front card goes to the back)"
    return f"({known} goes from the front to the back)"


def instead_words(played: Turn, best: Turn, view: View | None = None) -> str:
    """What to do differently from ``played``, in the order it is done: only the step to
    add when ``best`` is ``played`` with a rotation, else the whole better move; a rotation
    says what it does, naming the card it moves where the seat knows it (``view``: the
    seat's view before the turn; :func:`front_card`).

    >>> instead_words(Turn(0, "5", 0), Turn(0, "5", 0, rotate=0, extra="after"))
    'Then rotate queue 1 (its front card goes to the back)'
    >>> instead_words(Turn(0, "5", 0), Turn(0, "5", 0, rotate=1, extra="before"))
    'Rotate queue 2 first (its front card goes to the back), then play your 5 on queue 1'
    >>> instead_words(Turn(0, "3*", 0), Turn(0, "5", 1))
    'Instead: 5 on queue 2'
    >>> from tenleave_widget import Game
    >>> g = Game(2, seed=1)
    >>> g.apply({"seat": 0, "play": ["4*", 0]})
    >>> g.apply({"seat": 1, "play": ["1", 0]})
    >>> instead_words(Turn(0, "5", 0), Turn(0, "5", 0, rotate=0, extra="after"), g.view(0))
    'Then rotate queue 1 (your 4 goes from the front to the back)'
    """
    same_play = (played.card, played.queue, played.peek, played.wake) == (
        best.card, best.queue, best.peek, best.wake)
    if same_play and played.rotate is None and best.rotate is not None:
        moves = _moves(view, best.rotate)
        if best.extra == "after":
            return f"Then rotate queue {best.rotate + 1} {moves}"
        return (f"Rotate queue {best.rotate + 1} first {moves}, then play your {best.card} "
                f"on queue {best.queue + 1}")
    words = turn_text(best, words=True)
    if best.rotate is not None:
        words = words.replace(f"rotate queue {best.rotate + 1}",
                              f"rotate queue {best.rotate + 1} {_moves(view, best.rotate)}")
    return f"Instead: {words}"


def _others(played: str, equal: Sequence[str]) -> list[str]:
    return [e for e in equal if e != played]


def advice(played: Turn, best: Turn, loss: float, equal: Sequence[str] = (),
           view: View | None = None) -> str:
    """What to do differently and what it is worth: ``Instead: 5 on queue 2, about 2
    points better``; where the analysis has no separated best (``equal``: the moves about
    as good as the best, two or more, best first), all of them, never a firm ranking.

    >>> advice(Turn(0, "3*", 0), Turn(0, "5", 1), 2.4)
    'Instead: 5 on queue 2, about 2 points better'
    >>> advice(Turn(0, "3*", 0), Turn(0, "5", 1), 2.4, ["5 on queue 2", "4 on queue 1"])
    'Instead: 5 on queue 2 or 4 on queue 1 (about equally good), about 2 points better'
    """
    if len(equal) > 1:
        return f"Instead: {or_list(list(equal))} (about equally good), {about_points(loss)} better"
    return f"{instead_words(played, best, view)}, {about_points(loss)} better"


def ask_text(played: Turn, best: Turn, loss: float, equal: Sequence[str] = (),
             view: View | None = None) -> str:
    """The coach's question before a turn that loses a lot (see :func:`advice`).

    >>> ask_text(Turn(0, "5", 0), Turn(0, "2", 1), 2.44)
    'Are you sure? Instead: 2 on queue 2, about 2 points better.'
    """
    return f"Are you sure? {advice(played, best, loss, equal, view)}."


def verdict_text(label: str, played: Turn, best: Turn, loss: float,
                 equal: Sequence[str] = (), view: View | None = None,
                 near: str | None = None) -> str:
    """A verdict in a student's words: its label (and the error label it may still be,
    ``near``: :func:`label_text`) and what to do differently (see :func:`advice`); a move
    as good as the best says so, naming the others about as good.

    >>> verdict_text("inaccuracy", Turn(0, "3*", 0), Turn(0, "5", 0), 1.23)
    'Coach: inaccuracy — Instead: 5 on queue 1, about 1 point better.'
    >>> verdict_text("best", Turn(0, "3*", 0), Turn(0, "3*", 0), 0.0)
    'Coach: best — 3* on queue 1 was the best move.'
    >>> verdict_text("best", Turn(0, "3*", 0), Turn(0, "5", 1), 0.1,
    ...              ["5 on queue 2", "3* on queue 1"])
    'Coach: best — your move and 5 on queue 2 are about equally good.'
    >>> verdict_text("inaccuracy", Turn(0, "3*", 0), Turn(0, "5", 0), 1.83, near="mistake")
    'Coach: inaccuracy (maybe a mistake) — Instead: 5 on queue 1, about 2 points better.'
    """
    mine = turn_text(played, words=True)
    others = _others(mine, equal)
    if label == "best" and len(equal) > 1 and others:
        return f"Coach: best — your move and {or_list(others, 'and')} are about equally good."
    if mine == turn_text(best, words=True):
        return f"Coach: {label} — {mine} was the best move."
    return f"Coach: {label_text(label, near)} — {advice(played, best, loss, equal, view)}."


def look_text(turn: int, label: str, played: Turn, best: Turn, loss: float,
              equal: Sequence[str] = (), view: View | None = None,
              near: str | None = None) -> str:
    """At game over, a decision worth a second look (turn ``turn``, 0-based; ``near``:
    the error label it may still be, :func:`label_text`).

    >>> look_text(4, "mistake", Turn(0, "3*", 0), Turn(0, "5", 1), 3.2)
    'Turn 5: mistake — Instead: 5 on queue 2, about 3 points better.'
    >>> look_text(4, "mistake", Turn(0, "3*", 0), Turn(0, "5", 1), 3.2, near="blunder")
    'Turn 5: mistake (maybe a blunder) — Instead: 5 on queue 2, about 3 points better.'
    """
    return (f"Turn {turn + 1}: {label_text(label, near)} — "
            f"{advice(played, best, loss, equal, view)}.")


def show_text(best: str, played: str, equal: Sequence[str] = ()) -> str:
    """*Show me*'s words beside the move it outlines (``best``, the analysis's best).

    >>> show_text("5 on queue 2", "3* on queue 1")
    'The better move: 5 on queue 2.'
    >>> show_text("5 on queue 2", "3* on queue 1", ["5 on queue 2", "4 on queue 1"])
    'About equally good: 5 on queue 2 (outlined) and 4 on queue 1.'
    >>> show_text("5 on queue 2", "3* on queue 1", ["5 on queue 2", "3* on queue 1"])
    'About equally good: 5 on queue 2 (outlined) and your move.'
    """
    if len(equal) > 1:
        rest = ["your move" if e == played else e for e in equal if e != best]
        return f"About equally good: {or_list([f'{best} (outlined)', *rest], 'and')}."
    return f"The better move: {best}."


def show_status(turn: int, best: str, played: str, equal: Sequence[str] = ()) -> str:
    """The status line while *Show me* shows the position before turn ``turn`` (0-based).

    >>> show_status(2, "5 on queue 2", "3* on queue 1")
    'Turn 3, as you saw it before your move: the better move, 5 on queue 2, is outlined.'
    >>> show_status(2, "5 on queue 2", "3* on queue 1", ["5 on queue 2", "4 on queue 1"])[40:]
    '5 on queue 2 is outlined; 4 on queue 1 is about equally good.'
    """
    if len(equal) > 1:
        rest = ["your move" if e == played else e for e in equal if e != best]
        verb = "is" if len(rest) == 1 else "are"
        return (f"Turn {turn + 1}, as you saw it before your move: {best} is outlined; "
                f"{or_list(rest, 'and')} {verb} about equally good.")
    return (f"Turn {turn + 1}, as you saw it before your move: the better move, {best}, "
            "is outlined.")


def tally_text(lead: str, decisions: int, labels: dict[str, int],
               accuracy: float | None) -> str:
    """A seat's running tally in words.

    >>> tally_text("So far", 3, {"best": 2, "good": 0, "inaccuracy": 1}, 81.4)
    'So far: 3 decisions — 2 best, 1 inaccuracy; accuracy 81 out of 100.'
    """
    plural = {"inaccuracy": "inaccuracies", "mistake": "mistakes", "blunder": "blunders"}
    counts = ", ".join(f"{n} {plural.get(lab, lab) if n > 1 else lab}"
                       for lab, n in labels.items() if n)
    text = f"{lead}: {decisions} decision{'s' if decisions != 1 else ''} — {counts}"
    if accuracy is not None:
        text += f"; accuracy {accuracy:.0f} out of 100"
    return text + "."
