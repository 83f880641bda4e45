"""`stats` and `export`: the run file with its review journal applied, read only."""

from __future__ import annotations

import argparse
import os

from .common import EXIT_INVALID, EXIT_OK, EXIT_UNREADABLE, dumps, err, load_tag_set, reviewed, say_spooled
from .dataset_review import run_dataset_export
from .datasets import run_dataset_stats
from .options import AddCommand, add_engine, add_file, add_journal, add_tags


def add_stats(command: AddCommand) -> None:
    stats = command(
        "stats",
        "Runs per stage, lucky answers, unresolved, label errors, invalid lines, most-missed documents.",
        "The review journal is applied (labels in force), and stderr says how many\n"
        "labels it applied; --no-journal counts the file's own labels.\n\n"
        "examples:\n  ragdiag-tui stats sample_runs/demo.jsonl\n"
        "  ragdiag-tui stats sample_runs/demo.jsonl --json | jq .still_lucky",
    )
    add_file(stats, dataset=True)
    stats.add_argument("--json", action="store_true", help="print JSON instead of a table")
    add_journal(stats, reading=True)
    add_tags(stats)
    add_engine(stats, group_by=True)


def add_export(command: AddCommand) -> None:
    export = command(
        "export",
        "Export the runs with the review journal applied.",
        "Each run keeps all its fields and gains: correct (the label in force),\n"
        "original_correct, label_source, reviewer, reviewed_at, note, and the diagnosis.\n"
        "Invalid lines are never exported: stderr says how many were left out, and which.\n"
        "FILE may be a dataset's folder reviewed in the app: with --reviewed-only, its\n"
        "reviewed runs (its journal is FOLDER.review.jsonl).\n\n"
        "examples:\n  ragdiag-tui export sample_runs/demo.jsonl -o reviewed.jsonl\n"
        "  ragdiag-tui export sample_runs/demo.jsonl -o reviewed.csv --reviewed-only",
    )
    add_file(export)
    export.add_argument(
        "-o",
        "--output",
        metavar="OUT",
        required=True,
        help="the file to write (- is stdout; never the run file or a review journal)",
    )
    export.add_argument(
        "--format",
        choices=("jsonl", "csv", "json", "parquet"),
        help="default: from OUT's extension, else jsonl",
    )
    export.add_argument("--reviewed-only", action="store_true", help="only runs a reviewer labelled")
    add_journal(export, reading=True)


def run_stats(args: argparse.Namespace) -> int:
    if args.engine:
        return run_dataset_stats(args)
    from ..core.analysis.agreement import format_agreement, review_agreement
    from ..core.analysis.spotcheck import format_spot_checks, spot_check_reports
    from ..core.analysis.stats import format_table, review_stats, stats_document
    from ..core.review.records import JournalError
    from ..core.review.tags import TagsError
    from ..core.runs.mapping import reading_of

    try:
        tags = load_tag_set(args)
    except TagsError as exc:
        err(str(exc))
        return EXIT_UNREADABLE
    try:
        review = reviewed(args)
    except JournalError as exc:  # counting without the labels would silently misreport
        err(str(exc))
        say_spooled(args.file)
        return EXIT_UNREADABLE
    stats = review_stats(review)
    if args.json:
        print(dumps(stats_document(review, tags, stats)))
    else:
        reports = spot_check_reports(review, tags)
        agreement = review_agreement(review)
        print(format_table(stats, args.file))
        reading = reading_of(review.store.field_map)
        if reading:
            print("\n" + "\n".join(f"  read as: {line}" for line in reading))
        if reports:
            print("\n" + format_spot_checks(reports, tags))
        print("\n  agreement between reviewers\n" + "\n".join(format_agreement(agreement)))
    say_spooled(args.file)  # labels made here that the figures above may lack
    return EXIT_INVALID if stats.invalid else EXIT_OK


def run_export(args: argparse.Namespace) -> int:
    from ..core.output.export import ExportError, export_runs, format_for_path
    from ..core.review.records import JournalError

    if os.path.isdir(args.file):  # a dataset's folder: the runs its review labelled
        return run_dataset_export(args)
    try:
        review = reviewed(args)
    except JournalError as exc:  # exporting without the labels would silently lose them
        err(str(exc))
        return EXIT_UNREADABLE
    store = review.store
    fmt = args.format or format_for_path(args.output)
    rows = review.reviewed_rows() if args.reviewed_only else None
    try:
        count = export_runs(store, review, args.output, fmt, rows)
    except ExportError as exc:
        err(str(exc))
        return EXIT_UNREADABLE
    where = "standard output" if args.output == "-" else args.output
    err(f"exported {count} run{'' if count == 1 else 's'} to {where} ({fmt})")
    if store.errors:
        err(_left_out(sorted(error.line for error in store.errors.values())))
    return EXIT_INVALID if store.errors else EXIT_OK


def _left_out(lines: list[int], listed: int = 10) -> str:
    """What export says of the invalid lines it never writes: how many, and which."""
    from ..core.common.text import plural

    named = ", ".join(str(line) for line in lines[:listed])
    more = f", ... ({len(lines) - listed} more)" if len(lines) > listed else ""
    lines_word = plural(len(lines), "line", "lines")
    return f"{len(lines)} invalid {lines_word} left out: {lines_word} {named}{more}"
