"""RAGAS's ID-based context recall and precision, per run and in the store."""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path

import pytest

from ragdiag_tui.core.runs.metrics import id_precision, id_recall, metric_means
from ragdiag_tui.core.runs.store import RunStore, store_means


@pytest.mark.parametrize(
    ("required", "context", "recall", "precision"),
    [
        (["a", "b"], ["a"], 0.5, 1.0),
        (["a", "b"], ["a", "c", "d", "e"], 0.5, 0.25),
        (["a", "a", "b"], ["a", "a", "a"], 0.5, 1.0),  # distinct IDs
        (["a"], ["A", " a"], 0.0, 0.0),  # exact comparison, as the rule's
        ([], ["a"], None, 0.0),  # nothing required: recall undefined, never 0
        (None, ["a"], None, 0.0),
        (["a"], [], 0.0, None),  # nothing supplied: precision undefined
        (["a"], None, 0.0, None),
        ([], [], None, None),
    ],
)
def test_ragas_id_based_definitions(
    required: list[str] | None, context: list[str] | None, recall: float | None, precision: float | None
) -> None:
    assert id_recall(required, context) == recall
    assert id_precision(required, context) == precision


def test_means_skip_undefined_runs() -> None:
    means = metric_means([0.5, math.nan, 1.0], [math.nan, math.nan, 0.25])
    assert means.recall_mean == 0.75
    assert means.precision_mean == 0.25
    assert (means.recall_runs, means.precision_runs) == (2, 1)
    empty = metric_means([math.nan], [])
    assert empty.recall_mean is None and empty.precision_mean is None


def test_the_store_holds_a_column_of_each(write_runs: Callable[..., Path]) -> None:
    store = RunStore.load(
        write_runs(
            [
                {"id": "x", "required": ["a", "b"], "context": ["a", "c"], "correct": True},
                {"id": "bad", "required": 3},
                {"id": "u", "required": [], "context": ["a"], "correct": True},
                {"id": "n", "required": ["a"], "context": ["a"]},  # label error: still measured
            ]
        )
    )
    assert list(store.recall[:1]) == [0.5] and list(store.precision[:1]) == [0.5]
    assert math.isnan(store.recall[1]) and math.isnan(store.precision[1])
    assert math.isnan(store.recall[2]) and store.precision[2] == 0.0
    assert (store.recall[3], store.precision[3]) == (1.0, 1.0)


def test_store_means_are_computed_once_per_store_size(write_runs: Callable[..., Path]) -> None:
    store = RunStore.load(
        write_runs([{"id": "x", "required": ["a", "b"], "context": ["a"], "correct": True}])
    )
    first = store_means(store)
    assert (first.recall_mean, first.precision_mean) == (0.5, 1.0)
    assert store_means(store) is first
    store.recall[0] = 0.25  # never happens (no review changes a metric); shows the cache is used
    assert store_means(store).recall_mean == 0.5
