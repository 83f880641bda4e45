"""Every document ID a dataset's SQL-read runs name, kept so that a text filter can leave the
runs' lists unread when no ID holds its text.

The app's text filter searches a run's id, question and document IDs (review_filter.py), and
the lists are most of what it reads: over ten million runs, about two thirds of its time. A
text typed in the filter is most often a run's id or a word of a question, which no document
ID holds. So once the counts are in, the app asks DuckDB, in the background, for the distinct
IDs of the required and context lists (`DocumentIds.build`), and a filter then tests its text
against them: when none holds it (case-folded, as the filter folds), the filter reads the
runs' ids and questions only. They are kept only up to `CAP` IDs (beyond, the lists are read
as before) and only while the files read are unchanged (`text_cache.fingerprint`: device,
inode, size and modification time). A filter asked before they are found asks the files'
dictionary pages instead (or reads the lists), and goes first: the search under way is stopped,
and begun again once the filter is done (both would read the same files). The search is
background work: it runs on one of DuckDB's threads, leaving a core to the app.
"""

from __future__ import annotations

import atexit
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from ...core.runs.text_cache import fingerprint
from .connect import arrow_batches, connect
from .schema import FieldSql

CAP = 2_000_000  # IDs kept at most (tens of megabytes); a dataset naming more is searched as before
_IDS = """
SELECT DISTINCT __id FROM (
  SELECT unnest(req) AS __id FROM ({runs})
  UNION ALL
  SELECT unnest(ctx) AS __id FROM ({runs})
) WHERE __id IS NOT NULL LIMIT {limit}"""


def _as_read(fields: FieldSql, path: Path) -> tuple[Any, ...]:
    """How a file's lists are read: their SQL, and the file as it is now."""
    return fields.required, fields.context, fingerprint(str(path))


class DocumentIds:
    """The distinct document IDs of the runs of some files, once `build` has found them."""

    def __init__(self) -> None:
        self._turn = threading.Condition()  # a filter goes first: the search waits for it to end
        self._filters = 0  # filters reading the files now
        self._begun = False
        self._done = False
        self._read: dict[Path, tuple[Any, ...]] = {}  # each file: its lists' SQL and fingerprint (`_as_read`)
        self._ascii: Any = None  # the ASCII IDs, lower-cased (which folds them as casefold does)
        self._others: list[str] = []  # the other IDs, case-folded
        self._scanning: Any = None  # the search's connection while it runs
        self._stopped = False  # a filter stopped the search: it begins again after the filter
        self._closed = False

    def build(self, runs: str, groups: Sequence[tuple[FieldSql, Sequence[Path]]]) -> None:
        """Find the IDs of `runs` (the rows `sql.fields_sql` reads of `groups`), once; stopped by
        each filter that starts meanwhile and begun again once no filter reads the files."""
        with self._turn:
            if self._begun or self._closed:
                return
            self._begun = True
            for fields, files in groups:
                self._read.update({path: _as_read(fields, path) for path in files})
        atexit.register(self.close)  # quitting during the search stops it
        try:
            while not self._search(runs):
                pass
        finally:
            atexit.unregister(self.close)

    def _search(self, runs: str) -> bool:
        """One search for the IDs; False when a filter stopped it (to be begun again)."""
        try:
            with connect() as con:
                con.execute("SET threads = 1")  # background work: a core stays the app's
                with self._turn:
                    self._turn.wait_for(lambda: not self._filters or self._closed)
                    if self._closed:
                        return True
                    self._scanning, self._stopped = con, False
                    self._turn.notify_all()
                table = arrow_batches(con, _IDS.format(runs=runs, limit=CAP + 1)).read_all()
            with self._turn:
                self._scanning = None
                if table.num_rows <= CAP:
                    self._keep(table.column(0))
                self._done = True
        except Exception:  # stopped by a filter, or failed: without the IDs, the lists are read
            with self._turn:
                self._scanning = None
                if self._stopped and not self._closed:
                    return False
                self._done = True
        return True

    def _keep(self, ids: Any) -> None:
        import pyarrow.compute as pc

        ids = ids.combine_chunks()
        plain = pc.string_is_ascii(ids)
        self._others = [text.casefold() for text in ids.filter(pc.invert(plain)).to_pylist()]
        self._ascii = pc.utf8_lower(ids.filter(plain))

    @contextmanager
    def filtering(
        self, text: str, groups: Sequence[tuple[FieldSql, Sequence[Path]]]
    ) -> Iterator[bool | None]:
        """For the time a filter of `text` (case-folded already) reads the runs of `groups`:
        whether some ID of theirs holds the text once case-folded, None when that is not known
        (not found yet, too many, other files or lists, a file changed since). A search under
        way is stopped meanwhile (it reads the lists the filter reads) and begun again after."""
        with self._turn:
            self._filters += 1
            if self._scanning is not None:
                self._stopped = True
                self._scanning.interrupt()
            known = self._done
        try:
            yield self._holds(text, groups) if known and text else None
        finally:
            with self._turn:
                self._filters -= 1
                self._turn.notify_all()

    def _holds(self, text: str, groups: Sequence[tuple[FieldSql, Sequence[Path]]]) -> bool | None:
        import pyarrow.compute as pc

        if self._ascii is None:
            return None
        for fields, files in groups:
            for path in files:
                if self._read.get(path) != _as_read(fields, path):
                    return None
        if text.isascii() and pc.any(pc.match_substring(self._ascii, text)).as_py():
            return True
        return any(text in other for other in self._others)

    def close(self) -> None:
        """Stop a search under way (the app is quitting); none starts after."""
        with self._turn:
            self._closed = True
            if self._scanning is not None:
                self._scanning.interrupt()
            self._turn.notify_all()
