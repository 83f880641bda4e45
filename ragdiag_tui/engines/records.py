"""What both engines' exact paths (DuckDB's `pyrows`, Spark's `verdicts`) make of one record
of a file: a run's own id, its JSON decoded with numbers as written, an invalid line's error.
The rule and the loaders stay the core's; these are only the dataset's ways of naming and
reporting them (see `results`)."""

from __future__ import annotations

from typing import Any

from ..core.common.jsonutil import decode_exact
from ..core.output.diagnose import error_line
from ..core.runs.loading import LoadError
from ..core.runs.mapping import FieldMap


def file_id(obj: Any, field_map: FieldMap | None) -> str | None:
    """The id field of a run object (mapped), when it is a string."""
    return (field_map or FieldMap()).id_of(obj)


def exact_object(raw: bytes) -> Any:
    """The run's JSON, numbers as written (as the app's filter reads them); None if unreadable."""
    try:
        return decode_exact(raw.decode("utf-8", "surrogatepass"))
    except (ValueError, RecursionError):
        return None


def error_diagnosis(error: LoadError) -> dict[str, Any]:
    """An invalid line's error as the local `diagnose` writes it: error, field (if any), detail."""
    line = error_line(error)
    del line["line"]
    line.pop("id", None)
    return line


def error_row(error: LoadError, file: str) -> dict[str, Any]:
    """An invalid line as a dataset's diagnosis row: the local `diagnose` line, with its file."""
    row: dict[str, Any] = {} if error.id is None else {"id": error.id}
    row["file"] = file
    row["line"] = error.line
    row.update(error_diagnosis(error))
    return row
