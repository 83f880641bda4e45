"""A JSON Lines corpus line that is not a document says why: a lone surrogate escape (legal
JSON, refused by the fast decoder), broken JSON, or JSON that is not an object; never
"not a JSON object" for all three."""

from __future__ import annotations

from pathlib import Path

import pytest

from ragdiag_tui.core.runs.corpus import DocStore


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        ('{"id": "D2", "text": "cut mid-pair \\ud83d"}', r"a lone surrogate escape (\ud83d), which no UTF-8"),
        ('{"id": "D2", "text": "\\ud83d\\ude00 then \\udc00"}', r"a lone surrogate escape (\udc00)"),
        ('{"id": "D2", "text": ', "not JSON: Expecting value, column 21"),
        ('["D2", "text"]', "not a JSON object but an array"),
        ('"D2"', "not a JSON object but a string"),
    ],
)
def test_a_line_that_is_no_document_gets_the_right_reason(tmp_path: Path, line: str, reason: str) -> None:
    path = tmp_path / "docs.jsonl"
    path.write_text(f'{{"id": "D1", "text": "a"}}\n{line}\n{{"id": "D3", "text": "c"}}\n', encoding="utf-8")
    docs = DocStore.open(path)
    assert docs.text("D1") == "a" and docs.text("D3") == "c"
    assert len(docs.warnings) == 1
    assert docs.warnings[0].startswith(f"{path}, line 2: skipped (") and reason in docs.warnings[0]
