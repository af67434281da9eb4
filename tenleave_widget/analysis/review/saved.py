"""A review saved with its record: :func:`attach_review` writes it as the record's optional
``review`` section, :func:`saved_review` reads it back, every value checked
(:func:`check_saved`)."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from ...engine.cards import card_value
from ...engine.errors import RecordError, TenLeaveError, excerpt
from ...engine.game import Game
from ...engine.record import RecordSource, record_object
from ...engine.turn import Turn
from ..analyse import ANALYSIS_FORMAT, LABELS, label_of
from ..position import MODELS
from .luck import replay_luck
from .replay import Replay, replay
from .results import (
    OBJECTIVES,
    REVIEW_FORMAT,
    THRESHOLDS,
    Review,
    SeatSummary,
    TurnReview,
    WakeLuck,
    _label,
    _summaries,
)

__all__ = ["attach_review", "check_saved", "saved_review"]


def attach_review(record: Mapping[str, Any], result: Review) -> dict[str, Any]:
    """A copy of ``record`` with ``result`` as its optional ``review`` section (the record
    itself, notes included, unchanged). RULES.md §8 has readers ignore unknown top-level
    keys, so older readers still read the record; :func:`saved_review` reads it back.
    """
    out = dict(record)
    out["review"] = result.to_saved()
    return out


def saved_review(record: RecordSource) -> Review | None:
    """The review saved in a record's ``review`` section, or ``None`` when it has none.

    The section is validated like a record (:func:`check_saved`): every field of the
    right type, every number finite and in its range, every label the one its loss and
    :data:`THRESHOLDS` give, every best move legal in its position, the luck that of the
    record's swats. Anything else — a malformed section, an edited one, or the review of
    another game — is a :class:`RecordError` (naming the turn where one is at fault) that
    asks for a new review; nothing of the section is used unchecked.
    """
    obj = record_object(record)  # read once: the game and its review from the same text
    sec = obj.get("review")
    if sec is None:
        Game.from_record(obj)  # the record is checked all the same
        return None
    return check_saved(sec, replay(obj))


class _Bad(Exception):
    """A fault of a saved review (see :func:`check_saved`); ``turn``: the turn judged."""

    def __init__(self, what: str, turn: int | None = None) -> None:
        super().__init__(what)
        self.what, self.turn = what, turn


def _field(obj: Mapping[str, Any], key: str, where: str = "") -> Any:
    if key not in obj:
        raise _Bad(f"{where}{key!r} is missing")
    return obj[key]


def _number(value: object, what: str, low: float, high: float) -> float:
    """``value`` as a float if it is a JSON number (not a boolean, not a string) in
    ``[low, high]``: finite, and never converted before it is known to be small."""
    ok = (type(value) is int and low <= value <= high) or (
        type(value) is float and math.isfinite(value) and low <= value <= high
    )
    if not ok:
        raise _Bad(f"{what} must be a number from {low:g} to {high:g}, not {excerpt(value)}")
    return float(value)  # type: ignore[arg-type]  # an int or a float, checked


def _integer(value: object, what: str, low: int, high: int) -> int:
    if type(value) is not int or not low <= value <= high:
        raise _Bad(f"{what} must be an integer from {low} to {high}, not {excerpt(value)}")
    return value


def _saved_turn(raw: object, what: str) -> Turn:
    try:
        return Turn.from_json(raw)
    except TenLeaveError as e:
        raise _Bad(f"{what}: {e}") from None


SAVED_SAMPLES_LIMIT = 1_000_000
"""The largest ``samples`` a saved review may claim (worlds per decision)."""
SAVED_SEED_LIMIT = 10**20
"""A saved review's ``seed`` is an integer of magnitude below this (20 digits)."""
_TOL = 1e-9


def _close(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=_TOL, abs_tol=_TOL)


def check_saved(sec: object, rp: Replay) -> Review:
    """The :class:`Review` of a saved ``review`` section of the record replayed as ``rp``,
    every value checked; else a :class:`RecordError` asking for a new review. See
    :func:`saved_review`."""
    try:
        return _check_saved(sec, rp)
    except _Bad as e:
        raise RecordError(f"'review': {e.what} (review the record again)", turn=e.turn) from None


def _check_saved(sec: object, rp: Replay) -> Review:
    g, turns = rp.start, rp.turns
    if not isinstance(sec, dict):
        raise _Bad(f"it must be an object, not {excerpt(sec)}")
    if sec.get("format") != REVIEW_FORMAT:
        raise _Bad(f"'format' must be {REVIEW_FORMAT!r}, not {excerpt(sec.get('format'))}")
    objective = _field(sec, "objective")
    if objective not in OBJECTIVES:
        raise _Bad(f"unknown objective {excerpt(objective)}")
    samples = _integer(_field(sec, "samples"), "'samples'", 1, SAVED_SAMPLES_LIMIT)
    seed = _integer(_field(sec, "seed"), "'seed'", 1 - SAVED_SEED_LIMIT, SAVED_SEED_LIMIT - 1)
    model = sec.get("model", "uniform")
    if model not in MODELS or ("model" in sec) != (model != "uniform"):
        raise _Bad(f"unknown model {excerpt(model)}")
    beta: float | str = "fitted"
    if model != "uniform":
        raw_beta = _field(sec, "beta")
        beta = raw_beta if raw_beta == "fitted" else _number(raw_beta, "'beta'", 0.0, 1e9)
    elif "beta" in sec:
        raise _Bad("a review by the uniform model has no 'beta'")
    if _field(sec, "players") != g.players:
        raise _Bad("its players are not the record's")
    raw = _field(sec, "turns")
    if not isinstance(raw, list) or len(raw) != len(turns):
        n = len(raw) if isinstance(raw, list) else excerpt(raw)
        raise _Bad(f"it judges {n} turns, the record has {len(turns)}")
    # the most a seat can score: its dealt cards' values; a margin moves by twice that
    most = [sum(card_value(c) for c in dealt) for dealt in g.view(None)["dealt"]]
    judged = []
    for k, (tj, t) in enumerate(zip(raw, turns, strict=True)):
        try:
            judged.append(_check_turn(tj, k, t, rp.positions[k], objective, most[t.seat],
                                      model))
        except _Bad as e:
            raise _Bad(e.what, turn=k) from None
    wakes = replay_luck(rp)
    _check_wakes(_field(sec, "wakes"), wakes, g.seats)
    seats = _summaries(g.seats, judged, wakes, objective, rp.final)
    _check_seats(_field(sec, "seats"), seats)
    return Review(list(g.players), objective, judged, wakes, seats, samples, seed, rp.notes,
                  model, beta)


def _check_turn(
    tj: object, k: int, t: Turn, g: Game, objective: str, most: int, model: str = "uniform"
) -> TurnReview:
    """One saved judgement of turn ``k`` (``t``, played from ``g``'s position)."""
    if not isinstance(tj, dict):
        raise _Bad(f"a judged turn must be an object, not {excerpt(tj)}")
    if _field(tj, "turn") != k or type(tj["turn"]) is not int:
        raise _Bad(f"its turn {k} is numbered {excerpt(tj['turn'])}")
    if _field(tj, "seat") != t.seat or type(tj["seat"]) is not int:
        raise _Bad(f"its seat {excerpt(tj['seat'])} is not the seat that moved ({t.seat})")
    if _saved_turn(_field(tj, "played"), "'played'") != t:
        raise _Bad("the turn it judges is not the record's")
    best = _saved_turn(_field(tj, "best"), "'best'")
    if best.seat != t.seat or best not in g.legal_turns:
        raise _Bad(f"its best move {excerpt(tj['best'])} is not a legal turn of seat "
                   f"{t.seat} there")
    span = 2.0 * most if objective == "margin" else 1.0  # the largest possible loss
    now = g.penalty[t.seat]
    expected = _number(_field(tj, "expected_final_penalty"), "'expected_final_penalty'",
                       now, most)
    best_expected = _number(_field(tj, "best_expected_final_penalty"),
                            "'best_expected_final_penalty'", now, most)
    reference = _number(tj.get("reference", expected), "'reference'", now, most)
    loss = _number(_field(tj, "loss"), "'loss'", 0.0, span)
    ci = _field(tj, "loss_ci95")
    if not isinstance(ci, list) or len(ci) != 2:
        raise _Bad(f"'loss_ci95' must be a list of two numbers, not {excerpt(ci)}")
    lo = _number(ci[0], "'loss_ci95'", -2 * span, loss)
    hi = _number(ci[1], "'loss_ci95'", loss, 3 * span)
    judged_by = tj.get("analysis")
    if judged_by is None and not _close(hi - loss, loss - lo):
        raise _Bad(f"'loss_ci95' {excerpt(ci)} is not centred on the loss {loss:g}")
    if judged_by is not None and hi - loss < loss - lo and not _close(hi - loss, loss - lo):
        # the one analysis's: centred, or reaching further up (another best may be better)
        raise _Bad(f"'loss_ci95' {excerpt(ci)} reaches less far above the loss {loss:g} "
                   "than below it")
    gap = _number(tj.get("gap", 0.0), "'gap'", 0.0, span)
    forced = _field(tj, "forced")
    if type(forced) is not bool:
        raise _Bad(f"'forced' must be true or false, not {excerpt(forced)}")
    label = _field(tj, "label")
    if type(label) is not str:
        raise _Bad(f"'label' must be a label's name, not {excerpt(label)}")
    if judged_by is not None and judged_by != ANALYSIS_FORMAT:
        raise _Bad(f"'analysis' must be {ANALYSIS_FORMAT!r}, not {excerpt(judged_by)}")
    # the (label, near) the one analysis gives this interval, tied with the best or not
    reach = {label_of(loss, lo, hi, tied, THRESHOLDS[objective]) for tied in (True, False)}
    if forced:
        wants = {"best"}
    elif judged_by is not None:  # the one analysis labels by the loss's interval
        wants = {lab for lab, _ in reach}
    else:
        wants = {_label(loss, objective)}
    if label not in wants:
        raise _Bad(f"label {excerpt(label)} where its loss {loss:g} is "
                   f"{' or '.join(repr(w) for w in sorted(wants))}")
    near = tj.get("near")
    if near is not None and near not in LABELS:
        raise _Bad(f"'near' must be a label, not {excerpt(near)}")
    if near is not None and (label, near) not in reach:  # not what the interval reaches
        could = sorted({n for lab, n in reach if lab == label and n is not None})
        raise _Bad(f"'near' {excerpt(near)} where the interval {excerpt(ci)} of a "
                   f"{label} reaches " + (" or ".join(map(repr, could)) or "no harsher label"))
    margins = [None if tj.get(f) is None else _number(tj[f], f"'{f}'", -span, span)
               for f in ("expected_margin", "best_expected_margin")]
    if forced and gap != 0:
        raise _Bad("a forced decision has no gap")
    if best == t:
        if loss != 0 or lo != 0 or (hi != 0 and judged_by is None) or \
                not _close(best_expected, expected):
            raise _Bad("the turn played is the best, yet it loses against it")
    elif best.peek is not None and judged_by is None:
        raise _Bad("a best move other than the turn played never peeks (peeks are not "
                   "valued)")
    return TurnReview(
        turn=k, seat=t.seat, played=t, expected_final_penalty=expected, best=best,
        best_expected_final_penalty=best_expected, loss=loss, loss_ci95=(lo, hi),
        label=label, forced=forced, reference=reference, gap=gap,
        beta=_check_read(tj, t.seat, g.seats, model), expected_margin=margins[0],
        best_expected_margin=margins[1], near=near, analysis=judged_by,
    )


def _check_read(tj: Mapping[str, Any], seat: int, seats: int,
                model: str) -> dict[str, float] | None:
    """A saved turn's betas read (the inferred model's: one number >= 0 per opponent of
    the mover; the uniform model's turns have none)."""
    if model == "uniform":
        if "beta" in tj:
            raise _Bad("a turn judged by the uniform model has no 'beta'")
        return None
    raw = _field(tj, "beta")
    opponents = [str(o) for o in range(seats) if o != seat]
    if not isinstance(raw, dict) or sorted(raw) != sorted(opponents):
        raise _Bad(f"'beta' must give a number per opponent ({', '.join(opponents)}), not "
                   f"{excerpt(raw)}")
    return {o: _number(raw[o], "'beta'", 0.0, 1e9) for o in opponents}


def _check_wakes(raw: object, wakes: Sequence[WakeLuck], seats: int) -> None:
    """The saved luck of every swat is the record's (it is recomputed, exactly)."""
    if not isinstance(raw, list) or len(raw) != len(wakes):
        raise _Bad("its luck is not that of the record's swats")
    for w, wj in zip(wakes, raw, strict=True):
        if not isinstance(wj, dict) or wj.get("turn") != w.turn or wj.get("kind") != w.kind:
            raise _Bad("its luck is not that of the record's swats", turn=w.turn)
        luck = wj.get("luck")
        if not isinstance(luck, list) or len(luck) != seats or not all(
            _close(_number(x, "'luck'", -1e6, 1e6), y) for x, y in zip(luck, w.luck, strict=True)
        ) or ("actual" in wj and wj["actual"] != w.actual):
            raise _Bad("its luck is not that of the record's swats", turn=w.turn)


def _check_seats(raw: object, seats: Sequence[SeatSummary]) -> None:
    """The saved per-seat summary is the one its judgements give."""
    if not isinstance(raw, list) or len(raw) != len(seats):
        raise _Bad("its seat summaries are not those of its judgements")
    for s, sj in zip(seats, raw, strict=True):
        want = s.to_json()
        if not isinstance(sj, dict) or set(want) - set(sj) or any(
            not _same(sj[key], value) for key, value in want.items()
        ):
            raise _Bad(f"its summary of seat {s.seat} is not that of its judgements")


def _same(saved: object, value: object) -> bool:
    if isinstance(value, float):
        return isinstance(saved, (int, float)) and not isinstance(saved, bool) and _close(
            _number(saved, "a number", -1e9, 1e9), value)
    return type(saved) is type(value) and saved == value
