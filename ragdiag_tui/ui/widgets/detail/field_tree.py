"""A run's nested field (an object, or a list holding objects) as indented key/value lines.

    metric_dict
      hit_rate
        score     1.0
        metadata  {}
    retrieved
      - doc_id  D1
        score   0.9

Keys go through `visible` and are styled as the detail's keys; values are `value_text`.
Deep or long values stop at a depth and a number of lines (the export keeps them whole).
"""

from __future__ import annotations

import json
from typing import Any

from textual.content import Content

from ....core.common.text import visible
from .detail_text import detail_class, value_text

MAX_DEPTH = 6  # levels shown as lines; deeper values as one line of JSON
MAX_LINES = 200  # lines of one field shown before cutting
MAX_KEY = 24  # a longer key does not push its siblings' values further right

_c = detail_class

Line = tuple[str, str, str]
"""(indent and list marks, key or "", value text) of one line."""


def is_nested(value: Any) -> bool:
    """Whether a field's value reads better as lines: a non-empty object, or a list holding one."""
    if isinstance(value, dict):
        return bool(value)
    return isinstance(value, list) and any(isinstance(item, dict | list) and item for item in value)


def _leaf(value: Any) -> str:
    if isinstance(value, dict | list) and not value:
        return json.dumps(value)
    return value_text(value)


def _lines(value: Any, lead: str, rest: str, depth: int, out: list[Line]) -> None:
    """`value`'s lines into `out`: the first begins with `lead`, the others with `rest`."""
    if len(out) > MAX_LINES:
        return
    if depth >= MAX_DEPTH or not is_nested(value):
        out.append((lead, "", _leaf(value) if depth < MAX_DEPTH else value_text(value)))
        return
    if isinstance(value, dict):
        for index, (key, item) in enumerate(value.items()):
            if len(out) > MAX_LINES:
                return
            prefix = lead if index == 0 else rest
            if is_nested(item):
                out.append((prefix, visible(str(key)), ""))
                _lines(item, rest + "  ", rest + "  ", depth + 1, out)
            else:
                out.append((prefix, visible(str(key)), _leaf(item)))
        return
    for index, item in enumerate(value):
        if len(out) > MAX_LINES:
            return
        prefix = lead if index == 0 else rest
        _lines(item, prefix + "- ", rest + "  ", depth + 1, out)


def field_tree(name: str, value: Any) -> Content:
    """The field `name` over its value's indented lines, keys of one object aligned."""
    lines: list[Line] = []
    _lines(value, "  ", "  ", 0, lines)
    shown = lines[:MAX_LINES]
    width = {len(indent): 0 for indent, _, _ in shown}
    for indent, key, text in shown:
        if key and text:
            width[len(indent)] = max(width[len(indent)], min(len(key), MAX_KEY))
    parts: list[Content | str | tuple[str, str]] = [(visible(name), _c("key")), "\n"]
    for indent, key, text in shown:
        pad = width[len(indent)] + 2 if key and text else len(key)
        column = " " * (len(indent) + pad)
        parts += [indent, (key.ljust(pad), _c("key")), text.replace("\n", "\n" + column), "\n"]
    if len(lines) > MAX_LINES:
        parts += [("  … (more lines: the export keeps the whole value)", _c("muted")), "\n"]
    parts.append("\n")
    return Content.assemble(*parts)
