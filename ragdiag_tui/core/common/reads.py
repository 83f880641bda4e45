"""One registry of the files this command has read, so that no writer lands on one.

Every reader registers the file it opened, by device and inode, with what it is
("the run file", "the --docs corpus", "the tags file", ...); every writer
(`atomic.check_output`, the journal's appends) asks `read_as` before writing and
refuses a file found here, whatever name leads to it: a symlink or a hard link has
the same device and inode. No caller passes a list of files to protect.

The registry belongs to the process: the command line clears it as a command starts
(`forget_reads`); the app keeps what it read while it runs. An entry counts only
while the path it was read by still names that file, so a file deleted since (its
inode number free to be reused by a new one) protects nothing.
"""

from __future__ import annotations

import os
import stat
import threading

RUN_FILE = "the run file"
JOURNAL = "the review journal"

_lock = threading.Lock()
_read: dict[tuple[int, int], tuple[str, str]] = {}  # (device, inode) -> (what it is, its path)


def register_read(path: str | os.PathLike[str], what: str, info: os.stat_result | None = None) -> None:
    """`path` (stat as `info`, when the reader has it from its open file) is read as `what`.

    The first reader's name for a file stands: a caller that knows better (the
    --baseline run file) registers before the generic loader reads it. Only regular
    files are kept: a pipe or a device is not a file a write could destroy.
    """
    name = os.path.abspath(os.fspath(path))
    if info is None:
        try:
            info = os.stat(name)
        except OSError:
            return
    if not stat.S_ISREG(info.st_mode):
        return
    with _lock:
        _read.setdefault((info.st_dev, info.st_ino), (what, name))


def read_as(path: str | os.PathLike[str]) -> str | None:
    """What `path` is, if it leads to a file this process has read (else None)."""
    try:
        info = os.stat(path)
    except OSError:
        return None
    key = (info.st_dev, info.st_ino)
    with _lock:
        entry = _read.get(key)
    if entry is None:
        return None
    what, name = entry
    try:
        again = os.stat(name)
    except OSError:
        return None
    return what if (again.st_dev, again.st_ino) == key else None


def forget_reads() -> None:
    """Start afresh: a new command has read nothing yet."""
    with _lock:
        _read.clear()
