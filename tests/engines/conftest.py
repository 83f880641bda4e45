"""Helpers of the engine tests: datasets written under tmp_path, the local path's verdicts
to compare with, and the engines' outputs read back."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import pytest

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

from ragdiag_tui.core.runs.loading import LoadError, read_runs  # noqa: E402
from ragdiag_tui.core.runs.mapping import FieldMap  # noqa: E402
from ragdiag_tui.engines.dataset import Dataset, open_dataset  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
ID_LIST = pa.list_(pa.string())


def write_jsonl(path: Path, lines: Iterable[Any]) -> Path:
    """Runs (objects) or raw text lines as a JSON Lines file."""
    text = "".join((line if isinstance(line, str) else json.dumps(line)) + "\n" for line in lines)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    return path


def write_parquet(path: Path, runs: Sequence[dict[str, Any]], extra: Sequence[str] = ()) -> Path:
    """Runs as Parquet with the rule's column types: id string, required and context lists
    of strings, correct boolean (a value of another type is written as null), and `extra`
    columns as strings."""
    columns = {
        "id": pa.array([run.get("id") for run in runs], pa.string()),
        "required": pa.array([run.get("required") for run in runs], ID_LIST),
        "context": pa.array([run.get("context") for run in runs], ID_LIST),
        "correct": pa.array(
            [run.get("correct") if type(run.get("correct")) is bool else None for run in runs], pa.bool_()
        ),
    }
    for name in extra:
        columns[name] = pa.array([run.get(name) for run in runs], pa.string())
    path.parent.mkdir(parents=True, exist_ok=True)
    pq.write_table(pa.table(columns), path, row_group_size=7)
    return path


def local_rows(ds: Dataset, mapping: FieldMap | None = None) -> list[dict[str, Any]]:
    """What the engines must give, from the local loader file by file: each run's id (its
    own, else file:line), file, line and diagnosis; each invalid line as `diagnose` words it."""
    rows = []
    for path in ds.files:
        name = ds.relative(path)
        own_ids = _own_ids(path, mapping)
        if not path.read_bytes().strip():
            continue  # an empty file: no runs (a single run file so empty is refused)
        for record in read_runs(path, field_map=mapping):
            if isinstance(record, LoadError) and "duplicate id" in record.reason:
                rows.append({"repeated": True, "file": name, "line": record.line})  # a run in a dataset
                continue
            if isinstance(record, LoadError):
                error_id = record.id
                if error_id is not None and not isinstance(own_ids.get(record.line), str):
                    error_id = f"{name}:{record.line}"  # named by its position in a single run file
                row: dict[str, Any] = {} if error_id is None else {"id": error_id}
                row.update({"file": name, "line": record.line, "error": record.kind})
                if record.field:
                    row["field"] = record.field
                row["detail"] = record.detail
                rows.append(row)
                continue
            obj = _decoded(record.raw)
            own = (mapping or FieldMap()).id_of(obj) if mapping else obj.get("id")
            run_id = record.id if isinstance(own, str) else f"{name}:{record.line}"
            rows.append({"id": run_id, "file": name, "line": record.line, **record.diagnosis})
    return rows


def _decoded(raw: bytes) -> Any:
    """A line's JSON value, as the stdlib reads it with the core's number rules; None if not JSON."""
    from ragdiag_tui.core.common.jsonutil import decode

    try:
        return decode(raw.decode("utf-8", "surrogatepass"))
    except (ValueError, RecursionError):
        return None


def _own_ids(path: Path, mapping: FieldMap | None) -> dict[int, Any]:
    """Each line's (row's) own id field, as mapped."""
    if path.suffix == ".parquet":
        objects = pq.read_table(path).to_pylist()
    else:
        data = path.read_bytes().removeprefix(b"\xef\xbb\xbf")
        objects = [_decoded(line) for line in data.split(b"\n")]
    mapping = mapping or FieldMap()
    return {number: mapping.id_of(obj) if mapping else (obj.get("id") if isinstance(obj, dict) else None)
            for number, obj in enumerate(objects, 1)}  # fmt: skip


def same_rows(got: list[dict[str, Any]], expected: list[dict[str, Any]]) -> bool:
    """Whether the engine's rows are the local ones, leaving out the lines the local path
    calls repeated ids (each of those is one more run in a dataset: the engine gives its verdict)."""
    repeated = {(row["file"], row["line"]) for row in expected if row.get("repeated")}
    kept = [row for row in got if (row["file"], row["line"]) not in repeated]
    assert kept == [row for row in expected if not row.get("repeated")]
    assert all(
        "stage" in row or row["error"] == "answer-label"
        for row in got
        if (row["file"], row["line"]) in repeated
    )
    return True


def read_jsonl(path: Path) -> list[Any]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def local_stats(path: Path, capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    """`ragdiag-tui stats PATH --json --no-journal`, without the blocks a dataset has no use for."""
    from ragdiag_tui.cli import main

    capsys.readouterr()
    main(["stats", str(path), "--json", "--no-journal", *args])
    out = json.loads(capsys.readouterr().out)
    out.pop("spot_checks")
    out.pop("agreement")
    return out


def dataset(*paths: Path | str) -> Dataset:
    return open_dataset([str(path) for path in paths])
