"""The stand-in game a student's kernel can rebuild from its seat's view and public
history: its view of the seat is the real view at every turn of random games at 2-5
seats, and it is a function of that view alone (twin positions give the same one)."""

from __future__ import annotations

import random

import pytest
from helpers import random_game
from widget.test_widget_secrets import swapped_record

from tenleave_widget import Game
from tenleave_widget.analysis.infer import with_history
from tenleave_widget.engine.errors import InvalidViewError
from tenleave_widget.programs.dealer.stand_in import stand_in, stand_in_record


@pytest.mark.parametrize("case", range(12))
def test_the_stand_in_shows_the_seat_its_own_view(case: int) -> None:
    seats = 2 + case % 4
    full = random_game(seats, seed=500 + case)  # peeks, rotations, wakes, daybreak
    rng = random.Random(case)
    record = full.to_record()
    for k in sorted({0, full.turns_applied, *rng.sample(range(full.turns_applied), 6)}):
        g = Game.from_record(record, k)
        for seat in range(seats):
            assert stand_in(with_history(g, seat)).view(seat) == g.view(seat), (k, seat)


@pytest.mark.parametrize("case", range(8))
def test_twin_positions_give_the_same_stand_in(case: int) -> None:
    rng = random.Random(case)
    while True:
        seats = 2 + case % 4
        g = random_game(seats, seed=rng.randrange(10**6), turns=rng.randrange(3, 9 * seats))
        seat = rng.randrange(seats)
        swap = swapped_record(g, seat, rng)
        if swap is not None:
            break
    twin = Game.from_record(swap[0])
    assert twin.view(None) != g.view(None)
    assert stand_in_record(with_history(twin, seat)) == stand_in_record(with_history(g, seat))


def test_the_teachers_view_has_no_stand_in() -> None:
    with pytest.raises(InvalidViewError):
        stand_in(with_history(Game(2), None))
