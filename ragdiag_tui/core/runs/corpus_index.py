"""The index of a corpus file: for each document id, where its bytes are and on which line it
starts, in the file's order.

A corpus of tiny documents is mostly index (issue 22: opening any corpus should peak under
~3x its size), so nothing is kept per document beyond its id and a few machine integers:

- a dict from each id to its *block* of `BLOCK` rows (a document's row is its place in the
  file's order), one int object shared by the block rather than one per document;
- the ids in the file's order, where the row is found by scanning the id's block;
- each document's start, length and line as machine integers, in the narrowest type that
  holds them (widened when a document of 64 KiB or a file of 4 GiB needs it);
- for a JSON corpus, a document's place in its array is its row plus the elements skipped
  before it, so only the skipped ones are noted.

Ids and integers are kept in chunks of `CHUNK` rows: a chunk fills up and the next begins, so
growing the index never copies it to a bigger block of memory (which would leave the old
one free but still held by the process, about as much again).

A run of documents is indexed at once (`add_run`) when all of its ids are new strings, without
a step of Python per document; `add` takes one at a time.
"""

from __future__ import annotations

from array import array
from bisect import bisect_right
from collections import deque
from collections.abc import Iterator, Sequence
from itertools import repeat
from operator import rshift, sub
from typing import Any

BLOCK_BITS = 6
BLOCK = 1 << BLOCK_BITS  # rows that share one int object in the dict of ids
CHUNK_BITS = 16
CHUNK = 1 << CHUNK_BITS  # rows of a chunk of ids and integers
_WIDER = {"H": "I", "I": "Q"}


class DocIndex:
    """Documents' places in a corpus file, by id and by row (their order in the file)."""

    def __init__(self) -> None:
        self._block_of: dict[str, int] = {}
        self._blocks: list[int] = []  # the shared int objects: self._blocks[n] is n
        # (those of the rows indexed, and of a run being indexed)
        self._rows = 0
        # Per chunk of CHUNK rows:
        self._ids: list[list[str]] = []
        self._starts: list[array[int]] = []
        self._lengths: list[array[int]] = []
        self._lines: list[array[int]] = []
        self._skipped = array("Q")  # per element skipped (JSON), the number of rows before it

    def __len__(self) -> int:
        return self._rows

    def __iter__(self) -> Iterator[str]:
        """The ids, in the file's order (the dict's, as they were put there)."""
        return iter(self._block_of)

    def __contains__(self, doc_id: object) -> bool:
        return doc_id in self._block_of

    def row(self, doc_id: str) -> int | None:
        """The document's row, or None when no document has this id."""
        block = self._block_of.get(doc_id)
        if block is None:
            return None
        first = block << BLOCK_BITS
        at = first % CHUNK
        return first - at + self._ids[first >> CHUNK_BITS].index(doc_id, at, at + BLOCK)

    def place(self, row: int) -> tuple[int, int, int]:
        """(start, length, line) of the document in row `row`."""
        chunk, at = row >> CHUNK_BITS, row % CHUNK
        return self._starts[chunk][at], self._lengths[chunk][at], self._lines[chunk][at]

    def line(self, row: int) -> int:
        return self._lines[row >> CHUNK_BITS][row % CHUNK]

    def position(self, row: int) -> int:
        """The 1-based place in a JSON corpus's array of the document in row `row`."""
        return row + 1 + bisect_right(self._skipped, row)

    def skip(self) -> int:
        """Note an element of a JSON corpus's array that is not indexed; its 1-based place."""
        self._skipped.append(self._rows)
        return self._rows + len(self._skipped)

    def add(self, doc_id: str, start: int, end: int, line: int) -> bool:
        """Index a document at bytes [start, end) of the file; False (nothing indexed) when a
        document with this id already is."""
        if doc_id in self._block_of:
            return False
        row = self._rows
        if not row % BLOCK:
            self._new_block(row)
        self._block_of[doc_id] = self._blocks[-1]
        self._rows = row + 1
        self._ids[-1].append(doc_id)
        self._lines[-1].append(line)
        try:
            self._starts[-1].append(start)
        except OverflowError:
            _widen(self._starts, start).append(start)
        try:
            self._lengths[-1].append(end - start)
        except OverflowError:
            _widen(self._lengths, end - start).append(end - start)
        return True

    def add_run(
        self, ids: list[Any], starts: Sequence[int], ends: Sequence[int], lines: Sequence[int]
    ) -> bool:
        """Index a run of documents, in order, when every id is a string that no document has yet
        (none twice in the run); else index none of them and say False."""
        if not ids:
            return True
        if set(map(type, ids)) != {str}:
            return False
        first = self._rows
        while len(self._blocks) <= (first + len(ids) - 1) >> BLOCK_BITS:
            self._blocks.append(len(self._blocks))
        rows = range(first, first + len(ids))
        blocks = map(self._blocks.__getitem__, map(rshift, rows, repeat(BLOCK_BITS)))
        before = len(self._block_of)
        deque(map(self._block_of.setdefault, ids, blocks), maxlen=0)  # one look-up per id
        if len(self._block_of) - before < len(ids):
            self._forget(ids, first)
            del self._blocks[(first + BLOCK - 1) >> BLOCK_BITS :]  # those of the rows so far
            return False
        lengths = list(map(sub, ends, starts))
        done = 0
        while done < len(ids):
            if not self._rows % CHUNK:
                self._new_chunk()
            end = min(len(ids), done + CHUNK - self._rows % CHUNK)
            self._ids[-1].extend(ids[done:end])
            _extend(self._starts, starts[done:end])
            _extend(self._lengths, lengths[done:end])
            _extend(self._lines, lines[done:end])
            self._rows += end - done
            done = end
        return True

    def _new_block(self, row: int) -> None:
        """Start the block of rows from `row` (and a chunk, when it starts one)."""
        self._blocks.append(row >> BLOCK_BITS)
        if not row % CHUNK:
            self._new_chunk()

    def _new_chunk(self) -> None:
        self._ids.append([])
        self._starts.append(array(self._starts[-1].typecode if self._starts else "I"))
        self._lengths.append(array("H"))
        self._lines.append(array("I"))

    def _forget(self, ids: list[str], first: int) -> None:
        """Take out of the dict the ids of a run just put there (its rows from `first` on), and
        leave the ids indexed before it: an id was there before when its block's rows before
        `first` hold it."""
        for doc_id in set(ids):
            low = self._block_of[doc_id] << BLOCK_BITS
            if low >= first:
                del self._block_of[doc_id]
                continue
            at = low % CHUNK
            if doc_id not in self._ids[low >> CHUNK_BITS][at : at + min(BLOCK, first - low)]:
                del self._block_of[doc_id]


def _widen(column: list[array[int]], value: int) -> array[int]:
    """The last array of `column`, replaced by a copy in a type wide enough for `value`."""
    while value >> (8 * column[-1].itemsize):
        column[-1] = array(_WIDER[column[-1].typecode], column[-1])
    return column[-1]


def _extend(column: list[array[int]], values: Sequence[int]) -> None:
    """Append `values` to the last array of `column`, widened first when they need it."""
    try:
        more = array(column[-1].typecode, values)
    except OverflowError:
        more = array("Q", values)
        _widen(column, max(values))
    column[-1].extend(more if more.typecode == column[-1].typecode else array(column[-1].typecode, more))
