"""A big JSON Lines file read by two processes (`split_read`, `split_child`) makes the
very store one process makes: every column, every error, every line number, the name
of every run without an id, and a repeated id across the two parts; and any failure of
the child leaves the reading to this process, with nothing of the child's kept."""

from __future__ import annotations

import os
import struct
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

from ragdiag_tui.core.runs import split_child, split_read
from ragdiag_tui.core.runs.store import RunStore

COLUMNS = (
    "ids",
    "lines",
    "stage",
    "file_label",
    "n_required",
    "n_context",
    "questions",
    "search_text",
    "missing",
    "errors",
    "expected",
    "_offsets",
    "_blob",
)

PLAIN = [b'{"id": "p%d", "required": ["d1"], "context": ["d1"], "correct": true}' % i for i in range(12)]
"""Ordinary runs first: format detection reads a few lines ahead, and a cut comes after."""

TRICKY = [
    b'{"id": "a", "required": ["d1"], "context": ["d1"], "correct": true, "question": "Q a?"}',
    b"",
    b"  \t ",
    b'{"required": ["d1", "d2"], "context": ["d2"], "correct": true}',  # no id: named "14" (its position)
    b'{"id": "b", "required": ["d3"], "context": ["d3"], "correct": false}\r',
    b'{"id": "broken", "required": ',
    b'{"id": "\xff\xfe"}',
    b'{"id": "c", "required": ["d1"], "context": ["d1"], "correct": "yes"}',
    b'{"id": "a", "required": ["d9"], "context": [], "correct": false}',  # a again
    b'{"id": "14", "required": ["d1"], "context": ["d1"], "correct": true}',  # the name given above
    b"",
    b'{"id": "e", "required": [], "context": ["d1"], "correct": true}',
    b'{"required": ["d5"], "context": ["d6"], "correct": null}',  # no id: named "22"
    b'{"id": "deep", "x": ' + b"[" * 1500 + b"]" * 1500 + b"}",
    b'{"id": "e", "required": ["d1"], "context": [], "correct": true}',  # e again
    b"\r",
    b'{"id": "22", "required": ["d7"], "context": ["d7", "d8"], "correct": true}',  # the name given above
    b'  {"id": "g", "required": ["d1"], "context": ["d2"], "correct": false}',  # not blank
    b'{"id": "f", "required": ["d1"], "context": ["d1"], "correct": true}',  # no newline after
]
LINES = PLAIN + TRICKY


def write_file(path: Path, lines: list[bytes], bom: bool = False) -> Path:
    path.write_bytes((b"\xef\xbb\xbf" if bom else b"") + b"\n".join(lines))
    return path


def cut_at(cut: int) -> Any:
    """`split_read.cut_for` made to cut at `cut`, where the reader allows it: past what
    format detection read (a few lines), as the real one does."""
    return lambda fd, total, start: cut if cut > start else None


def columns(store: RunStore) -> dict[str, Any]:
    return {name: getattr(store, name) for name in COLUMNS}


def line_ends(path: Path) -> list[int]:
    """Every byte just after a line end, but the file's end: each a possible cut."""
    data = path.read_bytes()
    return [at + 1 for at, byte in enumerate(data) if byte == ord("\n") and at + 1 < len(data)]


class InProcessPart(split_read.Part):
    """A `split_read.Part` whose child's work (`split_child.read_part`) is done here and
    its frames read from a file: the merge and the frames, without a process per case."""

    def _open(self) -> int:
        found = split_child.read_part(self.path, self.cut, lambda frame: None)
        frames = Path(self.path).with_suffix(".frames")
        frames.write_bytes(b"".join(split_child.payload(found)))
        return os.open(frames, os.O_RDONLY)


@pytest.fixture
def absorbed(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """What each merge of a child's part answered (True: the child's rows were taken)."""
    answers: list[bool] = []
    original = RunStore.absorb

    def absorb(self: RunStore, found: dict[str, Any], read_text: Any) -> bool:
        answers.append(original(self, found, read_text))
        return answers[-1]

    monkeypatch.setattr(RunStore, "absorb", absorb)
    return answers


def split_store(monkeypatch: pytest.MonkeyPatch, path: Path, cut: int) -> RunStore:
    monkeypatch.setattr(split_read, "cut_for", cut_at(cut))
    monkeypatch.setattr(split_read, "Part", InProcessPart)
    return RunStore.load(path)


@pytest.mark.parametrize("bom", [False, True])
def test_every_cut_makes_the_store_one_process_makes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, absorbed: list[bool], bom: bool
) -> None:
    path = write_file(tmp_path / "runs.jsonl", LINES, bom)
    serial = RunStore.load(path)
    assert absorbed == []  # a small file: one process
    assert serial.ids[12:15] == ["a", "14", "b"]
    repeats = [
        (int(e.reason.rsplit(" ", 1)[1]), e.line) for e in serial.errors.values() if "first seen" in e.reason
    ]
    assert len(repeats) == 4
    for number, cut in enumerate(line_ends(path), start=1):  # the first part's last line
        absorbed.clear()
        store = split_store(monkeypatch, path, cut)
        assert columns(store) == columns(serial), f"cut after line {number}"
        if number >= len(PLAIN):  # past what format detection reads
            # the child's rows are taken unless an id of the first part repeats in the second
            straddled = any(first <= number < again for first, again in repeats)
            assert absorbed == ([] if straddled else [True]), f"cut after line {number}"


def test_an_id_of_the_first_part_again_in_the_second_is_read_here(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, absorbed: list[bool]
) -> None:
    path = write_file(tmp_path / "runs.jsonl", LINES)
    serial = RunStore.load(path)
    cut = line_ends(path)[len(PLAIN) + 7]  # "a" and the name "14" before; both again after
    store = split_store(monkeypatch, path, cut)
    assert absorbed == []  # the child's rows were refused before any was taken
    assert columns(store) == columns(serial)
    assert 'duplicate id "a", first seen on line 13' in [e.reason for e in store.errors.values()]
    assert 'duplicate id "14", first seen on line 16' in [e.reason for e in store.errors.values()]


def test_the_first_part_counted_by_the_child(tmp_path: Path) -> None:
    path = write_file(tmp_path / "runs.jsonl", TRICKY, bom=True)
    with path.open("rb") as handle:
        counts = [split_child.count_before(handle, cut) for cut in line_ends(path)]
    # lines, and lines not blank: lines 2, 3, 11 and 16 are blank ("\r" alone too)
    assert counts[:4] == [(1, 1), (2, 1), (3, 1), (4, 2)]
    assert counts[-1] == (18, 14)
    plain = write_file(tmp_path / "plain.jsonl", PLAIN)
    with plain.open("rb") as handle:
        counted = [split_child.count_before(handle, cut) for cut in line_ends(plain)]
    assert counted == [(n, n) for n in range(1, 12)]


def big_file(path: Path, runs: int = 3000) -> Path:
    lines = []
    for i in range(runs):
        if i % 97 == 0:
            lines.append(b"")
        if i % 50 == 0:
            lines.append(b'{"required": ["d1"], "context": [], "correct": true}')
        elif i % 333 == 0:
            lines.append(b'{"id": "torn')
        else:
            lines.append(
                b'{"id": "run-%d", "required": ["d%d"], "context": ["d1"], "correct": true}' % (i, i % 3)
            )
    return write_file(path, lines)


def test_a_child_process_reads_the_second_part(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, absorbed: list[bool]
) -> None:
    path = big_file(tmp_path / "runs.jsonl")
    serial = RunStore.load(path)
    monkeypatch.setattr(split_read, "SPLIT_MIN", 0)
    monkeypatch.setattr(split_read, "cores", lambda: 2)
    progress: list[tuple[int, int]] = []
    store = RunStore(path)
    assert store.read(lambda done, total: progress.append((done, total)))
    assert absorbed == [True]
    assert columns(store) == columns(serial)
    assert progress[-1] == (path.stat().st_size,) * 2
    monkeypatch.setenv(split_read.SWITCH, "0")
    absorbed.clear()
    assert columns(RunStore.load(path)) == columns(serial) and absorbed == []


def replaying(monkeypatch: pytest.MonkeyPatch, frames: bytes, tmp_path: Path) -> list[split_read.Part]:
    """The child's place taken by a process that writes `frames` and ends."""
    source = tmp_path / "frames.bin"
    source.write_bytes(frames)
    script = "import shutil, sys; shutil.copyfileobj(open(sys.argv[1], 'rb'), sys.stdout.buffer)"
    started: list[split_read.Part] = []

    class Replayed(split_read.Part):
        def __init__(self, path: str, cut: int) -> None:
            super().__init__(path, cut)
            started.append(self)

    monkeypatch.setattr(split_read, "Part", Replayed)
    monkeypatch.setattr(
        split_read, "child_command", lambda path, cut: [sys.executable, "-c", script, str(source)]
    )
    monkeypatch.setattr(split_read, "SPLIT_MIN", 0)
    monkeypatch.setattr(split_read, "cores", lambda: 2)
    return started


def child_frames(path: Path, cut: int, text_kept: int | None = None, **changes: Any) -> bytes:
    found = split_child.read_part(str(path), cut, lambda frame: None)
    found.update(changes)
    text_size = len(found["text"])
    whole = b"".join(split_child.payload(found))
    kept = len(whole) if text_kept is None else len(whole) - text_size + text_kept
    return b"p" + struct.pack("<Q", 10) + whole[:kept]


@pytest.mark.parametrize(
    "case", ["junk", "nothing", "torn columns", "torn text", "lines miscounted", "records miscounted"]
)
def test_a_child_that_fails_leaves_the_part_to_this_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, absorbed: list[bool], case: str
) -> None:
    path = big_file(tmp_path / "runs.jsonl")
    serial = RunStore.load(path)
    cut = line_ends(path)[len(line_ends(path)) // 2]
    monkeypatch.setattr(split_read, "cut_for", cut_at(cut))
    good = child_frames(path, cut)
    frames = {
        "junk": b"r" + struct.pack("<Q", 5) + b"junk!",
        "nothing": b"",
        "torn columns": good[: len(good) // 3],
        "torn text": child_frames(path, cut, text_kept=100),
        "lines miscounted": child_frames(path, cut, first_line=1),
        "records miscounted": child_frames(path, cut, first_position=2),
    }[case]
    started = replaying(monkeypatch, frames, tmp_path)
    store = RunStore.load(path)
    assert len(started) == 1 and started[0].process.returncode is not None
    assert columns(store) == columns(serial)
    assert absorbed == ([False] if case == "torn text" else [])


def test_the_replayed_frames_of_a_good_child_are_taken(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, absorbed: list[bool]
) -> None:
    """The failures above fail for their own reason: the same frames whole are taken."""
    path = big_file(tmp_path / "runs.jsonl")
    serial = RunStore.load(path)
    cut = line_ends(path)[len(line_ends(path)) // 2]
    replaying(monkeypatch, child_frames(path, cut), tmp_path)
    monkeypatch.setattr(split_read, "cut_for", cut_at(cut))
    assert columns(RunStore.load(path)) == columns(serial) and absorbed == [True]


def test_stopping_while_the_child_reads_stops_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = write_file(tmp_path / "runs.jsonl", LINES)
    started: list[split_read.Part] = []

    class Sleeping(split_read.Part):
        def __init__(self, path: str, cut: int) -> None:
            super().__init__(path, cut)
            started.append(self)

    monkeypatch.setattr(split_read, "Part", Sleeping)
    sleeper = [sys.executable, "-c", "import signal; signal.pause()"]  # a child that never sends
    monkeypatch.setattr(split_read, "child_command", lambda path, cut: sleeper)
    monkeypatch.setattr(split_read, "cut_for", cut_at(line_ends(path)[-3]))
    asked: list[int] = []

    def announce(rows: int) -> bool:
        asked.append(rows)
        return False

    store = RunStore(path)
    assert store.read(announce=announce) is False
    assert asked and started[0].process.returncode is not None  # stopped and reaped


@pytest.mark.parametrize("size", [1, 9, 4099])
def test_frames_cut_anywhere_between_reads_give_the_same_columns(tmp_path: Path, size: int) -> None:
    """However the pipe's reads cut the child's frames (a progress frame, the columns, the
    text), the columns and text taken are those of the frames read whole."""
    path = big_file(tmp_path / "runs.jsonl")
    cut = line_ends(path)[len(line_ends(path)) // 2]
    frames = child_frames(path, cut) + b"trailing"  # what the child would never send: left unread

    def taken(chunks: list[bytes]) -> tuple[dict[str, Any] | None, bytes, int, bytes]:
        part = split_read.Part(str(path), cut)
        part._drainer = threading.Thread()  # as if draining: what it read is in `_incoming`
        for chunk in chunks:  # the loader polls as the reads come in
            part._incoming.append(chunk)
            part.poll()
        part._incoming.append(b"")  # the end
        found = part.columns(lambda: True)
        assert found is not None
        text = bytearray()
        assert part.read_text(text, found["text_size"])
        rest = bytes(part._pending) + b"".join(bytes(chunk) for chunk in part._incoming)
        return found, bytes(text), part.done, rest

    whole = taken([frames])
    assert whole[2] == 10 and whole[3] == b"trailing"
    assert taken([frames[at : at + size] for at in range(0, len(frames), size)]) == whole
