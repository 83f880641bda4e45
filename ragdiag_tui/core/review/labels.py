"""The labels in force: every reviewer's state of each run, the adjudications, and
what follows from them, kept in step with the store.

The file's label stays in the store; the team's label lies over it. The label in
force for a run is, in order:

1. the adjudicated label, if an adjudicator set one;
2. else the reviewers' label, when every reviewer who set a label agrees;
3. else the run is in CONFLICT and the FILE's label stays in force (nothing the
   team agreed on overrides it): the run is diagnosed with the file's label,
   counted under that stage and in `conflicts`, and exported with label_source
   "conflict".

A run is *reviewed* when at least one reviewer (or an adjudicator) set a label on
it; a note or tags alone do not make it reviewed. Each change re-diagnoses exactly
the one run it touches and updates the per-stage counts incrementally.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime

from ..runs.rule import diagnose_fields
from ..runs.store import L_FALSE, L_TRUE, S_RETRIEVAL, STAGES, RunStore, label_value, stage_code
from .records import ADJUDICATION, LABEL, Entry, later_than, when_written

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

    @classmethod
    def of(cls, entry: Entry) -> ReviewerState:
        """The state a reviewer's label record sets."""
        return cls(entry.label, entry.note, entry.tags, entry.at)


def _slot(row: int, entry: Entry) -> tuple[int, str, str]:
    """What one record in force is kept per: a reviewer's state, or the run's adjudication."""
    return row, entry.kind, entry.reviewer if entry.kind != ADJUDICATION else ""


class TeamLabels:
    """Every reviewer's state and every adjudication over the runs of one store, and the
    figures that follow from them: the label in force, reviewed and conflicting rows,
    per-stage counts and lucky answers. Changing a row re-diagnoses it in the store."""

    def __init__(self, store: RunStore) -> None:
        self.store = store
        self.states: dict[int, dict[str, ReviewerState]] = {}
        """Per row with any reviewer state: reviewer name -> that reviewer's state."""
        self.adjudications: dict[int, Entry] = {}
        self.conflicts: set[int] = set()
        """Rows whose reviewers disagree and that no adjudication settled."""
        self.counts = [store.stage.count(code) for code in range(len(STAGES))]
        # No reviewer state yet: the label in force is the file's. One pass in C over the
        # file labels of the rows missing a document (a million runs: 10 ms, not 80).
        self.lucky = bytes(map(store.file_label.__getitem__, store.missing)).count(L_TRUE)
        self.lucky_in_file = self.lucky
        """Lucky answers by the file's labels, which no review changes (`lucky` follows the
        labels in force; see core/analysis/lucky.py)."""
        self.reviewed = 0
        self._reviewed: set[int] = set()
        self._written: dict[tuple[int, str, str], datetime] = {}
        """Per (row, kind, reviewer; "" for an adjudication): the `at` of the record in force."""

    # -- reading ------------------------------------------------------------

    def team_label(self, row: int) -> tuple[bool | None, str | None]:
        """(the team's label, its source): adjudication, agreed reviewers, or (None, "conflict")."""
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

    def label(self, row: int) -> bool | None:
        """The label in force: the team's if any, else the file's (booleans only)."""
        label = self.team_label(row)[0]
        return label if label is not None else label_value(self.store.file_label[row])

    def file_label(self, row: int) -> bool | None:
        """The file's own label, when it is a boolean."""
        return label_value(self.store.file_label[row])

    def label_source(self, row: int) -> str | None:
        """ "adjudication", "reviewer", "conflict", "file", or None (no label)."""
        source = self.team_label(row)[1]
        if source is not None:
            return source
        return "file" if self.store.file_label[row] in (L_TRUE, L_FALSE) else None

    def disagree(self, row: int) -> bool:
        """Reviewers set different labels, adjudicated or not."""
        states = self.states.get(row, {})
        return len({state.label for state in states.values() if state.label is not None}) > 1

    def note(self, row: int, reviewer: str) -> str:
        """`reviewer`'s note on the run, else the latest note any reviewer left."""
        states = self.states.get(row, {})
        mine = states.get(reviewer)
        if mine is not None and mine.note:
            return mine.note
        notes = [(state.at, state.note) for state in states.values() if state.note]
        return max(notes)[1] if notes else ""

    def tags(self, row: int) -> tuple[str, ...]:
        """The reason tags reviewers gave the run, each once, in the order first given."""
        states = self.states.get(row)
        if not states:
            return ()
        return tuple(dict.fromkeys(tag for state in states.values() for tag in state.tags))

    def settled_tags(self, row: int) -> tuple[str, ...]:
        """The tags that belong to the run's settled label: those of each reviewer whose own
        label is the team's label (agreed or adjudicated), each once, in the order first given.
        None on a run in conflict or that nobody labelled: a tag explains a verdict, so a tag
        given with a label that is not in force (or with no label) explains nothing in force."""
        label = self.team_label(row)[0]
        states = self.states.get(row)
        if label is None or not states:
            return ()
        given = (state.tags for state in states.values() if state.label is label)
        return tuple(dict.fromkeys(tag for tags in given for tag in tags))

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
        """At least one reviewer (or an adjudicator) set a label on the run."""
        return row in self._reviewed

    def reviewed_rows(self) -> list[int]:
        """Every reviewed row, in file order."""
        return sorted(self._reviewed)

    def records(self, digest_of: Callable[[int], str]) -> list[Entry]:
        """Every reviewer's state of every run, then the adjudications, as records."""
        ids = self.store.ids
        out = [
            Entry(ids[row], state.label, state.note, name, state.at, digest_of(row), tags=state.tags)
            for row, states in sorted(self.states.items())
            for name, state in states.items()
        ]
        out.extend(entry for _row, entry in sorted(self.adjudications.items()))
        return out

    def is_older(self, row: int, entry: Entry) -> bool:
        """Whether a record in force for the same run, kind and reviewer has a later `at`
        (last writer by time: such a record changes nothing, wherever it sits in the log)."""
        latest = self._written.get(_slot(row, entry))
        return latest is not None and when_written(entry.at) < latest

    def next_at(self, row: int, kind: str, reviewer: str) -> str:
        """The `at` of a new edit: now, or just after the record in force when its clock ran ahead."""
        return later_than(self._written.get((row, kind, reviewer if kind == LABEL else "")))

    # -- changing -----------------------------------------------------------

    def add_base(self, counts: Sequence[int], lucky: int) -> None:
        """Add a store's own counts, learnt late (a dataset's tally), to the changes counted so far."""
        for code, count in enumerate(counts):
            self.counts[code] += count
        self.lucky += lucky
        self.lucky_in_file += lucky  # the files' own labels: what the count is of

    def put(self, row: int, entry: Entry) -> set[int]:
        """Take a label or adjudication record of the row; returns {row} if anything changed.
        A record older (by `at`) than the one in force for its run, kind and reviewer is ignored;
        of two at the same time, the one put later wins."""
        if self.is_older(row, entry):
            return set()
        self._written[_slot(row, entry)] = when_written(entry.at)
        if entry.kind != ADJUDICATION:
            return self.put_state(row, entry.reviewer, ReviewerState.of(entry))
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

    def put_state(self, row: int, reviewer: str, state: ReviewerState | None) -> set[int]:
        """Set one reviewer's state of the row (None or empty: they have nothing on it)."""
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
        team, source = self.team_label(row)
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
