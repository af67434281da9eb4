"""Error messages in plain words for the student at the table.

The engine and the session speak precisely, for programmers and scripts (0-based queue
numbers, card notation, ``queue sizes [1, 2]``). What the table's message line shows is
this module's sentence instead: the rule in a sentence, queues numbered as on the table,
no internal notation. :func:`plain_words` knows every message a click can cause
(``tests/widget/test_widget_classroom.py`` collects them by clicking through many games); any
other message gets a generic sentence.

>>> from tenleave_widget.engine.errors import IllegalActionError
>>> plain_words(IllegalActionError("cannot wake SleepKid: every queue must hold at least "
...                                "2 cards (queue sizes [2, 0])"))
'You can wake SleepKid only when every queue holds at least 2 cards; queue 2 holds 0.'
>>> plain_words(IllegalActionError("a turn takes at most one additional action or wake"))
... # doctest: +ELLIPSIS
'One extra step per turn: you have already peeked, rotated or woken SleepKid. Play a...'
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ...engine.cards import split_back

__all__ = ["GENERIC", "plain_words"]

GENERIC = "That is not allowed right now."


def _card(notation: str) -> str:
    value, marked = split_back(notation)  # whatever was typed: not checked
    return f"{value} with a marked back" if marked else value


def _wake(m: re.Match[str]) -> str:
    sizes = [int(x) for x in re.findall(r"\d+", m["sizes"])]
    short = [(q + 1, n) for q, n in enumerate(sizes) if n < 2]
    held = "; ".join(f"queue {q} holds {n}" for q, n in short)
    return f"You can wake SleepKid only when every queue holds at least 2 cards; {held}."


def _undo(m: re.Match[str]) -> str:
    what = m["what"]
    what = re.sub(r"\bin (your |\w+'s )?turn (\d+)", r"on \1turn \2", what)  # 1-based
    return f"No undo: {what}, and what was seen cannot be taken back."


PLAIN: list[tuple[str, Callable[[re.Match[str]], str]]] = [
    (r"cannot wake SleepKid: every queue must hold at least 2 cards \(queue sizes "
     r"(?P<sizes>\[[\d, ]*\])\)", _wake),
    (r"a turn takes at most one (additional action or wake|of peek, rotate and wake)",
     lambda m: "One extra step per turn: you have already peeked, rotated or woken "
               "SleepKid. Play a card if you have not yet, then press End turn."),
    (r"a turn plays exactly one card",
     lambda m: "You have already played a card this turn: press End turn."),
    (r"wake is allowed only before playing",
     lambda m: "Wake SleepKid before you play your card, not after."),
    (r"queue (?P<q>\d+) is full \((?P<n>\d+) cards\): play elsewhere",
     lambda m: f"Queue {int(m['q']) + 1} is full ({m['n']} cards): play on another queue."),
    (r"seat \d+ has no '(?P<card>[^']+)' in hand",
     lambda m: f"There is no {_card(m['card'])} in your hand."),
    (r"cannot peek: queue \d+ has no card at position \d+.*",
     lambda m: "There is no card there to peek at."),
    (r"cannot rotate queue (?P<q>\d+): it holds (?P<n>\d+) card\(s\).*",
     lambda m: f"Queue {int(m['q']) + 1} needs at least 2 cards to rotate."),
    (r"the turn has no play yet",
     lambda m: "Play a card first: choose one in your hand, then Play here under a queue."),
    (r"the game is over.*",
     lambda m: "The game is over. Press Play again for a new game."),
    (r"it is not your turn: (?P<who>.+) is to move",
     lambda m: f"Wait: it is {m['who']}'s turn."),
    (r"cannot undo: (?P<what>.+) \(face-down values were shown\), so it cannot be taken back",
     _undo),
    (r"there is no turn of yours to take back",
     lambda m: "There is no turn of yours to take back yet."),
    (r"undo is for one player against bots",
     lambda m: "Undo works only when one player plays against bots."),
    (r"nothing to take back in this turn",
     lambda m: "Nothing to start again: you have not done anything this turn."),
    (r"this turn cannot be started again: you peeked at a card and have seen it; (?P<then>.+)",
     lambda m: f"This turn cannot be started again: you have seen the card you peeked at. "
               f"{m['then'][0].upper()}{m['then'][1:]}."),
    (r"this turn cannot be started again: SleepKid has woken and swatted; (?P<then>.+)",
     lambda m: f"This turn cannot be started again: SleepKid has woken and swatted. "
               f"{m['then'][0].upper()}{m['then'][1:]}."),
    (r"the screen is covered: the next player must uncover it",
     lambda m: "The screen is covered: the next player presses I am ready."),
    (r"the screen is not covered",
     lambda m: "The screen is not covered: it is your turn."),
    (r"this is a replay: use the turn controls",
     lambda m: "This is a replay: step through it with the turn buttons or the arrow keys."),
    (r"this is a replay: there is no game to play again",
     lambda m: "This is a replay: there is no game to play again."),
    (r"the game is not over yet: play it to the end first",
     lambda m: "The game is not over yet: play it to the end first."),
    (r"nothing is left to play at this turn: go to an earlier turn to play on from it",
     lambda m: "The game is over at this turn: go back to an earlier turn to play on from it."),
    (r"play on from here is for a replay.*",
     lambda m: "Play on from here is for a replay of a game."),
    (r"this table has no lesson.*", lambda m: "This table has no lesson."),
    (r"this replay stays in (?P<name>.+)'s view: it cannot show another",
     lambda m: f"This replay shows {m['name']}'s view only."),
    (r"no question is on the table: press Next moment first",
     lambda m: "No question is on the table yet: press Next moment first."),
]


def plain_words(error: BaseException) -> str:
    """The sentence the table shows for ``error`` (see the module docstring)."""
    text = str(error)
    for pattern, say in PLAIN:
        m = re.fullmatch(pattern, text)
        if m:
            return say(m)
    return GENERIC
