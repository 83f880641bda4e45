"""The review model: several reviewers, conflicts, adjudication, tags, stale records,
spot-checks, live polling, and the one function that opens a run file for review."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from ragdiag_tui.core.review.journal import Journal, journal_path
from ragdiag_tui.core.review.records import Entry, JournalError, SpotCheck, digest, parse_record
from ragdiag_tui.core.review.reviewlog import open_log
from ragdiag_tui.core.review.state import Review, open_review
from ragdiag_tui.core.runs.store import S_GENERATION, S_PASS, S_RETRIEVAL, RunStore

WriteRuns = Callable[..., Path]

RUNS: list[Any] = [
    {"id": "gap", "required": ["D1", "D2"], "context": ["D1"], "correct": False},
    {"id": "gen", "required": ["D1"], "context": ["D1"], "correct": False},
    {"id": "pass", "required": ["D1"], "context": ["D1"], "correct": True},
    {"id": "bare", "required": ["D1"], "context": ["D1"]},
]
GAP, GEN, PASS, BARE = range(4)


@pytest.fixture
def run_file(write_runs: WriteRuns) -> Path:
    return write_runs(RUNS)


def as_reviewer(run_file: Path, name: str, **options: Any) -> Review:
    return open_review(run_file, reviewer=name, **options)


def lines(run_file: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in Path(journal_path(run_file)).read_text("utf-8").splitlines()]


# -- the record format -------------------------------------------------------------------


def test_a_label_record_carries_label_note_tags_reviewer_time_and_digest(run_file: Path) -> None:
    review = as_reviewer(run_file, "alice")
    review.set_label(GEN, True)
    review.toggle_tag(GEN, "other-doc")
    record = lines(run_file)[-1]
    assert record["run"] == "gen" and record["label"] is True and record["tags"] == ["other-doc"]
    assert record["reviewer"] == "alice"
    assert record["digest"] == digest(review.store.raw_text(GEN))
    assert "kind" not in record  # a label record is the v1 line it always was


def test_every_record_kind_reads_back_as_written() -> None:
    T = "2026-11-30T15:00:00.000000Z"  # `at` must be a timestamp with a zone (issue 22)
    records = [
        Entry("r", True, "n", "alice", T, "d", tags=("a", "b")),
        Entry("r", False, "why", "carol", T, "d", kind="adjudication"),
        Entry("r", None, "", "bob", T, "d", kind="dismiss"),
        SpotCheck("lucky-50", "lucky", "gpt", 7, 373, 50, ("r1", "r2"), "alice", T),
    ]
    for record in records:
        assert parse_record(record.to_json().decode()).key() == record.key()


@pytest.mark.parametrize(
    ("line", "field"),
    [
        ('{"run": "r", "label": "yes"}', "label"),
        ('{"run": "r", "tags": "a"}', "tags"),
        ('{"run": "r", "note": 3}', "note"),
        ('{"kind": "spot-check", "name": "s", "seed": "x"}', "seed"),
        ('{"kind": "nonsense", "run": "r"}', "kind"),
    ],
)
def test_a_bad_record_names_its_field(line: str, field: str) -> None:
    with pytest.raises(ValueError, match=field):
        parse_record(line)


# -- every reviewer's label counts ------------------------------------------------------------


def test_another_reviewers_record_never_overwrites_a_reviewers_state(run_file: Path) -> None:
    alice = as_reviewer(run_file, "alice")
    alice.set_label(GEN, True)
    alice.set_note(GEN, "alice's note")
    alice.journal.close()
    bob = as_reviewer(run_file, "bob")
    bob.set_label(GEN, True)
    bob.journal.close()
    again = as_reviewer(run_file, "carol")
    states = again.reviewers(GEN)
    assert sorted(states) == ["alice", "bob"]
    assert states["alice"].note == "alice's note"
    assert states["bob"].note == ""
    assert again.label(GEN) is True and again.label_source(GEN) == "reviewer"
    assert not again.is_conflict(GEN)
    assert again.reviewed_rows() == [GEN]


def test_disagreeing_reviewers_put_the_run_in_conflict_with_the_files_label_in_force(run_file: Path) -> None:
    alice = as_reviewer(run_file, "alice")
    alice.set_label(GEN, True)  # the file says incorrect
    alice.journal.close()
    bob = as_reviewer(run_file, "bob")
    assert bob.store.stage[GEN] == S_PASS
    bob.set_label(GEN, False)
    assert bob.is_conflict(GEN)
    assert bob.conflicts == {GEN}
    assert bob.label_source(GEN) == "conflict"
    assert bob.label(GEN) is False  # the file's label
    assert bob.store.stage[GEN] == S_GENERATION
    assert bob.counts[S_GENERATION] == 1 and bob.counts[S_PASS] == 1
    assert bob.is_reviewed(GEN)
    assert bob.reviewer_label(GEN) is None


def test_adjudication_settles_a_conflict_and_withdrawing_it_brings_the_conflict_back(run_file: Path) -> None:
    review = as_reviewer(run_file, "carol")
    run = review.store.ids[GAP]
    run_digest = review.digest_of(GAP)
    review.apply(Entry(run, True, "", "alice", "t1", run_digest))
    review.apply(Entry(run, False, "", "bob", "t2", run_digest))
    assert review.is_conflict(GAP)
    review.adjudicate(GAP, True, "D1 supports it")
    assert not review.is_conflict(GAP) and review.conflicts == set()
    assert review.label(GAP) is True and review.label_source(GAP) == "adjudication"
    assert review.is_lucky(GAP) and review.lucky == 1
    assert review.disagree(GAP)
    assert lines(run_file)[-1]["kind"] == "adjudication"
    review.undo()
    assert review.is_conflict(GAP) and review.label(GAP) is False
    assert review.lucky == 0


def test_an_adjudicator_labelling_a_conflicted_run_adjudicates(run_file: Path) -> None:
    review = as_reviewer(run_file, "lead", adjudicator=True)
    run_digest = review.digest_of(GEN)
    review.apply(Entry("gen", True, "", "alice", "t1", run_digest))
    review.apply(Entry("gen", False, "", "bob", "t2", run_digest))
    review.set_label(GEN, True)
    assert review.adjudication(GEN) is not None
    assert "lead" not in review.reviewers(GEN)
    review.set_label(PASS, False)  # no conflict here: an ordinary label
    assert review.adjudication(PASS) is None and review.my_label(PASS) is False


def test_applying_a_record_twice_changes_nothing(run_file: Path) -> None:
    review = as_reviewer(run_file, "carol")
    record = Entry("bare", True, "n", "alice", "t1", review.digest_of(BARE), tags=("x",))
    assert review.apply(record) == {BARE}
    counts = list(review.counts)
    assert review.apply(record) == set()
    assert review.counts == counts and review.reviewed == 1


def test_note_or_tags_alone_do_not_make_a_run_reviewed(run_file: Path) -> None:
    review = as_reviewer(run_file, "alice")
    review.set_note(GAP, "look again")
    review.set_tags(GEN, ["partly"])
    assert review.reviewed == 0 and review.reviewed_rows() == []
    assert not review.is_reviewed(GAP) and not review.is_reviewed(GEN)
    review.set_label(GEN, False)
    assert review.reviewed_rows() == [GEN]


def test_tags_toggle_and_travel_with_the_label(run_file: Path) -> None:
    review = as_reviewer(run_file, "alice")
    review.set_label(GAP, True)
    review.toggle_tag(GAP, "a")
    review.toggle_tag(GAP, "b")
    review.toggle_tag(GAP, "a")
    assert review.tags(GAP) == ("b",)
    assert lines(run_file)[-1]["label"] is True
    review.journal.close()
    assert as_reviewer(run_file, "bob").tags(GAP) == ("b",)


def test_blind_mode_reveals_a_run_only_once_this_reviewer_labelled_it(run_file: Path) -> None:
    review = as_reviewer(run_file, "bob", blind=True)
    assert not review.revealed(PASS)
    review.set_label(PASS, False)
    assert review.revealed(PASS)
    assert as_reviewer(run_file, "carol").revealed(GEN)


# -- stale records ----------------------------------------------------------------------------


def _stale_file(run_file: Path, write_runs: WriteRuns) -> None:
    review = as_reviewer(run_file, "alice")
    review.set_label(GAP, True)
    review.set_label(GEN, True)
    review.journal.close()
    write_runs([dict(run, question="edited") if run["id"] == "gap" else run for run in RUNS])


def test_a_stale_record_can_be_reapplied_to_the_run_as_it_is_now(
    run_file: Path, write_runs: WriteRuns
) -> None:
    _stale_file(run_file, write_runs)
    review = as_reviewer(run_file, "bob")
    (stale,) = review.stale
    assert review.label(GAP) is False
    assert review.apply_stale(stale) == GAP
    assert review.label(GAP) is True and review.stale == []
    assert review.reviewers(GAP)["alice"].label is True
    review.journal.close()
    again = as_reviewer(run_file, "bob")
    assert again.stale == [] and again.label(GAP) is True


def test_dismissed_stale_records_stay_dismissed(run_file: Path, write_runs: WriteRuns) -> None:
    _stale_file(run_file, write_runs)
    review = as_reviewer(run_file, "bob")
    review.dismiss_stale("gap")
    assert review.stale == []
    assert lines(run_file)[-1]["kind"] == "dismiss"
    review.journal.close()
    again = as_reviewer(run_file, "bob")
    assert again.stale == [] and again.label(GAP) is False and again.reviewed == 1


def test_apply_stale_option_applies_them_for_a_read_only_use(run_file: Path, write_runs: WriteRuns) -> None:
    _stale_file(run_file, write_runs)
    review = open_review(run_file, writable=False, apply_stale=True)
    assert review.label(GAP) is True and review.stale_applied == 1 and review.stale == []


# -- spot-checks ---------------------------------------------------------------------------------


def test_spot_check_is_journaled_and_its_progress_counts_held_and_overturned(run_file: Path) -> None:
    review = as_reviewer(run_file, "alice")
    review.add_spot_check(
        SpotCheck("s1", "all", "", 3, 4, 3, ("gap", "gen", "pass"), "alice", "2026-11-30T15:00:00Z")
    )
    review.set_label(GAP, False)  # held
    review.set_label(PASS, False)  # overturned
    assert review.spot_check_progress("s1") == (2, 1, 1, 0)
    review.journal.close()
    again = as_reviewer(run_file, "bob")
    assert again.spot_checks["s1"].ids == ("gap", "gen", "pass")
    assert again.spot_check_progress("s1") == (2, 1, 1, 0)


# -- live: poll ---------------------------------------------------------------------------------


def test_poll_returns_what_another_writer_appended_and_not_our_own(run_file: Path) -> None:
    alice = as_reviewer(run_file, "alice")
    bob = as_reviewer(run_file, "bob")
    alice.set_label(GEN, True)
    assert alice.poll() == set()  # its own record is not news
    assert bob.poll() == {GEN}
    assert bob.label(GEN) is True and bob.reviewers(GEN)["alice"].label is True
    bob.set_label(PASS, False)
    alice.set_label(BARE, True)
    assert alice.poll() == {PASS}
    assert bob.poll() == {BARE}
    assert bob.poll() == set()


def test_poll_waits_for_a_line_to_be_complete(run_file: Path) -> None:
    log = open_log(run_file)
    log.read()
    record = Entry("gen", True, "", "alice", "2026-11-30T15:00:00Z").to_json()
    with open(journal_path(run_file), "ab") as handle:
        handle.write(record[:10])
        handle.flush()
        assert log.poll() == []
        handle.write(record[10:])
    assert [entry.run for entry in log.poll()] == ["gen"]  # type: ignore[union-attr]


# -- the journal on disk is the journal written -------------------------------------------------


@pytest.mark.parametrize("how", ["deleted", "replaced"])
def test_a_journal_deleted_or_replaced_while_open_gets_the_complete_state_anew(
    run_file: Path, how: str
) -> None:
    review = as_reviewer(run_file, "alice")
    review.set_label(GAP, True)
    review.set_note(GEN, "kept")
    path = Path(journal_path(run_file))
    if how == "deleted":
        path.unlink()
    else:  # as `sed -i` does: a new file renamed over the old
        other = path.with_suffix(".tmp")
        other.write_text(path.read_text("utf-8").splitlines()[0] + "\n", encoding="utf-8")
        os.replace(other, path)
    review.set_label(PASS, False)
    assert any("deleted or replaced" in notice for notice in review.take_notices())
    assert review.unsaved == set()
    review.journal.close()
    again = as_reviewer(run_file, "alice")
    assert again.label(GAP) is True and again.note(GEN) == "kept" and again.label(PASS) is False


def test_a_journal_linked_to_the_run_file_is_refused_and_the_run_file_untouched(run_file: Path) -> None:
    before = run_file.read_bytes()
    os.symlink(run_file, journal_path(run_file))
    review = as_reviewer(run_file, "alice")
    assert any("it is the run file" in problem for problem in review.problems)
    with pytest.raises(JournalError, match="run file"):
        review.set_label(GEN, True)
    assert run_file.read_bytes() == before


def test_a_journal_hard_linked_to_the_run_file_is_refused(run_file: Path) -> None:
    os.link(run_file, journal_path(run_file))
    with pytest.raises(JournalError, match="it is the run file"):
        Journal(journal_path(run_file), run_file).open()


@pytest.mark.parametrize("link", [os.symlink, os.link])
def test_a_journal_linked_to_another_files_journal_is_refused(
    run_file: Path, write_runs: WriteRuns, link: Callable[[str, str], None]
) -> None:
    other = write_runs(RUNS, name="other.jsonl")
    other_review = as_reviewer(other, "alice")
    other_review.set_label(GEN, True)
    other_review.journal.close()
    before = Path(journal_path(other)).read_bytes()
    link(journal_path(other), journal_path(run_file))
    with pytest.raises(JournalError, match="another file's"):
        Journal(journal_path(run_file), run_file).open()
    with pytest.raises(JournalError, match="another file's"):
        open_review(run_file, writable=False)
    assert Path(journal_path(other)).read_bytes() == before


def test_a_symlinked_run_file_with_its_journal_linked_alongside_is_accepted(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    target = data / "runs.jsonl"
    target.write_text("".join(json.dumps(run) + "\n" for run in RUNS), encoding="utf-8")
    Path(journal_path(target)).touch()
    link = tmp_path / "runs.jsonl"
    link.symlink_to(target)
    Path(journal_path(link)).symlink_to(journal_path(target))
    review = as_reviewer(link, "alice")
    assert review.problems == []
    review.set_label(GEN, True)
    assert Path(journal_path(target)).read_text("utf-8").count("\n") == 1


# -- open_review ---------------------------------------------------------------------------------


def test_open_review_reads_the_file_and_replays_the_journal(run_file: Path) -> None:
    first = open_review(run_file, reviewer="alice")
    first.set_label(BARE, True)
    first.journal.close()
    review = open_review(run_file, writable=False)
    assert len(review.store) == 4 and review.label(BARE) is True
    assert not review.journal.shared  # type: ignore[union-attr]
    ignored = open_review(run_file, use_journal=False)
    assert ignored.journal is None and ignored.label(BARE) is None


def test_open_review_without_a_journal_file_creates_none_when_read_only(run_file: Path) -> None:
    open_review(run_file, writable=False)
    assert not Path(journal_path(run_file)).exists()


def test_a_store_loaded_elsewhere_gets_the_same_review(run_file: Path) -> None:
    store = RunStore(run_file)
    review = open_review(run_file, store=store, reviewer="alice")
    assert review.store is store and len(store) == 4
    assert store.stage[GAP] == S_RETRIEVAL


def test_poll_sees_records_another_process_appended(run_file: Path) -> None:
    review = as_reviewer(run_file, "alice")
    review.set_label(GAP, True)
    writer = (
        "import sys; from ragdiag_tui.core.review.journal import Journal; "
        "from ragdiag_tui.core.review.records import Entry; "
        "at = '2026-11-30T15:00:00Z'; "
        "Journal(sys.argv[1]).append(Entry('pass', False, 'from elsewhere', 'bob', at, sys.argv[2]))"
    )
    subprocess.run(
        [sys.executable, "-c", writer, journal_path(run_file), review.digest_of(PASS)], check=True, timeout=60
    )
    assert review.poll() == {PASS}
    assert review.reviewers(PASS)["bob"].note == "from elsewhere"
    assert review.label(PASS) is False and review.store.stage[PASS] == S_GENERATION
    assert review.poll() == set()


def test_polling_a_replaced_journal_keeps_this_reviewers_state_and_rewrites_it(run_file: Path) -> None:
    """`sed -i` on the journal is not a teammate's append: it may bring teammates'
    records, but never changes what this reviewer did, and the review is written anew."""
    alice = as_reviewer(run_file, "alice")
    alice.set_label(0, False)
    journal = Path(f"{run_file}.review.jsonl")
    edited = journal.read_text("utf-8").replace('"label": false', '"label": true')
    bob = json.dumps(
        {
            "v": 1,
            "run": lines(run_file)[0]["run"],
            "label": False,
            "reviewer": "bob",
            "at": "2026-11-30T15:00:00Z",
        }
    )
    replacement = journal.with_name("sed.tmp")
    replacement.write_text(edited + bob + "\n", encoding="utf-8")
    os.replace(replacement, journal)

    changed = alice.poll()

    assert alice.reviewers(0)["alice"].label is False  # alice's own label stands
    assert alice.reviewers(0)["bob"].label is False  # the teammate's record is taken
    assert changed == {0}
    assert any("replaced" in notice for notice in alice.take_notices())
    again = as_reviewer(run_file, "carol")
    assert again.reviewers(0)["alice"].label is False  # the file says so again


# -- last writer by time (issue 22, item 9) -----------------------------------------------------


def _record(run: str, label: bool, reviewer: str, at: str, run_digest: str = "", kind: str = "") -> str:
    data = {
        "v": 1,
        "run": run,
        "label": label,
        "note": at,
        "reviewer": reviewer,
        "at": at,
        "digest": run_digest,
    }
    return json.dumps({**data, "kind": kind} if kind else data) + "\n"


def test_the_latest_record_by_time_is_in_force_wherever_it_sits_in_the_journal(run_file: Path) -> None:
    Path(journal_path(run_file)).write_text(
        _record("gen", True, "alice", "2026-11-30T16:00:00+01:00")  # 15:00 UTC: the latest
        + _record("gen", False, "alice", "2026-11-30T14:30:00Z")
        + _record("pass", False, "alice", "2026-11-30T15:00:00Z")
        + _record("pass", True, "alice", "2026-11-30T15:00:00Z")  # a tie: the later in the file
        + _record("gap", True, "carol", "2026-11-30T15:00:00Z", kind="adjudication")
        + _record("gap", False, "dave", "2026-11-29T15:00:00Z", kind="adjudication"),
        encoding="utf-8",
    )
    review = as_reviewer(run_file, "bob", writable=False)
    assert review.reviewers(GEN)["alice"].label is True and review.note(GEN) == "2026-11-30T16:00:00+01:00"
    assert review.reviewers(PASS)["alice"].label is True
    assert review.adjudication(GAP).reviewer == "carol"  # type: ignore[union-attr]


def test_a_polled_older_record_of_a_reviewer_changes_nothing(run_file: Path) -> None:
    review = as_reviewer(run_file, "bob")
    review.apply(Entry("gen", True, "now", "alice", "2026-11-30T15:00:00Z", review.digest_of(GEN)))
    older = _record("gen", False, "alice", "2026-11-30T14:00:00Z", review.digest_of(GEN))
    with open(journal_path(run_file), "a", encoding="utf-8") as handle:
        handle.write(older)
    assert review.poll() == set()
    assert review.reviewers(GEN)["alice"].note == "now"


def test_a_newer_local_edit_wins_even_over_a_record_from_a_clock_ahead(run_file: Path) -> None:
    """The same name on a machine whose clock runs ahead: an edit made here is still the latest,
    now and when the journal is read again; undo puts back what was there."""
    review = as_reviewer(run_file, "root")
    future = "2999-01-01T00:00:00Z"
    with open(journal_path(run_file), "a", encoding="utf-8") as handle:
        handle.write(_record("gen", True, "root", future, review.digest_of(GEN)))
    assert review.poll() == {GEN}
    review.set_label(GEN, False)
    assert review.my_label(GEN) is False
    assert datetime.fromisoformat(lines(run_file)[-1]["at"]) > datetime.fromisoformat(future)
    again = as_reviewer(run_file, "carol", writable=False)
    assert again.reviewers(GEN)["root"].label is False
    assert review.undo() == GEN
    assert review.my_label(GEN) is True and review.reviewers(GEN)["root"].note == future
    assert as_reviewer(run_file, "carol", writable=False).reviewers(GEN)["root"].label is True


@pytest.mark.parametrize("at", ["2026", "", "2026-11-30T15:00:00", "yesterday", 20261130, None])
def test_a_record_whose_at_is_not_a_timestamp_with_a_zone_is_refused_naming_file_line_and_field(
    run_file: Path, at: Any
) -> None:
    good = _record("gen", True, "alice", "2026-11-30T15:00:00Z")
    bad = json.dumps({"v": 1, "run": "pass", "label": False, "reviewer": "alice", "at": at}) + "\n"
    Path(journal_path(run_file)).write_text(good + bad, encoding="utf-8")
    with pytest.raises(ValueError, match="at is not an ISO-8601 timestamp with a zone"):
        parse_record(bad)
    review = as_reviewer(run_file, "bob", writable=False)
    assert review.reviewers(GEN)["alice"].label is True
    assert review.reviewers(PASS) == {}
    assert any(
        f"{journal_path(run_file)}, line 2: skipped (at is not" in warning for warning in review.warnings
    ), review.warnings
