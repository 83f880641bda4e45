"""A dataset to try in one command (scripts/make_lake.py, ids distinct across its files), read as
one table per `--group-by`, and a sample drawn with `-o` that says at once when the dataset
repeats ids and keeps its ids off the terminal."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from ragdiag_tui.cli import main

REPO = Path(__file__).resolve().parents[2]


def make_lake(folder: Path, *options: str) -> None:
    command = [sys.executable, str(REPO / "scripts" / "make_lake.py"), str(folder), *options]
    subprocess.run(command, check=True, capture_output=True)


def run_cli(capsys: pytest.CaptureFixture[str], *args: object) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main([str(arg) for arg in args])
    out, err = capsys.readouterr()
    return code, out, err


def test_the_lake_has_distinct_ids_across_its_files_and_the_same_runs_each_time(tmp_path: Path) -> None:
    import pyarrow.parquet as pq

    make_lake(tmp_path / "lake", "--files", "3", "--runs", "400")
    files = sorted((tmp_path / "lake").glob("*.parquet"))
    assert [path.name for path in files] == ["part-000.parquet", "part-001.parquet", "part-002.parquet"]
    ids = [run_id for path in files for run_id in pq.read_table(path).column("id").to_pylist()]
    named = [run_id for run_id in ids if run_id is not None]
    assert len(ids) == 1200 and len(named) > 1100 and len(set(named)) == len(named)
    make_lake(tmp_path / "again", "--files", "3", "--runs", "400")
    assert [p.read_bytes() for p in files] == [p.read_bytes() for p in sorted((tmp_path / "again").iterdir())]


def test_stats_group_by_prints_one_table_a_row_per_group(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    make_lake(tmp_path / "lake", "--files", "2", "--runs", "500")
    code, out, _ = run_cli(capsys, "stats", tmp_path / "lake", "--group-by", "model")
    assert code == 0
    lines = out.splitlines()
    header = [line for line in lines if line.split()[:2] == ["model", "runs"]]
    assert len(header) == 1 and "retrieval" in header[0] and "lucky in file" in header[0]
    at = lines.index(header[0])
    rows = [line.split() for line in lines[at + 1 : at + 6]]
    assert [row[0] for row in rows] == ["gpt-4o-mini", "llama-3.1-8b", "mistral-7b", "qwen2.5-7b", "all"]
    code, printed, _ = run_cli(capsys, "stats", tmp_path / "lake", "--group-by", "model", "--json")
    figures = json.loads(printed)
    for row, group in zip(rows, [*figures["groups"], {"stats": figures["all"]}], strict=True):
        stats = group["stats"]
        assert row[1] == f"{stats['runs']:,}" and row[7] == f"{stats['lucky_in_file']:,}"
        assert row[2] == f"{100 * stats['stages']['retrieval'] / stats['runs']:.1f}%"
    assert "model = " not in out and len(lines) < 30  # not a block per group


def test_a_sample_of_a_dataset_with_repeated_ids_says_so_at_once_and_lists_no_ids(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    make_lake(tmp_path / "lake", "--files", "1", "--runs", "600", "--format", "jsonl")
    copy = tmp_path / "lake" / "part-001.jsonl"  # the same runs again: every id repeated
    copy.write_bytes((tmp_path / "lake" / "part-000.jsonl").read_bytes())
    out = tmp_path / "s.jsonl"
    code, printed, err = run_cli(
        capsys, "sample", tmp_path / "lake", "--view", "lucky", "-n", "10", "--seed", "1", "-o", out
    )
    assert code == 0
    assert printed == ""  # the ids are in the sample file, not on the terminal
    warning, summary = err.splitlines()[-2:]
    assert "warning: 5 ids are repeated in the sample" in warning and "give every run its own id" in warning
    assert summary.endswith(f"written to {out}; recorded in {out}.review.jsonl")


def test_a_sample_of_the_lake_lists_no_ids_and_warns_of_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    make_lake(tmp_path / "lake", "--files", "2", "--runs", "300")
    out = tmp_path / "s.jsonl"
    code, printed, err = run_cli(
        capsys, "sample", tmp_path / "lake", "--view", "lucky", "-n", "10", "--seed", "1", "-o", out
    )
    assert (code, printed) == (0, "")
    assert "warning" not in err and "lucky-10: 10 of" in err
