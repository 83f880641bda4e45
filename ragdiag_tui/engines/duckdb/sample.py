"""`sample DATASET --engine duckdb --view V [--filter TERMS] -n N|auto --seed S -o SAMPLE.jsonl`.

The sample is the n runs of the population with the smallest keys (engines.results:
sha256 of seed, US, run id), ascending; ties by (file, line). SQL computes the key with
DuckDB's sha256() and keeps the n smallest, with their whole rows, in one pass (an
aggregate holding n rows: no sort of the population, no second reading of the files);
the exact path's files do the same with hashlib, keeping each candidate's line. The
drawn runs are written in draw order, every field kept; a run without an id is given
one (`file:line`) under its id field's name, so the sample file names it as the
dataset does.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

from ...core.analysis.filtering import FieldTerm, exact_texts
from ...core.common.atomic import open_output
from ...core.common.jsonutil import line_bytes
from ...core.runs.mapping import FieldMap
from ...core.runs.parquet_runs import plain_row
from ..dataset import Dataset
from ..records import file_id
from ..results import (
    MANY_RUNS,
    SEPARATOR,
    Filter,
    SampleSummary,
    check_draw,
    draw_size,
    field_terms,
    in_view,
    sample_key,
)
from .connect import connect
from .pyrows import PyRun, loose, read_runs
from .schema import FieldSql, literal, plan
from .sql import grouped_files, runs_sql

ONE_PASS_LIMIT = 1_000_000  # a larger draw counts first, then takes the smallest keys in a second pass
VIRTUAL = ("filename", "file_row_number")  # DuckDB's columns naming a row's file and row
Candidate = tuple[str, str, int, str, Any]  # (key, file, line, run id, its raw line or row object)


def _view_sql(view: str) -> str:
    if view == "all":
        return "stage <> 'invalid'"
    if view == "lucky":
        return "stage = 'retrieval' AND label"
    return f"stage = {literal(view)}"


@dataclass
class Draw:
    """What a draw asks for, and what it has counted so far."""

    view: str
    filters: tuple[FieldTerm, ...]
    n: int | str
    margin: float
    seed: int
    population: int = 0
    invalid: int = 0

    @property
    def fields(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(term.field for term in self.filters))

    @cached_property
    def matchers(self) -> list[tuple[str, Callable[[str | None], bool]]]:
        return [(term.field, term.matcher()) for term in self.filters]

    @property
    def cap(self) -> int:
        """Never more than this many runs are drawn, whatever the population."""
        return draw_size(self.n, MANY_RUNS, self.margin)

    def chosen(self, run: PyRun) -> bool:
        values = run.values
        return in_view(self.view, run.stage or "", run.label) and all(
            match(values[name]) for name, match in self.matchers
        )

    def where(self) -> str:
        fields = self.fields
        terms = [term_sql(term, f"v{fields.index(term.field)}") for term in self.filters]
        return " AND ".join([_view_sql(self.view), *terms])


def folded_sql(column: str) -> str:
    """`column`'s text case-folded as Python folds it: SQL's lower() where the text is ASCII
    (where the two agree), the connection's `casefold` on the other texts."""
    return f"(CASE WHEN strlen({column}) = length({column}) THEN lower({column}) ELSE casefold({column}) END)"


def term_sql(term: FieldTerm, column: str) -> str:
    """`FieldTerm.matcher` in SQL, over a field's text (`plan(..., filtering=True)`: NULL
    when absent, 'null' when null). Case folding is Python's: SQL's lower() where the text
    is ASCII (where the two agree), the connection's `casefold` on the other texts."""
    if not term.exact and not term.value:
        return f"{column} IS NOT NULL"
    folded = folded_sql(column)
    if term.exact:
        return f"{folded} IN ({', '.join(literal(text) for text in sorted(exact_texts(term.value)))})"
    return f"contains({folded}, {literal(term.value)})"


def sample(
    ds: Dataset,
    mapping: FieldMap | None,
    *,
    view: str,
    filters: Sequence[Filter],
    n: int | str,
    margin: float = 0.05,
    seed: int,
    out: Path,
) -> SampleSummary:
    draw, drawn = draw_runs(ds, mapping, view=view, filters=filters, n=n, margin=margin, seed=seed)
    with open_output(out) as handle:
        for _, _, _, run_id, payload in drawn:
            handle.write(run_line(payload, run_id, mapping) + b"\n")
    ids = tuple(run_id for _, _, _, run_id, _ in drawn)
    return SampleSummary(view, draw.filters, seed, draw.population, ids, str(out), draw.invalid)


def draw_runs(
    ds: Dataset,
    mapping: FieldMap | None,
    *,
    view: str,
    filters: Sequence[Filter],
    n: int | str,
    margin: float = 0.05,
    seed: int,
) -> tuple[Draw, list[Candidate]]:
    """The draw `sample` writes (see the module's docstring): what it counted, and the drawn
    candidates in draw order (the app's `D` over a dataset records their ids)."""
    check_draw(view, n)
    draw = Draw(view, field_terms(filters), n, margin, seed)
    plans = (
        plan(ds.files, mapping, draw.fields, filtering=True, whole_row=True)
        if ds.format == "parquet"
        else [None] * len(ds.files)
    )
    candidates: list[Candidate] = []
    exact = [path for path, fields_sql in zip(ds.files, plans, strict=True) if fields_sql is None]
    for population, invalid, smallest in (exact_candidates(path, ds, mapping, draw) for path in exact):
        draw.population += population
        draw.invalid += invalid
        candidates += smallest
    groups = grouped_files(ds.files, plans)
    if groups:
        with connect() as con:
            candidates += _sql_candidates(con, ds, groups, draw)
    candidates.sort()
    return draw, candidates[: draw_size(n, draw.population, margin)]


def exact_candidates(
    path: Path, ds: Dataset, mapping: FieldMap | None, draw: Draw
) -> tuple[int, int, list[Candidate]]:
    """One file by the exact path: (population, invalid runs, its candidates: the `cap`
    smallest keys, or all the population's beyond ONE_PASS_LIMIT)."""
    counts = [0, 0]

    def population() -> Iterator[Candidate]:
        name = ds.relative(path)
        for run in read_runs(path, name, ds.format, mapping, draw.fields, filtering=True):
            if run.error is not None:
                counts[1] += 1
            elif draw.chosen(run):
                counts[0] += 1
                run_id = run.id or ""
                yield sample_key(draw.seed, run_id), name, run.line, run_id, run.raw

    cap = draw.cap
    smallest = heapq.nsmallest(cap, population()) if cap <= ONE_PASS_LIMIT else list(population())
    return counts[0], counts[1], smallest


def _sql_candidates(con: Any, ds: Dataset, groups: list[tuple[FieldSql, list[Path]]], draw: Draw) -> list:
    """The smallest keys of each group of files read alike (each group's rows share a schema)."""
    prefix = literal(f"{draw.seed}{SEPARATOR}")
    queries = []
    for group in groups:
        runs = runs_sql(ds, [group], len(draw.fields), whole_run=True)
        queries.append(
            # The key and the row only for the population: sha256 and the row's struct cost.
            f"SELECT CASE WHEN chosen THEN sha256({prefix} || rid) END AS k, f, line, rid, "
            f"CASE WHEN chosen THEN __run END AS __run, stage, chosen "
            f"FROM (SELECT *, {draw.where()} AS chosen FROM ({runs}))"
        )
    if draw.cap <= ONE_PASS_LIMIT:
        return [item for keyed in queries for item in _smallest(con, keyed, draw, draw.cap)]
    counts = [con.execute(_COUNT.format(keyed=keyed)).fetchall()[0] for keyed in queries]
    draw.population += sum(population for population, _ in counts)
    draw.invalid += sum(invalid for _, invalid in counts)
    size = draw_size(draw.n, draw.population, draw.margin)
    return [item for keyed in queries for item in _smallest(con, keyed, None, size)]


_COUNT = "SELECT count(*) FILTER (WHERE chosen), count(*) FILTER (WHERE stage = 'invalid') FROM ({keyed})"
_ONE_PASS = (
    "SELECT count(*) FILTER (WHERE chosen), count(*) FILTER (WHERE stage = 'invalid'), "
    "min_by(struct_pack(k, f, line, rid, __run), struct_pack(k, f, line), {cap}) FILTER (WHERE chosen) "
    "FROM ({keyed})"
)
_TOP = "SELECT k, f, line, rid, __run FROM ({keyed}) WHERE chosen ORDER BY k, f, line LIMIT {size}"


def _smallest(con: Any, keyed: str, draw: Draw | None, size: int) -> list[Candidate]:
    """The `size` smallest keys of a query, with their rows; with `draw`, counted in the same pass."""
    if draw is None:
        rows = con.sql(_TOP.format(keyed=keyed, size=size)).to_arrow_table().to_pylist()
    else:
        found = con.sql(_ONE_PASS.format(keyed=keyed, cap=max(size, 1))).to_arrow_table().to_pylist()[0]
        population, invalid, rows = found.values()
        draw.population += population
        draw.invalid += invalid
    out = []
    for row in rows or ():
        run = {key: value for key, value in row["__run"].items() if key not in VIRTUAL}
        out.append((row["k"], row["f"], row["line"], row["rid"], plain_row(run, set())))
    return out


def run_line(payload: Any, run_id: str, mapping: FieldMap | None) -> bytes:
    """A drawn run's line: as it was written, or with the id it is known by when it has none."""
    if isinstance(payload, bytes):
        obj = loose(payload)
        if file_id(obj, mapping) is not None:
            return payload.rstrip(b"\r")
    else:
        obj = payload
        if file_id(obj, mapping) is not None:
            return line_bytes(obj)
    obj = dict(obj)
    obj[(mapping or FieldMap()).source("id")] = run_id
    return line_bytes(obj)
