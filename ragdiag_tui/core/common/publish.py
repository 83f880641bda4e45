"""Check, then write, then publish: every file of one output, all or nothing.

A command whose output is several files (a Markdown report and its charts, a
dataset's sample) names every target first (`Publication.add`): each is checked as
`-o` is (`atomic.check_output`: never a file this command read, never a review
journal) and must be a regular file or not yet there, so every refusal comes
before anything is written. Each file is then written to a temporary file beside
its target (`write`, or `temp_for` for a writer that wants a path), and only when
all are complete does `publish` rename them into place. Leaving the `with` block
without publishing (a refusal found later, an error) removes the temporaries and
nothing else: no file this run did not create is ever deleted.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import stat
from collections.abc import Iterator
from types import TracebackType
from typing import BinaryIO

from .atomic import WriteRefused, check_output, fsync_folder, naming


class Publication:
    """The files of one output, published together. Use as a context manager."""

    def __init__(self) -> None:
        self._targets: dict[str, str] = {}  # target as given -> the path renamed onto (symlinks followed)
        self._temps: dict[str, str] = {}  # target as given -> its temporary file
        self._published = False

    def __enter__(self) -> Publication:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, trace: TracebackType | None
    ) -> None:
        if not self._published:
            self.discard()

    @property
    def targets(self) -> list[str]:
        """Every target added, in order."""
        return list(self._targets)

    def add(self, target: str | os.PathLike[str]) -> str:
        """Name one more file of the output; raises WriteRefused (naming it) if it may not be written."""
        target = os.fspath(target)
        check_output(target)
        try:
            info: os.stat_result | None = os.stat(target)
        except FileNotFoundError:
            info = None
        except OSError as exc:
            raise OSError(exc.errno, exc.strerror, target) from None
        if info is not None and not stat.S_ISREG(info.st_mode):
            kind = "a directory" if stat.S_ISDIR(info.st_mode) else "not a regular file"
            raise WriteRefused(f"cannot write {target}: it is {kind}; this output is written as files")
        real = os.path.realpath(target)
        for other, where in self._targets.items():
            if where == real or (
                info is not None and os.path.exists(where) and os.path.samefile(where, real)
            ):
                raise WriteRefused(f"cannot write {target}: it is also {other}, another file of this output")
        self._targets[target] = real
        return target

    def temp_for(self, target: str) -> str:
        """A fresh path beside `target` (added first) for its content; published by `publish`."""
        where = self._targets[target]
        temp = os.path.join(os.path.dirname(where), f".{os.path.basename(where)}.{secrets.token_hex(4)}.part")
        self._temps[target] = temp
        return temp

    @contextlib.contextmanager
    def write(self, target: str) -> Iterator[BinaryIO]:
        """A binary file holding `target`'s content until `publish`."""
        temp = self.temp_for(target)
        with (
            naming(target),
            os.fdopen(os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666), "wb") as out,
        ):
            yield out
            out.flush()
            os.fsync(out.fileno())

    def publish(self) -> list[str]:
        """Rename every written file into place (their targets' permissions kept); the targets."""
        missing = [target for target in self._targets if target not in self._temps]
        if missing:
            raise ValueError(f"nothing written for {', '.join(missing)}")
        for target, temp in self._temps.items():
            where = self._targets[target]
            with contextlib.suppress(OSError):
                os.chmod(temp, stat.S_IMODE(os.stat(where).st_mode))
            with naming(target):
                os.replace(temp, where)  # writes-ok: the publication's own temporary file
        for folder in {os.path.dirname(where) for where in self._targets.values()}:
            fsync_folder(folder)
        self._published = True
        return self.targets

    def discard(self) -> None:
        """Remove the temporary files this publication made; nothing else."""
        for temp in self._temps.values():
            with contextlib.suppress(OSError):
                os.unlink(temp)  # writes-ok: the publication's own temporary file
        self._temps.clear()
