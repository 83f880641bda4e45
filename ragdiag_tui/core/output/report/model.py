"""The figures of a report, computed once and rendered as HTML or Markdown.

Every figure is what the commands already compute: the object `stats --json` prints
(`stats_document`), each spot-check's `SpotCheckReport` (its sentence exactly as `stats`
prints it), and with a baseline the object `compare --json` prints (`compare_stores`, the
report's file as NEW). Added here only what a reader needs to trust and act on them: the
header (which file, which journal, who reviewed, when), each spot-check's reviewed runs,
the evidence of its overturned runs (core.output.report.evidence) and the top 20 most-missed
documents.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from ...analysis.compare import compare_stores, open_side
from ...analysis.spotcheck import SpotCheckReport, sampled_rows, spot_check_reports
from ...analysis.stats import review_document, review_stats, stats_document
from ...common.reads import register_read
from ...review.postgres.store import fingerprint
from ...review.tags import Tag
from .evidence import Cut, EvidenceCard, evidence_cards, is_overturned

if TYPE_CHECKING:
    from ...review.state import Review
    from ...runs.corpus import DocStore
    from ...runs.mapping import FieldMap

TOP_MISSED = 20
SNIPPET = 80  # characters of a most-missed document's text shown beside its content ID
DEFAULT_LIMIT = 20
QUESTION_LIMIT = 300  # characters of a question in a table of reviewed runs
NOTE_LIMIT = 500
REVIEWED_SHOWN = 1000  # rows of a spot-check's table of reviewed runs: the page stays small


class ReportError(Exception):
    """A report that cannot be made as asked (an unknown spot-check, an unknown format)."""


@dataclass(frozen=True, slots=True)
class Header:
    """What was reviewed: the file, its journal, its reviewers, and when the report was made."""

    name: str
    size: int
    runs: int
    invalid: int
    fingerprint: str
    journal: str
    reviewers: tuple[str, ...]
    written: str
    version: str
    reading: tuple[str, ...] = ()  # how the file was read (`FieldMap.reading`): texts, scores
    files: int = 0  # a dataset read in place: how many files (`name` is its folder); 0: a run file

    @property
    def kind(self) -> str:
        """What was reviewed, as the report's facts name it."""
        return "dataset" if self.files else "run file"

    @property
    def title(self) -> str:
        """`demo.jsonl`; a dataset's `lake (2 files)`."""
        return (
            f"{self.name} ({self.files} {'file' if self.files == 1 else 'files'})"
            if self.files
            else self.name
        )

    def to_json(self) -> dict[str, Any]:
        return {
            **({"reading": list(self.reading)} if self.reading else {}),
            "file": self.name,
            **({"files": self.files} if self.files else {}),
            "bytes": self.size,
            "runs": self.runs,
            "invalid_lines": self.invalid,
            "fingerprint": self.fingerprint,
            "journal": self.journal,
            "reviewers": list(self.reviewers),
            "written": self.written,
            "version": self.version,
        }


@dataclass(frozen=True, slots=True)
class ReviewedRun:
    """A reviewed run of a spot-check, as a row of its table."""

    id: str
    question: Cut
    file_label: bool | None
    label: bool | None
    source: str | None  # where the label in force comes from (`Review.label_source`)
    reviewers: tuple[tuple[str, bool | None], ...]
    tags: tuple[str, ...]
    notes: tuple[tuple[str, Cut], ...]
    overturned: bool


@dataclass(frozen=True, slots=True)
class SpotCheckSection:
    """One spot-check: its figures, its reviewed runs, and the evidence of its overturned runs."""

    report: SpotCheckReport
    reviewed: tuple[ReviewedRun, ...]  # the first REVIEWED_SHOWN reviewed runs, in sample order
    reviewed_total: int
    cards: tuple[EvidenceCard, ...]  # the first `limit` overturned runs'
    overturned_ids: tuple[str, ...]  # every overturned run, in sample order


@dataclass(frozen=True, slots=True)
class Baseline:
    """The comparison with an earlier run file (`--baseline OLD`)."""

    name: str
    figures: dict[str, Any]  # exactly what `compare --json OLD FILE` prints
    warnings: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class ReportData:
    """Everything a report shows; `data()` is what it embeds for programs."""

    header: Header
    stats: dict[str, Any]  # exactly what `stats --json` prints
    spot_checks: tuple[SpotCheckSection, ...]
    tag_names: dict[str, str]
    most_missed: tuple[tuple[str, int], ...]
    adjudicated: int
    conflicts: tuple[str, ...]
    limit: int
    baseline: Baseline | None = None
    conflict_reviewers: tuple[str, ...] = ()  # who labelled the runs in conflict (the headline)
    missed_texts: dict[str, str] = field(default_factory=dict)
    """The texts of the most-missed documents given as texts (content IDs), shown beside them."""

    def data(self) -> dict[str, Any]:
        """The embedded figures: the header, `stats --json`, and `compare --json` with a baseline."""
        out: dict[str, Any] = {"report": self.header.to_json(), "stats": self.stats}
        if self.baseline is not None:
            out["compare"] = self.baseline.figures
        return out


@dataclass(frozen=True, slots=True)
class ReportOptions:
    """What the command line (or the app) asks of a report."""

    spot_checks: Sequence[str] = ()  # the names to show (none: all)
    limit: int = DEFAULT_LIMIT
    docs: DocStore | None = None
    baseline: str | None = None
    field_map: FieldMap | None = None
    journal_spec: str | None = None
    use_journal: bool = True
    version: str = ""


@dataclass(frozen=True, slots=True)
class DatasetFigures:
    """What an engine counted over a dataset read in place, its review applied: plain data
    the command line gathers (the core never imports an engine)."""

    stats: dict[str, Any]  # the counts, exactly what `stats DATASET --json` prints
    most_missed: tuple[tuple[str, int], ...]  # the TOP_MISSED documents most runs miss, most first
    size: int  # bytes of the dataset's files
    files: int  # how many files


def build_report(review: Review, tags: tuple[Tag, ...], options: ReportOptions) -> ReportData:
    """The figures of the report of `review`. Raises ReportError for an unknown spot-check name;
    with a baseline, loading.FileError or JournalError when OLD (or its journal) cannot be read."""
    stats = review_stats(review)
    document = stats_document(review, tags, stats)
    header = _header(review, document, options.version, os.path.getsize(review.store.path))
    data = _report(review, tags, options, header, document, tuple(stats.top_missed(TOP_MISSED)))
    return replace(data, baseline=_baseline(review, options), missed_texts=stats.missed_texts)


def build_dataset_report(
    review: Review, tags: tuple[Tag, ...], options: ReportOptions, figures: DatasetFigures
) -> ReportData:
    """The report of a dataset read in place (`review.store` a SourceStore, never the runs):
    its counts and most-missed documents from `figures`; its spot-checks, their evidence, the
    agreement and the conflicts from the review, whose runs alone are read. ReportError for an
    unknown spot-check name, or a baseline (a comparison needs both sides' every run)."""
    if options.baseline is not None:
        raise ReportError("a dataset's report takes no --baseline: report a run file instead")
    document = review_document(review, tags, figures.stats)
    header = replace(_header(review, document, options.version, figures.size), files=figures.files)
    return _report(review, tags, options, header, document, figures.most_missed)


def _report(
    review: Review,
    tags: tuple[Tag, ...],
    options: ReportOptions,
    header: Header,
    document: dict[str, Any],
    most_missed: tuple[tuple[str, int], ...],
) -> ReportData:
    """What both reports take from the review: the spot-checks' sections and the conflicts."""
    reports = _chosen(spot_check_reports(review, tags), options.spot_checks)
    return ReportData(
        header=header,
        stats=document,
        spot_checks=tuple(_section(review, report, options) for report in reports),
        tag_names={tag.key: tag.name for tag in tags},
        most_missed=most_missed,
        adjudicated=len(review.adjudications),
        conflicts=tuple(review.store.ids[row] for row in sorted(review.conflicts)),
        limit=options.limit,
        conflict_reviewers=_conflict_reviewers(review),
    )


def _conflict_reviewers(review: Review) -> tuple[str, ...]:
    """The reviewers whose labels are on the runs in conflict, by name."""
    names = {
        name
        for row in review.conflicts
        for name, state in review.reviewers(row).items()
        if state.label is not None
    }
    return tuple(sorted(names))


def _chosen(reports: list[SpotCheckReport], names: Sequence[str]) -> list[SpotCheckReport]:
    if not names:
        return reports
    by_name = {report.name: report for report in reports}
    unknown = [name for name in names if name not in by_name]
    if unknown:
        known = ", ".join(repr(name) for name in by_name) or "none"
        raise ReportError(f"no spot-check named {unknown[0]!r} in the review (spot-checks: {known})")
    return [by_name[name] for name in dict.fromkeys(names)]


def _header(review: Review, document: dict[str, Any], version: str, size: int) -> Header:
    path = review.store.path
    journal = review.journal.name if review.journal is not None else "none (the file's own labels)"
    return Header(
        name=os.path.basename(path),
        size=size,
        runs=document["runs"],
        invalid=document["invalid_lines"],
        fingerprint=fingerprint(path),
        journal=journal,
        reviewers=tuple(document["agreement"]["reviewers"]),
        written=datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        version=version,
        reading=tuple(review.store.field_map.reading()) if review.store.field_map is not None else (),
    )


def _section(review: Review, report: SpotCheckReport, options: ReportOptions) -> SpotCheckSection:
    rows, _ = sampled_rows(review, review.spot_checks[report.name])
    reviewed = [row for row in rows if review.is_reviewed(row)]
    valid = review.store.is_valid
    overturned = [row for row in reviewed if valid(row) and is_overturned(review, row)]
    ids = review.store.ids
    return SpotCheckSection(
        report,
        tuple(_reviewed_run(review, row) for row in reviewed[:REVIEWED_SHOWN]),
        len(reviewed),
        evidence_cards(review, overturned, options.docs, options.limit),
        tuple(ids[row] for row in overturned),
    )


def _reviewed_run(review: Review, row: int) -> ReviewedRun:
    states = review.reviewers(row)
    notes = [(name, Cut.of(state.note, NOTE_LIMIT)) for name, state in states.items() if state.note]
    adjudication = review.adjudication(row)
    if adjudication is not None and adjudication.note:
        notes.append((f"{adjudication.reviewer} (adjudication)", Cut.of(adjudication.note, NOTE_LIMIT)))
    return ReviewedRun(
        id=review.store.ids[row],
        question=Cut.of(review.store.questions[row], QUESTION_LIMIT),
        file_label=review.file_label(row),
        label=review.label(row),
        source=review.label_source(row),
        reviewers=tuple((name, state.label) for name, state in states.items() if state.label is not None),
        tags=review.tags(row),
        notes=tuple(notes),
        overturned=review.store.is_valid(row) and is_overturned(review, row),
    )


def _baseline(review: Review, options: ReportOptions) -> Baseline | None:
    """`compare --json OLD FILE`, with this review as NEW (its labels in force)."""
    if options.baseline is None:
        return None
    register_read(options.baseline, "the --baseline run file")  # before the loader calls it the run file
    old = open_side(options.baseline, options.field_map, options.use_journal, options.journal_spec)
    result = compare_stores(old.store, review.store, "id", old.label, review.label)
    warnings = tuple(line for line in (old.applied, *old.warnings) if line)
    return Baseline(os.path.basename(options.baseline), result.to_json(), warnings)
