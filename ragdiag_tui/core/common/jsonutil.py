"""The JSON rules every reader and writer of the project shares.

Three rules, each written once here:

- Numbers. A run's own JSON may hold numbers no Python number holds exactly: an
  integer of over 4,300 digits (Python refuses to convert it), `1e400` (would
  become infinity), `1e-400` (would become 0). It may also hold `NaN`,
  `Infinity` and `-Infinity`, which are not JSON but which Python's `json.dumps`
  writes by default and evaluation tools (RAGAS) write for metrics they cannot
  score. RULE.md: such a value outside the rule's fields does not make the run
  invalid; it is read and kept verbatim.
  - `decode` (reading and validating runs): every number as a Python number,
    huge integers as +-infinity, the three constants as float NaN/+-infinity.
    A number in `id`, `required`, `context` or `correct` is still a number, so
    the rule's strict types apply to it unchanged.
  - `decode_exact` (export): anything a Python number would change is a
    `RawNumber` holding the original text, which `dumps` writes back as it was.
  - `decode_standard` (the journal, CSV list cells): standard JSON only; the
    constants are refused.
- Line breaks. U+0085, U+2028 and U+2029 are valid inside JSON strings, but
  `str.splitlines()` and older JavaScript end a line at them: every JSON line the
  project writes has them as `\\u` escapes (`escape_line_breaks`).
- Terminals. JSON leaves DEL, C1 controls and bidi overrides raw; on a terminal
  they are written as `\\u` escapes (`escape_terminal_controls_utf8`).
- Lone surrogates (legal `\\ud800` escapes) have no UTF-8 form: a line holding one
  is written with `\\u` escapes throughout (`line_bytes`).
"""

from __future__ import annotations

import json
import math
import re
from itertools import accumulate
from typing import Any

NON_STANDARD = ("NaN", "Infinity", "-Infinity")
"""The number-like constants Python writes by default and every reader here accepts."""

_ZERO = re.compile(r"-?[0.]+(?:[eE][-+]?\d+)?")
_LINE_BREAKS = {0x85: "\\u0085", 0x2028: "\\u2028", 0x2029: "\\u2029"}
# In UTF-8 these byte sequences can only be those three characters.
_UTF8_LINE_BREAKS = (
    (b"\xc2\x85", b"\\u0085"),
    (b"\xe2\x80\xa8", b"\\u2028"),
    (b"\xe2\x80\xa9", b"\\u2029"),
)


# DEL, C1 controls and the bidi embedding/override/isolate controls, in UTF-8. JSON
# escapes C0 controls itself; these it leaves raw, and a terminal obeys them.
_UTF8_TERMINAL_CONTROLS = re.compile(rb"\x7f|\xc2[\x80-\x9f]|\xe2\x80[\xaa-\xae]|\xe2\x81[\xa6-\xa9]")


def _control_escape(match: re.Match[bytes]) -> bytes:
    return b"\\u%04x" % ord(match.group().decode("utf-8"))


class RawNumber:
    """A JSON number (or NaN/Infinity/-Infinity) that no Python number holds exactly, kept as its text."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text

    def __repr__(self) -> str:
        return f"RawNumber({self.text!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, RawNumber) and other.text == self.text

    def __hash__(self) -> int:
        return hash(self.text)


# -- decoding ---------------------------------------------------------------------


def _int_or_infinity(text: str) -> int | float:
    # Over Python's limit on digits (sys.get_int_max_str_digits): a number all the
    # same, as 1e400 is, which reads as infinity.
    try:
        return int(text)
    except ValueError:
        return -math.inf if text.startswith("-") else math.inf


def _exact_float(text: str) -> float | RawNumber:
    value = float(text)
    # 1e400 would become Infinity and 1e-400 would become 0.
    if math.isinf(value) or (value == 0.0 and not _ZERO.fullmatch(text)):
        return RawNumber(text)
    return value


def _exact_int(text: str) -> int | RawNumber:
    try:
        return int(text)
    except ValueError:
        return RawNumber(text)


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


DECODER = json.JSONDecoder(parse_int=_int_or_infinity)
"""Reads runs: see `decode`. Its `raw_decode` reads one value of a longer text."""
EXACT_DECODER = json.JSONDecoder(parse_float=_exact_float, parse_int=_exact_int, parse_constant=RawNumber)
STANDARD_DECODER = json.JSONDecoder(parse_constant=_refuse_constant)


def decode(text: str) -> Any:
    """A run's JSON as Python values: numbers as Python numbers, NaN/Infinity accepted."""
    return DECODER.decode(text)


def decode_exact(text: str) -> Any:
    """JSON with every number Python would change kept as a `RawNumber`, for writing back."""
    return EXACT_DECODER.decode(text)


def decode_standard(text: str) -> Any:
    """Standard JSON only (RFC 8259): NaN and Infinity raise ValueError."""
    return STANDARD_DECODER.decode(text)


# -- encoding ---------------------------------------------------------------------


class _HasRawNumber(Exception):
    pass


def _refuse(value: Any) -> Any:
    if isinstance(value, RawNumber):
        raise _HasRawNumber
    raise TypeError(f"cannot write a {type(value).__name__} as JSON")


_ENCODERS = {
    ascii_only: json.JSONEncoder(ensure_ascii=ascii_only, default=_refuse).encode
    for ascii_only in (False, True)
}


def dumps(value: Any, ascii_only: bool = False) -> str:
    """JSON text of `value`; a `RawNumber` is written as its original text."""
    try:
        return _ENCODERS[ascii_only](value)
    except _HasRawNumber:
        pass
    # Rare: the stdlib cannot write a raw number, so this level is assembled by hand.
    if isinstance(value, RawNumber):
        return value.text
    if isinstance(value, dict):
        items = (f"{dumps(k, ascii_only)}: {dumps(v, ascii_only)}" for k, v in value.items())
        return "{" + ", ".join(items) + "}"
    return "[" + ", ".join(dumps(item, ascii_only) for item in value) + "]"


def field_text(value: Any) -> str:
    """A run's field value as one text, the same in the filter, the detail and export: a
    string as it is, anything else as its JSON written by `dumps` (so `0.90` reads `0.9`
    wherever it is shown or matched, and a `RawNumber` keeps its digits)."""
    return value if isinstance(value, str) else dumps(value)


def escape_line_breaks(text: str) -> str:
    """JSON text with U+0085, U+2028 and U+2029 written as `\\u` escapes."""
    if text.isascii() or not ("\x85" in text or "\u2028" in text or "\u2029" in text):
        return text
    return text.translate(_LINE_BREAKS)


def escape_line_breaks_utf8(data: bytearray) -> bytearray:
    """`escape_line_breaks` on UTF-8 encoded JSON text."""
    for raw, escaped in _UTF8_LINE_BREAKS:
        if raw in data:
            data = data.replace(raw, escaped)
    return data


def escape_terminal_controls_utf8(data: bytes | bytearray) -> bytes | bytearray:
    """UTF-8 JSON text for a terminal: DEL, C1 and bidi controls as `\\u` escapes (the same JSON)."""
    return _UTF8_TERMINAL_CONTROLS.sub(_control_escape, data)


def line_bytes(value: Any) -> bytes:
    """`value` as one line of JSON Lines (without the newline), UTF-8.

    Line breaks are escaped; a lone surrogate makes the whole line ASCII with
    `\\u` escapes, the only form that reads back as it was.
    """
    text = escape_line_breaks(dumps(value))
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        return dumps(value, ascii_only=True).encode("ascii")


MAX_DEPTH = 500
"""Deepest nesting of arrays and objects a run or a document may have: the readers' own limit.

Without a fixed limit the parsers stop wherever the interpreter's recursion limit happens to
fall, which depends on the caller's stack and on the Python (3.13's `json` goes far deeper
than 3.11's): a run accepted by a loader thread would then fail with RecursionError when the
app parses it again deep in its event loop, and a document refused on one Python is read on
another.
"""
_STRING = re.compile(rb'"[^"]*"')
_PIECE = 1 << 16  # bytes scanned at a time: a corpus file is never copied whole
_NOT_STRUCTURE = bytes(range(256)).translate(None, b'[]{}"')  # deleted before the strings are found
_STEP = {ord("["): 1, ord("{"): 1, ord("]"): -1, ord("}"): -1}


def nested_too_deeply(raw: bytes | str) -> bool:
    """Whether the JSON text nests arrays and objects deeper than MAX_DEPTH (brackets in strings
    skipped). Scanned only when it might, a piece at a time (a corpus file is not copied whole),
    with bytes methods: escaped backslashes and quotes dropped, then everything but brackets and
    quotes, then what lies between quotes."""
    data = raw.encode("utf-8", "surrogatepass") if isinstance(raw, str) else raw
    if len(data) <= MAX_DEPTH or data.count(b"[") + data.count(b"{") <= MAX_DEPTH:
        return False
    depth, in_string, at = 0, False, 0
    while at < len(data):
        cut = min(at + _PIECE, len(data))
        while cut < len(data) and data[cut - 1] == 0x5C:  # never between an escape's two bytes
            cut += 1
        piece = data[at:cut]
        if b"\\" in piece:
            piece = piece.replace(b"\\\\", b"").replace(b'\\"', b"")
        kept = piece.translate(None, _NOT_STRUCTURE)
        if in_string:
            kept = b'"' + kept
        in_string = kept.count(b'"') % 2 == 1
        outside = _STRING.sub(b"", kept + b'"' if in_string else kept)
        steps = accumulate(map(_STEP.__getitem__, outside), initial=depth)
        deepest = max(steps)
        if deepest > MAX_DEPTH:
            return True
        depth += outside.count(b"[") + outside.count(b"{") - outside.count(b"]") - outside.count(b"}")
        at = cut
    return False
