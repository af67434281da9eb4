"""The judge: every decision of a record judged from the mover's view
(:func:`judge_decision`, a pure function of the decision, the budget and the seed), and
the review of a record assembled from them with the luck of its swats (:func:`review`,
:func:`review_steps`, :func:`assemble_review`)."""

from __future__ import annotations

from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass
from typing import ParamSpec, TypeVar, cast

from ...engine.cards import card_value
from ...engine.errors import SetupError
from ...engine.game import Game
from ...engine.record import RecordSource
from ...engine.turn import BEFORE, Turn
from ...engine.view import View, has_history
from ..analyse import Verdict, _to_end, settings_for
from ..analyse import judge_steps as verdict_steps
from ..infer import with_history
from .evaluator import check_budget
from .luck import replay_luck
from .replay import Replay, replay
from .results import Review, TurnReview, _summaries

__all__ = ["Decision", "Progress", "assemble_review", "decisions", "judge_decision",
           "judge_steps", "review", "review_steps", "seen_by_peek"]

P = ParamSpec("P")
R = TypeVar("R")


Progress = Callable[[int, int], None]
"""A progress callback: ``progress(turns_done, turns_total)``."""


def from_verdict(k: int, played: Turn, v: Verdict) -> TurnReview:
    """Decision ``k``'s judged turn from the one analysis's verdict on it
    (:func:`~tenleave_widget.analysis.analyse.judge`): every figure is the verdict's."""
    a = v["analysis"]
    top, mine = a["decisions"][0], a["decisions"][v["played"]]
    groups = {d["group"] for d in a["decisions"]}
    nxt = [d["vs_best"] for d in a["decisions"] if d["group"] != top["group"]]
    gap = max(0.0, min(nxt)) if nxt and a["star"] else 0.0
    best = played if mine["group"] == top["group"] else Turn.from_json(top["turn"])
    return TurnReview(
        turn=k, seat=played.seat, played=played,
        expected_final_penalty=mine["expected_final_penalty"],
        best=best, best_expected_final_penalty=top["expected_final_penalty"],
        loss=v["loss"], loss_ci95=(v["loss_ci95"][0], v["loss_ci95"][1]),
        label="best" if a["forced"] else v["label"], forced=a["forced"],
        candidates=len(groups), gap=0.0 if a["forced"] else gap,
        reference=a["reference"], beta=a.get("beta"),
        expected_margin=mine["expected_margin"], best_expected_margin=top["expected_margin"],
        near=v["near"], analysis=a["format"],
    )


@dataclass(frozen=True)
class Decision:
    """One decision of a record, the unit of a review's work: the turn's index, the
    mover's view just before it (all the evaluation may see) and the turn played.

    :func:`judge_decision` judges it, a pure function of the decision, the budget and the
    seed: a batch review (:mod:`tenleave_widget.programs.class_review`) runs the decisions
    of many games on many processes with the same results as :func:`review`.
    """

    turn: int
    view: View
    played: Turn
    seen: int | None = None
    """A peek before the play of a card the mover could not see: the value it showed (the
    play after it is judged from what the mover then knew)."""


def decisions(record: RecordSource | Game, *, history: bool = False) -> list[Decision]:
    """The decisions of a record, in order (the record checked first, see
    :func:`~.replay.replay`).
    ``history``: each view with its public history (what the inferred model reads:
    :func:`~tenleave_widget.analysis.infer.with_history`).

    >>> from tenleave_widget import Game
    >>> g = Game(["Ana", "Ben"], seed=3)
    >>> g.apply({"seat": 0, "play": ["5", 0]})
    >>> [(d.turn, d.played.seat, d.view["seat"]) for d in decisions(g)]
    [(0, 0, 0)]
    """
    return replay_decisions(replay(record), history=history)


def seen_by_peek(before: Game, view: View, played: Turn) -> int | None:
    """What a peek before the play showed the mover (``before``: the game just before the
    turn, ``view``: the mover's view of it), when it looked at a card it could not see;
    else None. The verdict on a peek first judges the play made knowing it."""
    if played.peek is None or played.extra != BEFORE:
        return None
    q, i = played.peek
    if view["queues"][q][i]["value"] is not None:
        return None
    return card_value(before.queue_cards(q)[i][1])


def replay_decisions(rp: Replay, *, history: bool = False) -> list[Decision]:
    """:func:`decisions` of a record already replayed (its positions read)."""
    out = []
    for k, (g, t) in enumerate(zip(rp.positions, rp.turns, strict=False)):
        # a view with its history is a View with one more key (docs/view.md)
        view: View = with_history(g, t.seat) if history else g.view(t.seat)
        out.append(Decision(k, view, t, seen_by_peek(g, view, t)))
    return out


def judge_decision(
    d: Decision, *, samples: int | None = None, seed: int = 0, objective: str = "margin",
    model: str = "uniform", beta: float | str = "fitted",
) -> TurnReview:
    """One decision judged from the mover's view (the turn of a :func:`review` with the
    same budget, seed, objective and model, which calls this function for each of its
    turns). ``model="inferred"`` needs the decision's view with its public history
    (``decisions(record, history=True)``): its worlds are dealt from the posterior of
    what the other players' choices so far suggest
    (:class:`~tenleave_widget.analysis.reader.Belief`, ``beta`` per opponent or
    ``"fitted"``), and the judged turn keeps the betas read."""
    return _to_end(judge_steps(d, samples=samples, seed=seed, objective=objective,
                               model=model, beta=beta))


def judge_steps(
    d: Decision, *, samples: int | None = None, seed: int = 0, objective: str = "margin",
    model: str = "uniform", beta: float | str = "fitted",
) -> Generator[None, None, TurnReview]:
    """:func:`judge_decision` a chunk of play-outs per ``next`` (the one analysis's
    :func:`~tenleave_widget.analysis.analyse.judge_steps`): a background job that takes
    turns with others in one thread (the coach, :mod:`tenleave_widget.table.coach.verdicts`);
    its result is :func:`judge_decision`'s."""
    budget = check_budget(samples, seed, objective, model, beta)
    if model == "inferred" and not has_history(d.view):
        raise SetupError("the inferred model reads the public history: judge the decisions "
                         "of decisions(record, history=True)")
    # the one analysis of the position, ranked by the objective (one digest per objective)
    v = yield from verdict_steps(d.view, d.played.to_json(), settings_for(budget),
                                 model=model, beta=beta, seed=seed, seen=d.seen,
                                 objective=objective)
    return from_verdict(d.turn, d.played, v)


def assemble_review(
    record: RecordSource | Game,
    judged: Sequence[TurnReview],
    *,
    samples: int | None = None,
    seed: int = 0,
    objective: str = "margin",
    model: str = "uniform",
    beta: float | str = "fitted",
) -> Review:
    """The review of a record from its judged decisions (:func:`judge_decision`, in the
    order of :func:`decisions`): the luck of every swat and each seat's summary added."""
    check_budget(samples, seed, objective, model, beta)
    return _assemble(replay(record), judged, samples=samples, seed=seed, objective=objective,
                     model=model, beta=beta)


def _assemble(
    rp: Replay, judged: Sequence[TurnReview], *, samples: int | None, seed: int,
    objective: str, model: str, beta: float | str,
) -> Review:
    """:func:`assemble_review` of a record already replayed."""
    budget = check_budget(samples, seed, objective, model, beta)
    if [(t.turn, t.seat) for t in judged] != [(k, t.seat) for k, t in enumerate(rp.turns)]:
        raise SetupError("the judged decisions are not those of the record, in order")
    wakes = replay_luck(rp)
    g = rp.end
    seats = _summaries(g.seats, list(judged), wakes, objective, rp.final)
    return Review(list(g.players), objective, list(judged), wakes, seats, budget, seed,
                  rp.notes, model, beta if model != "uniform" else "fitted")


def review_steps(
    record: RecordSource | Game,
    *,
    samples: int | None = None,
    seed: int = 0,
    objective: str = "margin",
    progress: Progress | None = None,
    model: str = "uniform",
    beta: float | str = "fitted",
) -> Generator[None, None, Review]:
    """:func:`review` a slice at a time: a generator that judges the record's
    :func:`decisions` in turn (:func:`judge_steps`: a chunk of worlds per ``next``), calls
    ``progress(done, total)`` after each decision, and returns the :func:`assemble_review`
    of them all. Without threads (Pyodide) the review panel runs it a step per slice of
    the event loop, so the table answers between two chunks; the steps' result is
    :func:`review`'s.

    >>> from tenleave_widget import Game
    >>> g = Game(["Ana", "Ben"], seed=3)
    >>> g.apply({"seat": 0, "play": ["5", 0]})
    >>> steps = review_steps(g, samples=2, progress=lambda done, total: print(done, total))
    >>> try:
    ...     while True:
    ...         next(steps)
    ... except StopIteration as end:
    ...     print(len(end.value.turns))
    1 1
    1
    """
    check_budget(samples, seed, objective, model, beta)
    rp = replay(record)  # once: the decisions and the luck read its positions
    ds = replay_decisions(rp, history=model == "inferred")
    judged: list[TurnReview] = []
    for d in ds:  # a slice of evaluation per step (the table answers between two)
        judged.append((yield from judge_steps(d, samples=samples, seed=seed,
                                              objective=objective, model=model, beta=beta)))
        if progress is not None:
            progress(d.turn + 1, len(ds))
        yield
    return _assemble(rp, judged, samples=samples, seed=seed, objective=objective,
                     model=model, beta=beta)


def _to_the_end(steps: Callable[P, Generator[None, None, R]], name: str,
                doc: str) -> Callable[P, R]:
    """The function ``name`` (documented by ``doc``) that runs the generator ``steps``
    makes from its arguments to its end, and returns what it returns."""

    def run(*args: P.args, **kwargs: P.kwargs) -> R:
        gen = steps(*args, **kwargs)
        while True:
            try:
                next(gen)
            except StopIteration as end:
                return cast(R, end.value)

    run.__name__ = run.__qualname__ = name
    run.__doc__ = doc
    return run


review = _to_the_end(review_steps, "review", """Review every decision and every swat of a
    record (an object, a path, or a game).

    ``samples``: worlds sampled per decision (default :data:`DEFAULT_SAMPLES`);
    ``seed``: the same seed gives the same review; ``objective``: what a loss is measured
    in (:data:`OBJECTIVES`). ``model``: which model of the cards the mover cannot see
    judges each decision — ``"uniform"`` (the rules alone, the default) or
    ``"inferred"`` (what the other players' choices so far suggest, ``beta`` per
    opponent or ``"fitted"``; ``docs/methods/review.md``). The
    luck of the swats is the uniform model's either way. ``progress(done, total)`` is called
    after each turn. An invalid record raises :class:`RecordError` naming the turn,
    before any evaluation. The work is :func:`review_steps`, run to its end: the two take
    the same arguments.
    """)
