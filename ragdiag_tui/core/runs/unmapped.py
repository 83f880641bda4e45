"""A run file whose runs hold none of the rule's fields under the map in use.

Without `--map` or `--preset`, a file in another shape (`gold_ids`, `retrieval.hits[]`, a
`label`) would be diagnosed run by run as `unresolved`, the rule's answer to a run without
`required`, and nothing would say why. `find_unmapped` reads the first runs of the file (a
few hundred, so it answers at once whatever the file's size) and, when none of them has
`required`, `context` or `correct` as the map reads them, says what the file holds instead
and how to map it: the fields of its first runs and a suggested command line.
"""

from __future__ import annotations

import os
import shlex
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import islice
from typing import TYPE_CHECKING, Any

from ..common.jsonutil import decode
from .loading import Run, read_runs
from .mapping import PRESETS, FieldMap, MappedFieldError, literal_id_list

if TYPE_CHECKING:
    from .store import RunStore

RULE_FIELDS = ("required", "context", "correct")
LOOKED_AT = 200  # runs read from the start of the file to judge it
SHOWN_RUNS = 5  # first runs whose fields are listed
SHOWN_KEYS = 8  # keys listed inside one object

# Words in a field's name that suggest where each rule field is, the likelier first.
HINTS = {
    "required": ("required", "gold", "reference", "expected", "relevant", "truth", "needed"),
    "context": ("context", "retrieved", "supplied", "hits", "passages", "documents", "docs", "chunks"),
    "correct": ("correct", "label", "verdict", "judgement", "judgment", "accurate", "pass", "score"),
}


@dataclass(frozen=True, slots=True)
class Unmapped:
    """What to tell the user about a file whose runs hold none of the rule's fields."""

    path: str
    looked_at: int  # the runs read
    whole_file: bool  # whether those were all the file's runs
    fields: tuple[str, ...]  # the fields of its first runs, an object's keys inside {}
    suggestion: tuple[str, ...]  # `--preset NAME` or `--map FIELD=SOURCE` arguments
    texts: tuple[str, ...] = ()  # fields holding lists of texts (documents given as texts)

    def texts_line(self) -> str:
        """What to say of the fields that hold documents as texts ("" when none do)."""
        if not self.texts:
            return ""
        return (
            f"its runs hold documents as texts in {', '.join(self.texts)}: --preset ragas, "
            "--preset deepeval or --match text (or similarity) reads them"
        )

    def headline(self) -> str:
        runs = "no run" if self.whole_file else f"none of the first {self.looked_at} runs"
        return (
            f"{self.path}: {runs} has the rule's fields ({', '.join(RULE_FIELDS)}) under the map "
            "in use, so every run would be diagnosed unresolved"
        )

    def lines(self, command: str = "review", files: Sequence[str] = ()) -> list[str]:
        """The message, a line each: what is wrong, the fields found, how to map them
        (`files`: the command's run files, when not this file alone, as `compare OLD NEW`)."""
        texts = self.texts_line()
        return [
            self.headline(),
            f"  its runs' fields: {', '.join(self.fields) or 'none'}",
            *([f"  {texts}"] if texts else []),
            "  say where the rule's fields are with --map FIELD=SOURCE or --preset NAME, for example:",
            f"    {self.command_line(command, files)}",
        ]

    def paragraph(self, command: str = "review") -> str:
        """The message as one paragraph, for a notification."""
        fields = ", ".join(self.fields) or "none"
        texts = f" Its {self.texts_line().removeprefix('its ')}." if self.texts else ""
        return (
            f"{self.headline()}. Its runs' fields: {fields}.{texts} Say where the rule's fields are with "
            f"--map FIELD=SOURCE or --preset NAME, for example: {self.command_line(command)}"
        )

    def command_line(self, command: str = "review", files: Sequence[str] = ()) -> str:
        """The command again with the suggested map (SOURCE where no field looks right)."""
        words = ["ragdiag-tui", command, *(files or [self.path]), *self.suggestion]
        return " ".join(shlex.quote(word) for word in words)


def find_unmapped(path: str | os.PathLike[str], field_map: FieldMap | None = None) -> Unmapped | None:
    """An `Unmapped` when the first runs of the file hold none of the rule's fields, else None.

    Raises loading.FileError when the file cannot be read at all.
    """
    return unmapped_in(os.fspath(path), read_runs(path, field_map=field_map), field_map)


def unmapped_in(path: str, records: Iterable[Any], field_map: FieldMap | None) -> Unmapped | None:
    """`find_unmapped` over records already being read (`Run`s and load errors)."""
    return unmapped_among(path, _run_objects(records), field_map)


def unmapped_in_store(store: RunStore) -> Unmapped | None:
    """`find_unmapped` over a store already filled: its first valid runs, not the file again."""
    return unmapped_among(store.path, _store_objects(store), store.field_map)


def _store_objects(store: RunStore) -> Iterator[dict[str, Any]]:
    for row in range(len(store)):
        if row in store.errors:
            continue
        try:
            obj = store.raw(row)
        except ValueError:
            continue
        if isinstance(obj, dict):
            yield obj


def unmapped_among(
    path: str, objects: Iterable[dict[str, Any]], field_map: FieldMap | None
) -> Unmapped | None:
    """`find_unmapped` over the runs' objects as read from the file."""
    runs = list(islice(objects, LOOKED_AT + 1))
    whole_file = len(runs) <= LOOKED_AT
    runs = runs[:LOOKED_AT]
    if not runs or any(_has_rule_field(run, field_map) for run in runs):
        return None
    shown = runs[:SHOWN_RUNS]
    texts = _text_fields(shown)
    suggestion = _suggest(shown, field_map)
    if (
        texts
        and "--preset" not in suggestion
        and any(f"={name}" in arg for arg in suggestion for name in texts)
    ):
        suggestion += ("--match", "text")
    return Unmapped(path, len(runs), whole_file, _describe_fields(shown), suggestion, texts)


def _text_fields(runs: list[dict[str, Any]]) -> tuple[str, ...]:
    """The top-level fields holding lists of texts (an item with a space in it), in order."""
    found: dict[str, None] = {}
    for run in runs:
        for name, value in run.items():
            if isinstance(value, str) and value.lstrip()[:1] == "[":
                try:
                    value = literal_id_list(value)
                except ValueError:
                    continue
            if isinstance(value, list) and any(isinstance(item, str) and " " in item for item in value):
                found[name] = None
    return tuple(found)


def _run_objects(records: Iterable[Any]) -> Iterator[dict[str, Any]]:
    for record in records:
        if type(record) is Run:
            try:
                obj = decode(record.raw.decode("utf-8", "surrogatepass"))
            except ValueError:
                continue
            if isinstance(obj, dict):
                yield obj


def _has_rule_field(obj: dict[str, Any], field_map: FieldMap | None) -> bool:
    try:
        mapped = field_map.apply(obj) if field_map else obj
    except MappedFieldError:  # the source is there, in the wrong shape: mapped all the same
        return True
    return any(name in mapped for name in RULE_FIELDS)


def _describe_fields(runs: list[dict[str, Any]]) -> tuple[str, ...]:
    """Each top-level field of the runs once, in order; an object's (or a list of objects') keys in {}."""
    described: dict[str, str] = {}
    for run in runs:
        for name, value in run.items():
            if name not in described:
                described[name] = name + _inside(value)
    return tuple(described.values())


def _inside(value: Any) -> str:
    if isinstance(value, list) and value and isinstance(value[0], dict):
        return "[]" + _inside(value[0])
    if not isinstance(value, dict) or not value:
        return ""
    keys = list(value)
    more = ", ..." if len(keys) > SHOWN_KEYS else ""
    return "{" + ", ".join(keys[:SHOWN_KEYS]) + more + "}"


def _suggest(runs: list[dict[str, Any]], field_map: FieldMap | None) -> tuple[str, ...]:
    """`--preset NAME` when the runs hold a preset's ID lists, else a `--map` per rule field."""
    if field_map is None or not field_map:
        for name, sources in PRESETS.items():
            preset = FieldMap.from_specs((), name)
            if sources.get("required") and all(_has_rule_field(run, preset) for run in runs):
                return ("--preset", name)
    paths = _sources(runs)
    args: list[str] = []
    named = field_map is not None and "id" in field_map.sources
    if not named and not any("id" in run for run in runs):  # runs named by their position: an id nested?
        nested_id = next(
            (path for path, value in paths.items() if path.endswith(".id") and isinstance(value, str)), None
        )
        args += ["--map", f"id={nested_id}"] if nested_id else []
    for field in RULE_FIELDS:
        args += ["--map", f"{field}={_likeliest(field, paths)}"]
    label = paths.get(args[-1].removeprefix("correct="))
    if label.__class__ in (int, float) and (field_map is None or field_map.label_threshold is None):
        args += ["--label-threshold", "0.5"]  # a score: the rule needs a threshold to read it
    return tuple(args)


def _sources(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """Every SOURCE (as `--map` writes it) down to two levels, with a value found there."""
    paths: dict[str, Any] = {}

    def walk(value: Any, prefix: str, depth: int) -> None:
        if isinstance(value, dict) and depth < 3:
            for key, inner in value.items():
                path = f"{prefix}.{key}" if prefix else key
                paths.setdefault(path, inner)
                walk(inner, path, depth + 1)
        elif isinstance(value, list) and value and isinstance(value[0], dict) and "[]" not in prefix:
            for key, inner in value[0].items():
                paths.setdefault(f"{prefix}[].{key}", [inner])

    for run in runs:
        walk(run, "", 0)
    return paths


def _fits(field: str, value: Any) -> bool:
    if field == "correct":
        return isinstance(value, bool) or value.__class__ in (int, float)
    return isinstance(value, list) and all(isinstance(item, (str, int)) for item in value)


def _likeliest(field: str, paths: dict[str, Any]) -> str:
    """The first path whose last key, else whose whole path, holds a hint and a value that fits."""
    for name_of in (lambda path: path.rsplit(".", 1)[-1], lambda path: path):
        for hint in HINTS[field]:
            for path, value in paths.items():
                if hint in name_of(path).lower() and _fits(field, value):
                    return path
    return "SOURCE"
