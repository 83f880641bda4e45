"""`sample DATASET --engine duckdb --view V [--filter F:V] -n N|auto --seed S -o SAMPLE.jsonl`.

The sample is the n runs of the population with the smallest keys (engines.results:
sha256 of seed, US, run id), ascending; ties by (file, line). SQL computes the key with
DuckDB's sha256() and keeps the smallest in one pass (an aggregate holding n rows, no
sort of the population); the exact path's files do the same with hashlib. The drawn
runs are then read again, from their files only, and written in draw order, every
field kept; a run without an id is given one (`file:line`) under its id field's name.
"""

from __future__ import annotations

import heapq
from collections import defaultdict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...core.analysis.estimate import auto_size
from ...core.common.jsonutil import line_bytes
from ...core.runs.mapping import FieldMap
from ..dataset import Dataset
from ..results import SEPARATOR, SampleSummary, sample_key
from .connect import connect
from .pyrows import PyRun, file_id, json_lines, loose, read_runs
from .schema import literal, plan
from .sql import grouped_files, runs_sql

ONE_PASS_LIMIT = 1_000_000  # a larger draw is cut from the sorted population, in two passes
Candidate = tuple[str, str, int, str]  # (key, file, line, run id)


def in_view(view: str, stage: str, label: Any) -> bool:
    if view == "all":
        return True
    if view == "lucky":
        return stage == "retrieval" and label is True
    return stage == view


def _view_sql(view: str) -> str:
    if view == "all":
        return "stage <> 'invalid'"
    if view == "lucky":
        return "stage = 'retrieval' AND label"
    return f"stage = {literal(view)}"


def _size(n: int | str, population: int, margin: float) -> int:
    return auto_size(population, margin) if n == "auto" else min(int(n), population)


@dataclass
class _Draw:
    """What a draw asks for, and what it has counted so far."""

    view: str
    filters: Sequence[tuple[str, str]]
    n: int | str
    margin: float
    seed: int
    population: int = 0
    invalid: int = 0

    @property
    def fields(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(name for name, _ in self.filters))

    @property
    def cap(self) -> int:
        """Never more than this many runs are drawn, whatever the population."""
        return _size(self.n, 1 << 62, self.margin)

    def chosen(self, run: PyRun) -> bool:
        values = run.values
        return in_view(self.view, run.stage or "", run.label) and all(values[f] == v for f, v in self.filters)


def sample(
    ds: Dataset,
    mapping: FieldMap | None,
    *,
    view: str,
    filters: Sequence[tuple[str, str]],
    n: int | str,
    margin: float = 0.05,
    seed: int,
    out: Path,
) -> SampleSummary:
    draw = _Draw(view, filters, n, margin, seed)
    plans = plan(ds.files, mapping, draw.fields) if ds.format == "parquet" else [None] * len(ds.files)
    candidates: list[Candidate] = []
    exact = [path for path, fields_sql in zip(ds.files, plans, strict=True) if fields_sql is None]
    if exact:
        runs = _exact_population(ds, exact, mapping, draw)
        candidates = heapq.nsmallest(draw.cap, runs) if draw.cap <= ONE_PASS_LIMIT else sorted(runs)
    groups = grouped_files(ds.files, plans)
    if groups:
        with connect() as con:
            candidates += _sql_candidates(con, runs_sql(ds, groups, len(draw.fields)), draw)
    candidates.sort()
    drawn = candidates[: _size(n, draw.population, margin)]
    _write(ds, mapping, drawn, Path(out))
    ids = tuple(run_id for _, _, _, run_id in drawn)
    return SampleSummary(view, tuple(filters), seed, draw.population, ids, str(out), draw.invalid)


def _exact_population(
    ds: Dataset, files: Sequence[Path], mapping: FieldMap | None, draw: _Draw
) -> Iterator[Candidate]:
    for path in files:
        name = ds.relative(path)
        for run in read_runs(path, name, ds.format, mapping, draw.fields):
            if run.error is not None:
                draw.invalid += 1
            elif draw.chosen(run):
                draw.population += 1
                yield sample_key(draw.seed, run.id or ""), name, run.line, run.id or ""


def _sql_candidates(con: Any, runs: str, draw: _Draw) -> list[Candidate]:
    fields, cap = draw.fields, draw.cap
    terms = [f"v{fields.index(f)} = {literal(v)}" for f, v in draw.filters]
    chosen = " AND ".join([_view_sql(draw.view), *terms])
    prefix = literal(f"{draw.seed}{SEPARATOR}")
    keyed = f"SELECT sha256({prefix} || rid) AS k, f, line, rid, stage, {chosen} AS chosen FROM ({runs})"
    if cap <= ONE_PASS_LIMIT:
        query = (
            "SELECT count(*) FILTER (WHERE chosen), count(*) FILTER (WHERE stage = 'invalid'), "
            "min_by(struct_pack(k, f, line, rid), struct_pack(k, f, line), "
            f"{max(cap, 1)}) FILTER (WHERE chosen) "
            f"FROM ({keyed})"
        )
        population, invalid, smallest = con.execute(query).fetchone()
    else:
        query = (
            "SELECT count(*) FILTER (WHERE chosen), count(*) FILTER (WHERE stage = 'invalid') FROM ({keyed})"
        )
        population, invalid = con.execute(query.format(keyed=keyed)).fetchone()
        size = _size(draw.n, population + draw.population, draw.margin)
        smallest = con.execute(
            f"SELECT k, f, line, rid FROM ({keyed}) WHERE chosen ORDER BY k, f, line LIMIT {size}"
        ).fetchall()
    draw.population += population
    draw.invalid += invalid
    return [tuple(item.values()) if isinstance(item, dict) else tuple(item) for item in smallest or ()]


def _write(ds: Dataset, mapping: FieldMap | None, drawn: Sequence[Candidate], out: Path) -> None:
    """The drawn runs, every field kept, in draw order, as a JSON Lines run file."""
    wanted: defaultdict[str, dict[int, str]] = defaultdict(dict)
    for _, name, line, run_id in drawn:
        wanted[name][line] = run_id
    lines: dict[tuple[str, int], bytes] = {}
    for path in ds.files:
        name = ds.relative(path)
        if name in wanted:
            rows = _jsonl_rows if ds.format == "jsonl" else _parquet_rows
            for line, obj, raw in rows(path, set(wanted[name])):
                lines[name, line] = _run_line(obj, raw, wanted[name][line], mapping)
    with open(out, "wb") as handle:
        for _, name, line, _ in drawn:
            handle.write(lines[name, line] + b"\n")


def _run_line(obj: Any, raw: bytes | None, run_id: str, mapping: FieldMap | None) -> bytes:
    """A drawn run's line: as it was written, or with the id it is known by when it has none."""
    if obj is None:
        obj = loose(raw or b"")
        if file_id(obj, mapping) is not None:
            return (raw or b"").rstrip(b"\r")
    elif file_id(obj, mapping) is not None:
        return line_bytes(obj)
    obj = dict(obj)
    obj[(mapping or FieldMap()).source("id")] = run_id
    return line_bytes(obj)


def _jsonl_rows(path: Path, lines: set[int]) -> Iterator[tuple[int, Any, bytes]]:
    for line, raw in json_lines(path):
        if line in lines:
            yield line, None, raw


def _parquet_rows(path: Path, rows: set[int]) -> Iterator[tuple[int, Any, bytes | None]]:
    import pyarrow.parquet as pq

    from ...core.runs.parquet_runs import json_columns_of, plain_row

    parquet = pq.ParquetFile(path)
    as_json = json_columns_of(parquet.schema_arrow)
    start = 0
    for group in range(parquet.num_row_groups):
        size = parquet.metadata.row_group(group).num_rows
        inside = sorted(row - 1 - start for row in rows if start < row <= start + size)
        if inside:
            table = parquet.read_row_group(group).take(inside)
            for index, row in zip(inside, table.to_pylist(), strict=True):
                yield start + index + 1, plain_row(row, as_json), None
        start += size
