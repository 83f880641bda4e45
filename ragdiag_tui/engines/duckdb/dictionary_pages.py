"""Whether any document ID of a Parquet file's list column may hold some bytes, told from the
column's dictionary pages alone.

A Parquet writer (pyarrow, Spark, DuckDB) stores a string column as each row group's distinct
values (its dictionary page) and, per row, an index into them. When every data page of every
row group of the column is so encoded, the dictionary pages hold every value of the column: a
text none of them holds is in no row, and the text filter can leave the lists unread
(review_filter.py). Reading those pages costs a fraction of reading the lists (ten million
runs: some 170 MB of IDs, read and searched in under half a second, against the lists' whole
scan). Anything this module does not know for sure (a page written plain, a codec it has not,
a header it cannot read) answers None: the lists are then read as before.

The page headers are Thrift's compact protocol (parquet.thrift: PageHeader, DataPageHeader,
DataPageHeaderV2, DictionaryPageHeader); only their integer fields are read.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any, BinaryIO

DICTIONARY_PAGE, DATA_PAGE, DATA_PAGE_V2 = 2, 0, 3
PLAIN, PLAIN_DICTIONARY, RLE_DICTIONARY = 0, 2, 8
CODECS = {"UNCOMPRESSED": None, "SNAPPY": "snappy", "GZIP": "gzip", "BROTLI": "brotli", "ZSTD": "zstd",
          "LZ4_RAW": "lz4_raw"}  # fmt: skip


LARGEST_PAGE = 256 << 20  # a dictionary page larger than this (writers cap them at a megabyte) is not read


class Unknown(Exception):
    """The pages do not tell for sure."""


def may_hold(path: Path, column: str, needle: bytes) -> bool | None:
    """Whether a value of the list column `column` (a top-level list of strings) of the Parquet
    file at `path` may hold `needle`: False only when its dictionary pages hold every value and
    none of them holds it; None when that is not known."""
    try:
        return any(needle in page for page in dictionary_pages(path, column))
    except Exception:  # Unknown, or a file it cannot read: the lists are read
        return None


def dictionary_pages(path: Path, column: str) -> Iterator[bytes]:
    """Each row group's dictionary page of the list column `column`, decompressed; raises Unknown
    where a row group's values are not all in it."""
    import pyarrow.parquet as pq

    metadata = pq.ParquetFile(path).metadata
    leaves = [
        at for at in range(metadata.num_columns) if metadata.schema.column(at).path.split(".")[0] == column
    ]
    if len(leaves) != 1:
        raise Unknown(f"{column}: not one leaf")
    with open(path, "rb") as handle:
        for group in range(metadata.num_row_groups):
            chunk = metadata.row_group(group).column(leaves[0])
            if chunk.num_values == 0:
                continue
            yield _chunk_dictionary(handle, chunk)


def _chunk_dictionary(handle: BinaryIO, chunk: Any) -> bytes:
    """The chunk's dictionary page, decompressed, once each of its data pages is known to index
    it (none written plain)."""
    import pyarrow as pa

    if chunk.compression not in CODECS or not chunk.has_dictionary_page or not chunk.dictionary_page_offset:
        raise Unknown("no dictionary page, or an unknown codec")
    codec = CODECS[chunk.compression]
    start = chunk.dictionary_page_offset
    end = start + chunk.total_compressed_size
    header, at = _header(handle, start)
    dictionary = header.get(7)
    if header.get(1) != DICTIONARY_PAGE or not isinstance(dictionary, dict):
        raise Unknown("the first page is not a dictionary")
    if dictionary.get(2) not in (PLAIN, PLAIN_DICTIONARY):
        raise Unknown("a dictionary not written plain")
    if not 0 <= header[3] <= chunk.total_compressed_size or not 0 <= header[2] <= LARGEST_PAGE:
        raise Unknown("a dictionary page of an unlikely size")
    handle.seek(at)
    page = handle.read(header[3])
    if codec is not None:
        page = pa.decompress(page, decompressed_size=header[2], codec=codec).to_pybytes()
    at += header[3]
    while at < end:  # every data page must index the dictionary
        header, body = _header(handle, at)
        kind = header.get(1)
        if kind in (DATA_PAGE, DATA_PAGE_V2):
            page_header = header.get(5 if kind == DATA_PAGE else 8)
            encoding = (
                page_header.get(2 if kind == DATA_PAGE else 4) if isinstance(page_header, dict) else None
            )
            if encoding not in (PLAIN_DICTIONARY, RLE_DICTIONARY):
                raise Unknown("a data page written without the dictionary")
        elif kind == DICTIONARY_PAGE:
            raise Unknown("a second dictionary page")
        if header[3] < 0:
            raise Unknown("a page of a negative size")
        at = body + header[3]
    if at != end:
        raise Unknown("the pages do not end where the chunk does")
    return page


def _header(handle: BinaryIO, offset: int) -> tuple[dict[int, Any], int]:
    """The page header at `offset` (its integer fields and structs, by field id) and where its
    page's bytes begin."""
    for size in (1024, 1 << 20):
        handle.seek(offset)
        data = handle.read(size)
        try:
            fields, end = _struct(data, 0)
        except IndexError:  # longer than read (its page's statistics)
            continue
        if not all(isinstance(fields.get(key), int) for key in (1, 2, 3)):
            raise Unknown("a page header without its type and sizes")
        return fields, offset + end
    raise Unknown("a page header over a megabyte")


def _varint(data: bytes, at: int) -> tuple[int, int]:
    value = shift = 0
    while True:
        byte = data[at]
        at += 1
        value |= (byte & 0x7F) << shift
        if not byte & 0x80:
            return value, at
        shift += 7


def _zigzag(value: int) -> int:
    return (value >> 1) ^ -(value & 1)


def _struct(data: bytes, at: int) -> tuple[dict[int, Any], int]:
    """A compact-protocol struct: its integer and struct fields by id (others skipped)."""
    fields: dict[int, Any] = {}
    field = 0
    while True:
        head = data[at]
        at += 1
        if head == 0:
            return fields, at
        kind, delta = head & 0x0F, head >> 4
        if delta:
            field += delta
        else:
            raw, at = _varint(data, at)
            field = _zigzag(raw)
        if kind in (4, 5, 6):  # i16, i32, i64
            raw, at = _varint(data, at)
            fields[field] = _zigzag(raw)
        elif kind == 12:
            fields[field], at = _struct(data, at)
        else:
            at = _skip(data, at, kind)


def _skip(data: bytes, at: int, kind: int) -> int:
    """Past a value of compact type `kind`."""
    if kind in (1, 2):  # a boolean field: its value is in the type
        return at
    if kind == 3:
        return at + 1
    if kind in (4, 5, 6):
        return _varint(data, at)[1]
    if kind == 7:
        return at + 8
    if kind == 8:
        size, at = _varint(data, at)
        return at + size
    if kind in (9, 10):
        head = data[at]
        at += 1
        size, item = head >> 4, head & 0x0F
        if size == 15:
            size, at = _varint(data, at)
        if size > len(data) - at:  # each item takes a byte at least
            raise Unknown("a list longer than its header")
        for _ in range(size):
            at = _item(data, at, item)
        return at
    if kind == 11:
        size, at = _varint(data, at)
        if size > len(data) - at:
            raise Unknown("a map longer than its header")
        if size:
            pair = data[at]
            at += 1
            for _ in range(size):
                at = _item(data, _item(data, at, pair >> 4), pair & 0x0F)
        return at
    if kind == 12:
        return _struct(data, at)[1]
    raise Unknown(f"compact type {kind}")


def _item(data: bytes, at: int, kind: int) -> int:
    """Past an item of a list, set or map (a boolean one is a byte there)."""
    return at + 1 if kind in (1, 2) else _skip(data, at, kind)
