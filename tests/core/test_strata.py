"""Stratified spot-checks: allocation, the stratified estimator and its variance, size planning."""

from __future__ import annotations

import math

import pytest

from ragdiag_tui.core.analysis.estimate import auto_size
from ragdiag_tui.core.analysis.strata import (
    AllocationError,
    StratumCount,
    allocate,
    parse_priors,
    plan_sizes,
    planned_variance,
    stratified_estimate,
)

from .references import REFERENCES, stratified_mean

POPULATIONS = {"A": 600, "B": 300, "C": 100}
PRIORS = {"A": 0.05, "B": 0.10, "C": 0.40}


def test_proportional_allocation_follows_the_strata_sizes() -> None:
    assert allocate(POPULATIONS, 100) == {"A": 60, "B": 30, "C": 10}
    assert sum(allocate(POPULATIONS, 101).values()) == 101


def test_neyman_allocation_follows_size_times_spread() -> None:
    sizes = allocate(POPULATIONS, 100, "neyman", PRIORS)
    weights = {name: POPULATIONS[name] * math.sqrt(p * (1 - p)) for name, p in PRIORS.items()}
    total = sum(weights.values())
    for name, size in sizes.items():
        assert abs(size - 100 * weights[name] / total) < 1
    assert sum(sizes.values()) == 100


def test_every_non_empty_stratum_gets_two_runs_and_none_more_than_it_holds() -> None:
    populations = {"big": 1000, "one": 1, "few": 3, "empty": 0}
    sizes = allocate(populations, 4, "neyman", {"big": 0.5, "one": 0.0, "few": 0.0})
    assert sizes == {"big": 2, "one": 1, "few": 2, "empty": 0}
    capped = allocate({"big": 1000, "few": 3}, 500, "neyman", {"big": 0.01, "few": 0.5})
    assert capped["few"] == 3 and capped["big"] == 497


def test_a_stratum_without_a_prior_is_planned_at_the_worst_case() -> None:
    assert allocate({"A": 100, "B": 100}, 40, "neyman", {"A": 0.5}) == {"A": 20, "B": 20}


def test_bad_allocations_and_priors_are_refused() -> None:
    with pytest.raises(AllocationError, match="unknown allocation"):
        allocate(POPULATIONS, 10, "optimal")
    with pytest.raises(AllocationError, match="from 0 to 1"):
        allocate(POPULATIONS, 10, "neyman", {"A": 1.5})
    assert parse_priors("A=0.1, B=0.4") == {"A": 0.1, "B": 0.4}
    assert parse_priors("model=x=0.2") == {"model=x": 0.2}
    for bad in ("A", "A=x", "A=2"):
        with pytest.raises(AllocationError, match="STRATUM=RATE"):
            parse_priors(bad)


def test_planned_neyman_sample_is_smaller_than_the_flat_one() -> None:
    flat = auto_size(1000, 0.05)
    neyman = plan_sizes(POPULATIONS, 0.05, "neyman", PRIORS)
    assert sum(neyman.values()) < flat
    target = (0.05 / 1.96) ** 2
    assert planned_variance(POPULATIONS, neyman, PRIORS) <= target
    one_less = allocate(POPULATIONS, sum(neyman.values()) - 1, "neyman", PRIORS)
    assert planned_variance(POPULATIONS, one_less, PRIORS) > target


def test_proportional_plan_at_the_worst_case_is_the_flat_plan_give_or_take_rounding() -> None:
    assert abs(sum(plan_sizes(POPULATIONS, 0.05).values()) - auto_size(1000, 0.05)) <= 2


@REFERENCES
@pytest.mark.parametrize(
    "counts",
    [
        [(600, 40, 2), (300, 30, 3), (100, 30, 12)],
        [(50, 10, 0), (20, 5, 5), (7, 7, 3)],
        [(1000, 2, 1), (10, 9, 4)],
        [(200, 25, 7)],
    ],
)
def test_the_estimate_and_its_variance_are_the_survey_estimators(counts: list[tuple[int, int, int]]) -> None:
    strata = [StratumCount(*count) for count in counts]
    got = stratified_estimate(strata)
    assert got is not None
    estimate, variance = stratified_mean(counts)
    assert got.estimate == pytest.approx(estimate, abs=1e-12)
    assert got.variance == pytest.approx(variance, rel=1e-9, abs=1e-15)
    assert got.interval.low <= got.estimate <= got.interval.high


@REFERENCES
def test_the_interval_is_wilson_at_the_kish_effective_size() -> None:
    from .references import proportion_confint

    got = stratified_estimate([StratumCount(600, 40, 2), StratumCount(300, 30, 3), StratumCount(100, 30, 12)])
    assert got is not None
    n_eff = got.estimate * (1 - got.estimate) / got.variance
    low, high = proportion_confint(got.estimate * n_eff, n_eff, alpha=0.05, method="wilson")
    assert (got.interval.low, got.interval.high) == (pytest.approx(low), pytest.approx(high))


def test_no_estimate_until_every_stratum_has_a_label_and_whole_strata_are_exact() -> None:
    assert stratified_estimate([StratumCount(10, 3, 1), StratumCount(5, 0, 0)]) is None
    whole = stratified_estimate([StratumCount(10, 10, 1), StratumCount(5, 5, 5)])
    assert whole is not None
    assert whole.variance == 0 and whole.interval.low == whole.interval.high == pytest.approx(6 / 15)
