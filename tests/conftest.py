"""What every test shares: how many xdist workers `-n auto` (the suite's addopts) starts, and one
parse of each stylesheet per worker for all the apps its tests start."""

from __future__ import annotations

import gc
import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

WORKERS_PER_CORE = 2
"""Most tests spend much of their time waiting (an app's pilot pausing, a PostgreSQL server, a
JVM, a program in a pseudo-terminal): measured per test (CPU time against wall time less the time
spent waiting for a core), three workers on two cores keep them busy only about four fifths of the
time, four nearly all of it. More workers add little, and each one collects the whole suite again
(about 8 s of CPU)."""


GC_THRESHOLDS = (50_000, 20, 10)
"""The cyclic collector's thresholds in each worker once its tests are collected (Python's are
700, 10, 10). The apps the tests start make tens of thousands of objects each, most freed at once
by their count; with Python's thresholds the collector still passed over the survivors some six
thousand times per worker. Measured on the UI and hostile tests, per worker: 4.8 s of about 40 s
of CPU in the collector with Python's thresholds, 1.5 s with these. Cycles are still collected,
only less often; no test depends on when."""


def pytest_collection_finish(session: pytest.Session) -> None:
    gc.freeze()  # the modules and tests collected live as long as the worker: no pass need see them
    gc.set_threshold(*GC_THRESHOLDS)


SAMPLE_RUNS = Path(__file__).resolve().parents[1] / "sample_runs"


@pytest.fixture
def samples(tmp_path: Path) -> Path:
    """A copy of `sample_runs/` in the test's own folder. Commands that apply a journal found
    beside their run file (stats, compare, export) must not meet one a user left beside the
    samples, say after trying the README's quick start."""
    copy = tmp_path / "sample_runs"
    shutil.copytree(SAMPLE_RUNS, copy, ignore=shutil.ignore_patterns("*.review.jsonl"))
    return copy


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    return max(1, round(cores * WORKERS_PER_CORE))


@pytest.fixture(autouse=True, scope="session")
def _css_parsed_once_per_process() -> Iterator[None]:
    """Each app parses every stylesheet of its widgets anew (about a tenth of starting one in a
    test); the suite starts hundreds. Textual caches a parse per stylesheet; here one cache serves
    every app of the worker, keyed on the CSS text, where it came from and the theme's variables.
    The parsed rules are only read once made (Textual's own cache shares them likewise)."""
    try:
        from textual.css.stylesheet import Stylesheet
    except ImportError:
        yield
        return
    parse_rules = Stylesheet._parse_rules
    parsed: dict[tuple[object, ...], list[object]] = {}

    def shared(
        self: Stylesheet, css: str, read_from: object, *args: object, **kwargs: object
    ) -> list[object]:
        key = (css, read_from, args, tuple(sorted(kwargs.items())), tuple(sorted(self._variables.items())))
        if key not in parsed:
            parsed[key] = parse_rules(self, css, read_from, *args, **kwargs)
        return parsed[key]

    Stylesheet._parse_rules = shared  # type: ignore[method-assign]
    yield
    Stylesheet._parse_rules = parse_rules  # type: ignore[method-assign]
