"""A dataset's filter in the review app (`core.analysis.source_views.SourceQuery`): the runs
of its views that contain the filter's text and pass its field terms, found as
`sample DATASET --filter` finds a population: SQL over the Parquet files it reads exactly,
the exact path (the local loader, run by run) over the rest, in dataset order.

When no document ID holds the text, as the runs' IDs tell once found (review_ids.py) or else
the files' dictionary pages (dictionary_pages.py), the lists are not read: a first scan of the
ids and questions finds the lines of the few runs that may match, and the rule is worked out
for those alone.

The text is searched where the app's text filter searches a run (`filtering.match_text`):
its id, question and required and supplied document IDs, joined and case-folded as Python
folds them (`folded_sql`). An invalid run read by SQL is searched by its id alone (the exact
path and a run file also search its line number and reason).
"""

from __future__ import annotations

import mmap
import os
import re
import string
from array import array
from collections.abc import Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from contextlib import nullcontext
from dataclasses import replace
from pathlib import Path
from typing import Any

import msgspec

from ...core.analysis.source_views import SourceQuery
from ...core.runs.mapping import FieldMap
from ...core.runs.store import error_search_text
from ..dataset import Dataset
from ..results import in_view
from .connect import arrow_batches, connect
from .dictionary_pages import may_hold
from .pyrows import PyRun
from .review_ids import DocumentIds
from .sample import folded_sql, term_sql
from .schema import Unclean, field_sql, ident, literal, plan
from .sql import fields_sql, grouped_files, runs_sql

_FILTER = """
SELECT CAST(__start + line - 1 AS BIGINT) AS pos
FROM (SELECT *, concat_ws(chr(10), rid, v{question}, array_to_string(req, chr(10)),
                          array_to_string(ctx, chr(10))) AS __hay FROM ({runs}))
JOIN (VALUES {starts}) AS __files(__f, __start) ON f = __f
WHERE ({terms}) AND (({views}) OR __start + line - 1 IN ({touched}))
ORDER BY pos"""


def fields_of(query: SourceQuery) -> tuple[str, ...]:
    """The top-level fields the query's terms read, each once."""
    return tuple(dict.fromkeys(term.field for term in query.fields))


def filter_plans(files: Sequence[Path], mapping: FieldMap | None, query: SourceQuery) -> list[Any]:
    """Each file's FieldSql for the query (its terms' fields, then the question's text), or None
    for the exact path."""
    question = (mapping or FieldMap()).source("question")
    plans = plan(files, mapping, fields_of(query), filtering=True)
    for at, (path, fields) in enumerate(zip(files, plans, strict=True)):
        if fields is None:
            continue
        try:
            text = field_sql(path, mapping, (question,)).values[0]
        except Unclean:
            plans[at] = None
            continue
        plans[at] = replace(fields, values=(*fields.values, text))
    return plans


def sql_positions(
    ds: Dataset,
    plans: Sequence[Any],
    starts: str,
    query: SourceQuery,
    ids: DocumentIds | None = None,
    mapping: FieldMap | None = None,
) -> array[int]:
    """The positions SQL finds in the files `plans` reads (`starts`: SQL VALUES of each file's
    name and first position), in order; the lists are left unread when `ids`, or else the
    files' dictionary pages, tell that no document ID holds the text."""
    groups = grouped_files(ds.files, plans)
    found = array("q")
    if not groups:
        return found
    with ids.filtering(query.text, groups) if ids is not None else nullcontext() as holds:
        if holds is None and query.text:
            holds = lists_may_hold(groups, mapping, query.text)
        return _found(ds, groups, starts, query, lists=holds is not False)


def lists_may_hold(groups: Sequence[Any], mapping: FieldMap | None, text: str) -> bool | None:
    """Whether a document ID of the runs `groups` reads may hold `text` (case-folded), told from
    the files' dictionary pages (dictionary_pages.py) by the longest run of its caseless
    characters; None when that is not known (a short run, lists not read as plain columns, a
    file whose pages do not tell)."""
    run = _sure_run(text)
    if run is None:
        return None
    names = tuple((mapping or FieldMap()).source(field) for field in ("required", "context"))
    plain = tuple(f"CAST({ident(name)} AS VARCHAR[])" for name in names)
    if any((fields.required, fields.context) != plain for fields, _files in groups):
        return None
    columns = [(path, name) for _fields, files in groups for path in files for name in names]
    pool = ThreadPoolExecutor(min(len(columns), os.cpu_count() or 1, 4), thread_name_prefix="dictionary")
    needle = run.encode()
    try:  # the pages are read and searched a column at a time, side by side
        for answer in as_completed([pool.submit(may_hold, path, name, needle) for path, name in columns]):
            if answer.result() is not False:
                return answer.result()
        return False
    finally:
        pool.shutdown(wait=False, cancel_futures=True)


def _found(ds: Dataset, groups: Sequence[Any], starts: str, query: SourceQuery, lists: bool) -> array[int]:
    found = array("q")
    fields = fields_of(query)
    prefilter = text_prefilter(query.text, f"v{len(fields)}", lists)
    lines = None if lists or prefilter is None else _narrowed(ds, groups, len(fields) + 1, prefilter)
    if lines == []:
        return found  # no run's id nor question holds the text, and no document ID does
    terms = [term_sql(term, f"v{fields.index(term.field)}") for term in query.fields]
    if query.text:
        haystack = folded_sql("CASE WHEN stage = 'invalid' THEN rid ELSE __hay END")
        terms.append(f"contains({haystack}, {literal(query.text)})")
    sql = _FILTER.format(
        question=len(fields),
        runs=runs_sql(ds, groups, len(fields) + 1, where=prefilter, lines=lines or ()),
        starts=starts,
        terms=" AND ".join(terms) or "true",
        views=" AND ".join(_view_sql(view) for view in query.views),
        touched=", ".join(str(row) for row in query.touched) or "NULL",
    )
    with connect() as con:
        for batch in arrow_batches(con, sql):
            found.extend(batch.column(0).to_pylist())
    return found


def _narrowed(ds: Dataset, groups: Sequence[Any], n_values: int, prefilter: str) -> list[int] | None:
    """The lines of the runs `prefilter` keeps, found first by a scan of the columns it names
    alone (DuckDB reads every column a query names for every row, whatever its condition), when
    they are at most NARROW_MOST (the same line of several files once); None when more are."""
    sql = f"SELECT line FROM ({fields_sql(ds, groups, n_values)}) WHERE {prefilter} LIMIT {NARROW_MOST + 1}"
    with connect() as con:
        lines = sorted({line for (line,) in con.execute(sql).fetchall()})
    return lines if len(lines) <= NARROW_MOST else None


NARROW_MOST = 1024  # lines of runs a text may be found in for the files to be read again at those alone
CASELESS = frozenset(string.digits + string.punctuation + " ")
"""The characters no other character case-folds to, nor they to another (checked over every
code point): a text that case-folds to one holding them holds them as they are."""
SURE_RUN = 3  # a run of caseless characters this long is rare enough to look for first


def text_prefilter(text: str, question: str, lists: bool = True) -> str | None:
    """A condition on the columns read (the run's id in the dataset, the `question` column, the
    document IDs) that holds for every run whose searched text, case-folded, contains `text`
    (case-folded), and for few others; None when there is none to gain. DuckDB tests it right
    after the scan, so the rule is worked out for the runs it keeps, not for every run.

    Each part of the searched text (each document ID of the lists) is tested alone (they are
    joined by line breaks, which no text typed in the filter holds): by the longest run of
    `text`'s caseless characters as it is, or else by SQL's lower(), which folds ASCII as
    Python does (any other part is kept). Without `lists` (no document ID holds the text),
    only the id and the question are tested."""
    if not text or "\n" in text:
        return None
    run = _sure_run(text)
    if run is not None:
        test = f"contains({{part}}, {literal(run)})"
    else:
        test = f"(contains(lower({{part}}), {literal(text)}) OR strlen({{part}}) <> length({{part}}))"
    tests = [test.format(part=part) for part in ("rid", question)]
    tests += [
        f"len(list_filter({ids}, lambda __id: {test.format(part='__id')})) > 0"
        for ids in (("req", "ctx") if lists else ())
    ]
    return " OR ".join(f"coalesce({test}, false)" for test in tests)


def _sure_run(text: str) -> str | None:
    """The longest run of `text`'s caseless characters when it is long enough to look for as it
    is (SURE_RUN, or the whole text): whatever case-folds to a text holding `text` holds it."""
    run = max(re.findall(f"[{re.escape(''.join(sorted(CASELESS)))}]+", text) or [""], key=len)
    return run if run and len(run) >= min(SURE_RUN, len(text)) else None


def _view_sql(view: str) -> str:
    if view == "all":
        return "true"
    if view == "unreviewed":
        return "stage <> 'invalid'"
    if view == "lucky":
        return "coalesce(stage = 'retrieval' AND label, false)"
    return f"stage = {literal(view)}"


def exact_positions(runs: Iterable[PyRun], first: int, query: SourceQuery, found: array[int]) -> None:
    """The positions of the runs of one file (read with `fields_of(query)`, filtering) that the
    query finds, its first run at position `first`, added to `found`."""
    touched = set(query.touched)
    matchers = [(term.field, term.matcher()) for term in query.fields]
    for index, run in enumerate(runs):
        row = first + index
        if run.error is not None:
            stage, text = "invalid", error_search_text(run.error)
        else:
            stage = run.stage or ""
            text = "\n".join((run.id or "", run.question or "", *(run.required or ()), *(run.context or ())))
        in_views = all(
            stage != "invalid" if view == "unreviewed" else in_view(view, stage, run.label)
            for view in query.views
        )
        if not (in_views or row in touched):
            continue
        if all(match(run.values.get(name)) for name, match in matchers) and query.text in text.casefold():
            found.append(row)


def file_has_field(path: Path, fmt: str, name: str) -> bool:
    """Whether `"name":` occurs in a JSON Lines file (as the app asks of a run file's text), or
    `name` is a column of a Parquet file."""
    if fmt == "parquet":
        import pyarrow.parquet as pq

        try:
            return name in pq.read_schema(path).names
        except Exception:  # an unreadable file has no fields
            return False
    key = re.compile(re.escape(msgspec.json.encode(name)) + rb"\s*:")
    with open(path, "rb") as handle:
        if not path.stat().st_size:
            return False
        with mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ) as data:
            return key.search(data) is not None
