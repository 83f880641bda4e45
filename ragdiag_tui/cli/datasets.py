"""`diagnose`, `stats` and `sample` over a dataset, by an engine (ragdiag_tui.engines).

A dataset is a directory, a glob or several files; a single run file is read by the
local path unless --engine names an engine. The engine is imported only when used,
and a missing extra is one line naming it (exit 2).
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from ..core.common.text import plural
from .common import (
    EXIT_INVALID,
    EXIT_OK,
    EXIT_UNREADABLE,
    dumps,
    err,
    name_taken,
    record_spot_check,
    warn_unmapped,
)
from .dataset_review import dataset_review

DATASET_COMMANDS = ("diagnose", "stats", "sample")


def resolve_inputs(args: argparse.Namespace, parser: argparse.ArgumentParser) -> None:
    """Decide between the local path (`args.file`, one run file) and an engine over a
    dataset (`args.engine`, `args.inputs`); refuse options that do not go together."""
    from ..engines.dataset import is_dataset_input

    inputs = list(args.file)
    engine = args.engine
    if engine is None and (is_dataset_input(inputs) or getattr(args, "group_by", None)):
        engine = "duckdb"
    if args.master is not None and engine != "spark":
        parser.error("--master goes with --engine spark")
    args.engine, args.inputs = engine, inputs
    if engine is None:
        args.file = inputs[0]
        if getattr(args, "output", None) is not None and args.command == "sample":
            parser.error("-o goes with a dataset (a directory, a glob, several files) or --engine")
        return
    args.file = None


def _refused(args: argparse.Namespace) -> str | None:
    """Why the options cannot run on an engine, if they cannot."""
    if args.command == "diagnose":
        if not args.output or args.output == "-":
            return "diagnose with an engine writes a file: give -o OUT (.parquet, else JSON Lines)"
        if args.metrics:
            return "--metrics is not available with an engine (stats gives the means)"
    if args.command == "stats" and args.journal and args.engine != "duckdb":
        return "a dataset's review journal is applied with --engine duckdb"
    if args.command == "sample" and not args.output:
        return "sample with an engine writes the sampled runs to a run file: give -o SAMPLE.jsonl"
    return None


Call = Callable[[Any, Any, dict[str, Any], Path | None], int]
"""A command's work given (engine module, dataset, engine options, output file or None)."""


def _say_where_texts_match(args: argparse.Namespace) -> None:
    """RAGAS's similarity is not SQL: say that the engine leaves it to the local loader."""
    match = args.field_map.text_match if args.field_map is not None else None
    if match is not None and match.mode == "similarity":
        where = (
            "row by row in this process, not in SQL" if args.engine == "duckdb" else "in the Python workers"
        )
        err(f"--match {match.spec()}: RAGAS's similarity is computed by the local loader, {where}")


def _with_engine(args: argparse.Namespace, call: Call, writes: bool = True) -> int:
    """Open the dataset and the engine, check the output file (when the command `writes`
    one), run `call`; whatever stops on the way is one line on stderr and exit 2."""
    from ..core.analysis.sampling import SampleError
    from ..engines import EngineUnavailable, load_engine
    from ..engines.dataset import DatasetError, open_dataset
    from ..engines.results import EngineError

    try:
        dataset = open_dataset(args.inputs)
        if dataset.left_out:
            _say_left_out(dataset.left_out)
        # As for a run file: said at once when the first file's runs hold none of the rule's fields.
        warn_unmapped(str(dataset.files[0]), args.field_map, args.command, list(args.inputs))
        _say_where_texts_match(args)
        problem = _refused(args)
        if problem:
            raise DatasetError(problem)
        engine = load_engine(args.engine)
        out = Path(args.output) if writes else None
        if out is not None and out.resolve() in {path.resolve() for path in dataset.files}:
            raise DatasetError(f"{args.output}: is a file of the dataset; write elsewhere")
        if out is not None and out.exists() and not out.is_file():  # opening a FIFO would block
            raise DatasetError(
                f"{args.output}: not a regular file (a folder, a FIFO, a device); write to a file"
            )
        options = {"master": args.master or "local[*]"} if args.engine == "spark" else {}
        return call(engine, dataset, options, out)
    except (DatasetError, EngineUnavailable, EngineError, SampleError) as exc:
        err(str(exc))
        return EXIT_UNREADABLE


def _say_left_out(journals: Sequence[Path], shown: int = 3) -> None:
    """Which review journals a glob matched and the dataset left out (the first few by name)."""
    count = len(journals)
    names = ", ".join(map(str, journals[:shown])) + (f" and {count - shown} more" if count > shown else "")
    err(f"{count} review {plural(count, 'journal', 'journals')} left out of the dataset (side files, not "
        f"run files): {names}")  # fmt: skip


def run_dataset_diagnose(args: argparse.Namespace) -> int:
    def diagnose(engine: Any, dataset: Any, options: dict[str, Any], out: Path | None) -> int:
        summary = engine.diagnose(dataset, args.field_map, out, **options)
        err(f"{dataset.root} ({_files(dataset)}): {summary.summary()}; written to {out}")
        return EXIT_INVALID if summary.invalid else EXIT_OK

    return _with_engine(args, diagnose)


def run_dataset_stats(args: argparse.Namespace) -> int:
    def stats(engine: Any, dataset: Any, options: dict[str, Any], out: Path | None) -> int:
        review = dataset_review(args, dataset) if args.engine == "duckdb" else None
        if review is not None:  # labels set reviewing the dataset in place (dataset_review.py)
            result = engine.reviewed_stats(dataset, args.field_map, review, group_by=args.group_by)
        else:
            result = engine.stats(dataset, args.field_map, group_by=args.group_by, **options)
        if args.json:
            print(dumps(result))
        else:
            print(_stats_tables(result, f"{dataset.root} ({_files(dataset, dataset.format)})"))
        overall = result["all"] if "group_by" in result else result
        return EXIT_INVALID if overall["invalid_lines"] else EXIT_OK

    return _with_engine(args, stats, writes=False)


def _stats_tables(result: dict[str, Any], name: str) -> str:
    from ..core.analysis.group_table import format_group_table
    from ..core.analysis.stats import format_table

    if "group_by" not in result:
        return format_table(_as_stats(result), name)
    groups = [(group["value"], _as_stats(group["stats"])) for group in result["groups"]]
    field = result["group_by"]
    return format_group_table(f"{name}, grouped by {field}", field, groups, _as_stats(result["all"]))


def _as_stats(figures: dict[str, Any]) -> Any:
    """A stats dict (as `stats --json` prints it) back as core.analysis.stats.Stats, to print."""
    from collections import Counter

    from ..core.analysis.stats import Stats
    from ..core.runs.metrics import MetricMeans

    stats = Stats(runs=figures["runs"], lucky=figures["still_lucky"], invalid=figures["invalid_lines"])
    stats.lucky_in_file = figures["lucky_in_file"]
    stats.stages.update({stage: n for stage, n in figures["stages"].items() if n})
    stats.missed = Counter({item["id"]: item["runs"] for item in figures["most_missed"]})
    if "metrics" in figures:
        stats.metrics = MetricMeans(**figures["metrics"])
    return stats


ONE_FILE_NOTE = (
    "{file} sampled by the engine as a dataset of one file: a run without an id is named "
    "{file}:LINE (not by its position) and invalid lines are never drawn (--view all draws them "
    "without --engine), so where the file has either, this sample may differ from `sample` without "
    "--engine"
)


def run_dataset_sample(args: argparse.Namespace) -> int:
    from dataclasses import replace

    from ..core.analysis.sample_files import SampleFileError
    from ..core.analysis.stratify import StrataPlan
    from ..core.common.atomic import WriteRefused
    from ..core.review.records import JournalError
    from ..core.runs.loading import FileError
    from ..engines.dataset import is_dataset_input
    from ..engines.results import DATASET_VIEWS, parse_filters

    problem = _options_problem(args)
    if problem is not None:
        err(problem)
        return EXIT_UNREADABLE
    strata = StrataPlan(args.strata, args.allocation, args.prior, args.margin) if args.strata else None
    if args.view not in DATASET_VIEWS:
        err(f"a dataset's sample is drawn from one of {', '.join(DATASET_VIEWS)}, not {args.view}")
        return EXIT_UNREADABLE
    try:
        filters = parse_filters(args.filter)
    except ValueError as exc:
        err(str(exc))
        return EXIT_UNREADABLE

    def sample(engine: Any, dataset: Any, options: dict[str, Any], out: Path | None) -> int:
        from ..core.common.publish import Publication

        if strata is not None:
            options["strata"] = strata
        where = f"the {args.view} view" + (f" matching '{_typed(args.filter)}'" if filters else "")
        with Publication() as publication:  # the sample file is renamed into place once all is checked
            target = publication.add(str(out))
            earlier = _earlier_spot_checks(args, target)
            temp = publication.temp_for(target)
            summary = engine.sample(dataset, args.field_map, view=args.view, filters=filters, n=args.n,
                                    margin=args.margin or 0.05, seed=args.seed, out=Path(temp),
                                    **options)  # fmt: skip
            if not summary.ids:
                err(f"{dataset.root}: no runs in {where}: nothing to sample")
                return EXIT_UNREADABLE
            names = earlier
            if not os.path.lexists(target) and args.journal is not None:  # a journal already there
                names = _journal_spot_checks(args, temp)
            refusal = _redraw_refusal(args, earlier, names, summary, target)
            if refusal is not None:
                err(refusal)
                return EXIT_UNREADABLE
            publication.publish()
        if len(dataset.files) == 1 and not is_dataset_input(args.inputs):
            err(ONE_FILE_NOTE.format(file=dataset.names[0]))
        _warn_repeated(summary.ids, target)
        return _record_sample(args, replace(summary, out=target), where)

    try:
        return _with_engine(args, sample)
    except (SampleFileError, WriteRefused, JournalError, FileError) as exc:
        err(str(exc))
        return EXIT_UNREADABLE


def _options_problem(args: argparse.Namespace) -> str | None:
    """Why the sample's options do not go together; None when they do."""
    if args.margin is not None and args.n != "auto" and not args.strata:
        return "--margin goes with -n auto"
    if (args.prior is not None or args.allocation != "proportional") and not args.strata:
        return "--allocation and --prior go with --strata"
    return None


def _earlier_spot_checks(args: argparse.Namespace, target: str) -> dict[str, Any]:
    """The spot-checks beside an existing sample file at `target` (core.analysis.sample_files)."""
    from ..core.analysis.sample_files import earlier_spot_checks

    return earlier_spot_checks(target, args.field_map, args.journal)


def _journal_spot_checks(args: argparse.Namespace, drawn: str) -> dict[str, Any]:
    """The spot-checks `--journal` holds, read beside the file of the runs just drawn."""
    from ..core.analysis.sample_files import recorded_spot_checks

    return recorded_spot_checks(drawn, args.field_map, args.journal)


def _redraw_refusal(
    args: argparse.Namespace, earlier: dict[str, Any], names: dict[str, Any], summary: Any, target: str
) -> str | None:
    """Why the draw may not be written to `target`: its name is taken among the spot-checks
    `names` (those of its journal), or it would orphan the runs of the `earlier` spot-checks
    recorded beside the sample file there. Asked before anything is written."""
    from ..core.analysis.sample_files import orphaned
    from ..core.analysis.sampling import Sample

    sample = Sample(args.view, _typed(args.filter), args.seed, summary.population, summary.ids,
                    summary.strata, args.margin)  # fmt: skip
    taken = name_taken(args, names, sample, target)
    if taken is not None:
        return taken
    lost = orphaned(earlier, summary.ids)
    if not lost:
        return None
    return (
        f"cannot write {target}: this draw leaves out runs of the spot-checks {', '.join(lost)} recorded "
        "beside it, whose labels would name runs no longer in the file; choose another -o"
    )


def _warn_repeated(ids: Sequence[str], out: str) -> None:
    """Say at once when the dataset gave the sample's runs repeated ids (the sample file then
    holds runs that `stats` and the app, which name a run by its id, take for one)."""
    from collections import Counter

    from ..core.common.text import visible

    repeated = [run_id for run_id, count in Counter(ids).items() if count > 1]
    if not repeated:
        return
    shown = ", ".join(visible(run_id) for run_id in repeated[:5]) + (", ..." if len(repeated) > 5 else "")
    err(
        f"warning: {len(repeated)} {plural(len(repeated), 'id is', 'ids are')} repeated in the sample "
        f"({shown}): the dataset gives different runs the same id, and {out} holds each copy, which "
        "stats and the app read as one run and an invalid line; give every run its own id "
        "(scripts/make_lake.py makes a dataset whose ids are distinct)"
    )


def _files(dataset: Any, kind: str = "") -> str:
    """`4 parquet files`, `1 file`."""
    count = len(dataset.files)
    return " ".join(filter(None, (str(count), kind, plural(count, "file", "files"))))


def _typed(filter_text: str | None) -> str:
    return " ".join((filter_text or "").split())


def _record_sample(args: argparse.Namespace, summary: Any, where: str) -> int:
    """Journal the spot-check beside the sample file, with the dataset's population N."""
    from ..core.analysis.sampling import Sample
    from ..core.review.state import open_review

    review = open_review(str(summary.out), args.field_map, args.journal, args.reviewer)
    # The filter as typed, as the local `sample` records it (the engines read it case-folded).
    sample = Sample(args.view, _typed(args.filter), args.seed, summary.population, summary.ids,
                    summary.strata, args.margin)  # fmt: skip
    failed = record_spot_check(args, review, sample, where, out=str(summary.out), list_ids=False)
    if failed is not None:
        return failed
    return EXIT_INVALID if summary.invalid else EXIT_OK
