"""Property tests over random games of 2–5 seats (hypothesis)."""

from __future__ import annotations

import json
import random

import pytest
from helpers import all_cards, dealt_cards
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tenleave_widget import Game, IllegalActionError, Turn

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
games = st.tuples(st.integers(2, 5), st.integers(0, 2**32 - 1))


def walk(seats: int, seed: int) -> list[Game]:
    """Every position of one random game (copies), from the start to the end."""
    rng = random.Random(seed)
    g = Game(seats, seed=seed, first=rng.randrange(seats))
    out = [g.copy()]
    while not g.finished:
        g.apply(g.legal_turns.sample(rng))
        out.append(g.copy())
    return out


@SETTINGS
@given(games)
def test_every_card_is_in_exactly_one_place(gs: tuple[int, int]) -> None:
    for g in walk(*gs):
        assert all_cards(g) == dealt_cards(g)


@SETTINGS
@given(games, st.integers(0, 2**32 - 1))
def test_every_listed_turn_applies_and_is_contained(gs: tuple[int, int], pick: int) -> None:
    rng = random.Random(pick)
    for g in walk(*gs)[:-1]:
        legal = g.legal_turns
        listed = list(legal)
        assert len(listed) == len(legal) == len(set(listed))
        for t in rng.sample(listed, min(8, len(listed))):
            assert t in legal
            c = g.copy()
            c.apply(t)
            assert c.turns_applied == g.turns_applied + 1


def random_turn(rng: random.Random, seat: int) -> Turn:
    kind = rng.choice(["none", "peek", "rotate", "wake", "two"])
    card = rng.choice(["1", "2", "3*", "4*", "5", "5*", "3", "6", "", "x"])
    q = rng.randrange(-1, 4)
    t = Turn(seat if rng.random() < 0.8 else rng.randrange(-1, 6), card, q)
    extra = rng.choice(["before", "after"])
    if kind == "peek":
        return t._replace(peek=(rng.randrange(-1, 4), rng.randrange(-1, 5)), extra=extra)
    if kind == "rotate":
        return t._replace(rotate=rng.randrange(-1, 4), extra=extra)
    if kind == "wake":
        return t._replace(wake=True)
    if kind == "two":
        return t._replace(rotate=0, peek=(0, 0), extra=extra)
    return t


@pytest.mark.slow
@SETTINGS
@given(games, st.integers(0, 2**32 - 1))
def test_illegal_turns_are_rejected_and_change_nothing(gs: tuple[int, int], pick: int) -> None:
    rng = random.Random(pick)
    for g in walk(*gs):
        legal = set(g.legal_turns)
        for _ in range(12):
            t = random_turn(rng, g.to_move if g.to_move is not None else 0)
            before = g.copy()
            if t.normalized() in legal:
                g.apply(t)
                g.undo()
            else:
                try:
                    g.apply(t)
                except IllegalActionError as e:
                    assert str(e)
                else:
                    raise AssertionError(f"illegal {t} was applied")
            assert g == before
            assert g.view(None) == before.view(None)


@SETTINGS
@given(games)
def test_record_round_trip_and_undo(gs: tuple[int, int]) -> None:
    states = walk(*gs)
    final = states[-1]
    rec = json.loads(json.dumps(final.to_record()))
    assert Game.from_record(rec) == final
    g = final.copy()
    for prev in reversed(states[:-1]):
        g.undo()
        assert g == prev
        assert g.view(None) == prev.view(None)
    # undo then redo draws the same tokens again
    redo = g.copy()
    for t in final.turns:
        redo.apply(t)
    assert redo == final


@SETTINGS
@given(games)
def test_a_seat_view_holds_only_what_it_knows(gs: tuple[int, int]) -> None:
    for g in walk(*gs):
        omni = g.view(None)
        for seat in range(g.seats):
            v = g.view(seat)
            json.dumps(v)  # JSON-serialisable
            assert v.keys() == omni.keys()
            for q, oq in zip(v["queues"], omni["queues"], strict=False):
                for card, ocard in zip(q, oq, strict=False):
                    known = card["owner"] == seat or seat in card["peeked_by"]
                    assert card["value"] == (ocard["value"] if known else None)
                    assert set(card) == {"key", "owner", "back", "value", "peeked_by"}
            for s, h in enumerate(v["hands"]):
                assert (h["cards"] is not None) == (s == seat)
                assert h["size"] == h["marked"] + h["plain"] == omni["hands"][s]["size"]
            for e in v["events"]:
                # public events only: no card notation or value of a face-down card
                if e["kind"] in ("peek", "play", "rotate", "wake"):
                    assert "card" not in e and "value" not in e
            # nothing else differs from the omniscient view
            strip = {k: x for k, x in v.items() if k not in ("seat", "queues", "hands")}
            ostrip = {k: x for k, x in omni.items() if k not in ("seat", "queues", "hands")}
            assert strip == ostrip


@SETTINGS
@given(games)
def test_views_do_not_depend_on_unknown_values(gs: tuple[int, int]) -> None:
    """Swap the values of two cards a seat cannot tell apart: its view must not change."""
    seats, seed = gs
    rng = random.Random(seed)
    g = Game(seats, seed=seed)
    # play only plain turns without swats, so that no card is ever flipped
    while g.turns_applied < seats * 2:
        plays = [t for t in g.legal_turns if t.action == "none"]
        g.apply(rng.choice(plays))
    rec = g.to_record()
    viewer = 0
    # an opponent card on the table and another of the same back but another value: one
    # always exists (each opponent has played 2 cards, and a colour holds at least two
    # values of each back), so the test checks something on every example
    swaps = [
        (i, t, alt)
        for i, t in enumerate(rec["turns"])
        if t["seat"] != viewer
        for alt in g.hand(t["seat"])
        if alt.endswith("*") == t["play"][0].endswith("*") and alt != t["play"][0]
    ]
    assert swaps, f"no opponent card to swap in {rec['turns']}"
    i, t, alt = swaps[0]
    rec2 = json.loads(json.dumps(rec))
    rec2["turns"][i]["play"][0] = alt
    g2 = Game.from_record(rec2)
    assert g2.view(viewer) == g.view(viewer)
    assert g2.view(t["seat"]) != g.view(t["seat"])


@SETTINGS
@given(games)
def test_random_turn_matches_the_legal_collection(gs: tuple[int, int]) -> None:
    seats, seed = gs
    g = Game(seats, seed=seed)
    r1, r2 = random.Random(seed), random.Random(seed)
    while not g.finished:
        a = g.random_turn(r1)
        assert a == g.legal_turns.sample(r2)
        g.apply(a)


@SETTINGS
@given(games)
def test_checked_path_self_play_path_and_preview_agree(gs: tuple[int, int]) -> None:
    """One executor: apply (checked), push (self-play) and preview (steps) do the
    same thing to the same game."""
    seats, seed = gs
    rng = random.Random(seed)
    checked = Game(seats, seed=seed, first=seed % seats)
    fast = Game(seats, seed=seed, first=seed % seats)
    while not checked.finished:
        t = checked.legal_turns.sample(rng)
        steps = t.steps()
        previews = [checked.preview(steps[:k]) for k in range(len(steps) + 1)]
        nxt = fast.push(t)
        checked.apply(t)
        assert checked == fast and nxt == checked.to_move
        assert checked.view(None) == fast.view(None)
        events = checked.events()
        assert fast.events() == events
        # each preview did a prefix of the turn: its events are a prefix of the turn's
        for k, p in enumerate(previews):
            shown = p.events()
            assert shown == events[: len(shown)], (t, k)
            assert p.to_move == t.seat and p.turns_applied == checked.turns_applied - 1
        whole = previews[-1]
        assert [whole.hand(s) for s in range(seats)] == [checked.hand(s) for s in range(seats)]
        if len(whole.events()) == len(events):  # the turn's end swatted nothing
            assert whole.view(None)["queues"] == checked.view(None)["queues"]
        assert Turn.from_steps(t.seat, steps) == t


def test_one_field_list_behind_copy_and_eq() -> None:
    from tenleave_widget.engine.game import _FIELDS

    g = Game(3, seed=4)
    for _ in range(7):
        g.apply(g.legal_turns[len(g.legal_turns) // 2])
    assert set(vars(g)) == {name for name, _, _ in _FIELDS}, "add new attributes to _FIELDS"
    c = g.copy()
    assert c == g and c.view(None) == g.view(None) and c.events() == g.events()
    for name, how, _ in _FIELDS:
        if how in ("list", "list of lists", "own"):
            assert vars(c)[name] is not vars(g)[name], name
    # what == leaves out is derived: a replay of the record has the same of it
    r = Game.from_record(g.to_record())
    assert r == g and r._fill == g._fill and r._events == g._events
    c.apply(c.legal_turns[0])
    assert c != g
