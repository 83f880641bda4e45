"""RunStore: every record of a run file, held column by column.

A million runs must fit in well under a kilobyte each, so the store keeps no
object per run: ids, questions and search text are flat lists of strings, the
stage and label are one byte each, counts are machine integers, and each run's
original JSON text sits in one shared byte buffer, parsed again only when a
single run is shown, re-diagnosed or exported.

Row numbers are positions in file order. Invalid lines are rows too (stage
`INVALID`), so the reviewer sees them where they stand in the file.
"""

from __future__ import annotations

import gc
import json
import os
from array import array
from collections import Counter
from collections.abc import Iterable
from typing import Any

from .loading import NO_EXPECTED, LoadError, Progress, Record, Run, read_runs
from .models import RunFields, validate_run
from .rule import GENERATION, LABEL_ERROR, PASS, RETRIEVAL, UNRESOLVED

# Stage codes, one byte per row.
STAGES = (RETRIEVAL, GENERATION, PASS, UNRESOLVED, LABEL_ERROR, "invalid")
S_RETRIEVAL, S_GENERATION, S_PASS, S_UNRESOLVED, S_LABEL_ERROR, S_INVALID = range(6)
STAGE_CODE = {name: code for code, name in enumerate(STAGES)}

# Label codes, one byte per row: the file's `correct` as the rule reads it.
L_NONE, L_TRUE, L_FALSE = 0, 1, 2


def label_code(value: object) -> int:
    if value is True:
        return L_TRUE
    if value is False:
        return L_FALSE
    return L_NONE


def label_value(code: int) -> bool | None:
    return True if code == L_TRUE else False if code == L_FALSE else None


def stage_code(diagnosis: dict[str, Any]) -> int:
    return STAGE_CODE[diagnosis.get("stage") or diagnosis["error"]]


class RunStore:
    """All rows of one run file, in file order."""

    def __init__(self, path: str | os.PathLike[str] = "") -> None:
        self.path = os.fspath(path)
        self.ids: list[str] = []
        self.lines = array("I")
        self.stage = bytearray()
        self.file_label = bytearray()
        self.n_required = array("I")
        self.n_context = array("I")
        self.questions: list[str] = []
        self.search_text: list[str] = []
        self.missing: dict[int, tuple[str, ...]] = {}
        self.errors: dict[int, LoadError] = {}
        self.expected: dict[int, Any] = {}
        self.row_of: dict[str, int] = {}
        self._blob = bytearray()
        self._offsets = array("Q", [0])

    def __len__(self) -> int:
        return len(self.ids)

    @classmethod
    def load(cls, path: str | os.PathLike[str], progress: Progress | None = None) -> RunStore:
        """Read a whole file. Raises loading.FileError if it cannot be read at all."""
        store = cls(path)
        store.extend(read_runs(path, progress))
        return store

    def extend(self, records: Iterable[Record]) -> None:
        # The cyclic collector rescans every container on each pass: with a million
        # rows arriving it makes loading several times slower, and none of these
        # objects form cycles.
        was_enabled = gc.isenabled()
        gc.disable()
        try:
            add_run, add_error = self._add_run, self._add_error
            for record in records:
                if type(record) is Run:
                    add_run(record)
                else:
                    add_error(record)
        finally:
            if was_enabled:
                gc.enable()
            gc.freeze()

    def _add_run(self, run: Run) -> None:
        row = len(self.ids)
        self.ids.append(run.id)
        self.row_of[run.id] = row
        self.lines.append(run.line)
        self.stage.append(stage_code(run.diagnosis))
        self.file_label.append(label_code(run.label))
        required = run.required or ()
        context = run.context or ()
        self.n_required.append(len(required))
        self.n_context.append(len(context))
        question = run.question or ""
        self.questions.append(question)
        missing = run.diagnosis.get("missing")
        if missing:
            self.missing[row] = tuple(missing)
        self.search_text.append("\n".join((run.id, question, *required, *context)).casefold())
        if run.expected is not NO_EXPECTED:
            self.expected[row] = run.expected
        self._blob += run.raw
        self._offsets.append(len(self._blob))

    def _add_error(self, error: LoadError) -> None:
        row = len(self.ids)
        self.ids.append(error.id or "")
        if error.id and error.id not in self.row_of:
            self.row_of[error.id] = row
        self.lines.append(error.line)
        self.stage.append(S_INVALID)
        self.file_label.append(L_NONE)
        self.n_required.append(0)
        self.n_context.append(0)
        self.questions.append("")
        self.search_text.append(f"{error.id or ''}\nline {error.line}\n{error.detail}".casefold())
        self.errors[row] = error
        self._offsets.append(len(self._blob))

    # -- one run at a time --------------------------------------------------

    def raw_text(self, row: int) -> bytes:
        return bytes(self._blob[self._offsets[row] : self._offsets[row + 1]])

    def raw(self, row: int) -> dict[str, Any]:
        """The run's original object, every field as in the file (empty for invalid rows)."""
        text = self.raw_text(row)
        return json.loads(text) if text else {}

    def fields(self, row: int) -> RunFields:
        """The rule's fields of one valid run, validated again from its text."""
        return validate_run(self.raw(row))

    def is_valid(self, row: int) -> bool:
        return self.stage[row] != S_INVALID

    # -- whole-file figures -------------------------------------------------

    def missed_documents(self) -> Counter[str]:
        """How many runs miss each document (label-independent)."""
        counts: Counter[str] = Counter()
        for ids in self.missing.values():
            counts.update(ids)
        return counts
