"""The command line. Arguments are parsed before anything from Textual is imported,
so the headless commands start fast and run where no terminal UI could.

Exit status: 0 all good; 1 the file loaded but some lines were invalid (or, for
`check`, some case disagreed with the rule); 2 the file could not be read at all
or the command line was wrong.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any

from . import __version__
from .core.runs.mapping import MAPPABLE, PRESETS, FieldMap, MapSpecError, parse_spec

EXIT_OK, EXIT_INVALID, EXIT_UNREADABLE = 0, 1, 2
COMMANDS = ("review", "diagnose", "check", "stats", "export", "serve", "compare", "sample", "merge")

_EPILOG = """\
commands:
  review FILE      open the review app (the default: `ragdiag-tui FILE`)
  diagnose FILE    one JSON line of diagnosis per run
  check FILE       compare a case file's expected outcomes with the rule
  stats FILE       runs per stage, lucky answers, most-missed documents
  export FILE -o OUT   the reviewed results, with the review journal applied
  serve FILE       the review app in a web browser
  compare OLD NEW  which runs moved between stages from one run file to another
  sample FILE --view VIEW -n N --seed S   draw a spot-check: a seeded sample of a view
  merge FILE JOURNAL...   fold journals written elsewhere into FILE's review journal

exit status: 0 all good, 1 some lines invalid or some case disagreed,
2 the file cannot be read (missing, a directory, empty, not UTF-8) or bad usage.

examples:
  ragdiag-tui sample_runs/demo.jsonl
  ragdiag-tui diagnose runs.jsonl -o diagnoses.jsonl
  ragdiag-tui check sample_runs/seed_cases.json
  ragdiag-tui stats runs.jsonl --json
  ragdiag-tui export runs.jsonl -o reviewed.csv --reviewed-only
  ragdiag-tui stats sample_runs/ragas_runs.jsonl --preset ragas
  ragdiag-tui diagnose sample_runs/runs.csv
  ragdiag-tui diagnose runs.jsonl --map required=gold_ids --map 'context=retrieved[].doc_id'
  ragdiag-tui compare sample_runs/demo_before.jsonl sample_runs/demo_after.jsonl
"""


def _map_spec(spec: str) -> str:
    try:
        parse_spec(spec)
    except MapSpecError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return spec


def _add_file(parser: argparse.ArgumentParser, names: Sequence[str] = ("file",)) -> None:
    for name in names:
        parser.add_argument(
            name, metavar=name.upper(), help="a run file: JSON Lines, JSON, CSV, Parquet, or a case file"
        )
    fields = parser.add_argument_group(
        "field mapping",
        "For files whose runs name their fields differently. SOURCE is a key, a dotted\n"
        "path into nested objects (retrieval.doc_ids), or a path through a list of\n"
        "objects (retrieved[].doc_id); in a CSV file it names a column.",
    )
    fields.add_argument(
        "--map",
        action="append",
        default=[],
        type=_map_spec,
        metavar="FIELD=SOURCE",
        help=f"read FIELD from SOURCE (repeatable); FIELD is one of {', '.join(MAPPABLE)}",
    )
    presets = "; ".join(
        f"{name}: " + ", ".join(f"{field}={source}" for field, source in sources.items())
        for name, sources in sorted(PRESETS.items())
    )
    fields.add_argument(
        "--preset",
        choices=sorted(PRESETS),
        metavar="NAME",
        help=f"the field names of a known tool, before any --map ({presets}). Under ragas, ID "
        "lists may also be Python list literals (['a', 'b'], as RAGAS's CSV holds them) and integer "
        "IDs are read as their decimal strings",
    )


def _add_journal(parser: argparse.ArgumentParser, reading: bool) -> None:
    """The review journal's options: `reading` for the commands that only read it."""
    group = parser.add_argument_group("review journal")
    group.add_argument(
        "--journal",
        metavar="SPEC",
        help="where the review is kept: a journal file, or a postgresql:// URL "
        "(default: $RAGDIAG_JOURNAL, else FILE.review.jsonl)",
    )
    if reading:
        group.add_argument(
            "--no-journal", action="store_true", help="ignore the review journal: the file's own labels"
        )
        group.add_argument(
            "--apply-stale",
            action="store_true",
            help="also apply journal entries made before their run changed in the file (left out by default)",
        )
    else:
        group.add_argument(
            "--blind",
            action="store_true",
            help="hide the file's label and other reviewers' labels until you have labelled the run",
        )
        group.add_argument(
            "--adjudicate",
            action="store_true",
            help="your label on a run whose reviewers disagree is the final (adjudicated) label",
        )


def build_parser() -> argparse.ArgumentParser:
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

    review = command(
        "review",
        "Open the review app on a run file.",
        "example:\n  ragdiag-tui review runs.jsonl --reviewer alice\n\n"
        "Labels and notes are journaled to FILE.review.jsonl as you go; the run file\n"
        "itself is never written. Reopening the file restores the review.",
    )
    _add_file(review)
    review.add_argument("--reviewer", metavar="NAME", help="your name in the journal (default: login name)")
    review.add_argument(
        "--export-dir", metavar="DIR", help="allow exports only into this folder (serve sets it)"
    )
    _add_journal(review, reading=False)
    _add_tags_option(review)
    _add_docs_options(review)
    review.add_argument(
        "--spot-check",
        metavar="NAME",
        help="show only the runs of this spot-check (see `sample`), in sample order, with its progress",
    )
    review.add_argument(
        "--baseline",
        metavar="OLD",
        help="an earlier run file of the same questions: the table gains a `was` column, the views "
        "~ changed, + fixed and - regressed, the detail shows both runs' IDs, and OLD's reviewer "
        "labels are offered (O) for runs unchanged since",
    )

    diagnose = command(
        "diagnose",
        "Write one JSON line of diagnosis per run, in file order.",
        "The pure rule over the file's own labels: the review journal is not applied\n"
        "(stats and export apply it).\n\n"
        'output lines:\n  {"id": "run-1", "stage": "retrieval", "missing": ["D2"]}\n'
        '  {"line": 7, "id": "run-7", "error": "invalid-run", "field": "context", "detail": "..."}\n\n'
        "exit status: 0 every line valid, 1 some line invalid (valid runs are still\n"
        "written), 2 the file cannot be read.\n\nexample:\n  ragdiag-tui diagnose runs.jsonl -o out.jsonl",
    )
    _add_file(diagnose)
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

    check = command(
        "check",
        "Compare each case's expected outcome in a case file with the rule.",
        'All agree: prints {"checked": N, "caseIds": [...]} and exits 0.\n'
        "Otherwise names each disagreeing case with expected and got, and exits 1.\n\n"
        "example:\n  ragdiag-tui check sample_runs/seed_cases.json",
    )
    _add_file(check)

    stats = command(
        "stats",
        "Runs per stage, lucky answers, unresolved, label errors, invalid lines, most-missed documents.",
        "The review journal is applied (labels in force), and stderr says how many\n"
        "labels it applied; --no-journal counts the file's own labels.\n\n"
        "example:\n  ragdiag-tui stats runs.jsonl\n  ragdiag-tui stats runs.jsonl --json | jq .lucky_answers",
    )
    _add_file(stats)
    stats.add_argument("--json", action="store_true", help="print JSON instead of a table")
    _add_journal(stats, reading=True)
    _add_tags_option(stats)

    export = command(
        "export",
        "Export the runs with the review journal applied.",
        "Each run keeps all its fields and gains: correct (the label in force),\n"
        "original_correct, label_source, reviewer, reviewed_at, note, and the diagnosis.\n\n"
        "examples:\n  ragdiag-tui export runs.jsonl -o reviewed.jsonl\n"
        "  ragdiag-tui export runs.jsonl -o reviewed.csv --reviewed-only",
    )
    _add_file(export)
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
    _add_journal(export, reading=True)

    _add_sample(command)

    serve = command(
        "serve",
        "Serve the review app to a web browser (needs the `serve` extra).",
        "example:\n  ragdiag-tui serve runs.jsonl --port 8000\n\n"
        "Binds to 127.0.0.1 unless --host says otherwise. Every request needs the random\n"
        "token printed in the URL at start (as Jupyter does); exports go only under the\n"
        "run file's folder unless --export-dir names another.",
    )
    _add_file(serve)
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--reviewer", metavar="NAME")
    serve.add_argument(
        "--no-token", action="store_true", help="serve without a token: any local program can label runs"
    )
    serve.add_argument(
        "--export-dir", metavar="DIR", help="where served apps may export (default: FILE's folder)"
    )
    _add_journal(serve, reading=False)

    compare = command(
        "compare",
        "Join the runs of two files and show which moved between stages.",
        "Runs join by id (or by question text, and the same source when both have one,\n"
        "with --by question). Reports runs joined, only in OLD, only in NEW, the stage\n"
        "transitions (OLD stage by NEW stage), fixed (retrieval or generation -> pass),\n"
        "regressed (pass -> retrieval or generation), new and resolved lucky answers, and\n"
        "the documents whose missed count changed most. Pairs with the same id but a\n"
        "different question are not comparable: listed, and left out of the rest.\n"
        "Each file's review journal is applied unless --no-journal.\n\n"
        '--json: {"by", "joined", "only_old", "only_new", "not_comparable": [{"old", "new"}],\n'
        '  "transitions": {OLD_STAGE: {NEW_STAGE: count}}, "fixed", "regressed", "new_lucky",\n'
        '  "resolved_lucky" (lists of NEW ids), "documents": [{"id", "missed_old", "missed_new"}]}\n\n'
        "exit status: 0 compared, 2 either file (or its journal) cannot be read.\n\n"
        "examples:\n  ragdiag-tui compare before.jsonl after.jsonl\n"
        "  ragdiag-tui compare before.jsonl after.jsonl --by question --json | jq .fixed",
    )
    _add_file(compare, ("old", "new"))
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
    _add_tags_option(serve)
    _add_docs_options(serve)
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
        "example:\n  ragdiag-tui merge runs.jsonl ~/from-bob/runs.jsonl.review.jsonl",
    )
    _add_file(merge)
    merge.add_argument("journals", nargs="+", metavar="JOURNAL", help="a review journal file to fold in")
    merge.add_argument(
        "--journal",
        metavar="SPEC",
        help="the review to merge into: a journal file or a postgresql:// URL "
        "(default: $RAGDIAG_JOURNAL, else FILE.review.jsonl)",
    )
    return parser


def _sample_size(text: str) -> int | str:
    if text == "auto":
        return text
    try:
        size = int(text)
    except ValueError:
        size = 0
    if size < 1:
        raise argparse.ArgumentTypeError(f"'{text}': give a whole number of runs (1 or more), or auto")
    return size


def _margin(text: str) -> float:
    try:
        margin = float(text)
    except ValueError:
        margin = 0.0
    if not 0 < margin < 1:
        raise argparse.ArgumentTypeError(f"'{text}': give a proportion between 0 and 1, as in 0.05")
    return margin


def _add_tags_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--tags",
        metavar="FILE",
        help="the reason tags in force: a TOML file of [[tag]] entries (key, name, description); "
        "default: the lucky-answer set",
    )


def _docs_map_spec(spec: str) -> str:
    from .core.runs.corpus import parse_docs_map

    try:
        parse_docs_map([spec])
    except MapSpecError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return spec


def _add_docs_options(parser: argparse.ArgumentParser) -> None:
    docs = parser.add_argument_group(
        "documents' text",
        "The text of the documents the IDs name, read from FILE when shown: JSON Lines, CSV\n"
        "or JSON, each document with an id and a text field. Runs that carry their texts\n"
        "(RAGAS's retrieved_contexts and reference_contexts) need no --docs.",
    )
    docs.add_argument("--docs", metavar="FILE", help="the documents' text")
    docs.add_argument(
        "--docs-map",
        action="append",
        default=[],
        type=_docs_map_spec,
        metavar="FIELD=SOURCE",
        help="the document's id or text under another name: id=doc_id, text=body.content (repeatable)",
    )


def docs_source(args: argparse.Namespace) -> Any:
    """`--docs` and `--docs-map` as a core.runs.corpus.DocsSource (None without --docs).
    Raises core.runs.corpus.DocsError when the file cannot be read."""
    from .core.runs.corpus import DocsError, DocsSource, check_docs_file, parse_docs_map

    path = getattr(args, "docs", None)
    if path is None:
        if getattr(args, "docs_map", None):
            raise DocsError("--docs-map needs --docs FILE")
        return None
    check_docs_file(path)
    return DocsSource(path, tuple(parse_docs_map(args.docs_map).items()))


def load_tag_set(args: argparse.Namespace) -> tuple[Any, ...]:
    """The reason tags `--tags` names, or the default set. Raises core.tags.TagsError."""
    from .core.review.tags import DEFAULT_TAGS, load_tags

    path = getattr(args, "tags", None)
    return DEFAULT_TAGS if path is None else load_tags(path)


def _add_sample(command: Callable[[str, str, str], argparse.ArgumentParser]) -> None:
    from .core.analysis.sampling import SAMPLE_VIEWS

    sample = command(
        "sample",
        "Draw a spot-check: a seeded random sample of the runs of a view, recorded in the review journal.",
        "The population is the view's runs in file order (narrowed by --filter); the stage\n"
        "views and lucky count by the FILE's labels, so a population does not shrink as\n"
        "reviewers overturn labels. The draw is exactly\n"
        "    random.Random(SEED).sample(population_ids_in_file_order, N)\n"
        "(N capped at the population): the same file, view, filter, N and seed give the\n"
        "same ids on any machine. The spot-check (name, view, filter, seed, population,\n"
        "ids, who, when) is journaled; the ids are printed one per line.\n\n"
        "-n auto chooses the size that bounds a proportion's 95% interval to +-MARGIN in\n"
        "the worst case: n0 = 1.96^2 * 0.25 / MARGIN^2, n = ceil(n0 / (1 + (n0 - 1) / N)).\n\n"
        "exit status: 0 drawn, 1 drawn but some lines of FILE are invalid, 2 nothing drawn\n"
        "(unreadable file or journal, empty population, a name already used).\n\n"
        "examples:\n  ragdiag-tui sample runs.jsonl --view lucky -n 50 --seed 20261130\n"
        "  ragdiag-tui sample runs.jsonl --view lucky -n auto --margin 0.1 --seed 7 --json\n"
        "  ragdiag-tui review runs.jsonl --spot-check lucky-50",
    )
    _add_file(sample)
    sample.add_argument(
        "--view",
        required=True,
        choices=SAMPLE_VIEWS,
        metavar="VIEW",
        help=f"the population: one of {', '.join(SAMPLE_VIEWS)}",
    )
    sample.add_argument(
        "--filter",
        default="",
        metavar="TEXT",
        help="the app's filter: runs whose id, question or a document ID contains TEXT (any case); "
        "FIELD:VALUE (model:gpt-4o) and is:VIEW terms as in the app",
    )
    sample.add_argument(
        "-n",
        required=True,
        type=_sample_size,
        metavar="N|auto",
        help="how many runs to draw (more than the population: all of it), or auto",
    )
    sample.add_argument(
        "--margin",
        type=_margin,
        metavar="M",
        help="with -n auto: the interval's half-width to plan for (default 0.05)",
    )
    sample.add_argument("--seed", required=True, type=int, metavar="S", help="the random seed (an integer)")
    sample.add_argument(
        "--name", metavar="NAME", help="the spot-check's name (default: VIEW-SIZE, as lucky-50)"
    )
    sample.add_argument(
        "--replace", action="store_true", help="replace a spot-check of the same name drawn differently"
    )
    sample.add_argument(
        "--json", action="store_true", help='print one object: {"name", "view", "seed", "population", "ids"}'
    )
    sample.add_argument(
        "--reviewer", metavar="NAME", help="who draws it, in the journal (default: login name)"
    )
    _add_journal(sample, reading=False)


_TAKES_VALUE = (
    "--map",
    "--preset",
    "--reviewer",
    "--export-dir",
    "--journal",
    "--tags",
    "--docs",
    "--docs-map",
    "--baseline",
)
_TOP_LEVEL = ("-h", "--help", "--version")


def _first_word(args: list[str]) -> int | None:
    """The index of the first argument that is neither an option nor an option's value."""
    after_option = False
    for index, arg in enumerate(args):
        if after_option:
            after_option = False
        elif arg in _TAKES_VALUE:
            after_option = True
        elif not arg.startswith("-"):
            return index
    return None


def parse_args(argv: Sequence[str]) -> argparse.Namespace:
    args = list(argv)
    # `ragdiag-tui [OPTIONS] FILE` means `ragdiag-tui review [OPTIONS] FILE`.
    first = _first_word(args)
    if first is not None and args[first] not in COMMANDS:
        args.insert(next(i for i, arg in enumerate(args) if arg not in _TOP_LEVEL), "review")
    parser = build_parser()
    namespace = parser.parse_args(args)
    if namespace.command is None:
        parser.print_help(sys.stderr)
        raise SystemExit(EXIT_UNREADABLE)
    try:
        field_map = FieldMap.from_specs(namespace.map, namespace.preset)
    except MapSpecError as exc:  # pragma: no cover - each spec was checked while parsing
        parser.error(str(exc))
    namespace.field_map = field_map or None
    return namespace


def _err(message: str) -> None:
    from .core.common.text import visible

    print(f"ragdiag-tui: {visible(message)}", file=sys.stderr)


def _dumps(obj: Any, **options: Any) -> str:
    """JSON for stdout: readable text, or ASCII escapes where a lone surrogate cannot be printed."""
    text = json.dumps(obj, ensure_ascii=False, **options)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # a legal \ud800 escape in a run: print() would raise
        return json.dumps(obj, **options)
    if sys.stdout.isatty() and not text.isprintable():
        # JSON leaves C1 controls and bidi overrides as they are; a terminal obeys them.
        return json.dumps(obj, **options)
    return text


def run_diagnose(args: argparse.Namespace) -> int:
    from .core.output.diagnose import diagnose_file

    return diagnose_file(args.file, args.output, args.field_map, metrics=args.metrics)


def run_check(args: argparse.Namespace) -> int:
    from .core.runs.loading import NO_EXPECTED, Run, read_runs

    checked: list[str] = []
    failures = 0
    for record in read_runs(args.file, field_map=args.field_map):
        if type(record) is not Run:
            failures += 1
            _err(record.message(args.file))
            continue
        if record.expected is NO_EXPECTED:
            continue
        checked.append(record.id)
        if record.diagnosis != record.expected:
            failures += 1
            print(
                f"case {_dumps(record.id)} (line {record.line}): "
                f"expected {_dumps(record.expected)}, got {_dumps(record.diagnosis)}"
            )
    if not checked and not failures:
        _err(f"{args.file}: no case has an `expected` outcome to check")
        return EXIT_UNREADABLE
    if failures:
        _err(f"{failures} of {len(checked)} cases disagree with the rule")
        return EXIT_INVALID
    print(_dumps({"checked": len(checked), "caseIds": checked}, separators=(",", ":")))
    return EXIT_OK


def _reviewed(args: argparse.Namespace) -> Any:
    """The run file with its review applied, for the commands that only read it
    (stats, export); reports on stderr what the journal contributed. Raises
    JournalError when the journal cannot be read (going on would lose its labels)."""
    from .core.review.state import open_review

    use = not args.no_journal
    review = open_review(
        args.file,
        args.field_map,
        args.journal,
        use_journal=use,
        writable=False,
        apply_stale=args.apply_stale,
    )
    if review.journal is None:
        _err("review journal ignored (--no-journal): the file's own labels")
        return review
    for warning in review.warnings:
        _err(warning)
    name = review.journal.name
    labels = "label" if review.reviewed == 1 else "labels"
    if review.records_read:
        _err(f"applied {review.reviewed} {labels} from {name}")
    else:
        _err(f"no review entries in {name}: the file's own labels")
    if review.orphans:
        _err(f"{len(review.orphans)} journal entries name runs no longer in the file")
    if review.stale:
        _err(
            f"{len(review.stale)} journal entries left out: their runs changed in the file since "
            "(--apply-stale includes them)"
        )
    if review.stale_applied:
        _err(f"{review.stale_applied} journal entries applied although their runs changed since")
    if review.conflicts:
        _err(f"{len(review.conflicts)} runs in conflict (reviewers disagree): the file's label is in force")
    return review


def run_stats(args: argparse.Namespace) -> int:
    from .core.analysis.agreement import format_agreement, review_agreement
    from .core.analysis.spotcheck import format_spot_checks, spot_check_reports
    from .core.analysis.stats import format_table, review_stats
    from .core.review.journal import JournalError
    from .core.review.tags import TagsError

    try:
        tags = load_tag_set(args)
    except TagsError as exc:
        _err(str(exc))
        return EXIT_UNREADABLE
    try:
        review = _reviewed(args)
    except JournalError as exc:  # counting without the labels would silently misreport
        _err(str(exc))
        return EXIT_UNREADABLE
    stats = review_stats(review)
    reports = spot_check_reports(review, tags)
    agreement = review_agreement(review)
    if args.json:
        spot_checks = [report.to_json() for report in reports]
        print(_dumps({**stats.to_json(), "spot_checks": spot_checks, "agreement": agreement.to_json()}))
    else:
        print(format_table(stats, args.file))
        if reports:
            print("\n" + format_spot_checks(reports, tags))
        print("\n  agreement between reviewers\n" + "\n".join(format_agreement(agreement)))
    return EXIT_INVALID if stats.invalid else EXIT_OK


def run_export(args: argparse.Namespace) -> int:
    from .core.output.export import ExportError, export_runs, format_for_path
    from .core.review.journal import JournalError

    try:
        review = _reviewed(args)
    except JournalError as exc:  # exporting without the labels would silently lose them
        _err(str(exc))
        return EXIT_UNREADABLE
    store = review.store
    fmt = args.format or format_for_path(args.output)
    rows = review.reviewed_rows() if args.reviewed_only else None
    try:
        count = export_runs(store, review, args.output, fmt, rows)
    except ExportError as exc:
        _err(str(exc))
        return EXIT_UNREADABLE
    where = "standard output" if args.output == "-" else args.output
    _err(f"exported {count} run{'' if count == 1 else 's'} to {where} ({fmt})")
    return EXIT_INVALID if store.errors else EXIT_OK


def run_compare(args: argparse.Namespace) -> int:
    from .core.analysis.compare import compare_files, format_comparison
    from .core.review.journal import JournalError

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
        _err(str(exc))
        return EXIT_UNREADABLE
    for warning in warnings:
        _err(warning)
    if args.json:
        print(_dumps(result.to_json()))
    else:
        print(format_comparison(result, args.old, args.new))
    return EXIT_OK


def run_sample(args: argparse.Namespace) -> int:
    from .core.analysis.sampling import default_name, draw_sample
    from .core.common.text import visible
    from .core.review.journal import JournalError, SpotCheck, utc_now
    from .core.review.state import open_review

    if args.margin is not None and args.n != "auto":
        _err("--margin goes with -n auto")
        return EXIT_UNREADABLE
    review = open_review(args.file, args.field_map, args.journal, args.reviewer)
    store = review.store
    sample = draw_sample(store, review, args.view, args.n, args.seed, args.filter, args.margin or 0.05)
    drawn = sample.ids
    where = f"the {args.view} view" + (f" matching '{args.filter}'" if args.filter else "")
    if not drawn:
        _err(f"{args.file}: no runs in {where}: nothing to sample")
        return EXIT_UNREADABLE
    name = args.name or default_name(args.view, len(drawn))
    earlier = review.spot_checks.get(name)
    same = earlier is not None and sample.recorded_as(earlier)
    if earlier is not None and not same and not args.replace:
        _err(
            f"a spot-check named '{name}' already exists ({earlier.view}, seed {earlier.seed}, "
            f"{len(earlier.ids)} runs, drawn by {earlier.reviewer}); choose another --name, or --replace"
        )
        return EXIT_UNREADABLE
    if not same:  # drawing the same sample again records nothing new
        record = SpotCheck(
            name,
            args.view,
            args.filter,
            args.seed,
            sample.population,
            len(drawn),
            drawn,
            review.reviewer,
            utc_now(),
        )
        try:
            review.add_spot_check(record)
        except JournalError as exc:
            _err(f"{exc}; the spot-check was not recorded")
            return EXIT_UNREADABLE
    if args.json:
        print(_dumps({"name": name, "view": args.view, "seed": args.seed, "population": sample.population,
                      "ids": list(drawn)}))  # fmt: skip
    else:
        for run_id in drawn:
            print(visible(run_id) if sys.stdout.isatty() else run_id)
    journal = review.journal.name if review.journal is not None else "no journal"
    done = "already recorded" if same else f"recorded in {journal}"
    _err(f"{name}: {len(drawn)} of {sample.population} runs in {where}, seed {args.seed}; {done}")
    return EXIT_INVALID if store.errors else EXIT_OK


def run_review(args: argparse.Namespace) -> int:
    from .core.review.tags import TagsError
    from .core.runs.corpus import DocsError
    from .core.runs.loading import check_readable
    from .ui.app import create_app

    # Refuse an unreadable file before the screen switches to the app.
    check_readable(args.file)
    try:
        tags = load_tag_set(args)
        docs = docs_source(args)
    except (TagsError, DocsError) as exc:
        _err(str(exc))
        return EXIT_UNREADABLE
    if _journal_refused(args):
        return EXIT_UNREADABLE
    if args.baseline is not None:
        check_readable(args.baseline)
    app = create_app(
        args.file,
        reviewer=args.reviewer,
        field_map=args.field_map,
        journal=args.journal,
        blind=args.blind,
        adjudicate=args.adjudicate,
        export_dir=args.export_dir,
        tags=tags,
        docs=docs,
        spot_check=getattr(args, "spot_check", None),
        baseline=args.baseline,
    )
    app.run()
    return app.return_code or EXIT_OK


def run_serve(args: argparse.Namespace) -> int:
    from .core.review.tags import TagsError
    from .core.runs.corpus import DocsError
    from .serve import serve

    try:  # refused here, not in every browser page later
        load_tag_set(args)
        docs = docs_source(args)
    except (TagsError, DocsError) as exc:
        _err(str(exc))
        return EXIT_UNREADABLE
    if _journal_refused(args):
        return EXIT_UNREADABLE
    options = ["--tags", os.path.abspath(args.tags)] if args.tags else []
    if docs is not None:
        options += ["--docs", os.path.abspath(docs.path)]
        options += [f"--docs-map={field}={source}" for field, source in docs.docs_map]
    return serve(
        args.file,
        host=args.host,
        port=args.port,
        reviewer=args.reviewer,
        field_map=args.field_map,
        token=None if args.no_token else "",
        export_dir=args.export_dir,
        options=[
            *options,
            *(["--blind"] if args.blind else []),
            *(["--adjudicate"] if args.adjudicate else []),
        ],
    )


def run_merge(args: argparse.Namespace) -> int:
    from .core.review.journal import JournalError
    from .core.review.merge import merge_journals
    from .core.review.state import open_review

    review = open_review(args.file, args.field_map, args.journal, writable=True)
    for message in (*review.problems, *review.warnings):
        _err(message)
    if review.problems or review.journal is None:
        return EXIT_UNREADABLE
    try:
        result = merge_journals(review, args.journals)
    except JournalError as exc:
        _err(f"{exc}; merging again completes it without duplicates")
        return EXIT_UNREADABLE
    finally:
        review.journal.close()
    for message in result.unreadable:
        _err(message)
    _err(result.summary(review.journal.name))
    return EXIT_OK if result.clean else EXIT_INVALID


def _journal_refused(args: argparse.Namespace) -> bool:
    """Whether the shared store refuses us (a malformed URL, a wrong password), said before the app starts.

    A server that cannot be reached is no reason to stop: the app works on, spooling.
    """
    from .core.review.journal import JournalError, open_log

    log = open_log(args.file, args.journal, offline_ok=True)
    check = getattr(log, "check", None)  # only a database has a login to try
    if check is None:
        return False
    try:
        away = check()
    except JournalError as exc:
        _err(str(exc))
        return True
    if away:
        _err(f"{log.name}: the server cannot be reached ({away}); working offline, spooling labels")
    return False


HANDLERS: dict[str, Callable[[argparse.Namespace], int]] = {
    "review": run_review,
    "diagnose": run_diagnose,
    "check": run_check,
    "stats": run_stats,
    "export": run_export,
    "serve": run_serve,
    "compare": run_compare,
    "sample": run_sample,
    "merge": run_merge,
}


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    from .core.runs.loading import FileError

    try:
        return HANDLERS[args.command](args)
    except FileError as exc:
        _err(str(exc))
        return EXIT_UNREADABLE
    except BrokenPipeError:  # `ragdiag-tui diagnose big.jsonl | head`
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_OK
    except OSError as exc:  # -o into a missing folder, onto the run file, a full disk
        _err(f"{exc.filename}: {exc.strerror}" if exc.strerror else str(exc))
        return EXIT_UNREADABLE
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
