"""The one statistics module: Wilson intervals for proportions, normal ones for means, and
the lookahead's win probability reported with Wilson's (it was a Wald interval that said
[1, 1] when every world was won)."""

from __future__ import annotations

import math
import statistics

import pytest

from tenleave_widget import Game
from tenleave_widget.analysis import lookahead
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
