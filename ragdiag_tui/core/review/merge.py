"""Merging review journals written elsewhere into a run file's own review log.

A colleague reviews a copy of the same run file; their journal is folded into this
file's log record by record, in their order:

- a record already in the log (identical in every field) is not written again, so
  merging twice changes nothing;
- every reviewer's records are kept; a reviewer's state is their own latest record BY
  TIME (`at`), not the last in the file, so merging an older journal of the same
  reviewer name (one person on two machines) puts nothing older back in force; how
  many merged records were older than what their reviewer had is counted;
- a record made on another version of its run (its digest differs from the run's
  text here) is written too, but as every stale record is, it is held aside and
  never applied silently: the app lists it to re-apply or drop;
- a record naming a run that is not in this file is written and counted, as it
  would be if it had been journaled here;
- a journal that cannot be read, and each line in one that is not a record, are
  reported and skipped.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass, field

from ..common.atomic import same_file
from ..common.text import plural
from ..runs.stages import S_INVALID
from .journal import Journal
from .records import Entry, JournalError, Record, SpotCheck
from .state import Review


@dataclass
class MergeResult:
    """What a merge did, journal by journal summed."""

    added: int = 0
    duplicates: int = 0
    stale: int = 0
    orphans: int = 0
    older: int = 0  # older (by `at`) than what their reviewer already had: kept, not in force
    unreadable: list[str] = field(default_factory=list)  # a message per journal or line skipped

    @property
    def clean(self) -> bool:
        """Nothing was stale, unmatched or unreadable."""
        return not (self.stale or self.orphans or self.unreadable)

    def summary(self, into: str) -> str:
        """One sentence for stderr, each count with its words in the singular or the plural."""
        parts = [f"{self.added} {plural(self.added, 'entry', 'entries')} added to {into}"]
        parts.append(f"{self.duplicates} already there")
        if self.stale:
            runs = plural(self.stale, "a run that has", "runs that have")
            them = plural(self.stale, "it", "them")
            parts.append(
                f"{self.stale} made on {runs} changed since (held aside as stale, not applied: "
                f"re-apply or drop {them} in the app)"
            )
        if self.orphans:
            runs = plural(self.orphans, "a run", "runs")
            parts.append(f"{self.orphans} naming {runs} not in this file (kept, not applied)")
        if self.older:
            older = plural(self.older, "record", "records")
            parts.append(
                f"{self.older} {older} older than what {plural(self.older, 'its', 'their')} reviewer "
                f"already had (kept, not in force: the latest by time is)"
            )
        if self.unreadable:
            count = len(self.unreadable)
            parts.append(f"{count} {plural(count, 'journal or line', 'journals or lines')} unreadable")
        return "; ".join(parts)


def _classify(review: Review, record: Record) -> str:
    if isinstance(record, SpotCheck):
        return "current"
    row = review.store.row_of.get(record.run)
    if row is None or review.store.stage[row] == S_INVALID:
        return "orphan"
    if isinstance(record, Entry) and record.digest and record.digest != review.digest_of(row):
        return "stale"
    return "current"


def merge_journals(review: Review, paths: Iterable[str | os.PathLike[str]]) -> MergeResult:
    """Append the records of the journal files at `paths` that `review`'s log lacks.

    Raises JournalError when the log cannot be written (what was appended before
    stays, and merging again completes it without duplicates).
    """
    log = review.journal
    if log is None:
        raise JournalError("no review log to merge into")
    result = MergeResult()
    existing, _ = log.read()
    seen = {record.key() for record in existing}
    own = getattr(log, "path", None)
    for path in map(os.fspath, paths):
        if same_file(path, review.store.path):
            result.unreadable.append(f"{path}: skipped (it is the run file, not a journal)")
            continue
        if own is not None and same_file(path, own):
            result.unreadable.append(f"{path}: skipped (it is this file's own journal)")
            continue
        if not os.path.isfile(path):
            result.unreadable.append(f"{path}: cannot read the journal (not a file)")
            continue
        try:
            records, warnings = Journal(path).read()
        except JournalError as exc:
            result.unreadable.append(str(exc))
            continue
        result.unreadable.extend(warnings)
        for record in records:
            key = record.key()
            if key in seen:
                result.duplicates += 1
                continue
            kind = _classify(review, record)
            result.older += review.intake.is_older(record)
            log.append(record)
            seen.add(key)
            review.apply(record)
            result.added += 1
            result.stale += kind == "stale"
            result.orphans += kind == "orphan"
    return result
