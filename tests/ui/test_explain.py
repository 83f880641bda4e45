"""The one-sentence reasons of the detail pane (pure: no event loop)."""

from __future__ import annotations

from ragdiag_tui.core.explain import ABSENT, describe_label, id_list, invalid_reason, reason


def test_lucky_answer_sentence_names_the_missing_document() -> None:
    text = reason({"stage": "retrieval", "missing": ["D2"]}, True)
    assert text.startswith("Labelled correct, but D2 never reached the model")
    assert "lucky answer" in text and "retrieval gap, not a pass" in text


def test_reasons_use_no_jargon() -> None:
    sentences = [
        reason({"stage": "retrieval", "missing": ["D2"]}, True),
        reason({"stage": "retrieval", "missing": ["D2"]}, False),
        reason({"stage": "generation", "missing": []}, False),
        reason({"stage": "pass", "missing": []}, True),
    ]
    for text in sentences:
        for jargon in ("answer repair", "input trace", "downstream", "declared context requirement"):
            assert jargon not in text


def test_retrieval_with_incorrect_label() -> None:
    text = reason({"stage": "retrieval", "missing": ["D1"]}, False)
    assert text.startswith("D1 never reached the model, so the retriever failed first")


def test_generation_pass_unresolved_and_label_error() -> None:
    assert "the fault lies in generation" in reason({"stage": "generation", "missing": []}, False)
    assert "labelled correct" in reason({"stage": "pass", "missing": []}, True)
    assert "unprepared" in reason({"stage": "unresolved"}, None)
    text = reason({"error": "answer-label"}, None, "true")
    assert "Without a Boolean staff label" in text and '"true" (a string)' in text
    assert "(the label here is absent)" in reason({"error": "answer-label"}, None, ABSENT)


def test_id_lists_are_short_and_control_characters_visible() -> None:
    assert id_list(["a"]) == "a"
    assert id_list(["a", "b"]) == "a and b"
    assert id_list(["a", "b", "c"]) == "a, b and c"
    assert id_list(["a", "b", "c", "d", "e"]) == "a, b, c and 2 more"
    assert id_list(["x\x1b[2Jy"]) == "x\\x1b[2Jy"
    assert describe_label(None) == "null"
    assert describe_label(1) == "1 (a number)"


def test_invalid_reason_names_the_line() -> None:
    assert invalid_reason(7, "field 'context': expected a list of strings, got string").startswith(
        "Line 7 is not a run the rule can evaluate"
    )
