"""What every test shares: how many xdist workers `-n auto` (the suite's addopts) starts."""

from __future__ import annotations

import os

import pytest

WORKERS_PER_CORE = 2
"""Most tests spend much of their time waiting (an app's pilot pausing, a PostgreSQL server, a
JVM, a program in a pseudo-terminal): measured per test (CPU time against wall time less the time
spent waiting for a core), three workers on two cores keep them busy only about four fifths of the
time, four nearly all of it. More workers add little, and each one collects the whole suite again
(about 8 s of CPU)."""


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    return max(1, round(cores * WORKERS_PER_CORE))
