"""The lookahead's options (:class:`EvaluationOptions`): one object for what an evaluation
values and how, the same figures as the keywords it replaces, and a typed error for an
option that does not exist."""

from __future__ import annotations

import dataclasses

import pytest
from helpers import random_game

from tenleave_widget.analysis.lookahead import (
    Evaluation,
    EvaluationOptions,
    Policy,
    evaluate_view,
)
from tenleave_widget.engine.errors import SetupError
from tenleave_widget.engine.turn import TurnObject


def test_an_options_object_and_its_keywords_give_the_same_figures() -> None:
    g = random_game(3, seed=3, turns=6)
    view = g.view(g.to_move)
    options = EvaluationOptions(rotations=False, per_world=True, policy=Policy(explore=0.2))
    a = evaluate_view(view, 8, 2, options=options)
    assert a == evaluate_view(view, 8, 2, rotations=False, per_world=True,
                              policy=Policy(explore=0.2))
    assert "margin_samples" in a["moves"][0]
    # a keyword changes that field of the options, and only that one
    b = evaluate_view(view, 8, 2, options=options, per_world=False)
    assert b == evaluate_view(view, 8, 2, rotations=False, policy=Policy(explore=0.2))
    assert len(b["moves"]) == len(a["moves"]) < len(evaluate_view(view, 8, 2)["moves"])
    ev = Evaluation(view, 8, 2, options=options, objective="win")
    assert ev.options == dataclasses.replace(options, objective="win_probability")
    assert options.objective == "margin"  # the object given is not changed


def test_the_options_are_frozen_and_keep_their_own_turns() -> None:
    g = random_game(3, seed=5, turns=4)
    view = g.view(g.to_move)
    every = evaluate_view(view, 1, 0, rotations=False)["moves"]
    turns: list[TurnObject] = [m["turn"] for m in every if "wake" not in m["turn"]][:2]
    options = EvaluationOptions(turns=turns)
    with pytest.raises(dataclasses.FrozenInstanceError):
        options.rotations = False  # type: ignore[misc]
    turns.append({"seat": 9, "play": ["1", 0]})  # not the seat's: refused if it were read
    ev = evaluate_view(view, 4, 1, options=options)
    assert [m["turn"] for m in ev["moves"]] == [dict(t) for t in turns[:2]]


def test_an_option_that_does_not_exist_is_a_setup_error_naming_it() -> None:
    g = random_game(2, seed=1, turns=2)
    view = g.view(g.to_move)
    with pytest.raises(SetupError, match="no evaluation option named 'rotation'"):
        evaluate_view(view, 4, 1, rotation=False)
    with pytest.raises(SetupError, match="options must be EvaluationOptions"):
        Evaluation(view, 4, 1, options={"rotations": False})  # type: ignore[arg-type]
    with pytest.raises(SetupError, match="objective must be 'margin' or 'win_probability'"):
        EvaluationOptions(objective="luck")
