"""The conclusion of a spot-check: counts, held and overturned, tag rates, intervals, the sentence."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from statsmodels.stats.proportion import proportion_confint

from ragdiag_tui.core.analysis.spotcheck import format_spot_checks, spot_check_report, spot_check_reports
from ragdiag_tui.core.review.records import SpotCheck, utc_now
from ragdiag_tui.core.review.state import Review, open_review
from ragdiag_tui.core.review.tags import DEFAULT_TAGS, Tag

WriteRuns = Callable[..., Path]
POPULATION = 40


@pytest.fixture
def review(write_runs: WriteRuns) -> Review:
    runs = [
        {"id": f"L{i}", "required": ["a", "b"], "context": ["a"], "correct": True} for i in range(POPULATION)
    ]
    return open_review(write_runs(runs), reviewer="alice")


def add(review: Review, name: str, ids: list[str], population: int = POPULATION) -> SpotCheck:
    spot_check = SpotCheck(name, "lucky", "", 7, population, len(ids), tuple(ids), "alice", utc_now())
    review.add_spot_check(spot_check)
    return spot_check


def test_counts_held_overturned_and_tags(review: Review) -> None:
    spot_check = add(review, "lucky-10", [f"L{i}" for i in range(10)])
    row = review.store.row_of
    for i in range(6):  # six reviewed: four overturned, two held
        review.set_label(row[f"L{i}"], i >= 4)
    review.set_tags(row["L0"], ["supported-elsewhere", "answer-wrong"])
    review.set_tags(row["L1"], ["supported-elsewhere"])
    review.set_tags(row["L2"], ["our-own-tag"])
    review.set_tags(row["L9"], ["supported-elsewhere"])  # tags alone: not reviewed, not counted
    report = spot_check_report(review, spot_check)
    assert (report.population, report.size, report.reviewed, report.held, report.overturned) == (
        40,
        10,
        6,
        2,
        4,
    )
    counts = {tag.key: tag.count for tag in report.tags}
    assert counts == {
        "supported-elsewhere": 2,
        "required-wrong": 0,
        "model-knowledge": 0,
        "answer-wrong": 1,
        "partly-supported": 0,
        "our-own-tag": 1,
    }
    # The rate's interval: Wilson at n_eff = 6 * 39 / 34, as statsmodels computes it.
    n_eff = 6 * 39 / 34
    low, high = proportion_confint(4 / 6 * n_eff, n_eff, method="wilson")
    assert report.overturned_rate is not None
    assert report.overturned_rate.estimate == pytest.approx(4 / 6)
    assert (report.overturned_rate.low, report.overturned_rate.high) == pytest.approx((low, high))
    supported = report.tags[0].rate
    low, high = proportion_confint(2 / 6 * n_eff, n_eff, method="wilson")
    assert supported is not None and (supported.low, supported.high) == pytest.approx((low, high))


def test_the_json_shape(review: Review) -> None:
    spot_check = add(review, "lucky-3", ["L0", "L1", "L2"])
    review.set_label(review.store.row_of["L0"], False)
    data = spot_check_report(review, spot_check).to_json()
    assert list(data) == [
        "name", "view", "filter", "seed", "population", "size", "reviewed", "held", "overturned",
        "overturned_rate", "tags",
    ]  # fmt: skip
    assert data["overturned_rate"]["estimate"] == 1.0
    assert set(data["overturned_rate"]) == {"estimate", "low", "high"}
    supported = data["tags"]["supported-elsewhere"]
    assert supported["count"] == 0
    assert (supported["rate"]["estimate"], supported["rate"]["low"]) == (0.0, 0.0)
    assert 0 < supported["rate"]["high"] < 1


def test_nothing_reviewed_has_no_rate(review: Review) -> None:
    report = spot_check_report(review, add(review, "lucky-5", [f"L{i}" for i in range(5)]))
    assert report.overturned_rate is None
    assert report.to_json()["overturned_rate"] == {"estimate": None, "low": None, "high": None}
    assert report.sentence() == "lucky-5: none of the 5 sampled lucky answers reviewed yet (40 in all)"


def test_a_sample_of_the_whole_population_gives_the_exact_rate(review: Review) -> None:
    spot_check = add(review, "all", [f"L{i}" for i in range(POPULATION)])
    for i in range(POPULATION):
        review.set_label(review.store.row_of[f"L{i}"], i % 4 != 0)
    rate = spot_check_report(review, spot_check).overturned_rate
    assert rate is not None and rate.low == rate.estimate == rate.high == 0.25


def test_the_sentence_a_lead_can_paste(review: Review) -> None:
    spot_check = add(review, "lucky-8", [f"L{i}" for i in range(8)])
    for i in range(6):
        review.set_label(review.store.row_of[f"L{i}"], i != 0)
    review.set_tags(review.store.row_of["L0"], ["answer-wrong"])
    report = spot_check_report(review, spot_check)
    rate = report.overturned_rate
    assert rate is not None
    # 1 of 6 out of 40: Wilson at n_eff = 6 * 39 / 34 = 6.88: 3.3% to 53.9% (statsmodels)
    assert report.sentence() == (
        "lucky-8: the file's label was overturned on an estimated 17% of lucky answers (95% CI 3-54%), "
        "6 of 40 reviewed (2 of the 8 sampled still to review)"
    )
    lines = report.tag_lines()
    assert lines[3].startswith("Answer is actually wrong (answer-wrong): 1 of 6, an estimated 17% (95% CI ")
    text = format_spot_checks([report])
    assert text.splitlines()[0] == "  spot-checks"
    assert "    Answer is actually wrong" in text


def test_a_filtered_spot_check_names_its_filter_and_untrusted_names_are_made_visible(review: Review) -> None:
    spot_check = SpotCheck("q\x1b[31m", "all", "gpt", 1, 40, 1, ("L0",), "alice", utc_now())
    review.add_spot_check(spot_check)
    review.set_label(review.store.row_of["L0"], True)
    sentence = spot_check_report(review, spot_check).sentence()
    assert "\x1b" not in sentence
    assert "of runs matching 'gpt'" in sentence


def test_a_teams_tag_set_names_the_tags(review: Review) -> None:
    spot_check = add(review, "s", ["L0"])
    review.set_label(review.store.row_of["L0"], False)
    review.set_tags(review.store.row_of["L0"], ["stale"])
    tags = (Tag("stale", "Document out of date", "", 1),)
    report = spot_check_report(review, spot_check, tags)
    assert [tag.key for tag in report.tags] == ["stale"]
    assert report.tag_lines(tags)[0].startswith("Document out of date (stale): 1 of 1")


def test_every_spot_check_in_the_order_drawn(review: Review) -> None:
    add(review, "b", ["L0"])
    add(review, "a", ["L1"])
    assert [report.name for report in spot_check_reports(review)] == ["b", "a"]
    assert [tag.key for tag in spot_check_reports(review)[0].tags] == [tag.key for tag in DEFAULT_TAGS]
