"""The review options reach the app from the command line: --adjudicate, --blind, --journal."""

from __future__ import annotations

import json
from pathlib import Path

from ragdiag_tui.cli import parse_args
from ragdiag_tui.core.review.journal import Journal, journal_path
from ragdiag_tui.core.review.records import Entry
from ragdiag_tui.core.review.state import open_review
from ragdiag_tui.ui.app import create_app

from .helpers import settled, wait_until

SIZE = (120, 30)


def conflicted_file(tmp_path: Path) -> Path:
    path = tmp_path / "runs.jsonl"
    path.write_text(json.dumps({"id": "a", "required": ["D1"], "context": ["D1"], "correct": True}) + "\n")
    review = open_review(path, writable=False)
    run_digest = review.digest_of(0)
    journal = Journal(journal_path(path))
    journal.append(Entry("a", True, "", "alice", "2026-01-01T00:00:00.000000Z", run_digest))
    journal.append(Entry("a", False, "", "bob", "2026-01-01T00:00:01.000000Z", run_digest))
    journal.close()
    return path


def app_from_command_line(*argv: str):
    args = parse_args(list(argv))
    return create_app(
        args.file,
        reviewer=args.reviewer,
        field_map=args.field_map,
        journal=args.journal,
        blind=args.blind,
        adjudicate=args.adjudicate,
    )


async def test_an_adjudicator_launched_with_adjudicate_settles_a_conflict_with_one_key(
    tmp_path: Path,
) -> None:
    path = conflicted_file(tmp_path)
    app = app_from_command_line(str(path), "--reviewer", "lead", "--adjudicate")
    async with app.run_test(size=SIZE) as pilot:
        screen = await settled(pilot)
        review = screen.review
        assert review is not None and review.is_conflict(0) and review.adjudicator
        await pilot.press("n")
        await wait_until(pilot, lambda: not review.is_conflict(0), "the adjudication")
    records = [json.loads(line) for line in Path(journal_path(path)).read_text().splitlines()]
    assert records[-1]["kind"] == "adjudication" and records[-1]["reviewer"] == "lead"
    assert open_review(path, writable=False).label_source(0) == "adjudication"


async def test_blind_and_a_journal_elsewhere_reach_the_review(tmp_path: Path) -> None:
    path = conflicted_file(tmp_path)
    elsewhere = tmp_path / "elsewhere.review.jsonl"
    app = app_from_command_line(str(path), "--reviewer", "carol", "--blind", "--journal", str(elsewhere))
    async with app.run_test(size=SIZE) as pilot:
        screen = await settled(pilot)
        review = screen.review
        assert review is not None and review.blind and not review.revealed(0)
        assert review.reviewers(0) == {}  # the other journal holds no review yet
        await pilot.press("y")
        await wait_until(pilot, lambda: review.revealed(0), "revealed once labelled")
    assert json.loads(elsewhere.read_text())["reviewer"] == "carol"
