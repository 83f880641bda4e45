"""The screen at the sizes people use: 80x24, 140x40 and 200x50."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ragdiag_tui.ui.app import create_app
from ragdiag_tui.ui.widgets.stage_summary import StageSummary

from .helpers import loaded, screen_text, table

LONG_IDS = {  # too long to stand side by side at 140 columns, short enough one above the other
    "id": "long-ids",
    "question": "Which clause applies?",
    "required": ["contracts/2026/msa#clause-14.2-subsection-b", "contracts/2026/dpa#annex-3"],
    "context": ["contracts/2026/dpa#annex-3", "contracts/2025/msa#clause-14.2-subsection-b"],
    "correct": True,
}
HUGE_ID = "kb/" + "very-long-path-segment/" * 12 + "doc.md"


@pytest.fixture
def long_ids_path(tmp_path: Path) -> Path:
    path = tmp_path / "long.jsonl"
    short = {"id": "short", "required": ["D1"], "context": ["D1", "D2"], "correct": True}
    huge = {"id": "huge", "required": [HUGE_ID], "context": ["D1"], "correct": False}
    path.write_text("".join(json.dumps(run) + "\n" for run in (LONG_IDS, short, huge)), encoding="utf-8")
    return path


async def test_at_80x24_the_summary_is_one_line_and_the_footer_shows_quit(demo_path) -> None:
    app = create_app(demo_path, reviewer="tester")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await loaded(pilot)
        summary = screen.query_one(StageSummary)
        assert summary.region.height == 1
        lines = screen_text(pilot.app).splitlines()
        assert "reviewed 0/80" in lines[0] and "retr 20" in lines[0] and "lucky 9" in lines[0]
        assert "q Quit" in lines[-1]
        await pilot.press("A")  # a mode in force still fits
        assert summary.region.height == 1
        assert "(auto-advance)" in screen_text(pilot.app).splitlines()[0]


@pytest.mark.parametrize("size", [(140, 40), (200, 50)])
async def test_wide_detail_never_wraps_an_id_away_from_its_mark(long_ids_path, size) -> None:
    app = create_app(long_ids_path, reviewer="tester")
    async with app.run_test(size=size) as pilot:
        screen = await loaded(pilot)
        text = screen_text(pilot.app)
        for doc in LONG_IDS["required"]:
            mark_word = "✓ present" if doc in LONG_IDS["context"] else "✗ missing"
            assert f"{mark_word}  {doc}" in text, doc
        for doc in LONG_IDS["context"]:
            mark_word = "✓ matching" if doc in LONG_IDS["required"] else "+ extra   "
            assert f"{mark_word}  {doc}" in text, doc
        stacked = screen.detail.query_one("#run-ids").has_class("-stacked")
        assert stacked  # side by side, the two lists would not fit even at 200 columns
        table(pilot).cursor = 1  # short IDs: side by side at any wide size
        await pilot.pause()
        assert not screen.detail.query_one("#run-ids").has_class("-stacked")
        assert "✓ present  D1" in screen_text(pilot.app)
        table(pilot).cursor = 2  # an ID longer than any line: it wraps, but its start
        await pilot.pause()  # stays beside its mark and word
        assert f"✗ missing  {HUGE_ID[:30]}" in screen_text(pilot.app)
