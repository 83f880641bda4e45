"""Spot-check samples: populations by the file's labels, and the seeded draw."""

from __future__ import annotations

import hashlib
import os
import random
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

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
    sample_key,
)
from ragdiag_tui.core.review.state import Review
from ragdiag_tui.core.runs.store import RunStore

from .test_filtering import RUNS as FILTER_RUNS

WriteRuns = Callable[..., Path]

# The filtering tests' runs, and one more: a gap with no label (lucky by no one).
RUNS: list[Any] = [*FILTER_RUNS, {"id": "gap-nolabel", "required": ["x"], "context": []}]
GAP, LUCKY, GEN, PASS1, UNRES, NOLABEL, BROKEN, GAP2, PASS2, GAPNOLABEL = range(10)

# The sha256 draw pinned for any machine and engine (checked against hashlib below, too).
PINNED_1000 = ["r577", "r988", "r224", "r235", "r797"]  # 20 of r0..r999, seed 20261130
PINNED_373 = ["run-111", "run-156", "run-44", "run-276", "run-293"]  # 5 of run-0..run-372, seed 42


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
    # The view lists the lucky answers in the file (LUCKY, overturned) and those still lucky.
    assert view_rows(store, review, "lucky") == [LUCKY, GAP2, GAPNOLABEL]
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


def sha_key(seed: int, run_id: str) -> str:
    """The documented key, computed here with hashlib alone."""
    return hashlib.sha256((str(seed) + "\x1f" + run_id).encode("utf-8")).hexdigest()


def by_key(ids: list[str], n: int, seed: int) -> list[str]:
    """The documented sample: the n ids with the smallest keys, in key order."""
    return sorted(ids, key=lambda run_id: sha_key(seed, run_id))[:n]


@pytest.mark.parametrize(
    ("seed", "run_id"),
    [(7, "run-1"), (0, ""), (-3, "lucky-3"), (20261130, "a[b]c"), (1, "é/日本/😀"), (2**70, "line 7")],
)
def test_a_runs_key_is_the_sha256_of_seed_unit_separator_and_id(seed: int, run_id: str) -> None:
    assert sample_key(seed, run_id) == sha_key(seed, run_id)
    assert sample_key(seed, run_id) == hashlib.sha256(f"{seed}\x1f{run_id}".encode()).hexdigest()


def test_a_known_key_is_pinned() -> None:
    # The engines (DuckDB, Spark) must give this very key: sha256 of the bytes '7', 0x1f, 'run-1'.
    assert sample_key(7, "run-1") == "b5bff2f3d72895c74d77de3d655166d647ff7a7ffe4ab73a6fd1926225df32a1"


def test_a_lone_surrogate_in_an_id_is_keyed_by_its_three_bytes() -> None:
    # UTF-8 cannot encode one; a JSON run file can hold one ("\ud800"), and must still draw.
    encoded = "7\x1fa\ud800b".encode("utf-8", "surrogatepass")
    assert sample_key(7, "a\ud800b") == hashlib.sha256(encoded).hexdigest()
    assert draw(["a\ud800b", "ok"], 2, 7) == sorted(["a\ud800b", "ok"], key=lambda i: sample_key(7, i))


def test_the_draw_is_the_n_smallest_keys_in_key_order() -> None:
    ids = [f"run-{i}" for i in range(373)]
    assert draw(ids, 50, 7) == by_key(ids, 50, 7)
    assert draw(ids, 50, 7) == draw(ids, 50, 7)
    assert draw(ids, 50, 8) != draw(ids, 50, 7)
    assert len(set(draw(ids, 50, 7))) == 50  # without replacement


def test_more_than_the_population_takes_the_whole_population_in_key_order() -> None:
    ids = ["a", "b", "c"]
    assert draw(ids, 10, 1) == by_key(ids, 3, 1)
    assert sorted(draw(ids, 10, 1)) == ids
    assert draw(ids, 3, 1) == draw(ids, 10, 1)
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
            env={**os.environ, "PYTHONHASHSEED": seed},
        ).stdout
        for seed in ("1", "2")
    }
    assert len(outputs) == 1
    # Pinned: the same ids on any machine and in any engine.
    first = outputs.pop().strip().split(",")
    assert first == by_key([f"r{i}" for i in range(1000)], 20, 20261130)
    assert first[:5] == PINNED_1000
    assert draw([f"run-{i}" for i in range(373)], 5, 42) == PINNED_373


def test_default_name() -> None:
    assert default_name("lucky", 50) == "lucky-50"


def test_drawing_rows_names_the_same_ids_as_drawing_ids(store: RunStore, review: Review) -> None:
    rows = population(store, review, "all")
    for n, seed in ((3, 1), (10, 2), (50, 3), (0, 4)):
        assert draw_ids(store, rows, n, seed) == draw(population_ids(store, rows), n, seed)


def test_draw_sample(store: RunStore, review: Review) -> None:
    sample = draw_sample(store, review, "lucky", 5, 11, "")
    assert (sample.view, sample.filter, sample.seed, sample.population) == ("lucky", "", 11, 2)
    assert sample.ids == tuple(by_key(["r-lucky", "gap-2"], 2, 11))
    everyone = population_ids(store, list(range(10)))
    assert draw_sample(store, review, "all", "auto", 1).ids == tuple(by_key(everyone, 10, 1))
    with pytest.raises(SampleError):
        draw_sample(store, review, "all", "ten", 1)


def test_an_invalid_line_is_keyed_by_its_name(store: RunStore, review: Review) -> None:
    assert draw_sample(store, review, "invalid", 1, 5).ids == ("line 7",)
    ids = draw_sample(store, review, "all", 10, 5).ids
    assert list(ids) == by_key(population_ids(store, list(range(10))), 10, 5)
    assert "line 7" in ids


def test_the_same_runs_in_another_file_order_give_the_same_sample(write_runs: WriteRuns) -> None:
    runs: list[Any] = [
        {"id": f"q-{i}", "required": ["a", "b"], "context": ["a"], "correct": i % 3 != 0} for i in range(200)
    ]
    shuffled = runs[:]
    random.Random(3).shuffle(shuffled)
    assert shuffled != runs
    samples = []
    for name, lines in (("ordered.jsonl", runs), ("shuffled.jsonl", shuffled)):
        store = RunStore.load(write_runs(lines, name))
        review = Review(store, reviewer="alice")
        samples.append([draw_sample(store, review, view, 25, 99).ids for view in ("lucky", "all")])
    assert samples[0] == samples[1]
    assert list(samples[0][0]) == by_key([f"q-{i}" for i in range(200) if i % 3 != 0], 25, 99)


def test_one_name_twice_has_one_key_and_the_earlier_row_comes_first(write_runs: WriteRuns) -> None:
    # A repeated id makes the later line invalid, named by its line: `line 21`. A valid run whose
    # id is `line 21` then shares that key with it; the earlier in the file comes first.
    runs: list[Any] = [{"id": f"r{i}", "required": ["a"], "context": [], "correct": True} for i in range(20)]
    runs[5]["id"] = "line 21"
    runs.append({"id": "r4", "required": ["a"], "context": ["a"], "correct": True})  # r4 again: invalid
    store = RunStore.load(write_runs(runs))
    assert population_ids(store, [5, 20]) == ["line 21", "line 21"]
    rows = list(range(21))
    ranked = sorted(rows, key=lambda row: (sha_key(3, population_ids(store, [row])[0]), row))
    assert ranked.index(5) + 1 == ranked.index(20)
    expected = population_ids(store, ranked)
    assert draw_ids(store, rows, 21, 3) == expected == draw(population_ids(store, rows), 21, 3)
    assert draw_ids(store, rows[::-1], 21, 3) == expected  # whatever the order of the rows given


@settings(max_examples=200, deadline=None)
@given(
    ids=st.lists(st.text(min_size=0, max_size=6), max_size=40),
    n=st.integers(0, 45),
    k=st.integers(0, 45),
    seed=st.integers(-(2**40), 2**40),
)
def test_the_first_k_of_a_sample_of_n_are_the_sample_of_k(ids: list[str], n: int, k: int, seed: int) -> None:
    k = min(k, n)
    assert draw(ids, n, seed)[:k] == draw(ids, k, seed)
    assert draw(ids, n, seed) == by_key(ids, n, seed)
    assert sorted(draw(ids, len(ids), seed)) == sorted(ids)


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
