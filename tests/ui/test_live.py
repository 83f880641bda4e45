"""Live updates between two apps sharing one journal file (two terminals, two browser tabs)."""

from __future__ import annotations

from pathlib import Path

from textual.pilot import Pilot

from ragdiag_tui.ui.app import RagdiagApp, create_app

from .helpers import GEN, PASS, SIZE, detail_text, loaded, table, table_lines, wait_until


def row_line(pilot: Pilot, row: int) -> str:
    return table_lines(pilot)[1 + table(pilot).rows.index(row)]


def summary_text(pilot: Pilot) -> str:
    return str(pilot.app.screen.query_one("#summary").visual)


async def test_two_apps_on_one_journal_file_see_each_others_labels_live(runs_path: Path) -> None:
    alice: RagdiagApp = create_app(runs_path, reviewer="alice")
    bob: RagdiagApp = create_app(runs_path, reviewer="bob")
    async with alice.run_test(size=SIZE) as a, bob.run_test(size=SIZE) as b:
        await loaded(a)
        await loaded(b)
        assert not row_line(b, GEN).startswith("✓")
        assert "reviewed 0/" in summary_text(b)
        await a.press("down", "y")  # alice: gen-2 is correct after all
        await a.press("c", *"checked twice", "ctrl+s")
        await wait_until(b, lambda: row_line(b, GEN).startswith("✓"), "alice's mark in bob's table")
        await wait_until(b, lambda: "reviewed 1/" in summary_text(b), "bob's summary to count it")
        await b.press("down")
        await wait_until(b, lambda: "checked twice" in detail_text(b.app), "alice's note in bob's detail")
        await b.press("up", "n")  # bob labels pass-1; alice sees it
        await wait_until(a, lambda: row_line(a, PASS).startswith("✓"), "bob's mark in alice's table")
        assert alice.review_screen.review is not None
        assert alice.review_screen.review.reviewers(PASS)["bob"].label is False
        assert "bob" not in alice.review_screen.review.reviewers(GEN)
