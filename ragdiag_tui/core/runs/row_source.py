"""A source of rows by position: what the review needs of runs it does not hold.

The review app holds a run file whole, in a `RunStore`. A dataset (a folder of Parquet
or JSON Lines files, ten million runs) is read in place instead: an engine answers, for
a span of positions, the rows in it (a `RowWindow`), and for the whole dataset the
figures that need every row (`SourceTally`). Positions are stable: file order, then
row. The engine's implementation lives above the core (`engines.duckdb.review_rows`)
and is handed to the app by the command line; the core and the UI know only this
protocol, and `source_store.SourceStore`, which reads through it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from .loading import LoadError


@dataclass(slots=True)
class RowWindow:
    """The rows `start` to `start + len(ids)` of a source, column by column, as a
    `RunStore` holds them: the run's id in the dataset, its line (row) in its file,
    the stage code, the file's label code (`store.L_*`), the counts of required and
    supplied IDs, the question, and per row (absolute position) the missing IDs,
    the error of an invalid row and the run's text."""

    start: int
    ids: list[str] = field(default_factory=list)
    lines: list[int] = field(default_factory=list)
    stage: bytearray = field(default_factory=bytearray)
    file_label: bytearray = field(default_factory=bytearray)
    n_required: list[int] = field(default_factory=list)
    n_context: list[int] = field(default_factory=list)
    questions: list[str] = field(default_factory=list)
    files: list[str] = field(default_factory=list)
    missing: dict[int, tuple[str, ...]] = field(default_factory=dict)
    errors: dict[int, LoadError] = field(default_factory=dict)
    raw: list[bytes] = field(default_factory=list)

    @property
    def stop(self) -> int:
        return self.start + len(self.ids)


@dataclass(frozen=True, slots=True)
class SourceTally:
    """The figures over every row of a source, with the files' own labels: runs per stage
    code, lucky answers, and the most-missed documents (id, runs), most first."""

    counts: list[int]
    lucky: int
    most_missed: list[tuple[str, int]]


class RowSource(Protocol):
    """Rows by position, read in place by an engine (see the module's docstring)."""

    @property
    def name(self) -> str:
        """What the app calls the source (the dataset's folder)."""
        ...

    @property
    def path(self) -> str:
        """Where the source is: the review journal lives beside it (`PATH.review.jsonl`)."""
        ...

    def count(self) -> int:
        """How many rows the source holds (known before any row is read: the app's first screenful)."""
        ...

    def window(self, start: int, stop: int) -> RowWindow:
        """The rows from `start` to `stop` (fewer at the end)."""
        ...

    def positions(self, ids: Iterable[str]) -> dict[str, int]:
        """The position of each of `ids` that names a valid run (the first, if repeated)."""
        ...

    def view_positions(self, view: str) -> Sequence[int]:
        """The positions of the runs in a stage view (a stage's name, or "lucky"), by the files'
        own labels, in order (slow: every run is read)."""
        ...

    def tally(self) -> SourceTally:
        """The stage counts and lucky answers over every row (slow; its most-missed may be empty)."""
        ...

    def most_missed(self, top: int) -> list[tuple[str, int]]:
        """The `top` documents most runs miss (id, runs), most first (slow: every run is read)."""
        ...

    def missed_counts(self, docs: Iterable[str]) -> dict[str, int]:
        """How many runs miss each of `docs`, by the files' own labels (a document none misses is
        left out; slow: every run is read)."""
        ...

    def has_field(self, name: str) -> bool:
        """Whether some run of the source has the top-level field `name` (a filter's term)."""
        ...

    def filter_positions(self, query: Any) -> Sequence[int]:
        """The positions of the runs a `source_views.SourceQuery` finds, in order (slow: every
        run is read)."""
        ...

    def order_positions(self, request: Any) -> Any:
        """The positions a `source_sorting.SourceSort` orders, in its order, as a
        `source_sorting.SourceOrder` (slow: every run is read)."""
        ...

    def reopened(self) -> RowSource:
        """The same rows through a source of their own (its own engine connection and caches),
        for work in another thread while this one serves the screen (the statistics' report)."""
        ...

    def reviewed_stats(self, review: Any, top: int) -> dict[str, Any]:
        """What `stats DATASET --json` prints with `review` applied (a review of this source read
        in place), its `top` most-missed documents listed (slow: every run is read)."""
        ...

    def footprint(self) -> tuple[int, int]:
        """The bytes of the source's files, and how many files there are (a report's header)."""
        ...
