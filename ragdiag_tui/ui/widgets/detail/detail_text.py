"""The detail pane's pieces of text: a field's name beside its value, values made safe and cut.

Everything here builds `Content` from plain strings (after `visible`), never markup. Styles
are the detail pane's component classes (`.run-detail--x`), resolved by `RunDetail`. A name
beside its value is the line's label (`pane_text.hanging`): the value wraps in its column.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from textual.content import Content

from ....core.common.jsonutil import field_text
from ....core.common.text import visible
from .pane_text import hanging

MAX_VALUE = 4000  # characters of one field's value (the question and answer too) shown before cutting
MAX_ID = 10_000  # characters of one ID: IDs that differ in one place must show it, but not 10 MB
MAX_NOTE_LINES = 10  # lines of one note shown in the pane; `t` reads the whole text
# The characters `str.splitlines` breaks at: long text is cut by lines the way `multiline` splits it.
LINE_BREAKS = ("\n", "\r", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029")
_BREAK = re.compile("\r\n|[" + "".join(LINE_BREAKS) + "]")


def detail_class(name: str) -> str:
    """The style of a detail-pane component class, resolved by the Static from `RunDetail`."""
    return f".run-detail--{name}"


_c = detail_class


def multiline(text: str) -> str:
    """Text shown over several lines: each line made safe, line breaks kept."""
    return "\n".join(visible(line) for line in text.splitlines() or [""])


def cut(text: str, limit: int = MAX_VALUE) -> str:
    """`text`, or its first `limit` characters and its full length (exports keep it whole)."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}… ({limit:,} of {len(text):,} characters shown)"


@lru_cache(maxsize=32)
def line_count(text: str) -> int:
    """How many lines `text.splitlines()` would give, without building them (a note may have 100,000).

    Kept for the texts met last: the pane shows the same note again on every label."""
    breaks = sum(text.count(char) for char in LINE_BREAKS) - text.count("\r\n")
    return breaks + (0 if not text or text.endswith(LINE_BREAKS) else 1)


def head_lines(text: str, limit: int) -> str | None:
    """The first `limit` lines of `text`, or None when it has no more than that."""
    for count, match in enumerate(_BREAK.finditer(text), 1):
        if count == limit:
            return text[: match.start()] if match.end() < len(text) else None
    return None


def shown_lines(text: str, lines: int, chars: int = MAX_VALUE, whole: str = "t shows it whole") -> list[str]:
    """Long text as the pane shows it: at most its first `lines` lines and `chars` characters,
    each line made safe, then a line saying how much is shown and `whole` (how to read it all).
    The cost depends on what is shown, not on the length of `text`."""
    head = head_lines(text, lines)
    part = text if head is None else head
    if len(part) > chars:
        shown = [visible(line) for line in part[:chars].splitlines()]
        return [*shown, f"… ({chars:,} of {len(text):,} characters shown · {whole})"]
    shown = [visible(line) for line in part.splitlines()] or [""]
    if head is None:
        return shown
    return [*shown, f"… ({lines:,} of {line_count(text):,} lines shown · {whole})"]


def value_text(value: Any) -> str:
    """A field's value as the filter matches it and export writes it (`field_text`), made safe and cut."""
    return multiline(cut(field_text(value)))


def muted(text: str) -> Content:
    """`text` in the muted style."""
    return Content.assemble((text, _c("muted")))


def field_line(name: str, value: str | Content, width: int = 15) -> Content:
    """`name` then `value` on one line, names aligned; a long value wraps under itself."""
    return Content.assemble(hanging(Content.styled(visible(name).ljust(width), _c("key"))), value, "\n")


def field_block(name: str, value: str, inline: int = 60) -> Content:
    """A short value beside its name; a long or multi-line one below it."""
    if "\n" not in value and len(value) <= inline:
        return field_line(name, value)
    return Content.assemble((visible(name), _c("key")), "\n", value, "\n\n")


def joined(parts: list[Content]) -> Content:
    """Parts that end in line breaks, as one block without the last ones."""
    return Content("").join(parts).rstrip()
