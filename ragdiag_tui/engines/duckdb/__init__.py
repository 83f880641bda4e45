"""The DuckDB engine (work in progress): diagnose, stats and sample over a dataset."""

from __future__ import annotations

from typing import Any


def diagnose(ds: Any, mapping: Any, out: Any) -> Any:
    raise NotImplementedError("the DuckDB engine is not written yet")


def stats(ds: Any, mapping: Any, *, group_by: str | None = None, top: int = 10) -> dict:
    raise NotImplementedError("the DuckDB engine is not written yet")


def sample(ds: Any, mapping: Any, **options: Any) -> Any:
    raise NotImplementedError("the DuckDB engine is not written yet")
