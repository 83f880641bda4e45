"""Fixtures of the UI tests: a private copy of a run file per test, and the app on it."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from ragdiag_tui.ui.app import RagdiagApp, create_app

from .helpers import DEMO, REVIEW_RUNS


@pytest.fixture
def runs_path(tmp_path: Path) -> Path:
    """A private copy of the UI test runs, so each test has its own journal."""
    target = tmp_path / "runs.jsonl"
    shutil.copy(REVIEW_RUNS, target)
    return target


@pytest.fixture
def demo_path(tmp_path: Path) -> Path:
    target = tmp_path / "demo.jsonl"
    shutil.copy(DEMO, target)
    return target


@pytest.fixture
def app(runs_path: Path) -> RagdiagApp:
    return create_app(runs_path, reviewer="tester")
