"""What every test shares: how many xdist workers `-n auto` (the suite's addopts) starts."""

from __future__ import annotations

import os

import pytest

WORKERS_PER_CORE = 1.5
"""Most tests spend much of their time waiting (an app's pilot pausing, a PostgreSQL server, a
JVM, a program in a pseudo-terminal), so one worker per core leaves the cores idle half the time."""


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    return max(1, round(cores * WORKERS_PER_CORE))
