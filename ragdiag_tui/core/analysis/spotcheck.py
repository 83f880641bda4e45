"""The conclusion of a spot-check: what the reviewed sample says about its population.

For each spot-check in the journal: the population it was drawn from, the sample
size, how many sampled runs are reviewed, and of those how many are held (the
settled label agrees with the file's), overturned (it differs) and in conflict
(reviewers disagree and nobody adjudicated: no label is settled), and each reason
tag's count among the runs with a settled label.

A spot-check record is a set: an id it repeats (hand-edited, merged) is one run, and ids
the file lacks are reported and left out of every count; the sentence also questions a
record whose `size` disagrees with its distinct ids.

The overturned rate and each tag's rate are estimates for the whole population
over the reviewed runs with a settled label only (runs in conflict are left out,
and the sentence says so), with a 95% Wilson score interval corrected for the
finite population (core.estimate). A run is tagged when a reviewer whose own label
is the settled one gave the tag (`TeamLabels.settled_tags`): a tag given with the
losing label of a conflict, or with no label, counts nowhere.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from ..common.text import visible
from ..review.intake import SpotCheckProgress
from ..review.records import SpotCheck, Stratum
from ..review.state import Review
from ..review.tags import DEFAULT_TAGS, Tag
from .estimate import Interval, interval_json, wilson
from .sampling import NOUNS
from .sequence import StratumLabels, anytime_interval, combined_anytime, half_width, may_stop
from .strata import INTERVAL_METHOD, StratumCount, stratified_estimate


@dataclass(frozen=True, slots=True)
class TagCount:
    """How many reviewed runs of a sample carry one tag, and the rate it estimates."""

    key: str
    count: int
    rate: Interval | None

    def to_json(self) -> dict[str, Any]:
        return {"count": self.count, "rate": interval_json(self.rate)}


@dataclass(frozen=True, slots=True)
class SpotCheckReport:
    """One spot-check's figures; `overturned_rate` None while no reviewed run is settled."""

    name: str
    view: str
    filter: str
    seed: int
    population: int
    size: int
    reviewed: int
    held: int
    overturned: int
    conflicts: int
    overturned_rate: Interval | None
    tags: tuple[TagCount, ...]
    absent: int = 0  # sampled runs this file does not hold (drawn from another file, or ids changed)
    sampled: int | None = None  # distinct ids the record names (None: `size`)
    doubts: tuple[str, ...] = ()  # what the record itself gets wrong (`SpotCheck.doubts`)
    overturned_rate_anytime: Interval | None = None  # valid at any stopping point (core.sequence)
    margin: float | None = None  # sequential mode: may stop once the anytime interval is this narrow
    strata_by: str = ""  # a stratified spot-check: the field, and a report per stratum
    strata: tuple[SpotCheckReport, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """The object of `stats --json`'s "spot_checks" list."""
        return {
            "name": self.name,
            "view": self.view,
            "filter": self.filter,
            "seed": self.seed,
            "population": self.population,
            "size": self.size,
            "reviewed": self.reviewed,
            "held": self.held,
            "overturned": self.overturned,
            "conflicts": self.conflicts,
            "settled": self.settled,
            "overturned_rate": interval_json(self.overturned_rate),
            "tags": {tag.key: tag.to_json() for tag in self.tags},
            "absent": self.absent,
            "sampled": self.runs,
            "in_file": self.in_file,
            "doubts": list(self.doubts),
            "overturned_rate_anytime": interval_json(self.overturned_rate_anytime),
            "margin": self.margin,
            "may_stop": self.may_stop,
        } | self._strata_json()

    def _strata_json(self) -> dict[str, Any]:
        if not self.strata_by:
            return {}
        strata = [{"stratum": stratum.name, **stratum.to_json()} for stratum in self.strata]
        return {"strata_by": self.strata_by, "interval_method": INTERVAL_METHOD, "strata": strata}

    @property
    def may_stop(self) -> bool:
        """Whether the anytime interval is within the margin: the labeller may stop now."""
        return may_stop(self.overturned_rate_anytime, self.margin)

    @property
    def stopped_early(self) -> bool:
        """Stopped at the margin with runs left to review: the anytime interval is the one to tell."""
        return self.may_stop and self.reviewed < self.in_file

    def may_stop_text(self) -> str:
        """`you may stop: 12% ± 3.0%, valid at any stopping point`, or "" before then."""
        rate = self.overturned_rate_anytime
        if rate is None or not self.may_stop:
            return ""
        plus_minus = f"{rate.estimate_percent()} ± {100 * half_width(rate):.1f}%"
        return f"you may stop: {plus_minus}, valid at any stopping point"

    @property
    def runs(self) -> int:
        """The distinct runs the sample names."""
        return self.size if self.sampled is None else self.sampled

    @property
    def in_file(self) -> int:
        """The distinct sampled runs this file holds: what progress counts against."""
        return self.runs - self.absent

    @property
    def settled(self) -> int:
        """The reviewed runs with a settled label: the estimates' sample."""
        return self.held + self.overturned

    def counts(self) -> str:
        """`25 of 400 reviewed: 14 held, 9 overturned, 2 in conflict`."""
        return (
            f"{self.reviewed} of {self.population} reviewed: {self.held} held, "
            f"{self.overturned} overturned, {self.conflicts} in conflict"
        )

    def noun(self) -> str:
        """The runs the sample speaks for: `lucky answers`, `runs matching 'gpt'`."""
        noun = NOUNS.get(self.view, f"runs of the view '{self.view}'")
        return f"{noun} matching '{self.filter}'" if self.filter else noun

    def sentence(self) -> str:
        """The conclusion in one sentence a lead can paste into a report (terminal-safe);
        a spot-check whose runs this file does not hold says so first."""
        told = self._conclusion()
        if self.absent:
            told += f"; {absent_note(self.absent, self.runs)}"
        for doubt in self.doubts:
            told += f"; ⚠ {doubt}"
        return told

    def _conclusion(self) -> str:
        name = visible(self.name)
        noun = visible(self.noun())
        if self.absent == self.runs:
            return f"{name}: {absent_note(self.absent, self.runs)}, so it says nothing of this file"
        if not self.reviewed:
            sampled = f"{self.in_file} sampled {noun}"
            return f"{name}: none of the {sampled} reviewed yet ({self.population} in all)"
        rate = self.overturned_rate_anytime if self.stopped_early else self.overturned_rate
        if rate is None and self.strata_by and self.settled:
            told = (
                f"{name}: no combined estimate yet for {noun}, {self.counts()} (a stratum has none settled)"
            )
        elif rate is None:  # every reviewed run is in conflict
            told = f"{name}: no estimate yet for {noun}, {self.counts()} (no run with a settled label)"
        else:
            how = rate.ci_percent()
            if self.stopped_early:
                how = f"anytime {how}, valid at any stopping point"
            told = (
                f"{name}: the file's label was overturned on {rate.estimated()} of "
                f"{noun} ({how}), {self.counts()}"
            )
            if self.conflicts:
                told += f" (the estimate is over the {self.settled} with a settled label)"
        if self.reviewed < self.in_file:
            told += f" ({self.in_file - self.reviewed} of the {self.in_file} sampled still to review)"
        return told + strata_sentence(self.strata)

    def sequence_lines(self) -> list[str]:
        """A line per stratum (`stratum A: 3% (95% CI 1-8%), 40 of 600 reviewed: ...`), then the
        anytime interval and whether the labeller may stop (terminal-safe)."""
        lines = []
        for stratum in self.strata:
            rate = stratum.overturned_rate
            told = f"{rate.percent()}, " if rate is not None else "no estimate yet, "
            lines.append(f"stratum {visible(stratum.name)}: {told}{stratum.counts()}")
        anytime = self.overturned_rate_anytime
        if anytime is not None and (self.strata or self.margin is not None):
            lines.append(f"anytime-valid: {anytime.percent()}, valid at any stopping point")
        if self.may_stop:
            lines.append(self.may_stop_text())
        return lines

    def tag_lines(self, tags: tuple[Tag, ...] = DEFAULT_TAGS) -> list[str]:
        """A line per tag: its name, count and estimated rate (terminal-safe)."""
        names = {tag.key: tag.name for tag in tags}
        lines = []
        for tag in self.tags:
            label = visible(names.get(tag.key, tag.key))
            line = f"{label} ({visible(tag.key)}): {tag.count} of {self.settled}"
            if tag.rate is not None:
                line += f", {tag.rate.estimated()} ({tag.rate.ci_percent()})"
            lines.append(line)
        return lines


def absent_note(absent: int, size: int) -> str:
    """`3 of its 30 sampled runs are not in this file`: a spot-check drawn elsewhere, flagged."""
    if absent == size:
        return (
            f"none of its {size} sampled runs is in this file (drawn from another file, or its ids changed)"
        )
    verb = "is" if absent == 1 else "are"
    return f"{absent} of its {size} sampled runs {verb} not in this file"


def sampled_rows(review: Review, spot_check: SpotCheck) -> tuple[list[int], int]:
    """The rows of a spot-check's runs that are in the file, in sample order, each once; and how
    many of its distinct sampled ids the file does not hold (left out of every count)."""
    store = review.store
    row_of = store.row_of
    # A sample of a view with invalid lines names each by its line (sampling.population_ids).
    # A dataset's sample never draws an invalid run (and its errors are read by window, never listed).
    line_of = {} if store.in_place else {f"line {store.lines[row]}": row for row in store.errors}
    store.resolve_ids(spot_check.runs)  # a dataset: one query for them all
    found = [row_of.get(run_id, line_of.get(run_id)) for run_id in spot_check.runs]
    rows = [row for row in found if row is not None]
    return rows, len(found) - len(rows)


def spot_check_report(
    review: Review, spot_check: SpotCheck, tags: tuple[Tag, ...] = DEFAULT_TAGS
) -> SpotCheckReport:
    """The figures of one spot-check over the review as it stands.

    Tags counted: every tag of the set in force (zero counts included), then any other
    tag found among the settled tags of a reviewed run of the sample, in key order.
    A stratified spot-check also gets a report per stratum, and its overturned rate is the
    stratified estimate (core.strata) with the strata's anytime sequences combined.
    """
    report = _report(review, spot_check, review.spot_check_progress(spot_check.name), tags)
    if spot_check.strata is None:
        return report
    checks = [_stratum_check(spot_check, stratum) for stratum in spot_check.strata.strata]
    strata = tuple(_report(review, check, review.intake.progress_of(check.runs), tags) for check in checks)
    anytime = combined_anytime([StratumLabels(s.population, s.settled, s.overturned) for s in strata])
    return replace(
        report,
        overturned_rate=_combined(strata, lambda s: s.overturned),
        tags=tuple(
            TagCount(tag.key, tag.count, _combined(strata, lambda s, key=tag.key: _tag_count(s, key)))
            for tag in report.tags
        ),
        overturned_rate_anytime=anytime,
        strata_by=spot_check.strata.by,
        strata=strata,
    )


def _tag_count(report: SpotCheckReport, key: str) -> int:
    return next((tag.count for tag in report.tags if tag.key == key), 0)


def _combined(
    strata: tuple[SpotCheckReport, ...], count: Callable[[SpotCheckReport], int]
) -> Interval | None:
    """The stratified estimate (core.strata) of a rate counted by `count` in each stratum."""
    combined = stratified_estimate([StratumCount(s.population, s.settled, count(s)) for s in strata])
    return None if combined is None else combined.interval


def _stratum_check(spot_check: SpotCheck, stratum: Stratum) -> SpotCheck:
    """One stratum as a spot-check of its own: its value as the name, its population and ids."""
    ids = tuple(dict.fromkeys(stratum.ids))
    return SpotCheck(stratum.stratum, spot_check.view, spot_check.filter, spot_check.seed,
                     stratum.population, len(ids), ids, spot_check.reviewer, spot_check.at)  # fmt: skip


def _report(
    review: Review, spot_check: SpotCheck, progress: SpotCheckProgress, tags: tuple[Tag, ...]
) -> SpotCheckReport:
    """The figures of a spot-check (or a stratum of one) from its progress."""
    reviewed, settled = progress.reviewed, progress.settled
    rows, absent = sampled_rows(review, spot_check)
    counts = {tag.key: 0 for tag in tags}
    others: dict[str, int] = {}
    for row in rows:
        if not review.is_reviewed(row):
            continue
        for key in review.team.settled_tags(row):
            if key in counts:
                counts[key] += 1
            else:
                others[key] = others.get(key, 0) + 1
    counts.update(sorted(others.items()))
    population = max(spot_check.population, reviewed)  # a file grown since the draw
    return SpotCheckReport(
        name=spot_check.name,
        view=spot_check.view,
        filter=spot_check.filter,
        seed=spot_check.seed,
        population=spot_check.population,
        size=spot_check.size,
        reviewed=reviewed,
        held=progress.held,
        overturned=progress.overturned,
        conflicts=progress.conflicts,
        overturned_rate=wilson(progress.overturned, settled, population),
        tags=tuple(TagCount(key, n, wilson(n, settled, population)) for key, n in counts.items()),
        absent=absent,
        sampled=len(spot_check.runs),
        doubts=tuple(spot_check.doubts()),
        overturned_rate_anytime=anytime_interval(progress.overturned, settled, population),
        margin=spot_check.margin,
    )


def strata_sentence(strata: tuple[SpotCheckReport, ...]) -> str:
    """`; model=C stands apart: 40% (95% CI 30-51%), an interval overlapping no other stratum's`:
    the strata whose overturned rate's interval overlaps none of the others' (terminal-safe)."""
    rated = [(stratum.name, stratum.overturned_rate) for stratum in strata if stratum.overturned_rate]
    apart = [
        f"{visible(name)}: {rate.percent()}"
        for name, rate in rated
        if all(
            rate.high < other.low or other.high < rate.low
            for other_name, other in rated
            if other_name != name
        )
    ]
    if len(rated) < 2 or not apart:
        return ""
    which = "stratum stands apart, its" if len(apart) == 1 else "strata stand apart, each"
    return f"; {len(apart)} {which} interval overlapping no other stratum's: {'; '.join(apart)}"


def earlier_rates(review: Review, view: str, by: str) -> dict[str, float]:
    """Each stratum's overturned rate in the latest spot-check of `view` stratified by `by`
    with settled labels (the priors of a Neyman allocation); {} when there is none."""
    for spot_check in reversed(review.spot_checks.values()):
        if spot_check.strata is None or (spot_check.view, spot_check.strata.by) != (view, by):
            continue
        strata = spot_check_report(review, spot_check).strata
        rates = {s.name: s.overturned / s.settled for s in strata if s.settled}
        if rates:
            return rates
    return {}


def spot_check_reports(review: Review, tags: tuple[Tag, ...] = DEFAULT_TAGS) -> list[SpotCheckReport]:
    """Every spot-check of the review, in the order they were first drawn."""
    return [spot_check_report(review, spot_check, tags) for spot_check in review.spot_checks.values()]


def format_spot_checks(reports: list[SpotCheckReport], tags: tuple[Tag, ...] = DEFAULT_TAGS) -> str:
    """The spot-checks block of the `stats` text: a sentence each, then a line per tag."""
    out = ["  spot-checks"]
    for report in reports:
        out.append(f"  {report.sentence()}")
        out.extend(f"    {line}" for line in report.sequence_lines())
        if report.settled:
            out.extend(f"    {line}" for line in report.tag_lines(tags))
    return "\n".join(out)
