"""The diagnosis rule: the reference evaluator of RULE.md, restated in Python.

`diagnose` returns exactly what the seed's JavaScript `evaluate` returns for every
run it can evaluate, key for key and in the same order of `missing`. Runs the
reference cannot evaluate raise `InvalidRun`, which names the field.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

UNRESOLVED = "unresolved"
RETRIEVAL = "retrieval"
GENERATION = "generation"
PASS = "pass"
LABEL_ERROR = "answer-label"


class InvalidRun(ValueError):
    """A run the reference rule cannot evaluate. `field` names the culprit."""

    def __init__(self, field: str | None, reason: str) -> None:
        self.field = field
        self.reason = reason
        super().__init__(f"{field}: {reason}" if field else reason)


def js_sorted(ids: Iterable[str]) -> list[str]:
    """Sort as JavaScript's default `Array.prototype.sort` does: by UTF-16 code units.

    For strings of BMP characters this is code point order, which Python gives for
    free; only astral characters (surrogate pairs in UTF-16) need the slower key.
    """
    ordered = sorted(ids)
    if len(ordered) < 2 or "".join(ordered).isascii():
        return ordered
    return sorted(ordered, key=lambda s: s.encode("utf-16-be", "surrogatepass"))


def json_type_name(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    if isinstance(value, Mapping):
        return "object"
    return type(value).__name__


def check_id_list(run: Mapping[str, Any], field: str) -> list[str] | None:
    """The run's `field` as a list of strings; None when absent or null.

    Raises InvalidRun when it is present but not a list of strings.
    """
    value = run.get(field)
    if value is None:
        return None
    if not isinstance(value, list):
        raise InvalidRun(field, f"expected a list of strings, got {json_type_name(value)}")
    for position, item in enumerate(value):
        if not isinstance(item, str):
            raise InvalidRun(field, f"item {position} is {json_type_name(item)}, expected a string")
    return value


SCAN_MOST = 64  # required x supplied IDs up to which a look through the lists beats two sets


def missing_ids(required: list[str], context: list[str]) -> list[str]:
    """Distinct required IDs absent from context, in the reference's order."""
    if len(required) * len(context) <= SCAN_MOST:  # most runs: a few IDs each, no set built
        absent = [doc for doc in required if doc not in context]
        return js_sorted(set(absent)) if len(absent) > 1 else absent
    missing = set(required).difference(context)
    return js_sorted(missing) if missing else []


def diagnose(run: Any) -> dict[str, Any]:
    """Diagnose one run (a mapping as parsed from JSON), exactly as the reference does."""
    if not isinstance(run, Mapping):
        raise InvalidRun(None, f"a run must be a JSON object, got {json_type_name(run)}")
    required = check_id_list(run, "required")
    context = check_id_list(run, "context")
    return diagnose_fields(required, context, run.get("correct"))


def outcome(
    required: list[str] | None, context: list[str] | None, label: object
) -> tuple[str, list[str] | None]:
    """The rule on fields already known to be lists of strings (or None when absent), as
    (stage, missing): `stage_of` the diagnosis, and its `missing` (None when it has none).

    The loaders use this form (no dict per run); `diagnose_fields` gives the dict.
    """
    if not required:
        return UNRESOLVED, None
    if label is not True and label is not False:
        return LABEL_ERROR, None
    if context is None:
        raise InvalidRun("context", "absent, but the run has required IDs to check")
    missing = missing_ids(required, context)
    if missing:
        return RETRIEVAL, missing
    return PASS if label else GENERATION, missing


def as_diagnosis(stage: str, missing: list[str] | None) -> dict[str, Any]:
    """The diagnosis, as the reference returns it, of an `outcome`."""
    if missing is not None:
        return {"stage": stage, "missing": missing}
    if stage == LABEL_ERROR:
        return {"error": stage}
    return {"stage": stage}


def diagnose_fields(required: list[str] | None, context: list[str] | None, label: object) -> dict[str, Any]:
    """The rule on fields already known to be lists of strings (or None when absent)."""
    return as_diagnosis(*outcome(required, context, label))


def stage_of(diagnosis: Mapping[str, Any]) -> str:
    """One word for a diagnosis: its stage, or `answer-label` for the label error."""
    return diagnosis.get("stage") or diagnosis["error"]
