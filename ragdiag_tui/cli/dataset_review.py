"""A dataset's review applied by the commands that read it (`stats DATASET`, `export FOLDER
--reviewed-only`): the labels
its reviewers set in the app (`review DATASET`), from its journal beside the folder
(FOLDER.review.jsonl), `--journal` or RAGDIAG_JOURNAL.

The engine counts the runs with the files' own labels; the review, replayed over the
dataset read in place (`core.runs.source_store`, only the labelled runs are read),
holds how its labels move the counts, which are added to the engine's.
"""

from __future__ import annotations

import argparse
import os
from typing import Any

from .common import EXIT_OK, EXIT_UNREADABLE, err


def dataset_review(args: argparse.Namespace, dataset: Any) -> Any:
    """The dataset's review, read only; None without a journal (or with --no-journal).
    Raises JournalError when the journal cannot be read (the counts would lose its labels)."""
    from ..core.review.journal import journal_path
    from ..core.review.reviewlog import JOURNAL_ENV
    from ..core.review.state import journal_applied, open_review
    from ..core.runs.source_store import SourceStore
    from ..engines.duckdb.review_rows import DatasetRows

    if getattr(args, "no_journal", False):
        return None
    spec = args.journal or os.environ.get(JOURNAL_ENV) or None
    if spec is None and not os.path.exists(journal_path(dataset.root)):
        return None
    store = SourceStore(DatasetRows(dataset, args.field_map), args.field_map)
    review = open_review(str(dataset.root), args.field_map, args.journal, store=store, writable=False)
    for warning in review.warnings:
        err(warning)
    err(journal_applied(review))
    if review.orphans:
        err(f"{len(review.orphans)} journal entries name runs not in the dataset")
    return review


def apply_review(figures: dict[str, Any], review: Any) -> None:
    """Move the engine's counts (`stats --json`'s figures) by the review's labels in force."""
    from ..core.runs.rule import LABEL_ERROR, UNRESOLVED
    from ..core.runs.stages import STAGE_NAMES

    stages = figures["stages"]
    for code, change in enumerate(review.counts):  # a store read in place counts changes only
        if STAGE_NAMES[code] in stages:
            stages[STAGE_NAMES[code]] += change
    figures["still_lucky"] += review.lucky  # lucky_in_file stays the files' own
    figures["unresolved"], figures["label_errors"] = stages[UNRESOLVED], stages[LABEL_ERROR]
    figures["reviewed"], figures["conflicts"] = review.reviewed, len(review.conflicts)
    _move_most_missed(figures, review)


def _move_most_missed(figures: dict[str, Any], review: Any) -> None:
    """The most-missed documents by the labels in force: a label on a run the files leave
    without one can make it miss documents (core.analysis.source_missed); the engine is asked
    again only then."""
    from ..core.analysis.source_missed import missed_change, review_missed
    from ..core.analysis.stats import TOP_MISSED

    store = review.store
    change = missed_change(store.missing_changed())
    if change:
        top = review_missed(store.source, change, TOP_MISSED)
        figures["most_missed"] = [{"id": doc, "runs": runs} for doc, runs in top]


def run_dataset_export(args: argparse.Namespace) -> int:
    """`export FOLDER --reviewed-only -o OUT`: the runs of a dataset its reviewers labelled, with
    the review applied, as `export FILE --reviewed-only` writes them (the others: `sample`)."""
    from ..core.output.export import ExportError, export_reviewed, format_for_path
    from ..core.review.records import JournalError
    from ..engines import EngineUnavailable, load_engine
    from ..engines.dataset import DatasetError, open_dataset

    if not args.reviewed_only:
        err("export of a dataset writes the runs its review labelled: add --reviewed-only "
            "(`sample DATASET -o FILE` draws others)")  # fmt: skip
        return EXIT_UNREADABLE
    try:
        load_engine("duckdb")
        dataset = open_dataset([args.file])
        review = dataset_review(args, dataset)
    except (DatasetError, EngineUnavailable, JournalError) as exc:
        err(str(exc))
        return EXIT_UNREADABLE
    if review is None:
        err(f"{args.file}: no review journal (and --no-journal): no reviewed runs to export")
        return EXIT_UNREADABLE
    if args.output != "-" and os.path.realpath(args.output) in {
        os.path.realpath(path) for path in dataset.files
    }:
        err(f"{args.output}: is a file of the dataset; write elsewhere")
        return EXIT_UNREADABLE
    fmt = args.format or format_for_path(args.output)
    try:
        count = export_reviewed(review, args.output, fmt)
    except ExportError as exc:
        err(str(exc))
        return EXIT_UNREADABLE
    where = "standard output" if args.output == "-" else args.output
    err(f"exported {count} run{'' if count == 1 else 's'} to {where} ({fmt})")
    return EXIT_OK
