"""The real `ragdiag-tui` command in a pseudo-terminal, for tests that type as a person does."""

from __future__ import annotations

import contextlib
import os
import select
import struct
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path


class Terminal:
    """The real `ragdiag-tui` command in a pseudo-terminal: keys in, screen bytes drained."""

    def __init__(self, *args: str | os.PathLike[str], cwd: Path) -> None:
        import fcntl  # POSIX only, like pseudo-terminals
        import pty
        import termios

        # A pseudo-terminal opened here and handed to a child started by subprocess, not
        # pty.fork(): forking a process that has threads (pytest's, the app tests') is
        # deprecated from Python 3.12 and warns; subprocess starts the child without that.
        self.fd, child_end = pty.openpty()
        fcntl.ioctl(child_end, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))
        command = str(Path(sys.executable).with_name("ragdiag-tui"))
        try:
            self.process = subprocess.Popen(
                [command, *map(os.fspath, args)],
                stdin=child_end,
                stdout=child_end,
                stderr=child_end,
                cwd=cwd,
                env={**os.environ, "TERM": "xterm-256color"},
                start_new_session=True,  # its own session, as a terminal's program has
            )
        finally:
            os.close(child_end)
        self.pid = self.process.pid
        self.screen = b""

    def wait_for(self, done: Callable[[], bool], timeout: float = 20.0) -> None:
        """Read the screen (so the app never blocks writing it) until `done()` or fail."""
        deadline = time.monotonic() + timeout
        while not done():
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out; the screen ended with {self.screen[-2000:]!r}")
            if select.select([self.fd], [], [], 0.02)[0]:
                with contextlib.suppress(OSError):
                    self.screen += os.read(self.fd, 65536)

    def press(self, key: bytes) -> None:
        os.write(self.fd, key)

    def kill(self) -> None:
        self.process.kill()
        self.process.wait()
        os.close(self.fd)
