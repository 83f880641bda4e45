"""`stats` reports the reviewers' agreement from the review journal (JSON and table)."""

from __future__ import annotations

import json
import random
import warnings
from collections.abc import Callable
from pathlib import Path

import pytest

from ragdiag_tui.cli import main
from ragdiag_tui.core.review.records import Entry
from ragdiag_tui.core.review.reviewlog import open_log
from ragdiag_tui.core.review.state import open_review

from .references import NEEDS_AGREEMENT_REFERENCES, REFERENCES, cohen_kappa_score

pytestmark = [REFERENCES, NEEDS_AGREEMENT_REFERENCES]

WriteRuns = Callable[..., Path]


def label_as(path: Path, reviewer: str, labels: dict[int, bool]) -> None:
    """`reviewer` labels the rows of `labels` through the app's own review model."""
    review = open_review(path, reviewer=reviewer)
    for row, label in labels.items():
        review.set_label(row, label)
    assert review.journal is not None
    review.journal.close()


def stats_json(capsys: pytest.CaptureFixture[str], path: Path) -> dict:
    code = main(["stats", str(path), "--json"])
    out, _ = capsys.readouterr()
    assert code == 0
    return json.loads(out)


def reference_kappa(a: list[bool], b: list[bool]) -> float:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return float(cohen_kappa_score(a, b, labels=[False, True]))


def test_stats_json_reports_pairs_alpha_and_each_reviewer_against_the_file(
    capsys: pytest.CaptureFixture[str], write_runs: WriteRuns
) -> None:
    rng = random.Random(7)
    file_labels = [rng.random() < 0.6 for _ in range(60)]
    path = write_runs(
        [
            {"id": f"r{i}", "required": ["D1"], "context": ["D1"], "correct": label}
            for i, label in enumerate(file_labels)
        ]
    )
    ann = {row: rng.random() < 0.5 for row in range(0, 40)}
    bo = {row: rng.random() < 0.5 for row in range(20, 60)}
    label_as(path, "ann", ann)
    label_as(path, "bo", bo)
    agreement = stats_json(capsys, path)["agreement"]

    shared = sorted(set(ann) & set(bo))
    (pair,) = agreement["pairs"]
    assert pair["reviewers"] == ["ann", "bo"]
    assert pair["overlap"] == len(shared) == 20
    assert pair["agreement"] == pytest.approx(sum(ann[r] == bo[r] for r in shared) / 20)
    assert pair["kappa"] == pytest.approx(reference_kappa([ann[r] for r in shared], [bo[r] for r in shared]))
    assert agreement["pairable_runs"] == 20 and agreement["labelled_runs"] == 60
    assert isinstance(agreement["alpha"], float)
    by_name = {one["reviewer"]: one for one in agreement["with_file"]}
    for name, labels in (("ann", ann), ("bo", bo)):
        rows = sorted(labels)
        assert by_name[name]["overlap"] == 40
        assert by_name[name]["kappa"] == pytest.approx(
            reference_kappa([labels[r] for r in rows], [file_labels[r] for r in rows])
        )


def test_undefined_figures_are_null_with_a_reason(
    capsys: pytest.CaptureFixture[str], write_runs: WriteRuns
) -> None:
    path = write_runs([{"id": f"r{i}", "required": ["D1"], "context": ["D1"]} for i in range(3)])
    label_as(path, "ann", {0: True, 1: True})
    label_as(path, "bo", {0: True, 1: True})
    agreement = stats_json(capsys, path)["agreement"]
    (pair,) = agreement["pairs"]
    assert pair["kappa"] is None and pair["kappa_reason"] == "both said correct on every run they share"
    assert agreement["alpha"] is None and "no disagreement is possible" in agreement["alpha_reason"]
    assert [one["kappa_reason"] for one in agreement["with_file"]] == [
        "no run this reviewer labelled has a label in the file"
    ] * 2  # the file has no labels at all


def test_stale_labels_and_adjudications_take_no_part(
    capsys: pytest.CaptureFixture[str], write_runs: WriteRuns
) -> None:
    runs = [{"id": f"r{i}", "required": ["D1"], "context": ["D1"], "correct": True} for i in range(3)]
    path = write_runs(runs)
    label_as(path, "ann", {0: True, 1: False})
    label_as(path, "bo", {0: False, 1: False})
    review = open_review(path, reviewer="cy", adjudicator=True)
    review.adjudicate(0, True)
    assert review.journal is not None
    review.journal.close()
    log = open_log(path)  # a label made against another version of run r2: stale
    log.append(Entry("r2", False, "", "dee", "2026-01-01T00:00:00.000000Z", "0" * 16))
    log.close()
    agreement = stats_json(capsys, path)["agreement"]
    assert agreement["reviewers"] == ["ann", "bo"]
    assert agreement["pairs"][0]["overlap"] == 2 and agreement["pairs"][0]["agreement"] == 0.5


def test_stats_table_lists_the_agreement_and_escapes_reviewer_names(
    capsys: pytest.CaptureFixture[str], write_runs: WriteRuns
) -> None:
    path = write_runs([{"id": f"r{i}", "required": ["D1"], "context": ["D1"]} for i in range(2)])
    label_as(path, "\x1b[31mann", {0: True, 1: False})
    label_as(path, "bo", {0: True, 1: True})
    code = main(["stats", str(path)])
    out, _ = capsys.readouterr()
    assert code == 0
    assert "\x1b" not in out
    assert "agreement between reviewers" in out
    line = next(line for line in out.splitlines() if "/ bo" in line)
    assert line.split()[:5] == ["\\x1b[31mann", "/", "bo", "2", "50.0%"]
    assert "Krippendorff's alpha over 2 runs with two or more labels" in out
