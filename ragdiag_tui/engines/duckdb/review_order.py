"""A dataset's sort in the review app (`core.analysis.source_sorting.SourceSort`): the runs of a
view ordered by a column as the files give it, ties in dataset order.

The stage, the lucky mark and the missing count are kept in DuckDB for the app
(review_codes.py): those sorts are a query of that table. The other columns (id, question,
the file's label and where it comes from, the counts of IDs, recall, precision) are read from
the Parquet files SQL reads exactly, as review_filter.py reads them; the exact path (JSON
Lines, other Parquet) keys each run as the review's store holds it (`exact_key`). When both
paths hold runs, their keys are ordered together in Python. Each key is the one
`core.analysis.sorting.sort_key` gives a run the review did not touch, so the engine's order
is one file's.
"""

from __future__ import annotations

from array import array
from bisect import bisect_left
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from itertools import groupby
from operator import itemgetter
from pathlib import Path
from typing import Any

from ...core.analysis.source_sorting import MERGED_COLUMNS, SourceOrder, SourceSort
from ...core.runs.mapping import FieldMap
from ...core.runs.metrics import id_metrics
from ...core.runs.stages import STAGE_CODE
from ...core.runs.store import S_INVALID
from .connect import arrow_batches, connect
from .pyrows import PyRun
from .schema import ident, is_string_type, plan

CODES_KEYS = {"stage": "code", "lucky": "NOT lucky", "missing": "coalesce(len(missing), 0)"}
"""The sorts the kept table of codes answers (its columns: pos, code, lucky, missing)."""
_VALID = "stage <> 'invalid'"
FILE_KEYS = {
    "id": "rid",
    "question": f"CASE WHEN {_VALID} THEN coalesce(v0, '') ELSE '' END",
    "label": f"CASE WHEN {_VALID} AND label THEN 0 WHEN {_VALID} AND NOT label THEN 1 ELSE 2 END",
    "from": f"CASE WHEN {_VALID} AND label IS NOT NULL THEN 3 ELSE 4 END",
    "required": f"CASE WHEN {_VALID} THEN coalesce(len(req), 0) ELSE 0 END",
    "supplied": f"CASE WHEN {_VALID} THEN coalesce(len(ctx), 0) ELSE 0 END",
    "recall": f"CASE WHEN {_VALID} AND n_req > 0 THEN CAST(found AS DOUBLE) / n_req END",
    "precision": f"CASE WHEN {_VALID} AND n_ctx > 0 THEN CAST(found AS DOUBLE) / n_ctx END",
}
"""The sorts read from the files (`sql.runs_sql`'s columns; v0 the question's text): a run's
key as the store gives it (an invalid run: no label, no IDs, no figures); NULL: undefined."""

_FROM_FILES = """
SELECT k, pos FROM (
  SELECT {key} AS k, CAST(__start + line - 1 AS BIGINT) AS pos
  FROM ({runs}) JOIN (VALUES {starts}) AS __files(__f, __start) ON f = __f)
WHERE {where}
ORDER BY k {direction} NULLS LAST, pos"""
_FROM_CODES = "SELECT {key} AS k, pos FROM __codes WHERE {where} ORDER BY k {direction}, pos"


def order_sql(request: SourceSort, runs: str | None = None, starts: str = "") -> str:
    """The query of `request` over the kept codes, or (with `runs` and `starts`, as
    review_filter.py's) over the files; `__wanted(pos)` registered when it has positions."""
    where = ["true"]
    if request.positions is not None:
        where.append("pos IN (SELECT pos FROM __wanted)")
    if request.skip:
        where.append(f"pos NOT IN ({', '.join(str(row) for row in request.skip)})")
    parts = {"where": " AND ".join(where), "direction": "DESC" if request.descending else "ASC"}
    if runs is None:
        return _FROM_CODES.format(key=CODES_KEYS[request.column], **parts)
    return _FROM_FILES.format(key=FILE_KEYS[request.column], runs=runs, starts=starts, **parts)


def files_order(request: SourceSort, runs: str, starts: str) -> Any:
    """The Arrow table (k, pos) of `request` ordered over the files `runs` reads."""
    with connect() as con:
        for name, wanted in wanted_table(request).items():
            con.register(name, wanted)
        return arrow_batches(con, order_sql(request, runs, starts)).read_all()


def wanted_table(request: SourceSort) -> dict[str, Any]:
    """The request's positions as the Arrow table `__wanted` (its bytes, not copied), if any."""
    if request.positions is None:
        return {}
    import pyarrow as pa

    positions = request.positions
    column = pa.Array.from_buffers(pa.int64(), len(positions), [None, pa.py_buffer(positions)])
    return {"__wanted": pa.table({"pos": column})}


def question_plans(files: Sequence[Path], mapping: FieldMap | None) -> list[Any]:
    """Each Parquet file's FieldSql with the question's SQL as its one value (None: the exact path):
    the text of a string column, '' for any other or an absent one (the store keeps only a
    string); a dotted source, and a file whose schema cannot be read, go the exact path."""
    import pyarrow.parquet as pq

    source = (mapping or FieldMap()).source("question")
    plans = plan(files, mapping, (source,))
    for at, (path, fields) in enumerate(zip(files, plans, strict=True)):
        if fields is None:
            continue
        try:
            schema = pq.read_schema(path)
        except Exception:  # the exact path says what is wrong with it
            plans[at] = None
            continue
        if source in schema.names:
            kind = schema.field(source).type
            text = f"CAST({ident(source)} AS VARCHAR)" if is_string_type(kind) else "''"
        elif "." in source:
            plans[at] = None
            continue
        else:
            text = "''"
        plans[at] = replace(fields, values=(text,))
    return plans


def _metric(which: int) -> Callable[[PyRun], Any]:
    def key(run: PyRun) -> Any:
        value = id_metrics(run.required, run.context)[which]
        return None if value != value else value

    return key


_EXACT: dict[str, Callable[[PyRun], Any]] = {
    "id": lambda run: run.id or "",
    "question": lambda run: run.question or "",
    "stage": lambda run: STAGE_CODE[run.stage or ""],
    "label": lambda run: 0 if run.label is True else 1 if run.label is False else 2,
    "from": lambda run: 3 if type(run.label) is bool else 4,
    "missing": lambda run: len(run.missing or ()),
    "required": lambda run: len(run.required or ()),
    "supplied": lambda run: len(run.context or ()),
    "recall": _metric(0),
    "precision": _metric(1),
    "lucky": lambda run: not (run.stage == "retrieval" and run.label is True),
}
_INVALID: dict[str, Any] = {"question": "", "stage": S_INVALID, "label": 2, "from": 4, "lucky": True}
_INVALID.update(missing=0, required=0, supplied=0, recall=None, precision=None)


def exact_key(column: str) -> Callable[[PyRun], Any]:
    """A run's key for `column` as the store holds the run (None: an undefined figure)."""
    valid = _EXACT[column]
    if column == "id":
        return lambda run: (run.error.id or "") if run.error is not None else valid(run)
    invalid = _INVALID[column]
    return lambda run: invalid if run.error is not None else valid(run)


def exact_pairs(runs: Iterable[PyRun], first: int, request: SourceSort, pairs: list[tuple[Any, int]]) -> None:
    """(key, position) of each run of one file (its first at position `first`) that `request`
    orders, added to `pairs`."""
    key, wanted, skip = exact_key(request.column), request.positions, set(request.skip)
    for index, run in enumerate(runs):
        row = first + index
        if row in skip:
            continue
        if wanted is not None:
            at = bisect_left(wanted, row)
            if at == len(wanted) or wanted[at] != row:
                continue
        pairs.append((key(run), row))


def positions_of(column: Any) -> array[int]:
    """An Arrow int64 column without nulls (chunked or not) as a machine-integer array."""
    found = array("q")
    for chunk in getattr(column, "chunks", (column,)):
        data = memoryview(chunk.buffers()[1])
        found.frombytes(data[chunk.offset * 8 : (chunk.offset + len(chunk)) * 8])
    return found


def answer(request: SourceSort, table: Any | None, pairs: list[tuple[Any, int]]) -> SourceOrder:
    """The order of SQL's ordered `table` (k, pos) and the exact path's `pairs` together."""
    merged = request.column in MERGED_COLUMNS
    if table is not None and not pairs:
        order = SourceOrder(positions_of(table.column("pos")))
        if merged:
            import pyarrow.compute as pc

            counts = pc.value_counts(table.column("k")).to_pylist()
            blocks = [(item["values"], item["counts"]) for item in counts]
            order.blocks = sorted(blocks, key=itemgetter(0), reverse=request.descending)
        return order
    if table is not None:
        pairs.extend(zip(table.column("k").to_pylist(), table.column("pos").to_pylist(), strict=True))
    pairs.sort(key=itemgetter(1))
    defined = [pair for pair in pairs if pair[0] is not None]
    defined.sort(key=itemgetter(0), reverse=request.descending)  # stable: ties stay in dataset order
    positions = array("q", (row for _, row in defined))
    positions.extend(row for value, row in pairs if value is None)
    if not merged:
        return SourceOrder(positions)
    return SourceOrder(positions, [(value, len(list(run))) for value, run in groupby(v for v, _ in defined)])
