"""What Spark's Python workers compute: Arrow batches from the files of a partition.

Each function here is given to `DataFrame.mapInArrow` over a frame of file numbers (one
per partition, made by `spark.range`), with the dataset's files (`FileTask`) bound to it,
and yields Arrow record batches of the schema beside it. Texts that come from run files
(ids, document IDs, group values) travel as UTF-8 bytes written with surrogatepass, so a
lone surrogate survives the trip, and bytes order as Python orders the strings (code points).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from ...core.analysis.filtering import FieldTerm
from ...core.common.jsonutil import line_bytes
from ...core.runs.mapping import FieldMap
from ..records import exact_object
from ..results import Tally, in_view, run_filter, sample_key
from ..strata import StrataTally, stratum_reader
from .verdicts import INVALID, FileReader, FileTask, Verdict, group_value, is_lucky

DIAGNOSIS_SCHEMA = (
    "file INT, line BIGINT, id BINARY, stage STRING, error STRING, field BINARY, detail BINARY, "
    "missing ARRAY<BINARY>, lucky BOOLEAN"
)
PARTIAL_SCHEMA = "grp BINARY, doc BINARY, n BIGINT, counts STRING"
SAMPLE_SCHEMA = "key STRING, file INT, line BIGINT, id BINARY, raw BINARY, population BIGINT, invalid BIGINT"
STRATA_SCHEMA = f"stratum BINARY, {SAMPLE_SCHEMA}"
BATCH_ROWS = 8192


def to_bytes(text: str | None) -> bytes | None:
    return None if text is None else text.encode("utf-8", "surrogatepass")


def from_bytes(data: bytes | None) -> str | None:
    return None if data is None else bytes(data).decode("utf-8", "surrogatepass")


def _tasks(batches: Iterable[Any], files: Sequence[FileTask]) -> Iterator[FileTask]:
    """The files of a partition: its batches hold their numbers in `files`."""
    for batch in batches:
        for number in batch.column(0).to_pylist():
            yield files[number]


def _flush(columns: dict[str, list[Any]], schema: Any) -> Any:
    import pyarrow as pa

    batch = pa.RecordBatch.from_pydict(columns, schema=schema)
    for values in columns.values():
        values.clear()
    return batch


def _arrow_schema(names_types: list[tuple[str, Any]]) -> Any:
    import pyarrow as pa

    return pa.schema(names_types)


# -- diagnose: one row per record ------------------------------------------------------------


def diagnosis_batches(
    batches: Iterable[Any], files: Sequence[FileTask], field_map: FieldMap | None
) -> Iterator[Any]:
    import pyarrow as pa

    schema = _arrow_schema(
        [
            ("file", pa.int32()),
            ("line", pa.int64()),
            ("id", pa.binary()),
            ("stage", pa.string()),
            ("error", pa.string()),
            ("field", pa.binary()),
            ("detail", pa.binary()),
            ("missing", pa.list_(pa.binary())),
            ("lucky", pa.bool_()),
        ]
    )
    columns: dict[str, list[Any]] = {name: [] for name in schema.names}
    reader = FileReader(field_map)
    for task in _tasks(batches, files):
        for verdict in reader.verdicts(task):
            diagnosis = verdict.diagnosis
            missing = diagnosis.get("missing")
            columns["file"].append(task.index)
            columns["line"].append(verdict.line)
            columns["id"].append(to_bytes(verdict.id))
            columns["stage"].append(diagnosis.get("stage"))
            columns["error"].append(diagnosis.get("error"))
            columns["field"].append(to_bytes(diagnosis.get("field")))
            columns["detail"].append(to_bytes(diagnosis.get("detail")))
            columns["missing"].append(None if missing is None else [to_bytes(doc) for doc in missing])
            columns["lucky"].append(is_lucky(verdict))
            if len(columns["line"]) >= BATCH_ROWS:
                yield _flush(columns, schema)
    if columns["line"]:
        yield _flush(columns, schema)


def diagnosis_line(row: Any, rel: str) -> dict[str, Any]:
    """A diagnosis row as the output's object: the local `diagnose` line with the run's file and
    line after its id (an invalid line that names no id has none)."""
    line: dict[str, Any] = {} if row["id"] is None else {"id": from_bytes(row["id"])}
    line["file"] = rel
    line["line"] = row["line"]
    if row["stage"] is not None:
        line["stage"] = row["stage"]
    if row["error"] is not None:
        line["error"] = row["error"]
    if row["field"] is not None:
        line["field"] = from_bytes(row["field"])
    if row["detail"] is not None:
        line["detail"] = from_bytes(row["detail"])
    if row["missing"] is not None:
        line["missing"] = [from_bytes(doc) for doc in row["missing"]]
    return line


# -- stats: partial counts per group, per partition -------------------------------------------


def tally_run(tally: Tally, verdict: Verdict) -> None:
    """Count one record in `tally` (results.Tally: exact metric sums, mergeable)."""
    if verdict.stage == INVALID:
        tally.invalid += 1
        return
    required, context = set(verdict.required or ()), set(verdict.context or ())
    found = len(required & context) if required and context else 0
    missing = verdict.diagnosis.get("missing")
    tally.add_run(verdict.stage, verdict.label, missing, len(required), len(context), found)


def tally_json(tally: Tally) -> str:
    """A tally's counts as JSON, its missed documents apart (they are rows of their own)."""
    return json.dumps(
        {
            "stages": dict(tally.stages),
            "lucky": tally.lucky,
            "invalid": tally.invalid,
            "recall": [[*pair, runs] for pair, runs in tally.recall.items()],
            "precision": [[*pair, runs] for pair, runs in tally.precision.items()],
        }
    )


def merge_json(tally: Tally, text: str) -> None:
    counts = json.loads(text)
    tally.stages.update(counts["stages"])
    tally.lucky += counts["lucky"]
    tally.invalid += counts["invalid"]
    tally.recall.update({(found, whole): runs for found, whole, runs in counts["recall"]})
    tally.precision.update({(found, whole): runs for found, whole, runs in counts["precision"]})


def partial_batches(
    batches: Iterable[Any], files: Sequence[FileTask], field_map: FieldMap | None, group_by: str | None
) -> Iterator[Any]:
    import pyarrow as pa

    schema = _arrow_schema(
        [("grp", pa.binary()), ("doc", pa.binary()), ("n", pa.int64()), ("counts", pa.string())]
    )
    reader = FileReader(field_map, need_object=group_by is not None)
    groups: dict[str | None, Tally] = {}
    for task in _tasks(batches, files):
        for verdict in reader.verdicts(task):
            group = None if group_by is None else group_value(verdict.obj, group_by)
            tally = groups.get(group)
            if tally is None:
                tally = groups[group] = Tally()
            tally_run(tally, verdict)
    columns: dict[str, list[Any]] = {name: [] for name in schema.names}
    for group, tally in groups.items():
        rows: list[tuple[bytes | None, int, str | None]] = [(None, 0, tally_json(tally))]
        rows += [(to_bytes(doc), n, None) for doc, n in tally.missed.items()]
        for doc, n, counts in rows:
            columns["grp"].append(to_bytes(group))
            columns["doc"].append(doc)
            columns["n"].append(n)
            columns["counts"].append(counts)
            if len(columns["n"]) >= BATCH_ROWS:
                yield _flush(columns, schema)
    if columns["n"]:
        yield _flush(columns, schema)


# -- sample: the population's runs with their keys --------------------------------------------


def _written(verdict: Verdict, id_source: str, named: bool) -> bytes:
    """The run's text for the sample file; a run named by its place gets that name as its id,
    so that the sample file, read on its own, names it the same."""
    obj = None if named else exact_object(verdict.raw)
    if not isinstance(obj, dict):
        return verdict.raw
    obj[id_source] = verdict.id
    return line_bytes(obj)


Candidate = tuple[str, int, int, Verdict]  # (key, file, line, the run)


def sample_batches(
    batches: Iterable[Any],
    files: Sequence[FileTask],
    field_map: FieldMap | None,
    view: str,
    filters: tuple[FieldTerm, ...],
    seed: int,
    keep: int,
) -> Iterator[Any]:
    """The `keep` runs of the partition's population with the smallest (key, file, line), each
    with its text for the sample file, then one row of counts (key null): the population's size
    and the invalid runs met. The n smallest of the dataset are among the tasks' n smallest."""
    import pyarrow as pa

    schema = _arrow_schema(
        [
            ("key", pa.string()),
            ("file", pa.int32()),
            ("line", pa.int64()),
            ("id", pa.binary()),
            ("raw", pa.binary()),
            ("population", pa.int64()),
            ("invalid", pa.int64()),
        ]
    )
    id_map = field_map or FieldMap()
    reader = FileReader(field_map, need_object=True)
    chosen = run_filter(filters)
    candidates: list[Candidate] = []
    population = invalid = 0
    for task in _tasks(batches, files):
        for verdict in reader.verdicts(task):
            if verdict.stage == INVALID:
                invalid += 1
            elif in_view(view, verdict.stage, verdict.label) and chosen(verdict.obj):
                population += 1
                candidates.append((sample_key(seed, verdict.id), task.index, verdict.line, verdict))
                if len(candidates) >= 2 * keep + BATCH_ROWS:  # amortised: sort now and then
                    candidates = _smallest(candidates, keep)
    columns: dict[str, list[Any]] = {name: [] for name in schema.names}
    for key, index, line, verdict in _smallest(candidates, keep):
        named = id_map.id_of(verdict.obj) == verdict.id
        row = (
            key,
            index,
            line,
            to_bytes(verdict.id),
            _written(verdict, id_map.source("id"), named),
            None,
            None,
        )
        for name, value in zip(schema.names, row, strict=True):
            columns[name].append(value)
        if len(columns["line"]) >= BATCH_ROWS:
            yield _flush(columns, schema)
    for name, value in zip(schema.names, (None, None, None, None, None, population, invalid), strict=True):
        columns[name].append(value)
    yield _flush(columns, schema)


def strata_batches(
    batches: Iterable[Any],
    files: Sequence[FileTask],
    field_map: FieldMap | None,
    view: str,
    filters: tuple[FieldTerm, ...],
    seed: int,
    by: str,
    cap: int,
    caps: dict[str, int] | None = None,
) -> Iterator[Any]:
    """A stratified draw's rows (`engines.strata`): per stratum of the partition's population,
    its `cap` smallest (key, file, line) with their texts, and one row of counts (key null:
    its population, its first file and line); last, the invalid runs met (stratum null).
    With `caps`, only the candidates of those strata, as many as each one's cap."""
    import pyarrow as pa

    schema = pa.schema([("stratum", pa.binary()), *_arrow_schema_fields(SAMPLE_SCHEMA)])
    id_map = field_map or FieldMap()
    reader = FileReader(field_map, need_object=True)
    chosen, stratum_of = run_filter(filters), stratum_reader(by)
    tally = StrataTally(cap, caps=dict(caps or {}))
    invalid = 0
    for task in _tasks(batches, files):
        for verdict in reader.verdicts(task):
            if verdict.stage == INVALID:
                invalid += 1
            elif in_view(view, verdict.stage, verdict.label) and chosen(verdict.obj):
                stratum = stratum_of(verdict.stage, verdict.raw)
                candidate = (sample_key(seed, verdict.id), task.index, verdict.line, verdict.id, verdict)
                if caps is None:
                    tally.add(stratum, candidate)
                elif stratum in caps:
                    tally.offer(stratum, [candidate])
    columns: dict[str, list[Any]] = {name: [] for name in schema.names}
    rows: list[tuple[Any, ...]] = []
    for stratum in tally.candidates:
        for key, index, line, run_id, verdict in tally.smallest(stratum):
            text = _written(verdict, id_map.source("id"), id_map.id_of(verdict.obj) == run_id)
            rows.append((to_bytes(stratum), key, index, line, to_bytes(run_id), text, None, None))
    for stratum, population in tally.population.items():
        index, line = tally.first[stratum]
        rows.append((to_bytes(stratum), None, index, line, None, None, population, None))
    rows.append((None, None, None, None, None, None, None, invalid))
    for row in rows:
        for name, value in zip(schema.names, row, strict=True):
            columns[name].append(value)
        if len(columns["line"]) >= BATCH_ROWS:
            yield _flush(columns, schema)
    yield _flush(columns, schema)


def _arrow_schema_fields(ddl: str) -> list[tuple[str, Any]]:
    """The (name, Arrow type) pairs of SAMPLE_SCHEMA's DDL."""
    import pyarrow as pa

    types = {"STRING": pa.string(), "INT": pa.int32(), "BIGINT": pa.int64(), "BINARY": pa.binary()}
    return [(name, types[kind]) for name, kind in (part.split() for part in ddl.split(", "))]


def _smallest(
    candidates: list[tuple[str, int, int, Verdict]], keep: int
) -> list[tuple[str, int, int, Verdict]]:
    candidates.sort(key=lambda candidate: candidate[:3])
    del candidates[keep:]
    return candidates


def missed_pairs(rows: Iterable[Any]) -> list[tuple[str, int]]:
    """Collected (doc, n) rows as (document, runs) pairs."""
    return [(from_bytes(row["doc"]), row["n"]) for row in rows]  # type: ignore[misc]
