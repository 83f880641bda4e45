"""Spot-check samples: populations by the file's labels, and the seeded draw."""

from __future__ import annotations

import random
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from ragdiag_tui.core.analysis.filtering import view_rows
from ragdiag_tui.core.analysis.sampling import (
    SAMPLE_VIEWS,
    SampleError,
    default_name,
    draw,
    draw_ids,
    draw_sample,
    population,
    population_ids,
)
from ragdiag_tui.core.review.state import Review
from ragdiag_tui.core.runs.store import RunStore

from .test_filtering import RUNS as FILTER_RUNS

WriteRuns = Callable[..., Path]

# The filtering tests' runs, and one more: a gap with no label (lucky by no one).
RUNS: list[Any] = [*FILTER_RUNS, {"id": "gap-nolabel", "required": ["x"], "context": []}]
GAP, LUCKY, GEN, PASS1, UNRES, NOLABEL, BROKEN, GAP2, PASS2, GAPNOLABEL = range(10)


@pytest.fixture
def store(write_runs: WriteRuns) -> RunStore:
    return RunStore.load(write_runs(RUNS))


@pytest.fixture
def review(store: RunStore) -> Review:
    return Review(store, reviewer="alice")


def test_the_views_are_the_command_lines_names() -> None:
    assert SAMPLE_VIEWS == (
        "all", "retrieval", "generation", "pass", "unresolved", "answer-label", "invalid", "lucky",
        "unreviewed", "reviewed",
    )  # fmt: skip


@pytest.mark.parametrize(
    ("view", "rows"),
    [
        ("all", list(range(10))),
        ("retrieval", [GAP, LUCKY, GAP2]),
        ("generation", [GEN]),
        ("pass", [PASS1, PASS2]),
        ("unresolved", [UNRES]),
        ("answer-label", [NOLABEL, GAPNOLABEL]),
        ("invalid", [BROKEN]),
        ("lucky", [LUCKY, GAP2]),
        ("unreviewed", [r for r in range(10) if r != BROKEN]),
        ("reviewed", []),
    ],
)
def test_before_any_review_a_population_is_the_apps_view(
    store: RunStore, review: Review, view: str, rows: list[int]
) -> None:
    assert population(store, review, view) == rows
    assert view_rows(store, review, view) == rows


def test_populations_follow_the_files_labels_whatever_reviewers_decide(
    store: RunStore, review: Review
) -> None:
    before = {view: population(store, review, view) for view in SAMPLE_VIEWS if "review" not in view}
    review.set_label(LUCKY, False)  # a lucky answer overturned: no longer lucky on screen
    review.set_label(GEN, True)  # generation -> pass on screen
    review.set_label(NOLABEL, True)  # label error -> pass
    review.set_label(GAPNOLABEL, True)  # label error -> retrieval, and lucky on screen
    assert view_rows(store, review, "lucky") == [GAP2, GAPNOLABEL]
    after = {view: population(store, review, view) for view in before}
    assert after == before
    assert population(store, review, "reviewed") == [LUCKY, GEN, NOLABEL, GAPNOLABEL]
    assert LUCKY not in population(store, review, "unreviewed")


def test_the_text_filter_narrows_a_population_in_file_order(store: RunStore, review: Review) -> None:
    assert population(store, review, "all", "pto") == [GEN, PASS2]
    assert population(store, review, "lucky", "KB/VPN#3") == [GAP2]
    assert population(store, review, "retrieval", "kb/vpn") == [GAP, GAP2]
    assert population(store, review, "pass", "nothing like it") == []


def test_an_unknown_view_names_the_choices(store: RunStore, review: Review) -> None:
    with pytest.raises(SampleError, match=r"unknown view 'luck'.*lucky"):
        population(store, review, "luck")


def test_population_ids_name_runs_and_invalid_lines_by_line(store: RunStore) -> None:
    assert population_ids(store, [LUCKY, BROKEN, GAP2]) == ["r-lucky", "line 7", "gap-2"]


def test_the_draw_is_random_sample_with_the_seed() -> None:
    ids = [f"run-{i}" for i in range(373)]
    assert draw(ids, 50, 7) == random.Random(7).sample(ids, 50)
    assert draw(ids, 50, 7) == draw(ids, 50, 7)
    assert draw(ids, 50, 8) != draw(ids, 50, 7)
    assert len(set(draw(ids, 50, 7))) == 50  # without replacement


def test_more_than_the_population_takes_the_whole_population() -> None:
    ids = ["a", "b", "c"]
    assert sorted(draw(ids, 10, 1)) == ids
    assert draw(ids, 10, 1) == random.Random(1).sample(ids, 3)
    assert draw([], 5, 1) == []
    with pytest.raises(SampleError):
        draw(ids, -1, 1)


def test_the_draw_is_the_same_in_another_interpreter() -> None:
    # A fresh process with another hash seed: nothing in the draw may depend on hashing.
    code = (
        "from ragdiag_tui.core.analysis.sampling import draw;"
        "print(','.join(draw([f'r{i}' for i in range(1000)], 20, 20261130)))"
    )
    outputs = {
        subprocess.run(
            [sys.executable, "-c", code],
            capture_output=True,
            text=True,
            check=True,
            env={"PYTHONHASHSEED": seed},
        ).stdout
        for seed in ("1", "2")
    }
    assert len(outputs) == 1
    # Pinned: the same ids on any machine (random.sample's algorithm is stable across Python 3).
    assert outputs.pop().split(",")[:5] == ["r779", "r142", "r598", "r989", "r58"]
    pinned = ["run-327", "run-57", "run-12", "run-140", "run-125"]
    assert draw([f"run-{i}" for i in range(373)], 5, 42) == pinned


def test_default_name() -> None:
    assert default_name("lucky", 50) == "lucky-50"


def test_drawing_rows_names_the_same_ids_as_drawing_ids(store: RunStore, review: Review) -> None:
    # random.sample picks positions from the length and the generator alone.
    rows = population(store, review, "all")
    for n, seed in ((3, 1), (10, 2), (50, 3), (0, 4)):
        assert draw_ids(store, rows, n, seed) == draw(population_ids(store, rows), n, seed)


def test_draw_sample(store: RunStore, review: Review) -> None:
    sample = draw_sample(store, review, "lucky", 5, 11, "")
    assert (sample.view, sample.filter, sample.seed, sample.population) == ("lucky", "", 11, 2)
    assert sample.ids == tuple(random.Random(11).sample(["r-lucky", "gap-2"], 2))
    assert draw_sample(store, review, "all", "auto", 1).ids == tuple(
        random.Random(1).sample(population_ids(store, list(range(10))), 10)
    )
    with pytest.raises(SampleError):
        draw_sample(store, review, "all", "ten", 1)


def test_the_filter_takes_the_apps_terms(write_runs: WriteRuns) -> None:
    runs = [
        {"id": f"r{i}", "required": ["a", "b"], "context": ["a"], "correct": True, "model": model}
        for i, model in enumerate(["gpt-4o", "llama", "gpt-4o-mini", "gpt-4o"])
    ]
    store = RunStore.load(write_runs(runs))
    review = Review(store, reviewer="alice")
    assert population(store, review, "lucky", "model:gpt-4o") == [0, 2, 3]
    assert population(store, review, "lucky", "model:=gpt-4o") == [0, 3]
    assert population(store, review, "all", "model:llama") == [1]
    review.set_label(0, False)
    assert population(store, review, "lucky", "model:=gpt-4o is:unreviewed") == [3]
    assert population(store, review, "lucky", "model:=gpt-4o") == [0, 3]  # by the file's labels
