"""`diagnose DATASET --engine duckdb -o OUT`: one diagnosis row per run, file by file in
the dataset's order, each file in its own order, streamed (bounded memory)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ...core.runs.loading import INVALID_RUN, LoadError
from ...core.runs.mapping import FieldMap
from ...core.runs.rule import InvalidRun
from ..dataset import Dataset
from ..output import DiagnosisWriter
from ..results import DiagnoseSummary
from .connect import arrow_batches, connect
from .pyrows import error_line, read_runs
from .schema import FieldSql, Unclean, field_sql
from .sql import SORTED_MISSING, runs_sql

WITH_MISSING = frozenset({"retrieval", "generation", "pass"})
BATCH_ROWS = 65_536
CONTEXT_ABSENT = "absent, but the run has required IDs to check"


def diagnose(ds: Dataset, mapping: FieldMap | None, out: Path) -> DiagnoseSummary:
    summary = DiagnoseSummary(str(out))
    with connect() as con, DiagnosisWriter(Path(out)) as writer:
        for path in ds.files:
            name = ds.relative(path)
            try:
                fields = field_sql(path, mapping, ()) if ds.format == "parquet" else None
            except Unclean:
                fields = None
            rows = (
                _exact_rows(path, name, ds, mapping)
                if fields is None
                else _sql_rows(con, ds, path, fields, mapping)
            )
            for row in rows:
                _count(summary, row)
                writer.add(row)
    return summary


def _count(summary: DiagnoseSummary, row: dict[str, Any]) -> None:
    stage = row.get("stage") or row["error"]
    if stage == "answer-label" or "stage" in row:
        summary.stages[stage] = summary.stages.get(stage, 0) + 1
        summary.lucky += bool(row.pop("lucky", False))
    else:
        summary.invalid += 1


def _exact_rows(path: Path, name: str, ds: Dataset, mapping: FieldMap | None) -> Iterator[dict[str, Any]]:
    for run in read_runs(path, name, ds.format, mapping):
        if run.error is not None:
            yield error_line(run, name)
        else:
            yield _row(
                run.id, name, run.line, run.stage, run.missing, run.stage == "retrieval" and run.label is True
            )


def _row(run_id: Any, name: str, line: int, stage: Any, missing: Any, lucky: bool) -> dict[str, Any]:
    row: dict[str, Any] = {"id": run_id, "file": name, "line": line}
    if stage == "answer-label":
        row["error"] = stage
    else:
        row["stage"] = stage
        if stage in WITH_MISSING:
            row["missing"] = missing
    if lucky:
        row["lucky"] = True
    return row


def _sql_rows(
    con: Any, ds: Dataset, path: Path, fields: FieldSql, mapping: FieldMap | None
) -> Iterator[dict[str, Any]]:
    runs = runs_sql(ds, [(fields, [path])], 0)
    query = f"SELECT f, line, fid, rid, stage, label, bad, item, {SORTED_MISSING} AS missing FROM ({runs})"
    reader = arrow_batches(con, query, BATCH_ROWS)
    for batch in reader:
        for f, line, fid, rid, stage, label, bad, item, missing in zip(
            *(column.to_pylist() for column in batch.columns), strict=True
        ):
            if stage == "invalid":  # the rule's own check names the run; a bad item only a real id
                yield _invalid(mapping, f, line, rid if bad is None else fid, bad, item)
            else:
                yield _row(rid, f, line, stage, missing, stage == "retrieval" and label is True)


def _invalid(
    mapping: FieldMap | None, name: str, line: int, fid: str | None, bad: str | None, item: int | None
) -> dict[str, Any]:
    """An invalid run found by SQL, worded as the local loader words it."""
    if bad is None:
        error = InvalidRun("context", CONTEXT_ABSENT)
    else:
        error = InvalidRun(bad, f"item {item} is null, expected a string")
    if mapping:
        error = mapping.renamed(error)
    record = LoadError(line, INVALID_RUN, error.reason, error.field, fid, getattr(error, "mapped_to", None))
    row: dict[str, Any] = {} if fid is None else {"id": fid}
    row.update(
        {"file": name, "line": line, "error": INVALID_RUN, "field": record.field, "detail": record.detail}
    )
    return row
