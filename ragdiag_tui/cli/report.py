"""`report`: the review's figures, charts and evidence as one HTML page or a Markdown file."""

from __future__ import annotations

import argparse

from .common import EXIT_INVALID, EXIT_OK, EXIT_UNREADABLE, docs_source, err, load_tag_set, reviewed
from .dataset_report import dataset_report
from .options import AddCommand, add_docs, add_file, add_journal, add_tags

_EPILOG = (
    "OUT.html is one self-contained page: it loads nothing from anywhere and runs no\n"
    "script; it holds the header (file, size, runs, fingerprint, journal, reviewers,\n"
    "date, version), runs per stage and lucky answers, each spot-check's sentence as\n"
    "stats prints it with a chart of its rates and 95% intervals, its reviewed runs\n"
    "and the evidence of its overturned runs, the agreement between reviewers, the\n"
    "most-missed documents, and with --baseline what moved since OLD. It embeds the\n"
    "JSON of `stats --json` (and `compare --json OLD FILE`) in the element\n"
    '<script type="application/json" id="ragdiag-report">:\n'
    '  {"report": {file, bytes, runs, ...}, "stats": {...}, "compare": {...}}\n'
    "OUT.md is for a pull request or a ticket; its charts are written beside it as\n"
    "OUT-NAME.svg files.\n\n"
    "A dataset (a folder, a glob or several Parquet or JSON Lines files) is read in\n"
    "place by DuckDB, its journal (FOLDER.review.jsonl) applied: its figures are\n"
    "those of `stats DATASET --json`, its spot-checks' runs alone are read.\n\n"
    "The charts need matplotlib: pip install 'ragdiag-tui[report]'.\n\n"
    "exit status: 0 written, 1 written but some lines of FILE are invalid, 2 nothing\n"
    "written (unreadable file or journal, unknown spot-check, no matplotlib).\n\n"
    "examples:\n  ragdiag-tui report sample_runs/demo.jsonl -o report.html\n"
    "  ragdiag-tui report sample_runs/demo.jsonl -o report.md --spot-check lucky-5\n"
    "  ragdiag-tui report sample_runs/demo_after.jsonl -o report.html --baseline sample_runs/demo.jsonl\n"
    "  ragdiag-tui report lake/ -o lake-report.html"
)


def _limit(text: str) -> int:
    try:
        limit = int(text)
    except ValueError:
        limit = -1
    if limit < 0:
        raise argparse.ArgumentTypeError(f"'{text}': give a whole number of cards (0 or more)")
    return limit


def add_report(command: AddCommand) -> None:
    report = command(
        "report",
        "Write the review's figures, charts and evidence as an HTML page or a Markdown file.",
        _EPILOG,
    )
    add_file(report, dataset=True)
    report.add_argument(
        "--engine",
        choices=("duckdb",),
        help="read the input as a dataset in place by this engine (the default for a folder, a "
        "glob or several files)",
    )
    report.add_argument("-o", "--output", metavar="OUT", required=True, help="OUT.html or OUT.md")
    report.add_argument(
        "--spot-check",
        action="append",
        default=[],
        metavar="NAME",
        help="show this spot-check (repeatable; default: every spot-check)",
    )
    report.add_argument(
        "--limit",
        type=_limit,
        default=20,
        metavar="N",
        help="evidence cards per spot-check: its first N overturned runs (default: 20)",
    )
    report.add_argument(
        "--baseline",
        metavar="OLD",
        help="compare with an earlier run file, as compare OLD FILE (a run file's report only)",
    )
    add_docs(report)
    add_journal(report, reading=True)
    add_tags(report)


def run_report(args: argparse.Namespace) -> int:
    from ..core.output.report import ChartsUnavailable, ReportError, report_format, require_matplotlib

    try:
        report_format(args.output)
        require_matplotlib()
    except (ReportError, ChartsUnavailable) as exc:
        err(str(exc))
        return EXIT_UNREADABLE
    return _write(args)


def is_dataset(args: argparse.Namespace) -> bool:
    """Whether `report`'s inputs are a dataset read in place (dataset_report.py), not one run file."""
    from ..engines.dataset import is_dataset_input

    return args.engine is not None or is_dataset_input(args.inputs)


def _write(args: argparse.Namespace) -> int:
    from .. import __version__
    from ..core.common.atomic import WriteRefused
    from ..core.output.report import ReportError, ReportOptions, build_report, write_report
    from ..core.review.records import JournalError
    from ..core.review.tags import TagsError
    from ..core.runs.corpus import DocsError
    from ..core.runs.loading import FileError

    try:
        tags = load_tag_set(args)
        source = docs_source(args)
        review = None if is_dataset(args) else reviewed(args)
        options = ReportOptions(
            spot_checks=args.spot_check,
            limit=args.limit,
            docs=source.open() if source is not None else None,
            baseline=args.baseline,
            field_map=args.field_map,
            journal_spec=args.journal,
            use_journal=not args.no_journal,
            version=__version__,
        )
        data = dataset_report(args, tags, options) if review is None else build_report(review, tags, options)
        for warning in data.baseline.warnings if data.baseline else ():
            err(warning)
        written = write_report(data, args.output)
    except (TagsError, DocsError, JournalError, ReportError, WriteRefused, FileError) as exc:
        err(str(exc))
        return EXIT_UNREADABLE
    for path in written:
        err(f"wrote {path}")
    return EXIT_INVALID if data.header.invalid else EXIT_OK
