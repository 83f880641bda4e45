"""The baseline of a review: an earlier run file beside the one under review.

`ragdiag-tui review NEW --baseline OLD` joins each run of NEW to the run of OLD
with the same id (see `compare`), with OLD's review journal applied (read only:
nothing is ever written to OLD's journal). The review app then shows what each
run *was*, views of the runs whose stage changed, were fixed or regressed, and
both runs' IDs side by side.

OLD's reviewer labels are *offered*, never applied silently, for runs whose
question, answer, required and context are unchanged and that nobody has
labelled in NEW yet. Applying one journals, in NEW's journal, each OLD reviewer's
state of the run (label, note and tags) under that reviewer's name, and OLD's
adjudication under its adjudicator's: NEW's review then holds what OLD's held.

The stage comparisons read NEW's stage bytes as they stand, so the views follow
the labels the reviewer changes.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from itertools import compress
from operator import ne

from ..common.reads import register_read
from ..review.labels import ReviewerState
from ..review.records import ADJUDICATION, Entry
from ..runs.mapping import FieldMap
from ..runs.stages import S_GENERATION, S_PASS, S_RETRIEVAL
from ..runs.store import RunStore
from .compare import BY_ID, Comparison, ReviewedRun, compare_stores, open_side
from .filtering import rows_with_stage
from .views import NO_RUN, NOT_COMPARABLE

UNCHANGED_FIELDS = ("question", "answer", "required", "context")
"""A run must keep these from OLD for OLD's reviewer label to be offered."""

_FAILED = (S_RETRIEVAL, S_GENERATION)
ReviewerLabel = Callable[[int], bool | None]


@dataclass(frozen=True, slots=True)
class Offer:
    """OLD's review of a run, offered for the unchanged run of NEW: the label it puts on
    the run, every reviewer's state (label, note, tags) and the adjudication, if any."""

    row: int  # NEW's row
    label: bool
    reviewers: dict[str, ReviewerState]
    adjudication: Entry | None = None

    @property
    def by(self) -> str:
        """Who gave it: the reviewers (and the adjudicator), as "alice, bob"."""
        names = list(self.reviewers)
        if self.adjudication is not None:
            names.append(self.adjudication.reviewer)
        return ", ".join(dict.fromkeys(names))

    def records(self, run: str, digest: str, at: str) -> list[Entry]:
        """The records that put this review on NEW's run `run` (whose digest is now
        `digest`), written at `at`, each under its own reviewer's name."""
        entries = [
            Entry(run, state.label, state.note, reviewer, at, digest, tags=state.tags)
            for reviewer, state in self.reviewers.items()
        ]
        settled = self.adjudication
        if settled is not None:
            final = Entry(run, settled.label, settled.note, settled.reviewer, at, digest, kind=ADJUDICATION)
            entries.append(final)
        return entries


class Baseline:
    """OLD beside NEW: what each NEW run was, and the labels OLD's review offers."""

    def __init__(
        self, path: str, comparison: Comparison, offers: dict[int, Offer], old_label: ReviewerLabel
    ) -> None:
        self.path = path
        self.old_label = old_label  # the label in force of an OLD row (its review applied)
        self.comparison = comparison
        self.old = comparison.old
        new = comparison.new
        self.old_row = comparison.old_row_of()
        was = bytearray([NO_RUN]) * len(new)
        old_stage = self.old.stage
        for old, row in comparison.pairs:
            was[row] = old_stage[old]
        for _, row in comparison.not_comparable:
            was[row] = NOT_COMPARABLE
        self.was = was
        self.offers = offers

    @property
    def name(self) -> str:
        return os.path.basename(self.path)

    # -- views ------------------------------------------------------------------

    def rows(self, view: str, stage: bytearray) -> list[int]:
        """The NEW rows of a baseline view, in file order, against NEW's stages now."""
        was = self.was
        if view == "changed":
            differ = compress(range(len(was)), map(ne, was, stage))
            return [row for row in differ if was[row] < NOT_COMPARABLE]
        if view == "fixed":
            return [row for row in rows_with_stage(stage, S_PASS) if was[row] in _FAILED]
        if view == "regressed":
            return [row for row in rows_with_stage(was, S_PASS) if stage[row] in _FAILED]
        raise ValueError(f"unknown view: {view}")

    def matches(self, row: int, view: str, stage: bytearray) -> bool:
        """Whether one NEW row is in a baseline view: `rows` for a single row."""
        was, now = self.was[row], stage[row]
        if view == "changed":
            return was < NOT_COMPARABLE and was != now
        if view == "fixed":
            return now == S_PASS and was in _FAILED
        if view == "regressed":
            return was == S_PASS and now in _FAILED
        raise ValueError(f"unknown view: {view}")


def unchanged(old: RunStore, old_row: int, new: RunStore, new_row: int) -> bool:
    """Whether two runs have the same question, answer, required and context."""
    before, after = old.run_object(old_row), new.run_object(new_row)
    return all(before.get(field) == after.get(field) for field in UNCHANGED_FIELDS)


def find_offers(
    comparison: Comparison,
    old_labels: dict[int, ReviewedRun],
    new_reviewed: Callable[[int], bool],
) -> dict[int, Offer]:
    """OLD's review (`old row -> (label, reviewers' states, adjudication)`) of the
    unchanged NEW runs nobody reviewed."""
    offers: dict[int, Offer] = {}
    new_of = {old: new for old, new in comparison.pairs}
    for old_row, (label, reviewers, adjudication) in old_labels.items():
        row = new_of.get(old_row)
        if row is None or new_reviewed(row):
            continue
        if unchanged(comparison.old, old_row, comparison.new, row):
            offers[row] = Offer(row, label, dict(reviewers), adjudication)
    return offers


def open_baseline(
    path: str,
    new: RunStore,
    new_reviewed: Callable[[int], bool],
    new_label: ReviewerLabel,
    field_map: FieldMap | None = None,
) -> tuple[Baseline, list[str]]:
    """Load OLD with its journal (read only) and join it to NEW by id; and warnings.

    Raises loading.FileError or journal.JournalError when OLD cannot be read.
    """
    register_read(path, "the --baseline run file")  # before the loader calls it the run file
    side = open_side(path, field_map)
    comparison = compare_stores(side.store, new, BY_ID, side.label, new_label)
    offers = find_offers(comparison, side.reviewer_labels, new_reviewed)
    return Baseline(path, comparison, offers, side.label), side.warnings
