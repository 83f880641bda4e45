"""Every hostile case through the loader, `diagnose`, `stats` and `export`.

The manifest says what each case must give; these tests hold the core and the headless
command line to it: the runs that load and their diagnoses, the invalid lines and
errors that name the line and the field, exit codes, output that parses line by line,
terminal output with nothing raw from the data, exports that keep every string exactly
and CSV cells that no spreadsheet runs as a formula.
"""

from __future__ import annotations

import csv
import errno
import io
import json
import os
import re
from pathlib import Path
from typing import Any

import pytest

from ragdiag_tui.cli import main
from ragdiag_tui.core.common.text import visible
from ragdiag_tui.core.output.export import REVIEW_FIELDS
from ragdiag_tui.core.runs.loading import INVALID_RUN, FileError, LoadError, Run, read_runs
from ragdiag_tui.core.runs.store import RunStore

from .corpus import (
    ALL_NAMES,
    BUILDERS,
    FILE_ERROR_WORDS,
    GENERATED,
    READABLE_NAMES,
    Case,
    exact_json,
    is_safe_for_terminal,
    make_case,
)

FORMULA_START = ("=", "+", "-", "@", "\t", "\r")

corpus = pytest.mark.parametrize("case", ALL_NAMES, indirect=True)


def test_every_generated_case_of_the_manifest_is_built() -> None:
    assert sorted(BUILDERS) == sorted(GENERATED)


# -- the loader ------------------------------------------------------------------------------


def _diagnosis_items(diagnosis: dict[str, Any]) -> list[tuple[str, Any]]:
    return list(diagnosis.items())  # key order matters: the reference's objects


@corpus
def test_loader_gives_the_runs_and_the_invalid_lines_of_the_manifest(case: Case) -> None:
    if case.expect == "file-error":
        with pytest.raises(FileError) as refused:
            list(read_runs(case.path))
        message = str(refused.value)
        assert os.fspath(case.path) in message
        assert FILE_ERROR_WORDS[case.name] in message
        return
    records = list(read_runs(case.path))
    runs = [record for record in records if isinstance(record, Run)]
    errors = [record for record in records if isinstance(record, LoadError)]
    assert len(runs) + len(errors) == len(records)
    assert len(runs) == case.runs
    assert [error.line for error in errors] == case.invalid_lines
    assert [record.line for record in records] == sorted(record.line for record in records)
    for run_id, expected in case.diagnoses.items():
        matching = [run for run in runs if run.id == run_id]
        assert len(matching) == 1, f"run {run_id!r}"
        assert _diagnosis_items(matching[0].diagnosis) == _diagnosis_items(expected), f"run {run_id!r}"


@pytest.mark.parametrize("case", READABLE_NAMES, indirect=True)
def test_each_error_names_its_line_and_the_field_at_fault(case: Case) -> None:
    errors = [record for record in read_runs(case.path) if isinstance(record, LoadError)]
    for error in errors:
        message = error.message(case.path)
        assert message.startswith(f"{case.path}, line {error.line}: ")
        assert error.reason.strip()
        if error.kind == INVALID_RUN and error.field is None:
            # the only invalid run without a field: a record that is no object at all
            assert "JSON object" in error.reason, message
        if error.field is not None:
            assert f"field '{error.field}'" in message
            assert error.field in ("id", "required", "context"), message


@corpus
def test_store_holds_every_record_in_file_order(case: Case) -> None:
    if case.expect == "file-error":
        with pytest.raises(FileError):
            RunStore.load(case.path)
        return
    store = RunStore.load(case.path)
    assert len(store) == case.runs + len(case.invalid_lines)
    assert sorted(store.lines[row] for row in store.errors) == case.invalid_lines
    assert list(store.lines) == sorted(store.lines)
    for row in range(len(store)):
        if store.is_valid(row):  # each run's text reads back (the app and relabelling do this)
            assert isinstance(store.raw(row), dict)
            assert store.fields(row).required == store.raw(row).get("required")


# -- diagnose ----------------------------------------------------------------------------------


def _lines(out: bytes) -> list[str]:
    """Output lines split on \\n only; every reader must agree (no U+2028 and the like)."""
    text = out.decode("utf-8")  # strict: stdout must be UTF-8
    if not text:
        return []
    assert text.endswith("\n")
    lines = text[:-1].split("\n")
    assert text.splitlines() == lines, "a line break other than \\n inside an output line"
    return lines


@corpus
def test_diagnose_writes_one_json_line_per_record(
    case: Case, capsysbinary: pytest.CaptureFixture[bytes]
) -> None:
    code = main(["diagnose", str(case.path)])
    out, err = capsysbinary.readouterr()
    assert code == case.exit_code
    assert b"Traceback" not in err
    assert is_safe_for_terminal(err.decode("utf-8"))
    if case.expect == "file-error":
        assert out == b""
        assert visible(str(case.path)).encode() in err
        return
    records = [json.loads(line) for line in _lines(out)]
    assert len(records) == case.runs + len(case.invalid_lines)
    errors = [record for record in records if "line" in record]
    assert [error["line"] for error in errors] == case.invalid_lines
    for error in errors:
        assert error["error"] in ("invalid-json", "invalid-run")
        assert error["detail"]
    runs = [record for record in records if "line" not in record]
    assert len(runs) == case.runs
    for run_id, expected in case.diagnoses.items():
        assert [run for run in runs if run["id"] == run_id] == [{"id": run_id, **expected}]
        line = next(run for run in runs if run["id"] == run_id)
        assert list(line) == ["id", *expected], "keys in the reference's order"


# -- stats -----------------------------------------------------------------------------------------


@corpus
def test_stats_table_shows_the_counts_and_nothing_raw(
    case: Case, capsysbinary: pytest.CaptureFixture[bytes]
) -> None:
    code = main(["stats", str(case.path)])
    out, err = capsysbinary.readouterr()
    assert code == case.exit_code
    assert b"Traceback" not in err
    text = out.decode("utf-8")
    assert is_safe_for_terminal(text), "a control character, lone surrogate or bidi override reached stdout"
    assert is_safe_for_terminal(err.decode("utf-8"))
    assert "\x1b" not in text
    if case.expect == "file-error":
        assert text == ""
        return
    assert re.search(rf"^  total\s+{case.runs}$", text, re.MULTILINE), text[:2000]
    assert re.search(rf"invalid lines:\s+{len(case.invalid_lines)}$", text, re.MULTILINE)


@corpus
def test_stats_json_parses_and_counts_as_the_manifest(
    case: Case, capsysbinary: pytest.CaptureFixture[bytes]
) -> None:
    code = main(["stats", "--json", str(case.path)])
    out, err = capsysbinary.readouterr()
    assert code == case.exit_code
    assert b"Traceback" not in err
    if case.expect == "file-error":
        assert out == b""
        return
    stats = json.loads(out.decode("utf-8"))
    assert stats["runs"] == case.runs
    assert stats["invalid_lines"] == len(case.invalid_lines)
    assert sum(stats["stages"].values()) == case.runs


# -- export ------------------------------------------------------------------------------------------


def _export(case: Case, fmt: str, capsysbinary: pytest.CaptureFixture[bytes]) -> tuple[int, Path, bytes]:
    out_path = case.path.parent / f"exported.{fmt}"
    code = main(["export", str(case.path), "-o", str(out_path), "--format", fmt])
    _, err = capsysbinary.readouterr()
    assert b"Traceback" not in err
    assert is_safe_for_terminal(err.decode("utf-8"))
    return code, out_path, err


def _originals(case: Case) -> tuple[RunStore, list[int]]:
    store = RunStore.load(case.path)
    return store, [row for row in range(len(store)) if store.is_valid(row)]


def _original(store: RunStore, row: int) -> dict[str, Any]:
    return exact_json(store.raw_text(row).decode("utf-8", "surrogatepass"))


def _assert_fields_kept(original: dict[str, Any], exported: dict[str, Any], run_id: str) -> None:
    """Every own field of the run is in the export with the same value (strings exactly)."""
    assert exported["id"] == run_id
    for key, value in original.items():
        if key == "correct":
            assert exported["original_correct"] == value
            assert exported["correct"] == (value if isinstance(value, bool) else None)
        elif key == "id":
            if value not in (run_id, None):
                assert exported["original_id"] == value
        elif key in REVIEW_FIELDS:
            assert exported[f"original_{key}"] == value
        else:
            assert exported[key] == value, f"field {key!r} of run {run_id!r}"


@corpus
@pytest.mark.parametrize("fmt", ["jsonl", "json"])
def test_json_exports_parse_and_keep_every_string_exactly(
    case: Case, fmt: str, capsysbinary: pytest.CaptureFixture[bytes]
) -> None:
    code, out_path, _ = _export(case, fmt, capsysbinary)
    assert code == case.exit_code
    if case.expect == "file-error":
        assert not out_path.exists()
        return
    data = out_path.read_bytes()
    if fmt == "jsonl":
        exported = [exact_json(line) for line in _lines(data)]
    else:
        exported = exact_json(data.decode("utf-8"))
    assert len(exported) == case.runs
    store, rows = _originals(case)
    for row, run in zip(rows, exported, strict=True):
        _assert_fields_kept(_original(store, row), run, store.ids[row])
        expected = case.diagnoses.get(store.ids[row])
        if expected is not None:
            assert {key: run[key] for key in expected} == expected
            assert not ({"stage", "missing", "error"} - set(expected)) & set(run)


def read_csv(text: str) -> list[list[str]]:
    """Rows of CSV text; a field may be as long as the 10 MB question."""
    limit = csv.field_size_limit(1 << 30)
    try:
        return list(csv.reader(io.StringIO(text, newline="")))
    finally:
        csv.field_size_limit(limit)


def _has_surrogate(text: str) -> bool:
    return any("\ud800" <= char <= "\udfff" for char in text)


def _cell(value: str) -> str:
    """A text cell as exported: one more `'` before any `'`s and a formula start (read back less one)."""
    return "'" + value if value.lstrip("'").startswith(FORMULA_START) else value


def _list_of(cell: str) -> list[str]:
    """A list cell read back: a JSON array, or `;`-separated IDs."""
    return json.loads(cell) if cell.startswith("[") else cell.split(";") if cell else []


@corpus
def test_csv_export_keeps_strings_and_neutralises_formulas(
    case: Case, capsysbinary: pytest.CaptureFixture[bytes]
) -> None:
    code, out_path, _ = _export(case, "csv", capsysbinary)
    assert code == case.exit_code
    if case.expect == "file-error":
        assert not out_path.exists()
        return
    header, *records = read_csv(out_path.read_bytes().decode("utf-8"))
    assert len(records) == case.runs
    for cells in [header, *records]:
        for cell in cells:
            if cell.startswith(FORMULA_START):
                float(cell)  # only a number may start like a formula (-3)
    store, rows = _originals(case)
    for row, cells in zip(rows, records, strict=True):
        by_name = dict(zip(header, cells, strict=True))
        run_id = store.ids[row]
        if not _has_surrogate(run_id):
            assert by_name["id"] == _cell(run_id)
        for key, value in _original(store, row).items():
            if key in ("id", "correct", *REVIEW_FIELDS) or _has_surrogate(key):
                continue
            if isinstance(value, list) and all(isinstance(item, str) for item in value):
                if not any(map(_has_surrogate, value)):
                    assert _list_of(by_name[_cell(key)]) == value, f"field {key!r} of run {run_id!r}"
                continue
            if isinstance(value, str) and not _has_surrogate(value):
                assert by_name[_cell(key)] == _cell(value), f"field {key!r} of run {run_id!r}"


# -- outside the corpus: permission, formulas -------------------------------------------------


def test_unreadable_file_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Mode 000 stops no root process, so open() refusing the file is simulated."""
    path = make_case("utf8_bom.jsonl", tmp_path).path
    real_open = os.open

    def refuse(name: Any, flags: int, *args: Any, **kwargs: Any) -> int:
        if os.fspath(name) == os.fspath(path):
            raise PermissionError(errno.EACCES, "Permission denied", os.fspath(name))
        return real_open(name, flags, *args, **kwargs)

    monkeypatch.setattr(os, "open", refuse)
    with pytest.raises(FileError, match="permission denied"):
        list(read_runs(path))
    assert main(["diagnose", str(path)]) == 2
    assert main(["stats", str(path)]) == 2
    assert main(["export", str(path), "-o", str(tmp_path / "out.jsonl")]) == 2
    assert not (tmp_path / "out.jsonl").exists()


FORMULAS = ["=1+1", "+SUM(A1)", "-2+3", "@cmd", "\t=1", "\r=1", '=HYPERLINK("http://x")']


def test_csv_neutralises_every_formula_start_and_keeps_numbers(tmp_path: Path) -> None:
    path = tmp_path / "formulas.jsonl"
    runs = [
        {
            "id": formula,
            "question": formula,
            "required": [formula, "D1"],
            "context": ["D1"],
            "correct": True,
            "score": -3,
            formula: "key",
        }
        for formula in FORMULAS
    ]
    path.write_text("".join(json.dumps(run) + "\n" for run in runs), encoding="utf-8")
    out = tmp_path / "formulas.csv"
    assert main(["export", str(path), "-o", str(out)]) == 0
    header, *records = read_csv(out.read_bytes().decode("utf-8"))
    for formula, cells in zip(FORMULAS, records, strict=True):
        record = dict(zip(header, cells, strict=True))
        assert record["id"] == "'" + formula
        assert record["question"] == "'" + formula
        assert json.loads(record["required"]) == [formula, "D1"]  # a JSON array: starts with `[`
        assert json.loads(record["missing"]) == [formula]
        assert record["score"] == "-3"
        assert record["'" + formula] == "key"


# -- nesting: one limit, whatever the caller's stack ---------------------------------------------


def _nested_run(run_id: str, depth: int) -> str:
    return json.dumps({"id": run_id, "required": ["D1"], "context": ["D1"], "correct": True})[:-1] + (
        ', "deep": ' + "[" * depth + "]" * depth + "}"
    )


def _at_stack_depth(frames: int, call: Any) -> Any:
    return call() if frames <= 0 else _at_stack_depth(frames - 1, call)


def test_nesting_limit_does_not_depend_on_the_callers_stack(tmp_path: Path) -> None:
    """A run the loader accepts must parse again wherever the app re-reads it.

    Python's parsers stop at the recursion limit, counted from the caller's stack; a
    loader thread with a shallow stack would accept nesting that the app, deep in its
    event loop, then fails to parse (RecursionError, a crash). One fixed limit instead.
    """
    path = tmp_path / "nested.jsonl"
    path.write_text(f"{_nested_run('shallow', 400)}\n{_nested_run('deep', 600)}\n", encoding="utf-8")

    def verdicts() -> list[tuple[str, str | None]]:
        return [
            ("run", record.id) if isinstance(record, Run) else ("error", record.reason)
            for record in read_runs(path)
        ]

    expected = [("run", "shallow"), ("error", "not valid JSON: nested too deeply (over 500 levels)")]
    assert verdicts() == expected
    assert _at_stack_depth(300, verdicts) == expected
    store = RunStore.load(path)
    assert _at_stack_depth(450, lambda: store.fields(0).id) == "shallow"


# -- a case file with lone surrogates ------------------------------------------------------------


def test_case_file_with_lone_surrogates_checks_exports_and_prints(
    tmp_path: Path, capsysbinary: pytest.CaptureFixture[bytes]
) -> None:
    """The seed's case format keeps a run as re-encoded text: lone surrogates must survive it."""
    path = tmp_path / "cases.json"
    path.write_text(
        '[{"id": "case-\\ud800", "input": {"required": ["D\\udc00"], "context": [], "correct": true},'
        ' "expected": {"stage": "retrieval", "missing": ["D\\udc00"]}}]',
        encoding="utf-8",
    )
    assert main(["check", str(path)]) == 0
    assert main(["stats", str(path)]) == 0
    out, err = capsysbinary.readouterr()
    assert b"Traceback" not in err
    assert is_safe_for_terminal(out.decode("utf-8"))
    for fmt in ("jsonl", "json", "csv"):
        target = tmp_path / f"out.{fmt}"
        assert main(["export", str(path), "-o", str(target)]) == 0
        text = target.read_bytes().decode("utf-8")
        if fmt != "csv":
            exported = json.loads(text)
            run = exported[0] if fmt == "json" else exported
            assert (run["id"], run["required"], run["missing"]) == ("case-\ud800", ["D\udc00"], ["D\udc00"])
    assert b"Traceback" not in capsysbinary.readouterr().err
