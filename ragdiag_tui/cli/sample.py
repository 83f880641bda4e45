"""`sample`: draw a spot-check, a seeded sample of a view, recorded in the review journal."""

from __future__ import annotations

import argparse
import math
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from .common import EXIT_INVALID, EXIT_OK, EXIT_UNREADABLE, err, record_spot_check
from .datasets import run_dataset_sample
from .options import AddCommand, add_engine, add_file, add_journal

if TYPE_CHECKING:
    from ..core.analysis.sampling import Sample
    from ..core.review.records import SpotCheck

_EPILOG = (
    "The population is the view's runs (narrowed by --filter); the stage views and\n"
    'lucky count by the FILE\'s labels ("lucky answers in the file"), so a population\n'
    "does not shrink as reviewers overturn labels. Each run's key is\n"
    '    sha256(UTF-8 of str(SEED) + "\\x1f" + run id), as lowercase hex\n'
    "(an invalid line is keyed by its name, 'line N'), and the sample is the N runs with\n"
    "the smallest keys, in key order (N capped at the population): the same runs, view,\n"
    "filter, N and seed give the same ids on any machine and in any file order, and the\n"
    "first K of a sample of N are the sample of K. The spot-check (name, view, filter,\n"
    "seed, population, ids, who, when) is journaled and keeps its ids: a spot-check\n"
    "recorded earlier is never drawn again. The ids are printed one per line.\n\n"
    "-n auto chooses the size that bounds a proportion's 95% interval to +-MARGIN in\n"
    "the worst case: n0 = 1.96^2 * 0.25 / MARGIN^2, n = ceil(n0 / (1 + (n0 - 1) / N)).\n\n"
    "--strata FIELD draws each stratum apart by the same keys (n_h runs of smallest key),\n"
    "sized by --allocation (at least 2 a stratum), the ids served interleaved; with -n auto\n"
    "the size is planned for the combined interval (sum W_h p_h, stratified variance with\n"
    "FPC). A spot-check drawn with --margin says when its anytime-valid interval (a\n"
    "confidence sequence, valid however often one looks) is within +-MARGIN: may_stop.\n\n"
    "exit status: 0 drawn, 1 drawn but some lines of FILE are invalid, 2 nothing drawn\n"
    "(unreadable file or journal, empty population, a name already used).\n\n"
    "examples:\n  ragdiag-tui sample sample_runs/demo.jsonl --view lucky -n 5 --seed 20261130\n"
    "  ragdiag-tui sample sample_runs/demo.jsonl --view all -n auto --margin 0.1 --seed 7 --json\n"
    "  ragdiag-tui review sample_runs/demo.jsonl --spot-check lucky-5"
)


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
    from ..core.analysis.estimate import margin_problem

    try:
        margin = float(text)
    except ValueError:
        margin = math.nan
    problem = margin_problem(margin)
    if problem:
        raise argparse.ArgumentTypeError(f"'{text}': {problem}")
    return margin


def add_sample(command: AddCommand) -> None:
    from ..core.analysis.views import SAMPLE_VIEWS  # names only: the parser does not load the sampling

    sample = command(
        "sample",
        "Draw a spot-check: a seeded random sample of the runs of a view, recorded in the review journal.",
        _EPILOG,
    )
    add_file(sample, dataset=True)
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
        "FIELD:VALUE (the field contains VALUE, any case: model:gpt-4o), FIELD:=VALUE (the whole "
        "value), FIELD: (the run has the field) and is:VIEW terms as in the app; on a dataset, "
        "FIELD terms only, meaning the same",
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
        help="with -n auto: the interval's half-width to plan for, above 0 and at most 0.5 "
        "(default 0.05); one too small to compute draws every run",
    )
    sample.add_argument("--seed", required=True, type=int, metavar="S", help="the random seed (an integer)")
    _add_strata_options(sample)
    _add_record_options(sample)
    add_journal(sample, reading=False)
    add_engine(sample)
    sample.add_argument(
        "-o",
        "--output",
        metavar="SAMPLE",
        help="with a dataset: the JSON Lines run file the sampled runs are written to (every field "
        "kept), its journal beside it recording the spot-check with the dataset's population; a file "
        "already there is replaced only if it is a sample file and this draw keeps every run its "
        "spot-checks name",
    )


def _priors(text: str) -> dict[str, float]:
    from ..core.analysis.strata import AllocationError, parse_priors

    try:
        return parse_priors(text)
    except AllocationError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _add_strata_options(sample: argparse.ArgumentParser) -> None:
    """A stratified draw: the field, the allocation and the priors."""
    sample.add_argument(
        "--strata",
        metavar="FIELD",
        help="draw from each stratum of FIELD apart: a run field (a dotted path as --map reads it, "
        "as meta.source), stage (the file's stage) or tag:KEY (tagged KEY or not; a run file only); "
        "each stratum by the same hash definition, the ids served interleaved",
    )
    sample.add_argument(
        "--allocation",
        choices=("proportional", "neyman"),
        default="proportional",
        help="with --strata: sizes proportional to the strata, or Neyman (to N_h * sqrt(P(1-P)) from "
        "--prior, else from an earlier spot-check of the same view and field (a run file only), else "
        "0.5); at least 2 "
        "runs per stratum (default proportional)",
    )
    sample.add_argument(
        "--prior",
        type=_priors,
        metavar="A=0.1,B=0.4",
        help="with --strata: each stratum's expected overturned rate, for Neyman allocation and -n auto",
    )


def _add_record_options(sample: argparse.ArgumentParser) -> None:
    """How the drawn spot-check is named, recorded and printed."""
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


def _kept(earlier: SpotCheck, sample: Sample) -> str:
    """Why a spot-check drawn with the very same settings holds other runs: it keeps them."""
    settings = (earlier.view, earlier.filter, earlier.seed, earlier.population, earlier.size)
    if settings != (sample.view, sample.filter, sample.seed, sample.population, len(sample.ids)):
        return ""
    if _strata_by(earlier.strata) != _strata_by(sample.strata):
        return f", stratified by {_strata_by(earlier.strata) or 'nothing'}"
    return (
        " with the same view, filter, seed and size but other runs than this draw gives (drawn by an "
        "earlier version, or from another file); it keeps its runs"
    )


def _strata_by(strata: Any) -> str:
    """The field a spot-check is stratified by, "" for none."""
    return "" if strata is None else strata.by


def run_sample(args: argparse.Namespace) -> int:
    from ..core.analysis.sampling import draw_sample
    from ..core.review.state import open_review

    if args.engine:
        return run_dataset_sample(args)
    if args.margin is not None and args.n != "auto" and not args.strata:
        err("--margin goes with -n auto")
        return EXIT_UNREADABLE
    if (args.prior is not None or args.allocation != "proportional") and not args.strata:
        err("--allocation and --prior go with --strata")
        return EXIT_UNREADABLE
    review = open_review(args.file, args.field_map, args.journal, args.reviewer)
    store = review.store
    if args.strata:
        sample = _draw_stratified(args, review)
        if sample is None:
            return EXIT_UNREADABLE
    else:
        sample = draw_sample(store, review, args.view, args.n, args.seed, args.filter, args.margin or 0.05)
        sample = replace(sample, margin=args.margin)  # given: sequential mode may stop there
    drawn = sample.ids
    where = f"the {args.view} view" + (f" matching '{args.filter}'" if args.filter else "")
    if not drawn:
        err(f"{args.file}: no runs in {where}: nothing to sample")
        return EXIT_UNREADABLE

    def conflict(earlier: SpotCheck) -> str:
        return f", drawn by {earlier.reviewer}){_kept(earlier, sample)}"

    failed = record_spot_check(args, review, sample, where, conflict=conflict)
    if failed is not None:
        return failed
    return EXIT_INVALID if store.errors else EXIT_OK


def _draw_stratified(args: argparse.Namespace, review: Any) -> Sample | None:
    """`sample --strata`: the priors given, else those an earlier spot-check of the view and
    field says; None (and said why) when it cannot be drawn."""
    from ..core.analysis.sampling import SampleError
    from ..core.analysis.spotcheck import earlier_rates
    from ..core.analysis.stratify import StrataPlan, draw_stratified

    priors = args.prior
    if priors is None and args.allocation == "neyman":
        priors = earlier_rates(review, args.view, args.strata)
    plan = StrataPlan(args.strata, args.allocation, priors, args.margin)
    try:
        return draw_stratified(review, args.view, args.n, args.seed, plan, args.filter)
    except SampleError as exc:
        err(f"{args.file}: {exc}")
        return None
