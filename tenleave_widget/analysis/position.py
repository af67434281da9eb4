"""A position of a recorded game, as JSON: what ``tenleave replay`` and ``tenleave odds``
print, and what a notebook asks for in one call.

>>> rec = {"format": "tenleave-record/1", "players": ["Ana", "Ben"],
...        "defense": ["I+II"], "turns": [{"seat": 0, "play": ["3*", 1]}]}
>>> r = position(rec)
>>> r["queues"], r["next_seat"]
([[], [{'owner': 0, 'card': '3*'}]], 1)
>>> position_odds(rec, seat=1)["queues"][1]["p_under"]
1.0

Each takes a record as a ``dict`` or the path of a record file as a ``str`` or a
:class:`pathlib.Path` (:data:`~tenleave_widget.engine.record.RecordSource`); a path is
never JSON text, and JSON that is not an object is not a record:

>>> try:
...     position(["not", "a", "record"])
... except ValueError as e:
...     print(e)
a record must be a JSON object (a dict) or the path of a record file, not an array

To step through a game in a notebook, use the widget: ``tenleave_widget.replay``.
"""

from __future__ import annotations

from typing import Any

from ..engine.errors import RecordError, SetupError, excerpt
from ..engine.game import Game
from ..engine.record import RecordSource
from ..engine.view import View
from .infer import (
    DEFAULT_COST,
    DEFAULT_SAMPLES,
    Beta,
    Cost,
    Inference,
    InferredOdds,
    infer,
    inferred_odds,
    with_history,
)
from .lookahead import DEFAULT_SAMPLES as LOOKAHEAD_SAMPLES
from .lookahead import Budget, evaluate_view
from .move_values import MoveValues
from .odds import SeatOdds, seat_odds
from .reader import BELIEF_COST, Belief, dealer


def position(record: RecordSource, turns: int | None = None) -> dict[str, Any]:
    """The omniscient position of a record after its first turns: the ``tenleave replay``
    JSON.

    Args:
        record: a record (a dict), or the path of a record file.
        turns: how many turns to apply (``None``: all of them).

    Returns:
        ``{"finished", "next_seat", "turns_applied", "token", "queues" (front first, every
        value shown), "hands" (sorted), "penalty", "swatted", "safe", "winners"}``.

    Raises:
        RecordError: the record is invalid, or a turn in it is illegal (the message names
            the turn).

    Example:
        >>> from tenleave_widget import Game
        >>> g = Game(["Ana", "Ben"], seed=1)
        >>> g.apply({"seat": 0, "play": ["5", 0]})
        >>> position(g.to_record())["queues"]
        [[{'owner': 0, 'card': '5'}], []]
    """
    g = Game.from_record(record, turns=turns)
    omniscient = g.view(None)
    return {
        "finished": g.finished,
        "next_seat": g.to_move,
        "turns_applied": g.turns_applied,
        "token": g.token,
        "queues": [
            [{"owner": o, "card": c} for o, c in g.queue_cards(q)] for q in range(g.queue_count)
        ],
        "hands": [g.hand(s) for s in range(g.seats)],
        "penalty": g.penalty,
        "swatted": omniscient["swatted"],
        "safe": omniscient["safe"],
        "winners": g.winners,
    }


MODELS = ("uniform", "inferred")
"""The models of the hidden cards the odds can use: the rules alone (RULES.md §9), or the
posterior of what the players' choices suggest (:mod:`tenleave_widget.analysis.infer`)."""


def position_odds(
    record: RecordSource | Game, seat: int, turns: int | None = None, model: str = "uniform",
    beta: Beta = "fitted", seed: int = 0, samples: int = DEFAULT_SAMPLES,
    cost: Cost = DEFAULT_COST,
) -> SeatOdds | InferredOdds:
    """Seat ``seat``'s exact swat-risk odds after the first turns of a record or a game:
    the ``tenleave odds`` JSON.

    Only the seat's view is read. The odds are those of a swat right now: per queue its
    outcome and total, per card its fate, each seat's expected penalty, and on the seat's
    turn each move's expected penalty (RULES.md §9; ``docs/methods/odds.md``).

    Args:
        record: a record (a dict), the path of a record file, or a
            :class:`~tenleave_widget.Game`.
        seat: whose view.
        turns: how many turns to apply (``None``: all of them; a game's current position).
        model: ``"uniform"`` (the rules alone) or ``"inferred"`` (the posterior of what the
            players' choices suggest, :func:`~tenleave_widget.analysis.infer.inferred_odds`).
        beta: with ``model="inferred"``, as :func:`~tenleave_widget.analysis.infer.infer`'s.
        seed: with ``model="inferred"``, as ``infer``'s.
        samples: with ``model="inferred"``, as ``infer``'s.
        cost: with ``model="inferred"``, as ``infer``'s.

    Returns:
        :class:`~tenleave_widget.analysis.odds.SeatOdds`; with ``model="inferred"``,
        :class:`~tenleave_widget.analysis.infer.InferredOdds`.

    Raises:
        RecordError: an invalid record, an illegal turn, or a seat that does not exist.
        SetupError: an unknown ``model``, or a bad ``beta``, ``cost``, ``seed`` or
            ``samples``.

    Example:
        >>> from tenleave_widget import Game
        >>> g = Game(["Ana", "Ben"], seed=1)
        >>> g.apply({"seat": 0, "play": ["5", 0]})
        >>> position_odds(g, seat=1)["queues"][0]["cards"][0]["p_swatted"]
        1.0
    """
    if model == "uniform":
        return seat_odds(position_view(record, seat, turns))
    if model != "inferred":
        raise SetupError(f"model must be one of {', '.join(MODELS)}, not {excerpt(model)}")
    view = with_history(position_game(record, seat, turns), seat)
    return inferred_odds(view, beta=beta, seed=seed, samples=samples, cost=cost)


def position_infer(
    record: RecordSource | Game, seat: int, turns: int | None = None, beta: Beta = "fitted",
    seed: int = 0, samples: int = DEFAULT_SAMPLES, cost: Cost = DEFAULT_COST,
) -> Inference:
    """What the players' choices suggest about the cards seat ``seat`` cannot see, after
    the first ``turns`` turns of a record or a :class:`~tenleave_widget.Game`
    (:func:`~tenleave_widget.analysis.infer.infer` of its view and public history; its
    ``beta``, ``seed``, ``samples`` and ``cost``): the ``tenleave infer`` JSON."""
    return infer(with_history(position_game(record, seat, turns), seat),
                 beta=beta, seed=seed, samples=samples, cost=cost)


def position_view(record: RecordSource | Game, seat: int, turns: int | None = None) -> View:
    """Seat ``seat``'s view (``docs/view.md``) after the first ``turns`` turns of a record
    (a dict, or the path of a record file) or of a :class:`~tenleave_widget.Game` (all):
    the one record-or-game-to-view path of the odds and ``evaluate`` facades. A seat that
    does not exist is a :class:`~tenleave_widget.RecordError`."""
    return position_game(record, seat, turns).view(seat)


def position_game(record: RecordSource | Game, seat: int, turns: int | None = None) -> Game:
    """The game after the first ``turns`` turns of a record or of a game (all), checked to
    have seat ``seat``: :func:`position_view`'s, and with the seat's public history
    (``with_history(position_game(...), seat)``) the inference's input."""
    if isinstance(record, Game):
        g = record
        if turns is not None:
            g = Game.from_record(g.to_record(), turns=turns)
    else:
        g = Game.from_record(record, turns=turns)
    if type(seat) is not int or not 0 <= seat < g.seats:
        raise RecordError(f"seat {excerpt(seat)} does not exist (seats 0..{g.seats - 1})")
    return g


def evaluate(
    record_or_game: RecordSource | Game,
    seat: int,
    turns: int | None = None,
    budget: int | Budget = LOOKAHEAD_SAMPLES,
    seed: int | None = None,
    *,
    model: str = "uniform",
    beta: float | str = "fitted",
    cost: Cost = BELIEF_COST,
    **options: Any,
) -> MoveValues:
    """Seat ``seat``'s whole-game move values after the first turns of a record or a game:
    the ``tenleave evaluate`` JSON.

    Each move of the seat to move is played out to the end of the game in ``budget``
    sampled worlds, from the seat's view only
    (:func:`~tenleave_widget.analysis.lookahead.evaluate_view`; the method:
    ``docs/methods/lookahead.md``).

    Args:
        record_or_game: a record (a dict), the path of a record file, or a
            :class:`~tenleave_widget.Game`.
        seat: whose view.
        turns: how many turns to apply (``None``: all of them).
        budget: worlds per move, or a :class:`~tenleave_widget.analysis.lookahead.Budget`.
        seed: the seed of the worlds (``None``: fresh entropy).
        model: ``"uniform"`` deals the worlds from the rules alone; ``"inferred"`` from
            what the players' choices suggest, and adds ``"model"``, ``"beta"`` (per
            opponent, the beta read) and ``"cost"`` to the result.
        beta: with ``model="inferred"``, each opponent's rationality, or ``"fitted"``.
        cost: with ``model="inferred"``, what the players are read as minimising (as
            :func:`~tenleave_widget.analysis.infer.infer`'s; the one-swat cost by default).
        **options: passed on to ``evaluate_view``.

    Returns:
        :class:`~tenleave_widget.analysis.move_values.MoveValues`: per move its expected
        final penalty and margin with 95% intervals, its chance of winning and its
        one-swat figure, and ``best``, the index of the move with the lowest expected
        margin.

    Raises:
        RecordError: an invalid record, an illegal turn, or a seat that does not exist.
        SetupError: an unknown ``model`` or a bad budget.

    Example:
        >>> from tenleave_widget import Game
        >>> ev = evaluate(Game(3, seed=2), 0, budget=4, seed=0)
        >>> len(ev["moves"]), ev["samples"], ev["moves"][ev["best"]]["turn"]["seat"]
        (12, 4, 0)
        >>> evaluate(Game(3, seed=2), 0, budget=4, seed=0, model="inferred")["model"]
        'inferred'
    """
    if model == "uniform":
        return evaluate_view(position_view(record_or_game, seat, turns), budget, seed, **options)
    if model != "inferred":
        raise SetupError(f"model must be 'uniform' or 'inferred', not {excerpt(model)}")
    view = with_history(position_game(record_or_game, seat, turns), seat)
    belief = Belief(view, beta, seed if seed is not None else 0, cost=cost)
    # the lookahead reads the seat view (a ViewWithHistory is one): the history is not read
    out = evaluate_view(view, budget, seed, deal=dealer(view, belief.sample), **options)
    read = cost if isinstance(cost, str) else {str(o): c for o, c in cost.items()}
    return {**out, "model": "inferred", "beta": belief.beta, "cost": read}
