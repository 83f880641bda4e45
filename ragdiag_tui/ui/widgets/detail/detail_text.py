"""The detail pane's pieces of text: a field's name beside its value, values made safe and cut.

Everything here builds `Content` from plain strings (after `visible`), never markup. Styles
are the detail pane's component classes (`.run-detail--x`), resolved by `RunDetail`.
"""

from __future__ import annotations

from typing import Any

from textual.content import Content

from ....core.common.jsonutil import field_text
from ....core.common.text import visible

MAX_VALUE = 4000  # characters of one field's value (the question and answer too) shown before cutting
MAX_ID = 10_000  # characters of one ID: IDs that differ in one place must show it, but not 10 MB


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
    return f"{text[:limit]}… ({limit} of {len(text)} characters shown)"


def value_text(value: Any) -> str:
    """A field's value as the filter matches it and export writes it (`field_text`), made safe and cut."""
    return multiline(cut(field_text(value)))


def muted(text: str) -> Content:
    """`text` in the muted style."""
    return Content.assemble((text, _c("muted")))


def field_line(name: str, value: str | Content, width: int = 15) -> Content:
    """`name` then `value` on one line, names aligned."""
    return Content.assemble((visible(name).ljust(width), _c("key")), value, "\n")


def field_block(name: str, value: str, inline: int = 60) -> Content:
    """A short value beside its name; a long or multi-line one below it."""
    if "\n" not in value and len(value) <= inline:
        return field_line(name, value)
    return Content.assemble((visible(name), _c("key")), "\n", value, "\n\n")


def joined(parts: list[Content]) -> Content:
    """Parts that end in line breaks, as one block without the last ones."""
    return Content("").join(parts).rstrip()
