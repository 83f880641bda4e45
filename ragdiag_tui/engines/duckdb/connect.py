"""One DuckDB connection per command: in memory, spilling to a temporary folder, with a
memory limit (RAGDIAG_DUCKDB_MEMORY, default 512MB) and a thread count
(RAGDIAG_DUCKDB_THREADS, default every core), and the Python functions the SQL calls:
`js_sort`, JavaScript's sort of a `missing` list, for the few lists whose order by bytes
(code points) may differ from it (UTF-16 code units), and `casefold`, Python's case
folding of a non-ASCII text for `--filter` (SQL's lower() differs from it: ß, İ)."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import duckdb

from ...core.runs.rule import js_sorted
from ..results import EngineError

MEMORY_LIMIT = "512MB"


def _js_sort(ids: list[str] | None) -> list[str] | None:
    return None if ids is None else js_sorted(ids)


def settings() -> tuple[str, int | None]:
    """(memory limit, threads or None for every core) from the environment; a variable set
    empty means unset. Raises EngineError naming a variable whose value is not usable."""
    memory = os.environ.get("RAGDIAG_DUCKDB_MEMORY", "").strip() or MEMORY_LIMIT
    if "'" in memory:
        raise EngineError(f"RAGDIAG_DUCKDB_MEMORY={memory!r}: give a size, as 512MB or 4GB")
    text = os.environ.get("RAGDIAG_DUCKDB_THREADS", "").strip()
    if not text:
        return memory, None
    threads = int(text) if text.isdecimal() else 0
    if threads < 1:
        raise EngineError(f"RAGDIAG_DUCKDB_THREADS={text!r}: give a whole number of threads (1 or more)")
    return memory, threads


@contextmanager
def connect() -> Iterator[duckdb.DuckDBPyConnection]:
    memory, threads = settings()
    spill = tempfile.mkdtemp(prefix="ragdiag-duckdb-")
    con = duckdb.connect(":memory:")
    try:
        try:
            con.execute(f"SET memory_limit = '{memory}'")
        except duckdb.Error as exc:
            raise EngineError(f"RAGDIAG_DUCKDB_MEMORY={memory!r}: {exc}") from None
        if threads is not None:
            con.execute(f"SET threads = {threads}")
        con.execute(f"SET temp_directory = '{spill}'")
        con.execute("SET preserve_insertion_order = true")
        con.create_function("js_sort", _js_sort, ["VARCHAR[]"], "VARCHAR[]", null_handling="special")
        con.create_function("casefold", str.casefold, ["VARCHAR"], "VARCHAR")
        yield con
    except duckdb.Error as exc:
        raise EngineError(f"DuckDB: {exc}") from None
    finally:
        con.close()
        shutil.rmtree(spill, ignore_errors=True)


def arrow_batches(con: duckdb.DuckDBPyConnection, query: str, rows: int = 65_536) -> Any:
    """The query's result as a stream of Arrow record batches (DuckDB 1.x and 2.x name it apart)."""
    relation = con.sql(query)
    reader = getattr(relation, "to_arrow_reader", None) or relation.fetch_record_batch
    return reader(rows)
