"""The two-process load builds exactly the store a single pass builds."""

from __future__ import annotations

import io
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path

import pytest

from ragdiag_tui import batch, parallel
from ragdiag_tui.store import RunStore


def columns(store: RunStore) -> dict[str, object]:
    valid = [row for row in range(len(store)) if store.is_valid(row)]
    return {
        "ids": store.ids,
        "lines": list(store.lines),
        "stage": bytes(store.stage),
        "file_label": bytes(store.file_label),
        "n_required": list(store.n_required),
        "n_context": list(store.n_context),
        "questions": store.questions,
        "search_text": store.search_text,
        "missing": store.missing,
        "errors": {row: (e.line, e.kind, e.field, e.id, e.detail) for row, e in store.errors.items()},
        "raw": [store.raw_text(row) for row in valid],
    }


def tricky_lines(count: int, seed: int) -> list[str]:
    """Runs with every case the join must settle, spread over the whole file."""
    rng = random.Random(seed)
    lines = []
    for n in range(1, count + 1):
        run = {
            "required": ["D1", "D2"][: rng.randint(0, 2)],
            "context": ["D1"],
            "correct": rng.random() < 0.5,
        }
        roll = rng.random()
        if roll < 0.15:
            pass  # unnamed: named by its position
        elif roll < 0.25:
            run["id"] = f"dup-{rng.randint(1, 40)}"  # repeated, within and across parts
        elif roll < 0.30:
            run["id"] = str(rng.randint(1, count))  # an explicit id that is some run's position
        elif roll < 0.33:
            run["id"] = f"dup-{rng.randint(1, 40)}"
            run["required"] = ["D9"]
            del run["context"]  # invalid after the id is claimed
        else:
            run["id"] = f"run-{n}"
        text = json.dumps(run)
        roll = rng.random()
        if roll < 0.03:
            text = "{not json"
        elif roll < 0.05:
            text = "   "  # blank: skipped, but counted as a line
        elif roll < 0.07:
            text += "\r"
        lines.append(text)
    return lines


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_two_processes_build_the_same_store_as_one_pass(tmp_path: Path, seed: int) -> None:
    path = tmp_path / "runs.jsonl"
    path.write_text("\n".join(tricky_lines(600, seed)) + "\n")
    single = RunStore.load(path)
    split = RunStore(path)
    assert parallel.split_point(str(path), min_bytes=1) is not None
    parallel.load(split, min_bytes=1)
    assert columns(split) == columns(single)


def test_a_failed_helper_leaves_the_part_to_this_process(tmp_path: Path, monkeypatch) -> None:
    path = tmp_path / "runs.jsonl"
    path.write_text("\n".join(tricky_lines(300, 9)) + "\n")
    monkeypatch.setattr(parallel.Helper, "receive", lambda helper: None)
    split = RunStore(path)
    parallel.load(split, min_bytes=1)
    assert columns(split) == columns(RunStore.load(path))


def leftovers() -> set[Path]:
    return set(Path(parallel.PART_FOLDER).glob(parallel.PART_PREFIX + "*"))


DRIVER = """
import sys, time
from ragdiag_tui import parallel
from ragdiag_tui.store import RunStore
real = parallel._read_runs
def stalled(*args, **kwargs):
    print("ready", flush=True)
    time.sleep(60)
    yield from real(*args, **kwargs)
parallel._read_runs = stalled
parallel.load(RunStore(sys.argv[1]), min_bytes=1)
"""


def test_a_killed_parent_leaves_no_part_behind(tmp_path: Path) -> None:
    path = tmp_path / "runs.jsonl"
    path.write_text("\n".join(tricky_lines(3000, 13)) + "\n")
    before = leftovers()
    parent = subprocess.Popen([sys.executable, "-c", DRIVER, str(path)], stdout=subprocess.PIPE)
    assert parent.stdout is not None and parent.stdout.readline() == b"ready\n"
    parent.kill()  # SIGKILL: no atexit, no cleanup in the parent
    parent.wait()
    deadline = time.monotonic() + 20
    while leftovers() != before and time.monotonic() < deadline:
        time.sleep(0.1)  # the helper finishes its part, sees its parent gone and cleans up
    assert leftovers() == before


def test_the_helper_leaves_no_file_behind(tmp_path: Path) -> None:
    path = tmp_path / "runs.jsonl"
    path.write_text("\n".join(tricky_lines(300, 11)) + "\n")
    before = leftovers()
    parallel.load(RunStore(path), min_bytes=1)
    parallel.load(RunStore(path), announce=lambda rows: False, min_bytes=1)
    assert leftovers() == before


def test_small_files_and_other_formats_are_read_in_one_pass(tmp_path: Path) -> None:
    path = tmp_path / "runs.json"
    path.write_text(json.dumps([{"id": "a", "required": [], "context": []}]))
    assert parallel.split_point(str(path), min_bytes=1) is None
    small = tmp_path / "small.jsonl"
    small.write_text('{"id": "a", "required": []}\n')
    assert parallel.split_point(str(small)) is None


def test_loading_stops_when_told_to(tmp_path: Path) -> None:
    path = tmp_path / "runs.jsonl"
    path.write_text("\n".join(tricky_lines(2000, 5)) + "\n")
    store = RunStore(path)
    parallel.load(store, announce=lambda rows: False, min_bytes=1)
    assert len(store) < 2000


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_diagnose_on_two_cores_writes_what_one_pass_writes(tmp_path: Path, monkeypatch, seed: int) -> None:
    path = tmp_path / "runs.jsonl"
    path.write_text("\n".join(tricky_lines(600, seed)) + "\n")
    one_pass, two_parts = io.BytesIO(), io.BytesIO()
    single = batch.write_diagnoses(str(path), one_pass)
    monkeypatch.setattr(parallel, "MIN_BYTES", 1)
    assert parallel.split_point(str(path)) is not None
    split = batch.write_diagnoses(str(path), two_parts)
    assert two_parts.getvalue() == one_pass.getvalue()
    assert split.to_json() == single.to_json()
    assert split.summary() == single.summary()


def test_parts_left_by_a_closed_terminal_are_swept(tmp_path: Path) -> None:
    stale = Path(parallel.PART_FOLDER) / (parallel.PART_PREFIX + "stale-test")
    fresh = Path(parallel.PART_FOLDER) / (parallel.PART_PREFIX + "fresh-test")
    stale.write_bytes(b"x")
    fresh.write_bytes(b"x")
    old = time.time() - parallel.STALE_AFTER - 60
    os.utime(stale, (old, old))
    try:
        path = tmp_path / "runs.jsonl"
        path.write_text("\n".join(tricky_lines(300, 17)) + "\n")
        parallel.load(RunStore(path), min_bytes=1)
        assert not stale.exists()
        assert fresh.exists()  # another load's part, perhaps in use
    finally:
        stale.unlink(missing_ok=True)
        fresh.unlink(missing_ok=True)
