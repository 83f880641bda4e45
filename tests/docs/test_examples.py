"""Every shell and Python block of README.md and docs/ runs as written, in a scratch copy of the
repository (`.venv` there is the environment running the tests), with Sybil: a block that fails
fails the build. A block that cannot run (the interactive app, a server, an install into the
environment, a PostgreSQL URL) is marked just above it in the Markdown with the reason:

    <!-- skip: next "the interactive app: it waits for keys" -->

Each page runs in a scratch copy of its own, its blocks in order (a block may use the files an
earlier block of the page wrote); see docs/development.md, "Examples that run".
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import sys
import unittest
from pathlib import Path

import pytest
from sybil import Sybil
from sybil.parsers.markdown import CodeBlockParser, PythonCodeBlockParser, SkipParser

REPO = Path(__file__).resolve().parents[2]
PAGES = sorted(
    [REPO / "README.md", *(REPO / "docs").rglob("*.md")], key=lambda path: path.relative_to(REPO).as_posix()
)
SHELLS = ("sh", "bash", "shell")
LANGUAGES = {*SHELLS, "python", "text", "json", "toml", "yaml", "csv"}  # text and data are shown, not run
BLOCK_SECONDS = 300
LEFT_OUT = (".venv*", ".git", "__pycache__", "*.egg-info", ".pytest_cache", ".ruff_cache", "site", "build")


def run_shell(example: object) -> None:
    """A shell block, run by bash with errors stopping it, in the scratch copy (the cwd); on a
    timeout, everything it started is stopped too."""
    source = example.parsed  # type: ignore[attr-defined]
    process = subprocess.Popen(
        ["bash", "-e", "-o", "pipefail", "-c", source],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        out, err = process.communicate(timeout=BLOCK_SECONDS)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.communicate()
        raise AssertionError(f"still running after {BLOCK_SECONDS} s:\n{source}") from None
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)  # what the block left running in the background
    if process.returncode:
        raise AssertionError(
            f"exit status {process.returncode}\n--- the block\n{source}--- stdout\n{out[-3000:]}"
            f"--- stderr\n{err[-3000:]}"
        )


def environment_for(copy: Path) -> None:
    """`copy/.venv`: the environment running the tests, without its pip, so a block that
    installs (and was not marked) fails instead of changing that environment."""
    venv, real = copy / ".venv", Path(sys.prefix)
    (venv / "bin").mkdir(parents=True)
    shutil.copy(real / "pyvenv.cfg", venv / "pyvenv.cfg")
    for name in ("lib", "lib64", "include"):
        if (real / name).exists():
            (venv / name).symlink_to(real / name)
    for entry in (real / "bin").iterdir():
        if not entry.name.startswith("pip"):
            (venv / "bin" / entry.name).symlink_to(entry)


SYBIL = Sybil(
    parsers=[
        SkipParser(),
        PythonCodeBlockParser(),
        *(CodeBlockParser(language=shell, evaluator=run_shell) for shell in SHELLS),
    ],
    patterns=["*.md"],
)


@pytest.fixture
def scratch(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the repository, its `.venv` the environment running these tests, as the cwd."""
    copy = tmp_path / "repo"
    shutil.copytree(REPO, copy, ignore=shutil.ignore_patterns(*LEFT_OUT), symlinks=True)
    environment_for(copy)
    monkeypatch.chdir(copy)
    monkeypatch.delenv("RAGDIAG_JOURNAL", raising=False)
    monkeypatch.setenv("NO_COLOR", "1")
    return copy


@pytest.mark.parametrize("page", PAGES, ids=lambda path: path.relative_to(REPO).as_posix())
def test_every_example_of_the_page_runs_as_written(page: Path, scratch: Path) -> None:
    document = SYBIL.parse(scratch / page.relative_to(REPO))
    ran = 0
    for example in document:
        try:
            example.evaluate()
        except unittest.SkipTest:
            continue
        except Exception as exc:
            raise AssertionError(f"{page.relative_to(REPO)}, line {example.line}: {exc}") from None
        ran += 1


@pytest.mark.parametrize("page", PAGES, ids=lambda path: path.relative_to(REPO).as_posix())
def test_every_block_says_its_language(page: Path) -> None:
    """A block without a language, or in one this test does not know, would go unchecked."""
    fences = [
        line.strip()[3:].split()[0] if line.strip()[3:].strip() else ""
        for line in page.read_text(encoding="utf-8").splitlines()
        if line.lstrip().startswith("```")
    ]
    opening = fences[::2]
    assert all(language in LANGUAGES for language in opening), (page.name, opening)


def test_a_failing_block_fails_and_a_skipped_one_needs_a_reason(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text(
        '<!-- skip: next "a server" -->\n\n```sh\nexit 3\n```\n\n```sh\nfalse | cat\n```\n', encoding="utf-8"
    )
    examples = list(SYBIL.parse(page))
    examples[0].evaluate()  # the directive
    with pytest.raises(unittest.SkipTest, match="a server"):
        examples[1].evaluate()
    with pytest.raises(AssertionError, match="exit status 1"):
        examples[2].evaluate()
