"""Where the runs a review names are in a dataset's SQL-readable files (`RowSource.positions`).

The app asks for the position of a run by its dataset id each time a journal entry names a run
it has not placed yet: at the start for the whole journal, then for each label it writes
itself (its own entry, read back by the live poll on the main thread). A scan of every run
joined to the wanted ids took seconds at ten million runs, the screen frozen meanwhile. A run's
own id is asked as `id IN (...)`, a filter DuckDB pushes into its Parquet reader (row groups
whose id statistics cannot hold one are skipped, the rule worked out for the rows found); an id
made of a file's name and row (`FILE:LINE`, a run without an id of its own) names its place, so
that row alone is read and checked by the caller (`named_places`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from ...core.runs.row_source import RowWindow
from ..dataset import Dataset
from .connect import connect
from .schema import literal
from .sql import grouped_files, runs_sql

NAMED_PLACES = 64  # more ids of the FILE:LINE form than this: one scan finds them instead
LISTED = 1000  # more ids than this are joined to the runs, not listed in the query
_FOUND = "SELECT f, min(line), rid FROM ({runs}) WHERE stage <> 'invalid' GROUP BY f, rid"
_JOINED = """
SELECT f, min(line), rid FROM ({runs}) JOIN __wanted ON rid = __wanted.id
WHERE stage <> 'invalid' GROUP BY f, rid"""


def positions_found(
    ds: Dataset,
    groups: Sequence[tuple[Any, Sequence[Path]]],
    wanted: Sequence[str],
    starts: Mapping[str, int],
) -> dict[str, int]:
    """The first valid position of each run of `groups`' files whose own id is one of `wanted`
    (any id, when there are many: then joined by its dataset id, a scan of every run); `starts`:
    each file's first position by name."""
    if len(wanted) > LISTED:
        return _found(ds, groups, "true", starts, wanted)
    return _found(ds, groups, f"fid IN ({', '.join(literal(run_id) for run_id in wanted)})", starts)


def _found(
    ds: Dataset,
    groups: Sequence[tuple[Any, Sequence[Path]]],
    where: str,
    starts: Mapping[str, int],
    joined: Sequence[str] | None = None,
) -> dict[str, int]:
    found: dict[str, int] = {}
    query = _FOUND if joined is None else _JOINED
    with connect() as con:
        if joined is not None:
            import pyarrow as pa

            con.register("__wanted", pa.table({"id": list(joined)}))
        for name, line, run_id in con.execute(
            query.format(runs=runs_sql(ds, groups, 0, where=where))
        ).fetchall():
            at = starts[name] + line - 1
            if run_id not in found or at < found[run_id]:
                found[run_id] = at
    return found


def placed_by_sql(
    ds: Dataset,
    groups: Sequence[tuple[Any, Sequence[Path]]],
    places: Sequence[str],
    starts: Mapping[str, int],
) -> dict[str, int]:
    """The first valid position of each run without an id of its own named one of `places`."""
    return _found(
        ds, groups, f"fid IS NULL AND rid IN ({', '.join(literal(run_id) for run_id in places)})", starts
    )


def named_places(wanted: Sequence[str], files: Mapping[str, tuple[int, int]]) -> dict[str, int]:
    """The position each id of the form FILE:LINE names, for `files` (name: first position,
    rows) holding such a row; the caller checks that the run there is valid and so named."""
    places: dict[str, int] = {}
    for run_id in wanted:
        name, colon, line = run_id.rpartition(":")
        if colon and line.isdecimal() and line.isascii() and name in files:
            first, rows = files[name]
            if 1 <= int(line) <= rows:
                places[run_id] = first + int(line) - 1
    return places


def sql_positions_of(
    ds: Dataset,
    plans: Sequence[Any],
    starts: Sequence[int],
    wanted: Sequence[str],
    window: Callable[[int, int], RowWindow],
) -> dict[str, int]:
    """The first valid position of each of `wanted` in the files `plans` reads by SQL (`starts`:
    each file's first position, then the end; `window(start, stop)` reads rows): by their own
    ids, then by their places (FILE:LINE), each row named read and checked (valid, and so
    named: it has no id of its own), or many of them found by one scan."""
    groups = grouped_files(ds.files, plans)
    if not groups:
        return {}
    sql_files = [at for at, sql_plan in enumerate(plans) if sql_plan is not None]
    names = {at: ds.relative(ds.files[at]) for at in sql_files}
    firsts = {names[at]: starts[at] for at in sql_files}
    found = positions_found(ds, groups, wanted, firsts)
    if len(wanted) > LISTED:  # the join found the runs named FILE:LINE too
        return found
    places = named_places(wanted, {names[at]: (starts[at], starts[at + 1] - starts[at]) for at in sql_files})
    if len(places) > NAMED_PLACES:
        placed = placed_by_sql(ds, groups, list(places), firsts)
    else:
        placed = {}
        for run_id, at in places.items():
            rows = window(at, at + 1)
            if at not in rows.errors and rows.ids[0] == run_id:
                placed[run_id] = at
    for run_id, at in placed.items():
        if run_id not in found or at < found[run_id]:
            found[run_id] = at
    return found
