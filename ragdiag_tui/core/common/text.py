"""Untrusted text made safe to show: control characters become visible escapes.

Run files come from elsewhere. A raw ESC, carriage return or bidi override in an
ID or a question would move the cursor, recolour the terminal or reorder what
the reviewer reads. Everything shown on a terminal, by the CLI or the app,
passes through `visible` first; exports keep the text exactly.
"""

from __future__ import annotations

import re

# C0 and C1 controls, DEL, the bidi embedding/override/isolate controls, and lone
# surrogates (legal `\ud800` JSON escapes, which no terminal encoding can write).
_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


def _escape(match: re.Match[str]) -> str:
    char = match.group()
    if char == "\n":
        return "\u21b5"  # a visible return arrow keeps one line one line
    if char == "\t":
        return " "
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def visible(text: str) -> str:
    """`text` with every control character replaced by a visible escape."""
    if text.isprintable():
        return text
    return _UNSAFE.sub(_escape, text)


def snippet(text: str, limit: int) -> str:
    """A text's start on one line: runs of white space as one space, at most `limit`
    characters (the last an ellipsis when cut), made visible (a document beside its ID)."""
    words = visible(" ".join(text[: limit * 4].split()))  # escapes count in the limit
    if len(words) > limit or len(text) > limit * 4:
        words = words[: limit - 1].rstrip() + "…"
    return words


def plural(count: int, one: str, many: str) -> str:
    """The words that go with `count`: `one` for exactly 1, else `many`."""
    return one if count == 1 else many
