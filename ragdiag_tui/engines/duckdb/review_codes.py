"""The stage of every run of a dataset's SQL-readable files, kept for the app in one byte a run.

The review app asks a dataset for its counts, its most-missed documents, and a view each
time the reviewer picks one. Reading the files for each would cost a scan of the dataset
each time, so the first asks DuckDB for one scan whose rows stream by (no table is made):
each run's stage code, with a bit for a lucky answer (the files' own labels), is put in
a byte array at the run's position (ten million runs: ten megabytes, the positions
implicit), and the missing IDs of the retrieval runs are counted by pyarrow as the batches
pass. Each count, view or most-missed list is then a pass over that array or those counts,
in C (pyarrow's kernels), in milliseconds; DuckDB holds nothing between them.

A sort by stage, lucky mark or missing count (review_order.py) is a query of a DuckDB table
of each run's position, code, lucky mark and missing IDs (`__codes`): made by a scan of its
own the first time one is asked (`query`), inside DuckDB's memory limit
(RAGDIAG_DUCKDB_MEMORY), spilled to its temporary folder beyond.
"""

from __future__ import annotations

import atexit
import threading
from array import array
from contextlib import ExitStack
from typing import Any

from ...core.runs.stages import STAGE_CODE
from ..results import EngineError
from .connect import arrow_batches, connect
from .schema import literal

LUCKY = 0x80  # the bit of a lucky answer's byte (retrieval's code besides)
NOT_SQL = 0xFF  # the byte of a position SQL does not read (a file on the exact path)
STAGE_BITS = 0x7F
_CODE = (
    "CASE stage "
    + " ".join(f"WHEN {literal(name)} THEN {code}" for name, code in STAGE_CODE.items())
    + " END"
)
_STREAM = f"""
SELECT CAST(__start + line - 1 AS BIGINT) AS pos,
       CAST({_CODE} + CASE WHEN stage = 'retrieval' AND label THEN {LUCKY} ELSE 0 END AS UTINYINT) AS code,
       CASE WHEN stage = 'retrieval' THEN missing END AS missing
FROM ({{runs}}) JOIN (VALUES {{starts}}) AS __files(__f, __start) ON f = __f"""
_TABLE = f"""
CREATE TABLE __codes AS
SELECT CAST(__start + line - 1 AS BIGINT) AS pos, CAST({_CODE} AS UTINYINT) AS code,
       coalesce(stage = 'retrieval' AND label, false) AS lucky,
       CASE WHEN stage = 'retrieval' THEN missing END AS missing
FROM ({{runs}}) JOIN (VALUES {{starts}}) AS __files(__f, __start) ON f = __f"""
COUNT_EVERY = 1 << 20  # missing IDs counted together (a batch's are a few tens of thousands)
MERGE_AFTER = 8  # counts of that many such groups merged into one (bounded memory)


class StageCodes:
    """A dataset's runs' stage codes and lucky marks, a byte at each position (of `size`), and
    the retrieval runs' missing IDs counted, made on first use by one scan of `runs` (a
    `runs_sql` query) with each file's first position (`starts`: SQL VALUES of file name and
    position)."""

    def __init__(self, runs: str, starts: str, size: int) -> None:
        self._query = _STREAM.format(runs=runs, starts=starts)
        self._make = _TABLE.format(runs=runs, starts=starts)
        self._stack = ExitStack()
        self._con: Any = None  # the table's connection, once a sort asked for it
        self._missed_by_id: dict[str, int] | None = None
        self._size = size
        self._lock = threading.Lock()
        self._codes: bytearray | None = None
        self._missed: Any = None  # a pyarrow table: values (document ID), counts (runs)
        self._scanning: Any = None  # the connection while the scan runs (`close` interrupts it)
        self._closed = False

    def _made(self) -> bytearray:
        """The codes, made by the scan the first time (under the lock)."""
        if self._codes is None:
            if self._closed:
                raise EngineError("the review of the dataset has ended")
            atexit.register(self.close)  # quitting during the scan stops it
            try:
                with connect() as con:
                    self._scanning = con
                    self._codes, self._missed = _scan(con, self._query, self._size)
            finally:
                self._scanning = None
                atexit.unregister(self.close)
        return self._codes

    def counts(self) -> tuple[dict[int, int], int]:
        """(runs per stage code, invalid included; lucky answers)."""
        import pyarrow.compute as pc

        with self._lock:
            tallied = pc.value_counts(_as_arrow(self._made())).to_pylist()
        codes: dict[int, int] = {}
        lucky = 0
        for item in tallied:
            byte, runs = item["values"], item["counts"]
            if byte == NOT_SQL:
                continue
            codes[byte & STAGE_BITS] = codes.get(byte & STAGE_BITS, 0) + runs
            lucky += runs if byte & LUCKY else 0
        return codes, lucky

    def view(self, view: str) -> array[int]:
        """The positions of the runs of a stage view (a stage's name, or "lucky"), in order."""
        import pyarrow.compute as pc

        with self._lock:
            codes = _as_arrow(self._made())
        if view == "lucky":
            wanted = pc.and_(pc.greater_equal(codes, _byte(LUCKY)), pc.not_equal(codes, _byte(NOT_SQL)))
        else:
            wanted = pc.equal(pc.bit_wise_and(codes, _byte(STAGE_BITS)), _byte(STAGE_CODE[view]))
        at = pc.indices_nonzero(wanted)  # uint64: the same bytes as int64 below 2**63
        found = array("q")
        found.frombytes(memoryview(at.buffers()[1])[at.offset * 8 : (at.offset + len(at)) * 8])
        return found

    def most_missed(self, top: int) -> list[tuple[str, int]]:
        """The `top` documents most runs miss, most first (ties by id)."""
        import pyarrow.compute as pc

        with self._lock:
            self._made()
            missed = self._missed
        if missed is None or not missed.num_rows:
            return []
        order = pc.sort_indices(missed, sort_keys=[("counts", "descending"), ("values", "ascending")])
        first = missed.take(order.slice(0, int(top)))
        return list(zip(first.column("values").to_pylist(), first.column("counts").to_pylist(), strict=True))

    def missed_counts(self, docs: list[str]) -> dict[str, int]:
        """How many runs miss each of `docs` (those none misses left out)."""
        with self._lock:
            self._made()
            if self._missed_by_id is None:
                missed = self._missed
                self._missed_by_id = (
                    {}
                    if missed is None
                    else dict(
                        zip(
                            missed.column("values").to_pylist(),
                            missed.column("counts").to_pylist(),
                            strict=True,
                        )
                    )
                )
            return {doc: self._missed_by_id[doc] for doc in docs if doc in self._missed_by_id}

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

    def _table(self) -> Any:
        """The connection holding `__codes`, made by a scan the first time (under the lock)."""
        if self._con is None:
            if self._closed:
                raise EngineError("the review of the dataset has ended")
            con = self._stack.enter_context(connect())
            atexit.register(self._stack.close)  # the connection's spill folder goes with it
            con.execute(self._make)
            self._con = con
        return self._con

    def close(self) -> None:
        """Stop a scan under way (the app is quitting) and wait for it to end; none starts after."""
        self._closed = True
        con = self._scanning
        if con is not None:
            con.interrupt()
        with self._lock:
            self._con = None
            self._stack.close()


def _as_arrow(codes: bytearray) -> Any:
    import pyarrow as pa

    return pa.Array.from_buffers(pa.uint8(), len(codes), [None, pa.py_buffer(codes)])


def _byte(value: int) -> Any:
    """A pyarrow uint8 scalar, made from bytes: pyarrow converting a Python value imports
    pandas when it is installed (half a second, and its memory, for one number)."""
    return _as_arrow(bytearray([value]))[0]


def _int64(value: int) -> Any:
    import pyarrow as pa

    return pa.Array.from_buffers(pa.int64(), 1, [None, pa.py_buffer(array("q", [value]))])[0]


def _scan(con: Any, query: str, size: int) -> tuple[bytearray, Any]:
    """The codes of `query`'s runs at their positions, and its missing IDs' counts."""
    con.execute("SET preserve_insertion_order = false")  # each run's position comes with it
    codes = bytearray([NOT_SQL]) * size
    documents: list[Any] = []  # the missing IDs not yet counted
    counted: list[Any] = []  # (values, counts) pairs
    waiting = 0
    for batch in arrow_batches(con, query):
        positions, bytes_of, missing = batch.columns
        if len(positions):
            _place(codes, positions, bytes_of)
        documents.append(missing.flatten())
        waiting += len(documents[-1])
        if waiting >= COUNT_EVERY:
            counted, documents, waiting = _counted(counted, documents), [], 0
    counted = _counted(counted, documents)
    if not counted:
        return codes, None
    return codes, _table(counted[0] if len(counted) == 1 else _merged(counted))


def _counted(counted: list[Any], documents: list[Any]) -> list[Any]:
    """`counted` with the documents' counts added (merged when they grow many)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    if documents and sum(map(len, documents)):
        counted = [*counted, pc.value_counts(pa.concat_arrays(documents)).flatten()]
    return [_merged(counted)] if len(counted) > MERGE_AFTER else counted


def _place(codes: bytearray, positions: Any, bytes_of: Any) -> None:
    """Put a batch's bytes at their positions: a slice for each stretch of consecutive ones
    (a batch is a few stretches of the files' rows, in whatever order DuckDB's threads ended)."""
    import pyarrow.compute as pc

    steps = pc.not_equal(pc.pairwise_diff(positions), _int64(1))  # the first is null: not a step
    starts = [0, *pc.indices_nonzero(steps).to_pylist()]
    data = memoryview(bytes_of.buffers()[1])[bytes_of.offset : bytes_of.offset + len(bytes_of)]
    for first, end in zip(starts, [*starts[1:], len(positions)], strict=True):
        at = positions[first].as_py()
        codes[at : at + end - first] = data[first:end]


def _merged(counted: list[Any]) -> Any:
    """Several (values, counts) pairs of arrays as one, each value once with its counts' sum:
    sorted by value, each run of equal values summed (pyarrow's kernels; its group_by would
    import pandas)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    values = pa.concat_arrays([pair[0] for pair in counted])
    counts = pa.concat_arrays([pair[1] for pair in counted])
    order = pc.sort_indices(values)
    values, counts = values.take(order), counts.take(order)
    size = len(values)
    changes = pc.indices_nonzero(pc.not_equal(values.slice(1), values.slice(0, size - 1)))
    lasts = pa.concat_arrays([changes.cast(pa.int64()), _positions([size - 1])])  # each run's last
    reached = pc.cumulative_sum(counts).take(lasts)  # the counts' running sum at each run's end
    sums = pa.concat_arrays([reached.slice(0, 1), pc.pairwise_diff(reached).slice(1)])
    return [values.take(lasts), sums]


def _positions(numbers: list[int]) -> Any:
    """Python integers as a pyarrow int64 array, made from bytes (see `_byte`)."""
    import pyarrow as pa

    return pa.Array.from_buffers(pa.int64(), len(numbers), [None, pa.py_buffer(array("q", numbers))])


def _table(pair: Any) -> Any:
    import pyarrow as pa

    return pa.Table.from_arrays(pair, names=["values", "counts"])
