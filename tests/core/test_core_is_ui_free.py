"""The pure core imports neither Textual nor Rich: proved in a fresh interpreter."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys

CORE_MODULES = [
    "ragdiag_tui",
    "ragdiag_tui.rule",
    "ragdiag_tui.models",
    "ragdiag_tui.loading",
    "ragdiag_tui.store",
    "ragdiag_tui.review",
    "ragdiag_tui.journal",
    "ragdiag_tui.filtering",
    "ragdiag_tui.stats",
    "ragdiag_tui.batch",
    "ragdiag_tui.text",
    "ragdiag_tui.atomic",
    "ragdiag_tui.export",
    "ragdiag_tui.explain",
    "ragdiag_tui.mapping",
    "ragdiag_tui.csv_runs",
    "ragdiag_tui.cli",
]

PROBE = """
import importlib, json, sys
for name in json.loads(sys.argv[1]):
    importlib.import_module(name)
from ragdiag_tui.cli import build_parser
build_parser().format_help()
print(json.dumps(sorted(m for m in sys.modules if m.split(".")[0] in ("textual", "rich"))))
"""


def present(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except ModuleNotFoundError:
        return False


def test_core_and_cli_import_neither_textual_nor_rich() -> None:
    modules = [name for name in CORE_MODULES if present(name)]
    assert "ragdiag_tui.cli" in modules and "ragdiag_tui.rule" in modules
    done = subprocess.run(
        [sys.executable, "-c", PROBE, json.dumps(modules)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == []


def test_the_probe_would_notice_textual() -> None:
    # The check above means something only if importing the UI does load Textual.
    done = subprocess.run(
        [sys.executable, "-c", "import sys, textual.app; print('textual' in sys.modules)"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.stdout.strip() == "True"
