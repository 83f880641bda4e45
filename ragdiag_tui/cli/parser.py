"""The argument parser: each command adds its own options (see its module), and the
groups several share are defined once in options. `ragdiag-tui FILE` means
`ragdiag-tui review FILE`."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence

from .. import __version__
from ..core.runs.mapping import FieldMap, MapSpecError
from .common import EXIT_UNREADABLE
from .compare import add_compare, run_compare
from .datasets import DATASET_COMMANDS, resolve_inputs
from .merge import add_merge, run_merge
from .options import AddCommand
from .report import add_report, run_report
from .reports import add_export, add_stats, run_export, run_stats
from .review import add_review, add_serve, run_review, run_serve
from .rule import add_check, add_diagnose, run_check, run_diagnose
from .sample import add_sample, run_sample

Handler = Callable[[argparse.Namespace], int]

# Each command: how it adds its parser, and what runs it. In the order of `--help`.
_TABLE: dict[str, tuple[Callable[[AddCommand], None], Handler]] = {
    "review": (add_review, run_review),
    "diagnose": (add_diagnose, run_diagnose),
    "check": (add_check, run_check),
    "stats": (add_stats, run_stats),
    "export": (add_export, run_export),
    "report": (add_report, run_report),
    "sample": (add_sample, run_sample),
    "serve": (add_serve, run_serve),
    "compare": (add_compare, run_compare),
    "merge": (add_merge, run_merge),
}
COMMANDS = tuple(_TABLE)
HANDLERS: dict[str, Handler] = {name: run for name, (_, run) in _TABLE.items()}

_EPILOG = """\
commands:
  review FILE      open the review app (the default: `ragdiag-tui FILE`)
  diagnose FILE    one JSON line of diagnosis per run
  check FILE       compare a case file's expected outcomes with the rule
  stats FILE       runs per stage, lucky answers, most-missed documents
  export FILE -o OUT   the reviewed results, with the review journal applied
  report FILE -o OUT.html|OUT.md   the figures, charts and evidence, to send
  serve FILE       the review app in a web browser
  compare OLD NEW  which runs moved between stages from one run file to another
  sample FILE --view VIEW -n N --seed S   draw a spot-check: a seeded sample of a view
  merge FILE JOURNAL...   fold journals written elsewhere into FILE's review journal

exit status: 0 all good, 1 some lines invalid or some case disagreed,
2 the file cannot be read (missing, a directory, empty, not UTF-8) or bad usage.

examples:
  ragdiag-tui sample_runs/demo.jsonl
  ragdiag-tui diagnose sample_runs/demo.jsonl -o diagnoses.jsonl
  ragdiag-tui check sample_runs/seed_cases.json
  ragdiag-tui stats sample_runs/demo.jsonl --json
  ragdiag-tui export sample_runs/demo.jsonl -o reviewed.csv --reviewed-only
  ragdiag-tui stats sample_runs/ragas_runs.jsonl --preset ragas
  ragdiag-tui diagnose sample_runs/runs.csv
  ragdiag-tui diagnose sample_runs/llamaindex_retrieval.jsonl --map required=expected_ids \\
      --map context=retrieved_ids
  ragdiag-tui compare sample_runs/demo.jsonl sample_runs/demo_after.jsonl
  ragdiag-tui stats sample_runs/demo.jsonl sample_runs/demo_after.jsonl --group-by model
  ragdiag-tui sample sample_runs/demo.jsonl sample_runs/demo_after.jsonl --view lucky -n 5 \\
      --seed 7 -o lucky.jsonl
  (several files, a folder or a glob are a dataset, read by DuckDB: --engine duckdb|spark)
"""


def build_parser() -> argparse.ArgumentParser:
    """The whole command line: the top-level parser with every command's subparser."""
    parser = argparse.ArgumentParser(
        prog="ragdiag-tui",
        description="Review diagnoses of RAG runs: was a failure retrieval or generation?",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"ragdiag-tui {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    def command(name: str, help: str, epilog: str) -> argparse.ArgumentParser:
        return sub.add_parser(
            name,
            help=help,
            description=help,
            epilog=epilog,
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )

    for add, _ in _TABLE.values():
        add(command)
    return parser


_TOP_LEVEL = ("-h", "--help", "--version")


def _options_taking_values(parser: argparse.ArgumentParser, command: str) -> frozenset[str]:
    """The options of `command` that take a value, read from its parser (never a hand-kept list)."""
    sub = next(action for action in parser._actions if isinstance(action, argparse._SubParsersAction))
    return frozenset(
        option
        for action in sub.choices[command]._actions
        if action.nargs != 0
        for option in action.option_strings
    )


def _first_word(args: list[str], takes_value: frozenset[str]) -> int | None:
    """The index of the first argument that is neither an option nor an option's value."""
    after_option = False
    for index, arg in enumerate(args):
        if after_option:
            after_option = False
        elif arg == "--":
            return index + 1 if index + 1 < len(args) else None
        elif arg in takes_value:
            after_option = True
        elif not arg.startswith("-"):
            return index
    return None


def parse_args(argv: Sequence[str]) -> argparse.Namespace:
    args = list(argv)
    parser = build_parser()
    # `ragdiag-tui [OPTIONS] FILE` means `ragdiag-tui review [OPTIONS] FILE`, whatever review's
    # options come before the file (`--spot-check NAME FILE`).
    first = _first_word(args, _options_taking_values(parser, "review"))
    if first is not None and args[first] not in COMMANDS:
        args.insert(next(i for i, arg in enumerate(args) if arg not in _TOP_LEVEL), "review")
    namespace = parser.parse_args(args)
    if namespace.command is None:
        parser.print_help(sys.stderr)
        raise SystemExit(EXIT_UNREADABLE)
    if namespace.command in DATASET_COMMANDS:
        resolve_inputs(namespace, parser)
    elif namespace.command in ("review", "report"):  # a run file, or a dataset read in place
        namespace.inputs, namespace.file = list(namespace.file), namespace.file[0]
    try:
        field_map = FieldMap.from_specs(
            namespace.map, namespace.preset, namespace.match, namespace.label_threshold
        )
    except MapSpecError as exc:  # pragma: no cover - each spec was checked while parsing
        parser.error(str(exc))
    namespace.field_map = field_map or None
    return namespace
