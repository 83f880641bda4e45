"""Stratified spot-checks: how many runs to draw from each stratum, and the combined estimate.

A population split into strata h = 1..H of N_h runs (N in all, W_h = N_h / N) is sampled
n_h runs from each. The overturned rate of the whole population is estimated by the
stratified estimator (Cochran, *Sampling Techniques*, 5.2-5.3)

    p_st = sum W_h p_h,    v(p_st) = sum W_h^2 (1 - n_h / N_h) p_h (1 - p_h) / (n_h - 1)

(the variance with each stratum's finite-population correction; a stratum of one label
contributes none). Its 95% interval is the **Wilson interval at the Kish effective sample
size** n_eff = p_st (1 - p_st) / v(p_st) (Wilson's shape keeps the interval inside [0, 1]
and honest near 0, where strata with no overturned label give v = 0): with v = 0 and the
strata not all reviewed whole, n_eff is the unstratified one, n (N - 1) / (N - n); every
stratum reviewed whole gives the exact rate.

Allocation (`allocate`): `proportional`, n_h proportional to N_h; or `neyman`, n_h
proportional to N_h S_h with S_h = sqrt(P_h (1 - P_h)) from a prior rate P_h (a stratum
without a prior gets 0.5, the worst case). Every non-empty stratum gets at least
`MIN_PER_STRATUM` runs (its whole population if smaller), none more than its population;
the sizes are whole numbers by largest remainders, and add up to n (or to the minimums,
when n is smaller than their sum).

Planning (`plan_sizes`, for `-n auto --margin M`): the smallest n whose allocation gives a
combined interval of at most +-M, with the variance planned from the priors (0.5 without:
the worst case) and the same 1.96 as the unstratified `estimate.auto_size`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .estimate import Z95, Z_SAMPLE_SIZE, Interval, effective_size, margin_problem, wilson_at

ALLOCATIONS = ("proportional", "neyman")
MIN_PER_STRATUM = 2
WORST_PRIOR = 0.5
INTERVAL_METHOD = "Wilson at the Kish effective sample size, stratified variance with FPC"
"""The combined interval's method, as `stats --json` names it."""


class AllocationError(ValueError):
    """An allocation that cannot be made (an unknown name, a bad prior). The message says why."""


def _minimum(population: int) -> int:
    return min(MIN_PER_STRATUM, population)


def allocate(
    populations: Mapping[str, int],
    n: int,
    allocation: str = "proportional",
    priors: Mapping[str, float] | None = None,
) -> dict[str, int]:
    """How many runs to draw from each stratum for a sample of about `n` (see the module)."""
    weights = allocation_weights(populations, allocation, priors)
    fixed = {name: 0 for name, size in populations.items() if size <= 0}
    while True:
        free = [name for name in populations if name not in fixed]
        left = n - sum(fixed.values())
        total = sum(weights[name] for name in free)
        ideal = {name: left * weights[name] / total if total else 0.0 for name in free}
        over = [name for name in free if ideal[name] > populations[name]]
        under = [name for name in free if ideal[name] < _minimum(populations[name])]
        if not over and not under:
            break
        for name in over:
            fixed[name] = populations[name]
        if not over:
            for name in under:
                fixed[name] = _minimum(populations[name])
    return {name: fixed.get(name, 0) for name in populations} | _rounded(ideal, left)


def allocation_weights(
    populations: Mapping[str, int], allocation: str, priors: Mapping[str, float] | None = None
) -> dict[str, float]:
    """Each stratum's share before the minimums and caps: N_h, or N_h S_h for Neyman."""
    if allocation not in ALLOCATIONS:
        raise AllocationError(f"unknown allocation '{allocation}'; choose one of {', '.join(ALLOCATIONS)}")
    if allocation == "proportional":
        return {name: float(size) for name, size in populations.items()}
    rates = prior_rates(populations, priors)
    return {name: size * math.sqrt(rates[name] * (1 - rates[name])) for name, size in populations.items()}


def prior_rates(populations: Mapping[str, int], priors: Mapping[str, float] | None) -> dict[str, float]:
    """Each stratum's prior rate: the one given, else the worst case 0.5. A prior outside
    [0, 1] is refused."""
    given = dict(priors or {})
    for name, rate in given.items():
        if not 0 <= rate <= 1:  # NaN too
            raise AllocationError(f"the prior of '{name}' is a rate from 0 to 1, got {rate}")
    return {name: given.get(name, WORST_PRIOR) for name in populations}


def _rounded(ideal: Mapping[str, float], total: int) -> dict[str, int]:
    """Whole sizes adding up to `total` (rounded), by largest remainders."""
    sizes = {name: math.floor(share + 1e-9) for name, share in ideal.items()}
    short = max(0, total - sum(sizes.values()))
    by_remainder = sorted(ideal, key=lambda name: (sizes[name] - ideal[name], name))
    for name in by_remainder[:short]:
        sizes[name] += 1
    return sizes


def planned_variance(
    populations: Mapping[str, int], sizes: Mapping[str, int], priors: Mapping[str, float] | None
) -> float:
    """The combined estimate's variance these sizes promise, from the prior rates (Cochran 5.6
    with S_h^2 = N_h P_h (1 - P_h) / (N_h - 1))."""
    total = sum(populations.values())
    rates = prior_rates(populations, priors)
    variance = 0.0
    for name, size in populations.items():
        n_h = sizes.get(name, 0)
        if size <= 1 or n_h >= size:
            continue
        if n_h == 0:
            return math.inf
        spread = size * rates[name] * (1 - rates[name]) / (size - 1)
        variance += (size / total) ** 2 * (1 - n_h / size) * spread / n_h
    return variance


def plan_sizes(
    populations: Mapping[str, int],
    margin: float,
    allocation: str = "proportional",
    priors: Mapping[str, float] | None = None,
) -> dict[str, int]:
    """The sizes of the smallest sample whose combined 95% interval is planned at most
    +-margin (the variance from the priors, see the module); every run when none is."""
    problem = margin_problem(margin)
    if problem:
        raise AllocationError(f"{problem}, got {margin}")
    total = sum(populations.values())
    target = (margin / Z_SAMPLE_SIZE) ** 2

    def enough(n: int) -> bool:
        return planned_variance(populations, allocate(populations, n, allocation, priors), priors) <= target

    low, high = 0, total
    while low < high:  # the variance falls as n grows: the smallest n that is enough
        middle = (low + high) // 2
        if enough(middle):
            high = middle
        else:
            low = middle + 1
    return allocate(populations, low, allocation, priors)


@dataclass(frozen=True, slots=True)
class StratumCount:
    """One stratum's settled labels: its population, labels and overturned among them."""

    population: int
    labelled: int
    overturned: int


@dataclass(frozen=True, slots=True)
class Stratified:
    """The combined estimate sum W_h p_h, its variance and its 95% interval."""

    estimate: float
    variance: float
    interval: Interval


def stratified_estimate(strata: Sequence[StratumCount], z: float = Z95) -> Stratified | None:
    """The stratified estimate of the rate over `strata` (see the module); None until every
    non-empty stratum has a label."""
    counted = [stratum for stratum in strata if stratum.population > 0]
    if not counted or any(stratum.labelled == 0 for stratum in counted):
        return None
    total = sum(stratum.population for stratum in counted)
    estimate = variance = 0.0
    for stratum in counted:
        weight, p = stratum.population / total, stratum.overturned / stratum.labelled
        estimate += weight * p
        if stratum.labelled > 1:
            correction = 1 - stratum.labelled / stratum.population
            variance += weight**2 * correction * p * (1 - p) / (stratum.labelled - 1)
    estimate = min(1.0, max(0.0, estimate))
    return Stratified(estimate, variance, wilson_at(estimate, _effective(counted, estimate, variance), z))


def _effective(strata: Sequence[StratumCount], estimate: float, variance: float) -> float:
    """The Kish effective size p (1 - p) / v; the unstratified one when v is 0."""
    if variance > 0:
        return estimate * (1 - estimate) / variance
    labelled = sum(stratum.labelled for stratum in strata)
    return effective_size(labelled, sum(stratum.population for stratum in strata))


def parse_priors(text: str) -> dict[str, float]:
    """`A=0.1,B=0.4` as {"A": 0.1, "B": 0.4}; a stratum name may hold '=' but not ','
    (the value is after the last '='). Raises AllocationError naming the part that is wrong."""
    priors: dict[str, float] = {}
    for part in filter(None, (piece.strip() for piece in text.split(","))):
        name, equals, value = part.rpartition("=")
        try:
            rate = float(value)
        except ValueError:
            rate = math.nan
        if not equals or not 0 <= rate <= 1:
            raise AllocationError(f"'{part}': give STRATUM=RATE with a rate from 0 to 1, such as A=0.1")
        priors[name] = rate
    return priors
