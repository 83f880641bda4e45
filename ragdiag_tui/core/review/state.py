"""Review state over a RunStore: every reviewer's labels, tags and notes, adjudications,
stale records, spot-checks, undo and live counts.

The file's label stays in the store; the team's label lies over it. The label in
force for a run is, in order:

1. the adjudicated label, if an adjudicator set one;
2. else the reviewers' label, when every reviewer who set a label agrees;
3. else the run is in CONFLICT and the FILE's label stays in force (nothing the
   team agreed on overrides it): the run is diagnosed with the file's label,
   counted under that stage and in `conflicts`, and exported with label_source
   "conflict".

A run is *reviewed* when at least one reviewer (or an adjudicator) set a label on
it; a note or tags alone do not make it reviewed. `is_reviewed` and
`reviewed_rows` are the one definition every count, view, mark and export uses.

Every record (read at start, or polled live from another writer) goes through
`apply`, which changes only the rows it names and changes nothing when applied
twice. A record written against another version of the run (its digest differs
from the run's text now) is never applied silently: it is held in `stale` until
the reviewer re-applies (`apply_stale`) or drops it (`dismiss_stale`).

Each change of this reviewer re-diagnoses exactly one run with the label in force,
updates the per-stage counts incrementally, and is journaled (durably) before the
method returns. If the journal cannot be written the change stays in memory, the
row is marked unsaved, and `JournalError` tells the caller.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from ..runs.loading import Progress
from ..runs.mapping import FieldMap
from ..runs.rule import diagnose_fields
from ..runs.store import (
    L_FALSE,
    L_TRUE,
    S_INVALID,
    S_RETRIEVAL,
    STAGES,
    RunStore,
    label_value,
    stage_code,
)
from .journal import (
    ADJUDICATION,
    DISMISS,
    LABEL,
    Entry,
    JournalError,
    JournalReplaced,
    Record,
    ReviewLog,
    SpotCheck,
    default_reviewer,
    digest,
    open_log,
    utc_now,
)

LABEL_SOURCES = ("file", "reviewer", "adjudication", "conflict")


@dataclass(frozen=True, slots=True)
class ReviewerState:
    """One reviewer's latest state of one run: label (None: none set), note, tags, when."""

    label: bool | None
    note: str
    tags: tuple[str, ...]
    at: str

    @property
    def empty(self) -> bool:
        """No label, note or tags: the reviewer has nothing on the run."""
        return self.label is None and not self.note and not self.tags


_Key = tuple[str, str, str]  # (kind, run, reviewer)


def _key(entry: Entry) -> _Key:
    return entry.kind, entry.run, entry.reviewer


class Review:
    """Everything the reviewers changed, over the runs of one store.

    `reviewer` is who this session's changes are journaled as. `blind` hides the
    file's and other reviewers' labels until this reviewer labelled the run (see
    `revealed`). `adjudicator`: this reviewer's label on a run in conflict (or
    already adjudicated) is journaled as the adjudication. `apply_stale`: records
    written against another version of a run are applied anyway (read-only use:
    `export --apply-stale`); they are still counted in `stale_applied`.
    """

    def __init__(
        self,
        store: RunStore,
        journal: ReviewLog | None = None,
        reviewer: str | None = None,
        *,
        blind: bool = False,
        adjudicator: bool = False,
        apply_stale: bool = False,
    ) -> None:
        self.store = store
        self.journal = journal
        self.reviewer = reviewer or default_reviewer()
        self.blind = blind
        self.adjudicator = adjudicator
        self.include_stale = apply_stale
        self.states: dict[int, dict[str, ReviewerState]] = {}
        """Per row with any reviewer state: reviewer name -> that reviewer's state."""
        self.adjudications: dict[int, Entry] = {}
        self.spot_checks: dict[str, SpotCheck] = {}
        self.unsaved: set[int] = set()
        self.conflicts: set[int] = set()
        """Rows whose reviewers disagree and that no adjudication settled."""
        self.counts = [store.stage.count(code) for code in range(len(STAGES))]
        self.lucky = sum(1 for row in store.missing if self.label(row) is True)
        self.reviewed = 0
        self.restored = 0
        self.stale_applied = 0
        self.records_read = 0
        """How many records the log held when the review was opened."""
        self.warnings: list[str] = []
        self.notices: list[str] = []
        """Things the reviewer should be told that are not errors (e.g. the journal was rewritten)."""
        self.problems: list[str] = []
        """Set by `open_review`: the log could not be opened or read."""
        self._reviewed: set[int] = set()
        self._stale: dict[_Key, Entry] = {}
        self._orphans: dict[_Key, Entry] = {}
        self._digests: dict[int, str] = {}
        self._history: list[tuple[int, str, ReviewerState | Entry | None]] = []
        if journal is not None:
            self._replay(journal)

    # -- reading ------------------------------------------------------------

    def reviewers(self, row: int) -> dict[str, ReviewerState]:
        """Every reviewer's state of the run, by reviewer name, in the order they first reviewed it."""
        return dict(self.states.get(row, {}))

    def state(self, row: int, reviewer: str | None = None) -> ReviewerState | None:
        """One reviewer's state of the run (default: this session's reviewer)."""
        return self.states.get(row, {}).get(reviewer or self.reviewer)

    def my_label(self, row: int) -> bool | None:
        """This session's reviewer's own label of the run."""
        state = self.state(row)
        return state.label if state else None

    def adjudication(self, row: int) -> Entry | None:
        """The adjudication in force on the run, if any."""
        return self.adjudications.get(row)

    def _team(self, row: int) -> tuple[bool | None, str | None]:
        entry = self.adjudications.get(row)
        if entry is not None:
            return entry.label, "adjudication"
        states = self.states.get(row)
        if not states:
            return None, None
        if len(states) == 1:  # the common case, on the replay's hot path
            (state,) = states.values()
            return (state.label, "reviewer") if state.label is not None else (None, None)
        labels = {state.label for state in states.values() if state.label is not None}
        if len(labels) == 1:
            return labels.pop(), "reviewer"
        return None, "conflict" if labels else None

    def reviewer_label(self, row: int) -> bool | None:
        """The label the review puts on the run: adjudicated, or agreed by the reviewers.
        None when no reviewer set one, or when they disagree (see `is_conflict`)."""
        return self._team(row)[0]

    def label(self, row: int) -> bool | None:
        """The label in force: the review's (`reviewer_label`) if any, else the file's (booleans only)."""
        label = self._team(row)[0]
        return label if label is not None else label_value(self.store.file_label[row])

    def file_label(self, row: int) -> bool | None:
        """The file's own label, when it is a boolean."""
        return label_value(self.store.file_label[row])

    def label_source(self, row: int) -> str | None:
        """Where the label in force comes from: "adjudication", "reviewer", "conflict"
        (reviewers disagree; the file's label is in force), "file", or None (no label)."""
        source = self._team(row)[1]
        if source is not None:
            return source
        return "file" if self.store.file_label[row] in (L_TRUE, L_FALSE) else None

    def is_conflict(self, row: int) -> bool:
        """Reviewers set different labels and no adjudication settled it."""
        return row in self.conflicts

    def disagree(self, row: int) -> bool:
        """Reviewers set different labels, adjudicated or not."""
        states = self.states.get(row, {})
        return len({state.label for state in states.values() if state.label is not None}) > 1

    def note(self, row: int) -> str:
        """This reviewer's note on the run, else the latest note any reviewer left."""
        mine = self.state(row)
        if mine is not None and mine.note:
            return mine.note
        notes = [(state.at, state.note) for state in self.states.get(row, {}).values() if state.note]
        return max(notes)[1] if notes else ""

    def tags(self, row: int) -> tuple[str, ...]:
        """The reason tags reviewers gave the run, each once, in the order first given."""
        states = self.states.get(row)
        if not states:
            return ()
        return tuple(dict.fromkeys(tag for state in states.values() for tag in state.tags))

    def my_tags(self, row: int) -> tuple[str, ...]:
        """This session's reviewer's own tags on the run."""
        state = self.state(row)
        return state.tags if state else ()

    def reviewed_by(self, row: int) -> tuple[str, str] | None:
        """(reviewer, UTC time) of the run's latest review change, if any."""
        changes = [(state.at, name) for name, state in self.states.get(row, {}).items()]
        entry = self.adjudications.get(row)
        if entry is not None:
            changes.append((entry.at, entry.reviewer))
        if not changes:
            return None
        at, name = max(changes)
        return name, at

    def is_reviewed(self, row: int) -> bool:
        """At least one reviewer (or an adjudicator) set a label on the run.
        A note or tags alone do not count."""
        return row in self._reviewed

    def reviewed_rows(self) -> list[int]:
        """Every reviewed row, in file order: the one list counts, views and exports use."""
        return sorted(self._reviewed)

    def is_lucky(self, row: int) -> bool:
        """A lucky answer: the label in force says correct, yet a required document is missing."""
        return self.store.stage[row] == S_RETRIEVAL and self.label(row) is True

    def revealed(self, row: int) -> bool:
        """Whether the file's label, other reviewers' labels and the lucky mark may be shown:
        always, except in blind mode until this reviewer labelled the run."""
        return not self.blind or self.my_label(row) is not None

    def missing(self, row: int) -> tuple[str, ...]:
        """The required documents missing from the run's context (with the label in force)."""
        return self.store.missing.get(row, ())

    def diagnosis(self, row: int) -> dict[str, Any]:
        """The run's diagnosis with the label in force, exactly as the rule gives it."""
        return self.store.diagnosis(row)

    def digest_of(self, row: int) -> str:
        """The run's digest now (cached): what its journal records must carry to apply."""
        value = self._digests.get(row)
        if value is None:
            value = self._digests[row] = digest(self.store.raw_text(row))
        return value

    @property
    def stale(self) -> list[Entry]:
        """Records held aside: written against another version of their run (latest per run,
        reviewer and kind). Re-apply with `apply_stale`, drop with `dismiss_stale`."""
        return list(self._stale.values())

    def stale_rows(self) -> list[int]:
        """The rows that have stale records, in file order."""
        row_of = self.store.row_of
        return sorted({row_of[entry.run] for entry in self._stale.values() if entry.run in row_of})

    @property
    def orphans(self) -> list[Entry]:
        """Records naming runs not (or no longer validly) in the file: kept in the journal, not applied."""
        return list(self._orphans.values())

    def spot_check_progress(self, name: str) -> tuple[int, int, int]:
        """(reviewed, held, overturned) over a spot-check's runs that are in the file:
        held when the label in force equals the file's label, overturned when it differs."""
        row_of = self.store.row_of
        reviewed = held = 0
        for run_id in self.spot_checks[name].ids:
            row = row_of.get(run_id)
            if row is None or row not in self._reviewed:
                continue
            reviewed += 1
            held += self.label(row) == self.file_label(row)
        return reviewed, held, reviewed - held

    # -- applying records (replay and live updates) -------------------------

    def apply(self, record: Record) -> set[int]:
        """Take one record into the review state; returns the rows whose state changed.

        Used for replay and for records polled from other writers. It journals
        nothing. Applying a record already applied changes nothing.
        """
        if isinstance(record, SpotCheck):
            self.spot_checks[record.name] = record
            return set()
        if record.kind == DISMISS:
            self._drop_stale(record.run, record.digest)
            return set()
        row = self.store.row_of.get(record.run)
        if row is None or self.store.stage[row] == S_INVALID:
            self._orphans[_key(record)] = record
            return set()
        if record.digest and record.digest != self.digest_of(row):
            if not self.include_stale:
                self._stale[_key(record)] = record
                return set()
            self.stale_applied += 1
        else:
            self._stale.pop(_key(record), None)  # a current record supersedes the stale one
        return self._put(row, record)

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
        if replaced is not None and replaced():
            changed = set()
            for record in self.journal.poll():
                if record.reviewer != self.reviewer:
                    changed |= self.apply(record)
            self.journal.close()
            self._rewrite(f"{self.journal.name}: the journal was deleted or replaced while open")
            return changed
        changed: set[int] = set()
        for record in self.journal.poll():
            changed |= self.apply(record)
        return changed

    def _put(self, row: int, entry: Entry) -> set[int]:
        if entry.kind == ADJUDICATION:
            old = self.adjudications.get(row)
            if (old.key() if old else None) == (entry.key() if entry.label is not None else None):
                return set()
            before = self._derived(row)
            if entry.label is None:
                self.adjudications.pop(row, None)
            else:
                self.adjudications[row] = entry
            self._settle(row, before)
            return {row}
        state = ReviewerState(entry.label, entry.note, entry.tags, entry.at)
        return self._put_state(row, entry.reviewer, state)

    def _put_state(self, row: int, reviewer: str, state: ReviewerState | None) -> set[int]:
        states = self.states.get(row, {})
        if state is not None and state.empty:
            state = None
        if states.get(reviewer) == state:
            return set()
        before = self._derived(row)
        if state is None:
            states.pop(reviewer, None)
            if not states:
                self.states.pop(row, None)
        else:
            states[reviewer] = state
            self.states[row] = states
        self._settle(row, before)
        return {row}

    def _derived(self, row: int) -> tuple[bool | None, bool]:
        label = self.label(row)
        return label, label is True and self.store.stage[row] == S_RETRIEVAL

    def _settle(self, row: int, before: tuple[bool | None, bool]) -> None:
        """Bring the counts, marks and stage of one row in line with its new state."""
        team, source = self._team(row)
        reviewed = team is not None or source == "conflict"
        if reviewed != (row in self._reviewed):
            self.reviewed += 1 if reviewed else -1
            (self._reviewed.add if reviewed else self._reviewed.discard)(row)
        if source == "conflict":
            self.conflicts.add(row)
        elif self.conflicts:
            self.conflicts.discard(row)
        old_label, was_lucky = before
        label = team if team is not None else label_value(self.store.file_label[row])
        if label != old_label:
            self._rediagnose(row, was_lucky, label)

    def _rediagnose(self, row: int, was_lucky: bool, label: bool | None) -> None:
        """Exactly one run through the rule again, with the label now in force (`label`)."""
        store = self.store
        old_code = store.stage[row]
        fields = store.fields(row)
        diagnosis = diagnose_fields(fields.required, fields.context, label)
        code = stage_code(diagnosis)
        store.stage[row] = code
        if diagnosis.get("missing"):
            store.missing[row] = tuple(diagnosis["missing"])
        else:
            store.missing.pop(row, None)
        self.counts[old_code] -= 1
        self.counts[code] += 1
        self.lucky += (label is True and code == S_RETRIEVAL) - was_lucky

    def _drop_stale(self, run: str, run_digest: str) -> None:
        for key, entry in list(self._stale.items()):
            if entry.run == run and entry.digest == run_digest:
                del self._stale[key]

    def _replay(self, journal: ReviewLog) -> None:
        records, self.warnings = journal.read()
        self.records_read = len(records)
        # Only the latest record per (kind, run, reviewer, digest) can matter: fold
        # first, so a run toggled a hundred times is re-diagnosed once.
        latest: dict[tuple[Any, ...], int] = {}
        for index, record in enumerate(records):
            if isinstance(record, Entry) and record.kind != DISMISS:
                latest[(*_key(record), record.digest)] = index
        keep = set(latest.values())
        for index, record in enumerate(records):
            if isinstance(record, SpotCheck) or record.kind == DISMISS or index in keep:
                self.apply(record)
        self.restored = self.reviewed

    # -- changing -----------------------------------------------------------

    def set_label(self, row: int, value: bool) -> None:
        """This reviewer's label (an adjudication, for an adjudicator on a run in conflict)."""
        self._change(row, label=value)

    def clear_label(self, row: int) -> None:
        """Remove this reviewer's label (or, for an adjudicator, the adjudication)."""
        self._change(row, label=None)

    def toggle_label(self, row: int) -> None:
        """none -> correct -> incorrect -> correct, from this reviewer's own label, else from
        the label in force (in blind mode, before this reviewer labelled the run, from none:
        the toggle tells nothing hidden)."""
        current = self.my_label(row)
        if current is None and self.revealed(row):
            current = self.label(row)
        self._change(row, label=current is not True)

    def set_note(self, row: int, text: str) -> None:
        """This reviewer's note on the run ("" removes it)."""
        self._change(row, note=text)

    def set_tags(self, row: int, tags: Iterable[str]) -> None:
        """This reviewer's reason tags on the run, journaled with their label and note."""
        self._change(row, tags=tuple(dict.fromkeys(tags)))

    def toggle_tag(self, row: int, key: str) -> None:
        """Add or remove one of this reviewer's tags on the run."""
        mine = self.my_tags(row)
        self.set_tags(row, tuple(tag for tag in mine if tag != key) if key in mine else (*mine, key))

    def adjudicate(self, row: int, label: bool | None, note: str = "") -> None:
        """Set the run's final label as this reviewer (the adjudicator); None withdraws it."""
        self._check_valid(row)
        before = self.adjudications.get(row)
        entry = Entry(
            self.store.ids[row], label, note, self.reviewer, utc_now(), self.digest_of(row), kind=ADJUDICATION
        )
        self._history.append((row, ADJUDICATION, before))
        self._put(row, entry)
        self._save(row, entry)

    def undo(self) -> int | None:
        """Take back the last change; returns its row, or None when nothing is left."""
        if not self._history:
            return None
        row, kind, before = self._history.pop()
        run, now, run_digest = self.store.ids[row], utc_now(), self.digest_of(row)
        if kind == ADJUDICATION:
            old = before if isinstance(before, Entry) else None
            label, note = (old.label, old.note) if old else (None, "")
            entry = Entry(run, label, note, self.reviewer, now, run_digest, kind=ADJUDICATION)
            self._put(row, entry)
        else:
            state = before if isinstance(before, ReviewerState) else ReviewerState(None, "", (), now)
            entry = Entry(run, state.label, state.note, self.reviewer, now, run_digest, tags=state.tags)
            self._put_state(row, self.reviewer, None if state.empty else ReviewerState(*_fields(entry)))
        self._save(row, entry)
        return row

    def _check_valid(self, row: int) -> None:
        if self.store.stage[row] == S_INVALID:
            raise ValueError(f"line {self.store.lines[row]} is not a valid run")

    def _adjudicating(self, row: int) -> bool:
        return self.adjudicator and (row in self.conflicts or row in self.adjudications)

    def _change(self, row: int, **changes: Any) -> None:
        self._check_valid(row)
        if "label" in changes and self._adjudicating(row):
            self.adjudicate(row, changes["label"])
            return
        before = self.state(row)
        base = before or ReviewerState(None, "", (), "")
        entry = Entry(
            self.store.ids[row],
            changes.get("label", base.label),
            changes.get("note", base.note),
            self.reviewer,
            utc_now(),
            self.digest_of(row),
            tags=changes.get("tags", base.tags),
        )
        self._history.append((row, LABEL, before))
        self._put_state(row, self.reviewer, ReviewerState(*_fields(entry)))
        self._save(row, entry)

    def _save(self, row: int | None, record: Record) -> None:
        if self.journal is None:
            return
        try:
            self.journal.append(record)
        except JournalReplaced as exc:
            self._rewrite(str(exc))
        except JournalError as exc:
            if row is not None:
                self.unsaved.add(row)
                exc.row = row  # which run's change did not reach the disk (undo picks it)
            raise
        self.unsaved.discard(row)  # type: ignore[arg-type]

    def _rewrite(self, why: str) -> None:
        """The journal on disk is not the one we wrote: write the complete review state anew."""
        assert self.journal is not None
        records = self.records()
        for record in records:
            self.journal.append(record)
        self.unsaved.clear()
        self.notices.append(f"{why}; wrote the complete review ({len(records)} records) to it anew.")

    def records(self) -> list[Record]:
        """The complete review state as records: every reviewer's state of every run,
        adjudications, spot-checks, and the stale and orphan records held aside."""
        out: list[Record] = []
        ids = self.store.ids
        for row, states in sorted(self.states.items()):
            for name, state in states.items():
                out.append(
                    Entry(
                        ids[row],
                        state.label,
                        state.note,
                        name,
                        state.at,
                        self.digest_of(row),
                        tags=state.tags,
                    )
                )
        out.extend(entry for _row, entry in sorted(self.adjudications.items()))
        out.extend(self.spot_checks.values())
        out.extend(self._stale.values())
        out.extend(self._orphans.values())
        return out

    def take_notices(self) -> list[str]:
        """The notices not yet shown, and forget them."""
        notices, self.notices = self.notices, []
        return notices

    # -- stale records and spot-checks ------------------------------------------

    def apply_stale(self, entry: Entry) -> int:
        """Re-apply a stale record to its run as it is now (journaled with the current
        digest, as the record's own reviewer); returns its row."""
        row = self.store.row_of[entry.run]
        self._stale.pop(_key(entry), None)
        fresh = Entry(entry.run, entry.label, entry.note, entry.reviewer, utc_now(), self.digest_of(row), 0,
                      entry.tags, entry.kind)  # fmt: skip
        self._put(row, fresh)
        self._save(row, fresh)
        return row

    def dismiss_stale(self, run: str) -> None:
        """Drop every stale record of a run, journaling a "dismiss" per digest they were made against."""
        digests = dict.fromkeys(entry.digest for entry in self._stale.values() if entry.run == run)
        for run_digest in digests:
            self._drop_stale(run, run_digest)
            record = Entry(run, None, "", self.reviewer, utc_now(), run_digest, kind=DISMISS)
            self._save(self.store.row_of.get(run), record)

    def add_spot_check(self, spot_check: SpotCheck) -> None:
        """Record a spot-check (kept in memory even if the journal fails, then JournalError)."""
        self.apply(spot_check)
        self._save(None, spot_check)


def _fields(entry: Entry) -> tuple[bool | None, str, tuple[str, ...], str]:
    return entry.label, entry.note, entry.tags, entry.at


@dataclass(frozen=True, slots=True)
class ReviewOptions:
    """How a run file is opened for review: what the command line says, carried as one
    value from the CLI through the app to the loader (see `open_review`)."""

    path: str
    field_map: FieldMap | None = None
    journal_spec: str | None = None
    reviewer: str | None = None
    blind: bool = False
    adjudicator: bool = False

    def open(self, **options: Any) -> Review:
        """`open_review` with these options (and any of its keyword options)."""
        return open_review(
            self.path,
            self.field_map,
            self.journal_spec,
            self.reviewer,
            blind=self.blind,
            adjudicator=self.adjudicator,
            **options,
        )


def open_review(
    path: str | os.PathLike[str],
    field_map: FieldMap | None = None,
    journal_spec: str | None = None,
    reviewer: str | None = None,
    *,
    store: RunStore | None = None,
    progress: Progress | None = None,
    announce: Callable[[int], bool] | None = None,
    use_journal: bool = True,
    writable: bool = True,
    blind: bool = False,
    adjudicator: bool = False,
    apply_stale: bool = False,
) -> Review:
    """THE way to open a run file for review: the store, its field map, the review
    log and the review state, used by the CLI and the app alike.

    The file is read into `store` (default: a new store; the app passes its own to
    show rows as they arrive), with `progress` and `announce` as `RunStore.read`
    takes them; loading.FileError if it cannot be read at all. A load stopped by
    `announce` returns a review without its log.
    `journal_spec`: see `journal.open_log`. `use_journal=False` ignores the log.
    `writable=False` (export, stats): the log is only read, and a log that cannot be
    read raises JournalError (going on without the labels would silently lose them).
    With `writable`, problems opening the log are kept in `review.problems` and the
    review opens anyway (a change that cannot be saved then raises JournalError);
    another process appending to the same log is said in `review.warnings`.
    """
    if store is None:
        store = RunStore(path, field_map)
    options: dict[str, Any] = {"blind": blind, "adjudicator": adjudicator, "apply_stale": apply_stale}
    complete = store.read(progress, announce)
    if not use_journal or not complete:
        return Review(store, None, reviewer, **options)
    log = open_log(store.path, journal_spec, offline_ok=writable)
    if not writable:
        return Review(store, log, reviewer, **options)
    problems: list[str] = []
    try:
        log.open()
    except JournalError as exc:
        problems.append(f"{exc}. Labels you set now will NOT be saved.")
    try:
        review = Review(store, log, reviewer, **options)
    except JournalError as exc:
        problems.append(f"{exc}. Earlier reviews could not be restored.")
        review = Review(store, None, reviewer, **options)
        review.journal = log  # keep saving, so failures are still reported
    # A log shared with other writers is announced by the app (ui.live), which shows their work live.
    review.problems = problems
    return review
