"""`stats DATASET` applies the labels its reviewers set in the app: its journal beside the
folder (or --journal), the same figures as `stats` of one file of the same runs with the
same journal; --no-journal gives the files' own labels."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from ragdiag_tui.cli import main
from ragdiag_tui.core.review.journal import journal_path
from ragdiag_tui.core.review.state import open_review
from ragdiag_tui.core.runs.source_store import SourceStore
from ragdiag_tui.engines.dataset import open_dataset

from .conftest import write_jsonl, write_parquet
from .reviewed_lake import lake_and_file, lake_runs, review_lake, write_runs

pytest.importorskip("duckdb")
from ragdiag_tui.engines.duckdb.review_rows import DatasetRows

DEMO = Path(__file__).resolve().parents[2] / "sample_runs" / "demo.jsonl"
FIGURES = (
    "runs",
    "stages",
    "lucky_in_file",
    "still_lucky",
    "unresolved",
    "label_errors",
    "reviewed",
    "conflicts",
)


def demo_lake(folder: Path, kind: str, first: str) -> tuple[Path, Path]:
    """The demo's runs as a lake (the first 33 in FIRST.kind, the rest in b.kind) and as one file."""
    runs = [json.loads(line) for line in DEMO.read_text(encoding="utf-8").splitlines()]
    write = write_jsonl if kind == "jsonl" else write_parquet
    write(folder / "lake" / f"{first}.{kind}", runs[:33])
    write(folder / "lake" / f"b.{kind}", runs[33:])
    return folder / "lake", write(folder / f"one.{kind}", runs)


def stats_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict:
    capsys.readouterr()
    main(["stats", *argv, "--json"])
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("kind", ["jsonl", "parquet"])
def test_stats_of_a_dataset_applies_its_journal_as_for_one_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], kind: str
) -> None:
    lake, one = demo_lake(tmp_path, kind, "a")
    before = stats_json(capsys, str(lake))
    store = SourceStore(DatasetRows(open_dataset([str(lake)])))
    alice = open_review(str(lake), store=store, reviewer="alice")
    bob = open_review(str(lake), store=SourceStore(DatasetRows(open_dataset([str(lake)]))), reviewer="bob")
    alice.set_label(79, True)  # run-0080: a lucky answer now
    alice.set_label(1, True)  # generation to pass
    alice.set_label(2, True)
    bob.set_label(2, False)  # in conflict: the file's label stays in force
    assert Path(f"{lake}.review.jsonl").exists()
    shutil.copy(f"{lake}.review.jsonl", journal_path(one))
    after, local = stats_json(capsys, str(lake)), stats_json(capsys, str(one))
    assert {key: after[key] for key in FIGURES} == {key: local[key] for key in FIGURES}
    assert after["reviewed"] == 3 and after["conflicts"] == 1
    assert after["still_lucky"] == before["still_lucky"] + 1
    assert after["lucky_in_file"] == before["lucky_in_file"]
    assert after["stages"]["pass"] == before["stages"]["pass"] + 1
    ignored = stats_json(capsys, str(lake), "--no-journal")
    assert ignored == before


@pytest.mark.parametrize("kind", ["jsonl", "parquet"])
def test_export_of_a_datasets_folder_writes_its_reviewed_runs_as_one_file_would(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], kind: str
) -> None:
    lake, one = demo_lake(tmp_path, kind, "day-1/a")
    assert main(["export", str(lake), "-o", str(tmp_path / "none.jsonl")]) == 2  # every run: not here
    assert "add --reviewed-only" in capsys.readouterr().err
    review = open_review(str(lake), store=SourceStore(DatasetRows(open_dataset([str(lake)]))), reviewer="ann")
    row_of = review.store.row_of  # b.* comes before day-1/a.* in the dataset's order
    review.set_label(row_of["run-0080"], True)
    review.set_label(row_of["run-0041"], False)
    review.set_note(row_of["run-0041"], "wrong policy")
    shutil.copy(f"{lake}.review.jsonl", journal_path(one))
    assert main(["export", str(lake), "--reviewed-only", "-o", str(tmp_path / "out-lake.jsonl")]) == 0
    assert main(["export", str(one), "--reviewed-only", "-o", str(tmp_path / "out-one.jsonl")]) == 0
    exported = (tmp_path / "out-lake.jsonl").read_text(encoding="utf-8")
    assert exported == (tmp_path / "out-one.jsonl").read_text(encoding="utf-8")
    assert [json.loads(line)["id"] for line in exported.splitlines()] == ["run-0041", "run-0080"]
    assert [json.loads(line)["note"] for line in exported.splitlines()] == ["wrong policy", None]
    target = tmp_path / "lake" / f"b.{kind}"
    assert main(["export", str(lake), "--reviewed-only", "-o", str(target)]) == 2
    assert "is a file of the dataset" in capsys.readouterr().err


@pytest.mark.parametrize("kind", ["jsonl", "parquet"])
def test_each_group_of_a_dataset_counts_its_review_as_a_file_of_the_groups_runs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], kind: str
) -> None:
    lake, one = lake_and_file(tmp_path, kind)
    review_lake(lake)
    shutil.copy(f"{lake}.review.jsonl", journal_path(one))
    before = stats_json(capsys, str(lake), "--group-by", "model", "--no-journal")
    result = stats_json(capsys, str(lake), "--group-by", "model")
    local = stats_json(capsys, str(one))
    assert result["all"] == {key: local[key] for key in result["all"]}
    runs = lake_runs()
    moved = 0
    for group, unreviewed in zip(result["groups"], before["groups"], strict=True):
        model = group["value"]
        path = write_runs(tmp_path / "by-model" / f"{model}.{kind}", [r for r in runs if r["model"] == model])
        shutil.copy(f"{lake}.review.jsonl", journal_path(path))
        alone = stats_json(capsys, str(path))
        assert group["stats"] == {key: alone[key] for key in group["stats"]}, model
        moved += group["stats"] != unreviewed["stats"]
    assert moved == 2  # the review's labels are in both models' runs
    assert "reviewed" in result["groups"][0]["stats"] and "reviewed" not in before["groups"][0]["stats"]
