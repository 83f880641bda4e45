"""The format detector's token scanner (`detect.value_end`) on broken JSON of any shape."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from ragdiag_tui.core.runs import detect

# The scanner's first, obvious form: one alternation per character of a string. The
# detector uses an unrolled form of it (fast on a 10 MB string); both must cut text into
# the same tokens, escapes, unclosed strings and line breaks included.
ONE_CHAR_AT_A_TIME = re.compile(r'"(?:[^"\\\r\n]|\\[^\r\n])*"?|[\[\]{},]')

JSONISH = st.text(alphabet=st.sampled_from(list('"\\\r\n[]{}, ax\u00e9\U0001f600')), max_size=40)


def tokens(pattern: re.Pattern[str], text: str) -> list[tuple[int, int]]:
    return [(match.start(), match.end()) for match in pattern.finditer(text)]


@settings(max_examples=2000, deadline=None)
@given(JSONISH)
def test_the_scanner_cuts_any_text_into_the_same_tokens_as_the_plain_pattern(text: str) -> None:
    assert tokens(detect._TOKEN, text) == tokens(ONE_CHAR_AT_A_TIME, text)


def test_a_10mb_string_is_one_token_and_the_value_ends_after_it() -> None:
    text = '{"question": "' + 'x\\"' * 3_000_000 + '", "required": ["D1"]} trailing'
    assert detect.value_end(text, 0) == len(text) - len(" trailing")
    assert detect.value_end('["a\\', 0) is None  # an escape cut by the end of the text
    assert detect.value_end('"a\\"b", 1', 0) == 6  # the escaped quote does not end the string


def test_one_line_cut_short_and_nothing_after_is_json_lines(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """A document spans lines; a lone unclosed line is a JSON Lines line cut short, and its
    error is that line's own (`{not json`: a property name was expected, not any value)."""
    from ragdiag_tui.core.runs.loading import read_runs

    for text in ("{not json\n", '{"id": "a", "required": ["d1"'):
        path = tmp_path / "one.jsonl"
        path.write_text(text, encoding="utf-8")
        with open(path, "rb") as handle:
            assert detect.detect(handle, str(path), None)[0] == "lines"
    (error,) = read_runs(tmp_path / "one.jsonl")
    assert error.line == 1 and error.kind == "invalid-json"
    path.write_text("{not json\n", encoding="utf-8")
    (error,) = read_runs(path)
    assert "Expecting property name" in error.reason
