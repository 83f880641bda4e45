"""`compare`: which runs moved between stages from one run file to another."""

from __future__ import annotations

import argparse

from .common import EXIT_OK, EXIT_UNREADABLE, dumps, err
from .options import AddCommand, add_file

_EPILOG = (
    "Runs join by id (or by question text, and the same source when both have one,\n"
    "with --by question). Reports runs joined, only in OLD, only in NEW, the stage\n"
    "transitions (OLD stage by NEW stage), fixed (retrieval or generation -> pass),\n"
    "regressed (pass -> retrieval or generation), new and resolved lucky answers, and\n"
    "the documents whose missed count changed most. Pairs with the same id but a\n"
    "different question are not comparable: listed, and left out of the rest.\n"
    "Each file's review journal is applied unless --no-journal; stderr says how many\n"
    "labels each applied, as stats does.\n\n"
    '--json: {"by", "joined", "only_old", "only_new", "not_comparable": [{"old", "new"}],\n'
    '  "transitions": {OLD_STAGE: {NEW_STAGE: count}}, "fixed", "regressed", "new_lucky",\n'
    '  "resolved_lucky" (lists of NEW ids), "documents": [{"id", "missed_old", "missed_new"}]}\n\n'
    "exit status: 0 compared, 2 either file (or its journal) cannot be read.\n\n"
    "examples:\n  ragdiag-tui compare sample_runs/demo.jsonl sample_runs/demo_after.jsonl\n"
    "  ragdiag-tui compare sample_runs/demo.jsonl sample_runs/demo_after.jsonl --by question --json \\\n"
    "      | jq .fixed"
)


def add_compare(command: AddCommand) -> None:
    compare = command(
        "compare",
        "Join the runs of two files and show which moved between stages.",
        _EPILOG,
    )
    add_file(compare, ("old", "new"))
    compare.add_argument(
        "--by", choices=("id", "question"), default="id", help="join runs by id (default) or question"
    )
    compare.add_argument("--json", action="store_true", help="print JSON instead of a report")
    compare.add_argument(
        "--no-journal", action="store_true", help="the files' own labels, without their review journals"
    )
    compare.add_argument(
        "--journal",
        metavar="URL",
        help="a postgresql:// URL holding both files' reviews (default: $RAGDIAG_JOURNAL, else each "
        "file's own journal)",
    )


def run_compare(args: argparse.Namespace) -> int:
    from ..core.analysis.compare import compare_files, format_comparison
    from ..core.review.records import JournalError

    try:
        result, warnings = compare_files(
            args.old,
            args.new,
            args.by,
            args.field_map,
            journals=not args.no_journal,
            journal_spec=args.journal,
        )
    except JournalError as exc:  # comparing without the labels would silently misreport
        err(str(exc))
        return EXIT_UNREADABLE
    if args.no_journal:
        err("review journals ignored (--no-journal): the files' own labels")
    for warning in warnings:
        err(warning)
    if args.json:
        print(dumps(result.to_json()))
    else:
        print(format_comparison(result, args.old, args.new))
    return EXIT_OK
