"""Shared fixtures of the pure-core tests: the seed's cases and small run files."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[2]


def seed_cases_path() -> Path:
    """The seed's case file: the shared spec copy if present, else the sample copy."""
    for candidate in (
        REPO.parent / "shared" / "spec" / "seed_cases.json",
        REPO / "sample_runs" / "seed_cases.json",
    ):
        if candidate.is_file():
            return candidate
    raise FileNotFoundError("seed_cases.json is in neither ../shared/spec/ nor sample_runs/")


@pytest.fixture
def seed_path() -> Path:
    return seed_cases_path()


@pytest.fixture
def write_runs(tmp_path: Path) -> Callable[..., Path]:
    """Write runs (objects, or raw text lines) as a JSON Lines file; return its path."""

    def write(lines: list[Any], name: str = "runs.jsonl") -> Path:
        text = "".join((line if isinstance(line, str) else json.dumps(line)) + "\n" for line in lines)
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        return path

    return write
