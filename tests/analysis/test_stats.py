"""The one statistics module: Wilson intervals for proportions, normal ones for means, and
the lookahead's win probability reported with Wilson's (it was a Wald interval that said
[1, 1] when every world was won)."""

from __future__ import annotations

import math
import statistics

import pytest

from tenleave_widget import Game
from tenleave_widget.analysis import lookahead, playout_numba
from tenleave_widget.analysis.stats import Z95, mean_ci, mean_half_width, wilson


@pytest.mark.parametrize("n", [1, 2, 5, 48, 1000])
def test_wilson_is_inside_0_1_contains_the_share_and_never_collapses(n: int) -> None:
    for k in range(n + 1):
        p, lo, hi = wilson(k, n)
        assert p == k / n
        assert 0.0 <= lo <= p <= hi <= 1.0
        assert hi - lo > 0.0


def test_wilson_matches_the_score_interval_it_names() -> None:
    # the interval's ends are the roots in p0 of (p - p0)^2 = z^2 p0 (1 - p0) / n
    k, n = 7, 20
    p, lo, hi = wilson(k, n)
    for p0 in (lo, hi):
        assert (p - p0) ** 2 == pytest.approx(Z95**2 * p0 * (1 - p0) / n)
    assert all(math.isnan(x) for x in wilson(0, 0))


def test_mean_ci_is_the_normal_interval_with_the_sample_deviation() -> None:
    xs = [3.0, -1.0, 4.5, 0.0, 2.0]
    m, lo, hi = mean_ci(xs)
    h = Z95 * statistics.stdev(xs) / math.sqrt(len(xs))
    assert m == pytest.approx(statistics.mean(xs))
    assert (lo, hi) == pytest.approx((m - h, m + h))
    assert mean_half_width(xs) == (m, pytest.approx(h))
    assert mean_ci([2.5]) == (2.5, 2.5, 2.5) and mean_half_width([2.5]) == (2.5, 0.0)


def test_lookahead_win_interval_is_wilson_and_does_not_collapse_when_every_world_is_won() -> None:
    g = Game(3, seed=2)
    ev = lookahead.evaluate_view(g.view(0), budget=8, seed=1, per_world=True)
    for m in ev["moves"]:
        wins, n = sum(m["win_samples"]), len(m["win_samples"])
        assert m["win_probability"] == wins / n
        assert m["win_ci95"] == list(wilson(wins, n)[1:])
    st = lookahead._Stats()
    for _ in range(48):
        st.add([0, 5, 7], 0)  # won every world
    f = st.figures()  # the estimates (per-world results are the evaluation's, since 985c9da)
    assert f["win_probability"] == 1.0
    assert f["win_ci95"][1] == 1.0 and f["win_ci95"][0] < 0.95


def test_a_mean_and_its_interval_are_exactly_rounded_in_any_order() -> None:
    """The mean is the exactly rounded sum over ``n`` and the squares' sum exactly
    rounded too (``math.fsum``): the same bits in any order of the values and on any
    Python (``sum`` of floats is compensated from 3.12 on, naive before)."""
    from fractions import Fraction
    from itertools import permutations

    xs = [1e16, 1.0, -1e16, 3.0, 0.1, 0.2]
    want = mean_half_width(xs)
    assert want[0] == float(sum(map(Fraction, xs))) / len(xs)
    for p in permutations(xs):
        assert mean_half_width(list(p)) == want


def test_the_squares_are_products_not_the_c_librarys_pow() -> None:
    """``x ** 2`` is the C library's ``pow``, which is not always correctly rounded
    (glibc's squares of these values' deviations give another last bit); a product is
    the same on every machine."""
    xs = [6.0, -5.8, 1.7]
    m, h = mean_half_width(xs)
    assert m == math.fsum(xs) / 3
    assert h == Z95 * math.sqrt(math.fsum([(x - m) * (x - m) for x in xs]) / 2) / math.sqrt(3)


def _pure(xs: list[float]) -> tuple[float, float]:
    """``mean_half_width`` written out in Python: the figures the compiled sums must give."""
    n = len(xs)
    m = math.fsum(xs) / n
    ss = math.fsum([(x - m) * (x - m) for x in xs])
    return m, Z95 * math.sqrt(ss / (n - 1)) / math.sqrt(n)


def _samples() -> list[list[float]]:
    """Samples of the one analysis's kind (costs in halves, quarters and thirds, their
    differences, 0/1 wins) and hard ones for a sum (values of every magnitude, sums that
    cancel, ties to round half-even across partials, zeros)."""
    import random

    rng = random.Random(45)
    out: list[list[float]] = [
        [1e-16, 1.0, 1e16] * 6, [1.0, 1e100, 1.0, -1e100] * 5, [0.0] * 20,
        [0.1] * 30, [2.0**-1074] * 17 + [1.0], [1e308, -1e308] * 9, [5e-324, -5e-324] * 8,
        [2.0**53, 1.0, -(2.0**-60)] * 6, [1.0] + [2.0**-54] * 15 + [2.0**-107],
    ]
    for _ in range(300):
        n = rng.choice([16, 17, 40, 64, 128, 300, 1000, 2048])
        kind = rng.randrange(4)
        if kind == 0:
            xs = [rng.randrange(-40, 41) / rng.choice([2, 4, 3]) for _ in range(n)]
        elif kind == 1:
            xs = [float(rng.randrange(2)) - float(rng.randrange(2)) for _ in range(n)]
        elif kind == 2:
            xs = [rng.uniform(-1, 1) * 10.0 ** rng.randrange(-300, 300) for _ in range(n)]
        else:
            xs = [rng.gauss(0, 1) for _ in range(n)]
            xs += [-x for x in xs[: n // 2]]
            rng.shuffle(xs)
        out.append(xs)
    return out


def test_long_samples_are_summed_in_machine_code_to_the_same_bits() -> None:
    """With the compiled kernel loaded, :func:`mean_half_width` of 16 values or more sums
    in machine code (``playout_numba.mean_squares``), bit for bit the figures of
    ``math.fsum`` in Python, on samples of the one analysis's kind and hard ones."""
    calls = 0
    real = playout_numba.mean_squares

    def counted(xs: list[float]) -> tuple[float, float] | None:
        nonlocal calls
        calls += 1
        return real(xs)

    samples = _samples()
    mp = pytest.MonkeyPatch()
    mp.setattr(playout_numba, "mean_squares", counted)
    try:
        for xs in samples:
            got = mean_half_width(xs)
            want = _pure(xs)
            assert [x.hex() for x in got] == [x.hex() for x in want], xs[:4]
    finally:
        mp.undo()
    assert calls == len(samples)
    assert mean_half_width([1.0] * 15) == (1.0, 0.0) and calls == len(samples)


@pytest.mark.parametrize("xs", [[math.inf] + [1.0] * 20, [math.nan] * 16, [1e308] * 16,
                                [1.7e308] * 16, [-0.0] * 16, [-0.0, 0.0] * 8])
def test_what_the_compiled_sums_cannot_make_python_makes(xs: list[float]) -> None:
    """Values that are not finite, squares or a sum that overflow, negative zeros summing
    to zero: the compiled sums decline, and the figures (or the error) are Python's."""
    assert playout_numba.mean_squares(xs) is None
    try:
        want = [x.hex() for x in _pure(xs)]
    except OverflowError:
        with pytest.raises(OverflowError):
            mean_half_width(xs)
        return
    assert [x.hex() for x in mean_half_width(xs)] == want
