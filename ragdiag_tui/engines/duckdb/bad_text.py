"""A Parquet string that is not valid UTF-8 where SQL reads: the command again, that file exact.

DuckDB refuses a whole scan at such a string. Checking every file's text first would cost
every command a second read of its text columns; instead a command runs as usual, and only
when DuckDB stops at bad text (`schema.is_bad_text`) are the files checked with pyarrow and
the command run again with those holding bad text read by the exact path, where each bad row
is one invalid run naming its field, as the local loader says it. A command's output is
written atomically, so the stopped run leaves nothing behind.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

import duckdb

from ..dataset import Dataset
from ..results import EngineError
from .schema import bad_text_files, is_bad_text, read_exactly

Result = TypeVar("Result")


def retrying(command: Callable[..., Result]) -> Callable[..., Result]:
    """`command(ds, ...)`, run again with the dataset's files of bad text read exactly when
    DuckDB stops at one."""

    @functools.wraps(command)
    def run(ds: Dataset, *args: Any, **options: Any) -> Result:
        try:
            return command(ds, *args, **options)
        except (duckdb.Error, EngineError) as exc:
            if ds.format != "parquet" or not is_bad_text(exc):
                raise
        with read_exactly(bad_text_files(ds.files)):
            return command(ds, *args, **options)

    return run
