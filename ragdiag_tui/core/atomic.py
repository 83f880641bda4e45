"""Atomic file writes: the new content goes to a temporary file, fsynced, then renamed.

A crash or kill halfway leaves the previous file at the target intact. Where the
system offers it (Linux `O_TMPFILE`) the content is written to a file with no name
at all, named only once complete, so a killed write leaves no stray temporary
file either; elsewhere a hidden `.NAME.XXXXXXXX.part` file beside the target is
used. The folder is fsynced after the rename so the new name survives a power
cut. The run file a review reads is never a valid target.
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
import stat
from collections.abc import Iterator
from typing import BinaryIO

_O_TMPFILE = getattr(os, "O_TMPFILE", 0)
# O_TMPFILE unsupported by the file system (or the kernel predates it).
_NO_TMPFILE = (errno.EOPNOTSUPP, errno.EISDIR, errno.EINVAL)


class WriteRefused(OSError):
    """The target is the run file itself, or otherwise not writable."""


def same_file(a: str, b: str) -> bool:
    """Whether two paths name the same file (or the same path, if either is missing)."""
    try:
        return os.path.samefile(a, b)
    except OSError:
        return os.path.abspath(a) == os.path.abspath(b)


def _temp_path(folder: str, target: str) -> str:
    return os.path.join(folder, f".{os.path.basename(target)}.{secrets.token_hex(4)}.part")


def _open_unnamed(folder: str) -> int | None:
    """A file with no name in `folder`, or None where the system cannot make one."""
    if not _O_TMPFILE or not os.path.isdir("/proc/self/fd"):
        return None
    try:
        # 0o666 less the umask: the permissions any new file would get.
        return os.open(folder, _O_TMPFILE | os.O_WRONLY, 0o666)
    except OSError as exc:
        if exc.errno in _NO_TMPFILE:
            return None
        raise


def _open_named(folder: str, target: str) -> tuple[int, str]:
    while True:
        temp = _temp_path(folder, target)
        try:
            return os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666), temp
        except FileExistsError:
            continue


def _name_unnamed(fd: int, folder: str, target: str) -> str:
    """Give the finished unnamed file a temporary name, ready to be renamed."""
    dir_fd = os.open(folder, os.O_RDONLY)
    try:
        while True:
            temp = _temp_path(folder, target)
            try:
                # dst_dir_fd makes Python call linkat(AT_SYMLINK_FOLLOW), which links
                # the open file itself rather than its /proc symlink.
                os.link(f"/proc/self/fd/{fd}", temp, dst_dir_fd=dir_fd, follow_symlinks=True)
                return temp
            except FileExistsError:
                continue
    finally:
        os.close(dir_fd)


def _keep_mode(fd: int, target: str) -> None:
    """Replacing a file keeps its permissions: a shared export stays readable."""
    if hasattr(os, "fchmod"):
        with contextlib.suppress(OSError):
            os.fchmod(fd, stat.S_IMODE(os.stat(target).st_mode))


def _fsync_folder(folder: str) -> None:
    """Make the rename durable; not every system can open or fsync a folder."""
    with contextlib.suppress(OSError):
        dir_fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)


@contextlib.contextmanager
def atomic_writer(target: str | os.PathLike[str], protect: str | None = None) -> Iterator[BinaryIO]:
    """Yield a binary file; on success it replaces `target` in one rename."""
    target = os.fspath(target)
    if protect is not None and same_file(target, protect):
        raise WriteRefused(f"{target}: refusing to overwrite the run file")
    folder = os.path.dirname(os.path.abspath(target))
    temp: str | None = None
    fd = _open_unnamed(folder)
    if fd is None:
        fd, temp = _open_named(folder, target)
    try:
        with os.fdopen(fd, "wb") as handle:
            _keep_mode(fd, target)
            yield handle
            handle.flush()
            os.fsync(fd)
            if temp is None:
                temp = _name_unnamed(fd, folder, target)
        os.replace(temp, target)
        temp = None
        _fsync_folder(folder)
    finally:
        if temp is not None:
            with contextlib.suppress(OSError):
                os.unlink(temp)
