"""The stage of every run of a dataset's SQL-readable files, kept in DuckDB for the app.

The review app asks a dataset for its counts once and for a view each time the reviewer
picks one. Reading the files for each would cost a scan of the dataset each time, so the
first asks DuckDB for one scan that keeps, per run, only its position, its stage and
whether it is a lucky answer (the files' own labels): a table of ten million such rows is
a hundred megabytes or so, inside DuckDB's memory limit (RAGDIAG_DUCKDB_MEMORY), spilled
to its temporary folder beyond. Each count or view is then a query of that table.
"""

from __future__ import annotations

import atexit
import threading
from array import array
from collections import Counter
from contextlib import ExitStack
from typing import Any

from .connect import arrow_batches, connect

_CODES = """
CREATE TABLE __codes AS
SELECT __start + line - 1 AS pos, stage, coalesce(stage = 'retrieval' AND label, false) AS lucky
FROM ({runs}) JOIN (VALUES {starts}) AS __files(__f, __start) ON f = __f"""
_COUNTS = "SELECT stage, lucky, count(*) FROM __codes GROUP BY ALL"
_VIEW = "SELECT pos FROM __codes WHERE {view} ORDER BY pos"


class StageCodes:
    """A dataset's runs' positions, stages and lucky marks in a DuckDB table of its own
    connection, made on first use by one scan of `runs` (a `runs_sql` query) with each
    file's first position (`starts`: SQL VALUES of file name and position)."""

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

    def counts(self) -> tuple[Counter[str], int]:
        """(runs per stage name, invalid included; lucky answers)."""
        stages: Counter[str] = Counter()
        lucky = 0
        with self._lock:
            for stage, is_lucky, runs in self._table().execute(_COUNTS).fetchall():
                stages[stage] += runs
                lucky += runs if is_lucky else 0
        return stages, lucky

    def view(self, condition: str) -> array[int]:
        """The positions of the runs meeting `condition` (over stage and lucky), in order."""
        found = array("q")
        with self._lock:
            for batch in arrow_batches(self._table(), _VIEW.format(view=condition)):
                column = batch.column(0)
                data = memoryview(column.buffers()[1])  # int64, no nulls: the positions' bytes
                found.frombytes(data[column.offset * 8 : (column.offset + len(column)) * 8])
        return found

    def close(self) -> None:
        with self._lock:
            self._con = None
            self._stack.close()
