"""`sample DATASET -o SAMPLE` replaces only what it can account for: a draw that is refused
or finds nothing leaves every file as it was, a file that is not a sample file is never
replaced (`--replace` or not), and a re-draw never orphans an earlier spot-check's runs."""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from ragdiag_tui.cli import main
from ragdiag_tui.core.review.state import open_review

from .conftest import REPO, read_jsonl, write_jsonl

pytest.importorskip("ragdiag_tui.engines.duckdb", reason="the duckdb extra is not installed")


def runs(count: int, start: int = 0) -> list[dict[str, object]]:
    return [
        {"id": f"r{i}", "required": ["d1"], "context": ["d1"] if i % 3 else [], "correct": i % 2 == 0}
        for i in range(start, start + count)
    ]


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def draw(capsys: pytest.CaptureFixture[str], lake: Path, out: Path, *extra: str) -> tuple[int, str]:
    capsys.readouterr()
    code = main(["sample", str(lake), "--engine", "duckdb", "--view", "all", "-o", str(out), *extra])
    return code, capsys.readouterr().err


@pytest.fixture
def lake(tmp_path: Path) -> Path:
    write_jsonl(tmp_path / "lake" / "a.jsonl", runs(20))
    write_jsonl(tmp_path / "lake" / "b.jsonl", runs(20, 20))
    return tmp_path / "lake"


def test_a_draw_that_finds_nothing_deletes_nothing(
    lake: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sample = tmp_path / "S.jsonl"
    assert draw(capsys, lake, sample, "-n", "3", "--seed", "1", "--name", "a")[0] == 0
    kept = sha(sample), sha(Path(f"{sample}.review.jsonl"))
    code, err = draw(capsys, lake, sample, "-n", "3", "--seed", "1", "--filter", "nothing:here")
    assert code == 2 and "nothing to sample" in err
    assert (sha(sample), sha(Path(f"{sample}.review.jsonl"))) == kept
    assert sorted(os.listdir(tmp_path)) == ["S.jsonl", "S.jsonl.review.jsonl", "lake"]


@pytest.mark.parametrize("replace", [(), ("--replace",)])
def test_a_file_that_is_not_a_sample_file_is_never_replaced(
    lake: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], replace: tuple[str, ...]
) -> None:
    reviewed = tmp_path / "demo.jsonl"
    shutil.copy(REPO / "sample_runs" / "demo.jsonl", reviewed)
    assert main(["sample", str(reviewed), "--view", "all", "-n", "2", "--seed", "1"]) == 0
    before = sha(reviewed)
    code, err = draw(capsys, lake, reviewed, "-n", "3", "--seed", "1", *replace)
    assert code == 2
    assert "not a sample file" in err and str(reviewed) in err
    assert sha(reviewed) == before


@pytest.mark.parametrize("name", ["S.parquet", "S.jsonl.review.jsonl", "S.csv"])
def test_a_sample_is_not_written_under_a_journals_or_another_formats_name(
    lake: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    code, err = draw(capsys, lake, tmp_path / name, "-n", "3", "--seed", "1")
    assert code == 2
    assert "journal" in err if name.endswith(".review.jsonl") else "JSON Lines" in err
    assert sorted(os.listdir(tmp_path)) == ["lake"]


def test_a_redraw_refused_for_its_name_leaves_the_sample_file_as_it_was(
    lake: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sample = tmp_path / "S.jsonl"
    assert draw(capsys, lake, sample, "-n", "10", "--seed", "4", "--name", "wk")[0] == 0
    review = open_review(sample, reviewer="alice")
    review.set_label(review.store.row_of[review.spot_checks["wk"].ids[0]], True)
    before = sha(sample), sha(Path(f"{sample}.review.jsonl"))
    write_jsonl(lake / "c.jsonl", runs(40, 40))  # the dataset changed: the same settings draw others
    code, err = draw(capsys, lake, sample, "-n", "10", "--seed", "4", "--name", "wk")
    assert code == 2 and "a spot-check named 'wk' already exists" in err
    assert (sha(sample), sha(Path(f"{sample}.review.jsonl"))) == before


def test_a_redraw_that_would_orphan_earlier_spot_checks_is_refused_naming_them(
    lake: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sample = tmp_path / "S.jsonl"
    assert draw(capsys, lake, sample, "-n", "5", "--seed", "4", "--name", "first")[0] == 0
    before = sha(sample)
    code, err = draw(capsys, lake, sample, "-n", "5", "--seed", "99", "--name", "second")
    assert code == 2
    assert "'first'" in err and "of its 5 runs" in err
    assert sha(sample) == before
    assert list(open_review(sample, reviewer="x").spot_checks) == ["first"]


def test_a_redraw_that_keeps_every_earlier_run_replaces_the_sample_file(
    lake: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sample = tmp_path / "S.jsonl"
    assert draw(capsys, lake, sample, "-n", "3", "--seed", "4", "--name", "three")[0] == 0
    # The first 3 of a sample of 6 are the sample of 3: the bigger draw keeps them.
    code, err = draw(capsys, lake, sample, "-n", "6", "--seed", "4", "--name", "six")
    assert code == 0, err
    checks = open_review(sample, reviewer="x").spot_checks
    assert set(checks["three"].ids) <= set(checks["six"].ids)
    assert [run["id"] for run in read_jsonl(sample)] == list(checks["six"].ids)


def test_a_fifo_output_is_refused_before_it_is_opened(lake: Path, tmp_path: Path) -> None:
    fifo = tmp_path / "S.jsonl"
    os.mkfifo(fifo)
    # A FIFO nobody reads: opening it to write would block; the refusal must come first.
    options = ["--engine", "duckdb", "--view", "all", "-n", "3", "--seed", "1", "-o"]
    command = [sys.executable, "-m", "ragdiag_tui", "sample", str(lake), *options, str(fifo)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert str(fifo) in done.stderr and "not a regular file" in done.stderr
    assert done.stdout == ""


def test_a_name_taken_in_the_journal_given_by_journal_writes_no_new_sample_file(
    lake: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    journal = tmp_path / "team.log"
    first = tmp_path / "S.jsonl"
    assert (
        draw(capsys, lake, first, "-n", "3", "--seed", "1", "--name", "wk", "--journal", str(journal))[0] == 0
    )
    before = sha(journal)
    code, err = draw(
        capsys,
        lake,
        tmp_path / "T.jsonl",
        "-n",
        "3",
        "--seed",
        "2",
        "--name",
        "wk",
        "--journal",
        str(journal),
    )
    assert code == 2 and "a spot-check named 'wk' already exists" in err
    assert sha(journal) == before
    assert sorted(os.listdir(tmp_path)) == ["S.jsonl", "lake", "team.log"]
