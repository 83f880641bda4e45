"""What the report of a dataset read in place takes beyond its review, gathered the same way by
the command line (`report DATASET`) and the app (the statistics screen's `r`): the engine's
counts as `DatasetFigures`, and the review's runs read once each before the report goes over them."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...analysis.stats import TOP_MISSED as STATS_TOP
from .model import TOP_MISSED, DatasetFigures

if TYPE_CHECKING:
    from ...review.state import Review

COUNTED_MISSED = max(TOP_MISSED, STATS_TOP)
"""How many most-missed documents to ask the engine for: the report's list, and stats' within it."""


def dataset_figures(counted: dict[str, Any], size: int, files: int) -> DatasetFigures:
    """The report's figures from the engine's `stats DATASET --json` document with the review
    applied, counted with `COUNTED_MISSED` most-missed documents (ties by id: each list a prefix)."""
    missed = tuple((item["id"], item["runs"]) for item in counted["most_missed"])
    return DatasetFigures(
        stats=counted | {"most_missed": counted["most_missed"][:STATS_TOP]},
        most_missed=missed[:TOP_MISSED],
        size=size,
        files=files,
    )


def hold_reviewed_runs(review: Review) -> None:
    """Read once each run the report reads (its spot-checks', found in one query; the reviewed
    and those in conflict), which it goes over several times, in sample order."""
    store: Any = review.store
    store.resolve_ids(run_id for spot_check in review.spot_checks.values() for run_id in spot_check.runs)
    store.hold([*review.states, *review.conflicts])
