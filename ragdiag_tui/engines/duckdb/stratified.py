"""`sample DATASET --engine duckdb --strata FIELD [--allocation A] [--prior P] -n N|auto`.

The draw of `engines.strata` over DuckDB. SQL reads each group of Parquet files once,
grouped by stratum: its population, its first (file, row) and its `first_cap` smallest
keys with their rows (`min_by`, no sort of the population); the exact path's files are
read run by run, their strata by `strata.stratum_reader`. A stratum that `-n auto`
plans larger than that is read again, its n_h smallest keys only (a window per stratum).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ...core.analysis.stratify import StrataPlan
from ...core.common.atomic import open_output
from ...core.review.records import Strata
from ...core.runs.mapping import FieldMap
from ...core.runs.parquet_runs import plain_row
from ..dataset import Dataset
from ..results import SEPARATOR, Filter, SampleSummary, check_draw, field_terms, sample_key
from ..strata import StrataTally, check_strata, first_cap, stratum_reader
from .connect import connect
from .pyrows import read_runs
from .sample import VIRTUAL, Draw, run_line
from .sample import sample as plain_sample
from .schema import FieldSql, literal, plan
from .sql import grouped_files, runs_sql


def sample(ds: Dataset, mapping: FieldMap | None, *, strata: StrataPlan | None = None, **options: Any) -> Any:
    """The engine's `sample`: stratified with `strata`, else `sample.sample`."""
    if strata is None:
        return plain_sample(ds, mapping, **options)
    return stratified_sample(ds, mapping, strata=strata, **options)


def stratified_sample(
    ds: Dataset,
    mapping: FieldMap | None,
    *,
    view: str,
    filters: Sequence[Filter],
    n: int | str,
    margin: float = 0.05,
    seed: int,
    out: Path,
    strata: StrataPlan,
) -> SampleSummary:
    """Each stratum's n_h runs of smallest key (see the module), written as served."""
    draw, record, served = stratified_draw(
        ds, mapping, view=view, filters=filters, n=n, margin=margin, seed=seed, strata=strata
    )
    if served:
        with open_output(out) as handle:
            for _, _, _, run_id, payload in served:
                handle.write(run_line(payload, run_id, mapping) + b"\n")
    ids = tuple(run_id for _, _, _, run_id, _ in served)
    return SampleSummary(view, draw.filters, seed, draw.population, ids, str(out), draw.invalid, record)


def stratified_draw(
    ds: Dataset,
    mapping: FieldMap | None,
    *,
    view: str,
    filters: Sequence[Filter],
    n: int | str,
    margin: float = 0.05,
    seed: int,
    strata: StrataPlan,
) -> tuple[Draw, Strata, list[Any]]:
    """The draw `stratified_sample` writes: what it counted, its strata's record, and the
    drawn candidates (key, file, line, run id, row) as served (the app's `D` records their ids)."""
    check_draw(view, n)
    check_strata(strata)
    draw = Draw(view, field_terms(filters), n, margin, seed)
    by = None if strata.by == "stage" else strata.by
    plans = (
        plan(ds.files, mapping, draw.fields, filtering=True, whole_row=True, stratum=by)
        if ds.format == "parquet"
        else [None] * len(ds.files)
    )
    tally = StrataTally(first_cap(n, margin))
    exact = [path for path, fields_sql in zip(ds.files, plans, strict=True) if fields_sql is None]
    queries = [_keyed(ds, group, draw, by) for group in grouped_files(ds.files, plans)]
    _gather(exact, queries, ds, mapping, draw, tally, strata.by, counting=True)
    sizes = tally.sizes(n, strata)
    if tally.short(sizes):
        _gather(exact, queries, ds, mapping, draw, tally, strata.by, counting=False)
    record, served = tally.drawn(sizes, strata)
    return draw, record, served


def _gather(
    exact: Sequence[Path],
    queries: Sequence[str],
    ds: Dataset,
    mapping: FieldMap | None,
    draw: Draw,
    tally: StrataTally,
    by: str,
    counting: bool,
) -> None:
    """Count the strata and gather their candidates (`counting`), or gather again only the
    candidates of the strata read again (`StrataTally.short`)."""
    wanted = None if counting else set(tally.caps)
    for path in exact:
        _exact(path, ds, mapping, draw, tally, by, wanted)
    if not queries:
        return
    with connect() as con:
        for keyed in queries:
            if counting:
                _counted(con, keyed, draw, tally)
            else:
                _again(con, keyed, tally)


def _exact(
    path: Path, ds: Dataset, mapping: FieldMap | None, draw: Draw, tally: StrataTally, by: str,
    wanted: set[str] | None,
) -> None:  # fmt: skip
    """One file by the exact path: every run of the population to the tally (or, `wanted`,
    the candidates of those strata only)."""
    name = ds.relative(path)
    stratum_of = stratum_reader(by)
    for run in read_runs(path, name, ds.format, mapping, draw.fields, filtering=True):
        if run.error is not None:
            if wanted is None:
                draw.invalid += 1
            continue
        if not draw.chosen(run):
            continue
        stratum = stratum_of(run.stage or "", run.raw)
        run_id = run.id or ""
        candidate = (sample_key(draw.seed, run_id), name, run.line, run_id, run.raw)
        if wanted is None:
            draw.population += 1
            tally.add(stratum, candidate)
        elif stratum in wanted:
            tally.offer(stratum, [candidate])


def _keyed(ds: Dataset, group: tuple[FieldSql, list[Path]], draw: Draw, by: str | None) -> str:
    """A group's runs with their key (population only), row, stage, `chosen` and stratum `s`."""
    prefix = literal(f"{draw.seed}{SEPARATOR}")
    runs = runs_sql(ds, [group], len(draw.fields) + (by is not None), whole_run=True)
    stratum = "stage" if by is None else f"v{len(draw.fields)}"
    return (
        f"SELECT CASE WHEN chosen THEN sha256({prefix} || rid) END AS k, f, line, rid, "
        f"CASE WHEN chosen THEN __run END AS __run, stage, chosen, {stratum} AS s "
        f"FROM (SELECT *, {draw.where()} AS chosen FROM ({runs}))"
    )


_COUNTED = (
    "SELECT s, count(*) FILTER (WHERE chosen) AS population, "
    "min(struct_pack(f, line)) FILTER (WHERE chosen) AS first, "
    "count(*) FILTER (WHERE stage = 'invalid') AS invalid, "
    "min_by(struct_pack(k, f, line, rid, __run), struct_pack(k, f, line), {cap}) FILTER (WHERE chosen) "
    "AS smallest FROM ({keyed}) GROUP BY s"
)
_AGAIN = (
    "SELECT s, k, f, line, rid, __run FROM ({keyed}) JOIN (VALUES {sizes}) AS __sizes(s, size) USING (s) "
    "WHERE chosen QUALIFY row_number() OVER (PARTITION BY s ORDER BY k, f, line) <= size"
)


def _counted(con: Any, keyed: str, draw: Draw, tally: StrataTally) -> None:
    """One group's strata counted, with each one's `cap` smallest keys, in one pass."""
    rows = con.sql(_COUNTED.format(keyed=keyed, cap=max(tally.cap, 1))).to_arrow_table().to_pylist()
    for row in rows:
        draw.invalid += row["invalid"]
        if not row["population"]:
            continue
        draw.population += row["population"]
        first = row["first"]
        tally.count(row["s"], row["population"], (first["f"], first["line"]))
        tally.offer(row["s"], [_candidate(item) for item in row["smallest"] or ()])


def _again(con: Any, keyed: str, tally: StrataTally) -> None:
    """One group's candidates of the strata read again: each one's n_h smallest keys."""
    sizes = ", ".join(f"({literal(stratum)}, {size})" for stratum, size in tally.caps.items())
    for row in con.sql(_AGAIN.format(keyed=keyed, sizes=sizes)).to_arrow_table().to_pylist():
        tally.offer(row["s"], [_candidate(row)])


def _candidate(row: dict[str, Any]) -> tuple[str, str, int, str, Any]:
    run = {key: value for key, value in row["__run"].items() if key not in VIRTUAL}
    return row["k"], row["f"], row["line"], row["rid"], plain_row(run, set())
