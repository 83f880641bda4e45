"""Reading run files: formats by content, names, invalid lines, file errors, progress."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from ragdiag_tui.core.runs.loading import (
    INVALID_JSON,
    INVALID_RUN,
    NO_EXPECTED,
    FileError,
    LoadError,
    Record,
    RecordBuilder,
    Run,
    read_runs,
)

WriteRuns = Callable[..., Path]

PASS_RUN = {"required": ["D1"], "context": ["D1"], "correct": True}
GAP_RUN = {"required": ["D1", "D2"], "context": ["D1"], "correct": False}


def load(path: Path) -> list[Record]:
    return list(read_runs(path))


def runs_of(records: list[Record]) -> list[Run]:
    return [record for record in records if isinstance(record, Run)]


def errors_of(records: list[Record]) -> list[LoadError]:
    return [record for record in records if isinstance(record, LoadError)]


def summary(records: list[Record]) -> list[tuple[Any, ...]]:
    """(line, id, diagnosis) for runs and (line, kind, field) for errors, in order."""
    return [(r.line, r.id, r.diagnosis) if isinstance(r, Run) else (r.line, r.kind, r.field) for r in records]


# -- formats, detected by content ------------------------------------------------------


@pytest.mark.parametrize("name", ["runs.jsonl", "runs.json", "runs.txt", "runs"])
def test_json_lines_is_detected_by_content_whatever_the_extension(tmp_path: Path, name: str) -> None:
    path = tmp_path / name
    path.write_text(
        json.dumps({"id": "a", **PASS_RUN}) + "\n" + json.dumps({"id": "b", **GAP_RUN}) + "\n",
        encoding="utf-8",
    )
    assert summary(load(path)) == [
        (1, "a", {"stage": "pass", "missing": []}),
        (2, "b", {"stage": "retrieval", "missing": ["D2"]}),
    ]


@pytest.mark.parametrize("name", ["runs.jsonl", "runs.ndjson", "runs.json"])
def test_json_array_is_detected_by_content_whatever_the_extension(tmp_path: Path, name: str) -> None:
    path = tmp_path / name
    path.write_text(json.dumps([{"id": "a", **PASS_RUN}, {"id": "b", **GAP_RUN}]), encoding="utf-8")
    assert [(r.id, r.diagnosis["stage"]) for r in runs_of(load(path))] == [("a", "pass"), ("b", "retrieval")]
    assert errors_of(load(path)) == []


def test_pretty_printed_array_gives_each_run_the_line_it_starts_on(tmp_path: Path) -> None:
    path = tmp_path / "runs.json"
    path.write_text(json.dumps([{"id": "a", **PASS_RUN}, {"id": "b", **GAP_RUN}], indent=2), encoding="utf-8")
    text = path.read_text(encoding="utf-8").splitlines()
    lines = [r.line for r in load(path)]
    assert lines == [2, text.index("  {", 2) + 1]


def test_runs_object_on_one_line_is_read(tmp_path: Path) -> None:
    path = tmp_path / "runs.jsonl"
    path.write_text(json.dumps({"source": "sweep-7", "runs": [{"id": "a", **PASS_RUN}]}), encoding="utf-8")
    records = load(path)
    assert summary(records) == [(1, "a", {"stage": "pass", "missing": []})]


def test_pretty_printed_runs_object_spanning_lines_is_read_element_by_element(tmp_path: Path) -> None:
    path = tmp_path / "sweep.json"
    path.write_text(
        "{\n"
        '  "source": "sweep-7",\n'
        '  "meta": {"runs": "not this one"},\n'
        '  "runs": [\n'
        '    {"id": "a", "required": ["D1"], "context": ["D1"], "correct": true},\n'
        '    {"id": "b", "required": ["D1"], "context": 5, "correct": true},\n'
        "    {\n"
        '      "id": "c",\n'
        '      "required": ["D1", "D2"], "context": ["D1"], "correct": true\n'
        "    }\n"
        "  ],\n"
        '  "after": 1\n'
        "}\n",
        encoding="utf-8",
    )
    assert summary(load(path)) == [
        (5, "a", {"stage": "pass", "missing": []}),
        (6, INVALID_RUN, "context"),
        (7, "c", {"stage": "retrieval", "missing": ["D2"]}),
    ]


def test_pretty_printed_object_without_runs_is_a_file_error(tmp_path: Path) -> None:
    path = tmp_path / "config.json"
    path.write_text('{\n  "name": "not a run file"\n}\n', encoding="utf-8")
    with pytest.raises(FileError, match="runs"):
        load(path)


def test_case_file_names_runs_by_case_id_and_keeps_expected(tmp_path: Path) -> None:
    cases = [
        {"id": "gap", "input": {"required": ["D1"], "context": ["X"], "correct": False, "q": "?"},
         "expected": {"stage": "retrieval", "missing": ["D1"]}},
        {"id": "no-expectation", "input": {"required": ["D1"], "context": ["D1"], "correct": True}},
        {"id": "wrong", "input": {"required": ["D1"], "context": ["D1"], "correct": True},
         "expected": {"stage": "generation", "missing": []}},
    ]  # fmt: skip
    path = tmp_path / "cases.txt"
    path.write_text(json.dumps(cases, indent=1), encoding="utf-8")
    runs = runs_of(load(path))
    assert [run.id for run in runs] == ["gap", "no-expectation", "wrong"]
    assert runs[0].diagnosis == {"stage": "retrieval", "missing": ["D1"]}
    assert runs[0].expected == {"stage": "retrieval", "missing": ["D1"]}
    assert runs[1].expected is NO_EXPECTED
    assert runs[2].expected == {"stage": "generation", "missing": []}
    assert runs[2].diagnosis == {"stage": "pass", "missing": []}  # the rule's, not the file's
    # The run is the case's input, every field of it, and nothing of the case around it.
    assert json.loads(runs[0].raw) == cases[0]["input"]


def test_seed_case_file_loads_as_four_cases(seed_path: Path) -> None:
    runs = runs_of(load(seed_path))
    assert [run.id for run in runs] == [
        "missing-context",
        "wrong-generation",
        "missing-answer-label",
        "lucky-answer-gap",
    ]
    assert all(run.diagnosis == run.expected for run in runs)


def test_case_whose_input_is_not_an_object_is_an_invalid_run_named_by_the_case(tmp_path: Path) -> None:
    path = tmp_path / "cases.json"
    path.write_text(
        json.dumps([{"id": "ok", "input": PASS_RUN}, {"id": "broken", "input": [1, 2]}]), encoding="utf-8"
    )
    records = load(path)
    assert isinstance(records[0], Run)
    assert isinstance(records[1], LoadError)
    assert (records[1].kind, records[1].id) == (INVALID_RUN, "broken")


def test_every_other_field_is_kept_verbatim(write_runs: WriteRuns) -> None:
    line = '{"id": "a", "question": "Why?", "answer": "Because.", "source": {"k": [1, 2.50]}, ' + (
        '"required": ["D1"], "context": ["D1"], "correct": true, "zz": null}'
    )
    path = write_runs([line])
    (run,) = load(path)
    assert isinstance(run, Run)
    assert run.raw == line.encode("utf-8")
    assert run.question == "Why?"


def test_non_string_question_is_kept_in_raw_but_not_as_the_question(write_runs: WriteRuns) -> None:
    (run,) = load(write_runs([{"id": "a", "question": 42, **PASS_RUN}]))
    assert isinstance(run, Run)
    assert run.question is None
    assert json.loads(run.raw)["question"] == 42


# -- names -------------------------------------------------------------------------------


def test_run_without_id_is_named_by_its_one_based_position(write_runs: WriteRuns) -> None:
    path = write_runs([PASS_RUN, {"id": "named", **PASS_RUN}, GAP_RUN])
    assert [r.id for r in load(path)] == ["1", "named", "3"]


def test_positions_count_runs_not_blank_lines(write_runs: WriteRuns) -> None:
    path = write_runs([PASS_RUN, "", "   ", GAP_RUN])
    assert [(r.line, r.id) for r in load(path)] == [(1, "1"), (4, "2")]


def test_runs_without_id_in_an_array_are_named_by_position(tmp_path: Path) -> None:
    path = tmp_path / "runs.json"
    path.write_text(json.dumps([PASS_RUN, GAP_RUN]), encoding="utf-8")
    assert [r.id for r in load(path)] == ["1", "2"]


def test_null_id_is_treated_as_absent(write_runs: WriteRuns) -> None:
    path = write_runs([{"id": None, **PASS_RUN}, {"id": None, **GAP_RUN}])
    records = load(path)
    assert [r.id for r in records] == ["1", "2"]
    assert errors_of(records) == []


@pytest.mark.parametrize("bad_id", [7, 1.5, True, [], ["a"], {}, {"id": "a"}], ids=repr)
def test_id_that_is_not_a_string_is_an_invalid_run(write_runs: WriteRuns, bad_id: Any) -> None:
    path = write_runs([{"id": "ok", **PASS_RUN}, {"id": bad_id, **PASS_RUN}, {"id": "after", **GAP_RUN}])
    records = load(path)
    assert summary(records)[1] == (2, INVALID_RUN, "id")
    assert [r.id for r in runs_of(records)] == ["ok", "after"]


def test_repeated_id_makes_the_later_run_invalid(write_runs: WriteRuns) -> None:
    path = write_runs([{"id": "a", **PASS_RUN}, {"id": "b", **PASS_RUN}, {"id": "a", **GAP_RUN}])
    records = load(path)
    first, _, later = records
    assert isinstance(first, Run)
    assert first.diagnosis == {"stage": "pass", "missing": []}
    assert isinstance(later, LoadError)
    assert (later.line, later.kind, later.field, later.id) == (3, INVALID_RUN, "id", "a")
    assert "duplicate id" in later.reason
    assert "first seen on line 1" in later.reason


def test_repeated_id_on_the_same_line_of_an_array_is_caught(tmp_path: Path) -> None:
    path = tmp_path / "runs.json"
    path.write_text(json.dumps([{"id": "a", **PASS_RUN}, {"id": "a", **GAP_RUN}]), encoding="utf-8")
    records = load(path)
    assert summary(records) == [(1, "a", {"stage": "pass", "missing": []}), (1, INVALID_RUN, "id")]
    assert "first seen on line 1" in records[1].reason


def test_explicit_id_colliding_with_a_positional_name_is_a_duplicate(write_runs: WriteRuns) -> None:
    path = write_runs([PASS_RUN, {"id": "1", **GAP_RUN}])
    records = load(path)
    assert summary(records) == [(1, "1", {"stage": "pass", "missing": []}), (2, INVALID_RUN, "id")]


# -- invalid lines ---------------------------------------------------------------------


def test_each_invalid_kind_is_an_error_with_its_line_and_field_and_the_rest_loads(
    write_runs: WriteRuns,
) -> None:
    path = write_runs(
        [
            {"id": "good-1", **PASS_RUN},
            '{"id": "broken", "required": [',
            "[1, 2]",
            '"just a string"',
            "",
            {"id": "req-str", "required": "D1", "context": ["D1"], "correct": True},
            {"id": "ctx-num", "required": ["D1"], "context": ["D1", 3], "correct": True},
            {"id": "no-ctx", "required": ["D1"], "correct": True},
            {"id": 12, **PASS_RUN},
            {"id": "good-2", **GAP_RUN},
        ]
    )
    records = load(path)
    assert summary(records) == [
        (1, "good-1", {"stage": "pass", "missing": []}),
        (2, INVALID_JSON, None),
        (3, INVALID_RUN, None),
        (4, INVALID_RUN, None),
        (6, INVALID_RUN, "required"),
        (7, INVALID_RUN, "context"),
        (8, INVALID_RUN, "context"),
        (9, INVALID_RUN, "id"),
        (10, "good-2", {"stage": "retrieval", "missing": ["D2"]}),
    ]
    by_line = {r.line: r for r in errors_of(records)}
    assert by_line[7].id == "ctx-num"
    assert "item 1" in by_line[7].reason
    assert "object" in by_line[3].reason
    assert by_line[2].id is None


def test_error_message_names_the_file_the_line_and_the_field(write_runs: WriteRuns) -> None:
    path = write_runs([PASS_RUN, {"required": ["D1"], "context": "D1", "correct": True}])
    (error,) = errors_of(load(path))
    message = error.message(path)
    assert str(path) in message
    assert "line 2" in message
    assert "context" in message
    assert "\n" not in message


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
def test_nan_and_infinity_outside_the_rules_fields_are_read_and_kept_verbatim(
    write_runs: WriteRuns, constant: str
) -> None:
    line = '{"id": "b", "required": ["D1"], "context": ["D1"], "correct": true, "score": ' + constant + "}"
    path = write_runs([{"id": "a", **PASS_RUN}, line, '{"id": "c", "m": {"f": [' + constant + "]}}"])
    records = load(path)
    assert summary(records) == [
        (1, "a", {"stage": "pass", "missing": []}),
        (2, "b", {"stage": "pass", "missing": []}),
        (3, "c", {"stage": "unresolved"}),
    ]
    assert records[1].raw == line.encode()


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
def test_nan_and_infinity_in_the_rules_fields_are_numbers_and_stay_strict(
    write_runs: WriteRuns, constant: str
) -> None:
    path = write_runs(
        [
            '{"id": ' + constant + ', "required": ["D1"], "context": ["D1"], "correct": true}',
            '{"required": [' + constant + '], "context": ["D1"], "correct": true}',
            '{"required": ["D1"], "context": ' + constant + ', "correct": true}',
            '{"id": "label", "required": ["D1"], "context": ["D1"], "correct": ' + constant + "}",
        ]
    )
    records = load(path)
    assert summary(records) == [
        (1, INVALID_RUN, "id"),
        (2, INVALID_RUN, "required"),
        (3, INVALID_RUN, "context"),
        (4, "label", {"error": "answer-label"}),
    ]
    assert "number" in records[1].reason


def test_invalid_utf8_on_one_line_is_an_invalid_line(tmp_path: Path) -> None:
    path = tmp_path / "runs.jsonl"
    good = json.dumps({"id": "a", **PASS_RUN}).encode()
    path.write_bytes(good + b"\n" + b'{"id": "b\xff\xfe"}\n' + good.replace(b'"a"', b'"c"') + b"\n")
    records = load(path)
    assert summary(records)[1] == (2, INVALID_JSON, None)
    assert "UTF-8" in records[1].reason
    assert [r.id for r in runs_of(records)] == ["a", "c"]


def test_utf8_bom_is_accepted(tmp_path: Path) -> None:
    path = tmp_path / "runs.jsonl"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps({"id": "a", **PASS_RUN}).encode() + b"\n")
    assert summary(load(path)) == [(1, "a", {"stage": "pass", "missing": []})]


def test_utf8_bom_before_a_json_array_is_accepted(tmp_path: Path) -> None:
    path = tmp_path / "runs.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps([{"id": "a", **PASS_RUN}]).encode())
    assert [r.id for r in load(path)] == ["a"]


def test_crlf_line_ends_are_accepted(tmp_path: Path) -> None:
    path = tmp_path / "runs.jsonl"
    lines = [json.dumps({"id": "a", **PASS_RUN}), "", json.dumps({"id": "b", **GAP_RUN})]
    path.write_bytes("\r\n".join(lines).encode() + b"\r\n")
    records = load(path)
    assert [(r.line, r.id) for r in records] == [(1, "a"), (3, "b")]
    assert not any(r.raw.endswith(b"\r") for r in runs_of(records))


def test_blank_lines_are_skipped_but_counted(tmp_path: Path) -> None:
    path = tmp_path / "runs.jsonl"
    run = json.dumps({"id": "a", **PASS_RUN})
    path.write_text(f"\n  \n{run}\n\t\n\n" + run.replace('"a"', '"b"') + "\n\n", encoding="utf-8")
    assert [(r.line, r.id) for r in load(path)] == [(3, "a"), (6, "b")]


def test_last_line_without_newline_is_read(tmp_path: Path) -> None:
    path = tmp_path / "runs.jsonl"
    path.write_text(json.dumps({"id": "a", **PASS_RUN}) + "\n" + json.dumps({"id": "b", **PASS_RUN}))
    assert [r.id for r in load(path)] == ["a", "b"]


def test_json_array_with_trailing_garbage_loads_its_runs_and_one_error(tmp_path: Path) -> None:
    path = tmp_path / "runs.json"
    body = json.dumps([{"id": "a", **PASS_RUN}, {"id": "b", **GAP_RUN}], indent=1)
    path.write_text(body + "\n\ngarbage\n", encoding="utf-8")
    records = load(path)
    assert [r.id for r in runs_of(records)] == ["a", "b"]
    (error,) = errors_of(records)
    assert error.kind == INVALID_JSON
    assert error.line == body.count("\n") + 3


def test_truncated_json_array_loads_what_it_can_and_reports_the_cut(tmp_path: Path) -> None:
    path = tmp_path / "runs.json"
    whole = json.dumps([{"id": "a", **PASS_RUN}, {"id": "b", **GAP_RUN}], indent=1)
    path.write_text(whole[: whole.index('"b"') + 10], encoding="utf-8")
    records = load(path)
    assert [r.id for r in runs_of(records)] == ["a"]
    (error,) = errors_of(records)
    assert error.kind == INVALID_JSON
    assert error is records[-1]


def test_json_array_cut_after_a_whole_element_reports_the_unclosed_array(tmp_path: Path) -> None:
    path = tmp_path / "runs.json"
    path.write_text("[\n" + json.dumps({"id": "a", **PASS_RUN}) + ",\n", encoding="utf-8")
    records = load(path)
    assert [r.id for r in runs_of(records)] == ["a"]
    assert errors_of(records)[0].kind == INVALID_JSON
    assert "not closed" in errors_of(records)[0].reason


def test_json_array_with_a_non_object_element_keeps_the_other_runs(tmp_path: Path) -> None:
    path = tmp_path / "runs.json"
    path.write_text(json.dumps([{"id": "a", **PASS_RUN}, 3, {"id": "c", **GAP_RUN}]), encoding="utf-8")
    records = load(path)
    assert [type(r).__name__ for r in records] == ["Run", "LoadError", "Run"]
    assert records[1].kind == INVALID_RUN


# -- the file as a whole ---------------------------------------------------------------


def test_missing_file_is_a_file_error_naming_it(tmp_path: Path) -> None:
    path = tmp_path / "nope.jsonl"
    with pytest.raises(FileError, match="no such file") as caught:
        load(path)
    assert str(path) in str(caught.value)


def test_directory_is_a_file_error_naming_it(tmp_path: Path) -> None:
    with pytest.raises(FileError, match="directory") as caught:
        load(tmp_path)
    assert str(tmp_path) in str(caught.value)


@pytest.mark.parametrize("content", [b"", b"\n", b"  \n\t\r\n\n", b"\xef\xbb\xbf", b"\xef\xbb\xbf\n \n"])
def test_empty_or_whitespace_only_file_is_a_file_error(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "runs.jsonl"
    path.write_bytes(content)
    with pytest.raises(FileError, match="empty") as caught:
        load(path)
    assert str(path) in str(caught.value)


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be"])
def test_utf16_file_is_a_file_error(tmp_path: Path, encoding: str) -> None:
    path = tmp_path / "runs.jsonl"
    text = json.dumps({"id": "a", **PASS_RUN}) + "\n"
    prefix = "\ufeff" if encoding != "utf-16" else ""
    path.write_text(prefix + text, encoding=encoding)
    with pytest.raises(FileError) as caught:
        load(path)
    assert str(path) in str(caught.value)
    assert "UTF-16" in str(caught.value)


def test_file_that_does_not_start_as_utf8_is_a_file_error(tmp_path: Path) -> None:
    path = tmp_path / "runs.jsonl"
    path.write_bytes('{"id": "café"}\n'.encode("latin-1"))
    with pytest.raises(FileError, match="UTF-8") as caught:
        load(path)
    assert str(path) in str(caught.value)


def test_file_error_comes_before_any_record(tmp_path: Path) -> None:
    records = read_runs(tmp_path / "missing.jsonl")
    with pytest.raises(FileError):
        next(records)


# -- progress --------------------------------------------------------------------------


def test_progress_reports_bytes_read_and_ends_at_the_total(tmp_path: Path) -> None:
    path = tmp_path / "runs.jsonl"
    line = json.dumps(GAP_RUN) + "\n"
    path.write_text(line * 20_000, encoding="utf-8")
    total = path.stat().st_size
    calls: list[tuple[int, int]] = []
    records = list(read_runs(path, lambda done, of: calls.append((done, of))))
    assert len(records) == 20_000
    assert len(calls) >= 2  # reported along the way, not only at the end
    assert calls[-1] == (total, total)
    assert all(of == total for _, of in calls)
    assert [done for done, _ in calls] == sorted(done for done, _ in calls)
    assert all(0 < done <= total for done, _ in calls)


@pytest.mark.parametrize("shape", ["array", "object"])
def test_progress_ends_at_the_total_for_a_json_document(tmp_path: Path, shape: str) -> None:
    path = tmp_path / "runs.json"
    runs = [{"id": str(n), **PASS_RUN} for n in range(3)]
    path.write_text(json.dumps(runs if shape == "array" else {"runs": runs}, indent=2), encoding="utf-8")
    calls: list[tuple[int, int]] = []
    list(read_runs(path, lambda done, of: calls.append((done, of))))
    total = path.stat().st_size
    assert calls[-1] == (total, total)


# -- the fast path and the careful path give the same verdicts -------------------------

JSON_SCALAR = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=6),
)
JSON_VALUE = st.recursive(
    JSON_SCALAR,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
    max_leaves=6,
)
DOC_ID = st.lists(st.sampled_from(["D1", "D2", "\U0001f600", "é", " "]), max_size=2).map("".join)
FIELD_VALUE = st.one_of(
    JSON_VALUE,
    st.lists(DOC_ID, max_size=4),
    st.lists(st.one_of(DOC_ID, JSON_SCALAR), max_size=3),
    DOC_ID,
)
KEYS = st.sampled_from(["id", "required", "context", "correct", "question", "answer", "runs", "input"])


@st.composite
def raw_lines(draw: st.DrawFn) -> bytes:
    if draw(st.integers(0, 9)) == 0:
        top: Any = draw(JSON_VALUE)  # now and then not an object at all
    else:
        top = draw(st.dictionaries(st.one_of(KEYS, st.text(max_size=4)), FIELD_VALUE, max_size=7))
    text = json.dumps(top, ensure_ascii=draw(st.booleans()), indent=draw(st.sampled_from([None, 0])))
    return text.replace("\n", " ").encode("utf-8")


def verdict(record: Record) -> tuple[Any, ...]:
    if isinstance(record, Run):
        label = record.label if isinstance(record.label, bool) else "not a label"
        return ("run", record.id, record.diagnosis, record.required, record.context, label, record.question)
    return ("error", record.kind, record.field, record.id, record.reason)


@settings(max_examples=500, deadline=None)
@given(raw_lines())
@example(b'{"required": ["D1"], "context": ["D1"], "correct": true, "correct": 1}')
@example(b'{"required": ["D1"], "context": ["D1"], "correct": 1, "correct": false}')
@example(b'{"id": "a", "id": 3}')
@example(b'{"required": ["D1\\ud800"], "context": [], "correct": true}')
@example(b'{"required": ["D1"], "context": ["D1"], "correct": true, "x": 1e400}')
@example(b'{"id": null, "required": [], "context": 5}')
@example(b'{"required": ["D1"], "correct": true}')
@example(b"[]")
def test_fast_path_agrees_with_the_pydantic_careful_path(raw: bytes) -> None:
    fast = RecordBuilder().from_line(1, raw)
    careful = RecordBuilder().careful_line(1, raw)
    assert verdict(fast) == verdict(careful)
