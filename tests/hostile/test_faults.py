"""Faults: killed sessions and exports, torn and stale journals, full disks, two writers.

Each test makes one thing go wrong and checks that no label is lost, nothing crashes,
and the reviewer is told. Kills are real (SIGKILL to a subprocess, see `drivers.py`);
a full disk or a read-only folder is simulated by making `os.fsync`, `os.write` or
`os.open` fail, since the tests run as root.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import queue
import signal
import subprocess
import sys
import threading
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Input, Static

from ragdiag_tui.cli import main
from ragdiag_tui.core.common import atomic
from ragdiag_tui.core.output.export import ExportError, export_runs
from ragdiag_tui.core.review.journal import Journal, journal_path
from ragdiag_tui.core.review.records import Entry, JournalError, utc_now
from ragdiag_tui.core.review.state import Review
from ragdiag_tui.core.runs.store import RunStore
from ragdiag_tui.ui.app import create_app
from ragdiag_tui.ui.screens.confirm import ConfirmDialog
from ragdiag_tui.ui.screens.export import ExportDialog
from ragdiag_tui.ui.screens.review.screen import ReviewScreen

from ..ui.helpers import (
    actions_on_screen,
    detail_text,
    record_notifications,
    screen_lines,
    screen_text,
    settled,
    toast_texts,
)
from .corpus import is_safe_for_terminal
from .terminal import Terminal

SIZE = (100, 30)  # a cramped terminal: hostile text must not break the layout

DRIVERS = Path(__file__).with_name("drivers.py")
KILL_AFTER = 8  # label changes confirmed before the review session is killed


def run(run_id: str, *, missing: bool = False, label: Any = True, **extra: Any) -> dict[str, Any]:
    return {
        "id": run_id,
        "required": ["D1", "D2"],
        "context": ["D1"] if missing else ["D1", "D2"],
        "correct": label,
        **extra,
    }


def write_runs(path: Path, runs: list[Any]) -> Path:
    lines = (item if isinstance(item, str) else json.dumps(item, ensure_ascii=False) for item in runs)
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path


def open_review(path: Path, reviewer: str = "tester") -> Review:
    """A fresh review of the file, as a restart would open it."""
    return Review(RunStore.load(path), Journal(journal_path(path)), reviewer)


def files_in(folder: Path) -> set[str]:
    return {entry.name for entry in folder.iterdir()}


# -- subprocesses -------------------------------------------------------------------------------


class Driver:
    """A `drivers.py` subprocess and the JSON messages it prints."""

    def __init__(self, *args: str | os.PathLike[str]) -> None:
        self.process = subprocess.Popen(
            [sys.executable, str(DRIVERS), *map(os.fspath, args)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
        self.messages: queue.Queue[dict[str, Any]] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.messages.put(json.loads(line))

    def expect(self, key: str, timeout: float = 30.0) -> dict[str, Any]:
        """The next message; fails (with the driver's stderr) if it does not come in time."""
        try:
            message = self.messages.get(timeout=timeout)
        except queue.Empty:
            self.process.kill()
            _, err = self.process.communicate()
            raise AssertionError(f"no {key!r} from the driver; stderr:\n{err}") from None
        assert key in message, message
        return message

    def kill(self) -> None:
        os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=10)
        assert self.process.returncode == -signal.SIGKILL

    def finish(self, timeout: float = 60.0) -> None:
        _, err = self.process.communicate(timeout=timeout)
        assert self.process.returncode == 0, err


# -- killed in the middle of a review session ------------------------------------------------------


def test_sigkill_mid_review_loses_none_of_the_saved_labels(tmp_path: Path) -> None:
    runs: list[Any] = [run(f"run-{n}", missing=n % 3 == 0, label=n % 4 == 0) for n in range(40)]
    runs.insert(5, '{"id": "broken", "required": [')  # an invalid line among them
    path = write_runs(tmp_path / "runs.jsonl", runs)
    driver = Driver("review", path)
    saved = {}
    for _ in range(KILL_AFTER):
        message = driver.expect("saved")
        saved[message["saved"]] = message["label"]
    driver.kill()  # while it goes on labelling the next runs

    review = open_review(path)
    store = review.store
    for run_id, label in saved.items():
        assert review.reviewer_label(store.row_of[run_id]) is label, run_id
    assert review.restored >= KILL_AFTER
    for row in review.states:  # whatever else made it is what the driver set
        assert review.reviewer_label(row) is (row % 2 == 0)
    # at most the line being written when the kill came is torn
    assert len(review.warnings) <= 1
    assert all("torn by an interrupted write" in warning for warning in review.warnings)
    assert not review.orphans


@pytest.mark.skipif(not hasattr(os, "fork"), reason="no pseudo-terminals here")
def test_sigkill_of_the_real_command_in_a_terminal_keeps_every_label(tmp_path: Path) -> None:
    path = write_runs(tmp_path / "runs.jsonl", [run(f"run-{n}", missing=n % 2 == 1) for n in range(6)])
    journal = Path(journal_path(path))

    def entries() -> int:
        return journal.read_bytes().count(b"\n") if journal.exists() else 0

    keys = [b"y", b"j", b"n", b"j", b"y", b"j", b" "]  # label, move down, label, ...
    terminal = Terminal("runs.jsonl", "--reviewer", "pty", cwd=tmp_path)
    try:
        terminal.wait_for(lambda: b"0/6" in terminal.screen)  # loaded: "reviewed 0/6"
        saved = 0
        for key in keys:
            terminal.press(key)
            if key != b"j":  # a label key: on to the next only once its entry is written
                saved += 1
                terminal.wait_for(lambda saved=saved: entries() >= saved)
    finally:
        terminal.kill()
    review = open_review(path)
    # space toggles the label in force: run-3 is labelled correct in the file, so incorrect
    assert [review.reviewer_label(row) for row in range(6)] == [True, False, True, False, None, None]
    assert review.warnings == []
    assert {review.reviewed_by(row)[0] for row in review.states} == {"pty"}  # type: ignore[index]


def _torn_journal(tmp_path: Path) -> tuple[Path, str]:
    path = write_runs(tmp_path / "runs.jsonl", [run(f"r{n}") for n in range(5)])
    journal = Journal(journal_path(path))
    for n in range(3):
        journal.append(Entry(f"r{n}", n != 1, "", "tester", utc_now()))
    journal.close()
    torn = Entry("r3", False, "", "tester", utc_now()).to_json()
    with open(journal.path, "ab") as handle:
        handle.write(torn[: len(torn) // 2])  # the crash came halfway through this line
    return path, journal.path


def test_journal_with_a_torn_last_line_loads_with_a_warning_and_loses_only_that_line(
    tmp_path: Path,
) -> None:
    path, journal = _torn_journal(tmp_path)
    review = open_review(path)
    assert [review.reviewer_label(row) for row in range(5)] == [True, False, True, None, None]
    assert review.warnings == [f"{journal}, line 4: skipped (torn by an interrupted write)"]
    review.set_label(4, False)  # the next entry starts on a line of its own
    again = open_review(path)
    assert [again.reviewer_label(row) for row in range(5)] == [True, False, True, None, False]
    assert len(again.warnings) == 1


async def test_app_warns_about_a_torn_journal_and_restores_the_rest(tmp_path: Path) -> None:
    path, journal = _torn_journal(tmp_path)
    app = create_app(path, reviewer="tester")  # who wrote the entries: welcomed back with their count
    notes = record_notifications(app)
    async with app.run_test(size=SIZE) as pilot:
        screen = await settled(pilot)
        assert screen.review is not None and screen.review.restored == 3
        assert (f"{journal}, line 4: skipped (torn by an interrupted write)", "warning") in notes
        assert any("Restored your 3 reviewed runs" in message for message, _ in notes)


# -- killed in the middle of an export ------------------------------------------------------------


def _leftovers_allowed(folder: Path) -> Callable[[str], bool]:
    """What a killed export may leave behind, as `atomic` documents it.

    With O_TMPFILE the content has no name until it is complete: nothing. Elsewhere a
    hidden `.NAME.XXXXXXXX.part` temporary file may stay, never mistaken for the export.
    """
    fd = atomic._open_unnamed(str(folder))  # the module's own test of the file system
    if fd is not None:
        os.close(fd)
        return lambda name: False
    return lambda name: name.startswith(".") and name.endswith(".part")


@pytest.mark.parametrize("fmt", ["jsonl", "csv", "json"])
def test_export_killed_halfway_leaves_the_previous_export_intact(tmp_path: Path, fmt: str) -> None:
    path = write_runs(tmp_path / "runs.jsonl", [run(f"run-{n}", missing=n % 2 == 0) for n in range(20_000)])
    target = tmp_path / f"reviewed.{fmt}"
    previous = b"the previous export, byte for byte\n"
    target.write_bytes(previous)
    before = files_in(tmp_path)
    driver = Driver("export", path, target, fmt)
    message = driver.expect("halfway")
    assert 0 < message["halfway"] < message["of"]
    driver.kill()
    assert target.read_bytes() == previous
    allowed = _leftovers_allowed(tmp_path)
    assert all(allowed(name) for name in files_in(tmp_path) - before), files_in(tmp_path) - before


def test_export_failing_halfway_leaves_the_previous_export_and_no_temporary_file(tmp_path: Path) -> None:
    path = write_runs(tmp_path / "runs.jsonl", [run(f"run-{n}") for n in range(10_000)])
    target = tmp_path / "reviewed.jsonl"
    target.write_bytes(b"previous\n")
    before = files_in(tmp_path)
    store = RunStore.load(path)

    def fail(done: int, total: int) -> None:
        raise RuntimeError("stopped halfway")

    with pytest.raises(RuntimeError):
        export_runs(store, Review(store), target, "jsonl", progress=fail)
    assert target.read_bytes() == b"previous\n"
    assert files_in(tmp_path) == before


# -- a journal written for another version of the run file -----------------------------------------


def _two_versions(tmp_path: Path) -> Path:
    path = write_runs(tmp_path / "runs.jsonl", [run(name) for name in "abcde"])
    review = open_review(path)
    rows = review.store.row_of
    review.set_label(rows["a"], True)
    review.set_label(rows["b"], False)
    review.set_label(rows["c"], True)
    review.set_label(rows["d"], False)
    review.set_note(rows["e"], "kept")
    write_runs(
        path,
        [
            run("a"),
            run("b", missing=True),  # changed since its review
            # c removed
            {"id": "d", "required": ["D1"], "context": "D1", "correct": True},  # now invalid
            run("e"),
            run("f"),  # added
        ],
    )
    return path


def test_journal_of_another_version_applies_to_unchanged_runs_and_holds_the_rest_aside(
    tmp_path: Path,
) -> None:
    review = open_review(_two_versions(tmp_path))
    rows = review.store.row_of
    assert review.reviewer_label(rows["a"]) is True
    # b changed since its review: its label is stale, held aside, never applied silently
    assert review.reviewer_label(rows["b"]) is None
    assert review.label(rows["b"]) is True  # the file's
    assert [(entry.run, entry.label) for entry in review.stale] == [("b", False)]
    assert review.diagnosis(rows["b"]) == {"stage": "retrieval", "missing": ["D2"]}
    assert review.note(rows["e"]) == "kept"
    assert review.reviewer_label(rows["f"]) is None
    assert sorted(entry.run for entry in review.orphans) == ["c", "d"]
    assert review.restored == 1


async def test_app_reports_journal_entries_of_runs_gone_or_changed(tmp_path: Path) -> None:
    app = create_app(_two_versions(tmp_path))
    notes = record_notifications(app)
    async with app.run_test(size=SIZE) as pilot:
        await settled(pilot)
        orphans = [message for message, severity in notes if "not in this file" in message]
        assert len(orphans) == 1 and orphans[0].startswith("2 journal entries")
        assert "'c'" in orphans[0] and "'d'" in orphans[0]
        assert any(
            "1 journal entry was made on a run that has changed in the file since; it is held aside"
            in message
            for message, _ in notes
        )


# -- a full disk or a read-only folder ----------------------------------------------------------------


def _no_space(*args: Any, **kwargs: Any) -> Any:
    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


@contextlib.contextmanager
def read_only(folder: Path) -> Iterator[None]:
    """os.open refuses to create or write anything in `folder`, as on a read-only mount."""
    real_open = os.open
    writing = os.O_WRONLY | os.O_RDWR | os.O_CREAT | getattr(os, "O_TMPFILE", 0)

    def refuse(name: Any, flags: int, *args: Any, **kwargs: Any) -> int:
        target = Path(os.fspath(name))
        if flags & writing and (target == folder or target.parent == folder):
            raise OSError(errno.EROFS, os.strerror(errno.EROFS), os.fspath(name))
        return real_open(name, flags, *args, **kwargs)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(os, "open", refuse)
        yield


def test_full_disk_keeps_the_label_unsaved_and_a_later_save_catches_up(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write_runs(tmp_path / "runs.jsonl", [run(f"r{n}") for n in range(3)])
    review = open_review(path)
    with monkeypatch.context() as patch:
        patch.setattr(os, "fsync", _no_space)
        with pytest.raises(JournalError, match="No space left on device") as failed:
            review.set_label(0, False)
    assert journal_path(path) in str(failed.value)
    assert review.label(0) is False  # kept on screen...
    assert review.unsaved == {0}  # ...and marked unsaved
    review.set_label(1, True)  # space again
    assert review.unsaved == {0}
    review.set_label(0, False)  # saving it again saves it
    assert review.unsaved == set()
    again = open_review(path)
    assert [again.reviewer_label(row) for row in range(3)] == [False, True, None]


def test_a_short_write_costs_only_its_own_entry(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = write_runs(tmp_path / "runs.jsonl", [run(f"r{n}") for n in range(3)])
    review = open_review(path)
    review.set_label(0, True)
    real_write = os.write

    def half(fd: int, data: bytes) -> int:
        return real_write(fd, data[: len(data) // 2])  # the disk filled up mid-line

    with monkeypatch.context() as patch:
        patch.setattr(os, "write", half)
        with pytest.raises(JournalError):
            review.set_label(1, False)
    assert review.unsaved == {1}
    review.set_label(2, False)  # must not be glued to the half line before it
    again = open_review(path)
    assert [again.reviewer_label(row) for row in range(3)] == [True, None, False]
    assert len(again.warnings) == 1


def test_read_only_folder_fails_the_journal_clearly(tmp_path: Path) -> None:
    path = write_runs(tmp_path / "runs.jsonl", [run("r0")])
    review = open_review(path)
    with read_only(tmp_path):
        with pytest.raises(JournalError, match="Read-only file system"):
            Journal(journal_path(path)).open()
        with pytest.raises(JournalError, match="Read-only file system"):
            review.set_label(0, False)
    assert review.unsaved == {0}


def test_full_disk_when_reopening_a_torn_journal_is_a_journal_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, journal = _torn_journal(tmp_path)
    monkeypatch.setattr(os, "write", _no_space)  # the newline that ends the torn line
    with pytest.raises(JournalError, match="No space left on device"):
        Journal(journal).open()


@pytest.mark.parametrize("fault", ["no space", "read-only"])
def test_export_on_a_full_disk_or_read_only_folder_fails_cleanly(
    tmp_path: Path, fault: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write_runs(tmp_path / "runs.jsonl", [run(f"r{n}") for n in range(50)])
    out = tmp_path / "out"
    out.mkdir()
    target = out / "reviewed.jsonl"
    target.write_bytes(b"previous\n")
    store = RunStore.load(path)
    with contextlib.ExitStack() as stack:
        if fault == "no space":
            monkeypatch.setattr(os, "fsync", _no_space)
        else:
            stack.enter_context(read_only(out))
        with pytest.raises(ExportError) as failed:
            export_runs(store, Review(store), target, "jsonl")
        reason = "No space left on device" if fault == "no space" else "Read-only file system"
        assert str(failed.value) == f"cannot write {target}: {reason}"
        assert main(["export", str(path), "-o", str(target)]) == 2
    _, err = capsys.readouterr()
    assert f"cannot write {target}: {reason}" in err
    assert "Traceback" not in err
    assert target.read_bytes() == b"previous\n"
    assert files_in(out) == {"reviewed.jsonl"}


async def test_app_on_a_full_disk_shows_the_error_marks_unsaved_and_asks_before_quitting(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write_runs(tmp_path / "runs.jsonl", [run(f"r{n}") for n in range(3)])
    app = create_app(path)
    notes = record_notifications(app)
    async with app.run_test(size=SIZE) as pilot:
        screen = await settled(pilot)
        review = screen.review
        assert review is not None
        monkeypatch.setattr(os, "fsync", _no_space)
        await pilot.press("y")
        assert review.reviewer_label(0) is True
        assert review.unsaved == {0}
        errors = [message for message, severity in notes if severity == "error"]
        assert len(errors) == 1
        assert "No space left on device" in errors[0] and "not saved" in errors[0]
        row_line = next(line for line in screen_lines(app) if " r0 " in line)
        assert row_line.split()[:2] == ["!", "r0"]  # the row's mark
        assert "NOT SAVED" in detail_text(screen.app)
        await pilot.press("q")
        assert isinstance(app.screen, ConfirmDialog)
        assert "1 changed run was not saved" in screen_text(app)
        await pilot.press("escape")  # stay
        assert isinstance(app.screen, ReviewScreen)
        assert app.is_running
        monkeypatch.undo()
        await pilot.press("y")  # space again: saved now
        assert review.unsaved == set()
        await pilot.press("q")
        assert not app.is_running  # nothing unsaved: quits at once


async def test_app_on_a_read_only_folder_says_labels_will_not_be_saved(tmp_path: Path) -> None:
    path = write_runs(tmp_path / "runs.jsonl", [run("r0"), run("r1")])
    app = create_app(path)
    notes = record_notifications(app)
    with read_only(tmp_path):
        async with app.run_test(size=SIZE) as pilot:
            screen = await settled(pilot)
            assert any("Labels you set now will NOT be saved" in message for message, _ in notes)
            await pilot.press("n")
            assert screen.review is not None and screen.review.unsaved == {0}
            assert "NOT SAVED" in detail_text(screen.app)
            assert app.is_running
    assert not Path(journal_path(path)).exists()


async def test_app_export_on_a_full_disk_shows_an_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write_runs(tmp_path / "runs.jsonl", [run(f"r{n}") for n in range(3)])
    target = tmp_path / "reviewed.jsonl"
    app = create_app(path)
    async with app.run_test(size=SIZE) as pilot:
        await settled(pilot)
        monkeypatch.setattr(os, "fsync", _no_space)
        await pilot.press("e")
        dialog = app.screen
        assert isinstance(dialog, ExportDialog)
        dialog.query_one("#export-path", Input).value = str(target)
        await pilot.press("enter")
        error = dialog.query_one("#export-error", Static)
        for _ in range(300):
            if str(error.visual).startswith("Not exported"):
                break
            await pilot.pause(0.01)
        assert str(error.visual) == f"Not exported: cannot write {target}: No space left on device"
        assert app.screen is dialog and app.is_running
        assert not target.exists()
        assert files_in(tmp_path) == {"runs.jsonl"}  # no empty journal either (issue 16)


# -- two instances on one run file ----------------------------------------------------------------------


def test_second_journal_on_the_same_file_knows_it_is_shared_and_both_are_kept(tmp_path: Path) -> None:
    path = write_runs(tmp_path / "runs.jsonl", [run("a"), run("b")])
    first, second = Journal(journal_path(path)), Journal(journal_path(path))
    first.open()
    second.open()
    assert (first.shared, second.shared) == (False, True)
    first.append(Entry("a", True, "", "one", utc_now()))
    second.append(Entry("b", False, "", "two", utc_now()))
    review = open_review(path)
    assert (review.reviewer_label(0), review.reviewer_label(1)) == (True, False)


async def test_app_warns_when_another_instance_holds_the_journal(tmp_path: Path) -> None:
    path = write_runs(tmp_path / "runs.jsonl", [run("a")])
    other = Journal(journal_path(path))
    other.open()
    app = create_app(path)
    notes = record_notifications(app)
    try:
        async with app.run_test(size=SIZE) as pilot:
            await settled(pilot)
            assert any("open in another ragdiag-tui" in message for message, _ in notes)
            await pilot.press("y")
            assert app.review_screen.review is not None and not app.review_screen.review.unsaved
    finally:
        other.close()


def test_two_processes_appending_at_once_lose_and_tear_nothing(tmp_path: Path) -> None:
    path = write_runs(tmp_path / "runs.jsonl", [run("a")])
    journal, go = journal_path(path), tmp_path / "go"
    count = 300
    drivers = [Driver("append", journal, prefix, str(count), go) for prefix in ("left", "right")]
    shared = [driver.expect("shared")["shared"] for driver in drivers]
    assert sorted(shared) == [False, True]  # the second to open knows
    go.touch()
    for driver in drivers:
        driver.expect("done")
        driver.finish()
    entries, warnings = Journal(journal).read()
    assert warnings == []
    assert len(entries) == 2 * count
    assert {entry.run for entry in entries} == {
        f"{side}-{n}" for side in ("left", "right") for n in range(count)
    }
    assert all(entry.note == f"{entry.reviewer} " * 1500 for entry in entries)


# -- nothing from a run file is run, rendered as markup or used as a path --------------------------------


def _path_like_ids(token: str) -> list[str]:
    return [
        f"../../../../../../../../tmp/ragdiag-{token}-up",
        f"/tmp/ragdiag-{token}-abs",
        f"$(touch /tmp/ragdiag-{token}-sh)",
        f"`touch /tmp/ragdiag-{token}-tick`",
        f"{{__import__('os').system('touch /tmp/ragdiag-{token}-py')}}",
        f"%(touch /tmp/ragdiag-{token}-fmt)s",
    ]


async def test_ids_are_never_used_as_paths_or_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    token = uuid.uuid4().hex
    ids = _path_like_ids(token)
    path = write_runs(
        tmp_path / "runs.jsonl",
        [run(run_id, missing=True, question=run_id, **{run_id: run_id}) for run_id in ids],
    )
    for fmt in ("jsonl", "csv", "json"):
        assert main(["export", str(path), "-o", str(tmp_path / f"out.{fmt}")]) == 0
    assert main(["diagnose", str(path)]) == 0
    assert main(["stats", str(path)]) == 0
    out, _ = capsys.readouterr()
    assert is_safe_for_terminal(out)
    app = create_app(path)
    async with app.run_test(size=SIZE) as pilot:
        screen = await settled(pilot)
        for index in range(len(ids)):
            screen.table.cursor = index
            await pilot.press("y")
            assert ids[index] in detail_text(screen.app)
        await pilot.press("e")
        await pilot.press("enter")  # the default path, beside the run file
        for _ in range(300):
            if isinstance(app.screen, ReviewScreen):
                break
            await pilot.pause(0.01)
        assert app.is_running
    assert not list(Path("/tmp").glob(f"ragdiag-{token}*"))
    expected = {
        "runs.jsonl",
        "runs.jsonl.review.jsonl",
        "out.jsonl",
        "out.csv",
        "out.json",
        "runs.reviewed.jsonl",
    }
    assert files_in(tmp_path) == expected
    assert open_review(path).reviewed == len(ids)


# -- notifications show what they are given literally -----------------------------------------------------


async def toasts_soon(pilot: Any) -> list[str]:
    for _ in range(100):
        toasts = toast_texts(pilot.app)
        if toasts:
            return toasts
        await pilot.pause(0.02)
    raise AssertionError("no notification was shown")


async def test_orphan_ids_with_markup_show_literally_in_the_notification(tmp_path: Path) -> None:
    """Run ids from the journal reach a notification: as text, never as markup."""
    path = write_runs(tmp_path / "runs.jsonl", [run("a")])
    journal = Journal(journal_path(path))
    for run_id in ("[/]gone", "[@click=app.quit]gone[/]"):
        journal.append(Entry(run_id, True, "", "tester", utc_now()))
    journal.close()
    app = create_app(path)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await settled(pilot)
        toasts = await toasts_soon(pilot)
        assert any("'[/]gone', '[@click=app.quit]gone[/]'" in toast for toast in toasts)
        assert not actions_on_screen(app)


async def test_refused_file_with_markup_in_its_name_is_reported_literally(tmp_path: Path) -> None:
    folder = tmp_path / "x[" / "]y"  # the path reads .../x[/]y/runs.jsonl
    folder.mkdir(parents=True)
    path = folder / "runs.jsonl"
    path.write_bytes(b"")
    app = create_app(path)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await settled(pilot)
        toasts = await toasts_soon(pilot)
        assert any(f"{path}: the file is empty" in toast for toast in toasts)
