"""CSV run files: detection, cells, labels, line numbers, row errors, store, CLI, export."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from ragdiag_tui.cli import main
from ragdiag_tui.core.review.state import Review
from ragdiag_tui.core.runs.csv_runs import INVALID_CSV, delimiter_for
from ragdiag_tui.core.runs.loading import (
    INVALID_JSON,
    INVALID_RUN,
    FileError,
    LoadError,
    Record,
    Run,
    read_runs,
)
from ragdiag_tui.core.runs.mapping import PRESETS, FieldMap
from ragdiag_tui.core.runs.store import RunStore
from ragdiag_tui.core.runs.texts import content_id

REPO = Path(__file__).resolve().parents[2]
CSV_SAMPLE = REPO / "sample_runs" / "runs.csv"
HEADER = "id,required,context,correct\n"


def write(tmp_path: Path, text: str, name: str = "runs.csv") -> Path:
    path = tmp_path / name
    path.write_bytes(text.encode("utf-8"))
    return path


def load(path: Path, field_map: FieldMap | None = None) -> list[Record]:
    return list(read_runs(path, field_map=field_map))


def only_run(path: Path, field_map: FieldMap | None = None) -> Run:
    (record,) = load(path, field_map)
    assert isinstance(record, Run), record
    return record


def summary(records: list[Record]) -> list[tuple[Any, ...]]:
    return [
        (r.line, r.id, r.diagnosis) if isinstance(r, Run) else (r.line, r.kind, r.detail) for r in records
    ]


# -- which files are CSV -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "head", "expected"),
    [
        ("runs.csv", "id,required\n", ","),
        ("RUNS.CSV", "anything at all\n", ","),
        ("runs.tsv", "id\trequired\n", "\t"),
        ("runs.txt", "id,required,context\n", ","),
        ("runs", "id\trequired\tcontext\n", "\t"),
        ("runs", '"id","required"\n', ","),
        ("runs.txt", "id,question\n", None),  # no required column: not recognisably runs
        ("runs.jsonl", "id,required,context\n", None),  # a JSON name is JSON Lines
        ("runs.json", "id,required,context\n", None),
        ("runs.csv", '{"required": ["D1"]}\n', None),  # JSON content wins over the name
        ("runs.csv", "\n  [1, 2]\n", None),
    ],
)
def test_csv_is_recognised_by_name_then_by_its_header(name: str, head: str, expected: str | None) -> None:
    assert delimiter_for(name, head) == expected


def test_a_mapped_required_column_is_what_content_detection_looks_for() -> None:
    assert delimiter_for("runs.txt", "id,gold,ctx\n") is None
    assert delimiter_for("runs.txt", "id,gold,ctx\n", FieldMap({"required": "gold"})) == ","


def test_a_csv_saved_under_a_jsonl_name_stays_json_lines_with_an_error_per_line(tmp_path: Path) -> None:
    path = write(tmp_path, HEADER + "a,D1,D1,true\n", "runs.jsonl")
    assert [(r.line, r.kind) for r in load(path)] == [(1, INVALID_JSON), (2, INVALID_JSON)]


def test_a_headered_text_file_without_a_csv_name_loads_as_csv(tmp_path: Path) -> None:
    path = write(tmp_path, HEADER + "a,D1,D1,true\n", "export")
    assert only_run(path).diagnosis == {"stage": "pass", "missing": []}


def test_a_tsv_file_uses_tabs(tmp_path: Path) -> None:
    path = write(tmp_path, "id\trequired\tcontext\tcorrect\na\tD1;D2\tD1,D2\tfalse\n", "runs.tsv")
    run = only_run(path)
    assert (run.required, run.context) == (["D1", "D2"], ["D1,D2"])


# -- cells ---------------------------------------------------------------------------------


def test_id_lists_in_both_syntaxes(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        HEADER + 'a,D1;D2,"[""D2"", ""D1""]",true\nb,"[""x;y"", ""[z]""]",x;y,true\n',
    )
    first, second = load(path)
    assert isinstance(first, Run) and isinstance(second, Run)
    assert (first.required, first.context) == (["D1", "D2"], ["D2", "D1"])
    assert second.required == ["x;y", "[z]"]  # only JSON can hold a ';' or a leading '['
    assert second.diagnosis == {"stage": "retrieval", "missing": ["[z]", "x;y"]}


def test_semicolon_separated_ids_are_kept_exactly(tmp_path: Path) -> None:
    path = write(tmp_path, HEADER + 'a,"D1; D2",D1;;D2,true\n')
    run = only_run(path)
    assert run.required == ["D1", " D2"]  # no trimming: RULE.md compares IDs exactly
    assert run.context == ["D1", "", "D2"]
    assert run.diagnosis == {"stage": "retrieval", "missing": [" D2"]}


def test_a_json_array_holding_a_non_string_is_an_invalid_run_naming_the_column(tmp_path: Path) -> None:
    path = write(tmp_path, HEADER + 'a,D1,"[""D1"", 2]",true\nb,D1,D1,true\n')
    bad, good = load(path)
    assert isinstance(bad, LoadError) and isinstance(good, Run)
    assert (bad.line, bad.kind, bad.id) == (2, INVALID_RUN, "a")
    assert bad.detail == "field 'context': item 1 is number, expected a string"


@pytest.mark.parametrize("cell", ['"[""D1"", "', "[D1]", '"[""a""] x"', "[NaN]"])
def test_a_cell_starting_with_a_bracket_must_be_a_json_array(tmp_path: Path, cell: str) -> None:
    path = write(tmp_path, HEADER + f"a,{cell},D1,true\n")
    (bad,) = load(path)
    assert isinstance(bad, LoadError)
    assert (bad.kind, bad.field, bad.id) == (INVALID_RUN, "required", "a")
    assert bad.reason.startswith("not a JSON array of IDs")


def test_an_empty_required_cell_leaves_the_run_unresolved(tmp_path: Path) -> None:
    path = write(tmp_path, HEADER + "a,,D1,true\n")
    assert only_run(path).diagnosis == {"stage": "unresolved"}


def test_an_empty_context_cell_is_an_empty_context(tmp_path: Path) -> None:
    path = write(tmp_path, HEADER + "a,D2;D1,,true\n")
    run = only_run(path)
    assert run.context == []
    assert run.diagnosis == {"stage": "retrieval", "missing": ["D1", "D2"]}


def test_a_missing_context_column_makes_labelled_runs_invalid_as_the_rule_says(tmp_path: Path) -> None:
    path = write(tmp_path, "id,required,correct\na,D1,true\nb,,true\nc,D1,maybe\n")
    assert summary(load(path)) == [
        (2, INVALID_RUN, "field 'context': absent, but the run has required IDs to check"),
        (3, "b", {"stage": "unresolved"}),
        (4, "c", {"error": "answer-label"}),
    ]


@pytest.mark.parametrize(
    ("cell", "label"),
    [("true", True), ("TRUE", True), ("True", True), ("false", False), ("FALSE", False), ("False", False)],
)
def test_true_and_false_in_any_case_are_labels(tmp_path: Path, cell: str, label: bool) -> None:
    run = only_run(write(tmp_path, HEADER + f"a,D1,D1,{cell}\n"))
    assert run.label is label
    assert run.diagnosis == {"stage": "pass" if label else "generation", "missing": []}


@pytest.mark.parametrize(("cell", "kept"), [("", None), ("yes", "yes"), ("1", "1"), (" true", " true")])
def test_anything_else_or_empty_is_no_label(tmp_path: Path, cell: str, kept: Any) -> None:
    run = only_run(write(tmp_path, HEADER + f'a,D1,D1,"{cell}"\n'))
    assert run.diagnosis == {"error": "answer-label"}
    assert json.loads(run.raw)["correct"] == kept


def test_an_empty_id_cell_names_the_run_by_its_position(tmp_path: Path) -> None:
    path = write(tmp_path, HEADER + "a,D1,D1,true\n,D1,D1,true\n")
    assert [r.id for r in load(path)] == ["a", "2"]


def test_a_repeated_id_names_the_line_it_was_first_seen_on(tmp_path: Path) -> None:
    path = write(tmp_path, HEADER + "a,D1,D1,true\nb,D1,D1,true\na,D1,D1,true\n")
    assert summary(load(path))[2] == (4, INVALID_RUN, "field 'id': duplicate id \"a\", first seen on line 2")


def test_every_other_column_is_kept_as_a_string(tmp_path: Path) -> None:
    path = write(tmp_path, "id,question,required,context,correct,latency_ms,extra\na,Why?,D1,D1,true,120,\n")
    run = only_run(path)
    assert run.question == "Why?"
    assert json.loads(run.raw) == {
        "id": "a",
        "question": "Why?",
        "required": ["D1"],
        "context": ["D1"],
        "correct": True,
        "latency_ms": "120",
        "extra": "",
    }


# -- line numbers and broken rows ----------------------------------------------------------


def test_line_numbers_are_where_each_row_starts_after_a_multi_line_cell(tmp_path: Path) -> None:
    text = (
        "id,question,required,context,correct\n"
        'a,"a question\nover three\nlines",D1,D1,true\n'
        "\n"
        'b,plain,D1,"[""D1"", 5]",true\n'
        "c,plain,D1,D1,false\n"
    )
    assert summary(load(write(tmp_path, text))) == [
        (2, "a", {"stage": "pass", "missing": []}),
        (6, INVALID_RUN, "field 'context': item 1 is number, expected a string"),
        (7, "c", {"stage": "generation", "missing": []}),
    ]


def test_line_numbers_count_crlf_and_bare_cr_line_ends(tmp_path: Path) -> None:
    crlf = write(tmp_path, "id,required,context,correct\r\na,D1,D1,true\r\nb,D1,D1,nope\r\n", "crlf.csv")
    assert [(r.line, r.id) for r in load(crlf)] == [(2, "a"), (3, "b")]
    expected = [
        (2, "a", {"stage": "pass", "missing": []}),
        (3, "b", {"stage": "retrieval", "missing": ["D1"]}),
    ]
    for ending in ("\r", ""):  # old Mac line ends, with and without a last one
        old_mac = write(tmp_path, f"id,required,context,correct\ra,D1,D1,true\rb,D1,,true{ending}", "mac.csv")
        assert summary(load(old_mac)) == expected
    mixed = write(tmp_path, "id,required,context,correct\r\na,D1,D1,true\rb,D1,,true\n", "mixed.csv")
    assert summary(load(mixed)) == expected


def test_a_row_with_the_wrong_number_of_cells_is_an_invalid_row(tmp_path: Path) -> None:
    path = write(tmp_path, HEADER + "a,D1,D1\nb,D1,D1,true,extra\nc,D1,D1,true\n")
    assert summary(load(path)) == [
        (2, INVALID_CSV, "the row has 3 cells; the header has 4"),
        (3, INVALID_CSV, "the row has 5 cells; the header has 4"),
        (4, "c", {"stage": "pass", "missing": []}),
    ]
    assert [r.id for r in load(path)] == ["a", "b", "c"]


def test_bad_quoting_is_an_invalid_row_and_the_rest_loads(tmp_path: Path) -> None:
    path = write(tmp_path, HEADER + 'a,"D1"x,D1,true\nb,D1,D1,true\n')
    first, second = load(path)
    assert isinstance(first, LoadError) and first.kind == INVALID_CSV and first.line == 2
    assert first.reason.startswith("not valid CSV")
    assert isinstance(second, Run) and second.line == 3


def test_an_unclosed_quote_is_reported_where_its_row_starts(tmp_path: Path) -> None:
    path = write(tmp_path, HEADER + 'a,D1,D1,true\nb,"D1,D1,true\nc,D1,D1,true\n')
    records = load(path)
    assert [(r.line, type(r).__name__) for r in records] == [(2, "Run"), (3, "LoadError")]
    assert "never closed" in records[1].reason  # type: ignore[union-attr]


def test_bytes_that_are_not_utf8_make_their_row_invalid(tmp_path: Path) -> None:
    path = tmp_path / "runs.csv"
    path.write_bytes(HEADER.encode() + b"a,D\xff1,D1,true\nb,D1,D1,true\n")
    bad, good = load(path)
    assert isinstance(bad, LoadError) and isinstance(good, Run)
    assert (bad.line, bad.kind, bad.id) == (2, INVALID_CSV, "a")
    assert bad.reason == "not valid UTF-8 (byte 0xff on line 2, column 4)"


def test_a_bom_and_blank_lines_before_the_header_are_fine(tmp_path: Path) -> None:
    path = tmp_path / "runs.csv"
    path.write_bytes(b"\xef\xbb\xbf\n\n" + HEADER.encode() + b"a,D1,D1,true\n")
    assert [(r.line, r.id) for r in load(path)] == [(4, "a")]


# -- the header ------------------------------------------------------------------------------


def test_a_header_without_the_required_column_is_refused_with_a_hint(tmp_path: Path) -> None:
    path = write(tmp_path, "id,gold,ctx,correct\na,D1,D1,true\n")
    with pytest.raises(FileError) as caught:
        load(path)
    message = str(caught.value)
    assert "no 'required' column" in message and "'gold'" in message
    assert "--map required=COLUMN" in message


def test_a_header_naming_a_column_twice_is_refused(tmp_path: Path) -> None:
    with pytest.raises(FileError, match="names the column 'context' twice"):
        load(write(tmp_path, "id,required,context,context\n"))


def test_a_header_only_file_has_no_runs(tmp_path: Path) -> None:
    assert load(write(tmp_path, HEADER)) == []


# -- field maps on CSV -------------------------------------------------------------------------


def test_mapped_columns_are_read_by_their_exact_names(tmp_path: Path) -> None:
    text = 'run,question,gold,retrieval.doc_ids,ok\nr1,q,D1;D2,D1,TRUE\nr2,q,D1,"[""D1"", 3]",false\n'
    field_map = FieldMap({"id": "run", "required": "gold", "context": "retrieval.doc_ids", "correct": "ok"})
    records = load(write(tmp_path, text, "gold.csv"), field_map)
    assert summary(records) == [
        (2, "r1", {"stage": "retrieval", "missing": ["D2"]}),
        (
            3,
            INVALID_RUN,
            "field 'retrieval.doc_ids' (mapped to context): item 1 is number, expected a string",
        ),
    ]
    assert records[0].label is True  # type: ignore[union-attr]


def test_a_broken_cell_in_a_mapped_column_names_the_column_and_the_field(tmp_path: Path) -> None:
    text = "run,gold,ctx,correct\nr1,[D1,D1,true\n"
    field_map = FieldMap({"id": "run", "required": "gold", "context": "ctx"})
    (bad,) = load(write(tmp_path, text), field_map)
    assert isinstance(bad, LoadError)
    assert (bad.field, bad.mapped_to, bad.id) == ("gold", "required", "r1")
    assert bad.detail.startswith("field 'gold' (mapped to required): not a JSON array of IDs")


# What pandas' `to_csv` writes: an unnamed index column, each list as a Python literal
# (quoted when it holds a comma), booleans as True/False.
PANDAS_LISTS = (
    ",{required},{context},ok\n"
    "0,\"['doc-1', 'doc-2']\",['doc-1'],True\n"
    "1,['doc-3'],\"['doc-3', 'doc-4']\",False\n"
)


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_id_lists_written_by_pandas_load_under_every_preset(tmp_path: Path, preset: str) -> None:
    path = write(tmp_path, PANDAS_LISTS.format(**PRESETS[preset]))
    first, second = load(path, FieldMap.from_specs(["correct=ok"], preset=preset))
    assert isinstance(first, Run) and isinstance(second, Run), (first, second)

    def ids(docs: list[str]) -> list[str]:  # deepeval's documents are texts: each its content ID
        return [content_id(doc) for doc in docs] if preset == "deepeval" else docs

    assert (first.required, first.context) == (ids(["doc-1", "doc-2"]), ids(["doc-1"]))
    assert (second.required, second.context) == (ids(["doc-3"]), ids(["doc-3", "doc-4"]))
    assert first.diagnosis == {"stage": "retrieval", "missing": ids(["doc-2"])}
    assert second.diagnosis == {"stage": "generation", "missing": []}


def test_without_a_preset_a_python_list_literal_is_still_not_an_id_list(tmp_path: Path) -> None:
    path = write(tmp_path, PANDAS_LISTS.format(required="required", context="context"))
    bad, _ = load(path)
    assert isinstance(bad, LoadError) and bad.reason.startswith("not a JSON array of IDs")


def test_diagnose_llamaindex_results_saved_by_pandas(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = write(tmp_path, PANDAS_LISTS.format(**PRESETS["llamaindex"]), "li_results.csv")
    code, out, err = run_cli(capsys, "diagnose", path, "--preset", "llamaindex", "--map", "correct=ok")
    assert "not a JSON array" not in err
    assert [json.loads(line) for line in out.splitlines()] == [
        {"id": "1", "stage": "retrieval", "missing": ["doc-2"]},
        {"id": "2", "stage": "generation", "missing": []},
    ]
    assert code == 0


# -- the store, the review and the journal -------------------------------------------------------


def test_the_store_gives_back_the_row_object_and_rediagnoses_it(tmp_path: Path) -> None:
    path = write(tmp_path, "id,question,required,context,correct,model\na,Why?,D1;D2,D1,false,m1\n")
    store = RunStore.load(path)
    assert store.raw(0) == {
        "id": "a",
        "question": "Why?",
        "required": ["D1", "D2"],
        "context": ["D1"],
        "correct": False,
        "model": "m1",
    }
    assert store.fields(0).required == ["D1", "D2"]
    review = Review(store)
    review.set_label(0, True)
    assert review.diagnosis(0) == {"stage": "retrieval", "missing": ["D2"]}
    assert review.lucky == 1


def test_the_row_text_is_stable_so_journal_digests_match_on_reload(tmp_path: Path) -> None:
    path = write(tmp_path, HEADER + "a,D1,D1,true\n")
    assert RunStore.load(path).raw_text(0) == RunStore.load(path).raw_text(0)


# -- the command line and export -------------------------------------------------------------


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str | Path) -> tuple[int, str, str]:
    code = main([str(arg) for arg in argv])
    out, err = capsys.readouterr()
    return code, out, err


SAMPLE_DIAGNOSES = [
    {"id": "csv-01", "stage": "pass", "missing": []},
    {"id": "csv-02", "stage": "generation", "missing": []},
    {"id": "csv-03", "stage": "retrieval", "missing": ["hr-policy-043"]},
    {"id": "csv-04", "stage": "retrieval", "missing": ["kb/eng/deploy-guide#5"]},
    {"id": "csv-05", "stage": "unresolved"},
    {"id": "csv-06", "error": "answer-label"},
    {"id": "csv-07", "stage": "pass", "missing": []},
    {
        "line": 10,
        "id": "csv-08",
        "error": "invalid-run",
        "field": "context",
        "detail": "field 'context': item 1 is number, expected a string",
    },
    {"id": "csv-09", "error": "answer-label"},
    {"id": "10", "stage": "retrieval", "missing": ["docs/api-keys#3", "docs/api-keys#4"]},
]


def test_diagnose_the_csv_sample(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "diagnose", CSV_SAMPLE)
    assert code == 1
    assert [json.loads(line) for line in out.splitlines()] == SAMPLE_DIAGNOSES


def test_stats_of_a_mapped_csv(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = write(tmp_path, "name,gold,got,ok\nx,D1,D2,TRUE\ny,D1,D1,FALSE\n", "labelled")
    maps = ["--map", "id=name", "--map", "required=gold", "--map", "context=got"]
    code, out, _ = run_cli(capsys, "stats", path, "--json", *maps)
    assert code == 0
    stats = json.loads(out)
    assert stats["stages"]["retrieval"] == 0 and stats["label_errors"] == 2  # `correct` is unmapped
    code, out, _ = run_cli(capsys, "stats", path, "--json", *maps, "--map", "correct=ok")
    stats = json.loads(out)
    assert (stats["lucky_in_file"], stats["stages"]["generation"]) == (1, 1)


def test_a_csv_without_the_required_column_exits_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, _, err = run_cli(capsys, "diagnose", write(tmp_path, "id,gold\na,D1\n"))
    assert code == 2
    assert "no 'required' column" in err


def test_a_csv_exported_to_json_lines_loads_back_with_the_same_diagnoses(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, samples: Path
) -> None:
    pytest.importorskip("ragdiag_tui.core.output.export")
    out = tmp_path / "reviewed.jsonl"
    assert run_cli(capsys, "export", samples / CSV_SAMPLE.name, "-o", out)[0] == 1  # the sample's bad row
    exported = [json.loads(line) for line in out.read_text().splitlines()]
    assert exported[0]["model"] == "gpt-4o-mini" and exported[0]["latency_ms"] == "1415"
    assert exported[0]["context"] == ["hr-policy-012", "hr-policy-014"]
    code, again, _ = run_cli(capsys, "diagnose", out)
    assert code == 0
    valid = [d for d in SAMPLE_DIAGNOSES if "line" not in d]
    assert [json.loads(line) for line in again.splitlines()] == valid


def test_a_csv_exported_to_csv_loads_back_with_the_same_diagnoses(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, samples: Path
) -> None:
    pytest.importorskip("ragdiag_tui.core.output.export")
    out = tmp_path / "reviewed.csv"
    run_cli(capsys, "export", samples / CSV_SAMPLE.name, "-o", out)
    code, again, _ = run_cli(capsys, "diagnose", out)
    assert code == 0
    valid = [d for d in SAMPLE_DIAGNOSES if "line" not in d]
    assert [json.loads(line) for line in again.splitlines()] == valid


def test_progress_on_a_csv_file_ends_at_the_total(tmp_path: Path) -> None:
    path = write(tmp_path, HEADER + "".join(f"r{n},D1,D1,true\n" for n in range(20_000)))
    seen: list[tuple[int, int]] = []
    records = list(read_runs(path, lambda done, total: seen.append((done, total))))
    assert len(records) == 20_000
    size = path.stat().st_size
    assert len(seen) >= 2 and seen[-1] == (size, size)
    assert all(done <= total == size for done, total in seen)
