"""What a new user meets around the code: the test summary says why tests were skipped, the files
the README's steps write stay out of `git status`, the `--help` examples run as printed, and the
README states the rule in its own order."""

from __future__ import annotations

import re
import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest

from ragdiag_tui.cli import build_parser

REPO = Path(__file__).resolve().parents[2]


def test_the_test_summary_says_why_tests_were_skipped() -> None:
    options = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["pytest"]
    flags = options["ini_options"]["addopts"].split()
    assert any(flag.startswith("-r") and "s" in flag[2:] for flag in flags), flags


def outputs_of_readme_steps() -> list[str]:
    """Every file a command of the README writes (`-o FILE`), and the report `r` writes."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    written = re.findall(r"\.venv/bin/ragdiag-tui [^\n]*?-o (\S+)", readme)
    assert "reviewed.csv" in written and "report.html" in written
    return [*written, "sample_runs/demo.report.html", "sample_runs/demo.report.md"]


@pytest.mark.skipif(shutil.which("git") is None or not (REPO / ".git").exists(), reason="not a git checkout")
def test_the_files_the_readme_steps_write_are_ignored_by_git() -> None:
    for name in outputs_of_readme_steps():
        done = subprocess.run(
            ["git", "check-ignore", "--no-index", "-q", name], cwd=REPO, capture_output=True, check=False
        )
        assert done.returncode == 0, f"{name} is not in .gitignore"


def test_the_help_examples_have_no_gap_inside_a_command() -> None:
    """A wrapped example ends its line with a backslash, so it runs when pasted as printed."""
    for line in build_parser().format_help().splitlines():
        assert not re.search(r"\S {3,}--", line), line
        if line.rstrip().endswith("\\"):
            assert line.rstrip().endswith(" \\"), line


def test_the_readme_states_the_rule_in_its_own_order() -> None:
    """The label's type is checked before the documents (rule step 2 before step 3)."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert "Context is checked first" not in readme
    section = readme[readme.index("## The rule, in brief") :]
    assert section.index("label's type is checked first") < section.index("1. No `required`")
    assert section.index("**answer-label**") < section.index("**retrieval**")


def test_the_docs_extra_takes_a_material_that_prints_no_end_of_life_banner() -> None:
    """Material 9.7 and later print a boxed end-of-life notice on every mkdocs run."""
    from packaging.requirements import Requirement

    extras = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    (material,) = [Requirement(r) for r in extras["optional-dependencies"]["docs"] if "material" in r]
    assert "9.6.23" in material.specifier and "9.7.0" not in material.specifier
