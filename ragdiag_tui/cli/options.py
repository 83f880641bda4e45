"""The option groups several commands share, each defined once: the run file with its
field mapping (--map, --preset), the review journal, the reason tags, the documents' text."""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence

from ..core.runs.mapping import MAPPABLE, PRESETS, MapSpecError, parse_spec

AddCommand = Callable[[str, str, str], argparse.ArgumentParser]
"""Adds a subcommand given its name, one-line help (also its description) and epilog."""


def _map_spec(spec: str) -> str:
    try:
        parse_spec(spec)
    except MapSpecError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return spec


def _match_spec(spec: str) -> str:
    from ..core.runs.texts import MatchSpecError, TextMatch

    try:
        TextMatch.parse(spec)
    except MatchSpecError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return spec


def _threshold(value: str) -> float:
    try:
        number = float(value)
    except ValueError:
        number = float("nan")
    if number != number or number in (float("inf"), float("-inf")):
        raise argparse.ArgumentTypeError(f"'{value}' is not a number, as 0.7")
    return number


def add_file(
    parser: argparse.ArgumentParser, names: Sequence[str] = ("file",), *, dataset: bool = False
) -> None:
    """The run file argument(s) and the field mapping options (--map, --preset) that read them.
    `dataset`: the command also takes a dataset (one or more inputs) and an --engine."""
    for name in names:
        if dataset:
            parser.add_argument(
                name,
                metavar=name.upper(),
                nargs="+",
                help="a run file (JSON Lines, JSON, CSV, Parquet, or a case file), or a dataset: "
                "a directory, a glob or several files of Parquet or JSON Lines runs",
            )
            continue
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
        help=f"the field names of a known tool, before any --map ({presets}). Under every preset, "
        "a CSV's ID lists may also be Python list literals (['a', 'b'], as pandas' to_csv writes "
        "them); under ragas, in JSON too, and integer IDs are read as their decimal strings. "
        "ragas reads its ID columns when a run has them, else its text columns (reference_contexts, "
        "retrieved_contexts); deepeval reads context and retrieval_context, as texts",
    )
    add_matching(fields)


def add_matching(fields: argparse._ArgumentGroup) -> None:
    """--match (documents given as IDs or texts) and --label-threshold (a score as the label)."""
    fields.add_argument(
        "--match",
        type=_match_spec,
        metavar="HOW",
        help="how required documents meet supplied ones: ids (exactly, the default); text (the "
        "lists hold texts, each a document with a content ID, t: and 16 hex digits of the SHA-256 "
        "of its NFC text; matched exactly after NFC); similarity[:T] (texts, a required one "
        "supplied when its best similarity, RAGAS's NonLLMContextRecall comparison, is > T; "
        "default 0.5)",
    )
    fields.add_argument(
        "--label-threshold",
        type=_threshold,
        metavar="T",
        help="the label field holds a score: correct when the score is >= T, incorrect below; "
        "a missing or non-numeric score stays the answer-label error",
    )


def add_journal(parser: argparse.ArgumentParser, reading: bool, app: bool = False) -> None:
    """The review journal's options: `reading` for the commands that only read it; `app`
    for the review app's (review, serve), which adds how this reviewer labels."""
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
    if app:
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


def add_tags(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--tags",
        metavar="FILE",
        help="the reason tags in force: a TOML file of [[tag]] entries (key, name, description); "
        "default: the lucky-answer set",
    )


def _docs_map_spec(spec: str) -> str:
    from ..core.runs.corpus import parse_docs_map

    try:
        parse_docs_map([spec])
    except MapSpecError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return spec


def add_docs(parser: argparse.ArgumentParser) -> None:
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


def add_engine(parser: argparse.ArgumentParser, group_by: bool = False) -> None:
    """--engine and --master (and, for stats, --group-by): the command over a dataset."""
    group = parser.add_argument_group(
        "datasets and engines",
        "A dataset (a directory, a glob or several files) is read in place by an engine;\n"
        "DuckDB unless --engine says otherwise. A single run file is read as always,\n"
        "unless an engine is named. See the user guide's Datasets page.",
    )
    group.add_argument(
        "--engine",
        choices=("duckdb", "spark"),
        help="read the input as a dataset with this engine (default for a dataset: duckdb); "
        "each needs its extra: pip install 'ragdiag-tui[duckdb]' or 'ragdiag-tui[spark]'",
    )
    group.add_argument(
        "--master",
        metavar="URL",
        help="with --engine spark: the Spark master (default local[*]; spark://HOST:PORT for a cluster)",
    )
    if group_by:
        group.add_argument(
            "--group-by",
            metavar="FIELD",
            help="the stats of each value of a top-level field (model, day), after those of all "
            "runs; runs without it last (implies an engine: duckdb unless --engine says otherwise)",
        )
