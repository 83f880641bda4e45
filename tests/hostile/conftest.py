"""Fixtures of the hostile suite: each corpus case as a private file, and a guard for pipes."""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from .corpus import Case, make_case

FIFO_PATIENCE = 0.5  # seconds between checks for a reader stuck on the named pipe


def _release_fifo(path: Path) -> bool:
    """Open the pipe for writing and close it: a reader stuck in open() then sees end of file.

    Returns whether there was such a reader (opening a pipe for writing without
    blocking succeeds only when someone has it open for reading).
    """
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_NONBLOCK))
    except OSError:  # ENXIO: nobody is reading, all is well
        return False
    return True


class PipeWatch(threading.Thread):
    """Unsticks any reader that blocks on the pipe, and remembers that one did."""

    def __init__(self, path: Path) -> None:
        super().__init__(daemon=True)
        self.path = path
        self.stuck = False
        self.stopped = threading.Event()

    def run(self) -> None:
        while not self.stopped.wait(FIFO_PATIENCE):
            self.stuck |= _release_fifo(self.path)


@pytest.fixture
def case(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Case]:
    """The corpus case named by the (indirect) parameter, as a file of this test's own.

    For the named pipe, a watcher makes sure a loader that blocks on it fails the test
    instead of hanging it.
    """
    built = make_case(request.param, tmp_path)
    watch: PipeWatch | None = None
    if request.param == "fifo":
        watch = PipeWatch(built.path)
        watch.start()
    yield built
    if watch is not None:
        watch.stopped.set()
        watch.join()
        assert not watch.stuck, "something blocked opening the named pipe"
