"""The views of a dataset read in place (`core.runs.source_store`), as the engine finds them.

A view of a RunStore is a pass over its columns (`filtering`); a dataset's stage views are
asked of its source, which finds them over every run with the files' own labels (SQL, as
`sample DATASET --view` does). The review's labels lie over that: each run the review
touched is put in or taken out, as `filtering.in_view_test` decides it now. The views of the
review itself (reviewed, conflicts) are the review's own few rows. The rows come as one
machine-integer array (8 bytes a run in the view), never a Python object per run.
"""

from __future__ import annotations

from array import array
from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..runs.stages import STAGE_CODE
from .filtering import REVEALING_VIEWS, FieldTerm, Query, in_view_test, label_field

if TYPE_CHECKING:
    from ..review.state import Review

SOURCE_VIEWS = frozenset({*STAGE_CODE, "lucky"})
"""The views a dataset's source finds (besides "all", every run)."""
REVIEW_VIEWS = frozenset({"reviewed", "conflicts"})


def source_view(store: Any, review: Review, view: str) -> bool:
    """Whether `view` can be shown over the dataset (blind: not one that tells labels)."""
    if review.blind and view in REVEALING_VIEWS:
        return False
    return view in SOURCE_VIEWS or view in REVIEW_VIEWS


def found_rows(positions: Sequence[int]) -> array[int]:
    """The positions a source found, as the array the view's rows are kept in."""
    return positions if isinstance(positions, array) else array("q", positions)


def review_view_rows(review: Review, view: str) -> list[int]:
    """The rows of a view of the review itself (reviewed, conflicts), in file order."""
    return review.reviewed_rows() if view == "reviewed" else sorted(review.conflicts)


def with_review(store: Any, review: Review, view: str, rows: array[int]) -> array[int]:
    """The source's rows of `view` (files' own labels) with the runs the review touched put
    in or taken out by their label in force now; `rows` is changed and returned."""
    touched = touched_rows(store, review)
    test = in_view_test(store, review, view)
    for row in sorted(touched):
        at = bisect_left(rows, row)
        present = at < len(rows) and rows[at] == row
        wanted = test(row)
        if wanted and not present:
            rows.insert(at, row)
        elif present and not wanted:
            del rows[at]
    return rows


@dataclass(frozen=True, slots=True)
class SourceQuery:
    """A filter a dataset's source finds (`RowSource.filter_positions`): the runs in every one
    of `views` (by the files' own labels) that contain `text` (case-folded, as `match_text`
    searches a run: its id, question and document IDs) and pass every field term; the rows
    in `touched` (the ones the review changed) whatever their view, for `filtered_rows` to
    decide by the label in force."""

    text: str
    views: tuple[str, ...]
    fields: tuple[FieldTerm, ...]
    touched: tuple[int, ...] = ()


def source_query(store: Any, review: Review, view: str, query: Query) -> SourceQuery | None:
    """What the source must find for `view` narrowed by `query`; None when it cannot (a tag
    term, a view of the review's own with text, or in blind mode a view or field that tells labels)."""
    views = tuple(dict.fromkeys((view, *query.views)))
    if query.tags or not all(name in SOURCE_VIEWS or name in ("all", "unreviewed") for name in views):
        return None
    if review.blind and (
        REVEALING_VIEWS.intersection(views) or any(term.field == label_field(store) for term in query.fields)
    ):
        return None
    return SourceQuery(query.text.casefold(), views, query.fields, tuple(sorted(touched_rows(store, review))))


def touched_rows(store: Any, review: Review) -> set[int]:
    """The rows whose views the review may have changed (labelled, adjudicated, re-diagnosed)."""
    return set(review.states) | set(review.adjudications) | set(store.stage.changed)


def filtered_rows(store: Any, review: Review, query: SourceQuery, positions: Sequence[int]) -> array[int]:
    """The source's positions for `query`, each touched row among them kept only if it is in
    every view by the label in force now (touched when the query was asked, or since: a run
    labelled while the engine looked, `U` then `n`, leaves the unreviewed runs it found)."""
    rows = found_rows(positions)
    tests = [in_view_test(store, review, view) for view in query.views]
    for row in sorted(set(query.touched) | touched_rows(store, review)):
        at = bisect_left(rows, row)
        if at < len(rows) and rows[at] == row and not all(test(row) for test in tests):
            del rows[at]
    return rows
