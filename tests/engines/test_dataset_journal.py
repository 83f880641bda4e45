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

pytest.importorskip("duckdb")
from ragdiag_tui.engines.duckdb.review_rows import DatasetRows

DEMO = Path(__file__).resolve().parents[2] / "sample_runs" / "demo.jsonl"
FIGURES = ("runs", "stages", "lucky_answers", "unresolved", "label_errors", "reviewed", "conflicts")


def stats_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict:
    capsys.readouterr()
    main(["stats", *argv, "--json"])
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("kind", ["jsonl", "parquet"])
def test_stats_of_a_dataset_applies_its_journal_as_for_one_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], kind: str
) -> None:
    runs = [json.loads(line) for line in DEMO.read_text(encoding="utf-8").splitlines()]
    write = write_jsonl if kind == "jsonl" else write_parquet
    write(tmp_path / "lake" / f"a.{kind}", runs[:33])
    write(tmp_path / "lake" / f"b.{kind}", runs[33:])
    one = write(tmp_path / f"one.{kind}", runs)
    lake = tmp_path / "lake"
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
    assert after["lucky_answers"] == before["lucky_answers"] + 1
    assert after["stages"]["pass"] == before["stages"]["pass"] + 1
    ignored = stats_json(capsys, str(lake), "--no-journal")
    assert ignored == before
