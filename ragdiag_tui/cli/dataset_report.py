"""`report DATASET -o OUT.html|OUT.md`: the report of a dataset read in place, its review applied.

The runs are never held. The counts and the most-missed documents are DuckDB's, moved by the
review's labels (`engines.duckdb.reviewed_stats`: the document `stats DATASET --json` prints);
the spot-checks, their evidence cards, the agreement and the conflicts come from the dataset's
review (dataset_review.py: FOLDER.review.jsonl beside the folder, --journal, RAGDIAG_JOURNAL;
none with --no-journal), which reads only the runs its journal names. The report is written as
one of a run file is (core.output.report.write): the dataset's files and its journal were
registered as read when opened, so `-o` onto any of them is refused before anything is written.
"""

from __future__ import annotations

import argparse
from typing import Any

from .common import err
from .dataset_review import dataset_review

BASELINE_REFUSED = (
    "--baseline goes with a single run file, not a dataset: report a run file drawn by "
    "`sample DATASET ... -o FILE`, or compare the figures of `stats DATASET --json`"
)


def dataset_report(args: argparse.Namespace, tags: tuple[Any, ...], options: Any) -> Any:
    """The figures of the report of the dataset `args.inputs` names (a core ReportData).
    ReportError for what cannot be reported (a --baseline, a dataset or engine that cannot
    be opened); JournalError for a journal that cannot be read."""
    from ..core.output.report import ReportError, build_dataset_report, hold_reviewed_runs
    from ..engines import EngineUnavailable, load_engine
    from ..engines.dataset import DatasetError, open_dataset
    from ..engines.results import EngineError

    if args.baseline is not None:
        raise ReportError(BASELINE_REFUSED)
    try:
        engine = load_engine("duckdb")
        dataset = open_dataset(args.inputs)
        review = dataset_review(args, dataset) or _unreviewed(args, dataset)
        hold_reviewed_runs(review)
        return build_dataset_report(review, tags, options, dataset_figures(engine, dataset, args, review))
    except (DatasetError, EngineUnavailable, EngineError) as exc:
        raise ReportError(str(exc)) from None


def dataset_figures(engine: Any, dataset: Any, args: argparse.Namespace, review: Any) -> Any:
    """What DuckDB counts over the dataset with the review applied, as the report takes it:
    the document of `stats DATASET --json`, and the report's longer list of most-missed."""
    from ..core.output.report import dataset_figures as figures
    from ..core.output.report.dataset import COUNTED_MISSED

    counted = engine.reviewed_stats(dataset, args.field_map, review, top=COUNTED_MISSED)
    return figures(counted, sum(path.stat().st_size for path in dataset.files), len(dataset.files))


def _unreviewed(args: argparse.Namespace, dataset: Any) -> Any:
    """The dataset with no review (no journal, or --no-journal): the files' own labels."""
    from ..core.review.state import open_review
    from ..core.runs.source_store import SourceStore
    from ..engines.duckdb.review_rows import DatasetRows

    if args.no_journal:
        err("review journal ignored (--no-journal): the files' own labels")
    else:
        err(f"no review journal beside {dataset.root}: the files' own labels")
    store = SourceStore(DatasetRows(dataset, args.field_map), args.field_map, hold_named=True)
    return open_review(str(dataset.root), args.field_map, store=store, use_journal=False)
