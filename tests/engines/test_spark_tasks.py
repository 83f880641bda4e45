"""What a Spark task runs, without Spark: the functions given to `mapInArrow`, on Arrow batches."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ragdiag_tui.engines.results import sample_key

pa = pytest.importorskip("pyarrow")


def _tasks(*files: tuple[int, Path, str]) -> tuple[list[object], list[object]]:
    """A partition's batches (the numbers of its files, as `spark.range` makes them) and the files."""
    from ragdiag_tui.engines.spark.verdicts import FileTask

    tasks = [FileTask(index, str(path), rel, "jsonl") for index, path, rel in files]
    return [pa.RecordBatch.from_pydict({"id": pa.array(range(len(tasks)), pa.int64())})], tasks


def test_a_task_keeps_its_n_smallest_keys_however_many_runs_it_reads(tmp_path: Path) -> None:
    from ragdiag_tui.engines.spark.batches import sample_batches

    runs = [{"id": f"r{n}", "required": ["a"], "context": ["a"], "correct": True} for n in range(20_000)]
    path = tmp_path / "big.jsonl"
    path.write_text("".join(json.dumps(run) + "\n" for run in runs) + "not json\n", encoding="utf-8")
    batches = sample_batches(*_tasks((4, path, "big.jsonl")), None, "pass", (), 9, keep=3)
    rows = pa.Table.from_batches(list(batches)).to_pylist()
    *drawn, counts = rows
    expected = sorted(run["id"] for run in runs)
    expected.sort(key=lambda run_id: sample_key(9, run_id))
    assert [row["id"].decode() for row in drawn] == expected[:3]
    assert [json.loads(row["raw"])["id"] for row in drawn] == expected[:3]
    assert {row["file"] for row in drawn} == {4}
    assert (counts["key"], counts["population"], counts["invalid"]) == (None, 20_000, 1)


def test_a_task_names_an_unnamed_run_by_file_and_line_and_writes_that_name(tmp_path: Path) -> None:
    from ragdiag_tui.core.runs.mapping import FieldMap
    from ragdiag_tui.engines.spark.batches import sample_batches

    path = tmp_path / "p.jsonl"
    path.write_text('\n{"required": ["a"], "context": ["a"], "correct": true, "x": 1}\n', encoding="utf-8")
    field_map = FieldMap.from_specs(["id=meta.name"])
    batches = sample_batches(*_tasks((0, path, "d/p.jsonl")), field_map, "all", (), 1, keep=5)
    drawn, _ = pa.Table.from_batches(list(batches)).to_pylist()
    assert drawn["id"] == b"d/p.jsonl:2"
    assert json.loads(drawn["raw"]) == {
        "required": ["a"], "context": ["a"], "correct": True, "x": 1, "meta.name": "d/p.jsonl:2"
    }  # fmt: skip
