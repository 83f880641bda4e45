"""Issue 9, class 5 (CLI side): `diagnose` output to a terminal never carries raw controls.

JSON escapes C0 controls but leaves DEL, C1 controls (CSI is one byte there) and bidi
overrides raw. On a terminal they are written as \\u escapes: the same JSON, shown
rather than obeyed. Output to a file or pipe stays byte-for-byte as before.
"""

from __future__ import annotations

import json
import os
import pty
import subprocess
import sys
from pathlib import Path

HOSTILE_ID = "a\x7f\x9b31m\u202eevil\u2066x"


def _run_file(tmp_path: Path) -> Path:
    path = tmp_path / "runs.jsonl"
    run = {"id": HOSTILE_ID, "required": ["D1"], "context": ["D1"], "correct": True}
    bad = {"id": HOSTILE_ID + "2", "required": "D1"}
    path.write_text(json.dumps(run, ensure_ascii=False) + "\n" + json.dumps(bad, ensure_ascii=False) + "\n")
    return path


def test_diagnose_to_a_terminal_escapes_c1_del_and_bidi_controls(tmp_path: Path) -> None:
    path = _run_file(tmp_path)
    controller, terminal = pty.openpty()
    try:
        done = subprocess.run(
            [sys.executable, "-m", "ragdiag_tui", "diagnose", str(path)],
            stdout=terminal,
            stderr=subprocess.PIPE,
            timeout=60,
            check=False,
        )
        os.close(terminal)
        terminal = -1
        shown = b""
        while True:
            try:
                chunk = os.read(controller, 65536)
            except OSError:  # EIO: the terminal's other side is closed and drained
                break
            if not chunk:
                break
            shown += chunk
    finally:
        os.close(controller)
        if terminal >= 0:
            os.close(terminal)
    assert done.returncode == 1
    text = shown.decode("utf-8")
    for char in "\x7f\x9b\u202e\u2066":
        assert char not in text
    lines = [json.loads(line) for line in text.splitlines() if line.strip()]
    assert [line["id"] for line in lines] == [HOSTILE_ID, HOSTILE_ID + "2"]


def test_diagnose_to_a_file_keeps_the_text_as_it_was(tmp_path: Path) -> None:
    path = _run_file(tmp_path)
    out = tmp_path / "out.jsonl"
    subprocess.run(
        [sys.executable, "-m", "ragdiag_tui", "diagnose", str(path), "-o", str(out)], timeout=60, check=False
    )
    text = out.read_text(encoding="utf-8")
    assert "\x9b" in text
    assert [json.loads(line)["id"] for line in text.splitlines()] == [HOSTILE_ID, HOSTILE_ID + "2"]
