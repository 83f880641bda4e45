"""Export: what each format holds, scopes, atomic writes, failures, CSV safety, the CLI."""

from __future__ import annotations

import csv
import errno
import io
import json
import os
import signal
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ragdiag_tui.cli import main
from ragdiag_tui.core.common import atomic
from ragdiag_tui.core.output import export
from ragdiag_tui.core.output.export import (
    FORMATS,
    ExportError,
    default_export_path,
    export_runs,
    format_for_path,
)
from ragdiag_tui.core.review.journal import Journal, journal_path
from ragdiag_tui.core.review.state import Review
from ragdiag_tui.core.runs.csv_runs import restore
from ragdiag_tui.core.runs.store import RunStore

HOSTILE = Path(__file__).resolve().parents[1] / "data" / "hostile"
NO_REVIEW = {"reviewer": None, "reviewed_at": None, "note": None, "tags": [], "reviewers": []}

RUNS: list[Any] = [
    # A lucky answer: labelled correct, yet D2 was never supplied.
    {"id": "lucky", "question": "Q1?", "required": ["D1", "D2"], "context": ["D1"], "correct": True},
    # Correct by the file; the reviewer will say incorrect: pass -> generation.
    {"id": "relabel", "required": ["D1"], "context": ["D1", "D9"], "correct": True, "model": "m-1"},
    # Gets a note and nothing else.
    {"id": "noted", "required": ["D1"], "context": ["D1"], "correct": False},
    # A label that is not a JSON boolean.
    {"id": "stringy", "required": ["D1"], "context": ["D1"], "correct": "true"},
    # Extra fields of every JSON type, some named like the export's own fields.
    {
        "id": "extras",
        "score": -0.25,
        "big": 12345678901234567890,
        "meta": {"k": [1, None, "x"]},
        "stage": "from-the-file",
        "note": "the file's note",
        "required": ["D1"],
        "context": ["D1"],
        "correct": False,
    },
    # No id: it is the sixth record, so its id is "6".
    {"required": [], "context": [], "correct": True, "answer": "no id"},
    # An invalid line has no run to export.
    '{"id": "broken", "required": "D1"}',
]


def write_runs(path: Path, lines: list[Any]) -> Path:
    text = "".join((line if isinstance(line, str) else json.dumps(line)) + "\n" for line in lines)
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def run_file(tmp_path: Path) -> Path:
    return write_runs(tmp_path / "runs.jsonl", RUNS)


def reviewed(run_file: Path) -> tuple[RunStore, Review]:
    """The store of RUNS with `relabel` labelled incorrect and `noted` given a note."""
    store = RunStore.load(run_file)
    review = Review(store, Journal(journal_path(run_file)), reviewer="tester")
    review.set_label(store.ids.index("relabel"), False)
    review.set_note(store.ids.index("noted"), "look again")
    assert review.journal is not None
    review.journal.close()
    return store, review


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def read_csv(path: Path) -> list[list[str]]:
    with open(path, newline="", encoding="utf-8") as handle:
        return list(csv.reader(handle))


def files_in(folder: Path) -> list[str]:
    return sorted(os.listdir(folder))


# -- contents ---------------------------------------------------------------------


def test_jsonl_keeps_every_field_and_adds_the_review_and_diagnosis(run_file: Path, tmp_path: Path) -> None:
    store, review = reviewed(run_file)
    out = tmp_path / "out.jsonl"

    assert export_runs(store, review, str(out), "jsonl") == 6
    runs = {run["id"]: run for run in read_jsonl(out)}

    assert list(runs) == ["lucky", "relabel", "noted", "stringy", "extras", "6"]
    assert runs["lucky"] == {
        "id": "lucky",
        "question": "Q1?",
        "required": ["D1", "D2"],
        "context": ["D1"],
        "correct": True,
        "original_correct": True,
        "label_source": "file",
        **NO_REVIEW,
        "stage": "retrieval",
        "missing": ["D2"],
    }
    relabel = runs["relabel"]
    assert relabel["correct"] is False
    assert relabel["original_correct"] is True
    assert relabel["label_source"] == "reviewer"
    assert relabel["reviewer"] == "tester"
    assert relabel["reviewed_at"].endswith("Z")
    assert relabel["note"] is None
    assert (relabel["stage"], relabel["missing"]) == ("generation", [])
    assert relabel["model"] == "m-1"

    noted = runs["noted"]
    assert (noted["note"], noted["label_source"], noted["reviewer"]) == ("look again", "file", "tester")
    assert (noted["correct"], noted["stage"]) == (False, "generation")

    stringy = runs["stringy"]
    assert (stringy["correct"], stringy["original_correct"], stringy["label_source"]) == (None, "true", None)
    assert stringy["error"] == "answer-label"
    assert "stage" not in stringy and "missing" not in stringy


def test_own_fields_keep_their_order_and_values_and_clashing_names_move_aside(
    run_file: Path, tmp_path: Path
) -> None:
    store, review = reviewed(run_file)
    out = tmp_path / "out.jsonl"
    export_runs(store, review, out, "jsonl")

    extras = read_jsonl(out)[4]
    assert list(extras) == [
        "id",
        "score",
        "big",
        "meta",
        "original_stage",
        "original_note",
        "required",
        "context",
        *export.REVIEW_FIELDS[:-1],  # missing, but no error
    ]
    assert extras["score"] == -0.25 and extras["big"] == 12345678901234567890
    assert extras["meta"] == {"k": [1, None, "x"]}
    assert (extras["original_stage"], extras["stage"]) == ("from-the-file", "generation")
    assert (extras["original_note"], extras["note"]) == ("the file's note", None)


def test_a_run_without_an_id_gains_its_position_as_its_first_field(run_file: Path, tmp_path: Path) -> None:
    store, review = reviewed(run_file)
    out = tmp_path / "out.jsonl"
    export_runs(store, review, out, "jsonl")

    last = read_jsonl(out)[-1]
    assert list(last)[:4] == ["id", "required", "context", "answer"]
    assert last["id"] == "6"
    assert last["stage"] == "unresolved" and "missing" not in last


def test_json_is_one_array_of_the_same_runs_as_jsonl(run_file: Path, tmp_path: Path) -> None:
    store, review = reviewed(run_file)
    export_runs(store, review, tmp_path / "out.jsonl", "jsonl")
    export_runs(store, review, tmp_path / "out.json", "json")

    text = (tmp_path / "out.json").read_text(encoding="utf-8")
    assert text.startswith("[\n") and text.endswith("\n]\n")
    assert json.loads(text) == read_jsonl(tmp_path / "out.jsonl")


def test_an_empty_export_is_still_valid_in_every_format(run_file: Path, tmp_path: Path) -> None:
    store, review = reviewed(run_file)
    assert export_runs(store, review, tmp_path / "e.json", "json", rows=[]) == 0
    assert json.loads((tmp_path / "e.json").read_text()) == []
    assert export_runs(store, review, tmp_path / "e.jsonl", "jsonl", rows=[]) == 0
    assert (tmp_path / "e.jsonl").read_bytes() == b""
    export_runs(store, review, tmp_path / "e.csv", "csv", rows=[])
    assert read_csv(tmp_path / "e.csv") == [["id", *export.REVIEW_FIELDS]]


def test_csv_has_one_header_and_flat_cells(run_file: Path, tmp_path: Path) -> None:
    store, review = reviewed(run_file)
    out = tmp_path / "out.csv"
    assert export_runs(store, review, out, "csv") == 6

    header, *rows = read_csv(out)
    own = ["id", "question", "required", "context", "model", "score", "big", "meta"]
    assert header == [*own, "original_stage", "original_note", "answer", *export.REVIEW_FIELDS]
    cells = [dict(zip(header, row, strict=True)) for row in rows]
    lucky, relabel, _, stringy, extras, no_id = cells
    assert lucky["required"] == "D1;D2" and lucky["missing"] == "D2"
    assert (lucky["correct"], lucky["label_source"], lucky["note"], lucky["error"]) == (
        "true",
        "file",
        "",
        "",
    )
    assert (relabel["correct"], relabel["original_correct"], relabel["stage"]) == (
        "false",
        "true",
        "generation",
    )
    assert relabel["context"] == "D1;D9" and relabel["model"] == "m-1"
    assert (stringy["correct"], stringy["original_correct"], stringy["error"]) == ("", "true", "answer-label")
    # Numbers stay numbers, even negative ones; objects are JSON text.
    assert (extras["score"], extras["big"]) == ("-0.25", "12345678901234567890")
    assert json.loads(extras["meta"]) == {"k": [1, None, "x"]}
    assert (no_id["id"], no_id["answer"], no_id["model"]) == ("6", "no id", "")


def test_csv_lines_end_in_crlf_and_embedded_newlines_survive(tmp_path: Path) -> None:
    path = write_runs(
        tmp_path / "r.jsonl",
        [
            {
                "id": "a",
                "question": "line 1\nline 2\r\n",
                "required": ["D1"],
                "context": ["D1"],
                "correct": True,
            }
        ],
    )
    store = RunStore.load(path)
    export_runs(store, Review(store, reviewer="t"), tmp_path / "o.csv", "csv")

    assert (tmp_path / "o.csv").read_bytes().split(b"\r\n")[
        0
    ] == b"id,question,required,context," + b",".join(name.encode() for name in export.REVIEW_FIELDS)
    assert read_csv(tmp_path / "o.csv")[1][1] == "line 1\nline 2\r\n"


# -- scope --------------------------------------------------------------------------


def test_rows_choose_the_runs_and_their_order_and_invalid_rows_are_skipped(
    run_file: Path, tmp_path: Path
) -> None:
    store, review = reviewed(run_file)
    broken = store.ids.index("broken")
    rows = [store.ids.index("noted"), broken, store.ids.index("lucky")]

    assert export_runs(store, review, tmp_path / "o.jsonl", "jsonl", rows=iter(rows)) == 2
    assert [run["id"] for run in read_jsonl(tmp_path / "o.jsonl")] == ["noted", "lucky"]


def test_reviewed_only_scope_exports_the_runs_a_reviewer_labelled(run_file: Path, tmp_path: Path) -> None:
    store, review = reviewed(run_file)
    rows = [row for row in range(len(store)) if review.is_reviewed(row)]

    assert export_runs(store, review, tmp_path / "o.csv", "csv", rows=rows) == 1
    header, row = read_csv(tmp_path / "o.csv")
    assert dict(zip(header, row, strict=True))["id"] == "relabel"
    assert "question" not in header  # only the exported runs' fields make the header


def test_progress_rises_as_runs_are_written_and_ends_at_the_total(
    run_file: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("ragdiag_tui.core.output.export.PROGRESS_EVERY", 2)
    store, review = reviewed(run_file)
    valid = len(store) - len(store.errors)
    seen: list[tuple[int, int]] = []
    export_runs(store, review, tmp_path / "o.jsonl", "jsonl", progress=lambda d, t: seen.append((d, t)))
    done = [d for d, _ in seen]
    assert len(seen) >= valid // 2  # reported along the way, not only at the end
    assert 0 < done[0] < done[-1] and done == sorted(done)
    assert seen[-1][0] == seen[-1][1] and {t for _, t in seen} == {seen[-1][1]}


# -- paths --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "fmt"),
    [
        ("a.csv", "csv"),
        ("A.CSV", "csv"),
        ("a.json", "json"),
        ("a.jsonl", "jsonl"),
        ("a.txt", "jsonl"),
        ("a", "jsonl"),
    ],
)
def test_format_for_path_follows_the_extension(path: str, fmt: str) -> None:
    assert format_for_path(path) == fmt


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize(
    "run_path", ["/d/runs.jsonl", "/d/runs.json", "/d/runs", "/d/.jsonl", "r.reviewed.jsonl"]
)
def test_default_export_path_is_beside_the_run_file_and_never_it(run_path: str, fmt: str) -> None:
    path = default_export_path(run_path, fmt)
    assert os.path.dirname(path) == os.path.dirname(run_path)
    assert path.endswith(f".reviewed.{fmt}")
    assert path not in (run_path, journal_path(run_path))
    assert format_for_path(path) == fmt


def test_default_export_path_example() -> None:
    assert default_export_path("runs.jsonl", "csv") == "runs.reviewed.csv"


@pytest.mark.parametrize("target", ["run file", "journal"])
def test_the_run_file_and_its_journal_are_refused_as_targets(
    run_file: Path, tmp_path: Path, target: str
) -> None:
    store, review = reviewed(run_file)
    path = run_file if target == "run file" else Path(journal_path(run_file))
    before = path.read_bytes()
    # Reached through another spelling of the same path.
    other = tmp_path / "." / path.name

    what = "the run file" if target == "run file" else "the review journal"
    with pytest.raises(ExportError, match=f"cannot write .*{path.name}: it is {what}"):
        export_runs(store, review, str(other), "jsonl")
    assert path.read_bytes() == before
    assert files_in(tmp_path) == sorted([run_file.name, Path(journal_path(run_file)).name])


def test_an_unknown_format_is_a_value_error(run_file: Path, tmp_path: Path) -> None:
    store, review = reviewed(run_file)
    with pytest.raises(ValueError, match="unknown export format 'xml'"):
        export_runs(store, review, tmp_path / "o.xml", "xml")


# -- atomic writes and failures -------------------------------------------------------


@pytest.fixture(params=["unnamed temp file", "named temp file"])
def temp_kind(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Run a test with O_TMPFILE, and again with the portable named temporary file."""
    if request.param == "named temp file":
        monkeypatch.setattr(atomic, "_open_unnamed", lambda folder: None)
    return request.param


@pytest.mark.parametrize("fmt", FORMATS)
def test_an_export_failing_halfway_leaves_the_previous_file_intact(
    run_file: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, temp_kind: str, fmt: str
) -> None:
    store, review = reviewed(run_file)
    out = tmp_path / f"out.{fmt}"
    out.write_bytes(b"the previous export\n")
    listing = files_in(tmp_path)
    real = export.exported_run
    calls = 0

    def dies_on_the_third_run(*args: Any) -> dict[str, Any]:
        nonlocal calls
        calls += 1
        if calls == 3:
            raise RuntimeError("killed")
        return real(*args)

    monkeypatch.setattr(export, "exported_run", dies_on_the_third_run)
    with pytest.raises(RuntimeError, match="killed"):
        export_runs(store, review, out, fmt)

    assert calls == 3
    assert out.read_bytes() == b"the previous export\n"
    assert files_in(tmp_path) == listing  # no temporary file left behind


def test_a_successful_export_replaces_the_file_and_keeps_its_permissions(
    run_file: Path, tmp_path: Path, temp_kind: str
) -> None:
    store, review = reviewed(run_file)
    out = tmp_path / "out.jsonl"
    out.write_text("old\n")
    out.chmod(0o640)
    listing = files_in(tmp_path)

    export_runs(store, review, out, "jsonl")

    assert len(read_jsonl(out)) == 6
    assert out.stat().st_mode & 0o777 == 0o640
    assert files_in(tmp_path) == listing


def test_a_new_export_file_gets_the_usual_permissions(run_file: Path, tmp_path: Path, temp_kind: str) -> None:
    store, review = reviewed(run_file)
    umask = os.umask(0o022)
    try:
        export_runs(store, review, tmp_path / "new.jsonl", "jsonl")
    finally:
        os.umask(umask)
    assert (tmp_path / "new.jsonl").stat().st_mode & 0o777 == 0o644


KILLED_CHILD = textwrap.dedent(
    """
    import os, sys, time
    from ragdiag_tui.core.output.export import export_runs
    from ragdiag_tui.core.review.state import Review
    from ragdiag_tui.core.runs.store import RunStore

    store = RunStore.load(sys.argv[1])

    def halfway(done, total):
        print(done, total, flush=True)
        time.sleep(60)  # wait-ok: the parent kills us here, with part of the export written

    export_runs(store, Review(store, reviewer="t"), sys.argv[2], sys.argv[3], progress=halfway)
    """
)


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
@pytest.mark.parametrize("fmt", FORMATS)
def test_an_export_killed_halfway_leaves_the_previous_file_intact(tmp_path: Path, fmt: str) -> None:
    runs = [
        {"id": f"r{i}", "question": "x" * 200, "required": ["D1"], "context": ["D1"], "correct": True}
        for i in range(3 * export.PROGRESS_EVERY)
    ]
    run_file = write_runs(tmp_path / "runs.jsonl", runs)
    out = tmp_path / f"out.{fmt}"
    out.write_bytes(b"the previous export\n")
    listing = files_in(tmp_path)

    child = subprocess.Popen(
        [sys.executable, "-c", KILLED_CHILD, str(run_file), str(out), fmt],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert child.stdout is not None
        assert child.stdout.readline().split() == [str(export.PROGRESS_EVERY), str(len(runs))]
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=10)

    assert child.returncode == -signal.SIGKILL
    assert out.read_bytes() == b"the previous export\n"
    if atomic._open_unnamed(str(tmp_path)) is not None:  # with O_TMPFILE nothing is left behind
        assert files_in(tmp_path) == listing


def test_a_missing_folder_is_an_export_error_naming_the_path(run_file: Path, tmp_path: Path) -> None:
    store, review = reviewed(run_file)
    out = tmp_path / "no" / "such" / "out.csv"
    with pytest.raises(ExportError) as caught:
        export_runs(store, review, out, "csv")
    assert str(caught.value) == f"cannot write {out}: No such file or directory"
    assert caught.value.errno == errno.ENOENT
    assert isinstance(caught.value, OSError)


@pytest.mark.parametrize(
    ("where", "code"),
    [("open", errno.EROFS), ("open", errno.EACCES), ("fsync", errno.ENOSPC), ("replace", errno.EROFS)],
)
def test_a_read_only_or_full_disk_is_an_export_error_and_changes_nothing(
    run_file: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    temp_kind: str,
    where: str,
    code: int,
) -> None:
    # Tests run as root, where chmod cannot make a folder read-only: the failing
    # system call is simulated instead.
    store, review = reviewed(run_file)
    out = tmp_path / "out.jsonl"
    out.write_bytes(b"previous\n")
    listing = files_in(tmp_path)

    def fails(*args: Any, **kwargs: Any) -> Any:
        raise OSError(code, os.strerror(code))

    if where == "open":
        opener = "_open_unnamed" if temp_kind == "unnamed temp file" else "_open_named"
        monkeypatch.setattr(atomic, opener, fails)
    else:
        monkeypatch.setattr(atomic.os, where, fails)

    with pytest.raises(ExportError) as caught:
        export_runs(store, review, out, "jsonl")

    assert str(caught.value) == f"cannot write {out}: {os.strerror(code)}"
    assert caught.value.errno == code
    assert out.read_bytes() == b"previous\n"
    assert files_in(tmp_path) == listing


# -- CSV safety -------------------------------------------------------------------------

DANGEROUS = ["=1+2", "+1", "-1", "@SUM(A1)", "\tx", "\rx", '=HYPERLINK("http://x","y")', "-", "="]
HARMLESS = [
    "a,b",
    'say "hi"',
    "l1\nl2",
    "l1\r\nl2",
    "ünï 😀 漢字",
    "[/]",
    "[@click=app.quit]x[/]",
    " =x",
    "",
    "'",
]


def one_run_csv(tmp_path: Path, **fields: Any) -> dict[str, str]:
    run = {"id": "r", "required": ["D1"], "context": ["D1"], "correct": True, **fields}
    store = RunStore.load(write_runs(tmp_path / "r.jsonl", [run]))
    export_runs(store, Review(store, reviewer="t"), tmp_path / "o.csv", "csv")
    header, row = read_csv(tmp_path / "o.csv")
    return dict(zip(header, row, strict=True))


@pytest.mark.parametrize("text", DANGEROUS)
def test_csv_neutralises_cells_that_would_start_a_formula(tmp_path: Path, text: str) -> None:
    assert one_run_csv(tmp_path, question=text)["question"] == "'" + text


@pytest.mark.parametrize("text", HARMLESS)
def test_csv_keeps_every_other_string_exactly(tmp_path: Path, text: str) -> None:
    assert one_run_csv(tmp_path, question=text)["question"] == text


def test_csv_neutralises_id_lists_as_whole_cells_and_field_names(tmp_path: Path) -> None:
    cells = one_run_csv(tmp_path, topics=["=cmd", "b"], later=["a", "=b"], plain=["a", "b"], **{"=name": 1})
    # A list with any ID that could start a formula (in any place: a spreadsheet may split
    # the cell at ";") is a JSON array, which starts with `[`; plain IDs stay `a;b`.
    assert cells["topics"] == '["=cmd", "b"]'
    assert cells["later"] == '["a", "=b"]'
    assert cells["plain"] == "a;b"
    assert cells["'=name"] == "1"


def test_csv_writes_numbers_as_numbers(tmp_path: Path) -> None:
    cells = one_run_csv(tmp_path, a=-3, b=-0.5, c=2.0, d=[1, 2], e={"x": "=y"}, f=None, g=False)
    assert [cells[k] for k in "abcdefg"] == ["-3", "-0.5", "2.0", "[1, 2]", '{"x": "=y"}', "", "false"]


@settings(max_examples=150, deadline=None)
@given(question=st.text(), ids=st.lists(st.text(), min_size=1, max_size=4))
def test_csv_round_trips_any_string(question: str, ids: list[str]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        cells = one_run_csv(Path(folder), question=question, topics=ids)
    assert cells["question"] == export.neutralise(question)
    starts_formula = question.lstrip("'")[:1] in ("=", "+", "-", "@", "\t", "\r")
    assert cells["question"] == ("'" + question if starts_formula else question)
    assert restore(cells["question"]) == question
    topics = cells["topics"]
    assert not topics.startswith(("=", "+", "-", "@", "\t", "\r"))
    assert (json.loads(topics) if topics.startswith("[") else topics.split(";")) == ids


@settings(max_examples=100, deadline=None)
@given(
    value=st.recursive(
        st.none()
        | st.booleans()
        | st.integers()
        | st.floats(allow_nan=False, allow_infinity=False)
        | st.text(),
        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(), inner, max_size=3),
        max_leaves=10,
    )
)
def test_jsonl_round_trips_any_json_value(value: Any) -> None:
    with tempfile.TemporaryDirectory() as folder:
        run = {"id": "r", "extra": value, "required": ["D1"], "context": ["D1"], "correct": True}
        store = RunStore.load(write_runs(Path(folder) / "r.jsonl", [run]))
        export_runs(store, Review(store, reviewer="t"), Path(folder) / "o.jsonl", "jsonl")
        [line] = read_jsonl(Path(folder) / "o.jsonl")
    assert line["extra"] == value


# -- hostile numbers and strings ------------------------------------------------------------


def test_extreme_numbers_are_written_as_they_were(tmp_path: Path) -> None:
    store = RunStore.load(HOSTILE / "big_numbers.jsonl")
    review = Review(store, reviewer="t")
    export_runs(store, review, tmp_path / "o.jsonl", "jsonl")
    export_runs(store, review, tmp_path / "o.csv", "csv")

    text = (tmp_path / "o.jsonl").read_text()
    assert '"latency_ms": 1e400,' in text and '"score": 1e-400,' in text
    assert '"tokens": ' + "9" * 5000 + "," in text
    assert '"seed": 18446744073709551616,' in text
    assert '"original_correct": 1.0,' in text
    cells = read_csv(tmp_path / "o.csv")
    assert "1e400" in cells[1] and "9" * 5000 in cells[4]


def test_lone_surrogates_are_escaped_in_json_and_never_crash_csv(tmp_path: Path) -> None:
    store = RunStore.load(HOSTILE / "lone_surrogates.jsonl")
    review = Review(store, reviewer="t")
    for fmt in FORMATS:
        assert export_runs(store, review, tmp_path / f"o.{fmt}", fmt) == 3

    runs = read_jsonl(tmp_path / "o.jsonl")
    assert [run["id"] for run in runs] == store.ids
    assert runs[0]["missing"] == ["\ud800", "\uff21"]
    assert json.loads((tmp_path / "o.json").read_text()) == runs
    assert read_csv(tmp_path / "o.csv")[1][0] == "lone-high-\\ud800"


@pytest.mark.parametrize("fmt", ["jsonl", "json"])
def test_unicode_line_separators_never_split_a_json_line(tmp_path: Path, fmt: str) -> None:
    question = "a\u2028b\u2029c\x85d"
    path = write_runs(
        tmp_path / "r.jsonl",
        [{"id": "r", "question": question, "required": ["D1"], "context": ["D1"], "correct": True}],
    )
    store = RunStore.load(path)
    export_runs(store, Review(store, reviewer="t"), tmp_path / f"o.{fmt}", fmt)

    text = (tmp_path / f"o.{fmt}").read_text(encoding="utf-8")
    assert "\\u2028" in text and "\\u2029" in text and "\\u0085" in text
    lines = text.splitlines()
    assert len(lines) == (1 if fmt == "jsonl" else 3)
    parsed = json.loads(lines[0]) if fmt == "jsonl" else json.loads(text)[0]
    assert parsed["question"] == question


def test_every_hostile_file_that_loads_exports_in_every_format(tmp_path: Path) -> None:
    from ragdiag_tui.core.runs.loading import FileError

    exported = 0
    for path in sorted(HOSTILE.glob("*.json*")):
        if path.name == "MANIFEST.json":
            continue
        try:
            store = RunStore.load(path)
        except FileError:
            continue
        review = Review(store, reviewer="t")
        valid = sum(store.is_valid(row) for row in range(len(store)))
        for fmt in FORMATS:
            out = tmp_path / f"{path.name}.{fmt}"
            assert export_runs(store, review, out, fmt) == valid, (path.name, fmt)
            if fmt == "parquet":  # binary: it loads back, run for run
                assert sum(map(RunStore.load(out).is_valid, range(valid))) == valid, path.name
            else:
                out.read_bytes().decode("utf-8")
        exported += 1
    assert exported >= 20


# -- the command line ---------------------------------------------------------------------


def test_cli_export_applies_the_journal(
    run_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    reviewed(run_file)  # leaves a journal beside the run file
    out = tmp_path / "out.jsonl"

    assert main(["export", str(run_file), "-o", str(out)]) == 1  # the file has an invalid line
    runs = {run["id"]: run for run in read_jsonl(out)}
    assert len(runs) == 6
    assert (runs["relabel"]["correct"], runs["relabel"]["stage"]) == (False, "generation")
    assert runs["noted"]["note"] == "look again"
    assert "exported 6 runs to" in capsys.readouterr().err


def test_cli_export_reviewed_only_as_csv(run_file: Path, tmp_path: Path) -> None:
    reviewed(run_file)
    out = tmp_path / "out.txt"

    main(["export", str(run_file), "-o", str(out), "--format", "csv", "--reviewed-only"])
    header, row = read_csv(out)
    cells = dict(zip(header, row, strict=True))
    assert (cells["id"], cells["correct"], cells["label_source"]) == ("relabel", "false", "reviewer")


def test_cli_export_of_a_clean_file_exits_zero_and_picks_the_format_by_extension(tmp_path: Path) -> None:
    run_file = write_runs(tmp_path / "runs.jsonl", RUNS[:2])
    assert main(["export", str(run_file), "-o", str(tmp_path / "o.json")]) == 0
    assert [run["id"] for run in json.loads((tmp_path / "o.json").read_text())] == ["lucky", "relabel"]


@pytest.mark.parametrize("target", ["the run file", "a missing folder"])
def test_cli_export_that_cannot_write_says_why_and_exits_2(
    run_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture, target: str
) -> None:
    out = run_file if target == "the run file" else tmp_path / "nowhere" / "o.jsonl"
    before = run_file.read_bytes()

    assert main(["export", str(run_file), "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert f"cannot write {out}" in err and "Traceback" not in err
    assert run_file.read_bytes() == before


def test_export_imports_neither_textual_nor_rich() -> None:
    code = (
        "import sys, ragdiag_tui.core.output.export; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('textual', 'rich')))"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "[]"


def test_csv_cell_is_usable_on_its_own() -> None:
    buffer = io.StringIO(newline="")
    csv.writer(buffer).writerow([export.csv_cell(v) for v in ("=x", ["a", "b"], None, True, 7)])
    assert next(csv.reader(io.StringIO(buffer.getvalue(), newline=""))) == ["'=x", "a;b", "", "true", "7"]
