"""Which format a run file is in, judged by its shape and never by whether line 1 parses.

A file whose first non-blank character is neither `{` nor `[` is CSV or JSON Lines
(see `csv_runs.delimiter_for`). Otherwise it is JSON Lines or one JSON document,
told apart by brackets and strings alone (a broken line has the shape of a line):

1. The first value closes on its own line (`{...}`, `[1, 2]`, two objects, a value
   and trailing text, a line with NaN...). If the next non-blank lines are mostly
   whole objects, one per line, the file is JSON Lines. Otherwise it is a one-line
   document when that value is an array holding objects (or empty), or an object with a `runs`
   array and none of the rule's fields (a run may have a field called `runs`);
   anything else is JSON Lines.
2. The first value runs on past its line: a pretty-printed document, or JSON Lines
   whose first line is cut short. Of the next few non-blank lines, JSON Lines has
   mostly whole objects, one per line; a pretty-printed document has openers,
   keys, and elements followed by commas. The majority decides. With no line after
   it, the file is one JSON Lines line cut short (a document spans lines).

A file that ends its lines with a bare carriage return (old Mac line ends) is
refused with that reason when it would be JSON Lines: a bare CR inside a line is
JSON whitespace, so such a file cannot be split into lines safely.
"""

from __future__ import annotations

import re
from typing import Any

from ..common.jsonutil import DECODER
from . import csv_runs
from .mapping import FieldMap

LOOKAHEAD = 10  # non-blank lines after the first that the vote looks at
_RULE_FIELDS = ("id", "required", "context", "correct")
# A string (cut at the line's end if never closed: JSON strings hold no raw line breaks),
# a bracket, or a comma. The string is matched as runs of plain characters between escapes
# (the "unrolled loop"), not one alternation per character: 40 times faster on a 10 MB string.
_TOKEN = re.compile(r'"[^"\\\r\n]*(?:\\[^\r\n][^"\\\r\n]*)*"?|[\[\]{},]')
_OPENER = {"]": "[", "}": "{"}


class FileError(Exception):
    """The file as a whole cannot be read as a run file. The message names it."""


def value_end(text: str, index: int) -> int | None:
    """Where the bracketed value or faulty stretch starting at `index` ends, by brackets and strings.

    From an opening bracket: the index just past its closing bracket. From
    anything else: the index of the `,` or closing bracket that ends it. None
    when the text ends first or a bracket closes the wrong kind. Nothing is
    parsed, so this works on broken JSON.
    """
    open_brackets: list[str] = []
    for match in _TOKEN.finditer(text, index):
        char = match.group()[0]
        if char in "[{":
            open_brackets.append(char)
        elif char in "]}":
            if not open_brackets:
                return match.start()
            if open_brackets.pop() != _OPENER[char]:
                return None  # `[1, 2}`: broken beyond what brackets can tell
            if not open_brackets:
                return match.end()
        elif char == "," and not open_brackets:
            return match.start()
    return None


def is_whole_object_line(line: str) -> bool:
    """Whether the line holds one bracket-balanced `{...}` and nothing else."""
    text = line.strip(" \t\r\n")
    return text.startswith("{") and value_end(text, 0) == len(text)


def first_line(handle: Any, name: str) -> bytes:
    """The file's first line, with any blank lines before it; FileError for an unusable file."""
    head = handle.readline()
    if head.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise FileError(f"{name}: the file is UTF-16, not UTF-8; convert it to UTF-8")
    if head.startswith(b"\xef\xbb\xbf"):
        head = head[3:]
    while not head.strip():
        more = handle.readline()
        if not more:
            raise FileError(f"{name}: the file is empty")
        head += more
    try:
        head.decode("utf-8")
    except UnicodeDecodeError:
        raise FileError(f"{name}: not a UTF-8 text file") from None
    return head


def detect(handle: Any, name: str, field_map: FieldMap | None) -> tuple[str, bytes]:
    """The file's kind ("csv", "document" or "lines") and the bytes read to decide it.

    The bytes are the start of the file (without a BOM), to be read before the rest.
    """
    head = first_line(handle, name)
    text = head.decode("utf-8")
    start = len(text) - len(text.lstrip())
    first = text[start]
    if first not in "[{":
        if csv_runs.delimiter_for(name, text, field_map):
            return "csv", head
        return "lines", head
    end = value_end(text, start)
    if not head.endswith(b"\n") and "\r" in text.strip():
        return _cr_only(text, start, end, name), head
    following = []
    for _ in range(LOOKAHEAD):
        line = handle.readline()
        if not line:
            break
        head += line
        if line.strip():
            following.append(line.decode("utf-8", "replace"))
    whole = sum(map(is_whole_object_line, following))
    if end is None:  # the first value runs past its line
        if not following:  # and nothing follows: one JSON Lines line cut short, not a document
            return "lines", head
        return ("lines" if whole > len(following) - whole else "document"), head
    if following and whole > len(following) - whole:
        return "lines", head
    return ("document" if _is_document(text[start:end], field_map) else "lines"), head


def _cr_only(text: str, start: int, end: int | None, name: str) -> str:
    if end is not None and text[end:].strip():
        raise FileError(
            f"{name}: lines end with a bare carriage return (\\r, old Mac line ends), "
            "not a line feed; convert the line ends to \\n"
        )
    return "document"


def _is_document(value: str, field_map: FieldMap | None) -> bool:
    """Whether a one-line value is a whole run file: an array of objects, or a `runs` object."""
    try:
        obj = DECODER.decode(value)
    except (ValueError, RecursionError):
        return False
    if isinstance(obj, list):  # `[1, 2]` is a line that is not a run; `[]` is an empty file
        return not obj or any(isinstance(item, dict) for item in obj)
    if not isinstance(obj, dict) or not isinstance(obj.get("runs"), list):
        return False
    try:
        fields = field_map.apply(obj) if field_map else obj
    except ValueError:
        return False
    return not any(field in fields for field in _RULE_FIELDS)
