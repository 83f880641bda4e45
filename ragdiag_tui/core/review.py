"""Review state over a RunStore: reviewer labels, notes, undo and live counts.

The file's label stays in the store; a reviewer's label lies over it. Each change
re-diagnoses exactly one run with the label in force, updates the per-stage
counts incrementally, and is journaled (fsynced) before the method returns. If
the journal cannot be written the change stays in memory, the row is marked
unsaved, and `JournalError` tells the caller.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .journal import Entry, Journal, JournalError, default_reviewer, digest, utc_now
from .rule import diagnose_fields
from .store import (
    L_FALSE,
    L_TRUE,
    S_INVALID,
    S_RETRIEVAL,
    STAGES,
    RunStore,
    label_value,
    stage_code,
)


@dataclass(slots=True)
class _State:
    label: bool | None
    note: str
    reviewer: str
    at: str


_BLANK = _State(None, "", "", "")


class Review:
    """Everything the reviewer changed, over the runs of one store."""

    def __init__(
        self,
        store: RunStore,
        journal: Journal | None = None,
        reviewer: str | None = None,
    ) -> None:
        self.store = store
        self.journal = journal
        self.reviewer = reviewer or default_reviewer()
        self.states: dict[int, _State] = {}
        self.unsaved: set[int] = set()
        self._history: list[tuple[int, _State]] = []
        self.counts = [store.stage.count(code) for code in range(len(STAGES))]
        self.lucky = sum(1 for row in store.missing if self.label(row) is True)
        self.reviewed = 0
        self.restored = 0
        self.orphans: list[Entry] = []
        self.changed: list[str] = []
        self.warnings: list[str] = []
        if journal is not None:
            self._replay(journal)

    # -- reading ------------------------------------------------------------

    def reviewer_label(self, row: int) -> bool | None:
        state = self.states.get(row)
        return state.label if state else None

    def label(self, row: int) -> bool | None:
        """The label in force: the reviewer's if set, else the file's (booleans only)."""
        state = self.states.get(row)
        if state is not None and state.label is not None:
            return state.label
        return label_value(self.store.file_label[row])

    def label_source(self, row: int) -> str | None:
        if self.reviewer_label(row) is not None:
            return "reviewer"
        return "file" if self.store.file_label[row] in (L_TRUE, L_FALSE) else None

    def note(self, row: int) -> str:
        state = self.states.get(row)
        return state.note if state else ""

    def reviewed_by(self, row: int) -> tuple[str, str] | None:
        """(reviewer, UTC time) of the run's latest review change, if any."""
        state = self.states.get(row)
        return (state.reviewer, state.at) if state else None

    def is_reviewed(self, row: int) -> bool:
        return self.reviewer_label(row) is not None

    def is_lucky(self, row: int) -> bool:
        return self.store.stage[row] == S_RETRIEVAL and self.label(row) is True

    def missing(self, row: int) -> tuple[str, ...]:
        return self.store.missing.get(row, ())

    def diagnosis(self, row: int) -> dict[str, Any]:
        """The run's diagnosis with the label in force, exactly as the rule gives it."""
        return self.store.diagnosis(row)

    # -- changing -----------------------------------------------------------

    def set_label(self, row: int, value: bool) -> None:
        self._change(row, label=value)

    def clear_label(self, row: int) -> None:
        """Remove the reviewer's label: the file's label is in force again."""
        self._change(row, label=None)

    def toggle_label(self, row: int) -> None:
        """none -> correct -> incorrect -> correct."""
        self._change(row, label=self.label(row) is not True)

    def set_note(self, row: int, text: str) -> None:
        self._change(row, note=text)

    def undo(self) -> int | None:
        """Take back the last change; returns its row, or None when nothing is left."""
        if not self._history:
            return None
        row, before = self._history.pop()
        self._apply(row, before)
        self._save(row)
        return row

    def _change(self, row: int, **changes: Any) -> None:
        if self.store.stage[row] == S_INVALID:
            raise ValueError(f"line {self.store.lines[row]} is not a valid run")
        before = self.states.get(row, _BLANK)
        after = _State(
            changes.get("label", before.label),
            changes.get("note", before.note),
            self.reviewer,
            utc_now(),
        )
        self._history.append((row, before))
        self._apply(row, after)
        self._save(row)

    def _save(self, row: int) -> None:
        if self.journal is None:
            return
        state = self.states.get(row, _BLANK)
        entry = Entry(
            self.store.ids[row],
            state.label,
            state.note,
            state.reviewer or self.reviewer,
            state.at or utc_now(),
            digest(self.store.raw_text(row)),
        )
        try:
            self.journal.append(entry)
        except JournalError as exc:
            self.unsaved.add(row)
            exc.row = row  # which run's change did not reach the disk (undo picks it)
            raise
        self.unsaved.discard(row)

    def _apply(self, row: int, state: _State) -> None:
        was_reviewed = self.is_reviewed(row)
        old_label = self.label(row)
        if state.label is None and not state.note:
            self.states.pop(row, None)
        else:
            self.states[row] = state
        self.reviewed += self.is_reviewed(row) - was_reviewed
        if self.label(row) != old_label:
            self._rediagnose(
                row,
                was_lucky=old_label is True and self.store.stage[row] == S_RETRIEVAL,
            )

    def _rediagnose(self, row: int, was_lucky: bool) -> None:
        """Exactly one run through the rule again, with the label now in force."""
        store = self.store
        old_code = store.stage[row]
        fields = store.fields(row)
        diagnosis = diagnose_fields(fields.required, fields.context, self.label(row))
        code = stage_code(diagnosis)
        store.stage[row] = code
        if diagnosis.get("missing"):
            store.missing[row] = tuple(diagnosis["missing"])
        else:
            store.missing.pop(row, None)
        self.counts[old_code] -= 1
        self.counts[code] += 1
        self.lucky += self.is_lucky(row) - was_lucky

    # -- replay -------------------------------------------------------------

    def _replay(self, journal: Journal) -> None:
        entries, self.warnings = journal.read()
        latest: dict[str, Entry] = {}
        for entry in entries:
            latest[entry.run] = entry
        for run_id, entry in latest.items():
            row = self.store.row_of.get(run_id)
            if row is None or self.store.stage[row] == S_INVALID:
                self.orphans.append(entry)
                continue
            self._apply(row, _State(entry.label, entry.note, entry.reviewer, entry.at))
            if entry.digest and entry.digest != digest(self.store.raw_text(row)):
                self.changed.append(run_id)
        self.restored = self.reviewed
