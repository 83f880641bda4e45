"""Field mapping: read runs whose fields have other names.

A `FieldMap` says where each of a run's fields lives in the file's own objects,
from `--map FIELD=SOURCE` specs and named presets. A SOURCE is:

- a key: `ref_ids`;
- a dotted path into nested objects: `retrieval.doc_ids`;
- a path through one list of objects: `retrieved[].doc_id` collects `doc_id`
  from every object of the `retrieved` list, in order.

A key spelled exactly as the whole SOURCE wins over the path reading of it, so a
column named `retrieval.doc_ids` (as pandas flattens nested data) maps as is.

Mapping renames and nothing more: the mapped values then go through the same
strict validation as any run (RULE.md), and an error names the SOURCE field, as
in `field 'retrieval.doc_ids' (mapped to context): item 2 is number, expected a
string`. A mapped field takes its value only from its source: when the source
is absent, so is the field, even if the object has a key of the field's own name.

Presets may also say how a tool writes ID lists. A preset names a tool whose
results are saved with pandas' `to_csv`, which writes a list column as a Python
list literal (`['d1', 'd2']`): under every preset, an ID-list cell of a CSV may be
such a literal, parsed safely (only a list or tuple of strings and integers is
accepted; nothing is evaluated). Under `ragas`, a literal is read in JSON too, and
integer IDs are read as their decimal strings, as RAGAS compares them. No other
map changes a value: a number in an ID list stays invalid.

Pure: imports neither Textual nor pydantic, so the CLI can list presets in its
help before anything heavy is loaded.
"""

from __future__ import annotations

import ast
import contextlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from .rule import InvalidRun, json_type_name
from .texts import MatchSpecError, TextMatch

MAPPABLE = ("id", "required", "context", "correct", "question", "answer")
"""The fields a map may name, in the order they are described."""

PRESETS: dict[str, dict[str, str]] = {
    # RAGAS evaluation samples (SingleTurnSample and its dataset exports).
    "ragas": {
        "required": "reference_context_ids",
        "context": "retrieved_context_ids",
        "question": "user_input",
        "answer": "response",
    },
    # LlamaIndex retrieval evaluation results (RetrievalEvalResult): no answer label.
    "llamaindex": {"required": "expected_ids", "context": "retrieved_ids", "question": "query"},
    # DeepEval test cases and goldens (LLMTestCase, Golden): documents as texts only.
    "deepeval": {
        "required": "context",
        "context": "retrieval_context",
        "question": "input",
        "answer": "actual_output",
    },
}
"""Named maps, one line each: preset name -> {field: source}."""

TEXT_PRESETS: dict[str, dict[str, str]] = {
    # RAGAS's text columns, read when the file has no ID column (`reference_contexts`, ...).
    "ragas": {"required": "reference_contexts", "context": "retrieved_contexts"},
    # DeepEval test cases and goldens: `context` is the ideal retrieval, as texts.
    "deepeval": {"required": "context", "context": "retrieval_context"},
}
"""Per preset, where the documents are when they are given as texts."""

LENIENT_ID_PRESETS = frozenset({"ragas"})
"""Presets whose ID lists may be Python literals anywhere and hold integers (read as decimal strings).
Under any preset, a CSV's ID-list cells may be Python literals (`FieldMap.literal_lists`)."""

ID_LIST_FIELDS = ("required", "context")

_ABSENT: Any = object()


class MapSpecError(ValueError):
    """A `--map` spec or a preset name that cannot be used. The message says why."""


class MappedFieldError(InvalidRun):
    """A mapped field that is not what the rule needs. `field` is the SOURCE."""

    def __init__(self, source: str, target: str, reason: str) -> None:
        super().__init__(source, reason)
        self.mapped_to = target


class _PathError(Exception):
    """The source path met something that is not an object or a list."""


@dataclass(frozen=True, slots=True)
class SourcePath:
    """One parsed SOURCE: keys down to a value, optionally through one list."""

    source: str
    head: tuple[str, ...]
    each: tuple[str, ...] | None = None  # keys inside each item of the `[]` list

    @classmethod
    def parse(cls, source: str) -> SourcePath:
        if not source:
            raise MapSpecError("the source is empty")
        head: list[str] = []
        each: list[str] | None = None
        for segment in source.split("."):
            is_list = segment.endswith("[]")
            key = segment[:-2] if is_list else segment
            if not key:
                raise MapSpecError(f"'{source}' has an empty key; write keys joined by '.'")
            if "[" in key or "]" in key:
                raise MapSpecError(
                    f"'{source}': only a key followed by [] (every item of a list) is supported, "
                    "as in retrieved[].doc_id"
                )
            if is_list and each is not None:
                raise MapSpecError(f"'{source}' goes through more than one list ([]); only one is supported")
            (head if each is None else each).append(key)
            if is_list:
                each = []
        if each is not None and not each:
            raise MapSpecError(f"'{source}': [] must be followed by a key, as in retrieved[].doc_id")
        return cls(source, tuple(head), None if each is None else tuple(each))

    def read(self, obj: dict[str, Any]) -> Any:
        """The value at this path in `obj`, or `_ABSENT`. Raises _PathError."""
        if self.source in obj:
            return obj[self.source]
        value = _walk(obj, self.head)
        if self.each is None or value is _ABSENT or value is None:
            return value
        where = ".".join(self.head)
        if not isinstance(value, list):
            raise _PathError(f"'{where}' is {json_type_name(value)}, expected a list")
        found = []
        for position, item in enumerate(value):
            got = _walk(item, self.each, f"{where}[{position}]")
            if got is _ABSENT:
                raise _PathError(f"'{where}[{position}]' has no '{'.'.join(self.each)}'")
            found.append(got)
        return found


def _walk(value: Any, keys: tuple[str, ...], prefix: str = "") -> Any:
    """Follow `keys` down nested objects. Null on the way means absent (null).

    `prefix` names where `value` sits, for the error: "" at the top of a run, or
    "retrieved[2]" for an item of the `[]` list.
    """
    for depth, key in enumerate(keys):
        if value is None:
            return None
        if not isinstance(value, dict):
            walked = ".".join(keys[:depth])
            where = f"{prefix}.{walked}" if prefix and walked else prefix or walked
            raise _PathError(f"'{where}' is {json_type_name(value)}, expected an object")
        value = value.get(key, _ABSENT)
        if value is _ABSENT:
            return _ABSENT
    return value


def literal_id_list(text: str) -> list[str | int]:
    """A Python list (or tuple) literal of strings and integers, as RAGAS's CSV holds lists.

    The text is parsed, never run: anything but a flat list or tuple of string and
    integer constants raises ValueError.
    """
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        raise ValueError("not a list of IDs: write ['a', 'b'], [\"a\", \"b\"] or a;b") from None
    node = tree.body
    if not isinstance(node, (ast.List, ast.Tuple)):
        raise ValueError("not a list of IDs: write ['a', 'b'], [\"a\", \"b\"] or a;b")
    for position, item in enumerate(node.elts):
        if not isinstance(item, ast.Constant) or type(item.value) not in (str, int):
            raise ValueError(f"item {position} of the list is not a string or an integer")
    return list(ast.literal_eval(node))


def lenient_ids(value: Any) -> Any:
    """An ID list as the lenient presets read it: a literal parsed, integers as text."""
    if isinstance(value, str) and value.lstrip()[:1] in ("[", "("):
        try:
            value = literal_id_list(value)
        except ValueError:
            return value  # validation names the field and says it is not a list
    if isinstance(value, list):
        return [str(item) if type(item) is int else item for item in value]
    return value


def reading_of(field_map: FieldMap | None) -> tuple[str, ...]:
    """`field_map.reading()`, or nothing without a map."""
    return tuple(field_map.reading()) if field_map is not None else ()


def _text_list(value: Any, source: str, field: str) -> Any:
    """A preset's text column as a list of texts (a Python literal parsed); else an error naming it."""
    if isinstance(value, str) and value.lstrip()[:1] in ("[", "("):
        with contextlib.suppress(ValueError):  # not a literal: the error below names the column
            value = literal_id_list(value)
    if value is None:
        return None
    if not isinstance(value, list):
        raise MappedFieldError(source, field, f"expected a list of texts, got {json_type_name(value)}")
    for position, item in enumerate(value):
        if not isinstance(item, str):
            raise MappedFieldError(
                source, field, f"item {position} is {json_type_name(item)}, expected a text"
            )
    return value


def _all_texts(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(item, str) for item in value)


def score_label(value: Any, threshold: float) -> Any:
    """A numeric label as the rule's label: True when `value >= threshold`, False below.

    Only numbers are read: a JSON boolean stays the label it is, and anything else
    (null, text, NaN) is left as it is, so the rule gives `answer-label`.
    """
    if value.__class__ in (int, float) and value == value:
        return value >= threshold
    return value


def label_rule(source: str, threshold: float) -> str:
    """'correct = answer_correctness >= 0.7': the label rule in force, written out."""
    return f"correct = {source} >= {threshold:g}"


def parse_spec(spec: str) -> tuple[str, str]:
    """`FIELD=SOURCE` as (field, source). Raises MapSpecError with the valid fields."""
    field, sep, source = spec.partition("=")
    field = field.strip()
    if not sep:
        raise MapSpecError(f"'{spec}' is not FIELD=SOURCE, e.g. context=retrieval.doc_ids")
    if field not in MAPPABLE:
        raise MapSpecError(f"unknown field '{field}' in '{spec}'; mappable fields: {', '.join(MAPPABLE)}")
    SourcePath.parse(source)
    return field, source


class FieldMap:
    """Where each mapped field of a run lives. An empty map changes nothing."""

    def __init__(
        self,
        sources: Mapping[str, str] | None = None,
        *,
        lenient_ids: bool = False,
        literal_lists: bool = False,
        text_match: TextMatch | None = None,
        text_sources: Mapping[str, str] | None = None,
        label_threshold: float | None = None,
    ) -> None:
        # lenient_ids: ID lists may be Python literals and integers read as text (`ragas`).
        self.lenient_ids = lenient_ids
        # literal_lists: a CSV's ID-list cells may be Python literals, as pandas writes lists (any preset).
        self.literal_lists = literal_lists or lenient_ids
        self.preset: str | None = None
        # text_match: `required` and `context` are lists of texts, matched so (`texts`).
        self.text_match = text_match
        # text_sources: where the texts are for a run with neither ID list (a preset's fallback).
        self.text_sources: dict[str, str] = dict(text_sources or {})
        self._text_paths = {field: SourcePath.parse(source) for field, source in self.text_sources.items()}
        self._fallback_match = TextMatch() if self.text_sources else None
        self.texts_read = False  # whether a run was read from the preset's texts (`reading`)
        # label_threshold: a numeric label is correct when at least this (`score_label`).
        self.label_threshold = label_threshold
        self.sources: dict[str, str] = {}
        self._paths: dict[str, SourcePath] = {}
        for field, source in (sources or {}).items():
            if field not in MAPPABLE:
                raise MapSpecError(f"unknown field '{field}'; mappable fields: {', '.join(MAPPABLE)}")
            self.sources[field] = source
            self._paths[field] = SourcePath.parse(source)

    @classmethod
    def from_specs(
        cls,
        specs: Iterable[str] = (),
        preset: str | None = None,
        match: str | None = None,
        label_threshold: float | None = None,
    ) -> FieldMap:
        """A preset, then `FIELD=SOURCE` specs over it (a later spec for a field wins);
        `match` (`--match`: ids, text, similarity[:T]) and `--label-threshold` with them."""
        sources: dict[str, str] = {}
        try:
            text_match = TextMatch.parse(match) if match else None
        except MatchSpecError as exc:
            raise MapSpecError(str(exc)) from None
        fallback: dict[str, str] = {}
        if preset is not None:
            if preset not in PRESETS:
                raise MapSpecError(f"unknown preset '{preset}'; presets: {', '.join(sorted(PRESETS))}")
            sources.update(PRESETS[preset])
            texts = TEXT_PRESETS.get(preset, {})
            if text_match is not None or (texts and texts.items() <= PRESETS[preset].items()):
                sources.update(texts)
                text_match = text_match or TextMatch()
            elif match is None:
                fallback.update(texts)
        for spec in specs:
            field, source = parse_spec(spec)
            if sources.get(field) != source:  # mapped elsewhere: the preset's texts are not its
                fallback.pop(field, None)
            sources[field] = source
        field_map = cls(
            sources,
            lenient_ids=preset in LENIENT_ID_PRESETS,
            literal_lists=preset is not None or text_match is not None,
            text_match=text_match,
            text_sources=fallback if len(fallback) == len(ID_LIST_FIELDS) else None,
            label_threshold=label_threshold,
        )
        field_map.preset = preset
        return field_map

    def __bool__(self) -> bool:
        return bool(self.sources) or self.text_match is not None or self.label_threshold is not None

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, FieldMap)
            and other.sources == self.sources
            and other.lenient_ids == self.lenient_ids
            and other.literal_lists == self.literal_lists
            and other.text_match == self.text_match
            and other.text_sources == self.text_sources
            and other.label_threshold == self.label_threshold
        )

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"FieldMap({self.sources!r})"

    def describe(self) -> str:
        """'context=retrieval.doc_ids, required=refs': the map as one would write it."""
        return ", ".join(f"{field}={source}" for field, source in self.sources.items())

    def to_args(self) -> list[str]:
        """The map as command-line arguments, for a command run in another process."""
        args: list[str] = ["--preset", self.preset] if self.preset else []
        for field, source in self.sources.items():
            args += ["--map", f"{field}={source}"]
        if self.text_match is not None:
            args += ["--match", self.text_match.spec()]
        elif self.preset and not self.text_sources and TEXT_PRESETS.get(self.preset):
            args += ["--match", "ids"]
        if self.label_threshold is not None:
            args += ["--label-threshold", repr(self.label_threshold)]
        return args

    def reading(self) -> list[str]:
        """How this map reads a run where it departs from IDs and boolean labels, a line each
        (shown with every figure and label: the summary, stats, the report, export)."""
        lines = []
        if self.text_match is not None:
            lines.append(f"documents: {self.text_match.describe()}")
        elif self.texts_read:
            texts = ", ".join(self.text_sources[field] for field in ID_LIST_FIELDS)
            lines.append(
                f"documents: the texts of {texts} where a run has no ID lists (content IDs t:...), "
                "matched exactly (after Unicode NFC)"
            )
        rule = self.label_rule()
        if rule is not None:
            lines.append(f"label: {rule} (below: incorrect; no number: the answer-label error)")
        return lines

    def brief(self) -> str | None:
        """The reading in a few words, for a line of the app: 'correct = answer_correctness >=
        0.7 · texts, similarity > 0.5'; None when runs are read as IDs and boolean labels."""
        parts = []
        rule = self.label_rule()
        if rule is not None:
            parts.append(rule)
        if self.text_match is not None:
            parts.append(self.text_match.brief())
        elif self.texts_read:
            parts.append("texts, exact")
        return " · ".join(parts) or None

    def label_rule(self) -> str | None:
        """What "correct" means under `--label-threshold`, in words; None without it."""
        if self.label_threshold is None:
            return None
        return label_rule(self.source("correct"), self.label_threshold)

    def source(self, field: str) -> str:
        """Where `field` is read from: its source, or the field's own name when unmapped."""
        return self.sources.get(field, field)

    def apply(self, obj: Any) -> Any:
        """A new dict: `obj` with each mapped field set from its source (or removed).

        `obj` itself is left untouched; anything but a dict is returned as is, for
        validation to reject. Raises MappedFieldError when a path cannot be followed.
        """
        if not isinstance(obj, dict):
            return obj
        out = dict(obj)
        for field, path in self._paths.items():
            try:
                value = path.read(obj)
            except _PathError as exc:
                raise MappedFieldError(path.source, field, str(exc)) from None
            if value is _ABSENT:
                out.pop(field, None)
            else:
                out[field] = lenient_ids(value) if self.lenient_ids and field in ID_LIST_FIELDS else value
        match = self.text_match
        if match is None and self._fallback_match is not None and self._reads_texts(out):
            match = self._fallback_match
            self.texts_read = True
        if match is not None:
            out["required"], out["context"] = match.ids(out.get("required"), out.get("context"))
            for field in ID_LIST_FIELDS:
                if out[field] is None:
                    del out[field]
        if self.label_threshold is not None and "correct" in out:
            out["correct"] = score_label(out["correct"], self.label_threshold)
        return out

    def texts_of(self, obj: Any) -> tuple[TextMatch, list[str], list[str]] | None:
        """A run's documents as texts, (the match, required texts, supplied texts), when
        this map reads them as texts; None for a run of IDs (or one that cannot be read)."""
        if not isinstance(obj, dict) or (self.text_match is None and self._fallback_match is None):
            return None
        try:
            out = dict(obj)
            for field, path in self._paths.items():
                if field in ID_LIST_FIELDS:
                    value = path.read(obj)
                    out[field] = None if value is _ABSENT else value
                    if self.lenient_ids and out[field] is not None:
                        out[field] = lenient_ids(out[field])
            match = self.text_match
            if match is None and self._fallback_match is not None and self._reads_texts(out):
                match = self._fallback_match
        except (_PathError, MappedFieldError):
            return None
        lists = [out.get(field) or [] for field in ID_LIST_FIELDS]
        if match is None or not all(_all_texts(value) for value in lists):
            return None
        return match, lists[0], lists[1]

    def _reads_texts(self, out: dict[str, Any]) -> bool:
        """Whether a run has neither ID list but the preset's texts: they are read instead."""
        if any(out.get(field) is not None for field in ID_LIST_FIELDS):
            return False
        found = False
        for field, path in self._text_paths.items():
            try:
                value = path.read(out)
            except _PathError as exc:
                raise MappedFieldError(path.source, field, str(exc)) from None
            if value is not _ABSENT:
                value = _text_list(value, path.source, field)
                out[field] = value
                found = found or value is not None
        return found

    def renamed(self, error: InvalidRun) -> InvalidRun:
        """A validation error on a mapped field, restated to name its source."""
        source = self.sources.get(error.field) if error.field else None
        if isinstance(error, MappedFieldError) or source is None or source == error.field:
            return error
        return MappedFieldError(source, error.field, error.reason)

    def id_of(self, obj: Any) -> str | None:
        """The run's id as mapped, when it is a string; never raises."""
        if not isinstance(obj, dict):
            return None
        path = self._paths.get("id")
        try:
            value = obj.get("id") if path is None else path.read(obj)
        except _PathError:
            return None
        return value if isinstance(value, str) else None
