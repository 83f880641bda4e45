"""The similarity matches of a run file, kept between sessions.

Matching texts by similarity (`texts.TextMatch`) is the one costly part of loading a
text run file, so the scores found are kept in a cache file and a reopen reads them
instead of comparing the texts again. Where:

    $RAGDIAG_CACHE_DIR, else $XDG_CACHE_HOME/ragdiag-tui, else ~/.cache/ragdiag-tui
    / text-match-<16 hex digits of the SHA-256 of the run file's real path>.json

never beside the run file (a folder of runs stays as it was, and a dataset's glob never
meets a cache). The cache holds, per required text and run's supplied texts, the verdict under
one threshold (`TextMatch.memo`); it is used only with that threshold, for the file it
was made from, unchanged (the same device, inode, size and modification time), and only
when it reads back whole as this format: anything else (another file's, an older or
newer format, a corrupt or hostile file, one too big) is ignored, never trusted in part,
and written afresh after the load. Written through `common.atomic`, so a crash leaves the
old cache or the new one, never half of one; a cache that cannot be written (a read-only
home) is skipped silently: it only saves time.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import stat
from typing import Any

import msgspec

from ..common.atomic import atomic_writer
from .texts import CONTENT_ID_HEX, CONTENT_ID_PREFIX, TextMatch, is_content_id

FORMAT = "ragdiag-tui text matches"
VERSION = 1
SCORER = "rapidfuzz Levenshtein normalized_distance"
MAX_BYTES = 1 << 30  # a bigger cache is not read
_KEY_LENGTH = len(CONTENT_ID_PREFIX) + CONTENT_ID_HEX + 1 + CONTENT_ID_HEX  # "t:... <context key>"


class _Cache(msgspec.Struct, forbid_unknown_fields=True):
    format: str
    version: int
    scorer: str
    file: str
    fingerprint: tuple[int, int, int, int]
    threshold: float
    entries: dict[str, tuple[float, str]]


def cache_folder() -> str:
    folder = os.environ.get("RAGDIAG_CACHE_DIR")
    if folder:
        return folder
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "ragdiag-tui")


def cache_path(run_file: str) -> str:
    real = os.path.realpath(run_file)
    digest = hashlib.sha256(real.encode("utf-8", "surrogatepass")).hexdigest()[:16]
    return os.path.join(cache_folder(), f"text-match-{digest}.json")


def fingerprint(run_file: str) -> tuple[int, int, int, int] | None:
    try:
        info = os.stat(run_file)
    except OSError:
        return None
    return (info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns)


def read_cache(run_file: str, match: TextMatch) -> bool:
    """Put the cached matches of `run_file` into `match.memo`; whether there were any."""
    try:
        cache = msgspec.json.decode(_read_regular(cache_path(run_file)), type=_Cache)
    except (OSError, msgspec.DecodeError, msgspec.ValidationError, RecursionError, MemoryError):
        return False
    expected = (FORMAT, VERSION, SCORER, os.path.realpath(run_file), fingerprint(run_file), match.threshold)
    found = (cache.format, cache.version, cache.scorer, cache.file, cache.fingerprint, cache.threshold)
    if found != expected:
        return False
    if not all(_sound(key, entry) for key, entry in cache.entries.items()):
        return False
    match.memo.update(cache.entries)
    match.added = 0
    return True


def _read_regular(path: str) -> bytes:
    """The bytes of a regular file of at most MAX_BYTES; OSError for anything else (a symlink,
    a FIFO, a device such as /dev/zero: reading one could block or never end)."""
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    with os.fdopen(fd, "rb") as handle:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_BYTES:
            raise OSError(f"{path}: not a cache file")
        return handle.read(MAX_BYTES + 1)


def _sound(key: str, entry: tuple[float, str]) -> bool:
    score, closest = entry
    if not closest:
        return score == 0.0 and len(key) == _KEY_LENGTH
    return 0.0 <= score <= 1.0 and len(key) == _KEY_LENGTH and is_content_id(closest)


def write_cache(run_file: str, match: TextMatch) -> bool:
    """Keep `match.memo` for the next load of `run_file` (when it learned anything new)."""
    stamp = fingerprint(run_file)
    if not match.added or stamp is None:
        return False
    cache: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "scorer": SCORER,
        "file": os.path.realpath(run_file),
        "fingerprint": stamp,
        "threshold": match.threshold,
        "entries": match.memo,
    }
    with contextlib.suppress(OSError):
        os.makedirs(cache_folder(), mode=0o700, exist_ok=True)
        with atomic_writer(cache_path(run_file)) as handle:
            handle.write(msgspec.json.encode(cache))
        match.added = 0
        return True
    return False
