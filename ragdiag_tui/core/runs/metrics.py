"""RAGAS's ID-based context metrics, beside the rule's stage.

Per run, over distinct IDs, as RAGAS's `IDBasedContextRecall` and
`IDBasedContextPrecision` define them:

    recall    = |required ∩ context| / |required|
    precision = |context ∩ required| / |context|

Each is undefined (None; NaN in the store's columns) when its denominator set is
empty: "no figure", never 0. They say how much of the evidence arrived and how
much of what arrived was evidence; the stage says what that means for the run.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

NAN = math.nan


def id_metrics(required: Iterable[str] | None, context: Iterable[str] | None) -> tuple[float, float]:
    """(recall, precision) over distinct IDs; NaN where undefined (a fast float for columns)."""
    req = set(required) if required else set()
    ctx = set(context) if context else set()
    found = len(req & ctx) if req and ctx else 0
    return (found / len(req) if req else NAN, found / len(ctx) if ctx else NAN)


def defined(value: float) -> float | None:
    """A metric for output: None where it is undefined (NaN)."""
    return None if value != value else value


def id_recall(required: Iterable[str] | None, context: Iterable[str] | None) -> float | None:
    """`|required ∩ context| / |required|` over distinct IDs; None when nothing is required."""
    return defined(id_metrics(required, context)[0])


def id_precision(required: Iterable[str] | None, context: Iterable[str] | None) -> float | None:
    """`|context ∩ required| / |context|` over distinct IDs; None when nothing was supplied."""
    return defined(id_metrics(required, context)[1])


@dataclass(frozen=True, slots=True)
class MetricMeans:
    """Means of recall and precision over the runs where each is defined (None: no such run)."""

    recall_mean: float | None
    precision_mean: float | None
    recall_runs: int
    precision_runs: int

    def to_json(self) -> dict[str, float | int | None]:
        return {
            "recall_mean": self.recall_mean,
            "precision_mean": self.precision_mean,
            "recall_runs": self.recall_runs,
            "precision_runs": self.precision_runs,
        }


def _mean(values: Iterable[float]) -> tuple[float | None, int]:
    present = list(filter(math.isfinite, values))  # NaN is undefined; a C-level filter
    return (math.fsum(present) / len(present) if present else None), len(present)


def metric_means(recall: Sequence[float], precision: Sequence[float]) -> MetricMeans:
    """The means of two metric columns (NaN where undefined)."""
    recall_mean, recall_runs = _mean(recall)
    precision_mean, precision_runs = _mean(precision)
    return MetricMeans(recall_mean, precision_mean, recall_runs, precision_runs)
