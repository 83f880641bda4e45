"""The index of a corpus file: for each document id, where its bytes are and on which line it
starts, in the file's order.

A corpus of tiny documents is mostly index (issue 22: opening any corpus should peak under
~3x its size), so the index keeps no Python object per document, only bytes and machine
integers: about 45 bytes a document with an 11-character id, where a dict of the ids as
strings took 115.

- The ids themselves, UTF-8, one after another in a byte buffer, with where each ends.
- Each id's `hash` (its *tag*).
- A hash table of 32-bit slots, open addressing with linear probing: a slot holds a row + 1
  (a document's row is its place in the file's order), 0 when empty; an id is looked for from
  the slot its tag's remainder by the table's size names. A look-up hashes the id asked for,
  probes from there and compares bytes only where the tags are equal. The table is one block,
  sized for the documents the whole file is expected to hold once its first SAMPLE bytes tell
  how long they are, so that it is rebuilt (from the tags) a few times at most while a corpus
  opens; it is never more than MAX_LOAD full.
- Each document's start, length and line as machine integers, in the narrowest type that
  holds them (widened when a document of 64 KiB or a file of 4 GiB needs it).
- For a JSON corpus, a document's place in its array is its row plus the elements skipped
  before it, so only the skipped ones are noted.

Ids, tags and integers are kept in chunks of `CHUNK` rows: a chunk fills up and the next
begins, so growing the index never copies it to a bigger block of memory (which would leave
the old one free but still held by the process, about as much again).

A run of documents is indexed at once (`add_run`): its ids are hashed, encoded and kept
without a step of Python per document; only putting each row in the table is one. `DocRun`
gathers documents read one at a time (CSV rows) into such runs.
"""

from __future__ import annotations

from array import array
from bisect import bisect_right
from collections.abc import Callable, Iterator, Sequence
from itertools import accumulate, chain, repeat
from operator import mod, sub
from typing import Any

CHUNK_BITS = 16
CHUNK = 1 << CHUNK_BITS  # rows of a chunk of ids and integers
MAX_ROWS = 0xFFFFFFFE  # a slot holds a row + 1 in 32 bits
FIRST_SLOTS = 64
MAX_LOAD = 0.5  # the share of slots taken past which the table grows, ...
LOAD = 0.35  # ... to hold at this share the documents expected ...
AHEAD = 4  # ... in AHEAD times the bytes read so far, or, past SAMPLE bytes, in the whole file
SAMPLE = 1 << 16
RUN = 4096  # documents read one at a time, indexed at once (`DocRun`)
ENCODING = ("utf-8", "surrogatepass")  # an id from a run file may hold a lone surrogate
_WIDER = {"H": "I", "I": "Q"}


class DocIndex:
    """Documents' places in a corpus file, by id and by row (their order in the file).

    `size`: the file's size in bytes, from which the number of documents is foreseen (set it
    before the first document);
    `hash_id`: the hash of an id, a signed 64-bit integer as `hash` gives (tests make ids
    collide with their own)."""

    def __init__(self, size: int = 0, hash_id: Callable[[str], int] = hash) -> None:
        self.size = size
        self._hash = hash_id
        self._table = array("I", [0]) * FIRST_SLOTS
        self._room = int(FIRST_SLOTS * MAX_LOAD)  # rows the table holds before it grows
        self._rows = 0
        # Per chunk of CHUNK rows:
        self._id_bytes: list[bytearray] = []
        self._id_ends: list[array[int]] = []  # where each id ends in the chunk's bytes
        self._tags: list[array[int]] = []
        self._starts: list[array[int]] = []
        self._lengths: list[array[int]] = []
        self._lines: list[array[int]] = []
        self._skipped = array("Q")  # per element skipped (JSON), the number of rows before it

    def __len__(self) -> int:
        return self._rows

    def __iter__(self) -> Iterator[str]:
        """The ids, in the file's order."""
        return chain.from_iterable(map(self._chunk_ids, range(len(self._id_bytes))))

    def __contains__(self, doc_id: object) -> bool:
        return isinstance(doc_id, str) and self.row(doc_id) is not None

    def row(self, doc_id: str) -> int | None:
        """The document's row, or None when no document has this id."""
        tag = self._hash(doc_id)
        return self._probe(tag % len(self._table), tag, _utf8(doc_id))[1]

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
        if self._rows >= self._room:
            self._make_room(1, end)
        tag, table = self._hash(doc_id), self._table
        slot = tag % len(table)
        try:
            key = doc_id.encode()
        except UnicodeEncodeError:
            key = doc_id.encode(*ENCODING)
        if table[slot]:
            slot, found = self._probe(slot, tag, key)
            if found is not None:
                return False
        row = self._rows
        if not row % CHUNK:
            self._new_chunk()
        table[slot] = self._rows = row + 1
        ids = self._id_bytes[-1]
        ids += key
        try:
            self._id_ends[-1].append(len(ids))
        except OverflowError:  # ids of 64 KiB on average
            _widen(self._id_ends, len(ids)).append(len(ids))
        self._tags[-1].append(tag)
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
        try:
            text = "".join(ids)
        except TypeError:  # an id that is no string
            return False
        if self._rows + len(ids) > self._room:
            self._make_room(len(ids), ends[-1])
        first, tags = self._rows, list(map(self._hash, ids))
        if text.isascii():  # as many bytes as characters
            utf8, id_lengths = text.encode("ascii"), list(map(len, ids))
        else:
            pieces = list(map(_utf8, ids))
            utf8, id_lengths = b"".join(pieces), list(map(len, pieces))
        del text
        self._keep((id_lengths, tags, starts, list(map(sub, ends, starts)), lines), memoryview(utf8))
        put = self._put(tags, first)
        if put < len(ids):
            self._take_out(tags[:put], first)
            self._cut(first)
            return False
        return True

    # -- the table ------------------------------------------------------------

    def _probe(self, slot: int, tag: int, key: bytes | bytearray) -> tuple[int, int | None]:
        """(slot, row) of the id whose UTF-8 is `key` and whose tag is `tag`, probing from `slot`;
        (the empty slot where it would go, None) when the table has no such id."""
        table, size, tags = self._table, len(self._table), self._tags
        while taken := table[slot]:
            row = taken - 1
            if tags[row >> CHUNK_BITS][row % CHUNK] == tag and self._id(row) == key:
                return slot, row
            slot = (slot + 1) % size
        return slot, None

    def _put(self, tags: list[int], first: int) -> int:
        """Put rows `first`, `first` + 1, ... (kept, their tags `tags`) in the table; how many
        were put before one whose id is there already (all of them when none is)."""
        table, size, kept, id_of = self._table, len(self._table), self._tags, self._id
        rows = range(first + 1, first + 1 + len(tags))
        for row, slot in zip(rows, map(mod, tags, repeat(size)), strict=True):
            if table[slot]:  # probed here rather than in `_probe`, which is slower to call
                tag = tags[row - 1 - first]
                while taken := table[slot]:
                    taken -= 1
                    if kept[taken >> CHUNK_BITS][taken % CHUNK] == tag and id_of(taken) == id_of(row - 1):
                        return row - 1 - first
                    slot = (slot + 1) % size
            table[slot] = row
        return len(tags)

    def _take_out(self, tags: list[int], first: int) -> None:
        """Empty the slots of rows `first`, `first` + 1, ... just put (`tags`: their tags), the
        last first, so that every slot still taken is found from its own as before."""
        table, size = self._table, len(self._table)
        for row in reversed(range(first + 1, first + 1 + len(tags))):
            slot = tags[row - 1 - first] % size
            while table[slot] != row:
                slot = (slot + 1) % size
            table[slot] = 0

    def _make_room(self, more: int, reached: int) -> None:
        """Grow the table before `more` rows are put in it, when they would fill it past
        MAX_LOAD (`reached`: the end of the last of them in the file): to hold the documents
        expected in the whole file, once SAMPLE bytes of it tell how long they are (else those
        expected in AHEAD times the bytes read)."""
        needed = self._rows + more
        if needed > MAX_ROWS:
            raise MemoryError("more documents than the index can number")
        if needed <= self._room:
            return
        ahead = self.size if reached >= SAMPLE else min(self.size, AHEAD * reached)
        expected = needed * ahead // reached if ahead > reached > 0 else needed
        slots = max(2 * len(self._table), int(expected / LOAD) + 1)
        self._table = array("I")  # the old table let go before the new one is made
        table = self._table = array("I", [0]) * slots
        size, self._room = len(table), int(len(table) * MAX_LOAD)
        for row, slot in enumerate(map(mod, chain.from_iterable(self._tags), repeat(size)), start=1):
            while table[slot]:
                slot = (slot + 1) % size
            table[slot] = row

    # -- ids and places -------------------------------------------------------

    def _id(self, row: int) -> bytes | bytearray:
        """The UTF-8 of row `row`'s id."""
        chunk, at = row >> CHUNK_BITS, row % CHUNK
        ends = self._id_ends[chunk]
        return self._id_bytes[chunk][ends[at - 1] if at else 0 : ends[at]]

    def _chunk_ids(self, chunk: int) -> Iterator[str]:
        ends = self._id_ends[chunk]
        pieces = map(self._id_bytes[chunk].__getitem__, map(slice, chain((0,), ends), ends))
        return map(bytearray.decode, pieces, *map(repeat, ENCODING))

    def _keep(self, columns: tuple[Sequence[int], ...], utf8: memoryview) -> None:
        """Append rows to the chunks, as many to each as it has room for: `columns` are the
        lengths of their ids, their tags, starts, lengths and lines; `utf8` their ids."""
        count, done, at = len(columns[0]), 0, 0
        while done < count:
            if not self._rows % CHUNK:
                self._new_chunk()
            end = min(count, done + CHUNK - self._rows % CHUNK)
            whole = done == 0 and end == count  # (as most runs are: no copy then)
            id_lengths, tags, starts, lengths, lines = columns if whole else (c[done:end] for c in columns)
            data = self._id_bytes[-1]
            _extend(self._id_ends, list(accumulate(id_lengths, initial=len(data)))[1:])
            data += utf8[at : at + sum(id_lengths)]
            at += sum(id_lengths)
            self._tags[-1].extend(tags)
            _extend(self._starts, starts)
            _extend(self._lengths, lengths)
            _extend(self._lines, lines)
            self._rows += end - done
            done = end

    def _new_chunk(self) -> None:
        self._id_bytes.append(bytearray())
        self._id_ends.append(array(self._id_ends[-1].typecode if self._id_ends else "I"))
        self._tags.append(array("q"))
        self._starts.append(array(self._starts[-1].typecode if self._starts else "I"))
        self._lengths.append(array("H"))
        self._lines.append(array("I"))

    def _cut(self, rows: int) -> None:
        """Keep only the first `rows` rows."""
        chunk, at = rows >> CHUNK_BITS, rows % CHUNK
        if at:
            del self._id_bytes[chunk][self._id_ends[chunk][at - 1] :]
        else:
            chunk, at = chunk - 1, CHUNK  # the chunk before is whole: those after it go
        del self._id_bytes[chunk + 1 :]
        for column in (self._id_ends, self._tags, self._starts, self._lengths, self._lines):
            del column[chunk + 1 :]
            if chunk >= 0:
                del column[chunk][at:]
        self._rows = rows


class DocRun:
    """Documents read one at a time, indexed a run at a time (`DocIndex.add_run`): kept back
    until RUN of them are, or until `flush`. A document without a string id, and each one of a
    run that cannot be indexed at once (an id already there, or twice in the run), goes to
    `one_by_one` instead, in the file's order, which indexes it or says why not; so whatever
    else must come in the file's order (a warning) is preceded by a `flush`."""

    def __init__(self, index: DocIndex, one_by_one: Callable[[Any, int, int, int], object]) -> None:
        self._index, self._one_by_one = index, one_by_one
        self._ids: list[str] = []
        self._starts: list[int] = []
        self._ends: list[int] = []
        self._lines: list[int] = []

    def add(self, doc_id: Any, start: int, end: int, line: int) -> None:
        """Index a document at bytes [start, end) of the file, now or with its run."""
        if type(doc_id) is not str:
            self.flush()
            self._one_by_one(doc_id, start, end, line)
            return
        self._ids.append(doc_id)
        self._starts.append(start)
        self._ends.append(end)
        self._lines.append(line)
        if len(self._ids) >= RUN:
            self.flush()

    def flush(self) -> None:
        """Index the documents kept back."""
        run = self._ids, self._starts, self._ends, self._lines
        if not run[0]:
            return
        self._ids, self._starts, self._ends, self._lines = [], [], [], []
        if not self._index.add_run(*run):
            for document in zip(*run, strict=True):
                self._one_by_one(*document)


def _utf8(doc_id: str) -> bytes:
    try:
        return doc_id.encode()
    except UnicodeEncodeError:  # a lone surrogate, kept as it is (the error handler is slower)
        return doc_id.encode(*ENCODING)


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
