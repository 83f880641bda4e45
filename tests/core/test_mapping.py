"""Field mapping: --map FIELD=SOURCE and --preset, through the loader, the store and the CLI."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from ragdiag_tui.cli import main, parse_args
from ragdiag_tui.core.review.state import Review
from ragdiag_tui.core.runs.loading import INVALID_RUN, LoadError, Record, RecordBuilder, Run, read_runs
from ragdiag_tui.core.runs.mapping import (
    MAPPABLE,
    PRESETS,
    FieldMap,
    MappedFieldError,
    MapSpecError,
    parse_spec,
)
from ragdiag_tui.core.runs.store import RunStore

WriteRuns = Callable[..., Path]
REPO = Path(__file__).resolve().parents[2]
HOSTILE = REPO / "tests" / "data" / "hostile"
RAGAS_SAMPLE = REPO / "sample_runs" / "ragas_runs.jsonl"
RAGAS = FieldMap.from_specs(preset="ragas")


def ragas(required: Any, context: Any, correct: Any = True, **extra: Any) -> dict[str, Any]:
    run = {"user_input": "q?", "response": "a.", "reference_context_ids": required}
    run["retrieved_context_ids"] = context
    return {**run, "correct": correct, **extra}


def load(path: Path, field_map: FieldMap | None = None) -> list[Record]:
    return list(read_runs(path, field_map=field_map))


def summary(records: list[Record]) -> list[tuple[Any, ...]]:
    """(line, id, diagnosis) for runs, (line, kind, detail) for errors."""
    return [
        (r.line, r.id, r.diagnosis) if isinstance(r, Run) else (r.line, r.kind, r.detail) for r in records
    ]


def error(records: list[Record], line: int) -> LoadError:
    found = [r for r in records if r.line == line]
    assert len(found) == 1 and isinstance(found[0], LoadError), found
    return found[0]


# -- specs and presets -----------------------------------------------------------------


def test_a_spec_is_field_equals_source() -> None:
    assert parse_spec("context=retrieval.doc_ids") == ("context", "retrieval.doc_ids")
    assert parse_spec("required=retrieved[].doc_id") == ("required", "retrieved[].doc_id")
    assert parse_spec("id=a=b") == ("id", "a=b")  # only the first '=' separates


@pytest.mark.parametrize(
    ("spec", "says"),
    [
        ("context", "is not FIELD=SOURCE"),
        ("ctx=retrieved", "unknown field 'ctx'"),
        ("context=", "the source is empty"),
        ("context=a..b", "empty key"),
        ("context=.a", "empty key"),
        ("context=a[0].b", "only a key followed by []"),
        ("context=a[].b[].c", "more than one list"),
        ("context=a[]", "[] must be followed by a key"),
    ],
)
def test_a_malformed_spec_says_what_is_wrong(spec: str, says: str) -> None:
    with pytest.raises(MapSpecError, match=says.replace("[", r"\[").replace("]", r"\]")):
        parse_spec(spec)


def test_an_unknown_field_error_lists_the_mappable_fields() -> None:
    with pytest.raises(MapSpecError) as caught:
        parse_spec("label=ok")
    assert "id, required, context, correct, question, answer" in str(caught.value)
    assert MAPPABLE == ("id", "required", "context", "correct", "question", "answer")


def test_the_ragas_preset_maps_the_ragas_sample_names() -> None:
    assert PRESETS["ragas"] == {
        "required": "reference_context_ids",
        "context": "retrieved_context_ids",
        "question": "user_input",
        "answer": "response",
    }
    assert RAGAS.sources == PRESETS["ragas"]


def test_a_map_overrides_its_field_of_the_preset_and_keeps_the_rest() -> None:
    field_map = FieldMap.from_specs(["context=retrieval.doc_ids", "id=meta.sample_id"], "ragas")
    assert field_map.sources["context"] == "retrieval.doc_ids"
    assert field_map.sources["required"] == "reference_context_ids"
    assert field_map.sources["id"] == "meta.sample_id"


def test_a_later_spec_for_the_same_field_wins() -> None:
    assert FieldMap.from_specs(["context=a", "context=b"]).sources == {"context": "b"}


def test_an_unknown_preset_names_the_presets() -> None:
    with pytest.raises(MapSpecError, match="unknown preset 'langfuse'; presets: deepeval, llamaindex, ragas"):
        FieldMap.from_specs(preset="langfuse")


def test_an_empty_map_is_false_and_changes_nothing() -> None:
    assert not FieldMap.from_specs()
    obj = {"required": ["D1"], "context": ["D1"]}
    assert FieldMap().apply(obj) == obj


def test_a_map_can_be_passed_on_as_command_line_arguments() -> None:
    field_map = FieldMap.from_specs(["context=retrieved[].doc_id"])
    assert field_map.to_args() == ["--map", "context=retrieved[].doc_id"]
    assert FieldMap.from_specs(parse_args(["stats", "f", *field_map.to_args()]).map) == field_map


# -- apply: paths --------------------------------------------------------------------


def test_a_dotted_path_reads_into_nested_objects() -> None:
    field_map = FieldMap({"context": "retrieval.doc_ids"})
    obj = {"retrieval": {"doc_ids": ["D1", "D2"], "k": 5}}
    assert field_map.apply(obj)["context"] == ["D1", "D2"]


def test_a_list_path_collects_a_key_from_every_object_of_the_list() -> None:
    field_map = FieldMap({"context": "retrieved[].doc_id", "required": "gold[].meta.id"})
    obj = {
        "retrieved": [{"doc_id": "D2", "score": 0.9}, {"doc_id": "D1", "score": 0.4}],
        "gold": [{"meta": {"id": "D1"}}],
    }
    mapped = field_map.apply(obj)
    assert mapped["context"] == ["D2", "D1"]
    assert mapped["required"] == ["D1"]


def test_a_key_spelled_as_the_whole_source_wins_over_the_path() -> None:
    field_map = FieldMap({"context": "retrieval.doc_ids"})
    obj = {"retrieval.doc_ids": ["flat"], "retrieval": {"doc_ids": ["nested"]}}
    assert field_map.apply(obj)["context"] == ["flat"]


def test_apply_returns_a_new_object_and_leaves_the_original_untouched() -> None:
    obj = {"user_input": "q", "reference_context_ids": ["D1"], "context": "a long text", "x": 1}
    before = json.loads(json.dumps(obj))
    mapped = RAGAS.apply(obj)
    assert obj == before
    assert mapped is not obj
    assert mapped["question"] == "q" and mapped["x"] == 1 and mapped["user_input"] == "q"


def test_a_mapped_field_whose_source_is_absent_is_absent_even_if_its_own_name_is_there() -> None:
    # The file's own `context` (a text here) is not the mapped context.
    mapped = RAGAS.apply({"reference_context_ids": ["D1"], "context": "some text"})
    assert "context" not in mapped


def test_null_on_the_way_down_reads_as_null() -> None:
    assert FieldMap({"context": "retrieval.doc_ids"}).apply({"retrieval": None})["context"] is None
    assert FieldMap({"context": "hits[].id"}).apply({"hits": None})["context"] is None


@pytest.mark.parametrize(
    ("source", "obj", "reason"),
    [
        ("retrieval.doc_ids", {"retrieval": "D1"}, "'retrieval' is string, expected an object"),
        ("a.b.c", {"a": {"b": [1]}}, "'a.b' is array, expected an object"),
        ("hits[].id", {"hits": {"id": "D1"}}, "'hits' is object, expected a list"),
        ("hits[].id", {"hits": [{"id": "D1"}, "D2"]}, "'hits[1]' is string, expected an object"),
        ("hits[].id", {"hits": [{"id": "D1"}, {"doc": "D2"}]}, "'hits[1]' has no 'id'"),
        ("hits[].m.id", {"hits": [{"m": 3}]}, "'hits[0].m' is number, expected an object"),
    ],
)
def test_a_path_that_cannot_be_followed_names_the_source_and_the_field(
    source: str, obj: dict[str, Any], reason: str
) -> None:
    with pytest.raises(MappedFieldError) as caught:
        FieldMap({"context": source}).apply(obj)
    assert (caught.value.field, caught.value.mapped_to, caught.value.reason) == (source, "context", reason)


def test_anything_but_an_object_is_left_for_validation_to_reject() -> None:
    assert RAGAS.apply([1, 2]) == [1, 2]


# -- loading: mapped runs follow RULE.md strictly --------------------------------------


def test_ragas_runs_diagnose_exactly_as_the_same_runs_in_the_rules_names(write_runs: WriteRuns) -> None:
    cases = [
        (["D1"], ["D1", "D2"], True),
        (["D1"], ["D1"], False),
        (["D2", "D1", "D3"], ["D1"], True),  # a lucky answer
        ([], ["D1"], True),
        (None, None, None),
        (["D1"], ["D1"], "true"),
        (["b", "B", "a", "a"], [], False),
    ]
    mapped = write_runs([ragas(r, c, k) for r, c, k in cases], name="ragas.jsonl")
    plain = write_runs([{"required": r, "context": c, "correct": k} for r, c, k in cases], name="plain.jsonl")
    assert summary(load(mapped, RAGAS)) == summary(load(plain))
    assert load(mapped, RAGAS)[2].diagnosis == {"stage": "retrieval", "missing": ["D2", "D3"]}


def test_a_mapped_field_of_the_wrong_type_names_its_source_field(write_runs: WriteRuns) -> None:
    field_map = FieldMap({"context": "retrieval.doc_ids"})
    path = write_runs([{"required": ["D1"], "retrieval": {"doc_ids": ["D1", "D2", 3]}, "correct": True}])
    bad = error(load(path, field_map), 1)
    assert bad.kind == INVALID_RUN
    assert (bad.field, bad.mapped_to) == ("retrieval.doc_ids", "context")
    assert bad.detail == "field 'retrieval.doc_ids' (mapped to context): item 2 is number, expected a string"
    assert bad.message(path).endswith(f"line 1: {bad.detail}")


@pytest.mark.parametrize(
    ("source_value", "reason"),
    [
        ("D1", "expected a list of strings, got string"),
        ({"D1": True}, "expected a list of strings, got object"),
        (["D1", None], "item 1 is null, expected a string"),
    ],
)
def test_mapped_lists_are_validated_as_strictly_as_the_rules_own(
    write_runs: WriteRuns, source_value: Any, reason: str
) -> None:
    path = write_runs([ragas(source_value, ["D1"])])
    bad = error(load(path, RAGAS), 1)
    assert bad.detail == f"field 'reference_context_ids' (mapped to required): {reason}"


def test_a_mapped_label_is_not_coerced(write_runs: WriteRuns) -> None:
    field_map = FieldMap({"correct": "human.ok"})
    labels = ["true", 1, "yes", None]
    path = write_runs([{"required": ["D1"], "context": ["D1"], "human": {"ok": v}} for v in labels])
    assert [r.diagnosis for r in load(path, field_map)] == [{"error": "answer-label"}] * len(labels)


def test_a_mapped_id_that_is_not_a_string_names_its_source(write_runs: WriteRuns) -> None:
    path = write_runs([{"meta": {"n": 7}, "required": [], "correct": True}])
    bad = error(load(path, FieldMap({"id": "meta.n"})), 1)
    assert bad.detail == "field 'meta.n' (mapped to id): expected a string, got number"


def test_an_absent_mapped_context_with_required_ids_is_invalid_and_names_the_source(
    write_runs: WriteRuns,
) -> None:
    path = write_runs([{"id": "r1", "reference_context_ids": ["D1"], "context": ["D1"], "correct": True}])
    bad = error(load(path, RAGAS), 1)
    assert bad.id == "r1"
    assert bad.detail == (
        "field 'retrieved_context_ids' (mapped to context): absent, but the run has required IDs to check"
    )


def test_a_path_error_is_a_per_line_error_and_the_rest_loads(write_runs: WriteRuns) -> None:
    field_map = FieldMap({"context": "hits[].doc_id", "id": "meta.id"})
    path = write_runs(
        [
            {"meta": {"id": "a"}, "required": ["D1"], "hits": [{"doc_id": "D1"}], "correct": True},
            {"meta": {"id": "b"}, "required": ["D1"], "hits": [{"doc": "D1"}], "correct": True},
            {"meta": {"id": "c"}, "required": ["D1"], "hits": [], "correct": False},
        ]
    )
    assert summary(load(path, field_map)) == [
        (1, "a", {"stage": "pass", "missing": []}),
        (2, INVALID_RUN, "field 'hits[].doc_id' (mapped to context): 'hits[0]' has no 'doc_id'"),
        (3, "c", {"stage": "retrieval", "missing": ["D1"]}),
    ]
    assert error(load(path, field_map), 2).id == "b"


def test_positional_ids_and_duplicate_ids_work_through_a_map(write_runs: WriteRuns) -> None:
    field_map = FieldMap({"id": "meta.name", "required": "gold", "context": "got"})
    path = write_runs(
        [
            {"gold": ["D1"], "got": ["D1"], "correct": True},
            {"meta": {"name": "x"}, "gold": ["D1"], "got": [], "correct": True},
            "",
            {"meta": {"name": "x"}, "gold": ["D1"], "got": ["D1"], "correct": True},
            {"meta": {}, "gold": ["D1"], "got": ["D1"], "correct": False},
        ]
    )
    records = load(path, field_map)
    assert [r.id for r in records] == ["1", "x", "x", "4"]
    assert (
        error(records, 4).detail
        == "field 'meta.name' (mapped to id): duplicate id \"x\", first seen on line 2"
    )


def test_invalid_json_under_a_map_is_the_same_invalid_line(write_runs: WriteRuns) -> None:
    lines = ['{"reference_context_ids": [', '{"reference_context_ids": nan}', "[1, 2]"]
    path = write_runs(lines)
    assert summary(load(path, RAGAS)) == summary(load(path))


def test_nan_in_a_mapped_rule_field_is_a_number_and_names_the_source(write_runs: WriteRuns) -> None:
    path = write_runs(['{"reference_context_ids": NaN, "retrieved_context_ids": [], "score": NaN}'])
    (record,) = load(path, RAGAS)
    assert isinstance(record, LoadError)
    assert record.detail == (
        "field 'reference_context_ids' (mapped to required): expected a list of strings, got number"
    )


def test_a_json_array_and_a_runs_object_are_mapped_too(tmp_path: Path) -> None:
    runs = [ragas(["D1"], ["D1"]), ragas(["D1"], [], False)]
    array = tmp_path / "runs.json"
    array.write_text(json.dumps(runs, indent=2))
    wrapped = tmp_path / "wrapped.json"
    wrapped.write_text(json.dumps({"name": "sweep", "runs": runs}))
    for path in (array, wrapped):
        assert [r.diagnosis["stage"] for r in load(path, RAGAS)] == ["pass", "retrieval"]


def test_a_run_keeps_its_original_text_under_a_map(write_runs: WriteRuns) -> None:
    run = ragas(["D1"], ["D1"], extra_field=[1, {"k": None}])
    path = write_runs([run])
    (loaded,) = load(path, RAGAS)
    assert isinstance(loaded, Run)
    assert json.loads(loaded.raw) == run
    assert loaded.question == "q?"


def test_the_unmapped_loader_keeps_its_typed_fast_path() -> None:
    builder = RecordBuilder()
    assert builder.read_line.__func__ is RecordBuilder.from_line  # type: ignore[attr-defined]
    assert RecordBuilder(FieldMap()).read_line.__func__ is RecordBuilder.from_line  # type: ignore[attr-defined]
    assert RecordBuilder(RAGAS).read_line.__func__ is not RecordBuilder.from_line  # type: ignore[attr-defined]


HOSTILE_FILES = sorted(p.name for p in HOSTILE.glob("*.json*") if p.name != "MANIFEST.json")


@pytest.mark.parametrize("name", HOSTILE_FILES)
def test_a_map_of_each_field_to_itself_changes_no_verdict_on_any_hostile_file(name: str) -> None:
    identity = FieldMap({field: field for field in MAPPABLE})
    outcomes = []
    for field_map in (None, identity):
        try:
            outcomes.append(load(HOSTILE / name, field_map))
        except Exception as exc:  # FileError: the same message both ways
            outcomes.append([str(exc)])  # type: ignore[list-item]
    assert [fields_of(one) for one in outcomes[0]] == [fields_of(one) for one in outcomes[1]]


def fields_of(outcome: object) -> object:
    """A run's fields as a tuple, compared element by element with identity first: a NaN label
    (one shared object) equals itself, as it does not under a dataclass's `==` on Python 3.13,
    which compares field by field."""
    if dataclasses.is_dataclass(outcome):
        return (type(outcome), *(getattr(outcome, f.name) for f in dataclasses.fields(outcome)))
    return outcome


# -- the store re-applies the map ----------------------------------------------------------


def test_the_store_keeps_the_map_and_rediagnoses_a_mapped_run(write_runs: WriteRuns) -> None:
    path = write_runs([ragas(["D1"], ["D1"], False, id="g"), ragas(["D1", "D2"], ["D1"], None, id="r")])
    store = RunStore.load(path, field_map=RAGAS)
    assert store.field_map == RAGAS
    assert "reference_context_ids" in store.raw(0) and "required" not in store.raw(0)
    assert store.run_object(0)["required"] == ["D1"]
    assert store.run_object(0)["answer"] == "a."
    assert store.fields(1).context == ["D1"]
    review = Review(store)
    review.set_label(0, True)
    review.set_label(1, True)
    assert review.diagnosis(0) == {"stage": "pass", "missing": []}
    assert review.diagnosis(1) == {"stage": "retrieval", "missing": ["D2"]}
    assert review.lucky == 1


def test_an_empty_map_keeps_the_store_unmapped(write_runs: WriteRuns) -> None:
    path = write_runs([{"required": ["D1"], "context": ["D1"], "correct": True}])
    assert RunStore.load(path, field_map=FieldMap()).field_map is None


# -- the command line ------------------------------------------------------------------


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str | Path) -> tuple[int, str, str]:
    code = main([str(arg) for arg in argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def nested(write_runs: WriteRuns) -> Path:
    return write_runs(
        [
            {"q": {"id": "n1"}, "gold": ["D1"], "retrieval": {"hits": [{"doc": "D1"}]}, "ok": True},
            {"q": {"id": "n2"}, "gold": ["D2"], "retrieval": {"hits": [{"doc": "D1"}]}, "ok": True},
            {"q": {"id": "n3"}, "gold": ["D1"], "retrieval": {"hits": [{"doc": 9}]}, "ok": False},
        ],
        name="nested.jsonl",
    )


NESTED_MAP = ["--map", "id=q.id", "--map", "required=gold", "--map", "context=retrieval.hits[].doc"]


def test_diagnose_with_maps(capsys: pytest.CaptureFixture[str], nested: Path) -> None:
    code, out, err = run_cli(capsys, "diagnose", nested, *NESTED_MAP, "--map", "correct=ok")
    assert code == 1
    assert [json.loads(line) for line in out.splitlines()] == [
        {"id": "n1", "stage": "pass", "missing": []},
        {"id": "n2", "stage": "retrieval", "missing": ["D2"]},
        {
            "line": 3,
            "id": "n3",
            "error": "invalid-run",
            "field": "retrieval.hits[].doc",
            "detail": "field 'retrieval.hits[].doc' (mapped to context): item 0 is number, expected a string",
        },
    ]
    assert "1 lucky answer in the file;" in err  # one, not "1 lucky answers"


def test_stats_with_a_preset(capsys: pytest.CaptureFixture[str], samples: Path) -> None:
    code, out, _ = run_cli(capsys, "stats", samples / RAGAS_SAMPLE.name, "--preset", "ragas", "--json")
    stats = json.loads(out)
    assert code == 1  # the sample has one run whose retrieved ids hold a null
    assert (
        stats["runs"] == 9
        and stats["invalid_lines"] == 1
        and stats["lucky_in_file"] == stats["still_lucky"] == 1
    )
    assert stats["stages"] == {"retrieval": 3, "generation": 2, "pass": 2, "unresolved": 1, "answer-label": 1}


def test_the_ragas_sample_loads_whole_with_its_nested_ids(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(
        capsys,
        "diagnose",
        RAGAS_SAMPLE,
        "--preset",
        "ragas",
        "--map",
        "id=meta.sample_id",
        "--map",
        "context=retrieval.chunks[].doc_id",
    )
    lines = [json.loads(line) for line in out.splitlines()]
    assert code == 0
    assert [line["id"] for line in lines] == [f"ragas-{n:03d}" for n in range(1, 11)]


def test_check_with_a_map_on_a_case_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    cases = [
        {"id": "c1", "input": ragas(["D1"], ["D1"]), "expected": {"stage": "pass", "missing": []}},
        {"id": "c2", "input": ragas(["D1"], [], True), "expected": {"stage": "retrieval", "missing": ["D1"]}},
    ]
    path = tmp_path / "cases.json"
    path.write_text(json.dumps(cases))
    code, out, _ = run_cli(capsys, "check", path, "--preset", "ragas")
    assert (code, json.loads(out)) == (0, {"checked": 2, "caseIds": ["c1", "c2"]})
    # Without the preset the same cases are unresolved, and disagree.
    assert run_cli(capsys, "check", path)[0] == 1


def test_export_keeps_the_files_names_and_loads_back_through_the_same_map(
    capsys: pytest.CaptureFixture[str], nested: Path, tmp_path: Path
) -> None:
    pytest.importorskip("ragdiag_tui.core.output.export")
    out = tmp_path / "reviewed.jsonl"
    code, _, _ = run_cli(capsys, "export", nested, *NESTED_MAP, "--map", "correct=ok", "-o", out)
    assert code == 1
    exported = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(exported) == 2
    first = exported[0]
    assert first["gold"] == ["D1"] and first["retrieval"] == {"hits": [{"doc": "D1"}]}
    assert first["q"] == {"id": "n1"}
    assert "required" not in first and "context" not in first
    assert (first["stage"], first["correct"]) == ("pass", True)
    again = run_cli(capsys, "diagnose", out, *NESTED_MAP, "--map", "correct=ok")
    assert again[0] == 0
    assert [json.loads(line)["stage"] for line in again[1].splitlines()] == ["pass", "retrieval"]


def test_export_of_a_preset_file_with_a_review_loads_back_with_the_review_applied(
    write_runs: WriteRuns, tmp_path: Path
) -> None:
    export = pytest.importorskip("ragdiag_tui.core.output.export")
    path = write_runs([ragas(["D1"], ["D1"], False, id="a"), ragas(["D1"], ["D1"], None, id="b")])
    store = RunStore.load(path, field_map=RAGAS)
    review = Review(store)
    review.set_label(0, True)
    out = tmp_path / "out.jsonl"
    assert export.export_runs(store, review, out, "jsonl") == 2
    back = load(out, RAGAS)
    assert [r.diagnosis for r in back] == [{"stage": "pass", "missing": []}, {"error": "answer-label"}]
    assert all("user_input" in json.loads(r.raw) for r in back if isinstance(r, Run))


def test_an_unknown_preset_is_a_usage_error(capsys: pytest.CaptureFixture[str], nested: Path) -> None:
    with pytest.raises(SystemExit) as caught:
        main(["stats", str(nested), "--preset", "langfuse"])
    assert caught.value.code == 2
    err = capsys.readouterr().err
    assert "--preset" in err and "langfuse" in err and "ragas" in err


@pytest.mark.parametrize(
    ("spec", "says"),
    [
        ("ctx=x", "mappable fields: id, required, context, correct, question, answer"),
        ("context", "FIELD=SOURCE"),
    ],
)
@pytest.mark.parametrize("command", ["diagnose", "stats", "check", "export", "review", "serve"])
def test_a_malformed_map_is_a_usage_error_on_every_command(
    capsys: pytest.CaptureFixture[str], command: str, spec: str, says: str
) -> None:
    with pytest.raises(SystemExit) as caught:
        parse_args(
            [command, "runs.jsonl", "--map", spec, *(["-o", "x.jsonl"] if command == "export" else [])]
        )
    assert caught.value.code == 2
    assert says in capsys.readouterr().err


@pytest.mark.parametrize("command", ["diagnose", "stats", "check", "export", "review", "serve"])
def test_every_command_that_reads_a_run_file_takes_a_map_and_a_preset(command: str) -> None:
    extra = ["-o", "x.jsonl"] if command == "export" else []
    args = parse_args([command, "runs.jsonl", "--preset", "ragas", "--map", "id=meta.id", *extra])
    assert args.field_map == FieldMap.from_specs(["id=meta.id"], "ragas")
    assert parse_args([command, "runs.jsonl", *extra]).field_map is None


def test_the_review_shorthand_works_with_options_before_the_file() -> None:
    args = parse_args(["--preset", "ragas", "--map", "id=meta.id", "runs.jsonl"])
    assert (args.command, args.file) == ("review", "runs.jsonl")
    assert args.field_map == FieldMap.from_specs(["id=meta.id"], "ragas")
