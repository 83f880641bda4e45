"""Where each record read or polled from a review log goes.

Every record (read at start, or polled live from another writer) goes through
`RecordIntake.apply`, which changes only the rows it names and changes nothing when
applied twice: a spot-check is kept by name, a dismissal drops stale records, a
record naming no valid run is held as an orphan, one older (by `at`) than the record in
force for its run and reviewer changes nothing (last writer by time), one made against another version
of its run is held as stale (`core.review.held`), and the rest goes into the labels
in force (`core.review.labels`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any, NamedTuple

from ..runs.store import S_INVALID, RunStore
from .held import HeldRecords, key
from .labels import TeamLabels
from .records import DISMISS, Entry, Record, SpotCheck, digest, when_written


def to_replay(records: Sequence[Record]) -> list[Record]:
    """The records a replay must apply, in order: only the latest label or adjudication
    per (kind, run, reviewer, digest) by `at` (ties: the later in the log) can matter (so
    a run toggled a hundred times is re-diagnosed once); every spot-check and dismissal."""
    latest: dict[tuple[Any, ...], tuple[datetime, int]] = {}
    for index, record in enumerate(records):
        if isinstance(record, Entry) and record.kind != DISMISS:
            slot, when = (*key(record), record.digest), (when_written(record.at), index)
            if slot not in latest or latest[slot] <= when:
                latest[slot] = when
    keep = {index for _when, index in latest.values()}
    return [
        record
        for index, record in enumerate(records)
        if isinstance(record, SpotCheck) or record.kind == DISMISS or index in keep
    ]


class SpotCheckProgress(NamedTuple):
    """A spot-check's reviewed runs, each counted once: *held* when its settled label (the
    reviewers agree, or an adjudicator settled it) equals the file's label, *overturned* when
    it differs, *in conflict* when its reviewers disagree and nobody adjudicated (the file's
    label is in force, but nobody settled it: neither held nor overturned)."""

    reviewed: int
    held: int
    overturned: int
    conflicts: int

    @property
    def settled(self) -> int:
        """The reviewed runs with a settled label: what an estimate is computed over."""
        return self.held + self.overturned


class RecordIntake:
    """Takes records into a review: the spot-checks, the records held aside, the labels.

    `include_stale`: records made against another version of a run are applied
    anyway (read-only use: `export --apply-stale`), and counted in `stale_applied`.
    """

    def __init__(self, store: RunStore, team: TeamLabels, include_stale: bool) -> None:
        self.store = store
        self.team = team
        self.include_stale = include_stale
        self.held = HeldRecords()
        self.spot_checks: dict[str, SpotCheck] = {}
        self.stale_applied = 0
        self._digests: dict[int, str] = {}

    def digest_of(self, row: int) -> str:
        """The run's digest now (cached): what its records must carry to apply."""
        value = self._digests.get(row)
        if value is None:
            value = self._digests[row] = digest(self.store.raw_text(row))
        return value

    def apply(self, record: Record) -> set[int]:
        """Take one record; returns the rows whose state changed."""
        if isinstance(record, SpotCheck):
            self.spot_checks[record.name] = record
            return set()
        if record.kind == DISMISS:
            self.held.drop(record.run, record.digest)
            return set()
        row = self.store.row_of.get(record.run)
        if row is None or self.store.stage[row] == S_INVALID:
            self.held.hold_orphan(record)
            return set()
        if self.team.is_older(row, record):  # last writer by time: an older record changes nothing
            return set()
        if record.digest and record.digest != self.digest_of(row):
            if not self.include_stale:
                self.held.hold_stale(record)
                return set()
            self.stale_applied += 1
        else:
            self.held.release(record)  # a current record supersedes the stale one
        return self.team.put(row, record)

    def is_older(self, record: Record) -> bool:
        """Whether a label or adjudication record is older than what its reviewer (or the run's
        adjudication) already has in force here, so that taking it changes nothing."""
        if isinstance(record, SpotCheck) or record.kind == DISMISS:
            return False
        row = self.store.row_of.get(record.run)
        return row is not None and self.team.is_older(row, record)

    def replay(self, records: Sequence[Record]) -> None:
        """Take a whole log's records, as read when the review opens."""
        for record in to_replay(records):
            self.apply(record)

    def spot_check_progress(self, name: str) -> SpotCheckProgress:
        """How far a spot-check's runs that are in the file are reviewed (`SpotCheckProgress`),
        each run once however often the record repeats its id."""
        return self.progress_of(self.spot_checks[name].runs)

    def progress_of(self, run_ids: Iterable[str]) -> SpotCheckProgress:
        """`spot_check_progress` over any distinct ids (a stratum of a spot-check)."""
        row_of = self.store.row_of
        team = self.team
        reviewed = held = conflicts = 0
        for run_id in run_ids:
            row = row_of.get(run_id)
            if row is None or not team.is_reviewed(row):
                continue
            reviewed += 1
            if row in team.conflicts:
                conflicts += 1
            else:
                held += team.label(row) == team.file_label(row)
        return SpotCheckProgress(reviewed, held, reviewed - held - conflicts, conflicts)

    def records(self) -> list[Record]:
        """The spot-checks, then the records held aside."""
        return [*self.spot_checks.values(), *self.held.records()]
