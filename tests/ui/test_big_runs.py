"""Runs too big to show whole: thousands of IDs, huge counts, long values, long error messages.

The screen shows a bounded part of each (and says how much is left out); the
exact counts stay in the headers, and the export keeps every value whole.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from textual.content import Content
from textual.widgets import Static

from ragdiag_tui.core.output.export import exported_run
from ragdiag_tui.ui.app import create_app
from ragdiag_tui.ui.widgets.detail.detail_text import MAX_VALUE
from ragdiag_tui.ui.widgets.detail.id_lists import LAST_LACKING, MAX_IDS
from ragdiag_tui.ui.widgets.detail.run_detail import RunDetail
from ragdiag_tui.ui.widgets.table.run_cells import count

from .helpers import SIZE, detail_text, loaded, table_lines


def write_runs(path: Path, *runs: dict[str, Any]) -> Path:
    path.write_text("".join(json.dumps(run) + "\n" for run in runs), encoding="utf-8")
    return path


def column(detail: RunDetail, name: str) -> Content:
    visual = detail.query_one(f"#run-{name}", Static).visual
    assert isinstance(visual, Content)
    return visual


def many_ids(n_required: int, n_missing: int) -> dict[str, Any]:
    """A run of `n_required` IDs, the first `n_missing` of them not supplied."""
    required = [f"R{n}" for n in range(n_required)]
    return {"id": "many", "required": required, "context": required[n_missing:], "correct": True}


async def test_missing_ids_come_first_then_the_present_ones(tmp_path: Path) -> None:
    run = {"id": "few", "required": ["A", "B", "C"], "context": ["B", "X"], "correct": False}
    app = create_app(write_runs(tmp_path / "few.jsonl", run))
    async with app.run_test(size=SIZE) as pilot:
        screen = await loaded(pilot)
        required = column(screen.detail, "required").plain.splitlines()
        assert required == ["Required (3)", "✗ missing  A", "✗ missing  C", "✓ present  B"]
        supplied = column(screen.detail, "supplied").plain.splitlines()
        assert supplied == ["Supplied (2)", "+ extra     X", "✓ matching  B"]


async def test_a_long_id_list_is_cut_with_exact_counts_and_a_muted_remainder(tmp_path: Path) -> None:
    app = create_app(write_runs(tmp_path / "many.jsonl", many_ids(1_000, 50)))
    async with app.run_test(size=SIZE) as pilot:
        screen = await loaded(pilot)
        content = column(screen.detail, "required")
        lines = content.plain.splitlines()
        assert lines[0] == "Required (1000)"  # the header counts every ID
        assert lines[1:51] == [f"✗ missing  R{n}" for n in range(50)]  # all the missing ones first
        assert lines[51] == "✓ present  R50"
        assert len(lines) == 1 + MAX_IDS + 1
        assert lines[-1] == f"… and {1_000 - MAX_IDS} more (50 missing in all)"
        muted = screen.detail._component("run-detail--muted")
        last = content.spans[-1]
        assert content.plain[last.start : last.end] == lines[-1] and last.style == muted
        supplied = column(screen.detail, "supplied").plain.splitlines()
        assert supplied[0] == "Supplied (950)"
        assert supplied[-1] == f"… and {950 - MAX_IDS} more (0 extra in all)"


async def test_more_missing_ids_than_fit_show_the_first_and_the_last(tmp_path: Path) -> None:
    app = create_app(write_runs(tmp_path / "many.jsonl", many_ids(10_000, 5_000)))
    async with app.run_test(size=SIZE) as pilot:
        screen = await loaded(pilot)
        lines = column(screen.detail, "required").plain.splitlines()
        head = MAX_IDS - LAST_LACKING
        assert lines[head] == f"✗ missing  R{head - 1}"
        assert lines[head + 1] == f"⋮ {5_000 - MAX_IDS} more missing"
        assert lines[-2] == "✗ missing  R4999"  # the last missing one
        assert lines[-1] == f"… and {10_000 - MAX_IDS} more (5000 missing in all)"
        assert "present" not in column(screen.detail, "required").plain


async def test_relabelling_a_run_with_10000_ids_keeps_its_id_lists(tmp_path: Path) -> None:
    """A label change shows the run again; its ID columns are not rebuilt (they cannot change)."""
    app = create_app(write_runs(tmp_path / "many.jsonl", many_ids(10_000, 5_000)))
    async with app.run_test(size=SIZE) as pilot:
        screen = await loaded(pilot)
        before = column(screen.detail, "required")
        await pilot.press("n")
        assert screen.review is not None and screen.review.reviewer_label(0) is False
        assert "Reviewer label incorrect" in detail_text(pilot.app)
        assert column(screen.detail, "required") is before
        app.theme = "textual-light"  # colours are baked into the columns: rebuilt
        await pilot.pause()
        assert column(screen.detail, "required") is not before


async def test_table_shows_large_id_counts_compactly(tmp_path: Path) -> None:
    app = create_app(write_runs(tmp_path / "many.jsonl", many_ids(10_000, 12_345 - 10_000)))
    async with app.run_test(size=(80, 24)) as pilot:
        await loaded(pilot)
        header, line, *_ = table_lines(pilot)
        assert header.split()[4:7] == ["miss", "req", "sup"]
        assert line.split()[4:7] == ["2345", "10k", "7655"]  # was "10…"


def test_counts_fit_four_cells_and_never_overstate() -> None:
    shown = {
        0: "0",
        9_999: "9999",
        10_000: "10k",
        10_999: "10k",
        999_999: "999k",
        1_000_000: "1.0M",
        1_250_000: "1.2M",
        9_999_999: "9.9M",
        10_000_000: "10M",
        999_999_999: "999M",
        1_000_000_000: "1.0G",
        4_294_967_295: "4.2G",  # the most a store's count column holds
    }
    assert {n: count(n) for n in shown} == shown
    assert all(len(count(10**e - 1)) <= 4 and len(count(10**e)) <= 4 for e in range(10))


async def test_a_long_question_is_cut_on_screen_with_its_length_and_exported_whole(tmp_path: Path) -> None:
    question = "Q" + "x" * 1_000_000
    run = {"id": "long", "question": question, "required": ["D1"], "context": ["D1"], "correct": True}
    app = create_app(write_runs(tmp_path / "long.jsonl", run))
    async with app.run_test(size=SIZE) as pilot:
        screen = await loaded(pilot)
        text = screen.detail.query_one("#run-question-text", Static).visual
        assert str(text).endswith(f"… ({MAX_VALUE:,} of {len(question):,} characters shown)")
        assert len(str(text)) < MAX_VALUE + 100
        assert table_lines(pilot)[1].rstrip().endswith("x…")
        assert screen.review is not None
        assert exported_run(screen.store, screen.review, 0)["question"] == question


async def test_a_failed_load_shows_its_whole_reason_at_80x24(tmp_path: Path) -> None:
    folder = tmp_path / "a-folder-with-a-rather-long-name" / "and-another-one-below-it" / "and-a-third"
    folder.mkdir(parents=True)
    path = folder / "runs-exported-from-the-evaluation-service.jsonl"
    path.write_bytes("\ufeff".encode("utf-16-le") + '{"id": "a"}\n'.encode("utf-16-le"))
    app = create_app(path)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.review_screen
        for _ in range(300):
            if not screen.query_one("#load-status").display:
                break
            await pilot.pause(0.01)
        await pilot.pause()
        message = screen.table.empty_message
        assert str(path) in message and message.endswith("convert it to UTF-8")
        lines = table_lines(pilot)[1:]  # every line the table shows, under its header
        shown = [line.strip() for line in lines if line.strip()]
        assert len(shown) > 1  # wrapped, not cut
        assert "".join("".join(shown).split()) == "".join(message.split())
        assert all(len(line) <= 80 for line in lines)
