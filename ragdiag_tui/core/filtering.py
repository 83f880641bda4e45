"""Views and text filters: which rows the table shows, as a list of row numbers.

Filtering never builds widgets; it produces an index in file order. Each step
runs over flat columns in C-level loops (`bytearray.find`, `map`, `compress`),
so a million rows filter in tens of milliseconds.
"""

from __future__ import annotations

import operator
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import compress, repeat

from .review import Review
from .stages import S_RETRIEVAL, STAGE_CODE, STAGES
from .store import RunStore


@dataclass(frozen=True, slots=True)
class View:
    key: str  # the one key that selects it
    name: str
    title: str


VIEWS = (
    View("a", "all", "All runs"),
    *(View(stage.key, stage.name, stage.view_title) for stage in STAGES),  # one view per stage
    View("L", "lucky", "Lucky answers"),
    View("U", "unreviewed", "Unreviewed"),
    View("R", "reviewed", "Reviewed"),
)
VIEW_BY_NAME = {view.name: view for view in VIEWS}


def rows_with_stage(stage: bytearray, code: int) -> list[int]:
    """Every row whose stage byte is `code`, found by the C-level `bytearray.find`."""
    rows: list[int] = []
    append, find = rows.append, stage.find
    at = find(code)
    while at != -1:
        append(at)
        at = find(code, at + 1)
    return rows


def view_rows(store: RunStore, review: Review, view: str) -> list[int]:
    """The rows of one view, in file order."""
    if view == "all":
        return list(range(len(store)))
    if view in STAGE_CODE:
        return rows_with_stage(store.stage, STAGE_CODE[view])
    if view == "lucky":
        return [row for row in rows_with_stage(store.stage, S_RETRIEVAL) if review.label(row) is True]
    if view == "reviewed":
        return review.reviewed_rows()
    if view == "unreviewed":
        is_reviewed = review.is_reviewed
        return [row for row in range(len(store)) if not is_reviewed(row) and store.is_valid(row)]
    raise ValueError(f"unknown view: {view}")


def match_text(store: RunStore, rows: Iterable[int] | None, query: str) -> list[int]:
    """Rows whose id, question or any document ID contains `query` (case-insensitive)."""
    needle = query.casefold()
    haystack = store.search_text
    if rows is None:
        hits = map(operator.contains, haystack, repeat(needle))
        return list(compress(range(len(haystack)), hits))
    rows = rows if isinstance(rows, (list, range)) else list(rows)
    hits = map(operator.contains, map(haystack.__getitem__, rows), repeat(needle))
    return list(compress(rows, hits))


def row_matches(
    store: RunStore, review: Review, row: int, view: str, query: str = "", missing_doc: str | None = None
) -> bool:
    """Whether one row passes a filter: `filter_rows` for a single row."""
    if view in STAGE_CODE:
        in_view = store.stage[row] == STAGE_CODE[view]
    elif view == "lucky":
        in_view = review.is_lucky(row)
    elif view == "reviewed":
        in_view = review.is_reviewed(row)
    elif view == "unreviewed":
        in_view = store.is_valid(row) and not review.is_reviewed(row)
    elif view == "all":
        in_view = True
    else:
        raise ValueError(f"unknown view: {view}")
    if in_view and missing_doc is not None:
        in_view = missing_doc in store.missing.get(row, ())
    if in_view and query:
        in_view = query.casefold() in store.search_text[row]
    return in_view


def missing_doc_rows(store: RunStore, rows: Iterable[int], document: str) -> list[int]:
    missing = store.missing
    return [row for row in rows if document in missing.get(row, ())]


def filter_rows(
    store: RunStore,
    review: Review,
    view: str = "all",
    query: str = "",
    missing_doc: str | None = None,
    within: list[int] | None = None,
) -> list[int]:
    """The table's index: a view, narrowed by text and by a missing document.

    `within` may pass the previous result when the query only grew longer,
    so each keystroke scans fewer rows.
    """
    if within is not None:
        rows: list[int] | None = within
    elif view == "all":
        rows = None
    else:
        rows = view_rows(store, review, view)
    if missing_doc is not None:
        base = range(len(store)) if rows is None else rows
        rows = missing_doc_rows(store, base, missing_doc)
    if query:
        return match_text(store, rows, query)
    return list(range(len(store))) if rows is None else list(rows)
