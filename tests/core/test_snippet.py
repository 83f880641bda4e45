"""`snippet`: a document's start on one line beside its ID (issue 38), through the one
visible-text function, cut with an ellipsis within its limit."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from ragdiag_tui.core.common.text import snippet, visible


def test_white_space_becomes_one_space_and_a_long_text_ends_with_an_ellipsis() -> None:
    assert snippet("Laptops  must\nuse\tencryption.", 40) == "Laptops must use encryption."
    assert snippet("word " * 50, 12) == "word word w…"


def test_control_characters_are_escaped_and_counted_in_the_limit() -> None:
    assert snippet("red \x1b[31m", 40) == "red \\x1b[31m"
    assert snippet("\x1b" * 10, 9) == "\\x1b\\x1b…"


@given(st.text(), st.integers(min_value=2, max_value=80))
def test_a_snippet_is_one_visible_line_within_its_limit(text: str, limit: int) -> None:
    shown = snippet(text, limit)
    assert len(shown) <= limit
    assert shown == visible(shown) and "\n" not in shown
