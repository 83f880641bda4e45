"""Random sequences of the writing commands over one small folder, their outputs aimed at
fresh names, at the files they read and at links to them: no file a command read ever
changes (but the journal it appends to), and a refused command (exit 2) changes nothing."""

from __future__ import annotations

import itertools
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ragdiag_tui.cli import main

from .file_safety import fingerprint, make_folder

INPUTS = ("run", "journal", "baseline", "docs", "tags", "custom", "lake", "bob")
# command: (the inputs it reads, the one it appends to (its journal), the output's suffix)
COMMANDS = {
    "export": (("run", "journal"), None, ".jsonl"),
    "diagnose": (("run",), None, ".jsonl"),
    "report-html": (("run", "journal", "baseline", "docs", "tags"), None, ".html"),
    "report-md": (("run", "journal", "baseline", "docs", "tags"), None, ".md"),
    "sample": (("run", "custom"), "custom", ""),
    "merge": (("run", "bob", "journal"), "journal", ""),
    "sample-dataset": (("lake",), None, ".jsonl"),
}
TARGETS = st.one_of(
    st.tuples(st.just("fresh"), st.sampled_from(["out", "other"])),
    st.tuples(st.sampled_from(["direct", "symlink", "chart"]), st.sampled_from(INPUTS)),
)
STEPS = st.lists(
    st.tuples(st.sampled_from(sorted(COMMANDS)), TARGETS, st.integers(1, 4)), min_size=1, max_size=5
)
_folders = itertools.count()


def _argv(command: str, files: dict[str, Path], out: str, n: int) -> list[str]:
    run = str(files["run"])
    if command == "export":
        return ["export", run, "-o", out]
    if command == "diagnose":
        return ["diagnose", run, "-o", out]
    if command.startswith("report"):
        return [
            "report",
            run,
            "-o",
            out,
            "--baseline",
            str(files["baseline"]),
            "--docs",
            str(files["docs"]),
            "--tags",
            str(files["tags"]),
        ]
    if command == "sample":
        return [
            "sample",
            run,
            "--view",
            "all",
            "-n",
            str(n),
            "--seed",
            str(n),
            "--journal",
            str(files["custom"]),
        ]
    if command == "merge":
        return ["merge", run, str(files["bob"])]
    return [
        "sample",
        str(files["lake"].parent),
        "--engine",
        "duckdb",
        "--view",
        "all",
        "-n",
        str(n),
        "--seed",
        "3",
        "--name",
        f"s{n}",
        "-o",
        out,
    ]


def _target(root: Path, files: dict[str, Path], command: str, target: tuple[str, str]) -> str:
    suffix = COMMANDS[command][2]
    how, what = target
    if how == "fresh":
        return str(root / f"{what}{suffix}")
    if how == "direct":
        return str(files[what])
    name = root / (f"to-{what}{suffix}" if how == "symlink" else "chart")
    if how == "chart":  # the side chart a Markdown report named chart.md writes
        name = root / "chart-stages.svg"
    if not name.is_symlink():
        name.symlink_to(files[what])
    return str(root / "chart.md") if how == "chart" else str(name)


@pytest.mark.xdist_group("hypothesis-files")
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=STEPS)
def test_no_command_changes_what_it_read_and_a_refusal_changes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], steps: list[tuple[str, tuple[str, str], int]]
) -> None:
    root = tmp_path / f"run{next(_folders)}"
    files = make_folder(root)
    files["bob"] = root / "bob.jsonl.review.jsonl"
    shutil.copy(files["journal"], files["bob"])
    for command, target, n in steps:
        out = _target(root, files, command, target)
        before = fingerprint(root)
        capsys.readouterr()
        code = main(_argv(command, files, out, n))
        err = capsys.readouterr().err
        after = fingerprint(root)
        if code == 2:
            assert after == before, (command, target, err)
            continue
        assert code in (0, 1), err
        reads, appends, _ = COMMANDS[command]
        for name in reads:
            if name != appends:
                key = str(files[name].relative_to(root))
                assert after[key] == before[key], (command, target, name, err)
