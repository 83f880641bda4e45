"""Every command that writes, against every file it reads: named directly, through a symlink,
through a hard link, or as a Markdown report's side chart, the output is refused naming what
the file is, with exit 2, and every file in the folder is byte for byte as it was."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from ragdiag_tui.cli import main

from .file_safety import aim, fingerprint, make_folder

Argv = Callable[[dict[str, Path], Path], list[str]]
REPORT_INPUTS = ["--baseline", "{baseline}", "--docs", "{docs}", "--tags", "{tags}"]


def report(suffix: str) -> Argv:
    def argv(files: dict[str, Path], target: Path) -> list[str]:
        named = {key: str(path) for key, path in files.items()}
        return [
            "report",
            named["run"],
            "-o",
            str(target.with_suffix(suffix)) if target.suffix != suffix else str(target),
            *(part.format(**named) for part in REPORT_INPUTS),
        ]

    return argv


def dataset_report(suffix: str) -> Argv:
    """`report DATASET`: its files, the journal it applies, its corpus and tags read."""

    def argv(files: dict[str, Path], target: Path) -> list[str]:
        inputs = [
            "--journal",
            str(files["custom"]),
            "--docs",
            str(files["docs"]),
            "--tags",
            str(files["tags"]),
        ]
        return ["report", str(files["lake"].parent), "-o", str(target.with_suffix(suffix)), *inputs]

    return argv


COMMANDS: dict[str, tuple[Argv, tuple[str, ...]]] = {
    # name: (argv for an output target, the inputs it reads)
    "export": (lambda f, t: ["export", str(f["run"]), "-o", str(t)], ("run", "journal")),
    "export --journal": (
        lambda f, t: ["export", str(f["run"]), "--journal", str(f["custom"]), "-o", str(t)],
        ("run", "custom"),
    ),
    "diagnose -o": (lambda f, t: ["diagnose", str(f["run"]), "-o", str(t)], ("run",)),
    "report .html": (report(".html"), ("run", "journal", "baseline", "docs", "tags")),
    "report .md": (report(".md"), ("run", "journal", "baseline", "docs", "tags")),
    "report dataset .html": (dataset_report(".html"), ("lake", "custom", "docs", "tags")),
    "report dataset .md": (dataset_report(".md"), ("lake", "custom", "docs", "tags")),
    "sample dataset": (
        lambda f, t: [
            "sample",
            str(f["lake"].parent),
            "--engine",
            "duckdb",
            "--view",
            "all",
            "-n",
            "2",
            "--seed",
            "1",
            "-o",
            str(t),
        ],
        ("lake",),
    ),
    "sample --journal": (
        lambda f, t: [
            "sample",
            str(f["run"]),
            "--view",
            "all",
            "-n",
            "2",
            "--seed",
            "5",
            "--journal",
            str(t),
        ],
        ("run",),
    ),
    "merge --journal": (
        lambda f, t: ["merge", str(f["run"]), str(f["bob"]), "--journal", str(t)],
        ("run", "bob"),
    ),
}
WHAT = {
    "run": "the run file",
    "journal": "journal",
    "custom": "the review journal",
    "baseline": "the --baseline run file",
    "docs": "the --docs corpus",
    "tags": "the tags file",
    "lake": "dataset",
    "bob": "journal",
}


def _markdown(command: str) -> bool:
    return command.startswith("report") and command.endswith(".md")


CASES = [
    (command, read, how)
    for command, (_, inputs) in COMMANDS.items()
    for read in inputs
    for how in ("direct", "symlink", "hardlink", *(("side chart",) if _markdown(command) else ()))
    # A report is named .html or .md: no file it reads can be its direct target. A journal
    # merged into itself is skipped as its own journal (exit 1, nothing written): test_merge.py.
    if not (command.startswith("report") and how == "direct")
    and (command, read, how) != ("merge --journal", "bob", "direct")
]


@pytest.fixture
def folder(tmp_path: Path) -> dict[str, Path]:
    files = make_folder(tmp_path / "f")
    files["bob"] = tmp_path / "f" / "bob.jsonl.review.jsonl"
    shutil.copy(files["journal"], files["bob"])
    return files


@pytest.mark.parametrize(("command", "read", "how"), CASES, ids=["-".join(case) for case in CASES])
def test_a_writer_never_lands_on_a_file_its_command_read(
    folder: dict[str, Path], capsys: pytest.CaptureFixture[str], command: str, read: str, how: str
) -> None:
    argv, _ = COMMANDS[command]
    root = folder["run"].parent
    suffix = ".md" if _markdown(command) else ".html" if command.startswith("report") else ".jsonl"
    if how == "side chart":
        aim(root / "out-stages.svg", folder[read], "symlink")
        target = root / "out.md"
    else:
        target = aim(root / f"out{suffix}", folder[read], how)
    before = fingerprint(root)
    capsys.readouterr()
    code = main(argv(folder, target))
    err = capsys.readouterr().err
    assert code == 2, err
    assert WHAT[read] in err, err
    assert "cannot write" in err or "refused" in err or "is a file of the dataset" in err, err
    assert fingerprint(root) == before
