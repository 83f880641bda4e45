"""`review` and `serve`: the review app, in this terminal or in a web browser.

Nothing from Textual is imported until a handler runs: the app is built by
ui.app.create_app, the one factory the tests call too."""

from __future__ import annotations

import argparse
import os
from typing import Any

from .common import EXIT_OK, EXIT_UNREADABLE, docs_source, err, journal_refused, load_tag_set, say_spooled
from .options import AddCommand, add_docs, add_file, add_journal, add_tags


def add_review(command: AddCommand) -> None:
    review = command(
        "review",
        "Open the review app on a run file.",
        "example:\n  ragdiag-tui review sample_runs/demo.jsonl --reviewer alice\n\n"
        "Labels and notes are journaled to FILE.review.jsonl as you go; the run file\n"
        "itself is never written. Reopening the file restores the review. A dataset (a\n"
        "folder, a glob or several Parquet or JSON Lines files) is reviewed in place,\n"
        "through DuckDB; its journal is DIR.review.jsonl beside its folder (see the\n"
        "user guide's Datasets page for what the app does not do over a dataset).",
    )
    add_file(review, dataset=True)
    review.add_argument(
        "--engine",
        choices=("duckdb",),
        help="review the input as a dataset read in place by this engine (the default for a "
        "folder, a glob or several files)",
    )
    review.add_argument("--reviewer", metavar="NAME", help="your name in the journal (default: login name)")
    review.add_argument(
        "--export-dir", metavar="DIR", help="allow exports only into this folder (serve sets it)"
    )
    add_journal(review, reading=False, app=True)
    add_tags(review)
    add_docs(review)
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


def add_serve(command: AddCommand) -> None:
    serve = command(
        "serve",
        "Serve the review app to a web browser (needs the `serve` extra).",
        "example:\n  ragdiag-tui serve sample_runs/demo.jsonl --port 8000\n\n"
        "Binds to 127.0.0.1 unless --host says otherwise. Every request needs the random\n"
        "token printed in the URL at start (as Jupyter does); exports go only under the\n"
        "run file's folder unless --export-dir names another.",
    )
    add_file(serve)
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--reviewer", metavar="NAME")
    serve.add_argument(
        "--no-token", action="store_true", help="serve without a token: any local program can label runs"
    )
    serve.add_argument(
        "--export-dir", metavar="DIR", help="where served apps may export (default: FILE's folder)"
    )
    add_journal(serve, reading=False, app=True)
    add_tags(serve)
    add_docs(serve)


def _app_options(args: argparse.Namespace) -> tuple[Any, Any] | None:
    """The app's reason tags and documents' text, once the journal's store has let us in;
    None, said on stderr, when any of them is refused."""
    from ..core.review.tags import TagsError

    try:
        tags = load_tag_set(args)
    except TagsError as exc:
        err(str(exc))
        return None
    docs = None
    if args.docs is not None or args.docs_map:  # the documents' module is loaded only for them
        from ..core.runs.corpus import DocsError

        try:
            docs = docs_source(args)
        except DocsError as exc:
            err(str(exc))
            return None
    if journal_refused(args):
        return None
    return tags, docs


def run_review(args: argparse.Namespace) -> int:
    from ..core.common.collector import hold, release

    # The app's start makes objects that live as long as it does: the collector's passes over
    # them would only delay the first screenful (the screen releases it just before drawing it).
    hold()
    try:
        return _review(args)
    finally:
        release()


def _review(args: argparse.Namespace) -> int:
    from ..core.runs.loading import check_readable

    source = _dataset_rows(args)
    if source is False:
        return EXIT_UNREADABLE
    if source is None:
        # Refuse an unreadable file before the screen switches to the app.
        check_readable(args.file)
    read = _app_options(args)
    if read is None:
        return EXIT_UNREADABLE
    tags, docs = read
    if args.baseline is not None:
        check_readable(args.baseline)
    if source is not None:  # a dataset: its counts' scan starts now, while the app starts
        source.count_ahead()
    from ..ui.app import create_app

    app = create_app(
        args.file,
        source=source,
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
    if source is not None:  # a scan of the dataset under way would hold the exit until it ends
        source.close()
    say_spooled(args.file)  # on quitting: labels only in the offline spool are not the team's yet
    return app.return_code or EXIT_OK


def _dataset_rows(args: argparse.Namespace) -> Any:
    """The dataset's rows by position (DuckDB) when the inputs are a dataset, None for one run
    file (then `args.file` is it), False when refused (said on stderr). For a dataset,
    `args.file` becomes its folder: its journal is FOLDER.review.jsonl."""
    from ..engines import EngineUnavailable, load_engine
    from ..engines.dataset import DatasetError, is_dataset_input, open_dataset

    inputs = args.inputs
    if args.engine is None and not is_dataset_input(inputs):
        return None
    try:
        if args.baseline is not None:
            raise DatasetError("--baseline goes with a single run file, not a dataset")
        dataset = open_dataset(inputs)
        load_engine(args.engine or "duckdb")
    except (DatasetError, EngineUnavailable) as exc:
        err(str(exc))
        return False
    from ..engines.duckdb.review_rows import DatasetRows

    rows = DatasetRows(dataset, args.field_map)
    args.file = rows.path
    return rows


def run_serve(args: argparse.Namespace) -> int:
    from ..serve import serve

    read = _app_options(args)  # refused here, not in every browser page later
    if read is None:
        return EXIT_UNREADABLE
    _, docs = read
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
