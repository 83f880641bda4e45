"""Atomic file writes: the new content goes to a temporary file, fsynced, then renamed.

A crash or kill halfway leaves the previous file at the target intact. Where the
system offers it (Linux `O_TMPFILE`) the content is written to a file with no name
at all, named only once complete, so a killed write leaves no stray temporary
file either; elsewhere a hidden `.NAME.XXXXXXXX.part` file beside the target is
used. The folder is fsynced after the rename so the new name survives a power
cut. The run file a review reads is never a valid target.

`open_output` is what `-o` uses: it decides, before anything is written, what
kind of thing the target is. `-` is standard output. A character device
(`/dev/null`, a terminal) or a FIFO is written to as a stream, never replaced;
a directory, a socket or a block device is refused. A symlink stays a symlink:
the file it points to is the one replaced. Whatever the path, the output never
lands on a file this command has read (`reads`: the run file, its journal, the
corpus, the tags file, ...) nor on any review journal (`*.review.jsonl`): files
are compared by device and inode, not by name, so a symlink or a hard link to one
is caught too. A write that fails (a full disk) names its target.

Several files written as one output (a report and its charts) go through
`publish.Publication`, which checks every target before writing any.
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
import stat
import sys
from collections.abc import Iterable, Iterator
from typing import BinaryIO

from .reads import read_as

_O_TMPFILE = getattr(os, "O_TMPFILE", 0)
# O_TMPFILE unsupported by the file system (or the kernel predates it).
_NO_TMPFILE = (errno.EOPNOTSUPP, errno.EISDIR, errno.EINVAL)


JOURNAL_SUFFIX = ".review.jsonl"  # as core.journal names them; repeated here to keep atomic standalone
STDOUT = "-"


class WriteRefused(OSError):
    """The target is the run file, a review journal, or not a thing output may go to.

    The message names the target and says why.
    """


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


def fsync_folder(folder: str) -> None:
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
    refuse_read(target)
    folder = os.path.dirname(os.path.abspath(target))
    temp: str | None = None
    fd = _open_unnamed(folder)
    if fd is None:
        fd, temp = _open_named(folder, target)
    try:
        with naming(target), os.fdopen(fd, "wb") as handle:
            _keep_mode(fd, target)
            yield handle
            handle.flush()
            os.fsync(fd)
            try:
                if temp is None:
                    temp = _name_unnamed(fd, folder, target)
                os.replace(temp, target)
            except OSError as exc:  # name the target, not the temporary file
                raise OSError(exc.errno, exc.strerror, target) from None
        temp = None
        fsync_folder(folder)
    finally:
        if temp is not None:
            with contextlib.suppress(OSError):
                os.unlink(temp)


@contextlib.contextmanager
def naming(target: str) -> Iterator[None]:
    """An OSError that names no file (ENOSPC from a write) is given the target's name."""
    try:
        yield
    except OSError as exc:
        if exc.filename is not None or isinstance(exc, WriteRefused) or exc.errno is None:
            raise
        raise OSError(exc.errno, exc.strerror, target) from exc


# -- -o: where output may go ----------------------------------------------------------


def refuse_read(target: str) -> None:
    """Raise WriteRefused when `target` leads to a file this command has read (`reads`)."""
    what = read_as(target)
    if what is not None:
        raise WriteRefused(f"cannot write {target}: it is {what}")


def _identity(path: str) -> tuple[int, int] | None:
    try:
        info = os.stat(path)
    except OSError:
        return None
    return info.st_dev, info.st_ino


def _journals_beside(folder: str) -> Iterator[str]:
    with contextlib.suppress(OSError), os.scandir(folder) as entries:
        for entry in entries:
            if entry.name.endswith(JOURNAL_SUFFIX):
                yield entry.path


def check_output(target: str, protect: Iterable[str] = ()) -> None:
    """Raise WriteRefused when output to `target` would land on a protected file or a journal."""
    refuse_read(target)
    real = os.path.realpath(target)
    identity = _identity(target)
    protected = [os.fspath(path) for path in protect if path]
    for path in protected:
        if identity is not None and _identity(path) == identity:
            what = "the review journal" if path.endswith(JOURNAL_SUFFIX) else "the run file"
            raise WriteRefused(f"cannot write {target}: it is {what}")
    if real.endswith(JOURNAL_SUFFIX) or target.endswith(JOURNAL_SUFFIX):
        raise WriteRefused(f"cannot write {target}: it is a review journal")
    if identity is None:
        return
    folders = {os.path.dirname(real), *(os.path.dirname(os.path.abspath(path)) for path in protected)}
    for folder in folders:
        for journal in _journals_beside(folder):
            if _identity(journal) == identity:
                raise WriteRefused(f"cannot write {target}: it is a review journal ({journal})")


def _is_special(path: str) -> bool:
    # /dev/stdout, /dev/fd/N and /proc/self/fd/N name an open file of this process: replacing
    # what they resolve to would cut it from the descriptor the shell set up.
    absolute = os.path.abspath(path)
    return absolute.startswith(("/dev/", "/proc/"))


@contextlib.contextmanager
def open_output(target: str | os.PathLike[str], protect: Iterable[str] = ()) -> Iterator[BinaryIO]:
    """Where `-o` output goes: stdout for `-`, a stream for a device or FIFO, else an atomic write.

    Raises WriteRefused, naming the target, before anything is written when the
    target is protected (see `check_output`), a directory, a socket or a block device.
    """
    target = os.fspath(target)
    if target == STDOUT:
        yield sys.stdout.buffer
        sys.stdout.buffer.flush()
        return
    check_output(target, protect)
    try:
        info: os.stat_result | None = os.stat(target)
    except FileNotFoundError:
        info = None
    if info is not None and stat.S_ISDIR(info.st_mode):
        raise WriteRefused(f"cannot write {target}: it is a directory; name a file to write")
    if info is not None and (stat.S_ISSOCK(info.st_mode) or stat.S_ISBLK(info.st_mode)):
        kind = "a socket" if stat.S_ISSOCK(info.st_mode) else "a block device"
        raise WriteRefused(f"cannot write {target}: it is {kind}")
    if (info is not None and not stat.S_ISREG(info.st_mode)) or _is_special(target):
        # A character device or a FIFO: written to as it is, never replaced nor truncated
        # (O_APPEND: /dev/stdout may be a file the shell opened with >>).
        with naming(target), os.fdopen(os.open(target, os.O_WRONLY | os.O_APPEND), "wb") as out:
            yield out
        return
    with atomic_writer(os.path.realpath(target)) as out:
        yield out
