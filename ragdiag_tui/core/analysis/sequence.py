"""Anytime-valid intervals for a spot-check: a confidence sequence, sampling without replacement.

A labeller who recomputes a fixed-n interval after every label and stops once it looks
narrow breaks its 95% promise. A *confidence sequence* keeps it however often one looks:
with probability at least 95%, every interval of the sequence, at every number of labels,
holds the true rate, so stopping at any point (chosen by looking) leaves a valid interval.

The sequence is Waudby-Smith & Ramdas's prior-posterior ratio ("Confidence sequences for
sampling without replacement", NeurIPS 2020), exact for 0/1 outcomes. A population of N
runs holds K overturned ones. Put a beta-binomial prior on K (a uniform Beta(1, 1) mixing
prior, `PRIOR`); after n labels with s overturned the posterior is beta-binomial again, and
the ratio prior(K) / posterior_n(K) is a nonnegative martingale with mean 1 at the true K
(Ville's inequality: it ever reaches 1/alpha with probability at most alpha). The set

    C_n = {K : prior(K) / posterior_n(K) < 1 / alpha}
        = {K : hypergeom(s; N, K, n) > alpha * betabinom(s; n, a, b)}

(the posterior is the prior times the hypergeometric likelihood over the beta-binomial
marginal) is therefore a 95% confidence sequence for K when alpha = 0.05. The likelihood
is unimodal in K, so C_n is one run of whole numbers around the likelihood's mode, found by
bisection on each side (a few dozen evaluations, whatever N). The interval of the rate is
[min C_n / N, max C_n / N]. With no label (n == 0) the set is every K: [0, 1].

Strata (`combined_anytime`) are combined conservatively by Bonferroni: each stratum's
sequence at alpha / H, then the combined rate's bounds are the W_h-weighted sums of the
strata's bounds (W_h = N_h / N). With probability at least 1 - alpha every stratum's
sequence holds at every look, and then so does the combined one.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from .estimate import Interval

ALPHA = 0.05
"""The sequences' error: 95% of audits never see an interval that misses."""

PRIOR = (1.0, 1.0)
"""The beta-binomial mixing prior (a, b): uniform over the rate."""


def _log_choose(n: int, k: int) -> float:
    return math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)


def _log_beta(a: float, b: float) -> float:
    return math.lgamma(a) + math.lgamma(b) - math.lgamma(a + b)


def log_hypergeom(s: int, population: int, k: int, n: int) -> float:
    """log P(s overturned in n labels | K = k of N): the likelihood of k; -inf when impossible."""
    if s > k or n - s > population - k:
        return -math.inf
    return _log_choose(k, s) + _log_choose(population - k, n - s) - _log_choose(population, n)


def log_betabinom(s: int, n: int, a: float, b: float) -> float:
    """log of the beta-binomial probability of s in n with parameters (a, b)."""
    return _log_choose(n, s) + _log_beta(s + a, n - s + b) - _log_beta(a, b)


@lru_cache(maxsize=65536)  # recomputed after each label, the same (N, n, s) seen again and again
def confidence_set(
    population: int, n: int, s: int, alpha: float = ALPHA, prior: tuple[float, float] = PRIOR
) -> tuple[int, int]:
    """The lowest and highest K of the confidence sequence's set after `s` overturned
    in `n` labels from a population of `population` (see the module's docstring)."""
    if not 0 <= s <= n <= population:
        raise ValueError(f"{s} of {n} labels from {population} runs is not a sample")
    if n == 0:
        return 0, population
    threshold = math.log(alpha) + log_betabinom(s, n, *prior)

    def inside(k: int) -> bool:
        return log_hypergeom(s, population, k, n) > threshold

    lowest, highest = s, population - (n - s)
    # The likelihood's mode (the maximum-likelihood K) is always inside: its likelihood is at
    # least the marginal, an average of likelihoods, which is above alpha times itself.
    mode = min(highest, max(lowest, (population + 1) * s // n))
    return _first_inside(inside, lowest, mode), _last_inside(inside, mode, highest)


def _first_inside(inside: Callable[[int], bool], low: int, high: int) -> int:
    """The smallest k in [low, high] inside the set, `high` being inside (monotone below the mode)."""
    while low < high:
        middle = (low + high) // 2
        if inside(middle):
            high = middle
        else:
            low = middle + 1
    return high


def _last_inside(inside: Callable[[int], bool], low: int, high: int) -> int:
    """The largest k in [low, high] inside the set, `low` being inside (monotone above the mode)."""
    while low < high:
        middle = (low + high + 1) // 2
        if inside(middle):
            low = middle
        else:
            high = middle - 1
    return low


def anytime_bounds(population: int, n: int, s: int, alpha: float = ALPHA) -> tuple[float, float]:
    """The rate's anytime-valid bounds after `s` overturned in `n` labels: [0, 1] with none."""
    if population <= 0:
        return 0.0, 1.0
    low, high = confidence_set(population, n, s, alpha)
    return low / population, high / population


def anytime_interval(s: int, n: int, population: int, alpha: float = ALPHA) -> Interval | None:
    """The rate's estimate s/n with its anytime-valid interval; None with no label."""
    if n == 0:
        return None
    low, high = anytime_bounds(population, n, s, alpha)
    return Interval(s / n, low, high)


@dataclass(frozen=True, slots=True)
class StratumLabels:
    """One stratum's part of a spot-check: its population and its settled labels so far."""

    population: int
    labelled: int
    overturned: int


def combined_anytime(strata: Sequence[StratumLabels], alpha: float = ALPHA) -> Interval | None:
    """The combined rate's anytime-valid interval over strata (Bonferroni: alpha / H each,
    the bounds summed with weights N_h / N); its estimate the stratified one, sum W_h p_h.
    None until every non-empty stratum has a label."""
    counted = [stratum for stratum in strata if stratum.population > 0]
    total = sum(stratum.population for stratum in counted)
    if not counted or any(stratum.labelled == 0 for stratum in counted):
        return None
    each = alpha / len(counted)
    low = high = estimate = 0.0
    for stratum in counted:
        weight = stratum.population / total
        lower, upper = anytime_bounds(stratum.population, stratum.labelled, stratum.overturned, each)
        low += weight * lower
        high += weight * upper
        estimate += weight * stratum.overturned / stratum.labelled
    return Interval(estimate, min(low, estimate), max(high, estimate))


def half_width(interval: Interval) -> float:
    """Half the interval's width: what `--margin` is compared with."""
    return (interval.high - interval.low) / 2


def may_stop(interval: Interval | None, margin: float | None) -> bool:
    """Whether the anytime interval is at most +-margin wide: the labeller may stop."""
    return interval is not None and margin is not None and half_width(interval) <= margin + 1e-12
