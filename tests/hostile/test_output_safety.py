"""Issue 9, class 3 (output side): `-o` writes nothing where it must not.

`-o` of `diagnose` and `export` never unlinks or replaces what is not a regular file
(a device or FIFO is written as a stream; a socket or directory is refused, naming
the path the user gave), `-o -` is standard output, and no output lands on the run
file or on any review journal, through a symlink or a hard link.
"""

from __future__ import annotations

import json
import os
import socket
import stat
import threading
from pathlib import Path

import pytest

from ragdiag_tui.cli import main

RUNS = [
    {"id": "a", "required": ["D1"], "context": ["D1"], "correct": True},
    {"id": "b", "required": ["D1"], "context": [], "correct": True},
]
COMMANDS = ["diagnose", "export"]


@pytest.fixture
def run_file(tmp_path: Path) -> Path:
    path = tmp_path / "runs.jsonl"
    path.write_text("".join(json.dumps(run) + "\n" for run in RUNS), encoding="utf-8")
    journal = tmp_path / "runs.jsonl.review.jsonl"
    journal.write_text(
        json.dumps(
            {
                "v": 1,
                "run": "b",
                "label": False,
                "note": "",
                "reviewer": "r",
                "at": "2026-11-30T15:00:00Z",
                "digest": "",
            }
        )
        + "\n",
        encoding="utf-8",
    )
    return path


def snapshot(folder: Path) -> dict[str, tuple[str, bytes | str]]:
    """Every entry of the folder: its kind and content (or link target)."""
    out: dict[str, tuple[str, bytes | str]] = {}
    for entry in sorted(folder.iterdir()):
        if entry.is_symlink():
            out[entry.name] = ("symlink", os.readlink(entry))
        elif entry.is_file():
            out[entry.name] = ("file", entry.read_bytes())
        else:
            out[entry.name] = (stat.filemode(entry.lstat().st_mode), b"")
    return out


def run_cli(command: str, run_file: Path, out: str | Path) -> int:
    return main([command, str(run_file), "-o", str(out)])


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize(
    "target",
    [
        "own-journal",
        "other-journal",
        "symlink-to-journal",
        "hardlink-to-journal",
        "symlink-to-run",
        "hardlink-to-run",
    ],
)
def test_output_never_lands_on_the_run_file_or_a_journal(
    run_file: Path, command: str, target: str, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = run_file.parent
    journal = folder / "runs.jsonl.review.jsonl"
    other = folder / "other.jsonl.review.jsonl"
    other.write_text('{"v": 1, "run": "x", "label": true}\n', encoding="utf-8")
    out = {
        "own-journal": journal,
        "other-journal": other,
        "symlink-to-journal": folder / "out.jsonl",
        "hardlink-to-journal": folder / "out.jsonl",
        "symlink-to-run": folder / "out.jsonl",
        "hardlink-to-run": folder / "out.jsonl",
    }[target]
    if target.startswith("symlink"):
        out.symlink_to(journal.name if "journal" in target else run_file.name)
    elif target.startswith("hardlink"):
        os.link(journal if "journal" in target else run_file, out)
    before = snapshot(folder)
    assert run_cli(command, run_file, out) == 2
    assert snapshot(folder) == before
    err = capsys.readouterr().err
    assert str(out) in err
    assert f"cannot write {out}: it is" in err


@pytest.mark.parametrize("command", COMMANDS)
def test_a_fifo_is_written_as_a_stream_and_stays_a_fifo(run_file: Path, command: str) -> None:
    fifo = run_file.parent / "pipe"
    os.mkfifo(fifo)
    received: list[bytes] = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()), daemon=True)
    reader.start()
    code = run_cli(command, run_file, fifo)
    reader.join(timeout=60)
    assert code == 0
    assert stat.S_ISFIFO(fifo.lstat().st_mode)
    lines = [json.loads(line) for line in received[0].splitlines()]
    assert [line["id"] for line in lines] == ["a", "b"]


@pytest.mark.parametrize("command", COMMANDS)
def test_a_symlink_to_a_device_is_written_through_and_stays_a_symlink(run_file: Path, command: str) -> None:
    link = run_file.parent / "null.jsonl"
    link.symlink_to(os.devnull)
    assert run_cli(command, run_file, link) == 0
    assert link.is_symlink() and os.readlink(link) == os.devnull
    assert stat.S_ISCHR(os.stat(os.devnull).st_mode)


@pytest.mark.parametrize("command", COMMANDS)
def test_a_symlink_to_a_regular_file_stays_a_symlink_and_its_file_is_replaced(
    run_file: Path, command: str
) -> None:
    real = run_file.parent / "real.jsonl"
    real.write_text("old\n", encoding="utf-8")
    link = run_file.parent / "link.jsonl"
    link.symlink_to(real.name)
    assert run_cli(command, run_file, link) == 0
    assert link.is_symlink()
    assert [json.loads(line)["id"] for line in real.read_text(encoding="utf-8").splitlines()] == ["a", "b"]


@pytest.mark.parametrize("command", COMMANDS)
def test_a_socket_is_refused_and_left_alone(
    run_file: Path, command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = run_file.parent / "s.sock"
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as server:
        server.bind(str(path))
        assert run_cli(command, run_file, path) == 2
        assert stat.S_ISSOCK(path.lstat().st_mode)
    err = capsys.readouterr().err
    assert f"cannot write {path}: it is a socket" in err


@pytest.mark.parametrize("command", COMMANDS)
def test_a_directory_is_refused_naming_it_and_no_temporary_file(
    run_file: Path, command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = run_file.parent / "out"
    folder.mkdir()
    before = snapshot(run_file.parent)
    assert run_cli(command, run_file, folder) == 2
    err = capsys.readouterr().err
    assert f"cannot write {folder}: it is a directory" in err
    assert ".part" not in err
    assert snapshot(run_file.parent) == before


@pytest.mark.parametrize("command", COMMANDS)
def test_dash_writes_standard_output(
    run_file: Path, command: str, capsysbinary: pytest.CaptureFixture[bytes]
) -> None:
    before = snapshot(run_file.parent)
    assert run_cli(command, run_file, "-") == 0
    out, _ = capsysbinary.readouterr()
    assert [json.loads(line)["id"] for line in out.splitlines()] == ["a", "b"]
    assert snapshot(run_file.parent) == before


def test_export_says_run_for_one_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "one.jsonl"
    path.write_text(json.dumps(RUNS[0]) + "\n", encoding="utf-8")
    assert main(["export", str(path), "-o", str(tmp_path / "out.csv")]) == 0
    assert "exported 1 run to" in capsys.readouterr().err
