"""Estimates from a spot-check: a proportion with its 95% interval, and the sample size to draw.

A spot-check reviews `n` runs drawn without replacement from a population of `N`.
The rate of some outcome among the reviewed runs (overturned labels, a reason tag)
estimates the rate in the whole population. Its interval is the **Wilson score
interval** at 95%, with the finite-population correction applied through the
effective sample size

    n_eff = n * (N - 1) / (N - n)

(the Wilson interval of the observed rate p = k/n computed as if from n_eff
independent draws). Reviewing the whole population (n == N) gives the exact rate,
an interval of width zero. Without a population (N None) it is the plain Wilson
interval.

`auto_size` chooses how many runs to draw so that a proportion's 95% interval is
at most +-margin in the worst case (p = 0.5), with the same correction:

    n0 = 1.96^2 * 0.25 / margin^2,   n = ceil(n0 / (1 + (n0 - 1) / N))

The margin is a proportion above 0 and at most MAX_MARGIN (+-50%: four runs). One too
small to compute (1e-170 squared is 0, and a division by it once ended the program)
sizes the whole population, as any tiny margin does; 0, a negative margin, one above a
half or not a number is refused.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

Z95 = 1.959963984540054
"""The two-sided 95% normal quantile, as scipy's norm.ppf(0.975) gives it."""

Z_SAMPLE_SIZE = 1.96
"""The sample-size formula's quantile, rounded as the textbook formula (and the issue) writes it."""

MAX_MARGIN = 0.5  # a margin above it sizes no sample worth drawing (+-50% is any proportion)


def margin_problem(margin: float) -> str | None:
    """Why `margin` cannot size a sample, as a sentence; None when it can. Any margin above
    0 can: one too small to compute sizes the whole population (see `auto_size`)."""
    if not 0 < margin <= MAX_MARGIN:  # NaN too
        return f"the margin is a proportion above 0 and at most {MAX_MARGIN}, such as 0.05 (±5%)"
    return None


@dataclass(frozen=True, slots=True)
class Interval:
    """A proportion's estimate with its interval, each in [0, 1]."""

    estimate: float
    low: float
    high: float
    exact: bool = False
    """Every run of the population was reviewed: the proportion is known, not estimated."""

    def to_json(self) -> dict[str, float | bool]:
        return {"estimate": self.estimate, "low": self.low, "high": self.high, "exact": self.exact}

    def percent(self) -> str:
        """`24% (95% CI 14-37%)`: whole percents, for a sentence."""
        return f"{self.estimate_percent()} ({self.ci_percent()})"

    def estimated(self) -> str:
        """`an estimated 24%`, or `67%` when exact: how a sentence introduces the figure."""
        return self.estimate_percent() if self.exact else f"an estimated {self.estimate_percent()}"

    def estimate_percent(self) -> str:
        """`24%`."""
        return f"{_pct(self.estimate)}%"

    def ci_percent(self) -> str:
        """`95% CI 14-37%`, or EXACT when every run of the population was reviewed (a
        zero-width interval such as `67-67%` reads as a fault)."""
        return EXACT if self.exact else f"95% CI {_pct(self.low)}-{_pct(self.high)}%"


EXACT = "exact: every run of the population reviewed"
"""What an interval says instead of its bounds when the sample is the whole population."""


def _pct(value: float) -> str:
    return f"{100 * value:.0f}"


def effective_size(n: int, population: int | None) -> float:
    """`n * (N - 1) / (N - n)`: the sample size an interval of a sample without
    replacement corresponds to; infinite when the sample is the whole population."""
    if population is None:
        return float(n)
    if n > population:
        raise ValueError(f"a sample of {n} cannot come from a population of {population}")
    if n == population:
        return math.inf
    return n * (population - 1) / (population - n)


def wilson(successes: int, n: int, population: int | None = None, z: float = Z95) -> Interval | None:
    """The Wilson score interval of `successes` out of `n` reviewed runs, out of a
    population of `population` (None: infinite). None when nothing is reviewed (n == 0):
    there is no estimate, which is not the same as a rate of 0."""
    if n < 0 or successes < 0 or successes > n:
        raise ValueError(f"{successes} of {n} is not a proportion")
    if n == 0:
        return None
    return wilson_at(successes / n, effective_size(n, population), z)


def wilson_at(p: float, n_eff: float, z: float = Z95) -> Interval:
    """The Wilson score interval of a rate `p` observed with the effective sample size
    `n_eff` (infinite: the exact rate)."""
    if math.isinf(n_eff):
        return Interval(p, p, p, exact=True)
    z2 = z * z
    centre = (p + z2 / (2 * n_eff)) / (1 + z2 / n_eff)
    half = z / (1 + z2 / n_eff) * math.sqrt(p * (1 - p) / n_eff + z2 / (4 * n_eff * n_eff))
    # The interval always holds p; clamping keeps float noise (5e-17 above 0 at p = 0) out.
    return Interval(p, min(p, max(0.0, centre - half)), max(p, min(1.0, centre + half)))


def auto_size(population: int, margin: float = 0.05) -> int:
    """How many runs to draw from `population` so that a proportion's 95% interval is
    at most +-`margin` in the worst case (finite-population corrected); never more
    than the population, which is what a margin too small to compute gets."""
    problem = margin_problem(margin)
    if problem:
        raise ValueError(f"{problem}, got {margin}")
    if population <= 0:
        return 0
    squared = margin**2
    if squared == 0.0:  # a margin too small to compute (1e-170 squared is 0.0): every run
        return population
    n0 = Z_SAMPLE_SIZE**2 * 0.25 / squared
    if not math.isfinite(n0):
        return population
    n = n0 / (1 + (n0 - 1) / population)
    # Rounded first so that float noise (50.000000000001) does not add a run.
    return min(population, math.ceil(round(n, 9)))


def interval_json(interval: Interval | None) -> dict[str, Any]:
    """An interval for JSON output; every value null when there is no estimate."""
    if interval is None:
        return {"estimate": None, "low": None, "high": None, "exact": False}
    return interval.to_json()
