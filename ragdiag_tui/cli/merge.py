"""`merge`: fold review journals written elsewhere into a run file's review journal."""

from __future__ import annotations

import argparse

from .common import EXIT_INVALID, EXIT_OK, EXIT_UNREADABLE, err
from .options import AddCommand, add_file


def add_merge(command: AddCommand) -> None:
    merge = command(
        "merge",
        "Fold review journals written elsewhere into this run file's review journal.",
        "Each JOURNAL is the review journal of a copy of the same run file (a colleague's\n"
        "runs.jsonl.review.jsonl). Entries already in FILE's journal are not written again,\n"
        "so merging twice changes nothing; every reviewer's entries are kept. An entry made\n"
        "on a run that has changed since (its text differs here) is kept but never applied\n"
        "silently: the app lists it as stale, to re-apply or drop (key S).\n\n"
        "exit status: 0 merged; 1 merged, but some entries were stale or named runs not in\n"
        "FILE, or some journal or line could not be read (a summary says which); 2 FILE or\n"
        "its journal cannot be read or written.\n\n"
        "example:\n  ragdiag-tui merge sample_runs/demo.jsonl ~/from-bob/demo.jsonl.review.jsonl",
    )
    add_file(merge)
    merge.add_argument("journals", nargs="+", metavar="JOURNAL", help="a review journal file to fold in")
    merge.add_argument(
        "--journal",
        metavar="SPEC",
        help="the review to merge into: a journal file or a postgresql:// URL "
        "(default: $RAGDIAG_JOURNAL, else FILE.review.jsonl)",
    )


def run_merge(args: argparse.Namespace) -> int:
    from ..core.review.merge import merge_journals
    from ..core.review.records import JournalError
    from ..core.review.state import open_review

    review = open_review(args.file, args.field_map, args.journal, writable=True)
    for message in (*review.problems, *review.warnings):
        err(message)
    if review.problems or review.journal is None:
        return EXIT_UNREADABLE
    try:
        result = merge_journals(review, args.journals)
    except JournalError as exc:
        err(f"{exc}; merging again completes it without duplicates")
        return EXIT_UNREADABLE
    finally:
        review.journal.close()
    for message in result.unreadable:
        err(message)
    err(result.summary(review.journal.name))
    return EXIT_OK if result.clean else EXIT_INVALID
