"""Statistics over diagnoses: runs per stage, lucky answers, most-missed documents."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..common.text import plural, snippet, visible
from ..runs.corpus import missed_texts
from ..runs.mapping import reading_of
from ..runs.metrics import MetricMeans
from ..runs.rule import LABEL_ERROR, RETRIEVAL, UNRESOLVED
from ..runs.stages import RULE_STAGE_NAMES
from ..runs.store import store_means
from .lucky import LUCKY_IN_FILE, STILL_LUCKY, lucky_in_file

if TYPE_CHECKING:
    from ..review.state import Review
    from ..review.tags import Tag

STAGE_ORDER = RULE_STAGE_NAMES
TOP_MISSED = 10
TOP_TEXTS = 20  # most-missed documents whose texts are looked up (the report lists 20)
SNIPPET = 60  # characters of a most-missed document's text shown beside its content ID


@dataclass
class Stats:
    """Counts over one run file. `runs` counts valid runs; invalid lines are apart."""

    runs: int = 0
    stages: Counter[str] = field(default_factory=Counter)
    lucky: int = 0
    """Still lucky after review: lucky answers by the labels in force (see lucky.py)."""
    lucky_in_file: int | None = None
    """Lucky answers in the file, by its own labels; None: the same as `lucky` (no review)."""
    invalid: int = 0
    missed: Counter[str] = field(default_factory=Counter)
    reviewed: int | None = None  # with a review applied: runs labelled by a reviewer
    conflicts: int | None = None  # with a review applied: runs whose reviewers disagree
    metrics: MetricMeans | None = None  # recall and precision means (core.metrics), when computed
    missed_texts: dict[str, str] = field(default_factory=dict)
    """The texts of the most-missed documents given as texts (content IDs), shown beside them."""

    def add(self, stage: str, label: object, missing: Iterable[str] = ()) -> None:
        self.runs += 1
        self.stages[stage] += 1
        if stage == RETRIEVAL:
            self.missed.update(missing)
            if label is True:
                self.lucky += 1

    def merge(self, other: Stats) -> None:
        """Add the counts of another part of the same file."""
        self.runs += other.runs
        self.stages.update(other.stages)
        reviewed = self.lucky_in_file is not None or other.lucky_in_file is not None
        self.lucky_in_file = self.in_file() + other.in_file() if reviewed else None
        self.lucky += other.lucky
        self.invalid += other.invalid
        self.missed.update(other.missed)

    def in_file(self) -> int:
        """Lucky answers in the file (by its labels)."""
        return self.lucky if self.lucky_in_file is None else self.lucky_in_file

    def top_missed(self, count: int = TOP_MISSED) -> list[tuple[str, int]]:
        # Ties broken by id, so the list is stable from run to run.
        return sorted(self.missed.items(), key=lambda item: (-item[1], item[0]))[:count]

    def to_json(self) -> dict[str, Any]:
        return {
            "runs": self.runs,
            "stages": {stage: self.stages.get(stage, 0) for stage in STAGE_ORDER},
            "lucky_in_file": self.in_file(),
            "still_lucky": self.lucky,
            "unresolved": self.stages.get(UNRESOLVED, 0),
            "label_errors": self.stages.get(LABEL_ERROR, 0),
            "invalid_lines": self.invalid,
            "most_missed": [{"id": doc, "runs": n} for doc, n in self.top_missed()],
            **({} if self.reviewed is None else {"reviewed": self.reviewed, "conflicts": self.conflicts}),
            **({"metrics": self.metrics.to_json()} if self.metrics is not None else {}),
        }

    def summary(self) -> str:
        """One line for stderr."""
        parts = [f"{self.stages.get(stage, 0)} {stage}" for stage in STAGE_ORDER]
        runs = f"{self.runs} {plural(self.runs, 'run', 'runs')}"
        in_file = self.in_file()
        lucky = f"{in_file} {plural(in_file, 'lucky answer', 'lucky answers')} in the file"
        if self.lucky_in_file is not None:  # a review applied: what it leaves lucky too
            lucky += f", {self.lucky} {STILL_LUCKY}"
        invalid = f"{self.invalid} {plural(self.invalid, 'invalid line', 'invalid lines')}"
        return f"{runs}: {', '.join(parts)}; {lucky}; {invalid}"


def review_stats(review: Review) -> Stats:
    """Stats of a run file with its review applied: each run counted under the stage
    its label in force gives it (a run in conflict under the file's label's stage,
    and in `conflicts` too). `reviewed` and `conflicts` are set when the review's
    log held any record."""
    store = review.store
    stats = Stats()
    if review.records_read:  # a journal was applied: say what it holds
        stats.reviewed, stats.conflicts = review.reviewed, len(review.conflicts)
    for code, name in enumerate(RULE_STAGE_NAMES):
        if review.counts[code]:
            stats.stages[name] = review.counts[code]
    stats.runs = sum(stats.stages.values())
    stats.invalid = len(store.errors)
    stats.lucky, stats.lucky_in_file = review.lucky, lucky_in_file(review)
    stats.missed = store.missed_documents()
    stats.metrics = store_means(store)
    stats.missed_texts = missed_texts(store, [doc for doc, _ in stats.top_missed(TOP_TEXTS)])
    return stats


def stats_document(review: Review, tags: tuple[Tag, ...], stats: Stats | None = None) -> dict[str, Any]:
    """The object `stats --json` prints (and a report embeds): the file's figures, each
    spot-check's, and the agreement between reviewers. `stats`: `review_stats(review)`, when
    the caller has it already."""
    stats = review_stats(review) if stats is None else stats
    return review_document(review, tags, stats.to_json())


def review_document(review: Review, tags: tuple[Tag, ...], figures: dict[str, Any]) -> dict[str, Any]:
    """`figures` (the counts of `stats --json`: a file's, or a dataset's as an engine counted
    them with the review applied) with each spot-check's figures, the agreement between
    reviewers and how the runs were read: the object `stats --json` prints."""
    from .agreement import review_agreement
    from .spotcheck import spot_check_reports

    spot_checks = [report.to_json() for report in spot_check_reports(review, tags)]
    document = {**figures, "spot_checks": spot_checks, "agreement": review_agreement(review).to_json()}
    reading = reading_of(review.store.field_map)  # how the file was read: texts, a score's threshold
    return {**document, "reading": list(reading)} if reading else document


def format_table(stats: Stats, name: str) -> str:
    """Stats as a plain-text table for the terminal."""
    width = max(len(str(stats.runs)), 5)
    out = [visible(name), ""]
    out.append(f"  {'stage':<14}{'runs':>{width}}  share")
    for stage in STAGE_ORDER:
        n = stats.stages.get(stage, 0)
        share = f"{100 * n / stats.runs:5.1f}%" if stats.runs else "    -"
        out.append(f"  {stage:<14}{n:>{width}}  {share}")
    out.append(f"  {'total':<14}{stats.runs:>{width}}")
    out.append("")
    # Two figures, two names (lucky.py): the file's labels, then the labels in force.
    out.append(f"  {LUCKY_IN_FILE + ' (its labels):':<52}{stats.in_file()}")
    out.append(f"  {STILL_LUCKY + ' (labels in force):':<52}{stats.lucky}")
    out.append(f"  unresolved (no required set):                       {stats.stages.get(UNRESOLVED, 0)}")
    out.append(f"  label errors (no boolean label):                    {stats.stages.get(LABEL_ERROR, 0)}")
    out.append(f"  invalid lines:                                      {stats.invalid}")
    if stats.reviewed is not None:
        out.append(f"  reviewed (a reviewer's label):                      {stats.reviewed}")
        out.append(f"  in conflict (reviewers disagree, file's label):     {stats.conflicts}")
    if stats.metrics is not None:
        out.extend(format_metrics(stats.metrics))
    top = stats.top_missed()
    out.append("")
    if top:
        out.append("  most-missed documents")
        shown = [(visible(doc), n, stats.missed_texts.get(doc)) for doc, n in top]
        doc_width = min(max(len(doc) for doc, _, _ in shown), 60)
        for doc, n, text in shown:
            beside = "" if text is None else f"  {snippet(text, SNIPPET)}"
            out.append(f"  {doc:<{doc_width}}  {n:>{width}}{beside}")
    else:
        out.append("  no document is missing from any run's context")
    return "\n".join(out)


def _mean_text(mean: float | None, runs: int) -> str:
    return f"{mean:.3f} over {runs} runs" if mean is not None else "none (undefined on every run)"


def format_metrics(means: MetricMeans) -> list[str]:
    """The recall and precision means as lines of the stats table."""
    return [
        "",
        "  ID-based context recall, mean (RAGAS):             "
        + _mean_text(means.recall_mean, means.recall_runs),
        "  ID-based context precision, mean (RAGAS):          "
        + _mean_text(means.precision_mean, means.precision_runs),
    ]
