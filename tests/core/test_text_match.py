"""Documents given as texts: content IDs, exact and similarity matching (RAGAS's own
comparison, checked row by row against RAGAS's output), the preset's text columns,
the similarity cache, and scores as labels."""

from __future__ import annotations

import ast
import csv
import hashlib
import json
import math
import os
import unicodedata
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rapidfuzz.distance import Levenshtein

from ragdiag_tui.core.runs.loading import LoadError, Run, read_runs
from ragdiag_tui.core.runs.mapping import FieldMap, MapSpecError, score_label
from ragdiag_tui.core.runs.metrics import id_metrics
from ragdiag_tui.core.runs.store import RunStore
from ragdiag_tui.core.runs.text_cache import cache_path, read_cache
from ragdiag_tui.core.runs.texts import TextMatch, content_id

FIXTURE = Path(__file__).resolve().parents[1] / "data" / "ragas_text"


@pytest.fixture(autouse=True)
def _cache_in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RAGDIAG_CACHE_DIR", str(tmp_path / "cache"))


def ragas_map(match: str = "similarity", threshold: float = 0.0) -> FieldMap:
    # Every run labelled (a score >= 0), so the rule reaches the documents.
    return FieldMap.from_specs(
        ["correct=non_llm_string_similarity"], "ragas", match=match, label_threshold=threshold
    )


def runs(path: Path, field_map: FieldMap) -> list[Run]:
    records = list(read_runs(path, field_map=field_map))
    assert not [r for r in records if isinstance(r, LoadError)]
    return records  # type: ignore[return-value]


def ragas_rows() -> list[dict[str, object]]:
    with open(FIXTURE / "results.csv", newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def test_content_id_is_sha256_of_the_nfc_utf8_text() -> None:
    text = "Cafe\u0301 ☕ 東京 \U0001f6a8"
    nfc = unicodedata.normalize("NFC", text)
    expected = "t:" + hashlib.sha256(nfc.encode("utf-8")).hexdigest()[:16]
    assert content_id(text) == content_id(nfc) == expected
    assert content_id("\ud800 lone").startswith("t:")  # a lone surrogate hashes, never raises


@pytest.mark.parametrize("name", ["results.csv", "results.jsonl"])
def test_similarity_matches_ragas_non_llm_context_recall_row_by_row(name: str) -> None:
    """The missing set's size and the recall equal RAGAS's own, except where RAGAS has no
    figure and the rule has an answer (nothing supplied: every required text missing) and
    where a reference is listed twice (RAGAS counts each copy, the rule each text)."""
    checked = 0
    for run, row in zip(runs(FIXTURE / name, ragas_map()), ragas_rows(), strict=True):
        references = ast.literal_eval(row["reference_contexts"])
        retrieved = ast.literal_eval(row["retrieved_contexts"])
        ragas_recall = float(row["non_llm_context_recall"] or "nan")
        missing = run.diagnosis.get("missing") or []
        recall = id_metrics(run.required, run.context)[0]
        if not references:
            assert run.diagnosis == {"stage": "unresolved"} and math.isnan(ragas_recall)
            continue
        if not retrieved:
            assert math.isnan(ragas_recall)
            assert len(missing) == len(set(references)) and recall == 0.0
            continue
        distinct = len(set(map(content_id, references)))
        if distinct != len(references):
            assert recall == 1 - len(missing) / distinct
            continue
        assert len(missing) == round((1 - ragas_recall) * len(references))
        assert recall == pytest.approx(ragas_recall, abs=1e-12)
        checked += 1
    assert checked >= 10


def test_similarity_is_ragas_comparison_strictly_greater_than_the_threshold() -> None:
    match = TextMatch.parse("similarity")
    assert match is not None and match.threshold == 0.5
    # abcd / abxy: similarity exactly 0.5, not > 0.5: missing, as RAGAS says (recall 0).
    assert 1 - Levenshtein.normalized_distance("abxy", "abcd") == 0.5
    required, context = match.ids(["abcd"], ["abxy"])
    assert required[0] not in context
    required, context = match.ids(["abcdef"], ["abcdxy"])
    assert required[0] in context
    assert (
        TextMatch.parse("similarity:0.9").ids(["abcdef"], ["abcdxy"])[0][0]
        not in match.ids(["abcdef"], ["abcdxy"])[1][:1]
    )


def test_exact_matching_is_after_nfc_only() -> None:
    match = TextMatch.parse("text")
    required, context = match.ids(["Cafe\u0301", "tea"], ["Café", "Tea"])
    assert required[0] in context and required[1] not in context
    assert context == [content_id("Café"), content_id("Tea")]


@pytest.mark.parametrize("spec", ["similarity:1.5", "similarity:x", "fuzzy", "text:0.5"])
def test_a_bad_match_spec_is_refused_with_its_reason(spec: str) -> None:
    with pytest.raises(MapSpecError, match="match"):
        FieldMap.from_specs(match=spec)


@pytest.mark.parametrize("name", ["dataset.csv", "dataset.jsonl", "results.csv", "results.jsonl"])
def test_ragas_preset_reads_the_text_columns_when_there_are_no_id_columns(name: str) -> None:
    records = runs(FIXTURE / name, FieldMap.from_specs(preset="ragas"))
    first = records[0]
    assert first.required == [
        content_id("The parental leave policy grants sixteen weeks of paid leave to every new parent.")
    ]
    assert all(doc.startswith("t:") for doc in first.context)


def test_ragas_preset_prefers_the_id_columns(tmp_path: Path) -> None:
    path = tmp_path / "both.jsonl"
    run = {
        "reference_context_ids": ["d1"],
        "retrieved_context_ids": ["d2"],
        "reference_contexts": ["a"],
        "retrieved_contexts": ["a"],
        "correct": True,
    }
    path.write_text(json.dumps(run) + "\n", encoding="utf-8")
    (record,) = runs(path, FieldMap.from_specs(preset="ragas"))
    assert record.diagnosis == {"stage": "retrieval", "missing": ["d1"]}
    (texts,) = runs(path, FieldMap.from_specs(preset="ragas", match="text"))
    assert texts.diagnosis == {"stage": "pass", "missing": []}


def test_a_text_that_is_not_a_list_names_its_column(tmp_path: Path) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text(json.dumps({"reference_contexts": "a", "retrieved_contexts": ["a"]}) + "\n")
    (error,) = list(read_runs(path, field_map=FieldMap.from_specs(preset="ragas")))
    assert isinstance(error, LoadError)
    assert error.field == "reference_contexts" and "list of texts" in error.reason


def test_deepeval_preset_reads_test_cases_as_texts(tmp_path: Path) -> None:
    cases = [
        {
            "input": "q1",
            "actual_output": "a",
            "expected_output": "a",
            "context": ["x", "y"],
            "retrieval_context": ["x"],
            "score": 0.9,
        },
        {"input": "q2", "actual_output": "b", "context": ["z"], "retrieval_context": ["z"], "score": 0.2},
    ]
    (tmp_path / "cases.json").write_text(json.dumps(cases), encoding="utf-8")
    field_map = FieldMap.from_specs(["correct=score"], "deepeval", label_threshold=0.5)
    first, second = runs(tmp_path / "cases.json", field_map)
    assert first.diagnosis == {"stage": "retrieval", "missing": [content_id("y")]}
    assert second.diagnosis == {"stage": "generation", "missing": []}
    with open(tmp_path / "cases.csv", "w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, ["input", "actual_output", "context", "retrieval_context", "score"])
        writer.writeheader()
        for case in cases:
            writer.writerow(
                {
                    k: json.dumps(v) if isinstance(v, list) else v
                    for k, v in case.items()
                    if k in writer.fieldnames
                }
            )
    from_csv = runs(tmp_path / "cases.csv", field_map)
    assert [r.diagnosis for r in from_csv] == [first.diagnosis, second.diagnosis]


@pytest.mark.parametrize(
    ("value", "label"),
    [
        (0.7, True),
        (0.69999, False),
        (1, True),
        (0, False),
        (math.inf, True),
        (True, True),
        (False, False),
        (None, None),
        ("0.9", "0.9"),
    ],
)
def test_a_score_is_correct_when_at_least_the_threshold(value: object, label: object) -> None:
    assert score_label(value, 0.7) == label


def test_a_nan_score_stays_the_answer_label_error(tmp_path: Path) -> None:
    path = tmp_path / "scores.jsonl"
    lines = [
        '{"required":["a"],"context":["a"],"score":NaN}',
        '{"required":["a"],"context":["a"],"score":0.8}',
    ]
    path.write_text("\n".join(lines) + "\n")
    nan, scored = runs(path, FieldMap.from_specs(["correct=score"], label_threshold=0.5))
    assert nan.diagnosis == {"error": "answer-label"}
    assert scored.diagnosis == {"stage": "pass", "missing": []}


def test_a_csv_score_cell_is_read_as_a_number_under_the_threshold(tmp_path: Path) -> None:
    path = tmp_path / "scores.csv"
    path.write_text("required,context,correct\na,a,0.75\na,a,0.25\na,a,high\na,a,nan\n")
    field_map = FieldMap.from_specs(label_threshold=0.5)
    stages = [r.diagnosis for r in runs(path, field_map)]
    assert stages == [
        {"stage": "pass", "missing": []},
        {"stage": "generation", "missing": []},
        {"error": "answer-label"},
        {"error": "answer-label"},
    ]
    without = [r.diagnosis for r in runs(path, FieldMap())]
    assert without == [{"error": "answer-label"}] * 4


def test_the_similarity_cache_serves_a_reopen_and_a_changed_file_is_compared_again(tmp_path: Path) -> None:
    path = tmp_path / "results.jsonl"
    path.write_bytes((FIXTURE / "results.jsonl").read_bytes())
    first = ragas_map()
    before = [r.diagnosis for r in runs(path, first)]
    assert os.path.exists(cache_path(str(path)))
    again = ragas_map()
    assert read_cache(str(path), again.text_match)
    again.text_match.memo.clear()
    reopened = ragas_map()
    assert [r.diagnosis for r in runs(path, reopened)] == before
    assert reopened.text_match.added == 0  # every match came from the cache
    with open(path, "ab") as handle:
        handle.write(b"\n")
    changed = ragas_map()
    assert not read_cache(str(path), changed.text_match)


@pytest.mark.parametrize(
    "content",
    [
        b"",
        b"not json",
        b"[]",
        b'{"format": "ragdiag-tui text matches", "version": 1}',
        b"[" * 100_000,
    ],
)
def test_a_corrupt_or_hostile_cache_is_ignored(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "results.jsonl"
    path.write_bytes((FIXTURE / "results.jsonl").read_bytes())
    expected = [r.diagnosis for r in runs(path, ragas_map())]
    Path(cache_path(str(path))).write_bytes(content)
    assert [r.diagnosis for r in runs(path, ragas_map())] == expected


def test_a_lying_cache_entry_is_not_trusted(tmp_path: Path) -> None:
    path = tmp_path / "results.jsonl"
    path.write_bytes((FIXTURE / "results.jsonl").read_bytes())
    expected = [r.diagnosis for r in runs(path, ragas_map())]
    cache = json.loads(Path(cache_path(str(path))).read_text())
    key = next(iter(cache["entries"]))
    cache["entries"][key] = [7.5, "not an id"]
    Path(cache_path(str(path))).write_text(json.dumps(cache))
    assert [r.diagnosis for r in runs(path, ragas_map())] == expected


def test_the_store_shows_each_text_and_the_nearest_supplied_one() -> None:
    from ragdiag_tui.core.runs.corpus import run_texts

    store = RunStore.load(FIXTURE / "results.jsonl", field_map=ragas_map())
    row = 1  # laptops: the required text is not retrieved
    texts = run_texts(store, row)
    (missing,) = store.missing[row]
    assert texts[missing].startswith("Laptops must use full-disk encryption")
    fields = store.field_map.texts_of(store.raw(row))
    assert fields is not None
    match, required, supplied = fields
    nearest = match.nearest(required[0], supplied)
    best = max(1 - Levenshtein.normalized_distance(text, required[0]) for text in supplied)
    assert nearest.similarity == best and nearest.closest in supplied


@pytest.mark.parametrize(
    ("specs", "preset", "match", "threshold"),
    [
        ((), "ragas", None, None),
        ((), "ragas", "ids", None),
        (("correct=score",), "ragas", "similarity:0.7", 0.6),
        ((), "deepeval", None, None),
        (("required=refs", "context=hits"), None, "text", None),
    ],
)
def test_a_map_given_as_arguments_to_another_process_is_the_same_map(
    specs: tuple[str, ...], preset: str | None, match: str | None, threshold: float | None
) -> None:
    from ragdiag_tui.cli.parser import parse_args

    field_map = FieldMap.from_specs(specs, preset, match, threshold)
    again = parse_args(["stats", "runs.jsonl", *field_map.to_args()]).field_map
    assert again == field_map


@settings(max_examples=300, deadline=None)
@given(
    required=st.lists(st.text(alphabet="abcé\u0301 ", max_size=8), min_size=1, max_size=3),
    supplied=st.lists(st.text(alphabet="abcé\u0301 ", max_size=8), min_size=1, max_size=3),
    threshold=st.sampled_from([0.0, 0.25, 1 / 3, 0.5, 0.6, 2 / 3, 0.75, 0.8, 1.0]),
)
def test_similarity_verdicts_are_ragas_formula_pair_by_pair(
    required: list[str], supplied: list[str], threshold: float
) -> None:
    """RAGAS's verdict, written out from its source: max over supplied of
    1 - normalized_distance(supplied, required) > threshold; or equal after NFC."""
    match = TextMatch("similarity", threshold)
    req_ids, ctx_ids = match.ids(required, supplied)
    for text, rid in zip(required, req_ids, strict=True):
        best = max(1 - Levenshtein.normalized_distance(s, text) for s in supplied)
        same = rid in {content_id(s) for s in supplied}
        assert (rid in ctx_ids) == (best > threshold or same), (text, supplied, best)


@pytest.mark.parametrize("kind", ["symlink to /dev/zero", "fifo", "folder"])
def test_a_cache_that_is_no_regular_file_is_ignored_at_once(tmp_path: Path, kind: str) -> None:
    path = tmp_path / "results.jsonl"
    path.write_bytes((FIXTURE / "results.jsonl").read_bytes())
    cache = Path(cache_path(str(path)))
    cache.parent.mkdir(parents=True, exist_ok=True)
    if kind == "fifo":
        os.mkfifo(cache)
    elif kind == "folder":
        cache.mkdir()
    else:
        cache.symlink_to("/dev/zero")
    expected = [r.diagnosis for r in runs(path, ragas_map("text"))]
    assert not read_cache(str(path), TextMatch("similarity"))
    assert len(runs(path, ragas_map())) == len(expected)
