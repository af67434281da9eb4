"""Confidence intervals, once: a proportion's is Wilson's, a mean's the normal one.

Every 95% interval the package reports comes from here: the lookahead's win probability
and its mean penalties and margins, the review's paired losses, the simulation's win
rates, and the benchmarks'. A proportion's interval is the Wilson score interval — it
stays inside [0, 1] and does not collapse to a point when every world is won or lost
(the normal "Wald" interval would say [1, 1] after 48 wins in 48 worlds).

>>> wilson(48, 48)[1] < 1.0 == wilson(48, 48)[2]
True
>>> mean_ci([1, 2, 3])
(2.0, 0.868..., 3.131...)
"""

from __future__ import annotations

import math
import sys
from collections.abc import Sequence

__all__ = ["Z95", "mean_ci", "mean_half_width", "wilson"]

Z95 = 1.96
"""The normal quantile of a two-sided 95% interval."""

COMPILED_MIN_VALUES = 16
"""The fewest values :func:`mean_half_width` sums in machine code (where the compiled
kernel's module is loaded): below, Python's ``math.fsum`` is as quick as the call."""

_COMPILED = "tenleave_widget.analysis.playout_numba"


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float, float]:
    """A proportion ``k / n`` with its Wilson score interval: ``(p, low, high)``
    (``nan`` three times when ``n == 0``). The interval always holds ``p``.

    >>> [round(x, 4) for x in wilson(3, 10)]
    [0.3, 0.1078, 0.6032]
    >>> wilson(0, 5)[:2]
    (0.0, 0.0)
    """
    if n == 0:
        return (math.nan, math.nan, math.nan)
    p = k / n
    den = 1 + z * z / n
    c = (p + z * z / (2 * n)) / den
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    # at k == 0 and k == n the exact ends are 0 and 1: rounding would leave p outside
    return (p, min(p, max(0.0, c - h)), max(p, min(1.0, c + h)))


def mean_half_width(xs: Sequence[float], z: float = Z95) -> tuple[float, float]:
    """The mean of ``xs`` and the half-width of its normal 95% interval (sample standard
    deviation; 0 with fewer than 2 values).

    >>> m, h = mean_half_width([1.0, 3.0]); m, round(h, 6)
    (2.0, 1.96)
    """
    n = len(xs)
    # exactly rounded sums (math.fsum) and squares by multiplication: the same bits on
    # every machine and Python (``sum`` of floats is compensated from Python 3.12 on, and
    # ``x ** 2`` is the C library's ``pow``, not always correctly rounded), and in any
    # order of ``xs``. Where the compiled kernel is loaded, long samples are summed in
    # machine code: the same algorithm, the same bits.
    compiled = sys.modules.get(_COMPILED) if n >= COMPILED_MIN_VALUES else None
    got = None if compiled is None else compiled.mean_squares(xs)
    if got is None:
        m = math.fsum(xs) / n
        if n < 2:
            return m, 0.0
        ss = math.fsum([(x - m) * (x - m) for x in xs])
    else:
        m, ss = got
    sd = math.sqrt(ss / (n - 1))
    return m, z * sd / math.sqrt(n)


def mean_ci(xs: Sequence[float], z: float = Z95) -> tuple[float, float, float]:
    """The mean of ``xs`` with its normal 95% interval: ``(mean, low, high)`` (a point
    with fewer than 2 values). For paired differences, pass the differences.

    >>> mean_ci([4.0])
    (4.0, 4.0, 4.0)
    """
    m, h = mean_half_width(xs, z)
    if len(xs) < 2:
        return (m, m, m)
    return (m, m - h, m + h)
