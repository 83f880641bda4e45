"""One file of a dataset read by the core's own loaders: one verdict per run, in file order.

This is what each Spark task runs, in a Python worker, on one file: no Spark here, so
it is tested on its own. The rule is never restated: each record goes through the
loaders' `RecordBuilder` (JSON Lines lines) or `parquet_runs.read_rows` and the builder
(Parquet rows), exactly as `diagnose FILE` reads it, with two differences that the
dataset contract sets (ENGINE_CONTRACT.md):

- a run without a string id is named `<file relative to root>:<N>` (N its line or
  row), not by its position in the file;
- a repeated id is one more run, not an invalid one (the builder is told nothing of
  earlier records: its memory of ids is cleared before each one).

JSON Lines lines are split exactly as the local loader splits them (at `\\n`, a
trailing `\\r` kept for the builder to strip), so line numbers are the file's own.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from ...core.runs import parquet_runs
from ...core.runs.loading import LoadError, RecordBuilder, Run, parquet_record, unreadable_parquet
from ...core.runs.mapping import FieldMap
from ...core.runs.rule import RETRIEVAL, stage_of
from ..records import error_diagnosis, exact_object, file_id
from ..results import dataset_run_id, value_text

INVALID = "invalid"
"""The stage word of an invalid line (a record that is not a run the rule can evaluate)."""

_FIRST_POSITION = "1"  # what the builder names an unnamed run when it starts afresh on each record
_BOM = b"\xef\xbb\xbf"


class FileUnreadable(Exception):
    """A file of the dataset that cannot be read at all (gone, not readable, not Parquet after
    all). The message names it as the dataset does; the driver says it in one line."""


@dataclass(frozen=True, slots=True)
class FileTask:
    """One file of a dataset: its place in the dataset's order, where it is, how it is named."""

    index: int
    path: str
    rel: str
    format: str


@dataclass(slots=True)
class Verdict:
    """One record of a file: a run's diagnosis, or an invalid line's error.

    `stage` is the stage word (`answer-label` for the label error, `invalid` for an
    invalid line); `diagnosis` is what the local `diagnose` writes after the id (for an
    invalid line: error, field, detail); `raw` is the run's own JSON text.
    """

    line: int
    id: str | None  # None: an invalid line that names no id (as the local `diagnose` says)
    stage: str
    diagnosis: dict[str, Any]
    label: Any
    required: list[str] | None
    context: list[str] | None
    raw: bytes
    obj: Any = None  # the decoded run, when something asked for its fields


def group_value(obj: Any, field: str) -> str | None:
    """A run's group under `--group-by FIELD`: the field's text; None when absent or null."""
    return value_text(obj.get(field)) if isinstance(obj, dict) else None


class FileReader:
    """Reads the verdicts of one file. `need_object`: decode each run for its fields."""

    def __init__(self, field_map: FieldMap | None, need_object: bool = False) -> None:
        self.field_map = field_map or None
        self.builder = RecordBuilder(self.field_map)
        self.need_object = need_object

    def verdicts(self, task: FileTask) -> Iterator[Verdict]:
        """The file's verdicts; a Parquet file that cannot be read at all is one invalid run
        (`loading.unreadable_parquet`), as DuckDB's exact path says it."""
        try:
            if task.format == "parquet":
                yield from self._parquet(task)
            else:
                yield from self._lines(task)
        except parquet_runs.ParquetFileError as exc:
            yield self._verdict(task, unreadable_parquet(str(exc)), b"", None)
        except OSError as exc:
            if task.format != "parquet":
                raise FileUnreadable(f"{task.rel}: cannot read it ({exc.strerror or exc})") from None
            reason = f"cannot read it ({exc.strerror or exc})"
            yield self._verdict(task, unreadable_parquet(reason), b"", None)
        except parquet_runs.ParquetUnavailable as exc:
            raise FileUnreadable(f"{task.rel}: {exc}") from None

    def _fresh(self) -> RecordBuilder:
        builder = self.builder
        builder.position = 0
        builder.first_seen.clear()
        return builder

    def _lines(self, task: FileTask) -> Iterator[Verdict]:
        with open(task.path, "rb") as handle:
            for number, raw in enumerate(handle, 1):
                if raw.endswith(b"\n"):
                    raw = raw[:-1]
                if number == 1 and raw.startswith(_BOM):
                    raw = raw[len(_BOM) :]
                record = self._fresh().read_line(number, raw)
                if record is not None:
                    yield self._verdict(task, record, raw, None)

    def _parquet(self, task: FileTask) -> Iterator[Verdict]:
        with open(task.path, "rb") as handle:
            for number, obj, raw in parquet_runs.read_rows(handle):
                record = parquet_record(self._fresh(), number, obj, raw)
                obj = obj if isinstance(obj, dict) else None
                if record is not None:
                    yield self._verdict(task, record, raw, obj)

    def _verdict(self, task: FileTask, record: Run | LoadError, raw: bytes, obj: Any) -> Verdict:
        run_id = record.id
        if run_id == _FIRST_POSITION or self.need_object:
            if obj is None:
                obj = exact_object(raw)
            if run_id == _FIRST_POSITION:  # perhaps the builder named it by its position
                run_id = dataset_run_id(file_id(obj, self.field_map), task.rel, record.line)
        if isinstance(record, LoadError):
            return Verdict(record.line, run_id, INVALID, error_diagnosis(record), None, None, None, raw, obj)
        diagnosis = record.diagnosis
        return Verdict(
            record.line,
            run_id,
            stage_of(diagnosis),
            diagnosis,
            record.label,
            record.required,
            record.context,
            record.raw,
            obj,
        )


def is_lucky(verdict: Verdict) -> bool:
    """A lucky answer by the file's own label: a retrieval gap labelled correct."""
    return verdict.stage == RETRIEVAL and verdict.label is True
