"""The real `ragdiag-tui` command in a pseudo-terminal, for tests that type as a person does."""

from __future__ import annotations

import contextlib
import os
import select
import signal
import struct
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

        command = str(Path(sys.executable).with_name("ragdiag-tui"))
        self.pid, self.fd = pty.fork()
        if self.pid == 0:  # the child: become the command, and never return into pytest
            try:
                os.chdir(cwd)
                os.environ["TERM"] = "xterm-256color"
                os.execv(command, [command, *map(os.fspath, args)])
            finally:
                os._exit(127)
        fcntl.ioctl(self.fd, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))
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
        with contextlib.suppress(ProcessLookupError):
            os.kill(self.pid, signal.SIGKILL)
        os.waitpid(self.pid, 0)
        os.close(self.fd)
