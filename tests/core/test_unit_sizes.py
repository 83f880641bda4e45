"""Units a reader can hold: no class in ragdiag_tui over 300 lines, no function over 60.

Measured from the source (the `def` or `class` line to the unit's last line, its
docstring included). The second test proves an oversized unit is reported.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "ragdiag_tui"
MAX_CLASS_LINES = 300
MAX_FUNCTION_LINES = 60


def oversized(root: Path) -> list[str]:
    """`path:line name (N lines)` of every class and function over its limit under `root`."""
    found = []
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                limit = MAX_CLASS_LINES
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                limit = MAX_FUNCTION_LINES
            else:
                continue
            lines = node.end_lineno - node.lineno + 1  # type: ignore[operator]
            if lines > limit:
                found.append(f"{path.relative_to(root.parent)}:{node.lineno} {node.name} ({lines} lines)")
    return found


def test_no_class_or_function_of_the_package_is_over_its_limit() -> None:
    assert oversized(PACKAGE) == []


def test_an_oversized_function_and_class_are_reported(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    package.mkdir()
    body = "".join(f"    x{i} = {i}\n" for i in range(MAX_FUNCTION_LINES))
    methods = "".join(f"    def m{i}(self):\n        return {i}\n\n" for i in range(MAX_CLASS_LINES // 3 + 1))
    (package / "big.py").write_text(f"def long():\n{body}\n\nclass Large:\n{methods}")
    found = oversized(package)
    assert [entry.split(" ")[1] for entry in found] == ["long", "Large"]
