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

import atexit
import contextlib
import operator
import os
import pickle
import subprocess
import sys
import tempfile
import time
from array import array
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import compress
from typing import Any

from .loading import LoadError, Progress, _Builder, json_lines_head, read_lines_range
from .loading import read_runs as _read_runs
from .mapping import FieldMap
from .rule import InvalidRun
from .store import L_NONE, S_INVALID, Announce, RunStore, error_search_text

MIN_BYTES = 48 << 20  # below this a helper process costs more than it saves
SHARE = 0.58  # of the file for this process; the helper also pays for starting up and packing
PROVISIONAL = "\x1f#"  # prefix of the helper's names for unnamed runs, until their position is known
_SEPARATOR = "\x00"
PART_FOLDER = "/dev/shm" if os.path.isdir("/dev/shm") else tempfile.gettempdir()
PART_PREFIX = "ragdiag-part-"
LINES_SUFFIX = ".lines"  # the diagnose helper's output, beside its packed part


def split_point(path: str, field_map: FieldMap | None = None, min_bytes: int | None = None) -> int | None:
    """A line start near the middle of a big JSON Lines file, or None to read it in one pass."""
    try:
        size = os.path.getsize(path)
    except OSError:  # the one-pass reader says what is wrong with the file
        return None
    if size < (MIN_BYTES if min_bytes is None else min_bytes) or (os.cpu_count() or 1) < 2:
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
    min_bytes: int | None = None,
) -> None:
    """Fill `store` from its file: in two processes when it pays, else in one pass."""
    split = split_point(store.path, store.field_map, min_bytes)
    if split is None:
        store.extend(_read_runs(store.path, progress, store.field_map), announce)
        return
    size = os.path.getsize(store.path)
    try:
        helper = Helper(store.path, split, size, store.field_map, "store")
    except OSError:  # no new processes here: one pass it is
        load(store, progress, announce, min_bytes=size + 1)
        return
    builder = _Builder(store.field_map)

    def first_part_progress(done: int, total: int) -> None:
        if progress is not None:  # this part is most of the wait; the join is the rest
            progress(min(done, split) * size * 9 // (split * 10), size)

    complete, part = False, None
    try:
        complete = store.extend(
            _read_runs(store.path, first_part_progress, store.field_map, builder=builder, stop_at=split),
            announce,
        )
        if complete:
            part = helper.receive()
    finally:
        helper.stop()
    if not complete:
        return
    if part is None:
        # The helper failed: read its part here, as a single pass would have.
        store.extend(read_lines_range(store.path, split, size, builder), announce)
    else:
        _append(store, builder, part)
    if progress is not None:
        progress(size, size)
    if announce is not None:
        announce(len(store))


class Helper:
    """A helper process and the files it hands its part over in.

    This process names the files, so it can always remove them: when the part is
    read, when the helper is stopped, and at exit if loading was cut short (an app
    quit in the middle of a load). A helper whose parent is gone removes them itself.
    """

    def __init__(self, path: str, start: int, end: int, field_map: FieldMap | None, mode: str) -> None:
        _sweep_stale()
        fd, self.part_path = tempfile.mkstemp(prefix=PART_PREFIX, dir=PART_FOLDER)
        os.close(fd)
        self.lines_path = self.part_path + LINES_SUFFIX
        self.received = False
        package_root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [package_root, env.get("PYTHONPATH")]))
        argv = [mode, path, str(start), str(end), self.part_path, str(os.getpid())]
        try:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "ragdiag_tui.parallel", *argv],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                env=env,
            )
        except OSError:
            self._remove(self.part_path)
            raise
        _LIVE.add(self)
        assert self.process.stdin is not None
        try:
            self.process.stdin.write(pickle.dumps(field_map))
            self.process.stdin.close()
        except OSError:
            self.stop()
            raise

    def receive(self) -> dict[str, Any] | None:
        """The helper's packed part, or None if it failed."""
        assert self.process.stdout is not None
        answer = self.process.stdout.readline().strip()
        if answer != b"ok":
            return None
        try:
            with open(self.part_path, "rb") as handle:
                part = pickle.loads(handle.read())
        except (OSError, pickle.UnpicklingError, EOFError):
            return None
        self.received = True  # the diagnose lines file is now the caller's to remove
        return part

    def stop(self) -> None:
        """End the helper if it still runs, and remove what it wrote that is not needed."""
        _LIVE.discard(self)
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()
        if self.process.stdout is not None:
            self.process.stdout.close()
        self._remove(self.part_path)
        if not self.received:
            self._remove(self.lines_path)

    @staticmethod
    def _remove(path: str) -> None:
        with contextlib.suppress(OSError):
            os.unlink(path)


_LIVE: set[Helper] = set()
STALE_AFTER = 3600  # seconds; a part lives for the seconds of one load


def _sweep_stale() -> None:
    """Remove parts left by processes killed together with their helper (a closed terminal)."""
    cutoff = time.time() - STALE_AFTER
    with contextlib.suppress(OSError):
        for entry in os.scandir(PART_FOLDER):
            if entry.name.startswith(PART_PREFIX):
                with contextlib.suppress(OSError):
                    if entry.stat().st_mtime < cutoff:
                        os.unlink(entry.path)


@atexit.register
def _stop_live_helpers() -> None:
    for helper in list(_LIVE):
        helper.stop()


def _pack_part(path: str, start: int, end: int, field_map: FieldMap | None) -> dict[str, Any]:
    """In the helper: read the part into a store of its own, packed for the trip back."""
    builder = _Builder(field_map)
    builder.name_prefix = PROVISIONAL
    part = RunStore(path, field_map)
    part.extend(read_lines_range(path, start, end, builder))
    return _pack(part, builder)


def _join(strings: list[str]) -> str | list[str]:
    """Strings as one (pickled in one piece), unless one of them holds the separator."""
    joined = _SEPARATOR.join(strings)
    return joined if joined.count(_SEPARATOR) == max(len(strings) - 1, 0) else strings


def _split(packed: str | list[str], count: int) -> list[str]:
    if isinstance(packed, list):
        return packed
    return packed.split(_SEPARATOR) if count else []


def claimed_rows(builder: _Builder, ids: list[str], lines: Sequence[int]) -> bytes:
    """1 for each row whose id it claimed (the first to reach the rule with that id)."""
    return bytes(map(operator.eq, map(builder.first_seen.get, ids), lines))


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
        "claimed": claimed_rows(builder, part.ids, part.lines),
        "unnamed": builder.unnamed,
    }


def _append(store: RunStore, builder: _Builder, part: dict[str, Any]) -> None:
    """Join the helper's rows to the store's, then settle names and repeated ids."""
    base = len(store)  # rows, which are records: every record is one row
    count = part["count"]
    ids = _split(part["ids"], count)
    settlement = settle(
        builder.first_seen, base, ids, part["lines"], part["errors"], part["claimed"], part["unnamed"]
    )
    store.ids.extend(ids)
    store.questions.extend(_split(part["questions"], count))
    store.search_text.extend(_split(part["search_text"], count))
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
    for row, name in settlement.renamed.items():
        row += base
        old = store.ids[row]
        store.ids[row] = name
        if row in store.errors:
            store.errors[row].id = name
        store.search_text[row] = name + store.search_text[row][len(old.casefold()) :]
    for row, (run_id, first_line) in settlement.duplicates.items():
        _make_duplicate(store, builder, base + row, run_id, first_line)


@dataclass
class Settlement:
    """What joining the parts changes in the helper's part (rows counted from its start)."""

    renamed: dict[int, str] = field(default_factory=dict)  # unnamed runs: their final id
    duplicates: dict[int, tuple[str, int]] = field(default_factory=dict)  # (id, first line)


def settle(
    seen: dict[str, int],
    base: int,
    ids: list[str],
    lines: Sequence[int],
    errors: dict[int, LoadError],
    claimed_rows: bytes,
    unnamed: list[int],
) -> Settlement:
    """Name the helper's unnamed runs by position, and find ids repeated across the parts.

    `seen` holds the ids the first part claimed (id -> line), `base` its number of
    records. In a single pass, the first run to reach the rule with a given id
    claims it and every later one is a duplicate of that first line. Here each part
    knows only its own claims: for every id both parts (or a newly named run)
    claim, the claims are gathered in file order and all but the first become
    duplicates of it.
    """
    settlement = Settlement({row: str(base + row + 1) for row in unnamed})
    claimed = set(compress(ids, claimed_rows))
    contested: dict[str, list[int]] = {}  # id -> rows of the helper's part that reached the rule with it
    for row, name in settlement.renamed.items():
        if name in seen or name in claimed:
            contested.setdefault(name, []).append(row)
    for run_id in seen.keys() & claimed:
        contested.setdefault(run_id, [])
    if not contested:
        return settlement
    for row, run_id in enumerate(ids):
        if run_id in contested:
            error = errors.get(row)
            if claimed_rows[row] or (error is not None and error.reason.startswith("duplicate id")):
                contested[run_id].append(row)
    for run_id, rows in contested.items():
        rows = sorted(set(rows))
        first_line = seen.get(run_id) or lines[rows.pop(0)]
        settlement.duplicates.update(dict.fromkeys(rows, (run_id, first_line)))
    return settlement


def duplicate_error(builder: _Builder, line: int, run_id: str, first_line: int) -> LoadError:
    repeated = InvalidRun("id", f'duplicate id "{run_id}", first seen on line {first_line}')
    return builder._invalid(line, repeated, run_id)


def _make_duplicate(store: RunStore, builder: _Builder, row: int, run_id: str, first_line: int) -> None:
    error = duplicate_error(builder, store.lines[row], run_id, first_line)
    store.stage[row] = S_INVALID
    store.file_label[row] = L_NONE
    store.n_required[row] = 0
    store.n_context[row] = 0
    store.questions[row] = ""
    store.missing.pop(row, None)
    store.expected.pop(row, None)
    store.errors[row] = error
    store.search_text[row] = error_search_text(error)


def _helper_main(argv: list[str]) -> None:
    """python -m ragdiag_tui.parallel MODE FILE START END PART PARENT_PID, the field map
    pickled on stdin. Writes the part to the file PART and prints "ok"."""
    mode, path, start, end, part_path, parent = argv[0], argv[1], int(argv[2]), int(argv[3]), argv[4], argv[5]
    field_map = pickle.load(sys.stdin.buffer)
    if mode == "diagnose":
        from .batch import write_part

        result = write_part(path, start, end, field_map, part_path + LINES_SUFFIX)
    else:
        result = _pack_part(path, start, end, field_map)
    with open(part_path, "wb") as handle:
        pickle.dump(result, handle, protocol=pickle.HIGHEST_PROTOCOL)
    if str(os.getppid()) != parent:  # the parent is gone: nobody will read or remove these
        for leftover in (part_path, part_path + LINES_SUFFIX):
            with contextlib.suppress(OSError):
                os.unlink(leftover)
        return
    print("ok", flush=True)


if __name__ == "__main__":
    try:
        _helper_main(sys.argv[1:])
    except Exception as exc:  # the parent reads the part itself
        print(f"failed: {exc!r}", flush=True)
