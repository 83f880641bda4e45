"""Agreement figures checked against independent implementations (scikit-learn, krippendorff)."""

from __future__ import annotations

import math
import random
import warnings
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ragdiag_tui.core.analysis.agreement import agreement, format_agreement

from .references import NEEDS_AGREEMENT_REFERENCES, REFERENCES, cohen_kappa_score, krippendorff_alpha

pytestmark = [REFERENCES, NEEDS_AGREEMENT_REFERENCES]

Runs = list[tuple[dict[str, bool], bool | None]]


def reference_kappa(first: list[bool], second: list[bool]) -> float | None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # 0/0 warns and gives nan
        value = cohen_kappa_score(first, second, labels=[False, True])
    return None if math.isnan(value) else float(value)


def reference_krippendorff(runs: Runs) -> float | None:
    import numpy as np

    names = sorted({name for labels, _ in runs for name in labels})
    if not runs or not names:
        return None
    data = np.full((len(names), len(runs)), np.nan)
    for unit, (labels, _) in enumerate(runs):
        for name, label in labels.items():
            data[names.index(name), unit] = float(label)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            value = krippendorff_alpha(
                reliability_data=data, level_of_measurement="nominal", value_domain=[0, 1]
            )
    except (ValueError, ZeroDivisionError):
        return None
    return None if math.isnan(value) else float(value)


def check_against_references(runs: Runs) -> None:
    result = agreement(runs)
    names = sorted({name for labels, _ in runs for name in labels})
    assert list(result.reviewers) == names
    assert result.labelled == sum(1 for labels, _ in runs if labels)
    assert result.pairable == sum(1 for labels, _ in runs if len(labels) > 1)

    expected_pairs = {}
    for first, second in combinations(names, 2):
        shared = [labels for labels, _ in runs if first in labels and second in labels]
        if shared:
            expected_pairs[first, second] = shared
    assert [pair.reviewers for pair in result.pairs] == sorted(expected_pairs)
    for pair in result.pairs:
        shared = expected_pairs[pair.reviewers]
        a = [labels[pair.reviewers[0]] for labels in shared]
        b = [labels[pair.reviewers[1]] for labels in shared]
        assert pair.overlap == len(shared)
        assert pair.agreement == pytest.approx(sum(x == y for x, y in zip(a, b, strict=True)) / len(shared))
        kappa = reference_kappa(a, b)
        if kappa is None:
            assert pair.kappa is None
            assert pair.kappa_reason
        else:
            assert pair.kappa == pytest.approx(kappa, abs=1e-9)
            assert pair.kappa_reason is None

    for one in result.with_file:
        shared = [
            (labels[one.reviewer], file)
            for labels, file in runs
            if one.reviewer in labels and file is not None
        ]
        assert one.overlap == len(shared)
        if not shared:
            assert one.agreement is None and one.kappa is None and one.kappa_reason
            continue
        assert one.agreement == pytest.approx(sum(x == y for x, y in shared) / len(shared))
        kappa = reference_kappa([x for x, _ in shared], [y for _, y in shared])
        if len({y for _, y in shared}) == 1:  # the file's labels all alike: undefined, not 0
            kappa = None
        assert one.kappa == (None if kappa is None else pytest.approx(kappa, abs=1e-9))
        assert (one.kappa_reason is None) == (kappa is not None)

    alpha = reference_krippendorff(runs)
    if alpha is None:
        assert result.alpha is None
        assert result.alpha_reason
    else:
        assert result.alpha == pytest.approx(alpha, abs=1e-9)
        assert result.alpha_reason is None
    assert format_agreement(result)  # the text table never fails on any of these


def random_runs(rng: random.Random, reviewers: int, runs: int, p_label: float, p_true: float) -> Runs:
    names = [f"r{i}" for i in range(reviewers)]
    out: Runs = []
    for _ in range(runs):
        labels = {name: rng.random() < p_true for name in names if rng.random() < p_label}
        file = rng.choice([True, False, None])
        out.append((labels, file))
    return out


@pytest.mark.parametrize("seed", range(40))
def test_random_label_sets_match_scikit_learn_and_krippendorff(seed: int) -> None:
    rng = random.Random(seed)
    runs = random_runs(
        rng,
        reviewers=rng.randint(1, 6),
        runs=rng.randint(0, 80),
        p_label=rng.choice([0.2, 0.5, 0.9, 1.0]),
        p_true=rng.choice([0.0, 0.05, 0.5, 0.95, 1.0]),
    )
    check_against_references(runs)


labels_by_reviewer = st.dictionaries(st.sampled_from(["ann", "bo", "cy", "[b]x"]), st.booleans(), max_size=4)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(labels_by_reviewer, st.sampled_from([True, False, None])), max_size=25))
def test_any_label_set_matches_the_references(runs: Runs) -> None:
    check_against_references(runs)


def test_kappa_is_undefined_when_both_used_one_label() -> None:
    runs: Runs = [({"ann": True, "bo": True}, True)] * 5
    result = agreement(runs)
    (pair,) = result.pairs
    assert (pair.overlap, pair.agreement, pair.kappa) == (5, 1.0, None)
    assert pair.kappa_reason == "both said correct on every run they share"
    assert result.alpha is None and "no disagreement is possible" in (result.alpha_reason or "")
    assert [one.kappa for one in result.with_file] == [None, None]
    assert pair.to_json()["kappa_reason"] == pair.kappa_reason
    assert result.to_json()["alpha_reason"] == result.alpha_reason


def test_opposite_single_labels_give_kappa_zero_not_none() -> None:
    result = agreement([({"ann": True, "bo": False}, None)] * 3)
    assert result.pairs[0].kappa == 0.0 == reference_kappa([True] * 3, [False] * 3)
    assert result.pairs[0].agreement == 0.0


def test_kappa_against_a_file_whose_labels_are_all_alike_is_undefined_not_zero() -> None:
    # The file labels every lucky answer correct: the formula gives 0 whatever ann says.
    runs: Runs = [({"ann": True}, True), ({"ann": False}, True), ({"ann": False}, True)]
    assert reference_kappa([True, False, False], [True, True, True]) == 0.0
    (one,) = agreement(runs).with_file
    assert (one.overlap, one.kappa) == (3, None)
    assert one.kappa_reason == "undefined: the file says correct on every run this reviewer labelled"
    assert one.to_json()["kappa_reason"] == one.kappa_reason
    text = "\n".join(format_agreement(agreement(runs)))
    assert "n/a  (undefined: the file says correct on every run this reviewer labelled)" in text


def test_reviewers_who_never_overlap_form_no_pair_and_no_alpha() -> None:
    result = agreement([({"ann": True}, True), ({"bo": False}, False), ({}, True)])
    assert result.pairs == ()
    assert result.labelled == 2 and result.pairable == 0
    assert result.alpha is None and result.alpha_reason == "no run has labels from two reviewers"
    assert [(one.reviewer, one.overlap, one.agreement) for one in result.with_file] == [
        ("ann", 1, 1.0),
        ("bo", 1, 1.0),
    ]


def test_a_single_reviewer_without_file_labels() -> None:
    result = agreement([({"ann": True}, None), ({"ann": False}, None)])
    assert result.pairs == () and result.alpha is None
    (one,) = result.with_file
    assert (one.overlap, one.agreement, one.kappa) == (0, None, None)
    assert one.kappa_reason == "no run this reviewer labelled has a label in the file"


def test_no_labels_at_all() -> None:
    result = agreement([])
    assert result.to_json() == {
        "reviewers": [],
        "labelled_runs": 0,
        "pairable_runs": 0,
        "pairs": [],
        "alpha": None,
        "alpha_reason": "no run has labels from two reviewers",
        "with_file": [],
    }
    assert format_agreement(result) == ["  no reviewer has labelled a run yet"]


def test_the_json_shape_of_a_defined_result() -> None:
    runs: Runs = [({"ann": True, "bo": True}, True), ({"ann": False, "bo": True}, False)]
    runs += [({"ann": False, "bo": False}, False)]
    data = agreement(runs).to_json()
    assert data["pairs"][0].keys() == {"reviewers", "overlap", "agreement", "kappa"}
    assert data["pairs"][0]["reviewers"] == ["ann", "bo"]
    assert "alpha_reason" not in data and isinstance(data["alpha"], float)
    assert data["with_file"][0].keys() == {"reviewer", "overlap", "agreement", "kappa"}


def test_hostile_reviewer_names_are_shown_escaped() -> None:
    result = agreement([({"\x1b[31mann": True, "bo\u202e": False}, True)])
    text = "\n".join(format_agreement(result))
    assert "\x1b" not in text and "\u202e" not in text
    assert "\\x1b[31mann" in text
