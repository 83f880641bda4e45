"""Reviewer labels and notes over a store: live stages and counts, undo, and the journal."""

from __future__ import annotations

import errno
import hashlib
import json
import os
import re
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import ragdiag_tui.core.review.labels as review_module
from ragdiag_tui.core.review.journal import Journal, journal_path
from ragdiag_tui.core.review.records import Entry, JournalError
from ragdiag_tui.core.review.state import Review
from ragdiag_tui.core.runs.store import (
    S_GENERATION,
    S_INVALID,
    S_LABEL_ERROR,
    S_PASS,
    S_RETRIEVAL,
    S_UNRESOLVED,
    RunStore,
)

WriteRuns = Callable[..., Path]
UTC_STAMP = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$")

RUNS: list[Any] = [
    {"id": "gap", "required": ["D1", "D2"], "context": ["D1"], "correct": False, "question": "Q0"},
    {"id": "lucky", "required": ["D1", "D2"], "context": ["D1"], "correct": True},
    {"id": "gen", "required": ["D1"], "context": ["D1"], "correct": False},
    {"id": "unlabelled", "required": ["D1"], "context": ["D1"]},
    {"id": "unresolved", "required": [], "correct": True},
    '{"id": "broken", "required": [',
    {"id": "pass", "required": ["D1"], "context": ["D1", "D9"], "correct": True},
]
GAP, LUCKY, GEN, UNLABELLED, UNRESOLVED, BROKEN, PASS = range(7)


@pytest.fixture
def run_file(write_runs: WriteRuns) -> Path:
    return write_runs(RUNS)


@pytest.fixture
def store(run_file: Path) -> RunStore:
    return RunStore.load(run_file)


def open_review(run_file: Path, reviewer: str = "alice") -> Review:
    return Review(RunStore.load(run_file), Journal(journal_path(run_file)), reviewer=reviewer)


def journal_entries(run_file: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in Path(journal_path(run_file)).read_text("utf-8").splitlines()]


@pytest.fixture
def diagnose_calls(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Count the runs re-diagnosed by the review (the rule is called once per run)."""
    calls: list[int] = []
    real = review_module.diagnose_fields

    def counting(*args: Any) -> dict[str, Any]:
        calls.append(1)
        return real(*args)

    monkeypatch.setattr(review_module, "diagnose_fields", counting)
    return calls


# -- the state as loaded ---------------------------------------------------------------


def test_a_fresh_review_counts_what_the_file_says(store: RunStore) -> None:
    review = Review(store, reviewer="alice")
    assert review.counts[S_RETRIEVAL] == 2
    assert review.counts[S_GENERATION] == 1
    assert review.counts[S_PASS] == 1
    assert review.counts[S_UNRESOLVED] == 1
    assert review.counts[S_LABEL_ERROR] == 1
    assert review.counts[S_INVALID] == 1
    assert review.lucky == 1
    assert review.reviewed == 0
    assert review.label(LUCKY) is True
    assert review.label_source(LUCKY) == "file"
    assert review.label_source(UNLABELLED) is None


# -- labels, live ----------------------------------------------------------------------


def test_labelling_a_gap_correct_makes_it_a_lucky_answer_still_retrieval(
    store: RunStore, diagnose_calls: list[int]
) -> None:
    review = Review(store, reviewer="alice")
    review.set_label(GAP, True)
    assert store.stage[GAP] == S_RETRIEVAL
    assert review.diagnosis(GAP) == {"stage": "retrieval", "missing": ["D2"]}
    assert review.lucky == 2
    assert review.is_lucky(GAP)
    assert review.reviewed == 1
    assert review.label_source(GAP) == "reviewer"
    assert len(diagnose_calls) == 1


def test_labelling_a_run_without_label_gives_it_a_stage(store: RunStore, diagnose_calls: list[int]) -> None:
    review = Review(store, reviewer="alice")
    review.set_label(UNLABELLED, True)
    assert store.stage[UNLABELLED] == S_PASS
    assert review.diagnosis(UNLABELLED) == {"stage": "pass", "missing": []}
    assert review.counts[S_LABEL_ERROR] == 0
    assert review.counts[S_PASS] == 2
    assert len(diagnose_calls) == 1


def test_labelling_a_pass_incorrect_makes_it_generation(store: RunStore, diagnose_calls: list[int]) -> None:
    review = Review(store, reviewer="alice")
    review.set_label(PASS, False)
    assert store.stage[PASS] == S_GENERATION
    assert (review.counts[S_PASS], review.counts[S_GENERATION]) == (0, 2)
    assert len(diagnose_calls) == 1


def test_labelling_the_lucky_answer_incorrect_removes_it_from_lucky(store: RunStore) -> None:
    review = Review(store, reviewer="alice")
    review.set_label(LUCKY, False)
    assert store.stage[LUCKY] == S_RETRIEVAL
    assert review.lucky == 0
    assert not review.is_lucky(LUCKY)


def test_clear_label_brings_back_the_files_label(store: RunStore, diagnose_calls: list[int]) -> None:
    review = Review(store, reviewer="alice")
    review.set_label(GEN, True)
    assert store.stage[GEN] == S_PASS
    review.clear_label(GEN)
    assert store.stage[GEN] == S_GENERATION
    assert review.label(GEN) is False
    assert review.label_source(GEN) == "file"
    assert review.reviewed == 0
    assert review.counts[S_GENERATION] == 1
    assert len(diagnose_calls) == 2


def test_clear_label_on_a_run_without_file_label_is_a_label_error_again(store: RunStore) -> None:
    review = Review(store, reviewer="alice")
    review.set_label(UNLABELLED, False)
    review.clear_label(UNLABELLED)
    assert store.stage[UNLABELLED] == S_LABEL_ERROR
    assert review.diagnosis(UNLABELLED) == {"error": "answer-label"}


def test_toggle_goes_none_correct_incorrect_correct(store: RunStore) -> None:
    review = Review(store, reviewer="alice")
    seen = []
    for _ in range(3):
        review.toggle_label(UNLABELLED)
        seen.append((review.label(UNLABELLED), store.stage[UNLABELLED]))
    assert seen == [(True, S_PASS), (False, S_GENERATION), (True, S_PASS)]


def test_setting_the_label_the_file_already_has_rediagnoses_nothing(
    store: RunStore, diagnose_calls: list[int]
) -> None:
    review = Review(store, reviewer="alice")
    review.set_label(GEN, False)
    assert diagnose_calls == []
    assert review.reviewed == 1
    assert store.stage[GEN] == S_GENERATION


def test_a_label_changes_only_its_own_run(store: RunStore) -> None:
    review = Review(store, reviewer="alice")
    before = bytes(store.stage)
    review.set_label(UNLABELLED, False)
    after = bytes(store.stage)
    assert [row for row in range(len(store)) if before[row] != after[row]] == [UNLABELLED]


def test_a_label_on_an_unresolved_run_leaves_it_unresolved(store: RunStore) -> None:
    review = Review(store, reviewer="alice")
    review.set_label(UNRESOLVED, False)
    assert store.stage[UNRESOLVED] == S_UNRESOLVED
    assert review.diagnosis(UNRESOLVED) == {"stage": "unresolved"}


def test_an_invalid_line_cannot_be_labelled(store: RunStore) -> None:
    review = Review(store, reviewer="alice")
    with pytest.raises(ValueError, match="line 6"):
        review.set_label(BROKEN, True)
    assert review.reviewed == 0


def test_note_changes_no_stage_and_no_label(store: RunStore, diagnose_calls: list[int]) -> None:
    review = Review(store, reviewer="alice")
    review.set_note(GAP, "D2 was never indexed")
    assert review.note(GAP) == "D2 was never indexed"
    assert review.reviewed == 0  # a note is not a label
    assert review.label(GAP) is False
    assert diagnose_calls == []
    assert review.reviewed_by(GAP)[0] == "alice"


def test_undo_takes_back_several_levels_in_order(store: RunStore) -> None:
    review = Review(store, reviewer="alice")
    counts = list(review.counts)
    review.set_label(UNLABELLED, True)
    review.set_note(UNLABELLED, "checked")
    review.set_label(UNLABELLED, False)
    review.set_label(LUCKY, False)

    assert review.undo() == LUCKY
    assert (review.label(LUCKY), review.lucky) == (True, 1)
    assert review.undo() == UNLABELLED
    assert (review.label(UNLABELLED), store.stage[UNLABELLED]) == (True, S_PASS)
    assert review.note(UNLABELLED) == "checked"
    assert review.undo() == UNLABELLED
    assert review.note(UNLABELLED) == ""
    assert review.undo() == UNLABELLED
    assert review.label(UNLABELLED) is None
    assert store.stage[UNLABELLED] == S_LABEL_ERROR
    assert review.undo() is None
    assert review.counts == counts
    assert (review.reviewed, review.lucky) == (0, 1)
    assert review.states == {}


# -- the journal -------------------------------------------------------------------------


def test_each_change_appends_one_json_line_with_run_label_note_reviewer_and_utc_time(run_file: Path) -> None:
    review = open_review(run_file, reviewer="alice")
    review.set_label(GAP, True)
    review.set_note(GAP, "spot-checked")
    review.clear_label(GAP)
    entries = journal_entries(run_file)
    assert [(e["run"], e["label"], e["note"], e["reviewer"]) for e in entries] == [
        ("gap", True, "", "alice"),
        ("gap", True, "spot-checked", "alice"),
        ("gap", None, "spot-checked", "alice"),
    ]
    assert all(UTC_STAMP.match(e["at"]) for e in entries)


def test_each_change_is_fsynced_before_it_returns(run_file: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    review = open_review(run_file)
    review.journal.open()
    synced: list[int] = []
    real_fsync = os.fsync

    def fsync(fd: int) -> None:
        synced.append(os.fstat(fd).st_size)
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    review.set_label(GAP, True)
    review.set_note(GEN, "n")
    assert synced == [len(line) for line in _cumulative_lines(run_file)]


def _cumulative_lines(run_file: Path) -> list[bytes]:
    data = Path(journal_path(run_file)).read_bytes()
    ends = [i + 1 for i, byte in enumerate(data) if byte == ord("\n")]
    return [data[:end] for end in ends]


def test_reopening_replays_labels_and_notes(run_file: Path) -> None:
    first = open_review(run_file)
    first.set_label(GAP, True)
    first.set_label(UNLABELLED, False)
    first.set_note(GEN, "a note only")
    first.set_label(PASS, False)
    first.clear_label(PASS)
    first.journal.close()

    again = open_review(run_file, reviewer="bob")
    assert again.restored == 2
    assert again.reviewed == 2
    assert again.label(GAP) is True
    assert again.is_lucky(GAP)
    assert again.lucky == 2
    assert again.store.stage[UNLABELLED] == S_GENERATION
    assert again.note(GEN) == "a note only"
    assert again.label(PASS) is True
    assert again.label_source(PASS) == "file"
    assert again.reviewed_by(GAP)[0] == "alice"
    assert again.orphans == []
    assert again.warnings == []
    assert again.counts == first.counts


def test_replay_after_undo_restores_the_undone_state(run_file: Path) -> None:
    first = open_review(run_file)
    first.set_label(UNLABELLED, True)
    first.undo()
    first.journal.close()
    again = open_review(run_file)
    assert again.restored == 0
    assert again.label(UNLABELLED) is None
    assert again.store.stage[UNLABELLED] == S_LABEL_ERROR


def test_journal_entries_for_runs_no_longer_in_the_file_are_orphans(
    run_file: Path, write_runs: WriteRuns
) -> None:
    first = open_review(run_file)
    first.set_label(GAP, True)
    first.set_label(LUCKY, False)
    first.journal.close()
    write_runs([line for line in RUNS if not (isinstance(line, dict) and line["id"] == "gap")])
    again = open_review(run_file)
    assert [entry.run for entry in again.orphans] == ["gap"]
    assert again.restored == 1
    assert again.label(again.store.row_of["lucky"]) is False


def test_replay_holds_aside_as_stale_the_entries_of_runs_whose_text_changed(
    run_file: Path, write_runs: WriteRuns
) -> None:
    first = open_review(run_file)
    first.set_label(GAP, True)
    first.set_label(GEN, True)
    first.journal.close()
    edited = [dict(line, context=["D1", "D2"]) if line is RUNS[GAP] else line for line in RUNS]
    write_runs(edited)
    again = open_review(run_file)
    assert [entry.run for entry in again.stale] == ["gap"]
    assert again.stale_rows() == [GAP]
    # never applied silently: the file's label is in force and the run is not reviewed
    assert again.label(GAP) is False
    assert again.label_source(GAP) == "file"
    assert not again.is_reviewed(GAP)
    assert again.store.stage[GAP] == S_GENERATION
    assert again.label(GEN) is True  # an unchanged run keeps its label
    assert again.reviewed == 1


def test_torn_last_journal_line_loses_only_that_line(run_file: Path) -> None:
    first = open_review(run_file)
    first.set_label(GAP, True)
    first.set_label(GEN, True)
    first.journal.close()
    path = Path(journal_path(run_file))
    with path.open("ab") as handle:
        handle.write(b'{"v": 1, "run": "unlabelled", "label": tr')  # the crash came mid-write

    again = open_review(run_file)
    assert again.restored == 2
    assert again.label(UNLABELLED) is None
    assert len(again.warnings) == 1
    assert "line 3" in again.warnings[0]
    assert "torn" in again.warnings[0]


def test_appends_after_a_torn_line_stay_readable(run_file: Path) -> None:
    first = open_review(run_file)
    first.set_label(GAP, True)
    first.journal.close()
    with Path(journal_path(run_file)).open("ab") as handle:
        handle.write(b'{"v": 1, "run": "gen", "lab')

    second = open_review(run_file)
    second.set_label(UNLABELLED, False)
    second.journal.close()

    third = open_review(run_file)
    assert third.label(GAP) is True
    assert third.label(UNLABELLED) is False
    assert third.restored == 2
    assert len(third.warnings) == 1  # the torn line, now in the middle, is still skipped


@pytest.mark.parametrize("failing", ["write", "fsync"])
def test_journal_failure_keeps_the_label_marks_the_row_unsaved_until_saved(
    run_file: Path, monkeypatch: pytest.MonkeyPatch, failing: str
) -> None:
    Path(journal_path(run_file)).touch()  # opening alone no longer makes the journal (issue 16)
    review = open_review(run_file)
    review.journal.open()
    journal_fd = review.journal._fd
    real = getattr(os, failing)

    def full_disk(fd: int, *args: Any) -> Any:
        if fd == journal_fd:
            raise OSError(errno.ENOSPC, "No space left on device")
        return real(fd, *args)

    monkeypatch.setattr(os, failing, full_disk)
    with pytest.raises(JournalError, match="No space left"):
        review.set_label(GAP, True)
    assert review.label(GAP) is True
    assert review.is_lucky(GAP)
    assert review.unsaved == {GAP}

    monkeypatch.setattr(os, failing, real)
    review.set_note(GAP, "saved now")
    assert review.unsaved == set()
    last = journal_entries(run_file)[-1]
    assert (last["run"], last["label"], last["note"]) == ("gap", True, "saved now")


def test_journal_in_an_unwritable_place_is_a_journal_error(store: RunStore, tmp_path: Path) -> None:
    review = Review(store, Journal(tmp_path / "no-such-folder" / "runs.review.jsonl"), reviewer="alice")
    with pytest.raises(JournalError, match="no-such-folder"):
        review.set_label(GAP, True)
    assert review.label(GAP) is True
    assert review.unsaved == {GAP}


def test_two_journals_on_one_file_interleave_whole_lines_only(tmp_path: Path) -> None:
    path = tmp_path / "runs.jsonl.review.jsonl"
    path.touch()  # an existing journal: opening no longer makes an empty one (issue 16)
    first, second = Journal(path), Journal(path)
    first.open()
    second.open()
    assert second.shared  # the second instance knows it is not alone

    def append_many(journal: Journal, who: str) -> None:
        for n in range(150):
            journal.append(Entry(f"{who}-{n}", n % 2 == 0, "x" * (n * 37 % 900), who, "2025-01-01T00:00:00Z"))

    threads = [threading.Thread(target=append_many, args=(j, w)) for j, w in ((first, "a"), (second, "b"))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    first.close()
    second.close()

    entries, warnings = Journal(path).read()
    assert warnings == []
    assert sorted(entry.run for entry in entries) == sorted(f"{w}-{n}" for w in "ab" for n in range(150))
    for who in "ab":
        assert [e.run for e in entries if e.reviewer == who] == [f"{who}-{n}" for n in range(150)]


def test_the_run_file_is_never_written_by_a_review(run_file: Path) -> None:
    before = hashlib.sha256(run_file.read_bytes()).hexdigest()
    stat_before = run_file.stat()
    review = open_review(run_file)
    for row in (GAP, LUCKY, GEN, UNLABELLED, PASS):
        review.toggle_label(row)
        review.set_note(row, "n")
    review.undo()
    review.clear_label(GAP)
    review.journal.close()
    open_review(run_file).journal.close()
    assert hashlib.sha256(run_file.read_bytes()).hexdigest() == before
    assert run_file.stat().st_mtime_ns == stat_before.st_mtime_ns
    assert Path(journal_path(run_file)).exists()


def test_journal_path_is_beside_the_run_file(run_file: Path) -> None:
    assert journal_path(run_file) == str(run_file) + ".review.jsonl"
