"""Fixtures of the hostile suite: each corpus case as a private file, and a guard for pipes."""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from .corpus import Case, make_case

FIFO_GRACE = 5.0  # seconds a reader may block on the named pipe before the test unblocks it


def _release_fifo(path: Path) -> None:
    """Open the pipe for writing and close it: a reader stuck in open() then sees end of file.

    Without the loader's guard the test would hang forever; with this it fails instead
    (the loader then reports an empty file, not "not a regular file").
    """
    with contextlib.suppress(OSError):  # ENXIO: nobody is blocked reading, all is well
        os.close(os.open(path, os.O_WRONLY | os.O_NONBLOCK))


@pytest.fixture
def case(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Case]:
    """The corpus case named by the (indirect) parameter, as a file of this test's own."""
    built = make_case(request.param, tmp_path)
    timer: threading.Timer | None = None
    if request.param == "fifo":
        timer = threading.Timer(FIFO_GRACE, _release_fifo, [built.path])
        timer.daemon = True
        timer.start()
    yield built
    if timer is not None:
        timer.cancel()
        _release_fifo(built.path)
