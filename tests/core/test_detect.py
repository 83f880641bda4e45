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
