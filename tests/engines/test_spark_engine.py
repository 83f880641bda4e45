"""The Spark engine against the local path: the same verdicts, counts and samples.

All the tests of this module share one local[2] session (`spark_support.shared_session`).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from ragdiag_tui.core.runs.mapping import FieldMap
from ragdiag_tui.engines.dataset import open_dataset
from ragdiag_tui.engines.results import sample_key

from ..core.conftest import seed_cases_path
from .conftest import local_rows, local_stats, read_jsonl, same_rows, write_jsonl
from .spark_support import ONE_SESSION, SAMPLE_RUNS, spark

__all__ = ["spark"]  # the shared session fixture

pytestmark = [pytest.mark.usefixtures("spark"), ONE_SESSION]

RAGAS_ARGS = ("--preset", "ragas", "--map", "id=meta.sample_id", "--map", "context=retrieval.chunks[].doc_id")
RAGAS_NESTED = FieldMap.from_specs(["id=meta.sample_id", "context=retrieval.chunks[].doc_id"], preset="ragas")

# Runs the rule and the loaders have edge cases for (RULE.md), one per line, beside their expected
# verdicts from the local path; written with a BOM and a CRLF line end, blank lines, and a line
# nested past the loaders' depth.
HOSTILE_LINES = [
    b'\xef\xbb\xbf{"id": "bom", "required": ["a"], "context": ["a"], "correct": true}\r',
    b'{"id": "astral", "required": ["\\ue000", "\\ud83d\\ude00", "b", "b"], "context": [], "correct": true}',
    b'{"id": "nan-score", "required": ["a"], "context": ["a"], "correct": false, "score": NaN}',
    b"",
    b'{"id": "label-text", "required": ["a"], "context": ["a"], "correct": "true"}',
    b'{"id": "no-context", "required": ["a"], "correct": false}',
    b'{"id": "number-id-in-context", "required": ["a"], "context": [1], "correct": true}',
    b'{"id": "empty-required", "required": [], "context": ["a"], "correct": true}',
    b"   ",
    b"[" * 600 + b"]" * 600,
    b'{"id": null, "required": ["x"], "context": ["y"], "correct": true}',
    b"not json at all",
    b'{"id": "nan-in-context", "required": ["a"], "context": [NaN], "correct": true}',
    b'{"id": "last", "required": ["z", "y"], "context": ["q"], "correct": false}',
]


def _dataset(*paths: Path) -> Any:
    return open_dataset([str(path) for path in paths])


def _copy(names: list[str], folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name in names:
        shutil.copy(SAMPLE_RUNS / name, folder / name)
    return folder


# -- stats -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "field_map", "args"),
    [("demo.jsonl", None, ()), ("runs.parquet", None, ()), ("ragas_runs.jsonl", RAGAS_NESTED, RAGAS_ARGS)],
    ids=["jsonl", "parquet", "jsonl-mapped"],
)
def test_stats_of_a_one_file_dataset_equal_the_local_stats(
    name: str, field_map: Any, args: tuple[str, ...], capsys: pytest.CaptureFixture[str]
) -> None:
    from ragdiag_tui.engines import spark as engine

    path = SAMPLE_RUNS / name
    assert engine.stats(_dataset(path), field_map) == local_stats(path, capsys, *args)


def test_stats_per_group_equal_the_local_stats_of_each_group(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from ragdiag_tui.engines import spark as engine

    runs = read_jsonl(SAMPLE_RUNS / "demo.jsonl")
    del runs[3]["model"]  # a run without the field: the null group, listed last
    folder = tmp_path / "lake"
    write_jsonl(folder / "b.jsonl", runs[:50])
    write_jsonl(folder / "a" / "c.jsonl", runs[50:])
    result = engine.stats(_dataset(folder), None, group_by="model")
    assert result["group_by"] == "model"
    assert result["all"] == local_stats(write_jsonl(tmp_path / "all.jsonl", runs), capsys)
    values = [group["value"] for group in result["groups"]]
    assert values == ["gpt-4o-mini", "llama-3.1-70b-instruct", None]
    for group in result["groups"]:
        members = [run for run in runs if run.get("model") == group["value"]]
        assert group["stats"] == local_stats(write_jsonl(tmp_path / "group.jsonl", members), capsys)


# -- diagnose ----------------------------------------------------------------------------------


def test_diagnoses_of_json_lines_files_equal_the_local_ones_line_for_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from ragdiag_tui.engines import spark as engine

    folder = _copy(["demo.jsonl", "bad_lines.jsonl"], tmp_path / "lake")
    (folder / "sub").mkdir()
    (folder / "sub" / "hostile.jsonl").write_bytes(b"\n".join(HOSTILE_LINES) + b"\n")
    out = tmp_path / "diagnoses.jsonl"
    dataset = _dataset(folder)
    summary = engine.diagnose(dataset, None, out)
    rows = read_jsonl(out)
    assert same_rows(rows, local_rows(dataset))
    assert [row["file"] for row in rows] == sorted(row["file"] for row in rows)  # the dataset's order
    assert {row["file"] for row in rows} == {"bad_lines.jsonl", "demo.jsonl", "sub/hostile.jsonl"}
    invalid = sum("detail" in row for row in rows)
    assert (summary.invalid, summary.runs) == (invalid, len(rows) - invalid)
    lucky = sum(local_stats(path, capsys)["lucky_in_file"] for path in dataset.files)
    assert summary.lucky == lucky  # bad_lines.jsonl's repeated id is a passing run, not lucky


def test_rows_name_their_file_and_line_and_unnamed_runs_and_lines_not_utf8(tmp_path: Path) -> None:
    from ragdiag_tui.engines import spark as engine

    write_jsonl(tmp_path / "d" / "x.jsonl", [{"required": ["a"], "context": [], "correct": True}])
    (tmp_path / "d" / "y.jsonl").write_bytes(b'\n{"id": 5}\n{"id": "n", "required": ["a"]}\n{"id": "\xff"}\n')
    out = tmp_path / "out.jsonl"
    engine.diagnose(_dataset(tmp_path / "d"), None, out)
    assert read_jsonl(out) == [
        {"id": "x.jsonl:1", "file": "x.jsonl", "line": 1, "stage": "retrieval", "missing": ["a"]},
        {"file": "y.jsonl", "line": 2, "error": "invalid-run", "field": "id",
         "detail": "field 'id': expected a string, got number"},
        {"id": "n", "file": "y.jsonl", "line": 3, "error": "answer-label"},
        {"file": "y.jsonl", "line": 4, "error": "invalid-json",
         "detail": "not valid UTF-8 (byte 0xff at column 9)"},
    ]  # fmt: skip


def test_parquet_rows_are_read_with_the_mapping_and_numbered_per_file(tmp_path: Path) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    from ragdiag_tui.engines import spark as engine

    # Nested objects as Parquet structs (one type per column: labels that are not booleans left out).
    runs = read_jsonl(SAMPLE_RUNS / "ragas_runs.jsonl")
    runs = [run for run in runs if run.get("correct") is None or isinstance(run["correct"], bool)]
    folder = tmp_path / "lake"
    folder.mkdir()
    pq.write_table(pa.Table.from_pylist(runs[:4]), folder / "part-1.parquet")
    pq.write_table(pa.Table.from_pylist(runs[4:]), folder / "part-0.parquet")
    out = tmp_path / "out.parquet"
    dataset = _dataset(folder)
    summary = engine.diagnose(dataset, RAGAS_NESTED, out)
    rows = [
        {key: value for key, value in row.items() if value is not None}
        for row in pq.read_table(out).to_pylist()
    ]
    assert [(row["file"], row["line"]) for row in rows] == [
        *(("part-0.parquet", n) for n in range(1, len(runs) - 3)),
        *(("part-1.parquet", n) for n in range(1, 5)),
    ]
    assert same_rows(rows, local_rows(dataset, RAGAS_NESTED))
    assert summary.runs == len(runs)


def test_the_seed_cases_get_their_expected_diagnoses(tmp_path: Path) -> None:
    from ragdiag_tui.engines import spark as engine

    cases = json.loads(seed_cases_path().read_text(encoding="utf-8"))
    write_jsonl(tmp_path / "seed" / "cases.jsonl", [{"id": case["id"], **case["input"]} for case in cases])
    out = tmp_path / "out.jsonl"
    engine.diagnose(_dataset(tmp_path / "seed"), None, out)
    got = {row.pop("id"): row for row in read_jsonl(out)}
    for case in cases:
        row = got[case["id"]]
        assert {key: value for key, value in row.items() if key not in ("file", "line")} == case["expected"]


# -- sample ------------------------------------------------------------------------------------


@pytest.mark.parametrize("view", ["lucky", "all"])
def test_sample_is_the_smallest_keys_of_the_local_population(tmp_path: Path, view: str) -> None:
    from ragdiag_tui.core.analysis.sampling import population, population_ids
    from ragdiag_tui.core.review.state import open_review
    from ragdiag_tui.engines import spark as engine

    source = SAMPLE_RUNS / "demo.jsonl"
    folder = _copy(["demo.jsonl"], tmp_path / "lake")
    review = open_review(source, None, use_journal=False, writable=False)
    expected_population = population_ids(review.store, population(review.store, review, view))
    filters = [("model", "gpt-4o-mini")] if view == "all" else []
    if filters:
        chosen = {run["id"] for run in read_jsonl(source) if run["model"] == "gpt-4o-mini"}
        expected_population = [run_id for run_id in expected_population if run_id in chosen]
    out = tmp_path / "sample.jsonl"
    summary = engine.sample(
        _dataset(folder), None, view=view, filters=filters, n=5, margin=0.05, seed=20261130, out=out
    )
    expected = sorted(expected_population, key=lambda run_id: sample_key(20261130, run_id))[:5]
    assert summary.ids == tuple(expected)
    assert summary.population == len(expected_population)
    written = read_jsonl(out)
    originals = {run["id"]: run for run in read_jsonl(source)}
    assert written == [originals[run_id] for run_id in expected]  # every field kept


def test_sample_auto_uses_the_populations_size_and_names_unnamed_runs_in_the_file(tmp_path: Path) -> None:
    from ragdiag_tui.core.analysis.estimate import auto_size
    from ragdiag_tui.core.runs.loading import Run, read_runs
    from ragdiag_tui.engines import spark as engine

    runs = [{"required": ["a"], "context": ["a"], "correct": True, "n": n} for n in range(30)]
    write_jsonl(tmp_path / "d" / "p.jsonl", runs)
    out = tmp_path / "sample.jsonl"
    summary = engine.sample(
        _dataset(tmp_path / "d"), None, view="pass", filters=[], n="auto", margin=0.2, seed=3, out=out
    )
    size = auto_size(30, 0.2)
    everyone = sorted((f"p.jsonl:{n}" for n in range(1, 31)), key=lambda run_id: sample_key(3, run_id))
    assert summary.ids == tuple(everyone[:size])
    assert summary.population == 30
    read_back = [record.id for record in read_runs(out) if isinstance(record, Run)]
    assert read_back == list(summary.ids)  # the sample file names its runs as the journal does


def test_a_stratified_sample_draws_each_stratum_as_the_local_path_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Both jobs: the first counts the strata; with a first cap of one run, a second reads each
    larger stratum again for its n_h smallest keys."""
    from ragdiag_tui.core.analysis.stratify import StrataPlan
    from ragdiag_tui.engines import spark as engine
    from ragdiag_tui.engines.spark import engine as driver

    from .strata_support import assert_hash_definition, assert_same_draw, local_draw, strata_runs, write_lines

    monkeypatch.setattr(driver, "first_cap", lambda n, margin: 1)
    made = strata_runs()
    lines = [line for _, line, _ in made]
    whole = write_lines(tmp_path / "whole.jsonl", lines)
    write_lines(tmp_path / "lake" / "a.jsonl", lines[:50])
    write_lines(tmp_path / "lake" / "b.jsonl", lines[50:])
    plan = StrataPlan("meta.source", "proportional", None, 0.2)
    out = tmp_path / "sample.jsonl"
    drawn = engine.sample(_dataset(tmp_path / "lake"), None, view="all", filters=[], n=14, margin=0.2,
                          seed=11, out=out, strata=plan)  # fmt: skip
    assert_same_draw(local_draw(whole, "all", 14, plan), drawn)
    members: dict[str, list[str]] = {}
    for run, _, stratum in made:
        members.setdefault("0.5" if stratum == "0.50" else stratum, []).append(run["id"])
    assert {stratum.stratum for stratum in drawn.strata.strata} == set(members)
    assert_hash_definition(drawn, members)
    assert [run["id"] for run in read_jsonl(out)] == list(drawn.ids)


def test_a_sample_is_one_spark_job(spark: Any, tmp_path: Path) -> None:
    """The counts and the smallest keys come back together: no second pass over the files,
    no cached copy of them (each job of a small sample costs more than its data)."""
    from ragdiag_tui.engines import spark as engine

    write_jsonl(
        tmp_path / "d" / "a.jsonl", [{"id": f"a{i}", "required": ["x"], "context": ["x"]} for i in range(9)]
    )
    write_jsonl(
        tmp_path / "d" / "b.jsonl", [{"id": f"b{i}", "required": ["x"], "context": []} for i in range(9)]
    )
    context = spark.sparkContext
    context.setJobGroup("one-sample", "the jobs of one sample")
    try:
        summary = engine.sample(
            _dataset(tmp_path / "d"), None, view="all", filters=[], n=4, seed=5, out=tmp_path / "s.jsonl"
        )
    finally:
        context.setLocalProperty("spark.jobGroup.id", None)
    assert (summary.population, summary.invalid, len(summary.ids)) == (18, 0, 4)
    assert len(context.statusTracker().getJobIdsForGroup("one-sample")) == 1


def test_a_jobs_files_are_numbered_by_the_jvm_one_per_partition(
    spark: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The frame a job's tasks start from is made by Spark itself (no Python worker converts
    its rows first), one file a partition, and the files go with the task function."""
    from ragdiag_tui.engines.spark.engine import file_tasks

    for name in ("b", "a", "c"):
        write_jsonl(tmp_path / "d" / f"{name}.jsonl", [{"id": name, "required": ["x"], "context": ["x"]}])
    ds = _dataset(tmp_path / "d")
    numbers, files = file_tasks(spark, ds)
    assert [(task.index, task.rel) for task in files] == list(enumerate(ds.names))
    assert numbers.rdd.getNumPartitions() == 3
    numbers.explain()
    plan = capsys.readouterr().out
    assert "Range (0, 3" in plan and "ExistingRDD" not in plan, plan


# -- the session -------------------------------------------------------------------------------


def test_the_python_workers_run_this_interpreter(spark: Any) -> None:
    import sys

    ran = spark.sparkContext.parallelize([0], 1).map(lambda _: __import__("sys").executable).collect()
    assert ran == [sys.executable]


def test_a_running_session_is_used_and_left_as_it_was(spark: Any, tmp_path: Path) -> None:
    from ragdiag_tui.engines import spark as engine
    from ragdiag_tui.engines.spark.session import active_session

    before = spark.conf.get("spark.sql.shuffle.partitions")
    spark.conf.set("spark.sql.shuffle.partitions", "7")
    try:
        write_jsonl(tmp_path / "d" / "a.jsonl", [{"id": "a", "required": []}])
        assert engine.stats(_dataset(tmp_path / "d"), None, master="local[1]")["runs"] == 1
        assert active_session() is spark
        assert spark.conf.get("spark.sql.shuffle.partitions") == "7"
    finally:
        spark.conf.set("spark.sql.shuffle.partitions", before)


def test_a_file_gone_before_it_is_read_is_one_clear_error(tmp_path: Path) -> None:
    from ragdiag_tui.engines import spark as engine
    from ragdiag_tui.engines.results import EngineError

    write_jsonl(tmp_path / "d" / "a.jsonl", [{"id": "a", "required": []}])
    write_jsonl(tmp_path / "d" / "b" / "gone.jsonl", [{"id": "b", "required": []}])
    dataset = _dataset(tmp_path / "d")
    (tmp_path / "d" / "b" / "gone.jsonl").unlink()
    with pytest.raises(EngineError, match=r"^b/gone\.jsonl: cannot read it \(No such file or directory\)$"):
        engine.stats(dataset, None)
