"""A review and its log kept in step: each change of this session saved, the records
other writers appended taken in, and a journal replaced on disk written anew.

A change that cannot be saved stays in memory, its row is marked `unsaved`, and
`JournalError` tells the caller.
"""

from __future__ import annotations

from collections.abc import Callable

from .journal import JournalReplaced
from .records import JournalError, Record
from .reviewlog import ReviewLog


class LogSync:
    """The link between a review and its log (None: a review that journals nothing).

    `apply` takes one record into the review (returning the rows it changed);
    `snapshot` gives the complete review state as records, to write anew.
    """

    def __init__(
        self,
        journal: ReviewLog | None,
        reviewer: str,
        apply: Callable[[Record], set[int]],
        snapshot: Callable[[], list[Record]],
    ) -> None:
        self.journal = journal
        self.reviewer = reviewer
        self.apply = apply
        self.snapshot = snapshot
        self.unsaved: set[int] = set()
        self.notices: list[str] = []
        """Things the reviewer should be told that are not errors (e.g. the journal was rewritten)."""

    def save(self, row: int | None, record: Record) -> None:
        """Journal one record about `row` (None: about no row), durably; else JournalError."""
        if self.journal is None:
            return
        try:
            self.journal.append(record)
        except JournalReplaced as exc:
            self.rewrite(str(exc))
        except JournalError as exc:
            if row is not None:
                self.unsaved.add(row)
                exc.row = row  # which run's change did not reach the disk (undo picks it)
            raise
        self.unsaved.discard(row)  # type: ignore[arg-type]

    def rewrite(self, why: str) -> None:
        """The journal on disk is not the one we wrote: write the complete review state anew."""
        assert self.journal is not None
        records = self.snapshot()
        for record in records:
            self.journal.append(record)
        self.unsaved.clear()
        self.notices.append(f"{why}; wrote the complete review ({len(records)} records) to it anew.")

    def poll(self) -> set[int]:
        """Apply what other writers appended to the log since; returns the rows changed.

        A journal file deleted or replaced on disk (`rm`, `sed -i`, a teammate's app
        writing its review anew) is not an append: teammates' records in it are taken,
        but nothing in it may change this reviewer's own state (what they did stands),
        and the complete review is written to it anew at once, with a notice.
        """
        if self.journal is None:
            return set()
        replaced = getattr(self.journal, "replaced", None)
        changed: set[int] = set()
        if replaced is not None and replaced():
            for record in self.journal.poll():
                if record.reviewer != self.reviewer:
                    changed |= self.apply(record)
            self.journal.close()
            self.rewrite(f"{self.journal.name}: the journal was deleted or replaced while open")
            return changed
        for record in self.journal.poll():
            changed |= self.apply(record)
        return changed

    def take_notices(self) -> list[str]:
        """The notices not yet shown, and forget them."""
        notices, self.notices = self.notices, []
        return notices
