"""SourceStore: the runs of a dataset read in place, with the face of a `RunStore`.

The review (core.review) and the app read a store column by column and row by row
(`store.stage[row]`, `store.ids[row]`, `store.missing.get(row)`), and the app draws
only the rows on screen. A SourceStore answers the same reads from windows of rows
its `RowSource` fetches by position as they are asked for, keeping the last few
(WINDOWS of WINDOW rows): its memory is bounded by them, not by the runs. What a
review changes (a run's stage and missing IDs with the label in force) lies over the
source in maps as small as the review. The id of a run a journal names is found by
the source in one query for all of them (`resolve_ids`), and kept.

What needs every row (the stage counts, lucky answers, most-missed documents) comes
from the source's `tally`, which the app asks for in a worker; until then the store's
own counts are unknown (zero), and `in_place` tells the app what it cannot do here.
"""

from __future__ import annotations

from collections import Counter, OrderedDict
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from .loading import LoadError, Progress
from .mapping import FieldMap
from .metrics import NAN, id_metrics
from .row_source import RowSource, RowWindow, SourceTally
from .store import S_INVALID, RunStore

WINDOW = 512  # rows fetched at a time
WINDOWS = 16  # windows kept (8,192 rows: a few screenfuls either way, and the rows under review)
SLICE_LIMIT = WINDOW  # a slice of a column (the table's id widths) reads at most one window


class _Column:
    """One column of the store, read through its windows."""

    def __init__(self, store: SourceStore, name: str) -> None:
        self.store = store
        self.name = name

    def __len__(self) -> int:
        return len(self.store)

    def __getitem__(self, row: Any) -> Any:
        if isinstance(row, slice):  # only ever a few rows: never the population
            start, stop, _ = row.indices(len(self.store))
            return [self[at] for at in range(start, min(stop, start + SLICE_LIMIT))]
        if row < 0:
            row += len(self.store)
        window = self.store.window_of(row)
        return getattr(window, self.name)[row - window.start]

    def __iter__(self) -> Iterator[Any]:
        raise TypeError(f"a dataset's {self.name} column is read by position, never whole")


class _Stages(_Column):
    """The stage codes, with the review's re-diagnoses lying over the source's."""

    def __init__(self, store: SourceStore) -> None:
        super().__init__(store, "stage")
        self.changed: dict[int, int] = {}

    def __getitem__(self, row: Any) -> Any:
        if isinstance(row, int) and row in self.changed:
            return self.changed[row]
        return super().__getitem__(row)

    def __setitem__(self, row: int, code: int) -> None:
        self.changed[row] = code

    def count(self, code: int) -> int:
        """Unknown before the source is counted (`SourceStore.tally`): zero, as nothing is in yet."""
        return 0


class _Missing:
    """The missing IDs per row (a map's reads), the review's changes over the source's."""

    def __init__(self, store: SourceStore) -> None:
        self.store = store
        self.changed: dict[int, tuple[str, ...] | None] = {}  # None: no longer missing any
        self.before: dict[int, tuple[str, ...]] = {}  # the source's, kept as a row is first changed

    def get(self, row: int, default: Any = None) -> Any:
        if row in self.changed:
            value = self.changed[row]
            return default if value is None else value
        return self.store.window_of(row).missing.get(row, default)

    def __getitem__(self, row: int) -> tuple[str, ...]:
        value = self.get(row)
        if value is None:
            raise KeyError(row)
        return value

    def __contains__(self, row: object) -> bool:
        return isinstance(row, int) and self.get(row) is not None

    def __setitem__(self, row: int, ids: tuple[str, ...]) -> None:
        self._keep_before(row)
        self.changed[row] = ids

    def pop(self, row: int, default: Any = None) -> Any:
        value = self.get(row, default)
        self._keep_before(row)
        self.changed[row] = None
        return value

    def _keep_before(self, row: int) -> None:
        """The source's missing IDs of a row the review changes (its window is in hand: the
        review has just read the run), so no one reads it again to compare (`missing_changed`)."""
        if row not in self.before:
            self.before[row] = self.store.window_of(row).missing.get(row, ())

    def __iter__(self) -> Iterator[int]:
        """The rows the review changed that miss a document (the rest: the source's tally)."""
        return (row for row, ids in self.changed.items() if ids is not None)

    def values(self) -> Iterator[tuple[str, ...]]:
        return (ids for ids in self.changed.values() if ids is not None)


class _Errors:
    """The invalid rows' errors, read through the windows."""

    def __init__(self, store: SourceStore) -> None:
        self.store = store

    def get(self, row: int, default: Any = None) -> Any:
        return self.store.window_of(row).errors.get(row, default)

    def __getitem__(self, row: int) -> LoadError:
        return self.store.window_of(row).errors[row]

    def __contains__(self, row: object) -> bool:
        return isinstance(row, int) and 0 <= row < len(self.store) and row in self.store.window_of(row).errors


class _RowOf:
    """Run id -> position, for the runs a review names (found by the source, then kept)."""

    def __init__(self, store: SourceStore) -> None:
        self.store = store
        self.known: dict[str, int | None] = {}

    def resolve(self, ids: Iterable[str]) -> None:
        wanted = [run_id for run_id in dict.fromkeys(ids) if run_id not in self.known]
        if wanted:
            found = self.store.source.positions(wanted)
            self.known.update({run_id: found.get(run_id) for run_id in wanted})

    def get(self, run_id: str, default: Any = None) -> Any:
        self.resolve((run_id,))
        row = self.known[run_id]
        return default if row is None else row

    def __getitem__(self, run_id: str) -> int:
        row = self.get(run_id)
        if row is None:
            raise KeyError(run_id)
        return row

    def __contains__(self, run_id: object) -> bool:
        return isinstance(run_id, str) and self.get(run_id) is not None


class _Metric(_Column):
    """RAGAS's ID-based recall (0) or precision (1) of a row, worked out when first shown and
    kept for the rows of the windows kept (the table asks again at every redraw)."""

    def __init__(self, store: SourceStore, which: int) -> None:
        super().__init__(store, "metric")
        self.which = which

    def __getitem__(self, row: Any) -> Any:
        return self.store.metrics_of(row)[self.which]


class SourceStore:
    """The rows of a `RowSource`, read as a `RunStore` is (see the module's docstring)."""

    in_place = True
    """A dataset read in place: views, filters, sorts and whole-file figures are not the store's."""

    def __init__(
        self, source: RowSource, field_map: FieldMap | None = None, *, hold_named: bool = False
    ) -> None:
        self.source = source
        self.path = source.path
        self.field_map = field_map or None
        self.hold_named = hold_named
        """Keep each run a review names (`resolve_ids`: its journal's, its spot-checks') read on its
        own (`hold`): for a command that reads them again and again in the journal's order, then
        ends (stats, report, export DATASET). The app keeps its memory to its windows."""
        self._count = 0
        self._windows: OrderedDict[int, RowWindow] = OrderedDict()
        self._held: dict[int, RowWindow] = {}  # rows read on their own and kept (`hold`)
        self.ids = _Column(self, "ids")
        self.lines = _Column(self, "lines")
        self.file_label = _Column(self, "file_label")
        self.n_required = _Column(self, "n_required")
        self.n_context = _Column(self, "n_context")
        self.questions = _Column(self, "questions")
        self.files = _Column(self, "files")
        self.stage = _Stages(self)
        self.missing = _Missing(self)
        self.errors = _Errors(self)
        self.recall = _Metric(self, 0)
        self.precision = _Metric(self, 1)
        self.expected: dict[int, Any] = {}
        self._row_of = _RowOf(self)
        self._missed: list[tuple[str, int]] = []
        self._metrics: OrderedDict[int, tuple[float, float]] = OrderedDict()
        self.counted: SourceTally | None = None
        """The source's tally once `tally` ran (the files' own labels)."""

    def __len__(self) -> int:
        return self._count

    def read(self, progress: Progress | None = None, announce: Callable[[int], bool] | None = None) -> bool:
        """Learn how many rows the source holds (no row is read); `announce` as `RunStore.read` takes it."""
        self._count = self.source.count()
        return announce is None or announce(self._count)

    def window_of(self, row: int) -> RowWindow:
        """The window holding `row`, fetched if not kept (the oldest kept one then goes)."""
        held = self._held.get(row)
        if held is not None:
            return held
        start = row - row % WINDOW
        window = self._windows.get(start)
        if window is None:
            if not 0 <= row < self._count:
                raise IndexError(row)
            window = self._windows[start] = self.source.window(start, min(start + WINDOW, self._count))
            while len(self._windows) > WINDOWS:
                self._windows.popitem(last=False)
        else:
            self._windows.move_to_end(start)
        return window

    def hold(self, rows: Iterable[int]) -> None:
        """Read each of `rows` on its own, in the dataset's order, and keep it while the store
        lives: a few runs read again and again in no order (a report's spot-checks, each pass in
        sample order) are each read once, instead of a window of WINDOW rows for every read
        once the kept windows are spent."""
        for row in sorted(set(rows)):
            if row not in self._held and 0 <= row < self._count:
                self._held[row] = self.source.window(row, row + 1)

    @property
    def row_of(self) -> _RowOf:
        """The row of a valid run's id, asked of the source (see `resolve_ids`)."""
        return self._row_of

    def resolve_ids(self, ids: Iterable[str]) -> None:
        """Find the rows of many run ids at once (a journal's), so each is not one query."""
        ids = tuple(ids)
        self._row_of.resolve(ids)
        if self.hold_named:
            found = (self._row_of.known.get(run_id) for run_id in ids)
            self.hold(row for row in found if row is not None)

    def tally(self) -> SourceTally:
        """The source's stage counts over every row (slow: the app runs it in a worker)."""
        self.counted = self.source.tally()
        return self.counted

    def metrics_of(self, row: int) -> tuple[float, float]:
        """(recall, precision) of a row (NaN for an invalid one), kept for WINDOW * WINDOWS rows."""
        kept = self._metrics.get(row)
        if kept is None:
            if row in self.errors:
                kept = (NAN, NAN)
            else:
                fields = self.fields(row)
                kept = id_metrics(fields.required, fields.context)
            self._metrics[row] = kept
            if len(self._metrics) > WINDOW * WINDOWS:
                self._metrics.popitem(last=False)
        return kept

    def raw_text(self, row: int) -> bytes:
        window = self.window_of(row)
        return window.raw[row - window.start]

    def most_missed(self, top: int) -> list[tuple[str, int]]:
        """The `top` documents most runs miss, asked of the source (slow: in a worker), and kept."""
        self._missed = self.source.most_missed(top)
        return self._missed

    def missing_changed(self) -> list[tuple[tuple[str, ...], tuple[str, ...]]]:
        """The missing IDs of each run the review re-diagnosed, as the source has them and as they
        are now (empty: none), where they differ (`core.analysis.source_missed`)."""
        before = self.missing.before
        pairs = ((before[row], ids or ()) for row, ids in self.missing.changed.items())
        return [(old, now) for old, now in pairs if old != now]

    def missed_documents(self) -> Counter[str]:
        """The most-missed documents found so far (`most_missed`; empty until then)."""
        return Counter(dict(self._missed))

    # The run-by-run reads are RunStore's own, over these columns.
    raw = RunStore.raw
    run_object = RunStore.run_object
    fields = RunStore.fields
    diagnosis = RunStore.diagnosis

    def is_valid(self, row: int) -> bool:
        return self.stage[row] != S_INVALID
