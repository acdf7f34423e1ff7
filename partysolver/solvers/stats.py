"""Confidence intervals for win rates and means."""

from __future__ import annotations

import math

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
