"""The diagnosis rule against the seed's reference evaluator and every edge of RULE.md."""

from __future__ import annotations

import functools
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ragdiag_tui import InvalidRun, diagnose
from ragdiag_tui.core.runs.rule import missing_ids

from .conftest import seed_cases_path

# -- an independent restatement of the seed's JavaScript `evaluate` ---------------------


def utf16_units(text: str) -> list[int]:
    """The UTF-16 code units of `text`, computed by hand (no codec)."""
    units: list[int] = []
    for char in text:
        point = ord(char)
        if point > 0xFFFF:
            point -= 0x10000
            units.append(0xD800 | (point >> 10))
            units.append(0xDC00 | (point & 0x3FF))
        else:
            units.append(point)
    return units


def js_compare(a: str, b: str) -> int:
    """JavaScript's default sort comparison: code unit by code unit, shorter first on a tie."""
    left, right = utf16_units(a), utf16_units(b)
    for x, y in zip(left, right, strict=False):
        if x != y:
            return -1 if x < y else 1
    return (len(left) > len(right)) - (len(left) < len(right))


def reference_evaluate(x: dict[str, Any]) -> dict[str, Any]:
    """A line-by-line transliteration of the seed's `evaluate`."""
    required = x.get("required")
    if required is None or len(required) == 0:  # if(!x.required.length)
        return {"stage": "unresolved"}
    if type(x.get("correct")) is not bool:  # typeof x.correct!=='boolean'
        return {"error": "answer-label"}
    context = x["context"]  # the reference crashes here without a context
    distinct: list[str] = []
    for doc in required:  # [...new Set(x.required)]
        if doc not in distinct:
            distinct.append(doc)
    missing = [doc for doc in distinct if doc not in context]
    missing.sort(key=functools.cmp_to_key(js_compare))
    stage = "retrieval" if missing else ("pass" if x["correct"] else "generation")
    return {"stage": stage, "missing": missing}


# -- the seed's four cases --------------------------------------------------------------

SEED_CASES = json.loads(seed_cases_path().read_text(encoding="utf-8"))


def test_seed_file_holds_the_four_worked_cases() -> None:
    assert [case["id"] for case in SEED_CASES] == [
        "missing-context",
        "wrong-generation",
        "missing-answer-label",
        "lucky-answer-gap",
    ]


@pytest.mark.parametrize("case", SEED_CASES, ids=[case["id"] for case in SEED_CASES])
def test_seed_case_gives_the_expected_output_key_for_key(case: dict[str, Any]) -> None:
    got = diagnose(case["input"])
    assert got == case["expected"]
    assert list(got) == list(case["expected"])


def test_lucky_answer_is_a_retrieval_gap_never_a_pass() -> None:
    assert diagnose({"required": ["D1", "D2"], "context": ["D1"], "correct": True}) == {
        "stage": "retrieval",
        "missing": ["D2"],
    }


def test_complete_context_with_correct_label_is_a_pass() -> None:
    assert diagnose({"required": ["D1"], "context": ["D1", "X"], "correct": True}) == {
        "stage": "pass",
        "missing": [],
    }


# -- step 1: no required set -------------------------------------------------------------

UNRESOLVED = {"stage": "unresolved"}


@pytest.mark.parametrize(
    "run",
    [
        {"context": ["D1"], "correct": True},
        {"required": None, "context": ["D1"], "correct": False},
        {"required": [], "context": ["D1"], "correct": True},
        {"required": []},
        {},
        {"required": None},
        {"required": [], "correct": "yes"},
        {"required": [], "context": []},
    ],
    ids=[
        "absent",
        "null",
        "empty",
        "empty-no-label-no-context",
        "nothing-at-all",
        "null-alone",
        "empty-with-bad-label",
        "empty-context",
    ],
)
def test_absent_null_or_empty_required_is_unresolved(run: dict[str, Any]) -> None:
    got = diagnose(run)
    assert got == UNRESOLVED
    assert list(got) == ["stage"]


# -- step 2: only JSON booleans are labels -----------------------------------------------

NOT_LABELS = {
    "string-true": "true",
    "string-false": "false",
    "one": 1,
    "zero": 0,
    "one-point-zero": 1.0,
    "null": None,
    "empty-list": [],
    "empty-object": {},
    "list-of-true": [True],
}


@pytest.mark.parametrize("label", list(NOT_LABELS.values()), ids=list(NOT_LABELS))
def test_non_boolean_label_is_an_answer_label_error(label: Any) -> None:
    run = {"required": ["D1"], "context": ["D1"], "correct": label}
    assert diagnose(run) == {"error": "answer-label"}


def test_absent_label_is_an_answer_label_error() -> None:
    assert diagnose({"required": ["D1"], "context": []}) == {"error": "answer-label"}


def test_absent_label_is_reported_even_without_context() -> None:
    # The reference returns before it ever reads `context`.
    assert diagnose({"required": ["D1"]}) == {"error": "answer-label"}


@pytest.mark.parametrize("label", [1, 0], ids=["one-is-not-true", "zero-is-not-false"])
def test_one_and_zero_are_never_coerced_into_labels(label: int) -> None:
    # Were 1 coerced to true this would be a pass; 0 to false, a generation failure.
    got = diagnose({"required": ["D1"], "context": ["D1"], "correct": label})
    assert got == {"error": "answer-label"}


def test_label_error_ignores_a_missing_document() -> None:
    # The label is checked before context completeness is reported.
    assert diagnose({"required": ["D1"], "context": [], "correct": "true"}) == {"error": "answer-label"}


# -- step 3: missing -----------------------------------------------------------------------


def test_repeated_required_ids_are_missing_once() -> None:
    got = diagnose({"required": ["D2", "D1", "D2", "D1"], "context": [], "correct": False})
    assert got == {"stage": "retrieval", "missing": ["D1", "D2"]}


def test_repeated_required_ids_all_present_is_generation() -> None:
    got = diagnose({"required": ["D1", "D1"], "context": ["D1"], "correct": False})
    assert got == {"stage": "generation", "missing": []}


@pytest.mark.parametrize(
    ("required", "context"),
    [
        ("D1", "D1 "),
        ("D1 ", "D1"),
        ("D1", " D1"),
        ("d1", "D1"),
        ("D1", "d1"),
        ("D1", "D10"),
        ("D10", "D1"),
        ("é", "e\u0301"),  # composed vs decomposed: no normalisation either
    ],
    ids=["trailing-space", "space-in-required", "leading-space", "lower", "upper", "prefix", "longer", "nfc"],
)
def test_ids_are_compared_exactly(required: str, context: str) -> None:
    got = diagnose({"required": [required], "context": [context], "correct": True})
    assert got == {"stage": "retrieval", "missing": [required]}


def test_missing_is_sorted() -> None:
    got = diagnose({"required": ["b", "C", "a", "B10", "B9"], "context": [], "correct": False})
    assert got["missing"] == ["B10", "B9", "C", "a", "b"]


def test_missing_is_sorted_by_utf16_code_units_not_code_points() -> None:
    # U+FF21 is one unit 0xFF21; U+1F600 is the pair 0xD83D 0xDE00, so JS puts it first,
    # while Python's code point order would put it last.
    fullwidth_a, emoji = "\uff21", "\U0001f600"
    assert sorted([fullwidth_a, emoji]) == [fullwidth_a, emoji]
    got = diagnose({"required": [fullwidth_a, emoji], "context": [], "correct": True})
    assert got["missing"] == [emoji, fullwidth_a]


def test_astral_ids_sort_among_ascii_and_bmp_ids_as_javascript_does() -> None:
    ids = ["z", "\ue000", "\U00010000", "\ufffd", "a\U0001f600", "a", "\u00e9"]
    got = diagnose({"required": ids, "context": [], "correct": False})
    # Worked out by hand from the code units: 0x61 < 0x7A < 0xE9 < 0xD800.. < 0xE000 < 0xFFFD.
    assert got["missing"] == ["a", "a\U0001f600", "z", "\u00e9", "\U00010000", "\ue000", "\ufffd"]


def test_extra_fields_are_ignored() -> None:
    run = {
        "required": ["D1"],
        "context": ["D1"],
        "correct": False,
        "question": "q?",
        "answer": 42,
        "source": {"model": "x"},
        "missing": ["D9"],
        "stage": "pass",
        "id": "run-1",
    }
    assert diagnose(run) == {"stage": "generation", "missing": []}


def test_output_key_order_is_stage_then_missing() -> None:
    for run in (
        {"required": ["D1"], "context": [], "correct": True},
        {"required": ["D1"], "context": ["D1"], "correct": False},
        {"required": ["D1"], "context": ["D1"], "correct": True},
    ):
        got = diagnose(run)
        assert list(got) == ["stage", "missing"]
        assert json.dumps(got).startswith('{"stage": ')


def test_diagnose_does_not_modify_the_run() -> None:
    run = {"required": ["D2", "D1", "D2"], "context": ["X"], "correct": True}
    before = json.dumps(run)
    diagnose(run)
    assert json.dumps(run) == before


# -- runs the reference cannot evaluate ---------------------------------------------------


@pytest.mark.parametrize(
    ("run", "field"),
    [
        ({"required": "D1", "context": ["D1"], "correct": True}, "required"),
        ({"required": ["D1", 2], "context": ["D1"], "correct": True}, "required"),
        ({"required": {"D1": 1}, "context": [], "correct": True}, "required"),
        ({"required": ["D1"], "context": ["D1", 3], "correct": True}, "context"),
        ({"required": ["D1"], "context": "D1", "correct": True}, "context"),
        ({"required": ["D1"], "context": [None], "correct": True}, "context"),
        ({"required": ["D1"], "correct": True}, "context"),
        ({"required": ["D1"], "correct": False}, "context"),
        ({"required": ["D1"], "context": None, "correct": False}, "context"),
    ],
    ids=[
        "required-a-string",
        "required-with-a-number",
        "required-an-object",
        "context-with-a-number",
        "context-a-string",
        "context-with-null",
        "context-absent-label-true",
        "context-absent-label-false",
        "context-null",
    ],
)
def test_invalid_run_raises_naming_the_field(run: dict[str, Any], field: str) -> None:
    with pytest.raises(InvalidRun) as caught:
        diagnose(run)
    assert caught.value.field == field
    assert field in str(caught.value)


@pytest.mark.parametrize("run", [[], ["D1"], "run", 3, None, True], ids=repr)
def test_a_run_that_is_not_an_object_is_invalid(run: Any) -> None:
    with pytest.raises(InvalidRun) as caught:
        diagnose(run)
    assert caught.value.field is None
    assert "object" in str(caught.value)


def test_ill_typed_context_is_invalid_even_when_required_is_empty() -> None:
    # RULE.md: present but not a list of strings makes the run invalid, whatever else.
    with pytest.raises(InvalidRun) as caught:
        diagnose({"required": [], "context": 5})
    assert caught.value.field == "context"


def test_invalid_run_is_a_value_error() -> None:
    assert issubclass(InvalidRun, ValueError)


# -- the rule against the independent restatement ---------------------------------------

# A tiny alphabet so that required and context often share IDs, including astral
# characters and a BMP character above the surrogate range, where sort orders differ.
ID = st.text(alphabet=["a", "B", "\uff21", "\U0001f600", "\U00010000", "\ue000", " "], max_size=3)
ID_LIST = st.lists(ID, max_size=6)
LABEL = st.one_of(
    st.booleans(),
    st.none(),
    st.sampled_from(["true", "false", 1, 0, 1.0, [], {}]),
)


@st.composite
def runs(draw: st.DrawFn) -> dict[str, Any]:
    run: dict[str, Any] = {}
    if draw(st.booleans()):
        run["required"] = draw(st.one_of(st.none(), ID_LIST))
    if draw(st.integers(0, 9)):  # context mostly present
        run["context"] = draw(ID_LIST)
    if draw(st.integers(0, 5)):
        run["correct"] = draw(LABEL)
    if draw(st.booleans()):
        run["question"] = draw(st.text(max_size=5))
    return run


@settings(max_examples=400, deadline=None)
@given(runs())
def test_rule_agrees_with_the_reference_restatement(run: dict[str, Any]) -> None:
    try:
        expected = reference_evaluate(run)
    except KeyError:  # the reference would crash: no context at step 3
        with pytest.raises(InvalidRun) as caught:
            diagnose(run)
        assert caught.value.field == "context"
        return
    got = diagnose(run)
    assert got == expected
    assert list(got) == list(expected)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text(max_size=4), max_size=8))
def test_missing_order_matches_javascript_sort_for_any_text(ids: list[str]) -> None:
    got = diagnose({"required": ids, "context": [], "correct": True})
    if not ids:
        assert got == {"stage": "unresolved"}
        return
    expected = sorted(set(ids), key=functools.cmp_to_key(js_compare))
    assert got == {"stage": "retrieval", "missing": expected}


@settings(max_examples=300, deadline=None)
@given(st.lists(ID, max_size=20), st.lists(ID, max_size=20))
def test_missing_ids_are_one_answer_through_lists_or_sets(required: list[str], context: list[str]) -> None:
    """A few IDs are looked through in their lists, more put in sets (`rule.SCAN_MOST`)."""
    expected = sorted(set(required) - set(context), key=functools.cmp_to_key(js_compare))
    assert missing_ids(required, context) == expected


def test_restatement_sorts_as_node_does_on_a_known_case() -> None:
    # `node -e 'console.log(JSON.stringify(["\uff21","\u{1F600}","a","\ue000"].sort()))'`
    # prints the emoji before U+E000 and U+FF21: the restatement must reproduce that.
    ids = ["\uff21", "\U0001f600", "a", "\ue000"]
    assert sorted(ids, key=functools.cmp_to_key(js_compare)) == ["a", "\U0001f600", "\ue000", "\uff21"]
