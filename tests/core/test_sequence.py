"""The anytime-valid confidence sequence, against a direct computation on small populations."""

from __future__ import annotations

import math

import pytest

from ragdiag_tui.core.analysis.sequence import (
    StratumLabels,
    anytime_bounds,
    anytime_interval,
    combined_anytime,
    confidence_set,
    may_stop,
)

from .references import REFERENCES

pytestmark = REFERENCES


def _direct_set(population: int, n: int, s: int, alpha: float) -> list[int]:
    """Every K whose prior / posterior ratio is below 1/alpha, computed the long way with scipy:
    the beta-binomial prior, the hypergeometric likelihood, the posterior by Bayes' rule."""
    from scipy.stats import betabinom, hypergeom

    prior = [betabinom.pmf(k, population, 1, 1) for k in range(population + 1)]
    joint = [prior[k] * hypergeom.pmf(s, population, k, n) for k in range(population + 1)]
    evidence = sum(joint)
    kept = []
    for k in range(population + 1):
        posterior = joint[k] / evidence
        if posterior > 0 and prior[k] / posterior < 1 / alpha:
            kept.append(k)
    return kept


@pytest.mark.parametrize("population", [1, 2, 5, 12, 30])
def test_the_set_is_the_prior_posterior_ratio_set_for_every_sample(population: int) -> None:
    for n in range(population + 1):
        for s in range(n + 1):
            direct = _direct_set(population, n, s, 0.05)
            assert direct == list(range(direct[0], direct[-1] + 1)), "one run of whole numbers"
            assert confidence_set(population, n, s) == (direct[0], direct[-1]), (n, s)


def _ever_misses(population: int, k: int, alpha: float) -> float:
    """The exact probability that a sequence drawn without replacement from a population of
    `population` holding `k` overturned runs ever sees an interval without k: a walk over
    (labels, overturned) states, each reached with its hypergeometric probability."""
    alive = {0: 1.0}  # overturned so far -> probability of never having missed
    missed = 0.0
    for n in range(population):
        nxt: dict[int, float] = {}
        for s, mass in alive.items():
            ones_left, left = k - s, population - n
            for outcome, chance in ((1, ones_left / left), (0, 1 - ones_left / left)):
                if chance <= 0:
                    continue
                low, high = confidence_set(population, n + 1, s + outcome, alpha)
                if low <= k <= high:
                    nxt[s + outcome] = nxt.get(s + outcome, 0.0) + mass * chance
                else:
                    missed += mass * chance
        alive = nxt
    return missed


@pytest.mark.parametrize("population", [10, 25, 40])
def test_the_sequence_misses_at_most_alpha_of_the_time_for_every_k(population: int) -> None:
    for k in range(population + 1):
        assert _ever_misses(population, k, 0.05) <= 0.05 + 1e-12, k


def test_no_label_says_nothing_and_every_label_pins_the_rate() -> None:
    assert confidence_set(50, 0, 0) == (0, 50)
    assert anytime_interval(0, 0, 50) is None
    assert anytime_bounds(50, 50, 7) == (7 / 50, 7 / 50)


def test_the_sequence_is_wider_than_a_fixed_n_interval_and_narrows_with_labels() -> None:
    from ragdiag_tui.core.analysis.estimate import wilson

    wide, narrow = anytime_interval(10, 100, 1000), anytime_interval(100, 1000 - 1, 1000)
    fixed = wilson(10, 100, 1000)
    assert wide is not None and narrow is not None and fixed is not None
    assert wide.low < fixed.low and fixed.high < wide.high
    assert narrow.high - narrow.low < wide.high - wide.low


def test_strata_combine_at_alpha_over_h_with_weighted_bounds() -> None:
    strata = [StratumLabels(600, 40, 2), StratumLabels(300, 30, 3), StratumLabels(100, 30, 12)]
    combined = combined_anytime(strata)
    assert combined is not None
    low = high = 0.0
    for stratum in strata:
        lower, upper = anytime_bounds(stratum.population, stratum.labelled, stratum.overturned, 0.05 / 3)
        low += stratum.population / 1000 * lower
        high += stratum.population / 1000 * upper
    assert (combined.low, combined.high) == (pytest.approx(low), pytest.approx(high))
    assert combined.estimate == pytest.approx(0.6 * 2 / 40 + 0.3 * 3 / 30 + 0.1 * 12 / 30)
    assert combined_anytime([StratumLabels(600, 40, 2), StratumLabels(100, 0, 0)]) is None


def test_may_stop_once_the_half_width_is_within_the_margin() -> None:
    interval = anytime_interval(0, 300, 1000)
    assert interval is not None
    half = (interval.high - interval.low) / 2
    assert may_stop(interval, half) and not may_stop(interval, half * 0.9)
    assert not may_stop(interval, None) and not may_stop(None, 0.5)
    assert math.isclose(interval.low, 0.0)
