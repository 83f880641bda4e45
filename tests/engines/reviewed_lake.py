"""A small lake reviewed in place, and one file of the same runs: shared by the tests of the
commands that apply a dataset's journal (`stats DATASET`, `report DATASET`)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ragdiag_tui.core.review.records import SpotCheck, utc_now
from ragdiag_tui.core.review.state import Review, open_review
from ragdiag_tui.core.runs.source_store import SourceStore
from ragdiag_tui.engines.dataset import open_dataset
from ragdiag_tui.engines.duckdb.review_rows import DatasetRows

from ..core.report_files import DEMO
from .conftest import write_jsonl, write_parquet

UNLABELLED_GAP = "run-0028"  # no label in the file; its context below lacks its required document


def lake_runs() -> list[dict[str, Any]]:
    """The demo's runs, run-0028 (an answer-label run) made to miss its required document, so
    a label on it moves the most-missed documents."""
    runs = [json.loads(line) for line in DEMO.read_text(encoding="utf-8").splitlines()]
    gap = next(run for run in runs if run["id"] == UNLABELLED_GAP)
    gap["context"] = [doc for doc in gap["context"] if doc not in gap["required"]]
    return runs


def write_runs(path: Path, runs: list[dict[str, Any]]) -> Path:
    """Runs as JSON Lines, or as Parquet (by `path`'s suffix) with their model and question."""
    if path.suffix == ".jsonl":
        return write_jsonl(path, runs)
    return write_parquet(path, runs, ("model", "question"))


def lake_and_file(folder: Path, kind: str) -> tuple[Path, Path]:
    """`lake_runs` as a lake of two files (the first 33 runs, the rest) and as one file."""
    runs = lake_runs()
    write_runs(folder / "lake" / f"a.{kind}", runs[:33])
    write_runs(folder / "lake" / f"b.{kind}", runs[33:])
    return folder / "lake", write_runs(folder / f"one.{kind}", runs)


def reviewer(lake: Path, name: str) -> Review:
    return open_review(str(lake), store=SourceStore(DatasetRows(open_dataset([str(lake)]))), reviewer=name)


def review_lake(lake: Path) -> list[str]:
    """A spot-check of lucky answers drawn over the lake as `D` draws it, two reviewers on its
    first runs (three overturned, one in conflict, one held), and run-0028 labelled correct (a
    lucky answer now, its document missed). The spot-check's ids."""
    ana, ben = reviewer(lake, "ana"), reviewer(lake, "ben")
    sample = ana.store.source.draw_sample("lucky", "", 6, 0.05, 7)
    ana.add_spot_check(SpotCheck("lucky-6", sample.view, sample.filter, sample.seed, sample.population,
                                 len(sample.ids), sample.ids, "ana", utc_now()))  # fmt: skip
    for at, run_id in enumerate(sample.ids[:5]):
        row = ana.store.row_of[run_id]
        ana.set_label(row, at >= 4)
        ben.set_label(row, at == 3 or at >= 4)
        if at < 3:
            ana.set_tags(row, ["required-wrong"])
    ana.set_label(ana.store.row_of[UNLABELLED_GAP], True)
    return list(sample.ids)
