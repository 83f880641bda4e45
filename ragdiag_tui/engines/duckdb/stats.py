"""`stats DATASET --engine duckdb [--group-by FIELD]`: the counts of `stats --json`, for
every run of the dataset and per value of a field."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path
from typing import Any

from ...core.runs.mapping import FieldMap
from ..dataset import Dataset
from ..results import Tally, grouped
from .connect import connect
from .pyrows import read_runs
from .schema import plan
from .sql import grouped_files, runs_sql

_TALLY = """
SELECT v0, stage, lucky, n_req, n_ctx, found, doc, grouping(doc) AS per_run,
       count(*) FILTER (WHERE first) AS runs, count(doc) AS docs
FROM (
  SELECT v0, stage, stage = 'retrieval' AND label AS lucky, n_req, n_ctx, found,
         unnest(CASE WHEN stage = 'retrieval' THEN missing ELSE [NULL::VARCHAR] END) AS doc,
         unnest(CASE WHEN stage = 'retrieval' THEN range(len(missing)) ELSE [0] END) = 0 AS first
  FROM ({runs}))
GROUP BY GROUPING SETS ((v0, stage, lucky, n_req, n_ctx, found), (v0, doc))"""
"""One scan: the runs of each (group, stage, lucky, distinct-ID counts), and each missed
document's runs per group (a retrieval run is one row per missing document: `first` marks
the row that counts the run)."""


def stats(ds: Dataset, mapping: FieldMap | None, *, group_by: str | None = None, top: int = 10) -> dict:
    tallies = tally_groups(ds, mapping, group_by)
    everything = Tally()
    for tally in tallies.values():
        everything.merge(tally)
    if not group_by:
        return everything.to_json(top)
    return grouped(group_by, everything.to_json(top), {value: t.to_json(top) for value, t in tallies.items()})


def tally_groups(
    ds: Dataset, mapping: FieldMap | None, group_by: str | None = None
) -> dict[str | None, Tally]:
    """The counts of every run of the dataset, per value of `group_by` (all under None without it)."""
    fields = (group_by,) if group_by else ()
    plans = plan(ds.files, mapping, fields) if ds.format == "parquet" else [None] * len(ds.files)
    tallies: defaultdict[str | None, Tally] = defaultdict(Tally)
    exact = [path for path, fields_sql in zip(ds.files, plans, strict=True) if fields_sql is None]
    for counted in (exact_tallies(path, ds, mapping, group_by) for path in exact):
        for value, tally in counted.items():
            tallies[value].merge(tally)
    groups = grouped_files(ds.files, plans)
    if groups:
        with connect() as con:
            _sql(con, runs_sql(ds, groups, len(fields)), tallies, bool(group_by))
    return dict(tallies)


def exact_tallies(
    path: Path, ds: Dataset, mapping: FieldMap | None, group_by: str | None
) -> dict[str | None, Tally]:
    """One file's counts by the exact path, per group."""
    tallies: defaultdict[str | None, Tally] = defaultdict(Tally)
    fields = (group_by,) if group_by else ()
    for run in read_runs(path, ds.relative(path), ds.format, mapping, fields):
        tally = tallies[run.values[group_by] if group_by else None]
        if run.error is not None:
            tally.invalid += 1
        else:
            tally.add_run(run.stage or "", run.label, run.missing, *run.counts())
    return dict(tallies)


def _sql(con: Any, runs: str, tallies: defaultdict[str | None, Tally], by_group: bool) -> None:
    value = "v0" if by_group else "NULL AS v0"
    query = _TALLY.format(runs=f"SELECT {value}, * EXCLUDE (v0) FROM ({runs})" if by_group else
                          f"SELECT {value}, * FROM ({runs})")  # fmt: skip
    for group, stage, lucky, n_req, n_ctx, found, doc, per_run, count, docs in con.execute(query).fetchall():
        tally = tallies[group]
        if not per_run:
            if doc is not None:
                tally.missed[doc] += docs
        elif stage == "invalid":
            tally.invalid += count
        else:
            tally.add_run(stage, bool(lucky), (), n_req, n_ctx, found, count)
