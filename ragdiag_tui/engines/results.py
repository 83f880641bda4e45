"""What the engines return, and the definitions every engine shares, so that DuckDB and
Spark (and the local path) name, count and draw runs the same way.

- A run's id in a dataset: its (mapped) `id` field when that is a string; otherwise
  `"<file relative to root>:<N>"`, N its 1-based line (JSON Lines) or row (Parquet).
  A repeated id counts once per occurrence.
- The sample key: sha256 of the UTF-8 of `str(seed) + "\\x1f" + run id`, as lowercase
  hex. The sample of size n is the n runs of the population with the smallest keys, in
  ascending key order; ties (repeated ids) broken by (file relative to root, line/row).
- A field's text for `--group-by`: a string as it is, any other value as its JSON
  (`core.common.jsonutil.field_text`); absent or null: no value.
- `--filter` means what the app's filter means (`core.analysis.filtering.FieldTerm`):
  `FIELD:VALUE` the case-folded field text contains VALUE case-folded, `FIELD:=VALUE` it is
  VALUE (or VALUE's number as written, `exact_texts`), `FIELD:` the run has the field (null
  included). The field text is `filter_text`: None when absent, "null" when null.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from ..core.analysis.estimate import auto_size
from ..core.analysis.filtering import TERM, FieldTerm, term_parts
from ..core.analysis.sampling import SampleError
from ..core.analysis.sampling import sample_key as sample_key  # one definition, the core's
from ..core.analysis.stats import Stats
from ..core.common.jsonutil import field_text
from ..core.runs.metrics import MetricMeans

SEPARATOR = "\x1f"  # in the sample key (core.analysis.sampling.sample_key)
DATASET_VIEWS = ("all", "retrieval", "generation", "pass", "unresolved", "answer-label", "lucky")
"""The views a dataset's sample may be drawn from (by the files' own labels; a dataset has no
review journal, so no reviewed/unreviewed, and an invalid run is no run to review)."""


def in_view(view: str, stage: str | None, label: Any) -> bool:
    """Whether a valid run (its stage word and label) is in `view` (`DATASET_VIEWS`), by the
    file's own labels, as core.analysis.sampling takes a population."""
    if view == "all":
        return True
    if view == "lucky":
        return stage == "retrieval" and label is True
    return stage == view


MANY_RUNS = 1 << 62
"""A population no dataset reaches: `draw_size(n, MANY_RUNS, margin)` is the most a draw keeps."""


def check_draw(view: str, n: int | str) -> None:
    """Raise SampleError for a view a dataset has not or a size that is not 0 or more / "auto"."""
    if view not in DATASET_VIEWS:
        raise SampleError(f"a dataset's sample is drawn from one of {', '.join(DATASET_VIEWS)}, not {view}")
    if n != "auto" and (not isinstance(n, int) or isinstance(n, bool) or n < 0):
        raise SampleError(f"the sample size is a whole number or 'auto', got {n!r}")


def draw_size(n: int | str, population: int, margin: float) -> int:
    """How many runs a draw of `n` (or "auto" with `margin`) takes from `population` runs."""
    return auto_size(population, margin) if n == "auto" else min(int(n), population)


class EngineError(RuntimeError):
    """An engine that could not finish (a file it cannot read, a full disk). The message says why."""


def dataset_run_id(value: Any, file: str, line: int) -> str:
    """A run's id in a dataset: its id field when a string, else `file:line`."""
    return value if isinstance(value, str) else f"{file}:{line}"


def value_text(value: Any) -> str | None:
    """A field's value as text for grouping; None when absent or null."""
    return None if value is None else field_text(value)


def filter_text(obj: Any, name: str) -> str | None:
    """A run's field as `--filter` reads it (`filtering.field_values`): the case-folded
    `field_text` of its value ("null" for null), None when the run lacks the field."""
    if not isinstance(obj, dict) or name not in obj:
        return None
    return field_text(obj[name]).casefold()


Filter = FieldTerm | tuple[str, str]
"""A `--filter` term as the engines take it: a FieldTerm, or (FIELD, VALUE) for `FIELD:VALUE`."""


def field_terms(filters: Sequence[Filter]) -> tuple[FieldTerm, ...]:
    return tuple(
        term if isinstance(term, FieldTerm) else FieldTerm(term[0], term[1].casefold(), False)
        for term in filters
    )


def run_filter(terms: Sequence[FieldTerm]) -> Callable[[Any], bool]:
    """Whether a run object passes every term, as the app's filter decides it."""
    tests = [(term.field, term.matcher()) for term in terms]
    return lambda obj: all(match(filter_text(obj, name)) for name, match in tests)


def parse_filters(text: str) -> tuple[FieldTerm, ...]:
    """`--filter` text for a dataset: `FIELD:VALUE`, `FIELD:=VALUE` or `FIELD:` terms (quotes
    allow spaces: `source:"a b"`), read as the app reads them. Raises ValueError for anything
    else (plain text, `is:` and `tag:`, which need a run file and its journal)."""
    terms = []
    for word in TERM.sub("", text).split():
        raise ValueError(
            f"'{word}': on a dataset, --filter takes FIELD:VALUE terms only (a top-level field "
            "containing VALUE, or FIELD:=VALUE for the whole value), as model:gpt-4o"
        )
    for match in TERM.finditer(text):
        name, exact, value = term_parts(match)
        if name in ("is", "tag"):
            raise ValueError(f"'{match.group(0)}': is: and tag: terms need a run file and its journal")
        terms.append(FieldTerm(name, value.casefold(), exact))
    return tuple(terms)


def filter_words(terms: Sequence[FieldTerm]) -> str:
    """Terms as filter text (as the journal records it): values case-folded, quoted when spaced."""
    words = []
    for term in terms:
        value = f'"{term.value}"' if any(char.isspace() for char in term.value) else term.value
        words.append(f"{term.field}:{'=' if term.exact else ''}{value}")
    return " ".join(words)


def stats_dict(
    counts: Mapping[str, int],
    lucky: int,
    invalid: int,
    missed: Iterable[tuple[str, int]],
    metrics: MetricMeans,
    top: int = 10,
) -> dict[str, Any]:
    """The dict `ragdiag-tui stats FILE --json --no-journal` prints, from an engine's counts:
    runs per stage, lucky answers, invalid runs, (document, runs) pairs of missed documents
    (at least the `top` most missed, ties by id), recall and precision means."""
    stats = Stats()
    for stage, count in counts.items():
        if count:
            stats.stages[stage] = count
    stats.runs = sum(stats.stages.values())
    stats.lucky, stats.invalid, stats.metrics = lucky, invalid, metrics
    stats.missed.update(dict(missed))
    out = stats.to_json()
    out["most_missed"] = [{"id": doc, "runs": n} for doc, n in stats.top_missed(top)]
    return out


@dataclass
class Tally:
    """Counts an engine gathers for `stats`, mergeable across parts of a dataset.

    The metric means are kept as counts of (numerator, denominator) pairs, so the mean
    is exactly what the local path's `math.fsum` gives, however the runs are split.
    """

    stages: Counter[str] = field(default_factory=Counter)
    lucky: int = 0
    invalid: int = 0
    missed: Counter[str] = field(default_factory=Counter)
    recall: Counter[tuple[int, int]] = field(default_factory=Counter)  # (found, |required|) -> runs
    precision: Counter[tuple[int, int]] = field(default_factory=Counter)  # (found, |context|) -> runs

    def add_run(self, stage: str, label: Any, missing: Iterable[str] | None, n_req: int, n_ctx: int,
                found: int, runs: int = 1) -> None:  # fmt: skip
        """`runs` valid runs alike: their stage, label, missing IDs and distinct-ID counts."""
        self.stages[stage] += runs
        if stage == "retrieval":
            self.lucky += runs if label is True else 0
            for doc in missing or ():
                self.missed[doc] += runs
        if n_req:
            self.recall[found, n_req] += runs
        if n_ctx:
            self.precision[found, n_ctx] += runs

    def merge(self, other: Tally) -> None:
        self.stages.update(other.stages)
        self.lucky += other.lucky
        self.invalid += other.invalid
        self.missed.update(other.missed)
        self.recall.update(other.recall)
        self.precision.update(other.precision)

    def to_json(self, top: int = 10) -> dict[str, Any]:
        return stats_dict(self.stages, self.lucky, self.invalid, self.missed.items(), self.means(), top)

    def means(self) -> MetricMeans:
        recall, recall_runs = _exact_mean(self.recall)
        precision, precision_runs = _exact_mean(self.precision)
        return MetricMeans(recall, precision, recall_runs, precision_runs)


def _exact_mean(pairs: Mapping[tuple[int, int], int]) -> tuple[float | None, int]:
    """`math.fsum(values) / len(values)` over the values found/total, each `runs` times:
    fsum is the exactly rounded sum, so summing exactly and rounding once is the same."""
    runs = sum(pairs.values())
    if not runs:
        return None, 0
    total = sum((Fraction(found / whole) * count for (found, whole), count in pairs.items()), Fraction(0))
    return float(total) / runs, runs


def grouped(group_by: str, all_stats: dict[str, Any], groups: Mapping[str | None, dict[str, Any]]) -> dict:
    """`stats --group-by`: every run's stats, and each group's, ordered by value (code points),
    runs without the field (value null) last."""
    ordered = sorted(groups.items(), key=lambda item: (item[0] is None, item[0] or ""))
    return {
        "group_by": group_by,
        "all": all_stats,
        "groups": [{"value": value, "stats": stats} for value, stats in ordered],
    }


@dataclass
class DiagnoseSummary:
    """What `diagnose` on a dataset wrote: runs per stage, lucky answers, invalid runs."""

    out: str
    stages: dict[str, int] = field(default_factory=dict)
    lucky: int = 0
    invalid: int = 0

    @property
    def runs(self) -> int:
        return sum(self.stages.values())

    def summary(self) -> str:
        stats = Stats(runs=self.runs, lucky=self.lucky, invalid=self.invalid)
        stats.stages.update(self.stages)
        return stats.summary()


@dataclass
class SampleSummary:
    """A sample drawn from a dataset: its population's size N, the drawn ids in draw order
    (ascending key; a stratified draw's as served), written to `out`."""

    view: str
    filters: Sequence[FieldTerm]
    seed: int
    population: int
    ids: tuple[str, ...]
    out: str
    invalid: int = 0  # invalid runs met in the dataset (never drawn)
    strata: Any = None  # a stratified draw: its core.review.records.Strata (`ids` served interleaved)

    @property
    def filter_text(self) -> str:
        """The filter as the journal records it: `FIELD:VALUE` terms."""
        return filter_words(self.filters)
