"""The stage of every run of a dataset's SQL-readable files, kept in DuckDB for the app.

The review app asks a dataset for its counts, its most-missed documents, and a view each
time the reviewer picks one. Reading the files for each would cost a scan of the dataset
each time, so the first asks DuckDB for one scan that keeps, per run, only its position,
its stage's code, whether it is a lucky answer (the files' own labels) and, for a run
missing documents, their IDs: ten million runs make a table of about a hundred
megabytes, inside DuckDB's memory limit (RAGDIAG_DUCKDB_MEMORY), spilled to its
temporary folder beyond. Each count, view or most-missed list is then a query of it.
"""

from __future__ import annotations

import atexit
import threading
from array import array
from contextlib import ExitStack
from typing import Any

from ...core.runs.stages import STAGE_CODE
from .connect import arrow_batches, connect
from .schema import literal

_CODE = (
    "CASE stage "
    + " ".join(f"WHEN {literal(name)} THEN {code}" for name, code in STAGE_CODE.items())
    + " END"
)
_CODES = f"""
CREATE TABLE __codes AS
SELECT CAST(__start + line - 1 AS BIGINT) AS pos, CAST({_CODE} AS UTINYINT) AS code,
       coalesce(stage = 'retrieval' AND label, false) AS lucky,
       CASE WHEN stage = 'retrieval' THEN missing END AS missing
FROM ({{runs}}) JOIN (VALUES {{starts}}) AS __files(__f, __start) ON f = __f"""
_COUNTS = "SELECT code, lucky, count(*) FROM __codes GROUP BY ALL"
_VIEW = "SELECT pos FROM __codes WHERE {view} ORDER BY pos"
_MISSED = """
SELECT doc, count(*) AS runs FROM (SELECT unnest(missing) AS doc FROM __codes WHERE missing IS NOT NULL)
GROUP BY doc ORDER BY runs DESC, doc LIMIT {top}"""
_COUNTED = """
SELECT doc, count(*) FROM (SELECT unnest(missing) AS doc FROM __codes WHERE missing IS NOT NULL)
WHERE doc IN (SELECT unnest(?::VARCHAR[])) GROUP BY doc"""


class StageCodes:
    """A dataset's runs' positions, stage codes, lucky marks and missing IDs in a DuckDB table
    of its own connection, made on first use by one scan of `runs` (a `runs_sql` query) with
    each file's first position (`starts`: SQL VALUES of file name and position)."""

    def __init__(self, runs: str, starts: str) -> None:
        self._make = _CODES.format(runs=runs, starts=starts)
        self._lock = threading.Lock()
        self._stack = ExitStack()
        self._con: Any = None

    def _table(self) -> Any:
        if self._con is None:
            con = self._stack.enter_context(connect())
            atexit.register(self.close)  # the connection's spill folder goes with it
            con.execute(self._make)
            self._con = con
        return self._con

    def counts(self) -> tuple[dict[int, int], int]:
        """(runs per stage code, invalid included; lucky answers)."""
        codes: dict[int, int] = {}
        lucky = 0
        with self._lock:
            for code, is_lucky, runs in self._table().execute(_COUNTS).fetchall():
                codes[code] = codes.get(code, 0) + runs
                lucky += runs if is_lucky else 0
        return codes, lucky

    def view(self, view: str) -> array[int]:
        """The positions of the runs of a stage view (a stage's name, or "lucky"), in order."""
        condition = "lucky" if view == "lucky" else f"code = {STAGE_CODE[view]}"
        found = array("q")
        with self._lock:
            for batch in arrow_batches(self._table(), _VIEW.format(view=condition)):
                column = batch.column(0)
                data = memoryview(column.buffers()[1])  # int64, no nulls: the positions' bytes
                found.frombytes(data[column.offset * 8 : (column.offset + len(column)) * 8])
        return found

    def most_missed(self, top: int) -> list[tuple[str, int]]:
        """The `top` documents most runs miss, most first (ties by id)."""
        with self._lock:
            return [
                (doc, runs) for doc, runs in self._table().execute(_MISSED.format(top=int(top))).fetchall()
            ]

    def missed_counts(self, docs: list[str]) -> dict[str, int]:
        """How many runs miss each of `docs` (those none misses left out)."""
        with self._lock:
            return dict(self._table().execute(_COUNTED, [docs]).fetchall())

    def query(self, sql: str, tables: dict[str, Any]) -> Any:
        """A query of the kept table (`__codes`) as an Arrow table, `tables` (Arrow) registered
        under their names for it."""
        with self._lock:
            con = self._table()
            for name, table in tables.items():
                con.register(name, table)
            try:
                return arrow_batches(con, sql).read_all()
            finally:
                for name in tables:
                    con.unregister(name)

    def close(self) -> None:
        with self._lock:
            self._con = None
            self._stack.close()
