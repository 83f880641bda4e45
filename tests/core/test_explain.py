"""The one-sentence reasons of the detail pane (core/analysis/explain.py; pure, no event loop).

What a reason must do, not its wording: each stage has its own reason, a retrieval
reason names the missing documents (a few, then how many more), a lucky answer's
reason says it is lucky and a retrieval gap, a label error shows the file's value and
its type, and untrusted text never reaches the terminal raw.
"""

from __future__ import annotations

import pytest

from ragdiag_tui.core.analysis.explain import (
    ABSENT,
    MAX_NAMED,
    describe_label,
    id_list,
    invalid_reason,
    reason,
)
from ragdiag_tui.core.runs.rule import diagnose

RUNS = {
    "lucky": ({"required": ["D1", "D2"], "context": ["D1"], "correct": True}, True),
    "retrieval": ({"required": ["D1", "D2"], "context": ["D1"], "correct": False}, False),
    "generation": ({"required": ["D1"], "context": ["D1"], "correct": False}, False),
    "pass": ({"required": ["D1"], "context": ["D1"], "correct": True}, True),
    "unresolved": ({"required": [], "context": []}, None),
    "label error": ({"required": ["D1"], "context": ["D1"], "correct": "true"}, None),
}


def reason_of(name: str) -> str:
    run, label = RUNS[name]
    return reason(diagnose(run), label, run.get("correct", ABSENT))


def test_each_diagnosis_has_its_own_reason() -> None:
    reasons = {name: reason_of(name) for name in RUNS}
    assert len(set(reasons.values())) == len(RUNS)
    assert all(text.endswith(".") and "\n" not in text for text in reasons.values())


@pytest.mark.parametrize("name", ["lucky", "retrieval"])
def test_a_retrieval_reason_names_the_missing_document_and_only_it(name: str) -> None:
    text = reason_of(name)
    assert "D2" in text and "D1" not in text


def test_a_lucky_answer_is_called_lucky_and_a_retrieval_gap_not_a_pass() -> None:
    text = reason_of("lucky").lower()
    assert "lucky" in text and "retriev" in text
    assert "lucky" not in reason_of("retrieval").lower()


def test_generation_puts_the_fault_on_generation_and_pass_says_correct() -> None:
    assert "generation" in reason_of("generation")
    assert "correct" in reason_of("pass") and "generation" not in reason_of("pass")


def test_a_label_error_shows_the_files_value_and_its_type() -> None:
    text = reason_of("label error")
    assert describe_label("true") in text and "string" in describe_label("true")
    assert describe_label(ABSENT) in reason({"error": "answer-label"}, None, ABSENT)
    assert describe_label(None) == "null" and describe_label(1).startswith("1 ")


def test_reasons_use_no_jargon() -> None:
    for name in RUNS:
        for jargon in ("answer repair", "input trace", "downstream", "declared context requirement"):
            assert jargon not in reason_of(name)


def test_id_lists_name_a_few_then_count_the_rest() -> None:
    ids = [f"D{n}" for n in range(MAX_NAMED + 4)]
    text = id_list(ids)
    assert all(i in text for i in ids[:MAX_NAMED]) and ids[MAX_NAMED] not in text
    assert text.endswith("4 more")
    assert id_list(["a"]) == "a"
    assert "a" in id_list(["a", "b"]) and "b" in id_list(["a", "b"])


def test_control_characters_are_shown_not_sent() -> None:
    missing = {"stage": "retrieval", "missing": ["x\x1b[2Jy"]}
    for text in (id_list(["x\x1b[2Jy"]), reason(missing, False), invalid_reason(7, "bad \x1b[31m")):
        assert "\x1b" not in text and "x1b" in text


def test_an_invalid_line_reason_has_its_line_and_detail() -> None:
    text = invalid_reason(7, "field 'context': expected a list of strings, got string")
    assert "7" in text and "field 'context': expected a list of strings, got string" in text
