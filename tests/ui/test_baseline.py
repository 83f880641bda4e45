"""`review NEW --baseline OLD`: the `was` column, the changed / fixed / regressed views,
before and after in the detail, and the baseline review's labels offered, never imposed."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from textual.pilot import Pilot
from textual.widgets import Static

from ragdiag_tui.core.review.journal import journal_path
from ragdiag_tui.ui.app import create_app
from ragdiag_tui.ui.screens.review.screen import ReviewScreen

from .helpers import DEMO, detail_text, loaded, record_notifications, screen_text, table, table_lines

AFTER = DEMO.parent / "demo_after.jsonl"
SIZE = (140, 40)


def copy_pair(tmp_path: Path) -> tuple[Path, Path]:
    old, new = tmp_path / "before.jsonl", tmp_path / "after.jsonl"
    shutil.copy(DEMO, old)
    shutil.copy(AFTER, new)
    return old, new


def label_in_journal(path: Path, run: str, label: bool, reviewer: str = "alice") -> None:
    entry = {
        "v": 1,
        "run": run,
        "label": label,
        "note": "",
        "reviewer": reviewer,
        "at": "2026-11-29T10:00:00Z",
    }
    with open(journal_path(path), "a", encoding="utf-8") as handle:
        handle.write(json.dumps(entry) + "\n")


async def with_baseline(pilot: Pilot) -> ReviewScreen:
    screen = await loaded(pilot)
    for _ in range(400):
        if screen.baselines.baseline is not None:
            await pilot.pause()
            return screen
        await pilot.pause(0.01)
    raise AssertionError("the baseline never loaded")


async def shows(pilot: Pilot, words: str) -> bool:
    """Whether `words` come on screen."""
    for _ in range(200):
        if words in " ".join(screen_text(pilot.app).split()):
            return True
        await pilot.pause(0.01)
    return False


async def told(pilot: Pilot, seen: list[tuple[str, str]], words: str) -> bool:
    """Whether a notification recorded in `seen` says `words`."""
    for _ in range(200):
        if any(words in message for message, _ in seen):
            return True
        await pilot.pause(0.01)
    return False


def shown_ids(pilot: Pilot) -> list[str]:
    return [word for line in table_lines(pilot)[1:] for word in line.split()[:2] if word.startswith("run-")]


async def test_the_table_gains_a_was_column(tmp_path: Path) -> None:
    old, new = copy_pair(tmp_path)
    app = create_app(new, reviewer="bob", baseline=old)
    async with app.run_test(size=SIZE) as pilot:
        screen = await with_baseline(pilot)
        lines = table_lines(pilot)
        assert lines[0].split()[:4] == ["id", "stage", "was", "label"]
        row = screen.store.row_of["run-0005"]
        assert lines[1 + row].split()[:3] == ["run-0005", "pass", "retrieval"]
        last = screen.store.row_of["run-0081"]
        table(pilot).cursor = last
        await pilot.pause()
        assert any(line.split()[:3] == ["run-0081", "pass", "new"] for line in table_lines(pilot))


async def test_views_of_changed_fixed_and_regressed_runs(tmp_path: Path) -> None:
    old, new = copy_pair(tmp_path)
    app = create_app(new, reviewer="bob", baseline=old)
    async with app.run_test(size=SIZE) as pilot:
        screen = await with_baseline(pilot)
        await pilot.press("plus")
        assert screen.view == "fixed"
        assert shown_ids(pilot) == ["run-0005", "run-0010", "run-0019", "run-0020", "run-0031"]
        assert "Fixed since the baseline" in screen_text(pilot.app)
        await pilot.press("minus")
        assert shown_ids(pilot) == ["run-0013", "run-0014"]
        await pilot.press("tilde")
        changed = shown_ids(pilot)
        assert "run-0006" in changed and "run-0028" in changed and "run-0001" not in changed
        assert "run-0041" not in changed  # not comparable: another question
        # The views follow the labels: run-0010 labelled incorrect is no longer fixed.
        await pilot.press("plus")
        table(pilot).cursor = 1  # run-0010: generation before, pass now
        await pilot.press("n")
        assert "run-0010" in shown_ids(pilot)  # kept while the cursor is on it
        await pilot.press("up")
        assert shown_ids(pilot) == ["run-0005", "run-0019", "run-0020", "run-0031"]


async def test_the_views_ask_for_a_baseline_without_one(tmp_path: Path) -> None:
    _, new = copy_pair(tmp_path)
    app = create_app(new, reviewer="bob")
    seen = record_notifications(app)
    async with app.run_test(size=SIZE) as pilot:
        screen = await loaded(pilot)
        await pilot.press("plus")
        await pilot.pause()
        assert screen.view == "all"
        assert await told(pilot, seen, "compares with a baseline: open with --baseline OLD_FILE")
        assert table_lines(pilot)[0].split()[:3] == ["id", "stage", "label"]


async def test_the_detail_shows_before_and_after_with_changes_marked(tmp_path: Path) -> None:
    old, new = copy_pair(tmp_path)
    app = create_app(new, reviewer="bob", baseline=old)
    async with app.run_test(size=SIZE) as pilot:
        screen = await with_baseline(pilot)
        table(pilot).cursor = screen.store.row_of["run-0013"]
        await pilot.pause()
        text = detail_text(pilot.app)
        assert "Before → after" in text
        assert "pass  →  retrieval" in text.replace(" PASS ", " pass ")
        assert "REGRESSED" in text
        assert "Required  unchanged (1 ID)" in text
        assert "Supplied  before 3, after 2" in text
        assert "- hr-policy-051  removed" in text
        assert "= hr-policy-060" in text
        table(pilot).cursor = screen.store.row_of["run-0005"]
        await pilot.pause()
        text = detail_text(pilot.app)
        assert "+ hr-policy-043  added" in text and "FIXED" in text
        table(pilot).cursor = screen.store.row_of["run-0041"]
        await pilot.pause()
        assert "not comparable" in detail_text(pilot.app)


async def test_baseline_labels_are_offered_and_applied_only_when_asked(tmp_path: Path) -> None:
    old, new = copy_pair(tmp_path)
    label_in_journal(old, "run-0002", True)  # unchanged since: offered
    label_in_journal(old, "run-0005", False)  # its context changed: not offered
    label_in_journal(old, "run-0003", False)  # unchanged, but bob labels it first: not offered
    label_in_journal(new, "run-0003", True, reviewer="bob")
    app = create_app(new, reviewer="bob", baseline=old)
    seen = record_notifications(app)
    async with app.run_test(size=SIZE) as pilot:
        screen = await with_baseline(pilot)
        assert screen.review is not None
        row = screen.store.row_of["run-0002"]
        assert screen.review.reviewer_label(row) is None  # never applied silently
        assert await told(pilot, seen, "The baseline's review labelled 1 run that is")
        assert [screen.store.ids[r] for r in screen.baselines.baseline.offers] == ["run-0002"]
        table(pilot).cursor = row
        await pilot.pause()
        assert "Offered   correct  by alice" in detail_text(pilot.app)
        await pilot.press("O")
        assert await shows(pilot, "unchanged here (run-0002)")
        await pilot.press("escape")  # the dialog's default answers no
        await pilot.pause()
        assert screen.review.reviewer_label(row) is None
        await pilot.press("O")
        await pilot.pause()
        await pilot.click("#yes")
        await pilot.pause()
        assert screen.review.reviewer_label(row) is True
        entries = [json.loads(line) for line in Path(journal_path(new)).read_text().splitlines()]
        assert entries[-1]["run"] == "run-0002" and entries[-1]["label"] is True
        assert entries[-1]["reviewer"] == "alice"  # issue 16: the label keeps its reviewer
        assert Path(journal_path(old)).read_text().count("\n") == 3  # the baseline's journal untouched


async def test_an_unreadable_baseline_is_reported_and_the_review_goes_on(tmp_path: Path) -> None:
    _, new = copy_pair(tmp_path)
    app = create_app(new, reviewer="bob", baseline=tmp_path / "missing.jsonl")
    seen = record_notifications(app)
    async with app.run_test(size=SIZE) as pilot:
        screen = await loaded(pilot)
        assert await told(pilot, seen, "missing.jsonl: no such file")
        assert screen.baselines.baseline is None
        await pilot.press("y")
        assert screen.review is not None and screen.review.reviewed == 1


async def test_baseline_keys_are_in_the_help_screen(tmp_path: Path) -> None:
    from ragdiag_tui.ui.screens.help import HelpScreen

    _, new = copy_pair(tmp_path)
    app = create_app(new, reviewer="bob")
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot)
        await pilot.press("question_mark")
        for _ in range(200):
            if isinstance(app.screen, HelpScreen):
                break
            await pilot.pause(0.01)
        text = " ".join(str(app.screen.query_one("#help-text", Static).visual).split())
        assert "Baseline (review NEW --baseline OLD)" in text
        for words in (
            "~ Changed since the baseline",
            "+ Fixed since the baseline",
            "- Regressed since the baseline",
            "O Apply the baseline review's labels",
        ):
            assert words in text
