"""The engines' smaller faults (issue 37): the DuckDB settings read from the environment, a
glob that matches the tool's review journals, and a Parquet diagnosis output that cannot
hold a lone surrogate."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from ragdiag_tui.cli import main

from .conftest import pq, read_jsonl, write_jsonl, write_parquet

pytest.importorskip("duckdb")

RUNS = [
    {"id": "r1", "required": ["a"], "context": ["a"], "correct": True},
    {"id": "r2", "required": ["a"], "context": [], "correct": True},
]


def _run(capsys: Any, *args: str) -> tuple[int, str, str]:
    capsys.readouterr()
    status = main(list(args))
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize("threads", ["x", "0", "-2", "1.5"])
def test_a_thread_count_that_is_not_one_is_a_clear_error_and_exit_2(
    tmp_path: Path, capsys: Any, monkeypatch: pytest.MonkeyPatch, threads: str
) -> None:
    write_parquet(tmp_path / "ds" / "a.parquet", RUNS)  # read by SQL, so through a connection
    monkeypatch.setenv("RAGDIAG_DUCKDB_THREADS", threads)
    status, _, err = _run(capsys, "stats", str(tmp_path / "ds"), "--json")
    assert status == 2
    assert f"RAGDIAG_DUCKDB_THREADS={threads!r}: give a whole number of threads (1 or more)" in err


def test_empty_settings_mean_unset_and_a_bad_memory_limit_names_its_variable(
    tmp_path: Path, capsys: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_parquet(tmp_path / "ds" / "a.parquet", RUNS)
    monkeypatch.setenv("RAGDIAG_DUCKDB_MEMORY", "")
    monkeypatch.setenv("RAGDIAG_DUCKDB_THREADS", "")
    status, _, err = _run(capsys, "stats", str(tmp_path / "ds"), "--json")
    assert status == 0, err
    monkeypatch.setenv("RAGDIAG_DUCKDB_MEMORY", "lots")
    status, _, err = _run(capsys, "stats", str(tmp_path / "ds"), "--json")
    assert status == 2 and "RAGDIAG_DUCKDB_MEMORY='lots'" in err and "Traceback" not in err


def test_a_glob_leaves_the_review_journals_out_and_says_so(tmp_path: Path, capsys: Any) -> None:
    folder = tmp_path / "ds"
    write_jsonl(folder / "a.jsonl", RUNS)
    write_jsonl(folder / "b.jsonl", RUNS)
    status, _, err = _run(capsys, "sample", str(folder / "a.jsonl"), "--view", "all", "-n", "1", "--seed",
                          "1", "--engine", "duckdb", "-o", str(folder / "drawn.jsonl"))  # fmt: skip
    assert status == 0, err
    assert (folder / "drawn.jsonl.review.jsonl").is_file()  # the sample's journal, matched by the glob
    status, _, err = _run(capsys, "stats", str(folder / "*.jsonl"), "--json")
    assert status == 0, err
    assert "1 review journal left out of the dataset" in err and "drawn.jsonl.review.jsonl" in err
    status, _, err = _run(capsys, "stats", str(folder / "a.jsonl"), str(folder / "drawn.jsonl.review.jsonl"))
    assert status == 2 and "is a review journal, not a run file" in err


def test_a_parquet_diagnosis_refuses_lone_surrogates_naming_the_runs(tmp_path: Path, capsys: Any) -> None:
    folder = tmp_path / "ds"
    (folder).mkdir()
    (folder / "a.jsonl").write_text(
        '{"id": "s\\ud800", "required": ["x"], "context": [], "correct": true}\n'
        '{"id": "ok", "required": ["\\udfff"], "context": [], "correct": false}\n'
        '{"id": "fine", "required": ["x"], "context": ["x"], "correct": false}\n',
        encoding="utf-8",
    )
    out = tmp_path / "out.parquet"
    status, _, err = _run(capsys, "diagnose", str(folder), "--engine", "duckdb", "-o", str(out))
    assert status == 2
    assert "2 runs hold a lone surrogate" in err
    assert '"s\\ud800" (a.jsonl, line 1)' in err and '"ok" (a.jsonl, line 2)' in err
    assert not out.exists()
    status, _, err = _run(
        capsys, "diagnose", str(folder), "--engine", "duckdb", "-o", str(tmp_path / "o.jsonl")
    )
    assert status == 0, err
    assert [row["id"] for row in read_jsonl(tmp_path / "o.jsonl")] == ["s\ud800", "ok", "fine"]
    (folder / "a.jsonl").write_text('{"id": "fine", "required": ["x"], "context": ["x"], "correct": false}\n')
    assert _run(capsys, "diagnose", str(folder), "--engine", "duckdb", "-o", str(out))[0] == 0
    assert pq.read_table(out).column("id").to_pylist() == ["fine"]


def test_an_engine_on_one_run_file_says_why_its_sample_may_differ(tmp_path: Path, capsys: Any) -> None:
    folder = tmp_path / "ds"
    write_jsonl(folder / "b.jsonl", [RUNS[0], "not json", {k: v for k, v in RUNS[1].items() if k != "id"}])
    args = ("--view", "all", "-n", "5", "--seed", "1", "--engine", "duckdb")
    status, out, err = _run(
        capsys, "sample", str(folder / "b.jsonl"), *args, "-o", str(tmp_path / "s.jsonl"), "--json"
    )
    assert status == 1, err
    assert sorted(json.loads(out)["ids"]) == ["b.jsonl:3", "r1"]  # the id-less run named FILE:LINE
    assert "b.jsonl sampled by the engine as a dataset of one file" in err
    assert "named b.jsonl:LINE (not by its position) and invalid lines are never drawn" in err
    status, _, err = _run(capsys, "sample", str(folder), *args, "-o", str(tmp_path / "d.jsonl"))
    assert status == 1 and "dataset of one file" not in err  # a folder is a dataset, whatever it holds


@pytest.mark.parametrize("command", ["sample", "diagnose"])
def test_an_output_that_is_a_fifo_is_refused_before_any_work(
    tmp_path: Path, capsys: Any, command: str
) -> None:
    import os

    write_jsonl(tmp_path / "ds" / "a.jsonl", RUNS)
    fifo = tmp_path / "out.fifo"
    os.mkfifo(fifo)
    drawn = ("--view", "all", "-n", "1", "--seed", "1") if command == "sample" else ()
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)  # a command that opens it fails, never hangs
    try:
        status, out, err = _run(capsys, command, str(tmp_path / "ds"), *drawn, "-o", str(fifo))
    finally:
        os.close(reader)
    assert (status, out) == (2, "")
    assert f"{fifo}: not a regular file (a folder, a FIFO, a device); write to a file" in err
    assert not (tmp_path / "out.fifo.review.jsonl").exists()
