"""The independent libraries the figures are checked against (scikit-learn, krippendorff,
statsmodels), imported when a test first calls them.

Imported with SciPy beneath them, they cost a process about 1.7 s of CPU. Every xdist worker
collects every test module, so a module-level import made each worker pay it while all of them
start at once on the same cores; the tests that call them are marked `REFERENCES` instead, one
xdist group, and only the worker that runs that group imports the libraries.
"""

from __future__ import annotations

from importlib.util import find_spec
from typing import Any

import pytest

REFERENCES = pytest.mark.xdist_group("reference-libraries")

_AGREEMENT = ("numpy", "krippendorff", "sklearn")
NEEDS_AGREEMENT_REFERENCES = pytest.mark.skipif(
    any(find_spec(name) is None for name in _AGREEMENT),
    reason="numpy, krippendorff and scikit-learn come with the `test` extra; a venv made before they "
    'joined it skips here until `pip install -e ".[test]"` is run again',
)


def cohen_kappa_score(first: Any, second: Any, **options: Any) -> float:
    """scikit-learn's Cohen's kappa."""
    from sklearn.metrics import cohen_kappa_score as reference

    return reference(first, second, **options)


def krippendorff_alpha(**options: Any) -> float:
    """The `krippendorff` package's alpha."""
    from krippendorff import alpha

    return alpha(**options)


def proportion_confint(count: float, nobs: float, **options: Any) -> tuple[float, float]:
    """statsmodels' confidence interval of a proportion."""
    from statsmodels.stats.proportion import proportion_confint as reference

    return reference(count, nobs, **options)


def stratified_mean(counts: list[tuple[int, int, int]]) -> tuple[float, float]:
    """The stratified mean of 0/1 outcomes and its variance with a finite-population correction
    (Cochran 5.2-5.3), from the units themselves with numpy: each stratum (N_h, n_h, k_h) as
    n_h outcomes, k_h of them 1; its mean, its sample variance (ddof 1) and the weights N_h / N."""
    import numpy as np

    total = sum(population for population, _, _ in counts)
    mean = variance = 0.0
    for population, n, k in counts:
        units = np.array([1.0] * k + [0.0] * (n - k))
        weight = population / total
        mean += weight * float(units.mean())
        if n > 1:
            variance += weight**2 * (1 - n / population) * float(units.var(ddof=1)) / n
    return mean, variance
