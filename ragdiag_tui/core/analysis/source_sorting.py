"""Sorting a dataset read in place (`core.runs.source_store`): the engine orders, the review
lies over it.

Over one file, `sorting.sort_rows` keys every row of the view. A dataset's view may hold ten
million runs, so its engine orders them (`RowSource.order_positions`, SQL over the files) by
what the files say, ties in dataset order; for the columns only the files hold (id, question,
the counts of IDs, recall, precision) that is the order. The stage, the label, where it comes
from, the missing count and the lucky mark are the review's for the runs it touched: the engine
orders the view's other runs and says how many of each key stand together (`SourceOrder.blocks`),
and each touched run is put into its key's block at its dataset place, by the core's own key:
where the same sort over one file puts it. The columns only the review holds (reviewed, tags)
need no engine: every untouched run has one key and keeps its dataset place. In blind mode a
column that tells labels puts the runs this reviewer labelled first (last, descending) by their
key and the rest in dataset order, as `sorting.sort_key` orders them.
"""

from __future__ import annotations

from array import array
from bisect import bisect_left
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .sorting import BLIND_COLUMNS, DESCENDING, SORT_COLUMNS, Key, sort_key, sort_rows
from .source_views import found_rows, touched_rows

if TYPE_CHECKING:
    from ..review.state import Review

REVIEW_KEYS: dict[str, object] = {"reviewed": True, "tags": 0}
"""The columns only the review holds, and the key of a run it did not touch (not reviewed, no tags)."""
ENGINE_COLUMNS = frozenset(SORT_COLUMNS) - REVIEW_KEYS.keys()
"""The columns a dataset's engine orders."""
MERGED_COLUMNS = frozenset({"stage", "label", "from", "missing", "lucky"})
"""The engine's columns whose key the review changes for the runs it touched; each key is a
small number or a flag, the same in the engine as in `sorting.sort_key`."""


@dataclass(frozen=True, slots=True)
class SourceSort:
    """What a dataset's engine orders: the runs at `positions` (None: every run), but those in
    `skip` (the touched runs, put in by `ordered_rows`), by `column`'s key as the files give it,
    descending or not, ties in dataset order; the undefined recall or precision last either way."""

    column: str
    descending: bool
    positions: array[int] | None
    skip: tuple[int, ...] = ()


@dataclass(slots=True)
class SourceOrder:
    """The engine's answer to a `SourceSort`: the positions in order and, for a MERGED_COLUMNS
    column, each key with how many runs in a row have it, in that order."""

    positions: array[int]
    blocks: list[tuple[Any, int]] = field(default_factory=list)


def row_key(store: Any, review: Review, column: str) -> Key:
    """`sorting.sort_key`'s order for one row, without ranking every run of the dataset: the
    id and the question give their text itself (the same order as its rank)."""
    if column in ("id", "question"):
        return (store.ids if column == "id" else store.questions).__getitem__
    return sort_key(store, review, column)


def sort_few(store: Any, review: Review, rows: Sequence[int], column: str, direction: int) -> list[int]:
    """A few rows of a dataset (a spot-check's) ordered as `sorting.sort_rows` orders them."""
    return sort_rows(store, review, rows, column, direction, key=row_key(store, review, column))


def changed_rows(store: Any, review: Review) -> set[int]:
    """The rows whose keys the review may have changed (labels, tags, adjudications, re-diagnoses)."""
    return touched_rows(store, review) | set(store.missing.changed)


def _within(rows: Sequence[int], wanted: Iterable[int]) -> list[int]:
    """The rows of `wanted` that `rows` (in dataset order) holds, in order."""
    inside = []
    for row in sorted(wanted):
        at = bisect_left(rows, row)
        if at < len(rows) and rows[at] == row:
            inside.append(row)
    return inside


@dataclass(frozen=True, slots=True)
class SortPlan:
    """A dataset's sort, planned on the main thread (`plan_order`: the review read once) and
    finished anywhere (`finish_order`, a worker's: arrays only): the view's `rows` in dataset
    order, what the engine orders (`request`; None: nothing), the runs the review touched with
    their keys now (`put`) and, for a column only the review holds, every other run's key
    (`base`); in blind mode, the runs this reviewer labelled already in order (`first`)."""

    rows: Sequence[int]
    descending: bool
    request: SourceSort | None
    put: tuple[tuple[Any, int], ...] = ()
    base: Any = None
    first: tuple[int, ...] | None = None


def plan_order(store: Any, review: Review, rows: Sequence[int], column: str, direction: int) -> SortPlan:
    """How `rows` (a view's, in dataset order) are sorted by `column` in `direction` as one
    file's are (see the module's docstring)."""
    descending = direction == DESCENDING
    touched = _within(rows, changed_rows(store, review))
    if review.blind and column in BLIND_COLUMNS:  # this reviewer's labelled runs, then the rest
        revealed = [row for row in touched if review.revealed(row)]
        first = tuple(sort_few(store, review, revealed, column, direction))
        return SortPlan(rows, descending, None, first=first)
    key = row_key(store, review, column)
    if column in REVIEW_KEYS:
        return SortPlan(
            rows, descending, None, tuple((key(row), row) for row in touched), REVIEW_KEYS[column]
        )
    every = isinstance(rows, range) and rows == range(len(store))
    skip = tuple(touched) if column in MERGED_COLUMNS else ()
    request = SourceSort(column, descending, None if every else found_rows(rows), skip)
    return SortPlan(rows, descending, request, tuple((key(row), row) for row in skip))


def finish_order(plan: SortPlan, order: SourceOrder | None) -> array[int]:
    """The rows in order: the engine's `order` for `plan.request` with the touched runs put in."""
    if plan.first is not None:
        first = array("q", plan.first)
        rest = _without(plan.rows, sorted(plan.first))
        return rest + first if plan.descending else first + rest
    if order is None:
        rest = _without(plan.rows, [row for _, row in plan.put])
        order = SourceOrder(rest, [(plan.base, len(rest))] if rest else [])
    return _merged(order, plan.put, plan.descending)


def _without(rows: Sequence[int], taken: Sequence[int]) -> array[int]:
    """`rows` (in dataset order) but `taken` (few, in order), as a new array."""
    kept = array("q", rows)
    for row in reversed(taken):
        at = bisect_left(kept, row)
        if at < len(kept) and kept[at] == row:
            del kept[at]
    return kept


def _merged(order: SourceOrder, put: Sequence[tuple[Any, int]], descending: bool) -> array[int]:
    """`order`'s positions with each (key, row) of `put` in its key's block at its dataset
    place (between the blocks, in key order, where no run has its key), in one copy."""
    positions, blocks = order.positions, order.blocks
    if not put:
        return positions
    spans, start = {}, 0
    for block, count in blocks:
        spans[block] = (start, start + count)
        start += count
    places = []
    for value, row in put:
        if value in spans:
            place = bisect_left(positions, row, *spans[value])
        else:
            place = sum(count for block, count in blocks if (block > value if descending else block < value))
        places.append((place, -value if descending else value, row))
    places.sort()
    merged, done = array("q"), 0
    data = memoryview(positions).cast("B")
    for place, _, row in places:
        merged.frombytes(data[done * 8 : place * 8])
        merged.append(row)
        done = place
    merged.frombytes(data[done * 8 :])
    return merged
