"""`diagnose` and `check`: the rule over a file's own labels, no review applied."""

from __future__ import annotations

import argparse

from .common import EXIT_INVALID, EXIT_OK, EXIT_UNREADABLE, dumps, err
from .datasets import run_dataset_diagnose
from .options import AddCommand, add_engine, add_file


def add_diagnose(command: AddCommand) -> None:
    diagnose = command(
        "diagnose",
        "Write one JSON line of diagnosis per run, in file order.",
        "The pure rule over the file's own labels: the review journal is not applied\n"
        "(stats and export apply it).\n\n"
        'output lines:\n  {"id": "run-1", "stage": "retrieval", "missing": ["D2"]}\n'
        '  {"line": 7, "id": "run-7", "error": "invalid-run", "field": "context", "detail": "..."}\n\n'
        "exit status: 0 every line valid, 1 some line invalid (valid runs are still\n"
        "written), 2 the file cannot be read.\n\n"
        "example:\n  ragdiag-tui diagnose sample_runs/demo.jsonl -o out.jsonl",
    )
    add_file(diagnose, dataset=True)
    diagnose.add_argument(
        "-o",
        "--output",
        metavar="OUT",
        help="write here instead of stdout (- is stdout; a device or FIFO is written as a stream; "
        "never a review journal)",
    )
    diagnose.add_argument(
        "--metrics",
        action="store_true",
        help='add RAGAS\'s ID-based context "recall" and "precision" to each run\'s line '
        "(null when undefined); without it the lines are exactly the reference rule's",
    )
    add_engine(diagnose)


def add_check(command: AddCommand) -> None:
    check = command(
        "check",
        "Compare each case's expected outcome in a case file with the rule.",
        'All agree: prints {"checked": N, "caseIds": [...]} and exits 0.\n'
        "Otherwise names each disagreeing case with expected and got, and exits 1.\n\n"
        "example:\n  ragdiag-tui check sample_runs/seed_cases.json",
    )
    add_file(check)


def run_diagnose(args: argparse.Namespace) -> int:
    if args.engine:
        return run_dataset_diagnose(args)
    from ..core.output.diagnose import diagnose_file

    return diagnose_file(args.file, args.output, args.field_map, metrics=args.metrics)


def run_check(args: argparse.Namespace) -> int:
    from ..core.runs.loading import NO_EXPECTED, Run, read_runs

    checked: list[str] = []
    failures = 0
    for record in read_runs(args.file, field_map=args.field_map):
        if type(record) is not Run:
            failures += 1
            err(record.message(args.file))
            continue
        if record.expected is NO_EXPECTED:
            continue
        checked.append(record.id)
        if record.diagnosis != record.expected:
            failures += 1
            print(
                f"case {dumps(record.id)} (line {record.line}): "
                f"expected {dumps(record.expected)}, got {dumps(record.diagnosis)}"
            )
    if not checked and not failures:
        err(f"{args.file}: no case has an `expected` outcome to check")
        return EXIT_UNREADABLE
    if failures:
        err(f"{failures} of {len(checked)} cases disagree with the rule")
        return EXIT_INVALID
    print(dumps({"checked": len(checked), "caseIds": checked}, separators=(",", ":")))
    return EXIT_OK
