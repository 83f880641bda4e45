"""The hostile corpus: its manifest, the cases generated at run time, and how to read outputs.

`tests/data/hostile/MANIFEST.json` says, for each file, what must happen: `loads`,
`line-errors` (some lines invalid, the rest diagnosed) or `file-error` (refused as a
whole), how many runs load, which physical lines are invalid and, often, the exact
diagnosis of each run by id. The cases too big or too odd to keep in git (a 10 MB line,
10,000 required IDs, a directory, a missing file, an unreadable file, a named pipe) are
listed under `generated` and built here.
"""

from __future__ import annotations

import json
import math
import os
import stat
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

DATA = Path(__file__).resolve().parents[1] / "data" / "hostile"
MANIFEST: dict[str, Any] = json.loads((DATA / "MANIFEST.json").read_text(encoding="utf-8"))
GENERATED: dict[str, Any] = MANIFEST["generated"]
FILES = sorted(name for name in MANIFEST if name != "generated")
EXIT_CODE = {"loads": 0, "line-errors": 1, "file-error": 2}

# Files the app is run on one row at a time (every corpus file but the generated giants).
SMALL_FILES = FILES

HUGE_QUESTION = 10 * 1024 * 1024  # characters in the 10 MB line's question
N_REQUIRED = 10_000


@dataclass
class Case:
    """One corpus case, as a path the test may read (a private copy or a generated file)."""

    name: str
    path: Path
    expect: str
    runs: int
    invalid_lines: list[int]
    diagnoses: dict[str, Any] = field(default_factory=dict)

    @property
    def exit_code(self) -> int:
        return EXIT_CODE[self.expect]


def case_of(name: str, path: Path, spec: dict[str, Any], diagnoses: dict[str, Any] | None = None) -> Case:
    return Case(
        name,
        path,
        spec["expect"],
        spec["runs"],
        list(spec["invalid_lines"]),
        dict(spec.get("diagnoses", {}) if diagnoses is None else diagnoses),
    )


def js_sort(ids: list[str]) -> list[str]:
    """JavaScript's default sort, by UTF-16 code units: written here from the spec, not imported."""
    return sorted(ids, key=lambda s: s.encode("utf-16-be", "surrogatepass"))


# -- generated cases ---------------------------------------------------------------------


def _huge_line(folder: Path) -> tuple[Path, dict[str, Any]]:
    path = folder / "huge_line_10mb.jsonl"
    runs = [
        {"id": "before", "required": ["D1"], "context": ["D1"], "correct": True},
        {
            "id": "huge",
            "question": "Q[/]" + "x" * HUGE_QUESTION,
            "required": ["D1", "D2"],
            "context": ["D2"],
            "correct": False,
        },
        {"id": "after", "required": ["D1"], "context": ["D1"], "correct": False},
    ]
    path.write_text("".join(json.dumps(run) + "\n" for run in runs), encoding="utf-8")
    diagnoses = {
        "before": {"stage": "pass", "missing": []},
        "huge": {"stage": "retrieval", "missing": ["D1"]},
        "after": {"stage": "generation", "missing": []},
    }
    return path, diagnoses


def ten_thousand_ids() -> tuple[list[str], list[str]]:
    """10,000 distinct required IDs (every seventh astral) and the half supplied."""
    required = [f"\U0001f600doc-{n}" if n % 7 == 0 else f"doc-{n}" for n in range(N_REQUIRED)]
    return required, required[::2]


def _ten_thousand(folder: Path) -> tuple[Path, dict[str, Any]]:
    path = folder / "ten_thousand_required.jsonl"
    required, context = ten_thousand_ids()
    run = {"id": "ten-thousand", "required": required, "context": context, "correct": True}
    path.write_text(json.dumps(run, ensure_ascii=False) + "\n", encoding="utf-8")
    missing = js_sort(sorted(set(required) - set(context)))
    return path, {"ten-thousand": {"stage": "retrieval", "missing": missing}}


def _directory(folder: Path) -> tuple[Path, dict[str, Any]]:
    path = folder / "a_directory.jsonl"
    path.mkdir()
    return path, {}


def _missing(folder: Path) -> tuple[Path, dict[str, Any]]:
    return folder / "no_such_file.jsonl", {}


def _no_permission(folder: Path) -> tuple[Path, dict[str, Any]]:
    if os.geteuid() == 0:
        pytest.skip("running as root: mode 000 does not stop reads (see test_unreadable_file_is_refused)")
    path = folder / "no_read_permission.jsonl"
    path.write_text('{"id": "secret", "required": ["D1"], "context": ["D1"], "correct": true}\n')
    path.chmod(0)
    return path, {}


def _fifo(folder: Path) -> tuple[Path, dict[str, Any]]:
    if not hasattr(os, "mkfifo"):
        pytest.skip("no named pipes on this system")
    path = folder / "a_fifo.jsonl"
    os.mkfifo(path)
    return path, {}


BUILDERS: dict[str, Callable[[Path], tuple[Path, dict[str, Any]]]] = {
    "huge_line_10mb.jsonl": _huge_line,
    "ten_thousand_required.jsonl": _ten_thousand,
    "directory": _directory,
    "missing_file": _missing,
    "no_read_permission": _no_permission,
    "fifo": _fifo,
}
GENERATED_NAMES = sorted(GENERATED)
ALL_NAMES = [*FILES, *GENERATED_NAMES]
READABLE_NAMES = [  # the cases that load, wholly or with line errors
    name for name in ALL_NAMES if (GENERATED.get(name) or MANIFEST.get(name))["expect"] != "file-error"
]


def make_case(name: str, folder: Path) -> Case:
    """The case `name` as a file in `folder`: a copy of a corpus file, or generated."""
    if name in GENERATED:
        path, diagnoses = BUILDERS[name](folder)
        return case_of(name, path, GENERATED[name], diagnoses or None)
    path = folder / name
    path.write_bytes((DATA / name).read_bytes())
    return case_of(name, path, MANIFEST[name])


# -- reading what was written ----------------------------------------------------------------


def _exact_int(text: str) -> Any:
    try:
        return int(text)
    except ValueError:  # over Python's 4,300-digit limit: compare the digits
        return ("integer", text)


def _exact_float(text: str) -> Any:
    value = float(text)
    mantissa = text.lower().split("e")[0]
    if math.isinf(value) or (value == 0.0 and mantissa.strip("-0.")):  # overflow or underflow
        return ("number", text)
    return value


def _constant(text: str) -> Any:
    return ("constant", text)  # NaN, Infinity, -Infinity: compared by their spelling


exact_json = json.JSONDecoder(parse_int=_exact_int, parse_float=_exact_float, parse_constant=_constant).decode
"""JSON decoding that keeps numbers no Python float or int holds (1e400, 5,000 digits, NaN) as text."""


def is_safe_for_terminal(text: str) -> bool:
    """No raw control character (but newline), lone surrogate or bidi override in `text`."""
    for char in text:
        if char == "\n":
            continue
        category = unicodedata.category(char)
        if category in ("Cc", "Cs") or char in "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069":
            return False
    return True


def is_regular_file(path: Path) -> bool:
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        return False


# What a refused file's message must say, beyond its name.
FILE_ERROR_WORDS = {
    "utf16le_bom.jsonl": "UTF-16",
    "utf16be_bom.jsonl": "UTF-16",
    "empty.jsonl": "empty",
    "whitespace_only.jsonl": "empty",
    "directory": "directory",
    "missing_file": "no such file",
    "no_read_permission": "permission denied",
    "fifo": "not a regular file",
}
