"""Confidence intervals for win rates and means."""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import cache

from .budget import Interval

Z95 = 1.959963984540054
"""The two-sided 95% quantile of the standard normal distribution."""


def wilson_interval(mean: float, n: int, z: float = Z95) -> Interval:
    """Wilson's 95% score interval for a rate observed as ``mean`` over ``n`` trials.

    Win shares (a tie counts 1/k) are treated as Bernoulli outcomes with that mean; the interval
    stays inside [0, 1] and is sensible at 0% and 100%, unlike the normal approximation.
    """
    if n <= 0:
        return Interval(0.0, 1.0)
    denominator = 1 + z * z / n
    centre = (mean + z * z / (2 * n)) / denominator
    half = z * math.sqrt(max(mean * (1 - mean), 0.0) / n + z * z / (4 * n * n)) / denominator
    return Interval(max(0.0, centre - half), min(1.0, centre + half))


def mean_interval(total: float, total_squares: float, n: int, z: float = Z95) -> Interval:
    """Normal-approximation 95% interval of a mean from its sums (any bounded quantity)."""
    if n <= 1:
        return Interval(-math.inf, math.inf)
    mean = total / n
    variance = max(total_squares / n - mean * mean, 0.0) * n / (n - 1)
    half = z * math.sqrt(variance / n)
    return Interval(mean - half, mean + half)


def _t_within(t: float, df: int) -> float:
    """P(|T| < t) for Student's t with ``df`` degrees of freedom (the closed form for whole
    degrees of freedom: a finite sum in cos^2 of atan(t / sqrt(df)))."""
    theta = math.atan(t / math.sqrt(df))
    c2, s = math.cos(theta) ** 2, math.sin(theta)
    if df % 2 == 0:
        term = total = 1.0
        for k in range(1, df // 2):
            term *= c2 * (2 * k - 1) / (2 * k)
            total += term
        return s * total
    total = 0.0
    if df > 1:
        term = total = math.cos(theta)
        for k in range(1, (df - 1) // 2):
            term *= c2 * (2 * k) / (2 * k + 1)
            total += term
    return 2 / math.pi * (theta + s * total)


@cache
def student_t95(df: int) -> float:
    """The two-sided 95% quantile of Student's t with ``df`` degrees of freedom (12.706 at 1,
    2.262 at 9, 2.042 at 30, towards 1.960)."""
    if df < 1:
        raise ValueError("Student's t needs at least one degree of freedom")
    if df > 10_000:
        return Z95
    low, high = Z95, 13.0
    while _t_within(high, df) < 0.95:
        high *= 2
    for _ in range(100):
        middle = (low + high) / 2
        if _t_within(middle, df) < 0.95:
            low = middle
        else:
            high = middle
    return (low + high) / 2


def student_interval(total: float, total_squares: float, n: int) -> Interval:
    """Student's t 95% interval of a mean from its sums: wider than the normal approximation
    with few observations (2.26 standard errors at 10, 2.09 at 20), the same with many."""
    if n <= 1:
        return Interval(-math.inf, math.inf)
    return mean_interval(total, total_squares, n, student_t95(n - 1))


def figure_interval(values: Sequence[float]) -> Interval:
    """The 95% interval of the expected value of a figure observed once per game: Wilson's
    when every value lies in [0, 1] (a 0-or-1 outcome or a share, where a mean-and-spread
    interval collapses to a point when every game agrees), Student's t otherwise."""
    n = len(values)
    if n and all(0.0 <= v <= 1.0 for v in values):
        return wilson_interval(sum(values) / n, n)
    return student_interval(sum(values), sum(v * v for v in values), n)
