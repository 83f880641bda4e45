"""The conclusion of a spot-check: counts, held and overturned, tag rates, intervals, the sentence."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from ragdiag_tui.core.analysis.spotcheck import format_spot_checks, spot_check_report, spot_check_reports
from ragdiag_tui.core.review.records import ADJUDICATION, Entry, SpotCheck, utc_now
from ragdiag_tui.core.review.state import Review, open_review
from ragdiag_tui.core.review.tags import DEFAULT_TAGS, Tag

from .references import REFERENCES, proportion_confint

pytestmark = REFERENCES

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
        "conflicts", "settled", "overturned_rate", "tags", "absent", "sampled", "in_file", "doubts",
        "overturned_rate_anytime", "margin", "may_stop",
    ]  # fmt: skip
    assert data["overturned_rate"]["estimate"] == 1.0
    assert set(data["overturned_rate"]) == {"estimate", "low", "high", "exact"}
    supported = data["tags"]["supported-elsewhere"]
    assert supported["count"] == 0
    assert (supported["rate"]["estimate"], supported["rate"]["low"]) == (0.0, 0.0)
    assert 0 < supported["rate"]["high"] < 1


def test_nothing_reviewed_has_no_rate(review: Review) -> None:
    report = spot_check_report(review, add(review, "lucky-5", [f"L{i}" for i in range(5)]))
    assert report.overturned_rate is None
    assert report.to_json()["overturned_rate"] == {
        "estimate": None,
        "low": None,
        "high": None,
        "exact": False,
    }
    assert report.sentence() == "lucky-5: none of the 5 sampled lucky answers reviewed yet (40 in all)"


def test_a_sample_of_the_whole_population_gives_the_exact_rate(review: Review) -> None:
    spot_check = add(review, "all", [f"L{i}" for i in range(POPULATION)])
    for i in range(POPULATION):
        review.set_label(review.store.row_of[f"L{i}"], i % 4 != 0)
    report = spot_check_report(review, spot_check)
    rate = report.overturned_rate
    assert rate is not None and rate.low == rate.estimate == rate.high == 0.25
    # Said as exact, not as a zero-width interval ("95% CI 25-25%" reads as a fault): issue 39.
    assert rate.exact and report.to_json()["overturned_rate"]["exact"] is True
    assert (
        "overturned on 25% of lucky answers (exact: every run of the population reviewed)"
        in report.sentence()
    )
    assert "CI" not in report.sentence()
    assert all("CI" not in line for line in report.tag_lines())
    assert "0 of 40, 0% (exact: every run of the population reviewed)" in report.tag_lines()[1]


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
        "6 of 40 reviewed: 5 held, 1 overturned, 0 in conflict (2 of the 8 sampled still to review)"
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


# -- conflicts: counted apart, out of the estimate, and tags only with the settled label ----------


def other_label(review: Review, run_id: str, label: bool | None, reviewer: str = "bob", tags=()) -> None:
    """`reviewer`'s label (and tags) on a run, as their journal line would bring it."""
    row = review.store.row_of[run_id]
    review.apply(Entry(run_id, label, "", reviewer, utc_now(), review.digest_of(row), tags=tuple(tags)))


def test_runs_in_conflict_are_counted_apart_and_left_out_of_the_estimate(review: Review) -> None:
    spot_check = add(review, "lucky-10", [f"L{i}" for i in range(10)])
    row = review.store.row_of
    for i in range(6):  # alice: L0-L1 held, L2-L5 overturned
        review.set_label(row[f"L{i}"], i < 2)
    other_label(review, "L4", True)  # bob disagrees on two of them: in conflict,
    other_label(review, "L5", True)  # though the file's label (held) is in force
    other_label(review, "L3", False)  # and agrees on one
    report = spot_check_report(review, spot_check)
    counted = (report.reviewed, report.held, report.overturned, report.conflicts, report.settled)
    assert counted == (6, 2, 2, 2, 4)
    assert review.spot_check_progress("lucky-10") == (6, 2, 2, 2)
    n_eff = 4 * 39 / 36  # over the 4 settled runs only
    low, high = proportion_confint(2 / 4 * n_eff, n_eff, method="wilson")
    rate = report.overturned_rate
    assert rate is not None and rate.estimate == pytest.approx(2 / 4)
    assert (rate.low, rate.high) == pytest.approx((low, high))
    assert report.sentence().endswith(
        f"({rate.ci_percent()}), 6 of 40 reviewed: 2 held, 2 overturned, 2 in conflict "
        "(the estimate is over the 4 with a settled label) (4 of the 10 sampled still to review)"
    )
    data = report.to_json()
    assert (data["held"], data["overturned"], data["conflicts"], data["settled"]) == (2, 2, 2, 4)
    assert report.tag_lines()[0].startswith("Supported by another document (supported-elsewhere): 0 of 4")


def test_adjudicating_a_conflict_settles_it_into_held_or_overturned(review: Review) -> None:
    spot_check = add(review, "s", ["L0"])
    review.set_label(review.store.row_of["L0"], False)
    other_label(review, "L0", True)
    assert spot_check_report(review, spot_check).conflicts == 1
    review.apply(Entry("L0", False, "", "carol", utc_now(), review.digest_of(0), kind=ADJUDICATION))
    report = spot_check_report(review, spot_check)
    assert (report.held, report.overturned, report.conflicts) == (0, 1, 0)


def test_a_sample_reviewed_only_in_conflict_has_no_estimate_and_says_why(review: Review) -> None:
    spot_check = add(review, "s", ["L0", "L1"])
    review.set_label(review.store.row_of["L0"], False)
    other_label(review, "L0", True)
    report = spot_check_report(review, spot_check)
    assert report.overturned_rate is None and all(tag.rate is None for tag in report.tags)
    assert report.sentence() == (
        "s: no estimate yet for lucky answers, 1 of 40 reviewed: 0 held, 0 overturned, 1 in conflict "
        "(no run with a settled label) (1 of the 2 sampled still to review)"
    )
    assert format_spot_checks([report]).splitlines()[1:] == [f"  {report.sentence()}"]


def test_tags_count_only_when_given_with_the_settled_label(review: Review) -> None:
    spot_check = add(review, "lucky-5", [f"L{i}" for i in range(5)])
    row = review.store.row_of
    # L0: in conflict: neither reviewer's tags count.
    review.set_label(row["L0"], False)
    review.set_tags(row["L0"], ["answer-wrong"])
    other_label(review, "L0", True, tags=["supported-elsewhere"])
    # L1: both agree: both reviewers' tags count, each once.
    review.set_label(row["L1"], False)
    review.set_tags(row["L1"], ["answer-wrong", "partly-supported"])
    other_label(review, "L1", False, tags=["answer-wrong"])
    # L2: adjudicated False: only bob's tags (he said False) count, not alice's (True).
    review.set_label(row["L2"], True)
    review.set_tags(row["L2"], ["supported-elsewhere"])
    other_label(review, "L2", False, tags=["model-knowledge"])
    review.apply(Entry("L2", False, "", "carol", utc_now(), review.digest_of(row["L2"]), kind=ADJUDICATION))
    # L3: alice labels it; bob's tags without a label of his own do not count.
    review.set_label(row["L3"], True)
    other_label(review, "L3", None, tags=["our-own-tag"])
    report = spot_check_report(review, spot_check)
    counts = {tag.key: tag.count for tag in report.tags}
    assert counts == {
        "supported-elsewhere": 0,
        "required-wrong": 0,
        "model-knowledge": 1,
        "answer-wrong": 1,
        "partly-supported": 1,
    }
    assert (report.settled, report.conflicts) == (3, 1)
    n_eff = 3 * 39 / 37
    low, high = proportion_confint(1 / 3 * n_eff, n_eff, method="wilson")
    answer_wrong = report.tags[3].rate
    assert answer_wrong is not None and (answer_wrong.low, answer_wrong.high) == pytest.approx((low, high))
    assert review.team.settled_tags(row["L0"]) == ()
    assert review.tags(row["L0"]) == ("answer-wrong", "supported-elsewhere")  # every tag is still kept


# -- a spot-check record is a set (issue 22, item 12) -------------------------------------------


def test_repeated_ids_count_once_with_a_warning_in_every_figure(review: Review) -> None:
    """A hand-edited or merged record naming one run three times: one run reviewed, not three."""
    spot_check = SpotCheck("dup", "lucky", "", 7, 3, 3, ("L0", "L0", "L0"), "alice", utc_now())
    review.add_spot_check(spot_check)
    review.set_label(review.store.row_of["L0"], False)
    assert review.spot_check_progress("dup") == (1, 0, 1, 0)
    report = spot_check_report(review, spot_check)
    assert (report.reviewed, report.overturned, report.settled, report.runs, report.in_file) == (
        1,
        1,
        1,
        1,
        1,
    )
    # the interval is over one run of a population of 3, as statsmodels computes it (n_eff = 1 * 2 / 2)
    low, high = proportion_confint(1, 1, method="wilson")
    assert report.overturned_rate is not None
    assert (report.overturned_rate.low, report.overturned_rate.high) == pytest.approx((low, high))
    assert report.overturned_rate.low < 0.5  # not "100-100%"
    sentence = report.sentence()
    assert "1 of 3 reviewed" in sentence
    assert "⚠ 2 repeated ids counted once" in sentence
    assert "⚠ its size says 3 but it names 1 distinct run" in sentence
    assert report.to_json()["doubts"] == [
        "2 repeated ids counted once",
        "its size says 3 but it names 1 distinct run",
    ]


def test_ids_the_file_lacks_are_in_no_count(review: Review) -> None:
    spot_check = add(review, "partly", ["L0", "gone-1", "L1", "gone-2"])
    review.set_label(review.store.row_of["L0"], True)
    report = spot_check_report(review, spot_check)
    assert (report.absent, report.runs, report.in_file, report.reviewed) == (2, 4, 2, 1)
    sentence = report.sentence()
    assert "(1 of the 2 sampled still to review)" in sentence
    assert "2 of its 4 sampled runs are not in this file" in sentence
    assert "size says" not in sentence  # 4 ids, size 4: nothing to question


def test_a_size_the_ids_disagree_with_is_questioned(review: Review) -> None:
    spot_check = SpotCheck("short", "lucky", "", 7, 40, 10, ("L0", "L1"), "alice", utc_now())
    review.add_spot_check(spot_check)
    assert spot_check.doubts() == ["its size says 10 but it names 2 distinct runs"]
    report = spot_check_report(review, spot_check)
    assert "none of the 2 sampled lucky answers reviewed yet" in report.sentence()
    assert "⚠ its size says 10 but it names 2 distinct runs" in report.sentence()
