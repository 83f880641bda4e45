"""The rule in SQL, over the Parquet files `schema` finds readable exactly.

`runs_sql` is one SELECT over those files, one row per run, with the columns
f (file relative to root), line (1-based row), fid (the id field, null when absent),
rid (the run's id in the dataset), __run (with `whole_run`: the row, every column),
stage (a stage name, `answer-label`, or `invalid`), label, missing (distinct, unsorted),
bad (the field an invalid run fails on: required or context), item (0-based index of
its first null item, or null when the field is absent), n_req, n_ctx, found (distinct
ID counts, for the metrics) and v0, v1, ... (the text of the fields asked for).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from ..dataset import Dataset
from .schema import FieldSql, literal

_RUNS = """
SELECT f, line, fid, coalesce(fid, f || ':' || line) AS rid, label, req, ctx, {values}{row}
FROM (
  SELECT filename[{cut}:] AS f, file_row_number + 1 AS line, {id} AS fid, {required} AS req,
         {context} AS ctx, {label} AS label, {value_exprs}{row}
  FROM read_parquet([{files}], filename = true, file_row_number = true) AS __run{rows}
)"""

_RULE = """
SELECT *,
  CASE WHEN bad IS NOT NULL THEN 'invalid'
       WHEN req IS NULL OR len(req) = 0 THEN 'unresolved'
       WHEN label IS NULL THEN 'answer-label'
       WHEN ctx IS NULL THEN 'invalid'
       WHEN len(missing) > 0 THEN 'retrieval'
       WHEN label THEN 'pass' ELSE 'generation' END AS stage,
  CASE WHEN ctx IS NULL THEN 0 ELSE n_req - len(missing) END AS found
FROM (
  SELECT *, CASE WHEN len(gap) > 1 THEN {distinct_gap} ELSE coalesce(gap, []) END AS missing
  FROM (
    SELECT *,
      CASE WHEN list_position(req, NULL) IS NOT NULL THEN 'required'
           WHEN list_position(ctx, NULL) IS NOT NULL THEN 'context' END AS bad,
      coalesce(list_position(req, NULL), list_position(ctx, NULL)) - 1 AS item,
      list_filter(req, lambda __id: NOT list_contains(ctx, __id)) AS gap,
      CASE WHEN req IS NULL THEN 0 WHEN len(req) < 2 THEN len(req) ELSE len({distinct_req}) END AS n_req,
      CASE WHEN ctx IS NULL THEN 0 WHEN len(ctx) < 2 THEN len(ctx) ELSE len({distinct_ctx}) END AS n_ctx
    FROM ({runs})
  )
)"""
"""The rule (RULE.md) in SQL. `missing` is distinct; n_req, n_ctx and found are distinct-ID
counts, for the metrics. Lists of fewer than two IDs need no distinct."""


def _distinct(column: str) -> str:
    """The first occurrence of each item of a list (no nulls): as list_distinct, but in the
    list's order and, for the short lists of runs, about three times faster."""
    return f"list_filter({column}, lambda __v, __i: list_position({column}, __v) = __i)"


SORTED_MISSING = (
    "CASE WHEN len(missing) > 1 AND regexp_matches(array_to_string(missing, ''), '[\\x{E000}-\\x{10FFFF}]') "
    "THEN js_sort(missing) ELSE list_sort(missing) END"
)
"""`missing` in the reference's order: bytes order is code point order, which is UTF-16's
unless a list holds a character at or above U+E000 (then Python sorts it, exactly)."""


def runs_sql(
    ds: Dataset,
    groups: Sequence[tuple[FieldSql, Sequence[Path]]],
    n_values: int,
    whole_run: bool = False,
    where: str | None = None,
    lines: Sequence[int] = (),
) -> str:
    """One row per run of the files in `groups` (files read with the same FieldSql); with
    `whole_run`, its row too, as a struct (so the groups must share a schema). `where`, over
    the columns read (f, line, fid, rid, label, req, ctx, v0, ...), keeps only the runs it
    holds for before the rule is worked out; `lines`, only the runs at those lines of their
    files."""
    runs = fields_sql(ds, groups, n_values, whole_run, lines)
    return _RULE.format(
        runs=runs if where is None else f"SELECT * FROM ({runs}) WHERE {where}",
        distinct_gap=_distinct("gap"),
        distinct_req=_distinct("req"),
        distinct_ctx=_distinct("ctx"),
    )


def fields_sql(
    ds: Dataset,
    groups: Sequence[tuple[FieldSql, Sequence[Path]]],
    n_values: int = 0,
    whole_run: bool = False,
    lines: Sequence[int] = (),
) -> str:
    """One row per run of the files in `groups`, its fields as read (f, line, fid, rid, label,
    req, ctx, v0, ...), before the rule; with `lines`, only the runs at those (1-based) lines
    of their files (DuckDB then reads only the row groups that hold them)."""
    rows = f"\n  WHERE file_row_number IN ({', '.join(str(line - 1) for line in lines)})" if lines else ""
    cut = len(str(ds.root).rstrip("/")) + 2
    values = ", ".join(f"v{i}" for i in range(n_values)) or "NULL AS v_"
    parts = []
    for fields, files in groups:
        value_exprs = ", ".join(f"{expr} AS v{i}" for i, expr in enumerate(fields.values)) or "NULL AS v_"
        parts.append(
            _RUNS.format(
                values=values,
                cut=cut,
                id=fields.id,
                required=fields.required,
                context=fields.context,
                label=fields.label,
                value_exprs=value_exprs,
                row=", __run" if whole_run else "",
                files=", ".join(literal(str(path)) for path in files),
                rows=rows,
            )
        )
    return "\nUNION ALL\n".join(parts)


def grouped_files(
    files: Sequence[Path], plans: Sequence[FieldSql | None]
) -> list[tuple[FieldSql, list[Path]]]:
    """The SQL-readable files, grouped by equal FieldSql (one scan each), in file order."""
    groups: dict[tuple[str, ...], tuple[FieldSql, list[Path]]] = {}
    for path, fields in zip(files, plans, strict=True):
        if fields is not None:
            groups.setdefault(fields.key, (fields, []))[1].append(path)
    return list(groups.values())
