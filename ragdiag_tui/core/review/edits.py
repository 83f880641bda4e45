"""One reviewer's changes in a session: each label, note, tag or adjudication becomes
a record, is put into the labels in force, and handed to be journaled; undo takes
the last change back with a record that restores what was there before. Stale
records are re-applied or dismissed here too: both are journaled changes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..runs.store import S_INVALID, RunStore
from .held import HeldRecords
from .labels import ReviewerState, TeamLabels
from .records import ADJUDICATION, DISMISS, LABEL, Entry, Record, utc_now

Save = Callable[[int | None, Record], None]
"""Journal a record about a row (None: about no row); raises JournalError when it cannot."""


class ReviewerEdits:
    """The changes `reviewer` makes to `team`, journaled through `save`, with undo.

    `adjudicator`: this reviewer's label on a run in conflict (or already
    adjudicated) is journaled as the adjudication.
    """

    def __init__(
        self,
        store: RunStore,
        team: TeamLabels,
        held: HeldRecords,
        digest_of: Callable[[int], str],
        save: Save,
        reviewer: str,
        adjudicator: bool,
    ) -> None:
        self.store = store
        self.team = team
        self.held = held
        self.digest_of = digest_of
        self.save = save
        self.reviewer = reviewer
        self.adjudicator = adjudicator
        self._history: list[tuple[int, str, ReviewerState | Entry | None]] = []

    def change(self, row: int, **changes: Any) -> None:
        """Set this reviewer's `label`, `note` and/or `tags` on the run (the rest stays)."""
        self._check_valid(row)
        team = self.team
        if "label" in changes and self.adjudicator and (row in team.conflicts or row in team.adjudications):
            self.adjudicate(row, changes["label"])
            return
        before = team.states.get(row, {}).get(self.reviewer)
        base = before or ReviewerState(None, "", (), "")
        entry = Entry(
            self.store.ids[row],
            changes.get("label", base.label),
            changes.get("note", base.note),
            self.reviewer,
            team.next_at(row, LABEL, self.reviewer),
            self.digest_of(row),
            tags=changes.get("tags", base.tags),
        )
        self._history.append((row, LABEL, before))
        team.put(row, entry)
        self.save(row, entry)

    def adjudicate(self, row: int, label: bool | None, note: str = "") -> None:
        """Set the run's final label as this reviewer (the adjudicator); None withdraws it."""
        self._check_valid(row)
        before = self.team.adjudications.get(row)
        now = self.team.next_at(row, ADJUDICATION, self.reviewer)
        run, run_digest = self.store.ids[row], self.digest_of(row)
        entry = Entry(run, label, note, self.reviewer, now, run_digest, kind=ADJUDICATION)
        self._history.append((row, ADJUDICATION, before))
        self.team.put(row, entry)
        self.save(row, entry)

    def undo(self) -> int | None:
        """Take back the last change; returns its row, or None when nothing is left."""
        if not self._history:
            return None
        row, kind, before = self._history.pop()
        now = self.team.next_at(row, kind, self.reviewer)
        run, run_digest = self.store.ids[row], self.digest_of(row)
        if kind == ADJUDICATION:
            old = before if isinstance(before, Entry) else None
            label, note = (old.label, old.note) if old else (None, "")
            entry = Entry(run, label, note, self.reviewer, now, run_digest, kind=ADJUDICATION)
            self.team.put(row, entry)
        else:
            state = before if isinstance(before, ReviewerState) else ReviewerState(None, "", (), now)
            entry = Entry(run, state.label, state.note, self.reviewer, now, run_digest, tags=state.tags)
            self.team.put(row, entry)  # an empty state: the reviewer has nothing on the run
        self.save(row, entry)
        return row

    def apply_stale(self, entry: Entry) -> int:
        """Re-apply a stale record to its run as it is now (journaled with the current
        digest, as the record's own reviewer); returns its row."""
        row = self.store.row_of[entry.run]
        self.held.release(entry)
        now = self.team.next_at(row, entry.kind, entry.reviewer)
        fresh = Entry(entry.run, entry.label, entry.note, entry.reviewer, now, self.digest_of(row), 0,
                      entry.tags, entry.kind)  # fmt: skip
        self.adopt(row, fresh)
        return row

    def adopt(self, row: int, entry: Entry) -> None:
        """Take another review's record of the run as it is (its reviewer kept, not this
        one's: a baseline's review carried over) and journal it; no undo."""
        self._check_valid(row)
        self.team.put(row, entry)
        self.save(row, entry)

    def dismiss_stale(self, run: str) -> None:
        """Drop every stale record of a run, journaling a "dismiss" per digest they were made against."""
        for run_digest in self.held.stale_digests(run):
            self.held.drop(run, run_digest)
            record = Entry(run, None, "", self.reviewer, utc_now(), run_digest, kind=DISMISS)
            self.save(self.store.row_of.get(run), record)

    def _check_valid(self, row: int) -> None:
        if self.store.stage[row] == S_INVALID:
            raise ValueError(f"line {self.store.lines[row]} is not a valid run")
