"""What every test shares: how many xdist workers `-n auto` (the suite's addopts) starts, one
parse of each stylesheet per worker for all the apps its tests start, and an app pilot that
waits for the app by shorter looks (and for the frame a key asks for)."""

from __future__ import annotations

import asyncio
import gc
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

WORKERS_PER_CORE = 1.5
"""Many tests spend part of their time waiting (a PostgreSQL server, a JVM, a program in a
pseudo-terminal, an app's pilot), so more workers than cores keep the cores busy; but each worker
collects the whole suite again (about 4.4 s of CPU) and the apps of more workers contend for
the cores. Since the pilot waits by short looks (`IDLE_LOOK`), three workers on two cores finish
first: the whole suite, four pairs in turn on 4 December, 2:02-2:21 by pytest's clock against
2:19-2:29 with four, and 221-262 s of busy CPU against 271-291 s."""


GC_THRESHOLDS = (50_000, 20, 10)
"""The cyclic collector's thresholds in each worker once its tests are collected (Python's are
700, 10, 10). The apps the tests start make tens of thousands of objects each, most freed at once
by their count; with Python's thresholds the collector still passed over the survivors some six
thousand times per worker. Measured on the UI and hostile tests, per worker: 4.8 s of about 40 s
of CPU in the collector with Python's thresholds, 1.5 s with these. Cycles are still collected,
only less often; no test depends on when."""


IDLE_LOOK = 0.005
"""Seconds of each look `Pilot.press` and `Pilot.pause()` take to see whether the app has gone
idle (Textual's own is 0.02 s, idle meaning under a twentieth of it spent working). Each key
pressed waits for two idle looks in a row, so about 0.1 s with Textual's looks, mostly asleep.
A shorter look alone would let a test read the screen before the frame the key asked for is
drawn (Textual lays the screen out again on a timer, up to 1/60 s after a change), so a press or
pause also waits until the screen has nothing left to draw (`_frame_due`). Measured on the UI
and hostile tests with four workers, three pairs in turn with Textual's waits: 83-88 s of wall
time against 90-100 s."""

FRAME_FLAGS = (
    "_layout_required",
    "_scroll_required",
    "_repaint_required",
    "_recompose_required",
    "_dirty_widgets",
)
"""What a Textual screen still has to draw: the very test `Screen._on_idle` makes before it
starts its update timer."""

FRAME_WAITS = 200  # looks of IDLE_LOOK / 5 each: a frame not drawn in 0.2 s is left to the test


def _frame_due(screen: Any) -> bool:
    return any(getattr(screen, flag) for flag in FRAME_FLAGS)


def _quicker_pilot() -> None:
    """Shorter idle looks for `Pilot`, and a wait for the frame due; nothing if this Textual's
    internals are not the ones measured (its own waits are then kept: slower, as correct)."""
    from textual import _wait
    from textual.pilot import Pilot
    from textual.screen import Screen

    if not (
        hasattr(_wait, "SLEEP_GRANULARITY")
        and hasattr(_wait, "SLEEP_IDLE")
        and hasattr(Pilot, "_wait_for_screen")
        and set(FRAME_FLAGS) <= set(Screen._on_idle.__code__.co_names)
    ):
        return
    _wait.SLEEP_GRANULARITY = IDLE_LOOK
    _wait.SLEEP_IDLE = IDLE_LOOK / 20
    handled = Pilot._wait_for_screen

    async def handled_and_drawn(self: Pilot, timeout: float = 30.0) -> bool:
        done = await handled(self, timeout)
        if not self.app._screen_stack:
            return done
        screen = self.app.screen
        for _ in range(FRAME_WAITS):
            if not _frame_due(screen):
                break
            await asyncio.sleep(IDLE_LOOK / 5)
        return done

    Pilot._wait_for_screen = handled_and_drawn  # type: ignore[method-assign]


def pytest_collection_finish(session: pytest.Session) -> None:
    gc.freeze()  # the modules and tests collected live as long as the worker: no pass need see them
    gc.set_threshold(*GC_THRESHOLDS)
    _quicker_pilot()


WAITING = ("tests/pg/", "tests/ui/test_serve.py", "tests/ui/test_report_browser.py")
"""Tests that spend most of their time waiting, not computing: on a PostgreSQL server (stopped,
started again, or timing out in an outage) or on Chromium loading a page. xdist hands the tests
out in order, so all the workers met these at the same moment and left the cores idle together
(the cores under 80% busy for 20 seconds of a run). Spread evenly through the suite, each waits
while the other workers compute: measured on 4 December, 16 core-seconds idle in a whole run
against 24, and 5 seconds under 80% busy."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    waiting = [item for item in items if item.nodeid.startswith(WAITING)]
    busy = [item for item in items if not item.nodeid.startswith(WAITING)]
    if not waiting or not busy:
        return
    place = {id(item): float(index) for index, item in enumerate(busy)}
    step = len(busy) / len(waiting)
    place.update({id(item): (index + 0.5) * step - 0.5 for index, item in enumerate(waiting)})
    items.sort(key=lambda item: place[id(item)])


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
def _text_match_cache_in_tmp(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """The similarity cache (core/runs/text_cache.py) goes to a folder of the test run's own,
    never the user's ~/.cache."""
    before = os.environ.get("RAGDIAG_CACHE_DIR")
    os.environ["RAGDIAG_CACHE_DIR"] = str(tmp_path_factory.mktemp("text-match-cache"))
    yield
    if before is None:
        os.environ.pop("RAGDIAG_CACHE_DIR", None)
    else:
        os.environ["RAGDIAG_CACHE_DIR"] = before


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
