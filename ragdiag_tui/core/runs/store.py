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
import os
from array import array
from collections import Counter
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from ..common.jsonutil import decode
from .loading import (
    NO_EXPECTED,
    LoadError,
    Progress,
    Record,
    Run,
    decode_fields,
    read_runs,
    validate_mapped,
    validate_run,
)
from .mapping import FieldMap
from .metrics import NAN, MetricMeans, id_metrics, metric_means
from .rule import stage_of

if TYPE_CHECKING:
    from .models import RunFields

# The stage codes live in `stages`; these names stay importable from here too.
from .stages import (  # noqa: F401
    S_GENERATION,
    S_INVALID,
    S_LABEL_ERROR,
    S_PASS,
    S_RETRIEVAL,
    S_UNRESOLVED,
    STAGE_CODE,
    STAGE_NAMES,
    STAGES,
    stage_code,
)

# Label codes, one byte per row: the file's `correct` as the rule reads it.
L_NONE, L_TRUE, L_FALSE = 0, 1, 2


_decode = decode  # huge integers and NaN/Infinity as Python numbers (see jsonutil)


def label_value(code: int) -> bool | None:
    return True if code == L_TRUE else False if code == L_FALSE else None


Announce = Callable[[int], bool]
"""Told the number of rows in the store now and then while it loads; False stops the loading."""

ANNOUNCE_FIRST = 500  # rows before the first announcement: a first screenful
ANNOUNCE_EVERY = 250_000  # rows between later ones


class _Stopped(Exception):
    """`announce` said to stop loading."""


def error_search_text(error: LoadError) -> str:
    """What the text filter searches in an invalid line: its id, line number and reason."""
    return f"{error.id or ''}\nline {error.line}\n{error.detail}".casefold()


class RunStore:
    """All rows of one run file, in file order."""

    in_place = False
    """Whether the runs are read in place (a dataset: `source_store.SourceStore`); here: no."""

    def __init__(self, path: str | os.PathLike[str] = "", field_map: FieldMap | None = None) -> None:
        self.path = os.fspath(path)
        self.field_map = field_map or None  # where the run fields are, if not under their own names
        self.ids: list[str] = []
        self.lines = array("I")
        self.stage = bytearray()
        self.file_label = bytearray()
        self.n_required = array("I")
        self.n_context = array("I")
        self._metrics: tuple[array[float], array[float]] | None = None  # see `recall`
        self._means: tuple[int, MetricMeans] | None = None  # see `store_means`
        self.questions: list[str] = []
        self.search_text: list[str] = []
        self.missing: dict[int, tuple[str, ...]] = {}
        self.errors: dict[int, LoadError] = {}
        self.expected: dict[int, Any] = {}
        self._row_of: dict[str, int] | None = None
        self._blob = bytearray()
        self._offsets = array("Q", [0])
        self._announce: Announce | None = None
        self._next_announce = -1
        self.add_run = self._run_adder()
        """Add one valid run as the last row (a `loading.RunSink`): its line, id, stage
        code, the file's label, required and supplied IDs, question, missing IDs, its
        original text `raw`, and the case file's expectation if any."""

    def __len__(self) -> int:
        return len(self.ids)

    @classmethod
    def load(
        cls,
        path: str | os.PathLike[str],
        progress: Progress | None = None,
        field_map: FieldMap | None = None,
    ) -> RunStore:
        """Read a whole file. Raises loading.FileError if it cannot be read at all."""
        store = cls(path, field_map)
        store.read(progress)
        return store

    def read(self, progress: Progress | None = None, announce: Announce | None = None) -> bool:
        """Read the store's file into it, in one pass: each run goes straight into the
        columns (`add_run`), with no object per run.

        `announce(rows)` is told of the first few hundred rows and then of every
        ANNOUNCE_EVERY more; when it returns False, reading stops and read returns
        False. Raises loading.FileError if the file cannot be read at all.
        """
        return self._filling(lambda: self._read(progress), announce)

    def extend(self, records: Iterable[Record], announce: Announce | None = None) -> bool:
        """Add records already made (`Run`s and `LoadError`s) as rows; `announce` as in `read`."""
        return self._filling(lambda: self._add_records(records), announce)

    def _filling(self, fill: Callable[[], None], announce: Announce | None) -> bool:
        # The cyclic collector rescans every container on each pass: with a million
        # rows arriving it makes loading several times slower, and none of these
        # objects form cycles.
        was_enabled = gc.isenabled()
        gc.disable()
        self._announce = announce
        self._next_announce = len(self) + ANNOUNCE_FIRST if announce is not None else -1
        try:
            fill()
        except _Stopped:
            return False
        finally:
            self._announce, self._next_announce = None, -1
            self._row_of = None
            if was_enabled:
                gc.enable()
            gc.freeze()
        return True

    def _read(self, progress: Progress | None) -> None:
        add_error = self.add_error
        for error in read_runs(self.path, progress, self.field_map, sink=self, split=True):
            add_error(error)

    def absorb(self, columns: dict[str, Any], read_text: Callable[[bytearray, int], bool]) -> bool:
        """Append the rows another process read (`split_read`): `columns` as `columns_of`
        gives them, the runs' text from `read_text`. False, the store as it was, if the
        text does not all come."""
        return absorb_columns(self, columns, read_text)

    def still_wanted(self) -> bool:
        """Asked while waiting for another process's rows: stops the loading, as a row
        would, if `announce` says so."""
        if self._announce is not None:
            self._told(len(self))
        return True

    def _add_records(self, records: Iterable[Record]) -> None:
        for record in records:
            if type(record) is Run:
                stage, missing = stage_of(record.diagnosis), record.diagnosis.get("missing")
                self.add_run(
                    record.line,
                    record.id,
                    STAGE_CODE[stage],
                    record.label,
                    record.required,
                    record.context,
                    record.question,
                    missing,
                    record.raw,
                    record.expected,
                )
            else:
                self.add_error(record)  # type: ignore[arg-type]

    def _told(self, row: int) -> None:
        """Tell `announce` how many rows are in; stop the loading if it says so."""
        if not self._announce(row):  # type: ignore[misc]
            raise _Stopped
        self._next_announce += ANNOUNCE_EVERY

    def _run_adder(self) -> Callable[..., None]:
        """`add_run` for this store: the hot loop of loading, so every column's append
        is bound once, here, and each run costs one call and one append per column."""
        store, ids = self, self.ids
        add_id, add_line = ids.append, self.lines.append
        add_stage, add_label = self.stage.append, self.file_label.append
        n_required, n_context = self.n_required.append, self.n_context.append
        questions, search_text, missing_of = self.questions.append, self.search_text.append, self.missing
        expected_of, blob = self.expected, self._blob
        add_raw, offsets = blob.extend, self._offsets.append

        def add_run(
            line: int,
            run_id: str,
            stage: int,
            label: Any,
            required: list[str] | None,
            context: list[str] | None,
            question: str | None,
            missing: list[str] | None,
            raw: bytes,
            expected: Any = NO_EXPECTED,
        ) -> None:
            row = len(ids)
            if row == store._next_announce:
                store._told(row)
            add_id(run_id)
            add_line(line)
            add_stage(stage)
            add_label(L_TRUE if label is True else L_FALSE if label is False else L_NONE)
            required = required or ()
            context = context or ()
            n_required(len(required))
            n_context(len(context))
            question = question or ""
            questions(question)
            if missing:
                missing_of[row] = tuple(missing)
            search_text("\n".join((run_id, question, *required, *context)).casefold())
            if expected is not NO_EXPECTED:
                expected_of[row] = expected
            add_raw(raw)
            offsets(len(blob))

        return add_run

    def add_error(self, error: LoadError) -> None:
        """Add a record that is not a valid run as the last row (stage `invalid`)."""
        row = len(self.ids)
        if row == self._next_announce:
            self._told(row)
        self.ids.append(error.id or "")
        self.lines.append(error.line)
        self.stage.append(S_INVALID)
        self.file_label.append(L_NONE)
        self.n_required.append(0)
        self.n_context.append(0)
        self.questions.append("")
        self.search_text.append(error_search_text(error))
        self.errors[row] = error
        self._offsets.append(len(self._blob))

    @property
    def row_of(self) -> dict[str, int]:
        """The row of each valid run's id (built on first use: only journal replay needs it)."""
        if self._row_of is None:
            errors = self.errors
            self._row_of = {run_id: row for row, run_id in enumerate(self.ids) if row not in errors}
        return self._row_of

    def resolve_ids(self, ids: Iterable[str]) -> None:
        """Nothing to do: `row_of` holds every id (a `SourceStore` looks them up here)."""

    # -- one run at a time --------------------------------------------------

    @property
    def raw_blob(self) -> bytearray:
        """Every run's own text end to end, for C-level searches (never to be changed)."""
        return self._blob

    def raw_text(self, row: int) -> bytes:
        return bytes(self._blob[self._offsets[row] : self._offsets[row + 1]])

    def raw(self, row: int) -> dict[str, Any]:
        """The run's original object, every field as in the file (empty for invalid rows).

        For a CSV file: the row, header name -> cell, with ID lists and labels parsed.
        A number beyond Python's reach reads as infinity (export keeps its digits).
        """
        text = self.raw_text(row)
        return _decode(text.decode("utf-8", "surrogatepass")) if text else {}

    def run_object(self, row: int) -> dict[str, Any]:
        """The run as the rule reads it: `raw(row)` with mapped fields under their own names."""
        raw = self.raw(row)
        return raw if self.field_map is None else self.field_map.apply(raw)

    @property
    def recall(self) -> array[float]:
        """RAGAS's ID-based context recall of each row (core.metrics); NaN where undefined."""
        return self._id_metrics()[0]

    @property
    def precision(self) -> array[float]:
        """RAGAS's ID-based context precision of each row (core.metrics); NaN where undefined."""
        return self._id_metrics()[1]

    def _id_metrics(self) -> tuple[array[float], array[float]]:
        # Worked out on first use (statistics), from the runs' text: loading, which
        # every session pays for, stays free of it.
        if self._metrics is None or len(self._metrics[0]) != len(self):
            recall, precision = array("d"), array("d")
            for row in range(len(self)):
                if row in self.errors:
                    recall.append(NAN)
                    precision.append(NAN)
                    continue
                fields = self.fields(row) if self.field_map is not None else None
                if fields is None:
                    try:
                        fields = decode_fields(self.raw_text(row))
                    except ValueError:
                        fields = self.fields(row)
                run_recall, run_precision = id_metrics(fields.required, fields.context)
                recall.append(run_recall)
                precision.append(run_precision)
            self._metrics = recall, precision
        return self._metrics

    def fields(self, row: int) -> RunFields:
        """The rule's fields of one valid run, validated again from its text."""
        if self.field_map is None:
            return validate_run(self.raw(row))
        return validate_mapped(self.raw(row), self.field_map)

    def diagnosis(self, row: int) -> dict[str, Any]:
        """The run's diagnosis as it stands (the label in force once a review changed it),
        built from its stage and missing IDs exactly as the rule gives it."""
        code = self.stage[row]
        if code == S_INVALID:
            raise ValueError(f"line {self.lines[row]} is not a valid run")
        if code == S_RETRIEVAL:
            return {"stage": STAGE_NAMES[code], "missing": list(self.missing[row])}
        if code in (S_GENERATION, S_PASS):
            return {"stage": STAGE_NAMES[code], "missing": []}
        if code == S_UNRESOLVED:
            return {"stage": STAGE_NAMES[code]}
        return {"error": STAGE_NAMES[code]}

    def is_valid(self, row: int) -> bool:
        return self.stage[row] != S_INVALID

    # -- whole-file figures -------------------------------------------------

    def missed_documents(self) -> Counter[str]:
        """How many runs miss each document (label-independent)."""
        counts: Counter[str] = Counter()
        for ids in self.missing.values():
            counts.update(ids)
        return counts


def store_means(store: RunStore) -> MetricMeans:
    """The means of a store's recall and precision columns, computed once per store size
    and kept with the store: the metrics read only the ID lists, so no review changes them."""
    if store._means is None or store._means[0] != len(store):
        store._means = (len(store), metric_means(store.recall, store.precision))
    return store._means[1]


COLUMNS = ("ids", "lines", "stage", "file_label", "n_required", "n_context", "questions", "search_text")
"""The columns of every row, appended in order by `absorb_columns`."""


def columns_of(store: RunStore) -> dict[str, Any]:
    """A store's rows as plain columns, for another store to `absorb` (`split_child`):
    the per-row maps keyed by row, the runs' text apart (`text`), its run ends in `offsets`."""
    columns: dict[str, Any] = {name: getattr(store, name) for name in COLUMNS}
    columns.update(missing=store.missing, errors=store.errors, expected=store.expected)
    columns.update(offsets=store._offsets, text=store._blob, text_size=len(store._blob))
    return columns


def absorb_columns(
    store: RunStore, columns: dict[str, Any], read_text: Callable[[bytearray, int], bool]
) -> bool:
    """Append `columns` (from `columns_of`) to `store` as its last rows; see `RunStore.absorb`."""
    blob, base = store._blob, len(store)
    text_start = len(blob)
    if not read_text(blob, columns["text_size"]):
        del blob[text_start:]
        return False
    for name in COLUMNS:
        getattr(store, name).extend(columns[name])
    for name in ("missing", "errors", "expected"):
        getattr(store, name).update({base + row: value for row, value in columns[name].items()})
    store._offsets.extend([text_start + end for end in columns["offsets"][1:]])
    return True
