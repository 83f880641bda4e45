"""A JSON corpus indexed in a stream: where each document of its array starts and ends.

A corpus that is one JSON value (an array of documents, or an object with a `documents`
array) is first checked whole by msgspec into a `msgspec.Raw`, which allocates nothing per
value; then the array is read again from the file a megabyte at a time, each run of whole
documents decoded into `msgspec.Raw` views of that piece. Opening so holds the file's bytes
once, then the index and a piece, never a parsed copy of every document (issue 22: a JSON
array used to peak at 10-25 times its size). A value msgspec cannot read (not JSON, `NaN`, a
lone surrogate escape, nested too deeply) is left to the standard decoder (`array_region`
says None), which words the error or reads such a corpus whole.
"""

from __future__ import annotations

import codecs
import contextlib
import io
import re
from collections.abc import Callable, Iterable, Iterator
from itertools import accumulate, repeat
from operator import add
from typing import Any, NamedTuple

import msgspec

from ..common.jsonutil import MAX_DEPTH, nested_too_deeply

PIECE = 1 << 20  # bytes of the array read at a time (a longer document: more)
QUICK_CUTS = 4  # places between two objects tried before the array is scanned for its commas

_RAW = msgspec.json.Decoder(msgspec.Raw)
_MEMBERS = msgspec.json.Decoder(dict[str, msgspec.Raw])
_ELEMENTS = msgspec.json.Decoder(list[msgspec.Raw])
# A string (or one the buffer cuts short), or a bracket or comma outside every string.
_STRING_OR_STRUCTURE = re.compile(rb'"(?:[^"\\]++|\\.)*+(?:"|\\?\Z)|[\[\]{},]', re.DOTALL)
_SPACES = re.compile(rb"[ \t\r\n]*")
_BETWEEN = re.compile(rb"[ \t\r\n]*,?[ \t\r\n]*")  # what separates two elements
_SPACE_BYTE = re.compile(rb"[ \t\r\n]")

IdsOf = Callable[[bytes, list[msgspec.Raw]], Iterable[Any]]
"""Reads the ids of a piece's elements (`piece`: `[`, the elements, `]`)."""
_SPACE = b" \t\r\n"


class IdOnly(msgspec.Struct, gc=False):
    """A document read for its `id` alone (None when it has none). Decoded JSON holds no
    cycle, so a run of them is not tracked by the garbage collector (nor collected for)."""

    id: Any = None


ID_ONLY = msgspec.json.Decoder(IdOnly)
"""Reads a document for its id."""
ID_LIST = msgspec.json.Decoder(list[IdOnly])
"""Reads an array of documents for their ids."""


class CorpusChanged(Exception):
    """The file no longer holds the array `array_region` found (rewritten while read)."""


def check_utf8(data: bytes) -> None:
    """Raise UnicodeDecodeError unless `data` is UTF-8, a piece at a time (no text copy)."""
    decoder = codecs.getincrementaldecoder("utf-8")()
    view = memoryview(data)
    for at in range(0, len(data), PIECE):
        decoder.decode(view[at : at + PIECE])
    decoder.decode(b"", final=True)


def array_region(data: bytes, offset: int) -> tuple[int, int, int] | None:
    """(start, end, line) of the documents array in a corpus file's bytes (`offset`: past a
    BOM): the whole file when it is an array, else an object's `documents` array. None when
    msgspec cannot read the file or finds no such array: the standard decoder decides."""
    view, first = memoryview(data)[offset:], _SPACES.match(data, offset).end()
    try:
        if data[first : first + 1] == b"[":
            _RAW.decode(view)  # checks the whole file, allocating nothing per value
            start, end = first, data.rindex(b"]") + 1
        else:
            documents = memoryview(_MEMBERS.decode(view).get("documents") or b"")
            if documents[:1] != b"[":
                return None
            start = data.find(documents, offset)
            end = start + len(documents)
    except (msgspec.DecodeError, msgspec.ValidationError, RecursionError):
        return None
    return start, end, data.count(b"\n", 0, start) + 1


class Spans(NamedTuple):
    """A piece's elements, in order: their ids, byte spans in the file and lines."""

    ids: list[Any]
    starts: list[int]
    ends: list[int]
    lines: list[int]


def array_documents(
    handle: io.BufferedReader, start: int, end: int, line: int, ids_of: IdsOf
) -> Iterator[Spans]:
    """The elements of the array at bytes [start, end) of the file (checked by `array_region`),
    a piece at a time: each one's id as `ids_of(piece, elements)` reads it, its byte span in the
    file and its line. Raises CorpusChanged when the file no longer holds that array."""
    for base, piece, elements, piece_line in _pieces(handle, start, end, line):
        starts, ends = _even_spans(piece, elements) or _spans(piece, elements)
        steps = map(piece.count, repeat(b"\n"), [1, *starts[:-1]], starts)
        lines = list(accumulate(steps, initial=piece_line))[1:]
        shift = repeat(base - 1)  # from the piece (which opens with `[`) to the file
        ids = list(ids_of(piece, elements))
        yield Spans(ids, list(map(add, starts, shift)), list(map(add, ends, shift)), lines)


def line_ids(lines: Iterator[bytes]) -> list[Any]:
    """The `id` of each next line, each line read on its own without a step of Python, up to the
    first that is no JSON object (blank, not JSON, ...), which is taken from `lines` too."""
    documents: list[IdOnly] = []
    with contextlib.suppress(msgspec.DecodeError, msgspec.ValidationError, RecursionError, TooDeep):
        documents.extend(map(ID_ONLY.decode, map(_shallow, lines)))  # those before the failing line are kept
    return [document.id for document in documents]


class TooDeep(ValueError):
    """JSON nested deeper than the readers' own limit (jsonutil.MAX_DEPTH)."""


def _shallow(line: bytes) -> bytes:
    """`line`, unless it nests deeper than MAX_DEPTH: then TooDeep, whatever the Python."""
    if len(line) > MAX_DEPTH and nested_too_deeply(line):
        raise TooDeep
    return line


def _even_spans(piece: bytes, elements: list[msgspec.Raw]) -> tuple[list[int], list[int]] | None:
    """(starts, ends) in `piece` when every two elements are separated alike (one layout, as
    a writer makes it): found without a step of Python per element. None otherwise."""
    first = _BETWEEN.match(piece, 1).end()  # type: ignore[union-attr]
    lengths = list(map(len, elements))
    if len(elements) < 2:
        return [first] * len(elements), [first + n for n in lengths]
    gap = _BETWEEN.match(piece, first + lengths[0]).end() - first - lengths[0]  # type: ignore[union-attr]
    starts = list(accumulate(map(add, lengths[:-1], repeat(gap)), initial=first))
    ends = list(map(add, starts, lengths))
    separator = piece[ends[0] : starts[1]]
    if not all(map(separator.__eq__, map(piece.__getitem__, map(slice, ends[:-1], starts[1:])))):
        return None
    if _SPACE_BYTE.search(bytes(map(piece.__getitem__, starts))):  # a separator longer than `gap`
        return None
    return starts, ends


def _spans(piece: bytes, elements: list[msgspec.Raw]) -> tuple[list[int], list[int]]:
    """(starts, ends) in `piece`, one element after another."""
    starts, ends, at, between = [], [], 1, _BETWEEN.match
    for raw in elements:
        found = between(piece, at).end()  # type: ignore[union-attr]
        at = found + len(raw)
        starts.append(found)
        ends.append(at)
    return starts, ends


def _pieces(
    handle: io.BufferedReader, start: int, end: int, line: int
) -> Iterator[tuple[int, bytes, list[msgspec.Raw], int]]:
    """(where it starts in the file, piece, its elements, line) for each run of whole elements
    of the array, a few MB at a time: the piece is `[`, the run's bytes, `]`."""
    handle.seek(start + 1)
    left = end - start - 2  # the bytes between the brackets
    base, buffer = start + 1, b""
    while True:
        more = handle.read(min(max(PIECE, 2 * len(buffer)), left))
        left -= len(more)
        buffer += more
        found = _last_run(buffer, whole=left == 0)
        if found is None:
            if not more:
                raise CorpusChanged("changed while it was read")
            continue
        cut, piece, elements = found
        yield base, piece, elements, line
        if left == 0:
            return
        line += buffer.count(b"\n", 0, cut + 1)
        base, buffer = base + cut + 1, buffer[cut + 1 :]


def _last_run(buffer: bytes, whole: bool) -> tuple[int, bytes, list[msgspec.Raw]] | None:
    """(cut, piece, elements): the whole elements of `buffer` up to a comma between two of
    them, as late as found (all of it when `whole`). A few places that look like the end of one
    object and the start of the next are tried first (a comma inside a string or a document
    leaves invalid JSON before it); then the buffer is scanned for the commas outside every
    string and bracket. None: no whole element yet."""
    if whole:
        return _elements_before(buffer, len(buffer), whole)
    hi, tried = len(buffer), 0
    while tried < QUICK_CUTS and (comma := buffer.rfind(b",", 0, hi)) >= 0:
        hi = comma
        if buffer[max(0, comma - 32) : comma].rstrip(_SPACE).endswith(b"}"):
            tried += 1
            found = _elements_before(buffer, comma, whole)
            if found is not None:
                return found
    comma = _last_comma(buffer)
    return None if comma < 0 else _elements_before(buffer, comma, whole)


def _elements_before(buffer: bytes, cut: int, whole: bool) -> tuple[int, bytes, list[msgspec.Raw]] | None:
    """(cut, piece, elements) of the bytes before `cut`, or None when they are no run of
    whole elements (when `whole`, the array's last bytes: the file changed)."""
    piece = b"".join((b"[", memoryview(buffer)[:cut], b"]"))
    try:
        return cut, piece, _ELEMENTS.decode(piece)
    except (msgspec.DecodeError, RecursionError):
        if whole:
            raise CorpusChanged("changed while it was read") from None
    return None


def _last_comma(buffer: bytes) -> int:
    """The last comma of `buffer` outside every string and bracket, or -1."""
    depth, last = 0, -1
    for match in _STRING_OR_STRUCTURE.finditer(buffer):
        token = match.group()
        if token in (b"[", b"{"):
            depth += 1
        elif token in (b"]", b"}"):
            depth -= 1
        elif token == b"," and depth == 0:
            last = match.start()
    return last
