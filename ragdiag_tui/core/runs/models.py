"""Pydantic models: the schema authority for runs at the file boundary.

Validation is strict: no string or number is coerced into a label, and document
IDs must be JSON strings. A non-boolean `correct` is *not* a schema error: the
rule turns it into the `answer-label` diagnosis, so the field accepts any value.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, StrictStr, ValidationError

from .rule import InvalidRun, json_type_name


class RunFields(BaseModel):
    """The fields of a run that the rule reads; every other field is kept aside verbatim."""

    model_config = ConfigDict(strict=True, extra="allow")

    id: StrictStr | None = None
    required: list[StrictStr] | None = None
    context: list[StrictStr] | None = None
    correct: Any = None
    question: Any = None


def _reason(error: dict[str, Any]) -> tuple[str, str]:
    loc = error.get("loc") or ()
    field = str(loc[0]) if loc else "run"
    value = error.get("input")
    if len(loc) >= 2 and isinstance(loc[1], int):
        return field, f"item {loc[1]} is {json_type_name(value)}, expected a string"
    if field in ("required", "context"):
        return field, f"expected a list of strings, got {json_type_name(value)}"
    if field == "id":
        return field, f"expected a string, got {json_type_name(value)}"
    return field, str(error.get("msg", "invalid"))


def validate_run(obj: Any) -> RunFields:
    """Validate one parsed run; raise InvalidRun naming the first bad field."""
    if not isinstance(obj, dict):
        raise InvalidRun(None, f"a run must be a JSON object, got {json_type_name(obj)}")
    try:
        return RunFields.model_validate(obj)
    except ValidationError as exc:
        field, reason = _reason(exc.errors(include_url=False)[0])
        raise InvalidRun(field, reason) from None
