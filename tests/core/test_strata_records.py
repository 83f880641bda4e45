"""A stratified spot-check's record in the journal, its strata by stage or by tag, and Neyman
priors taken from an earlier spot-check of the same view and field."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from ragdiag_tui.core.analysis.spotcheck import earlier_rates, spot_check_report
from ragdiag_tui.core.analysis.stratify import StrataPlan, draw_stratified
from ragdiag_tui.core.review.records import SpotCheck, Strata, Stratum, parse_record, utc_now
from ragdiag_tui.core.review.state import open_review

WriteRuns = Callable[..., Path]


def record(**extra: Any) -> SpotCheck:
    spot_check = SpotCheck("s", "lucky", "", 3, 10, 3, ("a", "b", "c"), "al", utc_now())
    spot_check.strata = Strata("meta.model", "neyman", (Stratum("x", 6, ("a", "c")), Stratum("y", 4, ("b",))))
    spot_check.margin = 0.05
    for name, value in extra.items():
        setattr(spot_check, name, value)
    return spot_check


def test_a_stratified_record_reads_back_as_written_and_an_old_one_has_no_strata() -> None:
    written = record()
    line = written.to_json().decode()
    data = json.loads(line)
    assert data["strata_by"] == "meta.model" and data["margin"] == 0.05
    assert data["strata"][0] == {"stratum": "x", "population": 6, "size": 2, "ids": ["a", "c"]}
    read = parse_record(line)
    assert isinstance(read, SpotCheck)
    assert read.key() == written.key() and read.strata == written.strata and read.margin == 0.05
    plain = record(strata=None, margin=None)
    assert "strata" not in json.loads(plain.to_json()) and "margin" not in json.loads(plain.to_json())
    assert parse_record(plain.to_json().decode()).strata is None  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"strata": "x"}, "strata is not a list of objects"),
        ({"strata": [{"stratum": "x", "population": -1, "ids": []}]}, "population is not a whole number"),
        ({"strata": [{"stratum": "x", "population": 1, "ids": [1]}]}, "ids is not a list of strings"),
        ({"margin": "wide"}, "margin is not a number"),
    ],
)
def test_a_bad_strata_field_is_refused_naming_it(change: dict[str, Any], field: str) -> None:
    data = json.loads(record().to_json()) | change
    with pytest.raises(ValueError, match=field):
        parse_record(json.dumps(data))


RUNS: list[Any] = [
    {"id": f"r{i}", "required": ["a", "b"], "context": ["a"] if i % 2 else ["a", "b"], "correct": i % 3 != 0}
    for i in range(30)
]


def test_strata_by_stage_follow_the_files_own_labels(write_runs: WriteRuns) -> None:
    review = open_review(write_runs(RUNS), reviewer="al")
    sample = draw_stratified(review, "all", 12, 4, StrataPlan("stage"))
    stages = {stratum.stratum: stratum.population for stratum in sample.strata.strata}
    assert stages == {"generation": 5, "retrieval": 15, "pass": 10}
    row = review.store.row_of["r1"]  # a retrieval failure labelled correct
    review.set_label(row, False)  # a reviewer overturns it: still in the file's stage
    again = draw_stratified(review, "all", 12, 4, StrataPlan("stage"))
    assert again.strata == sample.strata


def test_strata_by_tag_split_tagged_from_untagged(write_runs: WriteRuns) -> None:
    review = open_review(write_runs(RUNS), reviewer="al")
    for run_id in ("r1", "r5"):
        row = review.store.row_of[run_id]
        review.toggle_tag(row, "answer-wrong")
        review.set_label(row, False)
    sample = draw_stratified(review, "all", 10, 4, StrataPlan("tag:answer-wrong"))
    populations = {stratum.stratum: stratum.population for stratum in sample.strata.strata}
    assert populations == {"not answer-wrong": 28, "answer-wrong": 2}


def test_neyman_takes_its_priors_from_an_earlier_spot_check_of_the_view_and_field(
    write_runs: WriteRuns,
) -> None:
    runs: list[Any] = [
        {"id": f"{model}-{i}", "model": model, "required": ["a", "b"], "context": ["a"], "correct": True}
        for model, size in (("bad", 50), ("good", 50))
        for i in range(size)
    ]
    review = open_review(write_runs(runs), reviewer="al")
    first = draw_stratified(review, "lucky", 20, 1, StrataPlan("model"))
    spot_check = SpotCheck("first", "lucky", "", 1, first.population, 20, first.ids, "al", utc_now())
    spot_check.strata = first.strata
    review.add_spot_check(spot_check)
    for stratum in first.strata.strata:
        for i, run_id in enumerate(stratum.ids):  # bad: all overturned; good: one of ten
            review.set_label(review.store.row_of[run_id], stratum.stratum == "good" and i > 0)
    assert earlier_rates(review, "lucky", "model") == {"bad": 1.0, "good": 0.1}
    assert earlier_rates(review, "lucky", "stage") == {} and earlier_rates(review, "all", "model") == {}
    report = spot_check_report(review, spot_check)
    assert [stratum.name for stratum in report.strata] == ["bad", "good"]
    plan = StrataPlan("model", "neyman", earlier_rates(review, "lucky", "model"))
    sizes = {s.stratum: len(s.ids) for s in draw_stratified(review, "lucky", 20, 2, plan).strata.strata}
    assert sizes == {"bad": 2, "good": 18}  # a rate of 1 is certain: the minimum of 2


def test_a_stratum_is_the_fields_text_as_the_filter_shows_it(write_runs: WriteRuns) -> None:
    from ragdiag_tui.core.analysis.stratify import stratum_of

    base = {"required": ["a"], "context": ["a"], "correct": True}
    runs: list[Any] = [
        {"id": "s", "meta": {"m": "GPT-4o"}, **base},
        {"id": "n", "meta": {"m": 0.90}, **base},
        {"id": "null", "meta": {"m": None}, **base},
        {"id": "absent", **base},
        {"id": "flat", "meta.m": "whole", "meta": {"m": "nested"}, **base},
        {"id": "list", "meta": ["x"], **base},
        '{"id": "nan", "meta": {"m": "x"}, "score": NaN, "required": ["a"], "context": [], "correct": true}',
        "not json",
    ]
    review = open_review(write_runs(runs), reviewer="al")
    value = stratum_of("meta.m", review)
    got = [value(row) for row in range(len(review.store))]
    assert got == ["GPT-4o", "0.9", "(none)", "(none)", "whole", "(none)", "x", "(invalid)"]
    top = stratum_of("meta", review)
    assert top(review.store.row_of["list"]) == '["x"]'
