"""Loading a big JSON Lines file on two cores.

Python runs one thread at a time, so reading a million runs is bound to one core.
On a big JSON Lines file this process reads the first part into the store while
a helper process reads the rest into a store of its own, which it packs and sends
back to be appended. The result is the same store a single pass would build (a
test holds the two to identical rows). Two things only the whole file knows are
settled when the parts are joined: the names of runs without an id (their position
in the file) and ids that repeat across the parts. If the helper fails for any
reason, this process reads its part itself.
"""

from __future__ import annotations

import multiprocessing
import os
from array import array
from bisect import bisect_left
from collections.abc import Callable
from typing import Any

from .loading import INVALID_RUN, Progress, _Builder, json_lines_head, read_lines_range
from .loading import read_runs as _read_runs
from .mapping import FieldMap
from .rule import InvalidRun
from .store import L_NONE, S_INVALID, RunStore, error_search_text

MIN_BYTES = 48 << 20  # below this a helper process costs more than it saves
SHARE = 0.5  # of the file for this process; the helper also pays for starting up and packing
PROVISIONAL = "\x00#"  # prefix of the helper's names for unnamed runs, until their position is known
_SEPARATOR = "\x00"

Announce = Callable[[int], bool]
"""Called with the number of rows in the store now and then; False stops the loading."""


def split_point(path: str, field_map: FieldMap | None = None, min_bytes: int = MIN_BYTES) -> int | None:
    """A line start near the middle of a big JSON Lines file, or None to read it in one pass."""
    size = os.path.getsize(path)
    if size < min_bytes or (os.cpu_count() or 1) < 2:
        return None
    head_end = json_lines_head(path, field_map)
    if head_end is None:
        return None
    aim = max(int(size * SHARE), head_end)
    with open(path, "rb") as handle:
        handle.seek(aim)
        window = handle.read(1 << 20)
    cut = window.find(b"\n")
    if cut < 0 or aim + cut + 1 >= size:
        return None
    return aim + cut + 1


def load(
    store: RunStore,
    progress: Progress | None = None,
    announce: Announce | None = None,
    min_bytes: int = MIN_BYTES,
) -> None:
    """Fill `store` from its file: in two processes when it pays, else in one pass."""
    split = split_point(store.path, store.field_map, min_bytes)
    if split is None:
        store.extend(_read_runs(store.path, progress, store.field_map), announce)
        return
    size = os.path.getsize(store.path)
    context = multiprocessing.get_context("spawn")
    receiver, sender = context.Pipe(duplex=False)
    helper = context.Process(
        target=_helper_main, args=(store.path, split, size, store.field_map, sender), daemon=True
    )
    try:
        helper.start()
    except (OSError, RuntimeError):  # no processes here, or an unguarded __main__
        store.extend(_read_runs(store.path, progress, store.field_map), announce)
        return
    finally:
        sender.close()
    builder = _Builder(store.field_map)

    def first_part_progress(done: int, total: int) -> None:
        if progress is not None:  # this part is about half of the work
            progress(min(done, split) * size // split // 2, size)

    try:
        complete = store.extend(
            _read_runs(store.path, first_part_progress, store.field_map, builder=builder, stop_at=split),
            announce,
        )
        packed = receiver.recv() if complete else None
    except (EOFError, OSError):
        packed = None
    finally:
        receiver.close()
        helper.join(timeout=5)
        if helper.is_alive():
            helper.kill()
    if not complete:
        return
    if packed is None or packed[0] != "ok":
        # The helper failed: read its part here, as a single pass would have.
        store.extend(read_lines_range(store.path, split, size, builder), announce)
    else:
        _append(store, builder, packed[1])
    if progress is not None:
        progress(size, size)
    if announce is not None:
        announce(len(store))


def _helper_main(path: str, start: int, end: int, field_map: FieldMap | None, sender: Any) -> None:
    """In the helper process: read the later part of the file and send it back packed."""
    try:
        builder = _Builder(field_map)
        builder.name_prefix = PROVISIONAL
        part = RunStore(path, field_map)
        part.extend(read_lines_range(path, start, end, builder))
        sender.send(("ok", _pack(part, builder)))
    except BaseException as exc:  # anything: the parent then reads the part itself
        sender.send(("failed", repr(exc)))
    finally:
        sender.close()


def _join(strings: list[str]) -> str | list[str]:
    """Strings as one (pickled in one piece), unless one of them holds the separator."""
    joined = _SEPARATOR.join(strings)
    return joined if joined.count(_SEPARATOR) == max(len(strings) - 1, 0) else strings


def _split(packed: str | list[str], count: int) -> list[str]:
    if isinstance(packed, list):
        return packed
    return packed.split(_SEPARATOR) if count else []


def _pack(part: RunStore, builder: _Builder) -> dict[str, Any]:
    return {
        "count": len(part),
        "ids": _join(part.ids),
        "questions": _join(part.questions),
        "search_text": _join(part.search_text),
        "lines": part.lines,
        "stage": part.stage,
        "file_label": part.file_label,
        "n_required": part.n_required,
        "n_context": part.n_context,
        "missing": part.missing,
        "errors": part.errors,
        "blob": part._blob,
        "offsets": part._offsets,
        "first_seen": builder.first_seen,
        "unnamed": builder.unnamed,
    }


def _append(store: RunStore, builder: _Builder, part: dict[str, Any]) -> None:
    """Join the helper's rows to the store's, then settle names and repeated ids."""
    base = len(store)  # rows, which are records: every record is one row
    count = part["count"]
    ids = _split(part["ids"], count)
    search_text = _split(part["search_text"], count)
    store.ids.extend(ids)
    store.questions.extend(_split(part["questions"], count))
    store.search_text.extend(search_text)
    store.lines.extend(part["lines"])
    store.stage.extend(part["stage"])
    store.file_label.extend(part["file_label"])
    store.n_required.extend(part["n_required"])
    store.n_context.extend(part["n_context"])
    store.missing.update({base + row: ids_ for row, ids_ in part["missing"].items()})
    store.errors.update({base + row: error for row, error in part["errors"].items()})
    blob_base = len(store._blob)
    store._blob += part["blob"]
    offsets: array[int] = part["offsets"]
    store._offsets.extend(array("Q", (blob_base + offset for offset in offsets[1:])))
    store._row_of = None
    _settle_ids(store, builder, base, part["first_seen"], part["unnamed"])


def _settle_ids(
    store: RunStore, builder: _Builder, base: int, helper_seen: dict[str, int], unnamed: list[int]
) -> None:
    """Name the helper's unnamed runs by position, and find ids repeated across the parts.

    In a single pass, the first run to reach the rule with a given id names it and
    every later one is a duplicate of that first line. Here each part knows only its
    own: for every id both parts (or a newly named run) claim, the claims are gathered
    in file order and all but the first become duplicates of it.
    """
    seen = builder.first_seen
    claims: dict[str, list[int]] = {}  # id -> rows of the helper's part claiming it
    for row in unnamed:
        store_row = base + row
        old = store.ids[store_row]
        name = str(store_row + 1)
        store.ids[store_row] = name
        if store_row in store.errors:
            store.errors[store_row].id = name
        store.search_text[store_row] = name + store.search_text[store_row][len(old.casefold()) :]
        if name in seen or name in helper_seen:
            claims.setdefault(name, []).append(store_row)
    for run_id in seen.keys() & helper_seen.keys():
        claims.setdefault(run_id, []).append(_row_at_line(store, base, helper_seen[run_id]))
    if not claims:
        return
    for row, error in store.errors.items():  # the helper's own duplicates of a claimed id
        if row >= base and error.id in claims and error.reason.startswith("duplicate id"):
            claims[error.id].append(row)
    for run_id, rows in claims.items():
        if run_id in helper_seen and run_id not in seen:  # an unnamed run met a helper's id
            rows.append(_row_at_line(store, base, helper_seen[run_id]))
        rows = sorted(set(rows))
        first_line = seen.get(run_id) or store.lines[rows.pop(0)]
        for row in rows:
            _make_duplicate(store, builder, row, run_id, first_line)


def _row_at_line(store: RunStore, base: int, line: int) -> int:
    return bisect_left(store.lines, line, lo=base)


def _make_duplicate(store: RunStore, builder: _Builder, row: int, run_id: str, first_line: int) -> None:
    repeated = InvalidRun("id", f'duplicate id "{run_id}", first seen on line {first_line}')
    error = builder._invalid(store.lines[row], repeated, run_id)
    assert error.kind == INVALID_RUN
    store.stage[row] = S_INVALID
    store.file_label[row] = L_NONE
    store.n_required[row] = 0
    store.n_context[row] = 0
    store.questions[row] = ""
    store.missing.pop(row, None)
    store.expected.pop(row, None)
    store.errors[row] = error
    store.search_text[row] = error_search_text(error)
