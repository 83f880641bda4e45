"""What evaluation tools write: RAGAS results (JSON Lines and CSV), LlamaIndex retrieval
results, and Parquet files, read and written back."""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path
from typing import Any

import pytest

from ragdiag_tui.cli import main
from ragdiag_tui.core.output.export import export_runs
from ragdiag_tui.core.review.state import Review
from ragdiag_tui.core.runs.loading import FileError, LoadError, Run, read_runs
from ragdiag_tui.core.runs.mapping import FieldMap, literal_id_list
from ragdiag_tui.core.runs.store import RunStore

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

SAMPLES = Path(__file__).resolve().parents[2] / "sample_runs"
RAGAS = FieldMap.from_specs(preset="ragas")


def records(path: Path, field_map: FieldMap | None = None) -> list[Run | LoadError]:
    return list(read_runs(path, field_map=field_map))


def outcomes(path: Path, field_map: FieldMap | None = None) -> list[Any]:
    return [
        record.diagnosis if isinstance(record, Run) else (record.line, record.field, record.reason)
        for record in records(path, field_map)
    ]


# -- RAGAS results ---------------------------------------------------------------------

RAGAS_HEADER = ",user_input,retrieved_context_ids,reference_context_ids,response,correct,faithfulness\n"


@pytest.mark.parametrize(
    ("cell", "ids"),
    [
        ("['d1', 'd2']", ["d1", "d2"]),
        ('["d1", "d2"]', ["d1", "d2"]),
        ("('d1',)", ["d1"]),
        ("[1, 'd2', 30]", [1, "d2", 30]),
        ("[]", []),
    ],
)
def test_literal_id_lists_parse(cell: str, ids: list[Any]) -> None:
    assert literal_id_list(cell) == ids


@pytest.mark.parametrize(
    "cell",
    [
        "__import__('os').system('echo owned')",
        "['a', __import__('os')]",
        "[x for x in 'ab']",
        "{'a', 'b'}",
        "['a', ['b']]",
        "[True]",
        "[1.5]",
        "['a' + 'b']",
        "[",
    ],
)
def test_literal_id_lists_refuse_anything_else_and_never_run_it(cell: str) -> None:
    with pytest.raises(ValueError):
        literal_id_list(cell)


def test_ragas_csv_with_python_list_cells_and_nan_metrics_loads(tmp_path: Path) -> None:
    path = tmp_path / "results.csv"
    path.write_text(
        RAGAS_HEADER
        + "0,Q1,\"['d1', 'd2']\",['d1'],A1,True,0.9\n"
        + "1,Q2,['d1'],\"['d1', 'd3']\",A2,True,\n"  # NaN metric: pandas writes an empty cell
        + '2,Q3,"[1, 2]",[2],A3,False,NaN\n',
        encoding="utf-8",
    )
    assert outcomes(path, RAGAS) == [
        {"stage": "pass", "missing": []},
        {"stage": "retrieval", "missing": ["d3"]},
        {"stage": "generation", "missing": []},  # integer IDs read as "1", "2"
    ]


def test_ragas_jsonl_integer_ids_are_read_as_decimal_strings(tmp_path: Path) -> None:
    path = tmp_path / "results.jsonl"
    rows = [
        {
            "user_input": "Q",
            "retrieved_context_ids": [1, "2"],
            "reference_context_ids": [2, 3],
            "correct": True,
        },
        {"user_input": "Q2", "retrieved_context_ids": [10], "reference_context_ids": ["10"], "correct": True},
    ]
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    assert outcomes(path, RAGAS) == [
        {"stage": "retrieval", "missing": ["3"]},
        {"stage": "pass", "missing": []},
    ]


def test_without_the_preset_integer_ids_stay_invalid(tmp_path: Path) -> None:
    path = tmp_path / "results.jsonl"
    path.write_text('{"required": [1], "context": [1], "correct": true}\n', encoding="utf-8")
    [error] = records(path)
    assert isinstance(error, LoadError)
    assert error.field == "required"
    mapped = FieldMap.from_specs(["required=required", "context=context"])
    [error] = records(path, mapped)
    assert isinstance(error, LoadError)


def test_ragas_csv_cell_that_is_not_a_list_names_its_column(tmp_path: Path) -> None:
    path = tmp_path / "results.csv"
    path.write_text(RAGAS_HEADER + "0,Q,\"['d1', os]\",['d1'],A,True,1.0\n", encoding="utf-8")
    [error] = records(path, RAGAS)
    assert isinstance(error, LoadError)
    assert (error.line, error.field, error.mapped_to) == (2, "retrieved_context_ids", "context")


@pytest.mark.parametrize("name", ["ragas_results.csv", "ragas_results.jsonl"])
def test_ragas_result_samples(name: str) -> None:
    stages = [outcome.get("stage") or outcome.get("error") for outcome in outcomes(SAMPLES / name, RAGAS)]
    assert stages == [
        "pass",
        "retrieval",
        "pass",
        "retrieval",
        "retrieval",
        "generation",
        "answer-label",
        "retrieval",
    ]


def test_llamaindex_preset_reads_retrieval_results() -> None:
    field_map = FieldMap.from_specs(preset="llamaindex")
    loaded = records(SAMPLES / "llamaindex_retrieval.jsonl", field_map)
    assert all(isinstance(record, Run) for record in loaded)
    first = loaded[0]
    assert isinstance(first, Run)
    assert first.required == ["hr-policy-014"]
    assert first.context == ["hr-policy-077", "hr-policy-014"]
    assert first.question == "What is the PTO carry-over cap?"
    # No answer label in LlamaIndex's results: the rule asks for one.
    assert first.diagnosis == {"error": "answer-label"}
    assert loaded[4].diagnosis == {"stage": "unresolved"}


def test_llamaindex_preset_with_a_team_label(tmp_path: Path) -> None:
    path = tmp_path / "li.jsonl"
    row = {"query": "Q", "expected_ids": ["a", "b"], "retrieved_ids": ["a"], "judge": {"ok": True}}
    path.write_text(json.dumps(row) + "\n", encoding="utf-8")
    field_map = FieldMap.from_specs(["correct=judge.ok"], preset="llamaindex")
    assert outcomes(path, field_map) == [{"stage": "retrieval", "missing": ["b"]}]


def test_presets_are_listed_in_help(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["diagnose", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "llamaindex: required=expected_ids, context=retrieved_ids, question=query" in out
    assert "ragas: required=reference_context_ids" in out
    assert "integer IDs are read as their decimal strings" in out


# -- Parquet ------------------------------------------------------------------------------


def write_parquet(path: Path, rows: list[dict[str, Any]], row_group_size: int = 2) -> Path:
    pq.write_table(pa.Table.from_pylist(rows), path, row_group_size=row_group_size)
    return path


def test_parquet_rows_are_validated_like_json_runs_with_row_numbers(tmp_path: Path) -> None:
    path = write_parquet(
        tmp_path / "runs.parquet",
        [
            {"id": "a", "required": ["D1"], "context": ["D1"], "correct": True, "score": 0.5},
            {"id": "b", "required": ["D1", "D2"], "context": ["D1"], "correct": True, "score": math.nan},
            {"id": "c", "required": ["D1"], "context": None, "correct": False, "score": None},
            {"id": "a", "required": ["D1"], "context": ["D1"], "correct": False, "score": 1.0},
            {"id": None, "required": None, "context": None, "correct": None, "score": 1.0},
        ],
    )
    assert outcomes(path) == [
        {"stage": "pass", "missing": []},
        {"stage": "retrieval", "missing": ["D2"]},
        (3, "context", "absent, but the run has required IDs to check"),
        (4, "id", 'duplicate id "a", first seen on line 1'),
        {"stage": "unresolved"},
    ]
    store = RunStore.load(path)
    assert store.ids[4] == "5"  # named by its row number, as a JSON run by its line
    assert math.isnan(store.raw(1)["score"])


def test_parquet_progress_is_reported_as_row_groups_arrive(tmp_path: Path) -> None:
    rows = [{"id": str(n), "required": ["D"], "context": ["D"], "correct": True} for n in range(10)]
    path = write_parquet(tmp_path / "runs.parquet", rows, row_group_size=3)
    seen: list[tuple[int, int]] = []
    loaded = list(read_runs(path, lambda done, total: seen.append((done, total))))
    assert len(loaded) == 10
    assert seen[-1][0] == seen[-1][1] == path.stat().st_size
    assert [done for done, _ in seen] == sorted(done for done, _ in seen)


def test_parquet_sample_loads() -> None:
    loaded = records(SAMPLES / "runs.parquet")
    assert len(loaded) == 12
    errors = [record for record in loaded if isinstance(record, LoadError)]
    assert [(error.line, error.id, error.field) for error in errors] == [(12, "run-0012", "context")]


def test_a_broken_parquet_file_is_refused_with_its_name(tmp_path: Path) -> None:
    path = tmp_path / "broken.parquet"
    path.write_bytes(b"PAR1" + b"\0" * 40)
    with pytest.raises(FileError, match=r"broken\.parquet: not a readable Parquet file"):
        records(path)


def test_without_pyarrow_the_message_names_the_extra(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write_parquet(tmp_path / "runs.parquet", [{"required": ["D"], "context": ["D"], "correct": True}])
    monkeypatch.setitem(sys.modules, "pyarrow", None)
    monkeypatch.setitem(sys.modules, "pyarrow.parquet", None)
    assert main(["diagnose", str(path)]) == 2
    err = capsys.readouterr().err
    assert "runs.parquet" in err
    assert "pip install 'ragdiag-tui[parquet]'" in err
    json_path = tmp_path / "runs.jsonl"
    json_path.write_text('{"required": ["D"], "context": ["D"], "correct": true}\n', encoding="utf-8")
    assert main(["export", str(json_path), "-o", str(tmp_path / "out.parquet")]) == 2
    assert "pip install 'ragdiag-tui[parquet]'" in capsys.readouterr().err
    assert not (tmp_path / "out.parquet").exists()


def test_parquet_export_round_trips(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    runs = [
        {"id": "a", "required": ["D1"], "context": ["D1"], "correct": True, "latency_ms": 12},
        {"id": "b", "required": ["D1", "D2"], "context": ["D1"], "correct": "yes", "meta": {"k": [1, 2]}},
        {"id": "c", "required": [], "context": ["D3"], "correct": False, "score": 0.25},
        {"id": "d", "required": ["\u00e9"], "context": ["\u00e9"], "correct": None, "big": 2**70},
    ]
    source = tmp_path / "runs.jsonl"
    source.write_text("".join(json.dumps(run) + "\n" for run in runs), encoding="utf-8")
    (tmp_path / "runs.jsonl.review.jsonl").write_text(
        json.dumps(
            {
                "v": 1,
                "run": "d",
                "label": True,
                "note": "checked",
                "reviewer": "alice",
                "at": "2026-11-30T15:00:00Z",
            }
        )
        + "\n",
        encoding="utf-8",
    )
    jsonl_out, parquet_out = tmp_path / "out.jsonl", tmp_path / "out.parquet"
    assert main(["export", str(source), "-o", str(jsonl_out)]) == 0
    assert main(["export", str(source), "-o", str(parquet_out)]) == 0
    assert "(parquet)" in capsys.readouterr().err
    expected = [json.loads(line) for line in jsonl_out.read_text(encoding="utf-8").splitlines()]
    store = RunStore.load(parquet_out)
    got = [store.raw(row) for row in range(len(store))]
    assert len(got) == len(expected)
    for mine, theirs in zip(got, expected, strict=True):
        assert set(mine) >= set(theirs)
        for key, value in theirs.items():
            assert mine[key] == value, key
    # Loaded back, the runs diagnose as exported: the label in force is the file's now.
    assert [store.diagnosis(row) for row in range(len(store))] == [
        {"stage": "pass", "missing": []},
        {"error": "answer-label"},
        {"stage": "unresolved"},
        {"stage": "pass", "missing": []},
    ]


def test_parquet_nan_and_nulls_round_trip(tmp_path: Path) -> None:
    source = write_parquet(
        tmp_path / "in.parquet",
        [
            {"id": "a", "required": ["D"], "context": ["D"], "correct": True, "score": math.nan},
            {"id": "b", "required": ["D"], "context": ["D"], "correct": None, "score": None},
        ],
    )
    store = RunStore.load(source)
    out = tmp_path / "out.parquet"
    assert export_runs(store, Review(store), out, "parquet") == 2
    again = RunStore.load(out)
    assert math.isnan(again.raw(0)["score"])
    assert again.raw(1)["score"] is None
    assert [again.diagnosis(row) for row in range(2)] == [
        {"stage": "pass", "missing": []},
        {"error": "answer-label"},
    ]


def test_parquet_export_of_a_store_writes_row_groups(tmp_path: Path) -> None:
    source = tmp_path / "runs.jsonl"
    source.write_text(
        "".join(
            json.dumps({"id": f"r{n}", "required": ["D"], "context": ["D"], "correct": n % 2 == 0}) + "\n"
            for n in range(5)
        ),
        encoding="utf-8",
    )
    store = RunStore.load(source)
    out = tmp_path / "out.parquet"
    assert export_runs(store, Review(store), out, "parquet") == 5
    table = pq.read_table(out)
    assert table.column("id").to_pylist() == [f"r{n}" for n in range(5)]
    assert table.column("correct").to_pylist() == [True, False, True, False, True]
    assert table.schema.field("required").type.value_type == pa.string()
