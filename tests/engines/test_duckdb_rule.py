"""The DuckDB engine's verdicts equal the local path's: on the sample files, the seed's
cases, the UTF-16 order vectors, Parquet columns of other types, and mapped fields."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from ragdiag_tui.core.runs.mapping import FieldMap

from ..core.conftest import seed_cases_path
from .conftest import (
    REPO,
    dataset,
    local_rows,
    local_stats,
    pa,
    pq,
    read_jsonl,
    same_rows,
    write_jsonl,
    write_parquet,
)

engine = pytest.importorskip("ragdiag_tui.engines.duckdb", reason="the duckdb extra is not installed")

SAMPLES = {
    "demo.jsonl": None,
    "demo_after.jsonl": None,
    "bad_lines.jsonl": None,
    "runs.parquet": None,
    "llamaindex_retrieval.jsonl": "llamaindex",
    "ragas_runs.jsonl": "ragas",
    "ragas_results.jsonl": "ragas",
}


def engine_rows(ds: Any, tmp_path: Path, mapping: FieldMap | None = None, suffix: str = ".jsonl") -> list:
    out = tmp_path / f"diagnoses{suffix}"
    engine.diagnose(ds, mapping, out)
    if suffix == ".jsonl":
        return read_jsonl(out)
    table = pq.read_table(out).to_pylist()
    return [{key: value for key, value in row.items() if value is not None or key == "id"} for row in table]


@pytest.mark.parametrize("name", list(SAMPLES))
def test_the_engine_diagnoses_each_sample_file_as_the_local_path_does(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    mapping = FieldMap.from_specs((), SAMPLES[name]) if SAMPLES[name] else None
    ds = dataset(REPO / "sample_runs" / name)
    expected = local_rows(ds, mapping)
    assert same_rows(engine_rows(ds, tmp_path, mapping), expected)
    if not any(row.get("repeated") for row in expected):
        args = ("--preset", SAMPLES[name]) if SAMPLES[name] else ()
        assert engine.stats(ds, mapping) == local_stats(REPO / "sample_runs" / name, capsys, *args)


def test_a_parquet_diagnosis_holds_the_same_rows(tmp_path: Path) -> None:
    ds = dataset(REPO / "sample_runs" / "runs.parquet")
    rows = engine_rows(ds, tmp_path, suffix=".parquet")
    expected = local_rows(ds)
    assert [row["id"] for row in rows] == [row["id"] for row in expected]
    assert [row.get("stage") or row.get("error") for row in rows] == [
        row.get("stage") or row.get("error") for row in expected
    ]


def seed_runs() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    cases = json.loads(seed_cases_path().read_text(encoding="utf-8"))
    return [{"id": case["id"], **case["input"]} for case in cases], [case["expected"] for case in cases]


@pytest.mark.parametrize("fmt", ["jsonl", "parquet"])
def test_the_seed_cases_give_their_expected_outcomes(fmt: str, tmp_path: Path) -> None:
    runs, expected = seed_runs()
    write = write_jsonl if fmt == "jsonl" else write_parquet
    ds = dataset(write(tmp_path / "data" / f"seed.{fmt}", runs))
    rows = engine_rows(ds, tmp_path)
    got = [{key: value for key, value in row.items() if key not in ("id", "file", "line")} for row in rows]
    assert got == expected
    assert [list(row) for row in got] == [list(case) for case in expected]  # key for key, in order


UTF16_VECTORS = [
    ["\U0001f600", "\ue000"],  # astral before a private-use char in UTF-16, after it by code point
    ["\uffff", "\U00010000", "a", "\ue001x"],
    ["z\U0001f600", "z\uff5e", "z"],
    ["b", "a", "é", "ß"],  # no char at or above U+E000: the SQL order is already right
    ["\ud7ff", "\ue000", "\U0010ffff"],
]


@pytest.mark.parametrize("ids", UTF16_VECTORS, ids=repr)
@pytest.mark.parametrize("fmt", ["jsonl", "parquet"])
def test_missing_is_in_utf16_code_unit_order(ids: list[str], fmt: str, tmp_path: Path) -> None:
    from ..core.test_rule import reference_evaluate

    runs = [{"id": "r1", "required": ids, "context": [], "correct": True},
            {"id": "r2", "required": ids + ids[:1], "context": ids[-1:], "correct": False}]  # fmt: skip
    write = write_jsonl if fmt == "jsonl" else write_parquet
    ds = dataset(write(tmp_path / "data" / f"runs.{fmt}", runs))
    rows = engine_rows(ds, tmp_path)
    assert [row["missing"] for row in rows] == [reference_evaluate(run)["missing"] for run in runs]


def test_parquet_columns_of_other_types_make_runs_invalid_as_locally(tmp_path: Path) -> None:
    table = pa.table({
        "id": pa.array([1, None, 3, 4]),
        "required": pa.array(["d1", None, "d3", None]),
        "context": pa.array([["d1"], ["d2"], None, ["d4"]], pa.list_(pa.string())),
        "correct": pa.array(["true", "false", None, "x"]),
    })  # fmt: skip
    path = tmp_path / "data" / "typed.parquet"
    path.parent.mkdir()
    pq.write_table(table, path)
    ds = dataset(path)
    rows = engine_rows(ds, tmp_path)
    assert rows == local_rows(ds)
    assert [row.get("field") for row in rows] == ["id", None, "id", "id"]


def test_null_items_and_an_absent_context_are_invalid_runs_named_as_locally(tmp_path: Path) -> None:
    runs = [
        {"id": "a", "required": ["d1", None], "context": ["d1"], "correct": True},
        {"id": "b", "required": ["d1"], "context": [None], "correct": True},
        {"id": "c", "required": ["d1"], "correct": True},
        {"id": "d", "required": ["d1"], "context": [], "correct": None},
        {"required": [], "context": None},
    ]
    ds = dataset(write_parquet(tmp_path / "data" / "runs.parquet", runs))
    rows = engine_rows(ds, tmp_path)
    assert rows == local_rows(ds)
    assert [row.get("field") for row in rows] == ["required", "context", "context", None, None]
    assert rows[-1]["id"] == "runs.parquet:5"


def test_mapped_struct_paths_in_parquet_are_followed_as_the_field_map_follows_them(tmp_path: Path) -> None:
    doc = pa.struct([("doc_id", pa.string())])
    name = pa.struct([("name", pa.string())])
    table = pa.table({
        "run": pa.array([{"name": "a"}, {"name": None}, None, {"name": "d"}], name),
        "gold": pa.array([{"ids": ["d1", "d2"]}, {"ids": ["d1"]}, {"ids": []}, None],
                         pa.struct([("ids", pa.list_(pa.string()))])),
        "retrieved": pa.array([[{"doc_id": "d1"}], [{"doc_id": "d1"}, None], [], [{"doc_id": None}]],
                              pa.list_(doc)),
        "ok": pa.array([True, False, True, None]),
    })  # fmt: skip
    path = tmp_path / "data" / "nested.parquet"
    path.parent.mkdir()
    pq.write_table(table, path)
    specs = ("id=run.name", "required=gold.ids", "context=retrieved[].doc_id", "correct=ok")
    mapping = FieldMap.from_specs(specs)
    ds = dataset(path)
    from ragdiag_tui.engines.duckdb.schema import plan

    assert plan(ds.files, mapping, ()) != [None]  # read by SQL
    rows = engine_rows(ds, tmp_path, mapping)
    assert rows == local_rows(ds, mapping)
    assert rows[1]["field"] == "retrieved[].doc_id"


def test_a_column_exported_as_json_text_is_read_as_locally(tmp_path: Path) -> None:
    from ragdiag_tui.core.common.jsonutil import dumps
    from ragdiag_tui.core.runs.parquet_runs import write_runs

    runs = [{"id": "a", "required": ["d1"], "context": ["d1"], "correct": True},
            {"id": "b", "required": ["d1"], "context": [], "correct": "yes"}]  # fmt: skip
    path = tmp_path / "data" / "exported.parquet"
    path.parent.mkdir()
    with open(path, "wb") as handle:
        write_runs(handle, runs, dumps)
    ds = dataset(path)
    assert engine_rows(ds, tmp_path) == local_rows(ds)


def test_a_repeated_id_counts_once_per_occurrence_and_runs_without_id_are_named_by_file_and_line(
    tmp_path: Path,
) -> None:
    run = {"id": "same", "required": ["d1"], "context": [], "correct": True}
    write_jsonl(
        tmp_path / "data" / "a.jsonl", [run, run, {"required": ["d1"], "context": ["d1"], "correct": True}]
    )
    write_jsonl(tmp_path / "data" / "b" / "c.jsonl", ["", run])
    ds = dataset(tmp_path / "data")
    rows = engine_rows(ds, tmp_path)
    assert [(row["id"], row["file"], row["line"]) for row in rows] == [
        ("same", "a.jsonl", 1), ("same", "a.jsonl", 2), ("a.jsonl:3", "a.jsonl", 3), ("same", "b/c.jsonl", 2)
    ]  # fmt: skip
    stats = engine.stats(ds, None)
    assert (stats["runs"], stats["lucky_in_file"], stats["most_missed"]) == (4, 3, [{"id": "d1", "runs": 3}])
    parquet = tmp_path / "pq"
    write_parquet(parquet / "a.parquet", [run, run])
    assert engine.stats(dataset(parquet), None)["lucky_in_file"] == 2


def test_a_line_that_is_not_json_or_not_an_object_is_invalid_with_its_file_and_line(tmp_path: Path) -> None:
    good = {"id": "g", "required": ["d1"], "context": ["d1"], "correct": True}
    write_jsonl(tmp_path / "data" / "a.jsonl", [good, "{not json", "[1, 2]", "", '"text"'])
    ds = dataset(tmp_path / "data")
    rows = engine_rows(ds, tmp_path)
    assert rows == local_rows(ds)
    assert [(row["file"], row["line"], row.get("error")) for row in rows[1:]] == [
        ("a.jsonl", 2, "invalid-json"), ("a.jsonl", 3, "invalid-run"), ("a.jsonl", 5, "invalid-run")
    ]  # fmt: skip


def test_the_same_runs_as_parquet_or_json_lines_give_the_same_stats(tmp_path: Path) -> None:
    runs = read_jsonl(REPO / "sample_runs" / "demo.jsonl")
    write_parquet(tmp_path / "pq" / "a.parquet", runs[:50], extra=("model",))
    write_parquet(tmp_path / "pq" / "b.parquet", runs[50:], extra=("model",))
    shutil.copy(REPO / "sample_runs" / "demo.jsonl", tmp_path / "demo.jsonl")
    as_parquet = engine.stats(dataset(tmp_path / "pq"), None, group_by="model")
    as_lines = engine.stats(dataset(tmp_path / "demo.jsonl"), None, group_by="model")
    assert as_parquet == as_lines


def test_a_parquet_file_that_cannot_be_read_is_an_invalid_line_and_the_rest_is_diagnosed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from ragdiag_tui.cli import main

    write_parquet(tmp_path / "data" / "a.parquet", seed_runs()[0])
    (tmp_path / "data" / "b.parquet").write_bytes(b"PAR1 not really parquet")
    code = main(["stats", str(tmp_path / "data"), "--json"])
    out, err = capsys.readouterr()
    assert code == 1, err
    assert json.loads(out)["runs"] == 4
    assert json.loads(out)["invalid_lines"] == 1
    rows = engine_rows(dataset(tmp_path / "data"), tmp_path)
    assert rows[-1]["file"] == "b.parquet"
    assert rows[-1]["error"] == "invalid-parquet"


HOSTILE = REPO / "tests" / "data" / "hostile"
HOSTILE_LINES = sorted(
    name
    for name, case in json.loads((HOSTILE / "MANIFEST.json").read_text(encoding="utf-8")).items()
    if name.endswith(".jsonl") and case.get("expect") in ("loads", "line-errors")
)


@pytest.mark.parametrize("name", HOSTILE_LINES)
def test_the_hostile_corpus_gets_the_local_verdicts_as_json_lines_and_as_parquet(
    name: str, tmp_path: Path
) -> None:
    from ragdiag_tui.core.common.jsonutil import decode
    from ragdiag_tui.core.runs.loading import Run, read_runs

    folder = tmp_path / "lines"
    folder.mkdir()
    shutil.copy(HOSTILE / name, folder / name)
    ds = dataset(folder)
    assert same_rows(engine_rows(ds, tmp_path), local_rows(ds))
    # Its valid runs whose fields Parquet can hold, as Parquet: read by SQL.
    runs = []
    for record in read_runs(HOSTILE / name):
        if type(record) is Run and not any(
            "\ud800" <= c <= "\udfff" for c in json.dumps(record.id, ensure_ascii=False)
        ):
            obj = decode(record.raw.decode("utf-8", "surrogatepass"))
            runs.append({"id": record.id, "required": record.required, "context": record.context,
                         "correct": obj.get("correct")})  # fmt: skip
    if runs:
        try:
            path = write_parquet(tmp_path / "pq" / "runs.parquet", runs)
        except (pa.ArrowException, UnicodeEncodeError):
            return  # a lone surrogate in an ID list: no Parquet text can hold it
        parquet = dataset(path)
        assert same_rows(engine_rows(parquet, tmp_path), local_rows(parquet))


def test_parquet_files_of_different_schemas_are_read_each_by_its_own(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    runs = read_jsonl(REPO / "sample_runs" / "demo.jsonl")
    write_parquet(tmp_path / "d" / "a.parquet", runs[:30], extra=("model",))
    write_parquet(tmp_path / "d" / "b.parquet", runs[30:60])
    reordered = pq.read_table(write_parquet(tmp_path / "c.parquet", runs[60:], extra=("model", "source")))
    pq.write_table(reordered.select(["source", "context", "model", "correct", "required", "id"]),
                   tmp_path / "d" / "c.parquet")  # fmt: skip
    ds = dataset(tmp_path / "d")
    assert same_rows(engine_rows(ds, tmp_path), local_rows(ds))
    assert engine.stats(ds, None) == local_stats(REPO / "sample_runs" / "demo.jsonl", capsys)
    grouped = engine.stats(ds, None, group_by="model")
    assert [group["value"] for group in grouped["groups"]][-1] is None  # b.parquet has no model
    drawn = engine.sample(ds, None, view="all", filters=[], n=80, seed=1, out=tmp_path / "s.jsonl")
    assert sorted(drawn.ids) == sorted(run["id"] for run in runs)
    written = {run["id"]: run for run in read_jsonl(tmp_path / "s.jsonl")}
    assert "model" not in written[runs[40]["id"]] and written[runs[70]["id"]]["source"] == runs[70]["source"]
