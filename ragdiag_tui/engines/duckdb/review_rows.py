"""A dataset's rows by position, for the review app (`core.runs.row_source.RowSource`).

A run's position is stable: the dataset's files in order, then the run's row (Parquet)
or record (JSON Lines, blank lines not counted) within its file. The app asks for a
window of positions as the table scrolls; each file's rows in it are read where they
are (a Parquet file's row groups that hold them; a JSON Lines file from the nearest
checkpoint, one kept every CHECKPOINT records) and decided by the exact path
(`pyrows.runs_of`, the local loader): each row is the run the same file gives in a
single-file review, its text included, so a journal's digests agree. What needs every
run (the stage counts, lucky answers and most-missed documents; the positions of the
runs a journal names) is asked of DuckDB, as `stats DATASET` does.
The counts' scan may start as the command does (`count_ahead`), before the app is up.
"""

from __future__ import annotations

import contextlib
import heapq
import threading
from array import array
from bisect import bisect_right
from collections import Counter
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from ...core.analysis.source_sorting import SourceOrder, SourceSort
from ...core.analysis.source_views import SourceQuery
from ...core.runs import parquet_runs
from ...core.runs.mapping import FieldMap
from ...core.runs.row_source import RowWindow, SourceTally
from ...core.runs.stages import STAGE_CODE, STAGES
from ...core.runs.store import L_FALSE, L_NONE, L_TRUE, S_INVALID
from ..dataset import Dataset
from ..results import EngineError
from .pyrows import PyRun, runs_of
from .review_codes import StageCodes
from .review_draws import DatasetDraws
from .review_filter import exact_positions, fields_of, file_has_field, filter_plans, sql_positions
from .review_ids import DocumentIds
from .review_order import (
    CODES_KEYS,
    answer,
    exact_pairs,
    files_order,
    order_sql,
    question_plans,
    wanted_table,
)
from .review_positions import sql_positions_of
from .review_report import ReportFacts
from .schema import literal, plan
from .sql import fields_sql, grouped_files, runs_sql
from .stats import exact_tallies

CHECKPOINT = 1024  # JSON Lines records between two kept (byte offset, line) places
MOST_MISSED = 10
_JSON_WHITESPACE = b" \t\n\r"


class _JsonLinesFile:
    """A JSON Lines file's records by index: a checkpoint every CHECKPOINT records."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.offsets = array("Q")  # the byte where checkpoint k's line begins
        self.lines = array("Q")  # that line's 1-based number
        self.count = 0
        self._index()

    def _lines(self, offset: int = 0, line: int = 0) -> Iterator[tuple[int, int, bytes]]:
        """(byte offset, 1-based line, bytes) of each line from `offset`, split as the loader splits."""
        with open(self.path, "rb") as handle:
            handle.seek(offset)
            pending = b""
            if offset == 0:
                head = handle.read(3)
                offset = 3 if head == b"\xef\xbb\xbf" else 0
                pending = b"" if offset else head
            at = offset
            while True:
                chunk = handle.read(1 << 20)
                data = pending + chunk
                pieces = data.split(b"\n")
                pending = pieces.pop() if chunk else b""
                for raw in pieces:
                    line += 1
                    yield at, line, raw
                    at += len(raw) + 1
                if not chunk:
                    return

    def _index(self) -> None:
        count = 0
        for at, line, raw in self._lines():
            if not raw.strip(_JSON_WHITESPACE):
                continue
            if count % CHECKPOINT == 0:
                self.offsets.append(at)
                self.lines.append(line - 1)
            count += 1
        self.count = count

    def records(self, start: int, stop: int) -> Iterator[tuple[int, bytes]]:
        """(line, bytes) of records `start` to `stop` (0-based, blank lines not counted)."""
        mark = start // CHECKPOINT
        index = mark * CHECKPOINT
        for _at, line, raw in self._lines(self.offsets[mark], self.lines[mark]):
            if not raw.strip(_JSON_WHITESPACE):
                continue
            if index >= stop:
                return
            if index >= start:
                yield line, raw
            index += 1


class _ParquetFile:
    """A Parquet file's rows by index, through the row groups that hold them (the last kept)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.problem: str | None = None
        self.starts = [0]
        try:
            import pyarrow.parquet as pq

            self.file = pq.ParquetFile(path)
            meta = self.file.metadata
            for group in range(meta.num_row_groups):
                self.starts.append(self.starts[-1] + meta.row_group(group).num_rows)
            self.json_columns = parquet_runs.json_columns_of(self.file.schema_arrow)
        except Exception as exc:  # any unreadable file is one invalid row, as locally
            self.problem = f"not a readable Parquet file ({exc})"
            self.starts = [0, 1]
        self.count = self.starts[-1]
        self._kept: tuple[int, Any] | None = None

    def _group(self, group: int) -> Any:
        if self._kept is None or self._kept[0] != group:
            self._kept = (group, self.file.read_row_group(group))
        return self._kept[1]

    def records(self, start: int, stop: int) -> Iterator[tuple[Any, ...]]:
        """(row, object, bytes) of rows `start` to `stop`, as `parquet_runs.read_rows` gives them."""
        if self.problem is not None:
            yield 1, self.problem, b""
            return
        group = bisect_right(self.starts, start) - 1
        row = start
        while row < stop and group < len(self.starts) - 1:
            try:
                table = self._group(group)
            except Exception as exc:  # the rest of the file cannot be read, as locally
                yield row + 1, f"the Parquet data cannot be read from here on ({exc})", b""
                return
            first = row - self.starts[group]
            last = min(stop, self.starts[group + 1]) - self.starts[group]
            for obj in table.slice(first, last - first).to_pylist():
                row += 1
                obj = parquet_runs.plain_row(obj, self.json_columns)
                yield row, obj, parquet_runs.dump_row(obj)
            group += 1


class DatasetRows(ReportFacts, DatasetDraws):
    """The `RowSource` of a dataset (see the module's docstring)."""

    def __init__(self, ds: Dataset, field_map: FieldMap | None = None) -> None:
        self.ds = ds
        self.field_map = field_map
        self._files: list[_JsonLinesFile | _ParquetFile] | None = None
        self._starts: list[int] = [0]
        self._lock = threading.Lock()
        self._stage_codes: StageCodes | None = None
        self._ids = DocumentIds()  # the runs' document IDs, found after the counts (review_ids.py)
        self._fields: dict[str, bool] = {}  # has_field's answers
        self._tally: SourceTally | None = None
        self._closed = False
        self._tally_lock = threading.Lock()

    @property
    def name(self) -> str:
        return self.ds.root.name or str(self.ds.root)

    @property
    def path(self) -> str:
        return str(self.ds.root)

    def count(self) -> int:
        with self._lock:
            if self._files is None:
                kind = _JsonLinesFile if self.ds.format == "jsonl" else _ParquetFile
                files = [kind(path) for path in self.ds.files]
                for file in files:
                    self._starts.append(self._starts[-1] + file.count)
                self._files = files
        return self._starts[-1]

    def window(self, start: int, stop: int) -> RowWindow:
        self.count()
        assert self._files is not None
        window = RowWindow(start)
        at = bisect_right(self._starts, start) - 1
        with self._lock:
            while start < stop and at < len(self._files):
                file, base = self._files[at], self._starts[at]
                end = min(stop, self._starts[at + 1])
                name = self.ds.relative(file.path)
                records = file.records(start - base, end - base)
                for run in runs_of(records, name, self.ds.format, self.field_map):
                    _add(window, run, name)
                start, at = end, at + 1
        return window

    def positions(self, ids: Iterable[str]) -> dict[str, int]:
        wanted = list(dict.fromkeys(ids))
        found: dict[str, int] = {}
        if not wanted:
            return found
        self.count()
        plans = self._plans()
        number = {path: index for index, path in enumerate(self.ds.files)}
        named = set(wanted)
        with self._lock:
            for path, sql_plan in zip(self.ds.files, plans, strict=True):
                if sql_plan is None:
                    self._exact_positions(number[path], named, found)
        for run_id, at in sql_positions_of(self.ds, plans, self._starts, wanted, self.window).items():
            _keep_first(found, run_id, at)
        return found

    def _exact_positions(self, at: int, named: set[str], found: dict[str, int]) -> None:
        assert self._files is not None
        file = self._files[at]
        name = self.ds.relative(file.path)
        for index, run in enumerate(
            runs_of(file.records(0, file.count), name, self.ds.format, self.field_map)
        ):
            if run.error is None and run.id in named:
                _keep_first(found, run.id, self._starts[at] + index)

    def view_positions(self, view: str) -> array[int]:
        self.count()
        found = array("q")
        with self._lock:
            for at, sql_plan in enumerate(self._plans()):
                if sql_plan is None:
                    self._exact_view(at, view, found)
        codes = self._codes()
        if codes is None:
            return found
        from_sql = codes.view(view)
        return array("q", heapq.merge(found, from_sql)) if found else from_sql

    def close(self) -> None:
        """The app has quit: the counts' scan under way is stopped, and none starts after (a
        worker still waiting for it ends at once instead of holding the command's exit)."""
        with self._lock:
            self._closed = True
            codes = self._stage_codes
        self._ids.close()
        if codes is not None:
            codes.close()

    def _codes(self) -> StageCodes | None:
        """The SQL-readable files' runs' stages, a byte each (review_codes.py); None without such files."""
        with self._lock:
            if self._closed:
                raise EngineError("the review of the dataset has ended")
            if self._stage_codes is None:
                groups = grouped_files(self.ds.files, self._plans())
                if not groups:
                    return None
                self._stage_codes = StageCodes(
                    runs_sql(self.ds, groups, 0), self._starts_sql(), self._starts[-1]
                )
            return self._stage_codes

    def _plans(self) -> list[Any]:
        """Each file's SQL (None: the exact path's)."""
        if self.ds.format != "parquet":
            return [None] * len(self.ds.files)
        return plan(self.ds.files, self.field_map, ())

    def has_field(self, name: str) -> bool:
        known = self._fields.get(name)
        if known is None:
            known = self._fields[name] = any(
                file_has_field(path, self.ds.format, name) for path in self.ds.files
            )
        return known

    def filter_positions(self, query: SourceQuery) -> array[int]:
        """The runs a filter finds (review_filter.py): the exact path's files, then SQL's, merged."""
        self.count()
        assert self._files is not None
        plans = filter_plans(self.ds.files, self.field_map, query)
        found = array("q")
        with self._lock:
            for at, sql_plan in enumerate(plans):
                if sql_plan is None:
                    file = self._files[at]
                    name = self.ds.relative(file.path)
                    runs = runs_of(
                        file.records(0, file.count), name, self.ds.format, self.field_map,
                        fields_of(query), filtering=True,
                    )  # fmt: skip
                    exact_positions(runs, self._starts[at], query, found)
        from_sql = sql_positions(self.ds, plans, self._starts_sql(), query, self._ids, self.field_map)
        return array("q", heapq.merge(found, from_sql)) if found and from_sql else found or from_sql

    def order_positions(self, request: SourceSort) -> SourceOrder:
        """The runs a sort orders (review_order.py): the kept codes' or the files' SQL, and the
        exact path's files keyed run by run."""
        self.count()
        assert self._files is not None
        column = request.column
        plans = self._plans()
        if column == "question" and self.ds.format == "parquet":
            plans = question_plans(self.ds.files, self.field_map)
        pairs: list[tuple[Any, int]] = []
        with self._lock:
            for at, sql_plan in enumerate(plans):
                if sql_plan is None:
                    file = self._files[at]
                    name = self.ds.relative(file.path)
                    runs = runs_of(file.records(0, file.count), name, self.ds.format, self.field_map)
                    exact_pairs(runs, self._starts[at], request, pairs)
        groups = grouped_files(self.ds.files, plans)
        table = None
        if groups and column in CODES_KEYS:
            codes = self._codes()
            assert codes is not None
            table = codes.query(order_sql(request), wanted_table(request))
        elif groups:
            scan = runs_sql(self.ds, groups, int(column == "question"))
            table = files_order(request, scan, self._starts_sql())
        return answer(request, table, pairs)

    def _starts_sql(self) -> str:
        """Each file's name and first position, as SQL VALUES."""
        files = enumerate(self.ds.files)
        return ", ".join(f"({literal(self.ds.relative(path))}, {self._starts[at]})" for at, path in files)

    def _exact_view(self, at: int, view: str, found: array[int]) -> None:
        assert self._files is not None
        file = self._files[at]
        name = self.ds.relative(file.path)
        for index, run in enumerate(
            runs_of(file.records(0, file.count), name, self.ds.format, self.field_map)
        ):
            if run.error is None and (
                run.stage == view or (view == "lucky" and run.stage == "retrieval" and run.label is True)
            ):
                found.append(self._starts[at] + index)

    def count_ahead(self) -> None:
        """Start counting now, in a thread of its own (the app starts meanwhile); `tally` then
        waits for it instead of counting again. A failure here is `tally`'s to tell. The runs'
        document IDs are found next, for the text filter (review_ids.py)."""

        def count() -> None:
            with contextlib.suppress(Exception):
                self.tally()
                self.find_ids()

        threading.Thread(target=count, name="count-ahead", daemon=True).start()

    def find_ids(self) -> None:
        """Find the document IDs of the runs SQL reads (once), for the text filter."""
        groups = grouped_files(self.ds.files, self._plans())
        if groups:
            self._ids.build(fields_sql(self.ds, groups), groups)

    def tally(self) -> SourceTally:
        """The counts by the stage codes kept (once: the files' own labels), and by the exact
        path's files (read again)."""
        with self._tally_lock:
            if self._tally is None:
                self._tally = self._counted()
            return self._tally

    def _counted(self) -> SourceTally:
        self.count()
        counts = [0] * len(STAGES)
        lucky = 0
        exact = [
            path for path, sql_plan in zip(self.ds.files, self._plans(), strict=True) if sql_plan is None
        ]
        for path in exact:
            tally = exact_tallies(path, self.ds, self.field_map, None).get(None)
            if tally is not None:
                for stage, runs in tally.stages.items():
                    counts[STAGE_CODE[stage]] += runs
                counts[S_INVALID] += tally.invalid
                lucky += tally.lucky
        codes = self._codes()
        if codes is not None:
            by_code, sql_lucky = codes.counts()
            for code, runs in by_code.items():
                counts[code] += runs
            lucky += sql_lucky
        return SourceTally(counts, lucky, [])

    def most_missed(self, top: int = MOST_MISSED) -> list[tuple[str, int]]:
        """The documents most runs miss, most first: the exact path's files read again, the
        rest from the runs' missing IDs kept in DuckDB."""
        missed: Counter[str] = Counter()
        for path, sql_plan in zip(self.ds.files, self._plans(), strict=True):
            if sql_plan is None:
                for tally in exact_tallies(path, self.ds, self.field_map, None).values():
                    missed.update(tally.missed)
        codes = self._codes()
        if codes is not None:
            if not missed:
                return codes.most_missed(top)
            missed.update(dict(codes.most_missed(len(self.ds.files) * top * 100)))
        return sorted(missed.items(), key=lambda item: (-item[1], item[0]))[:top]

    def missed_counts(self, docs: Iterable[str]) -> dict[str, int]:
        """How many runs miss each of `docs` (by the files' own labels; none: left out): the exact
        path's files read again, the rest from the missing IDs kept in DuckDB."""
        wanted = list(dict.fromkeys(docs))
        counts: Counter[str] = Counter()
        if not wanted:
            return {}
        named = set(wanted)
        for path, sql_plan in zip(self.ds.files, self._plans(), strict=True):
            if sql_plan is None:
                for tally in exact_tallies(path, self.ds, self.field_map, None).values():
                    counts.update({doc: runs for doc, runs in tally.missed.items() if doc in named})
        codes = self._codes()
        if codes is not None:
            counts.update(codes.missed_counts(wanted))
        return dict(counts)


def _keep_first(found: dict[str, int], run_id: str, position: int) -> None:
    if run_id not in found or position < found[run_id]:
        found[run_id] = position


def _add(window: RowWindow, run: PyRun, name: str) -> None:
    """One run (or invalid row) as the window's last row, as a RunStore would hold it."""
    row = window.stop
    window.lines.append(run.line)
    window.files.append(name)
    if run.error is not None:
        window.ids.append(run.error.id or "")
        window.stage.append(S_INVALID)
        window.file_label.append(L_NONE)
        window.n_required.append(0)
        window.n_context.append(0)
        window.questions.append("")
        window.errors[row] = run.error
        window.raw.append(b"")
        return
    label = run.label
    window.ids.append(run.id or "")
    window.stage.append(STAGE_CODE[run.stage or ""])
    window.file_label.append(L_TRUE if label is True else L_FALSE if label is False else L_NONE)
    window.n_required.append(len(run.required or ()))
    window.n_context.append(len(run.context or ()))
    window.questions.append(run.question or "")
    if run.missing:
        window.missing[row] = tuple(run.missing)
    raw = run.raw
    window.raw.append(raw[:-1] if raw.endswith(b"\r") else raw)
