"""One error boundary for the engines: the same hostile dataset (bad UTF-8 in a Parquet string
column, a truncated Parquet file, a text file named .parquet, an empty file, a zero-row file,
torn JSON Lines) gives the same invalid rows (file, row, reason) and the same exit status
locally (the core's loaders), in DuckDB and in Spark, and no stack reaches the terminal.

What "the same" is for a file that cannot be read at all: in a dataset, one invalid row (its
row 1, `invalid-parquet`, the reason); alone and without --engine, the same reason refused
(exit 2), as a run file that cannot be read always is (and a file alone is read for what it
holds: text named .parquet is read as JSON Lines, where a dataset goes by the suffix). A bad
UTF-8 cell: its row is one invalid run (`invalid-parquet`) naming the field; the other rows
are read.

The Spark part shares the one local session of `spark_support`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from ragdiag_tui.cli import main
from ragdiag_tui.core.runs import parquet_runs
from ragdiag_tui.core.runs.loading import LoadError, read_runs
from ragdiag_tui.engines.dataset import Dataset

from .conftest import dataset, local_rows, pa, pq, read_jsonl, write_jsonl, write_parquet
from .spark_support import ONE_SESSION, shared_session

pytestmark = ONE_SESSION  # Spark's shared session: one xdist worker starts it

pytest.importorskip("duckdb")

STACK_MARKS = ("Traceback", "\tat org.", "py4j", "Py4J", "UnicodeDecodeError", "Caused by")


def _bad_text(values: list[bytes]) -> Any:
    """A string column holding the given bytes as they are (pyarrow does not check them)."""
    return pa.array(values, pa.binary()).view(pa.string())


def hostile_parquet(folder: Path) -> Dataset:
    """A Parquet dataset of every kind of bad file, the bad UTF-8 one first (the unmapped-field
    check reads the first file with the local loader)."""
    folder.mkdir()
    ids = [b"u1", b"u2", b"u\xff3", b"u4"]
    bad = pa.table(
        {
            "id": _bad_text(ids),
            "required": pa.array([["a"], ["a"], ["a"], ["b"]], pa.list_(pa.string())),
            "context": pa.array([["a"], ["a"], ["a"], []], pa.list_(pa.string())),
            "correct": pa.array([True, False, True, True]),
            "question": _bad_text([b"fine", b"bad \xff\xfe here", b"fine", b"fine"]),
        }
    )
    pq.write_table(bad, folder / "a_bad_utf8.parquet")
    good = [
        {"id": "g1", "required": ["a"], "context": ["a"], "correct": True},
        {"id": "g2", "required": ["a"], "context": [], "correct": True},
    ]
    data = write_parquet(folder / "b_good.parquet", good).read_bytes()
    (folder / "c_truncated.parquet").write_bytes(data[: len(data) // 2])
    (folder / "d_text.parquet").write_text('{"id": "t1", "required": []}\n', encoding="utf-8")
    (folder / "e_empty.parquet").write_bytes(b"")
    write_parquet(folder / "f_zero_rows.parquet", [])
    return dataset(folder)


def hostile_jsonl(folder: Path) -> Dataset:
    folder.mkdir()
    write_jsonl(
        folder / "a_good.jsonl", [{"id": "j1", "required": ["a"], "context": ["a"], "correct": False}]
    )
    torn = folder / "b_torn.jsonl"
    torn.write_bytes(
        b'{"id": "j2", "required": ["a"], "context": ["a"], "correct": true}\n{"id": "j3", "requ'
    )
    (folder / "c_empty.jsonl").write_bytes(b"")
    (folder / "d_bad_utf8.jsonl").write_bytes(
        b'{"id": "j4", "required": [], "context": []}\n{"id": "j5", "question": "\xff"}\n'
    )
    return dataset(folder)


def expected_rows(ds: Dataset) -> list[dict[str, Any]]:
    """What every engine must give, from the core's loaders file by file: a file they refuse
    is one invalid row with their reason; every run here has its own id."""
    if ds.format == "jsonl":
        return local_rows(ds)
    rows: list[dict[str, Any]] = []
    for path in ds.files:
        name = ds.relative(path)
        with open(path, "rb") as handle:
            try:
                next(parquet_runs.read_rows(handle), None)
            except parquet_runs.ParquetFileError as exc:
                rows.append({"file": name, "line": 1, "error": "invalid-parquet", "detail": str(exc)})
                continue
        records = list(read_runs(path))
        for record in records:
            if isinstance(record, LoadError):
                row = {"file": name, "line": record.line, "error": record.kind, "detail": record.detail}
                rows.append(row if record.field is None else {**row, "field": record.field})
            else:
                rows.append({"id": record.id, "file": name, "line": record.line, **record.diagnosis})
    return rows


def run_cli(capfd: Any, *args: str) -> tuple[int, str, str]:
    capfd.readouterr()
    status = main(list(args))
    out, err = capfd.readouterr()
    return status, out, err


def no_stack(err: str) -> None:
    for mark in STACK_MARKS:
        assert mark not in err, err


def test_the_bad_utf8_parquet_file_is_read_with_its_bad_rows_invalid_naming_the_field(tmp_path: Path) -> None:
    ds = hostile_parquet(tmp_path / "pq")
    rows = expected_rows(ds)
    bad = [row for row in rows if row["file"] == "a_bad_utf8.parquet"]
    assert [row.get("id") for row in bad] == ["u1", None, None, "u4"]
    assert bad[1]["field"] == "question" and "not valid UTF-8 (byte 0xff" in bad[1]["detail"]
    assert bad[2]["field"] == "id"
    unreadable = [row["file"] for row in rows if row["line"] == 1 and row.get("error") == "invalid-parquet"]
    assert unreadable == ["c_truncated.parquet", "d_text.parquet", "e_empty.parquet"]
    assert not [row for row in rows if row["file"] == "f_zero_rows.parquet"]


def test_each_hostile_file_alone_is_read_or_refused_in_one_line_never_a_stack(
    tmp_path: Path, capfd: Any
) -> None:
    ds = hostile_parquet(tmp_path / "pq")
    for path in ds.files:
        status, out, err = run_cli(capfd, "diagnose", str(path))
        no_stack(err)
        if path.name == "a_bad_utf8.parquet":
            assert status == 1
            assert [line.get("error") for line in map(json.loads, out.splitlines())] == [
                None, "invalid-parquet", "invalid-parquet", None
            ]  # fmt: skip
        elif path.name == "c_truncated.parquet":
            assert status == 2 and "not a readable Parquet file" in err, err
        elif path.name == "d_text.parquet":  # alone, a file is read for what it holds: JSON Lines
            assert status == 0 and json.loads(out) == {"id": "t1", "stage": "unresolved"}
        elif path.name == "e_empty.parquet":
            assert status == 2 and "the file is empty" in err, err
        else:
            assert status == 0, err  # the good file, and the one of no rows


def _engine_diagnose(capfd: Any, ds: Dataset, engine: str, out: Path) -> tuple[int, list[Any]]:
    status, _, err = run_cli(capfd, "diagnose", str(ds.root), "--engine", engine, "-o", str(out))
    no_stack(err)
    return status, read_jsonl(out)


def _engine_sample(capfd: Any, ds: Dataset, engine: str, out: Path) -> tuple[int, Any]:
    args = ("sample", str(ds.root), "--engine", engine, "--view", "all", "-n", "9", "--seed", "3")
    status, printed, err = run_cli(capfd, *args, "--json", "-o", str(out))
    no_stack(err)
    drawn = json.loads(printed)
    return status, (drawn["population"], drawn["ids"])


def _engine_stats(capfd: Any, ds: Dataset, engine: str) -> tuple[int, Any]:
    status, printed, err = run_cli(capfd, "stats", str(ds.root), "--engine", engine, "--json")
    no_stack(err)
    return status, json.loads(printed)


@pytest.mark.parametrize("kind", ["parquet", "jsonl"])
def test_local_duckdb_and_spark_give_the_same_rows_and_exit_status_on_a_hostile_dataset(
    tmp_path: Path, capfd: Any, kind: str
) -> None:
    ds = hostile_parquet(tmp_path / "ds") if kind == "parquet" else hostile_jsonl(tmp_path / "ds")
    expected = expected_rows(ds)
    assert any("error" in row for row in expected)
    shared_session()
    results = {}
    for engine in ("duckdb", "spark"):
        diagnosed = _engine_diagnose(capfd, ds, engine, tmp_path / f"{engine}.jsonl")
        assert diagnosed == (1, expected), engine
        results[engine] = (
            _engine_sample(capfd, ds, engine, tmp_path / f"{engine}-sample.jsonl"),
            _engine_stats(capfd, ds, engine),
        )
    assert results["duckdb"] == results["spark"]
    (sample_status, (population, ids)), (stats_status, stats) = results["duckdb"]
    valid = [row for row in expected if "stage" in row or row.get("error") == "answer-label"]
    assert (sample_status, population, sorted(ids)) == (1, len(valid), sorted(row["id"] for row in valid))
    assert (stats_status, stats["invalid_lines"]) == (1, len(expected) - len(valid))


def test_duckdb_reads_a_bad_string_in_a_column_its_sql_reads_as_the_other_engines_do(
    tmp_path: Path, capfd: Any
) -> None:
    """Bad text where SQL reads (the id, a required ID) or, for a sample, anywhere in the row:
    DuckDB stops at it, and the command runs again with that file read exactly."""
    from ragdiag_tui.engines.duckdb.schema import plan

    folder = tmp_path / "ds"
    write_parquet(folder / "a.parquet", [{"id": "a1", "required": ["x"], "context": ["x"], "correct": True}])
    bad = pa.table(
        {
            "id": _bad_text([b"b1", b"b\xff2", b"b3"]),
            "required": pa.ListArray.from_arrays(
                pa.array([0, 1, 2, 3], pa.int32()), _bad_text([b"x", b"x", b"y\xff"])
            ),
            "context": pa.array([["x"], ["x"], []], pa.list_(pa.string())),
            "correct": pa.array([True, False, True]),
            "question": pa.array(["q", "q", "q"]),
        }
    )
    pq.write_table(bad, folder / "b.parquet")
    ds = dataset(folder)
    assert None not in plan(ds.files, None, (), whole_row=True)  # SQL would read both files
    expected = expected_rows(ds)
    assert [row.get("error") for row in expected] == [None, None, "invalid-parquet", "invalid-parquet"]
    assert _engine_diagnose(capfd, ds, "duckdb", tmp_path / "d.jsonl") == (1, expected)
    _, (population, ids) = _engine_sample(capfd, ds, "duckdb", tmp_path / "s.jsonl")
    assert (population, sorted(ids)) == (2, ["a1", "b1"])
    status, stats = _engine_stats(capfd, ds, "duckdb")
    assert (status, stats["runs"], stats["invalid_lines"]) == (1, 2, 2)
