"""Keys typed in one burst (or pasted) land where the reviewer meant them.

Each test writes the whole burst to the real `ragdiag-tui` in a pseudo-terminal
with ONE write(), as a fast typist or a paste does, so every key is read before
the first is handled. Keys meant for a box (the filter, the note) must go into the
box, and none may act on a run.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from ragdiag_tui.core.review.journal import journal_path

from .terminal import Terminal

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="no pseudo-terminals here")

CTRL_S = b"\x13"


def write_runs(folder: Path) -> Path:
    runs: list[dict[str, Any]] = [
        {"id": f"run-{n}", "required": ["D1"], "context": [] if n % 2 else ["D1"], "correct": True}
        for n in range(6)
    ]
    runs[3]["question"] = "Which nyc borough is largest?"
    runs[5]["question"] = "Is llama a model?"  # a lucky answer
    runs[4]["question"] = "What is llama guard?"  # a pass: all runs has two llamas, lucky answers one
    path = folder / "runs.jsonl"
    path.write_text("".join(json.dumps(run) + "\n" for run in runs), encoding="utf-8")
    return path


def journal_lines(path: Path) -> list[dict[str, Any]]:
    journal = Path(journal_path(path))
    if not journal.exists():
        return []
    return [json.loads(line) for line in journal.read_text(encoding="utf-8").splitlines() if line.strip()]


@pytest.fixture
def terminal(tmp_path: Path):
    write_runs(tmp_path)
    term = Terminal("runs.jsonl", "--reviewer", "typist", cwd=tmp_path)
    term.wait_for(lambda: b"0/6" in term.screen)  # loaded: "reviewed 0/6"
    yield term
    term.kill()


def test_a_burst_after_slash_goes_into_the_filter_and_labels_nothing(
    terminal: Terminal, tmp_path: Path
) -> None:
    terminal.press(b"/nyc")
    terminal.wait_for(lambda: b"1 of 6 shown" in terminal.screen)  # the filter holds "nyc": one match
    # `n`, `y` and `c` would have labelled the run and opened the note box
    terminal.press(b"\x1b")  # escape: the filter is cleared, all six again
    terminal.wait_for(lambda: terminal.screen.rfind(b"6 of 6 shown") > terminal.screen.rfind(b"1 of 6 shown"))
    assert journal_lines(tmp_path / "runs.jsonl") == []
    assert b"Note on run" not in terminal.screen


def test_a_burst_from_the_lucky_view_filters_within_it(terminal: Terminal, tmp_path: Path) -> None:
    terminal.press(b"L")
    terminal.wait_for(lambda: b"3 of 6 shown" in terminal.screen)  # the lucky answers: run-1, run-3, run-5
    terminal.press(b"/llama")  # `l` and `a` are view keys: they must not switch views
    terminal.wait_for(lambda: b"1 of 6 shown" in terminal.screen)
    # one match: still the lucky view (`l` or `a` switching views would show two or none)
    assert journal_lines(tmp_path / "runs.jsonl") == []


def test_a_view_key_then_slash_in_one_burst_filters_that_view(terminal: Terminal, tmp_path: Path) -> None:
    # `L` moves focus back to the table; `/` must still win for the keys after it
    terminal.press(b"L/llama")  # `l`, `a`: view keys; `m`: nothing
    terminal.wait_for(lambda: b"1 of 6 shown" in terminal.screen)
    assert journal_lines(tmp_path / "runs.jsonl") == []


def test_a_burst_after_c_goes_into_the_note(terminal: Terminal, tmp_path: Path) -> None:
    path = tmp_path / "runs.jsonl"
    terminal.press(b"cnyc y n" + CTRL_S)  # open the note, type, save: all in one write
    terminal.wait_for(lambda: len(journal_lines(path)) >= 1)
    entries = journal_lines(path)
    assert len(entries) == 1, entries  # the note, and no label from `n` or `y`
    assert entries[0]["run"] == "run-0"
    assert entries[0]["note"] == "nyc y n"
    assert entries[0]["label"] is None


def test_keys_typed_after_ctrl_s_reach_the_run_not_the_note(terminal: Terminal, tmp_path: Path) -> None:
    path = tmp_path / "runs.jsonl"
    terminal.press(b"cnote" + CTRL_S + b"y")  # save the note, then label the run: one write
    terminal.wait_for(lambda: len(journal_lines(path)) >= 2)
    entries = journal_lines(path)
    assert [(entry["run"], entry["note"], entry["label"]) for entry in entries] == [
        ("run-0", "note", None),
        ("run-0", "note", True),
    ], entries


def test_keys_typed_at_launch_act_once_the_runs_are_in(tmp_path: Path) -> None:
    # Launched and typed at once, as from a shell: the keys wait in the terminal while the app
    # starts, and reach it before the review screen has a row (they were lost).
    path = write_runs(tmp_path)
    term = Terminal("runs.jsonl", "--reviewer", "typist", cwd=tmp_path)
    try:
        term.press(b"jjyjn")
        term.wait_for(lambda: len(journal_lines(path)) >= 2)
        assert [(entry["run"], entry["label"]) for entry in journal_lines(path)] == [
            ("run-2", True),
            ("run-3", False),
        ]
    finally:
        term.kill()


def test_a_burst_through_the_command_palette_runs_the_command_typed_then_acts_on_the_runs(
    terminal: Terminal, tmp_path: Path
) -> None:
    path = tmp_path / "runs.jsonl"
    terminal.press(b"\x10correct\rjn")  # ctrl+p, the command, enter, then the next run labelled incorrect
    terminal.wait_for(lambda: len(journal_lines(path)) >= 2)
    # enter picked what the search before had highlighted, and "jn" went into the palette
    assert [(entry["run"], entry["label"]) for entry in journal_lines(path)] == [
        ("run-0", True),
        ("run-1", False),
    ]
