"""Issue 9, class 2: one bad line (or element) costs that line, never the rest of the file.

Format detection must not depend on whether line 1 parses: a JSON Lines file whose
first line(s) are broken loads every later line exactly as it does when line 1 is
fine (names, positions, errors), and is still streamed; a bad element of a JSON
array or `runs` object costs that element only.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from ragdiag_tui.core.runs.detect import detect
from ragdiag_tui.core.runs.loading import INVALID_JSON, INVALID_RUN, FileError, LoadError, Run, read_runs

GOOD_LINES = [
    {"id": "a", "required": ["D1"], "context": ["D1"], "correct": True},
    {"required": ["D1", "D2"], "context": ["D1"], "correct": False},  # named by its position
    {"id": "c", "required": ["D1"], "context": "D1", "correct": True},  # invalid: context
    {"id": "a", "required": ["D1"], "context": ["D1"], "correct": True},  # duplicate of line 2's id
    {"required": ["D9"], "context": ["D1"], "correct": True, "runs": [1]},  # has a `runs` field
]
FINE_FIRST = '{"id": "first", "required": ["D1"], "context": ["D1"], "correct": true}'
BROKEN_FIRST = {
    "nan-and-infinity": '{"id": "x", "required": ["D1"], "context": ["D1"], "correct": true, "s": NaN}',
    "lowercase-nan": '{"id": "x", "required": ["D1"], "context": ["D1"], "correct": true, "s": nan}',
    "two-objects": '{"id": "x"}{"id": "y"}',
    "trailing-text": '{"id": "x", "required": ["D1"], "context": ["D1"]} and more',
    "array-of-numbers": "[1,2]",
    "array-holding-a-run": '[{"id": "x", "required": ["D1"], "context": ["D1"], "correct": true}]',
    "run-with-runs-field": '{"runs": [], "required": ["D1"], "context": [], "correct": false}',
    "runs-object-only": '{"runs": [{"id": "inner", "required": ["D1"], "context": ["D1"]}]}',
    "cut-short": '{"id": "x", "required": ["D1", "D',
    "unclosed-string": '{"id": "x, "required": ["D1"]',
    "lone-brace": "{",
    "lone-bracket": "[",
    "wrong-bracket": '{"id": "x", "required": ["D1"}',
}


def summary(path: Path) -> list[tuple[Any, ...]]:
    out = []
    for r in read_runs(path):
        if isinstance(r, Run):
            out.append((r.line, r.id, r.diagnosis, r.raw))
        else:
            out.append((r.line, r.kind, r.field, r.id, r.detail))
    return out


def write(path: Path, first: list[str]) -> Path:
    path.write_text("\n".join([*first, *(json.dumps(run) for run in GOOD_LINES)]) + "\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("first", list(BROKEN_FIRST.values()), ids=list(BROKEN_FIRST))
@pytest.mark.parametrize("count", [1, 3])
def test_broken_first_lines_cost_only_themselves(tmp_path: Path, first: str, count: int) -> None:
    fines = [FINE_FIRST.replace("first", f"first-{number}") for number in range(count)]
    fine = summary(write(tmp_path / "fine.jsonl", fines))
    broken = summary(write(tmp_path / "broken.jsonl", [first] * count))
    later = [record for record in broken if record[0] > count]
    assert later == [record for record in fine if record[0] > count]
    assert len(later) == len(GOOD_LINES)


@pytest.mark.parametrize("first", list(BROKEN_FIRST.values()), ids=list(BROKEN_FIRST))
def test_a_file_with_a_broken_first_line_is_still_streamed(tmp_path: Path, first: str) -> None:
    path = write(tmp_path / "runs.jsonl", [first])
    with path.open("ab") as handle:  # a few megabytes more: a document would be read whole
        for number in range(4000):
            handle.write(
                (json.dumps({"id": f"p{number}", "required": [], "pad": "x" * 1000}) + "\n").encode()
            )
    with path.open("rb") as handle:
        kind, _ = detect(handle, str(path), None)
        assert kind == "lines"
        assert handle.tell() < 100_000


def test_the_issues_example_nan_then_infinity_loads_both_runs(tmp_path: Path) -> None:
    path = tmp_path / "ragas.jsonl"
    path.write_text(
        '{"id": "a", "required": ["D1"], "context": ["D1"], "correct": true, "score": NaN}\n'
        '{"id": "b", "required": ["D1"], "context": [], "correct": true, "score": Infinity}\n',
        encoding="utf-8",
    )
    assert [(r.id, r.diagnosis["stage"]) for r in read_runs(path)] == [("a", "pass"), ("b", "retrieval")]


def test_a_one_line_runs_document_is_still_a_document(tmp_path: Path) -> None:
    path = tmp_path / "doc.json"
    path.write_text(BROKEN_FIRST["runs-object-only"] + "\n", encoding="utf-8")
    assert [r.id for r in read_runs(path)] == ["inner"]


def test_a_cr_only_file_is_refused_for_its_line_ends(tmp_path: Path) -> None:
    path = tmp_path / "mac.jsonl"
    path.write_bytes(("\r".join(json.dumps(run) for run in GOOD_LINES[:2]) + "\r").encode())
    with pytest.raises(FileError, match="carriage return") as caught:
        list(read_runs(path))
    assert str(path) in str(caught.value)


def test_a_cr_only_pretty_document_still_loads(tmp_path: Path) -> None:
    path = tmp_path / "mac.json"
    path.write_bytes(json.dumps(GOOD_LINES[:2], indent=1).replace("\n", "\r").encode())
    assert [r.id for r in read_runs(path)] == ["a", "2"]


BAD_ELEMENTS = {
    "lowercase-nan": '{"id": "b", "required": ["D1"], "x": nan}',
    "missing-colon": '{"id": "b" "required": ["D1"]}',
    "trailing-comma": '{"id": "b", "required": ["D1"],}',
    "unclosed-string": '{"id": "b", "q": "cut}',
    "wrong-bracket": '{"id": "b", "required": ["D1"}',
    "bare-word": "tru",
    "garbage-after": '{"id": "b", "x": nan} oops',
}


def _document(shape: str, elements: list[str], indent: str) -> str:
    body = ("," + "\n" + indent).join(elements)
    if shape == "array":
        return "[\n" + indent + body + "\n]\n"
    return '{"source": "sweep", "meta": nan,\n "runs": [\n' + indent + body + '\n ],\n "after": 1\n}\n'


@pytest.mark.parametrize("bad", list(BAD_ELEMENTS.values()), ids=list(BAD_ELEMENTS))
@pytest.mark.parametrize("shape", ["array", "runs-object"])
def test_one_bad_element_of_a_document_costs_that_element_only(tmp_path: Path, bad: str, shape: str) -> None:
    elements = [
        '{"id": "a", "required": ["D1"], "context": ["D1"], "correct": true}',
        bad,
        '{"required": ["D1", "D2"], "context": ["D1"], "correct": false}',
        '{"id": "d", "required": ["D1"], "context": ["D1"], "correct": false}',
    ]
    path = tmp_path / "runs.json"
    path.write_text(_document(shape, elements, "  "), encoding="utf-8")
    records = list(read_runs(path))
    runs = [(r.id, r.diagnosis["stage"]) for r in records if isinstance(r, Run)]
    assert runs == [("a", "pass"), ("3", "retrieval"), ("d", "generation")]
    errors = [r for r in records if isinstance(r, LoadError)]
    assert errors, "the bad element is reported"
    assert all(error.kind == INVALID_JSON for error in errors)
    assert {error.line for error in errors} == {records[0].line + 1}


def test_a_bad_element_of_a_pretty_printed_array_is_skipped_at_its_own_indentation(tmp_path: Path) -> None:
    good = {"id": "a", "required": ["D1"], "context": ["D1"], "correct": True, "meta": [{"k": 1}]}
    text = json.dumps([good, {"id": "b", "required": ["D1"]}, {**good, "id": "c"}], indent=2)
    text = text.replace('"id": "b",', '"id": "b, "x": [1, 2},')  # broken beyond bracket counting
    path = tmp_path / "pretty.json"
    path.write_text(text, encoding="utf-8")
    records = list(read_runs(path))
    assert [r.id for r in records if isinstance(r, Run)] == ["a", "c"]
    assert [r.kind for r in records if isinstance(r, LoadError)] == [INVALID_JSON]


def test_a_non_object_element_is_still_an_invalid_run(tmp_path: Path) -> None:
    path = tmp_path / "runs.json"
    path.write_text('[{"id": "a", "required": []}, 3, {"id": "c", "required": []}]', encoding="utf-8")
    assert [getattr(r, "kind", None) for r in read_runs(path)] == [None, INVALID_RUN, None]


def test_a_missing_comma_between_runs_is_reported_and_loses_neither(tmp_path: Path) -> None:
    path = tmp_path / "runs.json"
    path.write_text(
        '[\n{"id": "a", "required": []}\n{"id": "b", "required": []},\n{"id": "c"}\n]', encoding="utf-8"
    )
    records = list(read_runs(path))
    assert [r.id for r in records if isinstance(r, Run)] == ["a", "b", "c"]
    assert [(r.line, r.kind) for r in records if isinstance(r, LoadError)] == [(3, INVALID_JSON)]
