"""Crashes on the way in and out (issue 37): an id holding a lone surrogate printed as `--json`
prints it, to a pipe, a file or a terminal, never a UnicodeEncodeError; a journal that is a
device or a FIFO refused at once instead of read without end; an error without a file name
(a full disk) naming the output instead of `None`."""

from __future__ import annotations

import errno
import json
import os
import pty
import select
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from ragdiag_tui.cli import main

SURROGATE_RUNS = (
    '{"id": "a\\ud800b", "required": ["x"], "context": ["x"], "correct": true}\n'
    '{"id": "plain", "required": ["x"], "context": ["x"], "correct": false}\n'
)
REPO = str(Path(__file__).resolve().parents[2])
ENV = {**os.environ, "PYTHONPATH": REPO}  # the package as checked out, wherever the test runs it from
SAMPLE = ("sample", "--view", "all", "-n", "5", "--seed", "1")


def _runs(tmp_path: Path) -> Path:
    path = tmp_path / "runs.jsonl"
    path.write_text(SURROGATE_RUNS, encoding="utf-8")
    return path


def _cli(*args: str, timeout: float = 120, **options: Any) -> subprocess.CompletedProcess[bytes]:
    command = [sys.executable, "-m", "ragdiag_tui", *args]
    return subprocess.run(command, capture_output=True, timeout=timeout, env=ENV, **options)


def _json_ids(args: list[str], cwd: Path) -> list[str]:
    done = _cli(*args, "--json", "--name", "as-json", cwd=cwd)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)["ids"]


@pytest.mark.parametrize("dataset", [False, True])
def test_a_surrogate_id_is_printed_to_a_pipe_escaped_as_json_prints_it(tmp_path: Path, dataset: bool) -> None:
    path = _runs(tmp_path)
    args = [SAMPLE[0], str(path), *SAMPLE[1:]] + (["--engine", "duckdb", "-o", "s.jsonl"] if dataset else [])
    if dataset:
        pytest.importorskip("duckdb")
    done = _cli(*args, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert b"Traceback" not in done.stderr
    printed = done.stdout.decode("ascii").split()
    if dataset:  # with -o the ids go to the sample file, the summary to stderr (issue 39, item 10)
        assert printed == [] and b"written to s.jsonl" in done.stderr
    else:
        assert sorted(printed) == ["a\\ud800b", "plain"]  # the escape JSON writes, in the JSON's own words
    shown = json.dumps(_json_ids(args, tmp_path))
    assert all(json.dumps(run_id, ensure_ascii=True)[1:-1] in shown for run_id in ("a\ud800b", "plain"))


def test_a_surrogate_id_is_printed_to_a_file_and_to_a_terminal(tmp_path: Path) -> None:
    path = _runs(tmp_path)
    with open(tmp_path / "out.txt", "wb") as out:  # writes-ok: the test's own stdout file
        done = subprocess.run(
            [sys.executable, "-m", "ragdiag_tui", SAMPLE[0], str(path), *SAMPLE[1:], "--name", "f"],
            stdout=out, stderr=subprocess.PIPE, timeout=120, env=ENV,
        )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert sorted((tmp_path / "out.txt").read_bytes().split()) == [b"a\\ud800b", b"plain"]
    leader, follower = pty.openpty()
    process = subprocess.Popen(
        [sys.executable, "-m", "ragdiag_tui", SAMPLE[0], str(path), *SAMPLE[1:], "--name", "t"],
        stdout=follower, stderr=subprocess.PIPE, env=ENV,
    )  # fmt: skip
    os.close(follower)
    seen = b""
    deadline = time.monotonic() + 120
    while process.poll() is None or select.select([leader], [], [], 0)[0]:
        if time.monotonic() > deadline:
            process.kill()
            break
        if select.select([leader], [], [], 0.1)[0]:
            try:
                seen += os.read(leader, 4096)
            except OSError:  # the terminal closed with the process
                break
    os.close(leader)
    assert process.wait() == 0, process.stderr.read() if process.stderr else ""
    assert b"a\\ud800b" in seen and b"plain" in seen


def test_an_error_without_a_file_name_names_the_output(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    from ragdiag_tui.cli import parser

    path = _runs(tmp_path)

    def full_disk(args: Any) -> int:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setitem(parser.HANDLERS, "export", full_disk)
    assert main(["export", str(path), "-o", str(tmp_path / "out.jsonl")]) == 2
    err = capsys.readouterr().err
    assert "None" not in err
    assert f"{tmp_path / 'out.jsonl'}: No space left on device" in err


@pytest.mark.parametrize("kind", ["device", "fifo"])
def test_a_journal_that_is_a_device_or_a_fifo_is_refused_at_once(tmp_path: Path, kind: str) -> None:
    path = _runs(tmp_path)
    journal = "/dev/zero"
    if kind == "fifo":
        journal = str(tmp_path / "journal.fifo")
        os.mkfifo(journal)
    done = _cli("stats", str(path), "--journal", journal, timeout=60)
    assert done.returncode == 2
    assert b"not a regular file" in done.stderr and b"Traceback" not in done.stderr
