"""A dataset's review applied by the commands that read it (`stats DATASET`, `export FOLDER
--reviewed-only`): the labels
its reviewers set in the app (`review DATASET`), from its journal beside the folder
(FOLDER.review.jsonl), `--journal` or RAGDIAG_JOURNAL.

The engine counts the runs with the files' own labels; the review, replayed over the
dataset read in place (`core.runs.source_store`, only the labelled runs are read),
re-diagnoses the runs its labels touch, and each moves its group's counts
(`engines.duckdb.reviewed`).
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
    store = SourceStore(DatasetRows(dataset, args.field_map), args.field_map, hold_named=True)
    review = open_review(
        str(dataset.root),
        args.field_map,
        args.journal,
        store=store,
        writable=False,
        apply_stale=getattr(args, "apply_stale", False),
    )
    for warning in review.warnings:
        err(warning)
    err(journal_applied(review))
    if review.orphans:
        err(f"{len(review.orphans)} journal entries name runs not in the dataset")
    if review.stale:
        err(f"{len(review.stale)} journal entries left out: their runs changed in the dataset since "
            "(--apply-stale includes them)")  # fmt: skip
    return review


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
