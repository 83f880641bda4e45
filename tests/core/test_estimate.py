"""The interval and sample-size formulas, against statsmodels and hand-worked values."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ragdiag_tui.core.analysis.estimate import (
    Interval,
    auto_size,
    effective_size,
    interval_json,
    margin_problem,
    wilson,
)

from .references import REFERENCES, proportion_confint

pytestmark = REFERENCES


@pytest.mark.parametrize(("k", "n"), [(0, 1), (0, 10), (1, 10), (12, 50), (50, 50), (7, 190), (333, 1000)])
def test_wilson_without_a_population_is_statsmodels_wilson(k: int, n: int) -> None:
    low, high = proportion_confint(k, n, alpha=0.05, method="wilson")
    got = wilson(k, n)
    assert got is not None
    assert got.estimate == pytest.approx(k / n)
    assert got.low == pytest.approx(max(0.0, low), abs=1e-12)
    assert got.high == pytest.approx(min(1.0, high), abs=1e-12)


@pytest.mark.parametrize(("k", "n", "population"), [(12, 50, 373), (0, 20, 25), (3, 10, 11), (9, 190, 5000)])
def test_the_finite_population_correction_is_wilson_at_the_effective_size(
    k: int, n: int, population: int
) -> None:
    n_eff = n * (population - 1) / (population - n)
    low, high = proportion_confint(k / n * n_eff, n_eff, alpha=0.05, method="wilson")
    got = wilson(k, n, population)
    assert got is not None
    assert (got.low, got.high) == pytest.approx((max(0.0, low), min(1.0, high)), abs=1e-12)
    plain = wilson(k, n)
    assert plain is not None
    assert got.high - got.low < plain.high - plain.low  # the correction narrows


def test_hand_worked_wilson_cases() -> None:
    # 0 of 10: low 0, high = (z^2/n) / (1 + z^2/n) with z = 1.959964: 0.384146 / 1.384146
    none_of_ten = wilson(0, 10)
    assert none_of_ten == Interval(0.0, 0.0, pytest.approx(0.2775328))
    # 12 of 50 out of 373: n_eff = 50 * 372 / 323 = 57.585...
    assert effective_size(50, 373) == pytest.approx(57.58513931888545)
    lucky = wilson(12, 50, 373)
    assert lucky is not None
    assert (lucky.low, lucky.high) == pytest.approx((0.148226, 0.364293), abs=1e-6)
    assert lucky.percent() == "24% (95% CI 15-36%)"


def test_the_whole_population_gives_the_exact_rate_with_zero_width() -> None:
    assert effective_size(40, 40) == math.inf
    assert wilson(6, 40, 40) == Interval(0.15, 0.15, 0.15, exact=True)


def test_an_exact_rate_says_so_instead_of_a_zero_width_interval() -> None:
    """Issue 39: "95% CI 67-67%" read as a fault; the whole population reviewed is exact."""
    exact = wilson(2, 3, 3)
    assert exact is not None and exact.exact
    assert exact.percent() == "67% (exact: every run of the population reviewed)"
    assert exact.estimated() == "67%"
    assert exact.to_json()["exact"] is True
    sampled = wilson(2, 3, 30)
    assert sampled is not None and not sampled.exact and sampled.estimated().startswith("an estimated ")


def test_nothing_reviewed_has_no_estimate_rather_than_zero() -> None:
    assert wilson(0, 0) is None
    assert wilson(0, 0, 373) is None
    assert interval_json(None) == {"estimate": None, "low": None, "high": None, "exact": False}


def test_impossible_counts_are_refused() -> None:
    with pytest.raises(ValueError):
        wilson(3, 2)
    with pytest.raises(ValueError):
        wilson(1, 5, population=4)


@pytest.mark.parametrize(
    ("population", "margin", "expected"),
    [
        # n0 = 1.96^2 * 0.25 / M^2; n = ceil(n0 / (1 + (n0 - 1) / N)), worked by hand:
        (373, 0.05, 190),  # n0 = 384.16; 384.16 / (1 + 383.16/373 = 2.027239) = 189.50
        (100, 0.05, 80),  # 384.16 / 4.8316 = 79.51
        (10**9, 0.05, 385),  # n0 itself, rounded up
        (373, 0.10, 77),  # n0 = 96.04; 96.04 / (1 + 95.04/373 = 1.254799) = 76.54
        (5000, 0.03, 880),  # n0 = 1067.11; 1067.11 / (1 + 1066.11/5000 = 1.213222) = 879.56
        (1, 0.05, 1),
        (0, 0.05, 0),
    ],
)
def test_auto_size_against_hand_worked_values(population: int, margin: float, expected: int) -> None:
    assert auto_size(population, margin) == expected


def test_auto_size_is_never_more_than_the_population() -> None:
    assert all(auto_size(n) <= n for n in range(0, 400, 7))


def test_auto_size_bounds_the_worst_case_interval_to_the_margin() -> None:
    # The formula's promise, checked with the interval itself: half of p = 0.5's normal width.
    for population in (50, 373, 5000):
        n = auto_size(population, 0.05)
        half = 1.96 * math.sqrt(0.25 / effective_size(n, population)) if n < population else 0.0
        assert half <= 0.05 + 1e-9


@pytest.mark.parametrize("margin", [0, 1, -0.1, 1.5])
def test_a_margin_outside_zero_and_one_is_refused(margin: float) -> None:
    with pytest.raises(ValueError, match="margin"):
        auto_size(100, margin)


@pytest.mark.parametrize("margin", [0.51, 0.99, math.nan, math.inf])
def test_a_margin_above_a_half_or_not_a_number_is_refused(margin: float) -> None:
    with pytest.raises(ValueError, match=r"the margin is a proportion above 0 and at most 0\.5"):
        auto_size(100, margin)


@pytest.mark.parametrize("margin", [1e-170, 5e-324, 1e-9])
def test_a_margin_too_small_to_compute_gives_the_whole_population(margin: float) -> None:
    # 1e-170 squared is 0.0: a ZeroDivisionError ended `sample -n auto` and the D dialog.
    assert margin_problem(margin) is None
    assert auto_size(100, margin) == 100
    assert auto_size(10**6, margin) == 10**6


def test_the_ends_of_the_margin_range_size_a_sample() -> None:
    assert auto_size(10**12, 0.001) == 960_400  # n0 = 1.96^2 * 0.25 / 0.001^2, nearly uncorrected
    assert auto_size(10**9, 0.5) == 4  # n0 = 1.96^2 * 0.25 / 0.5^2 = 3.84
    assert margin_problem(0.001) is None and margin_problem(0.5) is None


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_any_proportion_matches_statsmodels_at_its_effective_size(data: st.DataObject) -> None:
    population = data.draw(st.integers(min_value=2, max_value=100_000))
    n = data.draw(st.integers(min_value=1, max_value=population - 1))
    k = data.draw(st.integers(min_value=0, max_value=n))
    n_eff = n * (population - 1) / (population - n)
    low, high = proportion_confint(k / n * n_eff, n_eff, alpha=0.05, method="wilson")
    got = wilson(k, n, population)
    assert got is not None
    assert got.low <= got.estimate <= got.high
    assert (got.low, got.high) == pytest.approx((max(0.0, low), min(1.0, high)), abs=1e-9)
