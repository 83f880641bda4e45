"""A Parquet list column's dictionary pages, read to tell that no value holds a text
(dictionary_pages.py): never False where a value holds it, whatever the writer's codec and page
version; None wherever a value may be outside the dictionary (pages written plain, a dictionary
that overflowed, no dictionary at all)."""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ragdiag_tui.engines.duckdb.dictionary_pages import dictionary_pages, may_hold

IDS = pa.list_(pa.string())


def write(path: Path, lists: list[list[str | None] | None], **options) -> Path:
    table = pa.table({"id": [f"run-{at}" for at in range(len(lists))], "required": pa.array(lists, IDS)})
    pq.write_table(table, path, **{"row_group_size": 3, **options})
    return path


LISTS = [["doc-1", "doc-2"], None, [], ["HR-Policy-014"], ["doc-1", None], ["x" * 300, "Straße-7"]]


@pytest.mark.parametrize("compression", ["snappy", "zstd", "gzip", "brotli", "none"])
@pytest.mark.parametrize("version", ["1.0", "2.0"])
def test_the_dictionary_pages_hold_every_value_and_tell_what_none_holds(
    tmp_path: Path, compression: str, version: str
) -> None:
    path = write(tmp_path / "a.parquet", LISTS, compression=compression, data_page_version=version)
    for held in [b"doc-1", b"-014", b"\xc3\x9fe-7", b"x" * 300, b"-2"]:
        assert may_hold(path, "required", held) is True, held
    for absent in [b"run-1", b"-015", b"doc-3", b"x" * 301]:
        assert may_hold(path, "required", absent) is False, absent
    assert b"".join(dictionary_pages(path, "required")).count(b"doc-1") == 2  # one page a row group


def test_what_the_pages_do_not_hold_for_sure_is_not_known(tmp_path: Path) -> None:
    assert (
        may_hold(write(tmp_path / "plain.parquet", LISTS, use_dictionary=False), "required", b"-015") is None
    )
    many = [[f"doc-{at}-{'y' * 40}"] for at in range(3000)]  # the dictionary overflows: pages written plain
    overflowed = write(tmp_path / "big.parquet", many, row_group_size=3000, dictionary_pagesize_limit=1024)
    assert may_hold(overflowed, "required", b"-2999-") is None
    assert may_hold(overflowed, "missing", b"-015") is None  # no such column
    (tmp_path / "bad.parquet").write_bytes(b"PAR1 not parquet PAR1")
    assert may_hold(tmp_path / "bad.parquet", "required", b"-015") is None
    empty = write(tmp_path / "empty.parquet", [None, []])
    assert may_hold(empty, "required", b"-015") is False  # no value at all


VALUES = st.lists(st.text(alphabet="ab-0é\u00df ", min_size=0, max_size=6), max_size=4)


@settings(
    max_examples=80,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(
    lists=st.lists(VALUES, min_size=1, max_size=8),
    needle=st.text(alphabet="ab-0 ", min_size=1, max_size=3),
    version=st.sampled_from(["1.0", "2.0"]),
)
def test_never_false_where_a_value_holds_the_needle(
    tmp_path: Path, lists: list[list[str]], needle: str, version: str
) -> None:
    path = write(tmp_path / "h.parquet", lists, data_page_version=version)
    held = any(needle in value for values in lists for value in values)
    answer = may_hold(path, "required", needle.encode())
    assert answer is not None
    assert answer or not held


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(at=st.integers(0, 40), junk=st.binary(min_size=1, max_size=24))
def test_a_page_header_written_wrong_is_never_an_error_nor_a_hang(
    tmp_path: Path, at: int, junk: bytes
) -> None:
    """Hostile bytes over the first dictionary page's header (and what follows): an answer or
    None, at once; never an exception, nor a loop over a length the bytes claim."""
    path = write(tmp_path / "j.parquet", LISTS)
    offset = pq.ParquetFile(path).metadata.row_group(0).column(1).dictionary_page_offset
    data = bytearray(path.read_bytes())
    data[offset + at : offset + at + len(junk)] = junk
    path.write_bytes(bytes(data))
    assert may_hold(path, "required", b"-015") in (True, False, None)
