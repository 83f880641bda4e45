"""`stats DATASET` (and `report DATASET`) with the dataset's review applied, run by run.

DuckDB counts every run with the files' own labels (`stats.tally_groups`, which keeps every
missed document's count, not only the top ones). The review, replayed over the dataset
read in place (`core.runs.source_store`), re-diagnosed the few runs its labels touch: each
is taken out of its group's counts as its file has it and put back as the label in force
makes it (its stage, its lucky answer, its missing documents). The figures are then those
`stats` gives for one file of the same runs with the same journal, the most-missed
documents included, for all the runs and for each group of `--group-by`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ...core.analysis.stats import TOP_MISSED
from ...core.runs.stages import STAGE_NAMES
from ...core.runs.store import S_INVALID, label_value
from ..dataset import Dataset
from ..results import Tally, grouped, value_text
from .pyrows import loose
from .stats import tally_groups

if TYPE_CHECKING:
    from ...core.review.state import Review


def reviewed_stats(
    ds: Dataset, mapping: Any, review: Review, *, group_by: str | None = None, top: int = TOP_MISSED
) -> dict[str, Any]:
    """What `stats DATASET --json [--group-by FIELD]` prints with `review` applied (a review
    of the dataset read in place): each figure as one file of the same runs gives it."""
    tallies = tally_groups(ds, mapping, group_by)
    in_files = {group: tally.lucky for group, tally in tallies.items()}  # lucky_in_file: the files'
    group_of = _group_reader(group_by)
    store = review.store
    rows = _rows_of(review)
    store.hold(rows)  # each read once, not a window of rows each (SourceStore.hold)
    groups = {row: group_of(store.raw_text(row)) for row in sorted(rows)}
    unplaced = Tally()  # a run whose value SQL writes otherwise (a type of its own): all runs only
    for row in sorted(store.stage.changed):
        _move(tallies.get(groups[row], unplaced), review, row)
    figures = {}
    for group, tally in tallies.items():
        tally.missed = +tally.missed  # a document no run misses any more is not listed
        figures[group] = tally.to_json(top) | {"lucky_in_file": in_files[group]}
        figures[group] = _with_review(
            figures[group], review, [row for row, of in groups.items() if of == group]
        )
    everything = Tally()
    for tally in (*tallies.values(), unplaced):
        everything.merge(tally)
    everything.missed = +everything.missed
    overall = everything.to_json(top) | {"lucky_in_file": sum(in_files.values())}
    overall = _with_review(overall, review, list(groups))
    if not group_by:
        return overall
    return grouped(group_by, overall, figures)


def _rows_of(review: Review) -> set[int]:
    """The rows the review labelled, left in conflict or re-diagnosed."""
    return set(review.states) | set(review.adjudications) | set(review.store.stage.changed)


def _move(tally: Tally, review: Review, row: int) -> None:
    """Take a run out of `tally` as its file has it, and put it back as the review has it."""
    store = review.store
    window = store.window_of(row)
    at = row - window.start
    was = window.stage[at]
    if was == S_INVALID:
        return
    before = window.missing.get(row)
    tally.add_run(STAGE_NAMES[was], label_value(window.file_label[at]), before, 0, 0, 0, -1)
    tally.add_run(STAGE_NAMES[store.stage[row]], review.label(row), store.missing.get(row), 0, 0, 0, 1)


def _with_review(figures: dict[str, Any], review: Review, rows: list[int]) -> dict[str, Any]:
    """`figures` with `reviewed` and `conflicts` among `rows` where `stats FILE --json` puts
    them (before the metrics), when the journal held any record (as `stats FILE` says)."""
    if not review.records_read:
        return figures
    counts = {
        "reviewed": sum(1 for row in rows if review.is_reviewed(row)),
        "conflicts": sum(1 for row in rows if row in review.conflicts),
    }
    metrics = {"metrics": figures["metrics"]} if "metrics" in figures else {}
    return {key: value for key, value in figures.items() if key != "metrics"} | counts | metrics


def _group_reader(group_by: str | None) -> Callable[[bytes], str | None]:
    """A run's group from its text, as the engine groups it (`results.value_text`)."""
    if not group_by:
        return lambda raw: None

    def group_of(raw: bytes) -> str | None:
        obj = loose(raw)
        return value_text(obj.get(group_by)) if isinstance(obj, dict) else None

    return group_of
