"""Review state over a RunStore: every reviewer's labels, tags and notes, adjudications,
stale records, spot-checks, undo and live counts.

`Review` is the face the app, the CLI and the exports use. It composes the parts,
each in its module: the labels in force (`labels`: which label is in force, and why,
is explained there), where each record read goes (`intake`, holding stale and
orphan records aside in `held`), this reviewer's changes and their undo (`edits`),
and the link to the review log (`sync`).

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
from ..runs.row_source import RowSource
from ..runs.source_store import SourceStore
from ..runs.store import S_RETRIEVAL, RunStore
from .edits import ReviewerEdits
from .intake import RecordIntake, SpotCheckProgress
from .labels import ReviewerState, TeamLabels
from .records import (
    Entry,
    JournalError,
    Record,
    SpotCheck,
    default_reviewer,
)
from .reviewlog import ReviewLog, open_log
from .sync import LogSync


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
        self.blind = blind
        reviewer = reviewer or default_reviewer()
        self.team = TeamLabels(store)  # the labels in force and what follows from them
        self.intake = RecordIntake(store, self.team, apply_stale)  # where each record read goes
        self.sync = LogSync(journal, reviewer, self.intake.apply, self.records)  # saving and polling
        self.edits = ReviewerEdits(  # this session's reviewer's changes, and their undo
            store, self.team, self.intake.held, self.digest_of, self.sync.save, reviewer, adjudicator
        )
        self.restored = 0
        self.records_read = 0
        """How many records the log held when the review was opened."""
        self.warnings: list[str] = []
        self.problems: list[str] = []
        """Set by `open_review`: the log could not be opened or read."""
        if journal is not None:
            self._replay(journal)

    @property
    def journal(self) -> ReviewLog | None:
        """Where the review's records are kept (None: nowhere)."""
        return self.sync.journal

    @journal.setter
    def journal(self, log: ReviewLog | None) -> None:
        self.sync.journal = log

    @property
    def unsaved(self) -> set[int]:
        """Rows whose latest change did not reach the log."""
        return self.sync.unsaved

    @property
    def notices(self) -> list[str]:
        """Things the reviewer should be told that are not errors (e.g. the journal was rewritten)."""
        return self.sync.notices

    @property
    def reviewer(self) -> str:
        """Who this session's changes are journaled as."""
        return self.edits.reviewer

    @property
    def adjudicator(self) -> bool:
        return self.edits.adjudicator

    @property
    def states(self) -> dict[int, dict[str, ReviewerState]]:
        """Per row with any reviewer state: reviewer name -> that reviewer's state."""
        return self.team.states

    @property
    def adjudications(self) -> dict[int, Entry]:
        return self.team.adjudications

    @property
    def conflicts(self) -> set[int]:
        """Rows whose reviewers disagree and that no adjudication settled."""
        return self.team.conflicts

    @property
    def counts(self) -> list[int]:
        """How many runs each stage holds, with the labels in force."""
        return self.team.counts

    @property
    def lucky(self) -> int:
        return self.team.lucky

    @property
    def reviewed(self) -> int:
        return self.team.reviewed

    @property
    def spot_checks(self) -> dict[str, SpotCheck]:
        return self.intake.spot_checks

    @property
    def stale_applied(self) -> int:
        return self.intake.stale_applied

    # -- reading ------------------------------------------------------------

    def reviewers(self, row: int) -> dict[str, ReviewerState]:
        """Every reviewer's state of the run, by reviewer name, in the order they first reviewed it."""
        return dict(self.team.states.get(row, {}))

    def state(self, row: int, reviewer: str | None = None) -> ReviewerState | None:
        """One reviewer's state of the run (default: this session's reviewer)."""
        return self.team.states.get(row, {}).get(reviewer or self.reviewer)

    def my_label(self, row: int) -> bool | None:
        """This session's reviewer's own label of the run."""
        state = self.state(row)
        return state.label if state else None

    def my_tags(self, row: int) -> tuple[str, ...]:
        """This session's reviewer's own tags on the run."""
        state = self.state(row)
        return state.tags if state else ()

    def adjudication(self, row: int) -> Entry | None:
        """The adjudication in force on the run, if any."""
        return self.team.adjudications.get(row)

    def reviewer_label(self, row: int) -> bool | None:
        """The label the review puts on the run: adjudicated, or agreed by the reviewers.
        None when no reviewer set one, or when they disagree (see `is_conflict`)."""
        return self.team.team_label(row)[0]

    def label(self, row: int) -> bool | None:
        """The label in force: the review's (`reviewer_label`) if any, else the file's (booleans only)."""
        return self.team.label(row)

    def file_label(self, row: int) -> bool | None:
        """The file's own label, when it is a boolean."""
        return self.team.file_label(row)

    def label_source(self, row: int) -> str | None:
        """Where the label in force comes from: "adjudication", "reviewer", "conflict"
        (reviewers disagree; the file's label is in force), "file", or None (no label)."""
        return self.team.label_source(row)

    def is_conflict(self, row: int) -> bool:
        """Reviewers set different labels and no adjudication settled it."""
        return row in self.team.conflicts

    def disagree(self, row: int) -> bool:
        """Reviewers set different labels, adjudicated or not."""
        return self.team.disagree(row)

    def note(self, row: int) -> str:
        """This reviewer's note on the run, else the latest note any reviewer left."""
        return self.team.note(row, self.reviewer)

    def tags(self, row: int) -> tuple[str, ...]:
        """The reason tags reviewers gave the run, each once, in the order first given."""
        return self.team.tags(row)

    def reviewed_by(self, row: int) -> tuple[str, str] | None:
        """(reviewer, UTC time) of the run's latest review change, if any."""
        return self.team.reviewed_by(row)

    def is_reviewed(self, row: int) -> bool:
        """At least one reviewer (or an adjudicator) set a label on the run (a note or tags: no)."""
        return self.team.is_reviewed(row)

    def reviewed_rows(self) -> list[int]:
        """Every reviewed row, in file order: the one list counts, views and exports use."""
        return self.team.reviewed_rows()

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
        return self.intake.digest_of(row)

    @property
    def stale(self) -> list[Entry]:
        """Records held aside: written against another version of their run (latest per run,
        reviewer and kind). Re-apply with `apply_stale`, drop with `dismiss_stale`."""
        return self.intake.held.stale

    def stale_rows(self) -> list[int]:
        """The rows that have stale records, in file order."""
        return self.intake.held.stale_rows(self.store.row_of)

    @property
    def orphans(self) -> list[Entry]:
        """Records naming runs not (or no longer validly) in the file: kept in the journal, not applied."""
        return self.intake.held.orphans

    def spot_check_progress(self, name: str) -> SpotCheckProgress:
        """(reviewed, held, overturned, conflicts) over a spot-check's runs that are in the
        file: held, overturned or in conflict as `core.review.intake.SpotCheckProgress` says."""
        return self.intake.spot_check_progress(name)

    # -- applying records (replay and live updates) -------------------------

    def apply(self, record: Record) -> set[int]:
        """Take one record into the review state; returns the rows whose state changed.

        Used for replay and for records polled from other writers. It journals
        nothing. Applying a record already applied changes nothing.
        """
        return self.intake.apply(record)

    def poll(self) -> set[int]:
        """Apply what other writers appended to the log since; returns the rows changed
        (a journal replaced on disk is written anew, with a notice: see LogSync)."""
        return self.sync.poll()

    def _replay(self, journal: ReviewLog) -> None:
        records, self.warnings = journal.read()
        self.store.resolve_ids(record.run for record in records if not isinstance(record, SpotCheck))
        self.records_read = len(records)
        self.intake.replay(records)
        self.restored = self.reviewed

    # -- changing -----------------------------------------------------------

    def set_label(self, row: int, value: bool) -> None:
        """This reviewer's label (an adjudication, for an adjudicator on a run in conflict)."""
        self.edits.change(row, label=value)

    def clear_label(self, row: int) -> None:
        """Remove this reviewer's label (or, for an adjudicator, the adjudication)."""
        self.edits.change(row, label=None)

    def toggle_label(self, row: int) -> None:
        """none -> correct -> incorrect -> correct, from this reviewer's own label, else from the
        label in force (blind, before this reviewer labelled the run: from none, telling nothing)."""
        current = self.my_label(row)
        if current is None and self.revealed(row):
            current = self.label(row)
        self.edits.change(row, label=current is not True)

    def set_note(self, row: int, text: str) -> None:
        """This reviewer's note on the run ("" removes it)."""
        self.edits.change(row, note=text)

    def set_tags(self, row: int, tags: Iterable[str]) -> None:
        """This reviewer's reason tags on the run, journaled with their label and note."""
        self.edits.change(row, tags=tuple(dict.fromkeys(tags)))

    def toggle_tag(self, row: int, key: str) -> None:
        """Add or remove one of this reviewer's tags on the run."""
        mine = self.my_tags(row)
        self.set_tags(row, tuple(tag for tag in mine if tag != key) if key in mine else (*mine, key))

    def adjudicate(self, row: int, label: bool | None, note: str = "") -> None:
        """Set the run's final label as this reviewer (the adjudicator); None withdraws it."""
        self.edits.adjudicate(row, label, note)

    def undo(self) -> int | None:
        """Take back the last change; returns its row, or None when nothing is left."""
        return self.edits.undo()

    def records(self) -> list[Record]:
        """The complete review state as records: every reviewer's state of every run,
        adjudications, spot-checks, and the stale and orphan records held aside."""
        return [*self.team.records(self.digest_of), *self.intake.records()]

    def take_notices(self) -> list[str]:
        """The notices not yet shown, and forget them."""
        return self.sync.take_notices()

    # -- stale records and spot-checks ------------------------------------------

    def apply_stale(self, entry: Entry) -> int:
        """Re-apply a stale record to its run as it is now (journaled with the current
        digest, as the record's own reviewer); returns its row."""
        return self.edits.apply_stale(entry)

    def dismiss_stale(self, run: str) -> None:
        """Drop every stale record of a run, journaling a "dismiss" per digest they were made against."""
        self.edits.dismiss_stale(run)

    def add_spot_check(self, spot_check: SpotCheck) -> None:
        """Record a spot-check (kept in memory even if the journal fails, then JournalError)."""
        self.apply(spot_check)
        self.sync.save(None, spot_check)


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
    source: RowSource | None = None
    """The runs read in place by an engine (a dataset), instead of the file at `path`."""

    def new_store(self) -> RunStore | SourceStore:
        """The store the runs are read into: the file's, or the source's rows by position."""
        if self.source is not None:
            return SourceStore(self.source, self.field_map)
        return RunStore(self.path, self.field_map)

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


def journal_applied(review: Review) -> str:
    """What a command that reads the review says it took from the log: how many labels it
    applied, or that the log held none and the file's own labels stand."""
    name = review.journal.name if review.journal is not None else "no review log"
    if not review.records_read:
        return f"no review entries in {name}: the file's own labels"
    labels = "label" if review.reviewed == 1 else "labels"
    return f"applied {review.reviewed} {labels} from {name}"
