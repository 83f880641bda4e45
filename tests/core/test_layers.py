"""The layering is a contract checked by import-linter (contracts in pyproject.toml).

core imports neither ui, cli, Textual nor Rich; ui never imports cli. The second
test proves the checker would notice a breach, so the first cannot pass vacuously.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RUN_LINTER = (
    "import sys; sys.path.insert(0, sys.argv.pop(1)); "
    "from importlinter.cli import lint_imports_command; lint_imports_command()"
)


def lint_imports(repo: Path) -> subprocess.CompletedProcess[str]:
    # The checked copy goes first on sys.path, so the linter reads that tree's imports.
    return subprocess.run(
        [sys.executable, "-c", RUN_LINTER, str(repo), "--no-cache"],
        cwd=repo,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_import_contracts_are_kept() -> None:
    done = lint_imports(ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 broken" in done.stdout


def test_a_core_module_importing_textual_breaks_the_contract(tmp_path: Path) -> None:
    copy = tmp_path / "repo"
    shutil.copytree(ROOT / "ragdiag_tui", copy / "ragdiag_tui", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", copy / "pyproject.toml")
    (copy / "ragdiag_tui" / "core" / "leak.py").write_text("import textual.app\n")
    done = lint_imports(copy)
    assert done.returncode != 0
    assert "BROKEN" in done.stdout
    assert "ragdiag_tui.core.leak" in done.stdout
