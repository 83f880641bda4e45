"""A dataset: a folder, a glob, or several run files, of one format (Parquet or JSON Lines).

A dataset is read in place, file by file, by an engine; it is never loaded whole.
Its files are listed once, sorted by their path relative to the dataset's root in
code-point order, so every engine names them, and numbers its runs, the same way:
a run is known by (file relative to root, 1-based line in a JSON Lines file or row in
a Parquet file). CSV, JSON arrays and case files are not dataset formats.
"""

from __future__ import annotations

import glob
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from ..core.common.reads import register_read

Format = Literal["parquet", "jsonl"]
SUFFIXES: dict[str, Format] = {".parquet": "parquet", ".jsonl": "jsonl", ".ndjson": "jsonl"}
JOURNAL_SUFFIX = ".review.jsonl"  # a review journal beside a run file is not a run file
_PARQUET_MAGIC = b"PAR1"
_GLOB_CHARS = frozenset("*?[")


class DatasetError(ValueError):
    """Inputs that are not a dataset (no files, mixed formats, an unreadable path)."""


@dataclass(frozen=True)
class Dataset:
    """The files of a dataset. `files` are sorted by their path relative to `root`."""

    root: Path
    files: tuple[Path, ...]
    format: Format
    left_out: tuple[Path, ...] = ()  # review journals a glob matched: side files, not run files

    def relative(self, path: Path) -> str:
        """A file's name in diagnoses and run ids: its path relative to the root, with '/'."""
        return path.relative_to(self.root).as_posix()

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(self.relative(path) for path in self.files)


def is_glob(text: str) -> bool:
    return not os.path.exists(text) and any(char in _GLOB_CHARS for char in text)


def is_dataset_input(inputs: Sequence[str]) -> bool:
    """Whether command-line inputs name a dataset rather than one run file: several
    inputs, a directory or a glob."""
    return len(inputs) != 1 or os.path.isdir(inputs[0]) or is_glob(inputs[0])


def is_journal(path: Path) -> bool:
    """Whether a file is the tool's review journal (`FILE.review.jsonl`), never a run file."""
    return path.name.endswith(JOURNAL_SUFFIX)


def _format_of(path: Path) -> Format | None:
    """A file's format: by its suffix, else by its content (Parquet's magic number); None
    for a file that is neither (CSV, JSON)."""
    if is_journal(path):
        raise DatasetError(
            f"{path}: is a review journal, not a run file (a dataset's journals are left out of it)"
        )
    known = SUFFIXES.get(path.suffix.lower())
    if known is not None:
        return known
    try:
        with open(path, "rb") as handle:
            head = handle.read(4)
    except OSError as exc:
        raise DatasetError(f"{path}: {exc.strerror or exc}") from None
    return "parquet" if head == _PARQUET_MAGIC else None


def _in_directory(directory: Path) -> list[Path]:
    """The run files under a directory, recursively: by suffix, hidden files and journals left out."""
    found = []
    for dirpath, dirnames, filenames in os.walk(directory, onerror=_raise):
        dirnames[:] = [name for name in dirnames if not name.startswith((".", "_"))]
        for name in filenames:
            path = Path(dirpath, name)
            hidden = name.startswith((".", "_")) or is_journal(path)
            if not hidden and path.suffix.lower() in SUFFIXES:
                found.append(path)
    return found


def _raise(exc: OSError) -> None:
    raise DatasetError(f"{exc.filename}: {exc.strerror or exc}")


def _expand(text: str, left_out: dict[Path, None]) -> list[Path]:
    """The files `text` names; the review journals a glob matches go to `left_out` instead."""
    if os.path.isdir(text):
        return _in_directory(Path(text))
    if is_glob(text):
        matches = [Path(match) for match in glob.glob(text, recursive=True)]
        files = [path for path in matches if path.is_file()]
        left_out.update(dict.fromkeys(path for path in files if is_journal(path)))
        files = [path for path in files if not is_journal(path)]
        for directory in (path for path in matches if path.is_dir()):
            files.extend(_in_directory(directory))
        if not files:
            only = " (only review journals, which are left out)" if left_out else ""
            raise DatasetError(f"{text}: no file matches{only}")
        return files
    if not os.path.exists(text):
        raise DatasetError(f"{text}: no such file or directory")
    if not os.access(text, os.R_OK):
        raise DatasetError(f"{text}: permission denied")
    return [Path(text)]


def open_dataset(inputs: Sequence[str]) -> Dataset:
    """The dataset named by `inputs`: directories (their *.parquet or *.jsonl files,
    recursively), globs, or files. Raises DatasetError for no files, mixed formats, a
    file of another format (CSV, JSON), or an unreadable path. Review journals a glob
    matches are left out (`left_out`); one named on its own is refused."""
    if not inputs:
        raise DatasetError("no dataset given")
    paths: dict[Path, None] = {}
    left_out: dict[Path, None] = {}
    for text in inputs:
        for path in _expand(text, left_out):
            paths[Path(os.path.abspath(path))] = None
    if not paths:
        raise DatasetError(f"{', '.join(inputs)}: no Parquet or JSON Lines files")
    formats: dict[Format, Path] = {}
    for path in paths:
        fmt = _format_of(path)
        if fmt is None:
            raise DatasetError(
                f"{path}: not a dataset file: a dataset is Parquet (.parquet) or JSON Lines (.jsonl) "
                "files (CSV, JSON and case files are read one at a time, without --engine)"
            )
        formats.setdefault(fmt, path)
    if len(formats) > 1:
        named = " and ".join(f"{fmt} ({path})" for fmt, path in formats.items())
        raise DatasetError(f"a dataset holds files of one format, not {named}")
    root = Path(os.path.commonpath([os.path.dirname(path) for path in paths]))
    files = tuple(sorted(paths, key=lambda path: path.relative_to(root).as_posix()))
    for path in files:
        register_read(path, f"a file of the dataset {root}")
    return Dataset(root, files, next(iter(formats)), tuple(left_out))
