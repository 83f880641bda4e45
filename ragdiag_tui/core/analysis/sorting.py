"""Sorting the table's index by one column: stable, and fast at a million rows.

A sort never builds an object per run. Each column gives a key per row read
straight from the store's flat columns (or the review); text columns (id,
question) are ranked once per store, so later sorts of any subset compare
machine integers. Python's sort is stable, and stays stable with
`reverse=True`, so runs with equal keys keep their file order either way.
"""

from __future__ import annotations

import weakref
from array import array
from collections.abc import Callable, Sequence

from ..review.state import Review
from ..runs.store import RunStore

ASCENDING, DESCENDING, FILE_ORDER = 1, -1, 0

SORT_COLUMNS = (
    "reviewed",
    "id",
    "stage",
    "label",
    "from",
    "missing",
    "required",
    "supplied",
    "tags",
    "recall",
    "precision",
    "lucky",
    "question",
)
"""The columns a table can be sorted by, in the table's order."""

METRIC_COLUMNS = ("recall", "precision")  # RAGAS's ID-based context metrics; NaN where undefined
_LABEL_ORDER = {True: 0, False: 1, None: 2}  # correct, incorrect, none
_SOURCE_ORDER = {"adjudication": 0, "reviewer": 1, "conflict": 2, "file": 3, None: 4}
BLIND_COLUMNS = frozenset({"stage", "label", "from", "missing", "lucky", "tags", "reviewed"})
"""Columns whose order would tell, in blind mode, the labels of runs not labelled yet (or,
for tags and reviewed, another reviewer's verdict or what the blind table leaves blank)."""

Key = Callable[[int], object]
_RANKS: weakref.WeakKeyDictionary[RunStore, dict[str, array[int]]] = weakref.WeakKeyDictionary()


def text_rank(store: RunStore, column: str, values: Sequence[str]) -> array[int]:
    """Each row's place among the sorted `values` (equal values, equal places), kept per store."""
    ranks = _RANKS.setdefault(store, {})
    rank = ranks.get(column)
    if rank is None or len(rank) != len(values):
        order = sorted(range(len(values)), key=values.__getitem__)
        rank = array("I", bytes(4 * len(values)))
        place, previous = 0, None
        for at, row in enumerate(order):
            value = values[row]
            if value != previous:
                place, previous = at, value
            rank[row] = place
        ranks[column] = rank
    return rank


def sort_key(store: RunStore, review: Review, column: str) -> Key:
    """The key of one row for `column` (smaller sorts first).

    In blind mode a column that would tell a hidden label gives every run this
    reviewer has not labelled yet one same key, apart from the labelled runs: they
    keep their file order among themselves, and their order tells nothing.
    """
    key = _sort_key(store, review, column)
    if review.blind and column in BLIND_COLUMNS:
        revealed = review.revealed
        return lambda row: (0, key(row)) if revealed(row) else (1, 0)
    return key


def _sort_key(store: RunStore, review: Review, column: str) -> Key:
    if column == "id":
        return text_rank(store, column, store.ids).__getitem__
    if column == "question":
        return text_rank(store, column, store.questions).__getitem__
    if column == "stage":
        return store.stage.__getitem__
    if column == "required":
        return store.n_required.__getitem__
    if column == "supplied":
        return store.n_context.__getitem__
    if column == "missing":
        missing = store.missing
        return lambda row: len(missing.get(row, ()))
    if column == "label":
        label, order = review.label, _LABEL_ORDER
        return lambda row: order[label(row)]
    if column == "from":
        source, order = review.label_source, _SOURCE_ORDER
        return lambda row: order.get(source(row), len(order))
    if column == "reviewed":
        reviewed = review.is_reviewed
        return lambda row: not reviewed(row)  # reviewed runs first
    if column == "tags":
        tags = review.tags
        return lambda row: len(tags(row))
    if column in METRIC_COLUMNS:
        values = store.recall if column == "recall" else store.precision
        return values.__getitem__
    if column == "lucky":
        lucky = review.is_lucky
        return lambda row: not lucky(row)  # lucky answers first
    raise ValueError(f"unknown sort column: {column}")


def sort_rows(
    store: RunStore, review: Review, rows: Sequence[int], column: str, direction: int, key: Key | None = None
) -> list[int]:
    """`rows` ordered by `column` (ASCENDING or DESCENDING; FILE_ORDER: row order); `key`, when
    given, is `sort_key`'s or one giving the same order (a dataset's, which ranks no column)."""
    if direction == FILE_ORDER:
        return sorted(rows)
    key = key or sort_key(store, review, column)
    if column in METRIC_COLUMNS:  # undefined (NaN) last either way: "no figure" is no extreme
        undefined = [row for row in rows if key(row) != key(row)]
        rows = [row for row in rows if key(row) == key(row)]
        return sorted(rows, key=key, reverse=direction == DESCENDING) + undefined
    return sorted(rows, key=key, reverse=direction == DESCENDING)
