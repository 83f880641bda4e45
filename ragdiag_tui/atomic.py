"""Atomic file writes: a temporary file beside the target, fsynced, then renamed.

A crash or kill halfway leaves the previous file at the target intact. The run
file a review reads is never a valid target.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator
from typing import BinaryIO


class WriteRefused(OSError):
    """The target is the run file itself, or otherwise not writable."""


def _same_file(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return os.path.abspath(a) == os.path.abspath(b)


@contextlib.contextmanager
def atomic_writer(target: str | os.PathLike[str], protect: str | None = None) -> Iterator[BinaryIO]:
    """Yield a binary file; on success it replaces `target` in one rename."""
    target = os.fspath(target)
    if protect is not None and _same_file(target, protect):
        raise WriteRefused(f"{target}: refusing to overwrite the run file")
    folder = os.path.dirname(os.path.abspath(target))
    fd, temp = tempfile.mkstemp(prefix=".", suffix=".part", dir=folder)
    try:
        with os.fdopen(fd, "wb") as handle:
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise
