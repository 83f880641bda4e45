"""The index of a corpus file: for each document id, where its bytes are and on which line it
starts, in the file's order.

A corpus of tiny documents is mostly index (issue 22: opening any corpus should peak under
~3x its size), so nothing is kept per document beyond its id and a few machine integers:

- the ids once, in a list in the file's order (a document's *row* is its place there);
- a dict from each id to its *block* of `BLOCK` rows, one int object shared by the block
  rather than one per document; the row is found by scanning that block of the list;
- each document's start, length and line in arrays of machine integers;
- for a JSON corpus, a document's place in its array is its row plus the elements skipped
  before it, so only the skipped ones are noted.

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
_WIDER = {"H": "I", "I": "Q"}


class DocIndex:
    """Documents' places in a corpus file, by id and by row (their order in the file)."""

    def __init__(self) -> None:
        self._block_of: dict[str, int] = {}
        self._ids: list[str] = []
        self._blocks: list[int] = []  # the shared int objects: self._blocks[n] is n
        # Offsets and lengths in the narrowest type that holds them so far, widened as needed
        # (a document of 64 KiB or more; a file of 4 GiB or more).
        self._starts = array("I")
        self._lengths = array("H")
        self._lines = array("I")
        self._skipped = array("Q")  # per element skipped (JSON), the number of rows before it

    def __len__(self) -> int:
        return len(self._ids)

    def __iter__(self) -> Iterator[str]:
        """The ids, in the file's order."""
        return iter(self._ids)

    def __contains__(self, doc_id: object) -> bool:
        return doc_id in self._block_of

    def row(self, doc_id: str) -> int | None:
        """The document's row, or None when no document has this id."""
        block = self._block_of.get(doc_id)
        if block is None:
            return None
        first = block << BLOCK_BITS
        return self._ids.index(doc_id, first, first + BLOCK)

    def place(self, row: int) -> tuple[int, int, int]:
        """(start, length, line) of the document in row `row`."""
        return self._starts[row], self._lengths[row], self._lines[row]

    def line(self, row: int) -> int:
        return self._lines[row]

    def position(self, row: int) -> int:
        """The 1-based place in a JSON corpus's array of the document in row `row`."""
        return row + 1 + bisect_right(self._skipped, row)

    def skip(self) -> int:
        """Note an element of a JSON corpus's array that is not indexed; its 1-based place."""
        self._skipped.append(len(self._ids))
        return len(self._ids) + len(self._skipped)

    def add(self, doc_id: str, start: int, end: int, line: int) -> bool:
        """Index a document at bytes [start, end) of the file; False (nothing indexed) when a
        document with this id already is."""
        if doc_id in self._block_of:
            return False
        block = len(self._ids) >> BLOCK_BITS
        if block == len(self._blocks):
            self._blocks.append(block)
        self._block_of[doc_id] = self._blocks[block]
        self._ids.append(doc_id)
        self._lines.append(line)
        try:
            self._starts.append(start)
        except OverflowError:
            self._hold(start, 0)
            self._starts.append(start)
        try:
            self._lengths.append(end - start)
        except OverflowError:
            self._hold(0, end - start)
            self._lengths.append(end - start)
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
        first = len(self._ids)
        while len(self._blocks) <= (first + len(ids) - 1) >> BLOCK_BITS:
            self._blocks.append(len(self._blocks))
        rows = range(first, first + len(ids))
        blocks = map(self._blocks.__getitem__, map(rshift, rows, repeat(BLOCK_BITS)))
        before = len(self._block_of)
        deque(map(self._block_of.setdefault, ids, blocks), maxlen=0)  # one look-up per id
        if len(self._block_of) - before < len(ids):
            self._forget(ids, first)
            return False
        self._ids.extend(ids)
        lengths = list(map(sub, ends, starts))
        self._hold(max(starts), max(lengths))
        self._starts.extend(starts)
        self._lengths.extend(lengths)
        self._lines.extend(lines)
        return True

    def _hold(self, start: int, length: int) -> None:
        """Widen the arrays of starts and lengths, when needed, to hold these."""
        while start >> (8 * self._starts.itemsize):
            self._starts = array(_WIDER[self._starts.typecode], self._starts)
        while length >> (8 * self._lengths.itemsize):
            self._lengths = array(_WIDER[self._lengths.typecode], self._lengths)

    def _forget(self, ids: list[str], first: int) -> None:
        """Take out of the dict the ids of a run just put there, from row `first` on, and leave the
        ids indexed before it as they were: an id was there before when its block's rows before
        `first` hold it."""
        for doc_id in set(ids):
            low = self._block_of[doc_id] << BLOCK_BITS
            if doc_id not in self._ids[low : min(low + BLOCK, first)]:
                del self._block_of[doc_id]
