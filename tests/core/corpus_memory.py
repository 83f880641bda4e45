"""How much memory opening a corpus takes: the peak of Python's allocations while it opens."""

from __future__ import annotations

import tracemalloc
from pathlib import Path

from ragdiag_tui.core.runs.corpus import DocStore


def open_measured(path: Path) -> tuple[DocStore, float]:
    """The corpus opened, and the peak of the allocations while opening as a multiple of its size."""
    tracemalloc.start()
    try:
        docs = DocStore.open(path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    return docs, peak / path.stat().st_size
