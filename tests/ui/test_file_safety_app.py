"""The app reads its files in the same process as its writers: `e` (export), `r` (the report
beside the run file) and `D` (a spot-check, recorded in the journal) refuse any file it read,
whatever link leads there, naming what it is, and leave every file as it was."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Input, Static

from ragdiag_tui.core.review.tags import load_tags
from ragdiag_tui.core.runs.corpus import DocsSource
from ragdiag_tui.ui.app import create_app

from ..core.file_safety import aim, fingerprint, make_folder
from .helpers import SIZE, loaded, record_notifications, wait_until
from .test_export_stats_help import wait_for_screen
from .test_report_key import press_r_on_the_statistics_screen


def _app(files: dict[str, Path], journal: Path | None = None):  # type: ignore[no-untyped-def]
    return create_app(
        files["run"],
        reviewer="cleo",
        tags=load_tags(files["tags"]),
        docs=DocsSource(str(files["docs"])),
        journal=str(journal) if journal is not None else None,
    )


@pytest.mark.parametrize(
    ("read", "how", "what"), [("tags", "symlink", "the tags file"), ("docs", "hardlink", "the --docs corpus")]
)
async def test_r_refuses_a_report_path_that_leads_to_the_tags_file_or_the_corpus(
    tmp_path: Path, read: str, how: str, what: str
) -> None:
    files = make_folder(tmp_path / "f")
    root = files["run"].parent
    aim(root / "runs.report.html", files[read], how)
    before = fingerprint(root)
    app = _app(files)
    async with app.run_test(size=SIZE) as pilot:
        told = await press_r_on_the_statistics_screen(pilot)
        await wait_until(pilot, lambda: any("Report not written" in m for m, _ in told), "the refusal", 60)
    assert any(f"it is {what}" in message for message, _ in told), told
    assert fingerprint(root) == before


async def test_e_refuses_an_export_path_that_leads_to_the_tags_file(tmp_path: Path) -> None:
    from ragdiag_tui.ui.screens.export import ExportDialog

    files = make_folder(tmp_path / "f")
    root = files["run"].parent
    link = aim(root / "out.jsonl", files["tags"], "symlink")
    before = fingerprint(root)
    app = _app(files)
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot)
        await pilot.press("e")
        dialog = await wait_for_screen(pilot, ExportDialog)
        dialog.query_one("#export-path", Input).value = str(link)
        await pilot.press("enter")
        error = dialog.query_one("#export-error", Static)
        await wait_until(pilot, lambda: "tags file" in str(error.visual), "the refusal")
        assert isinstance(app.screen, ExportDialog)  # still open: nothing was written
    assert fingerprint(root) == before


async def test_d_never_records_a_spot_check_into_the_tags_file(tmp_path: Path) -> None:
    files = make_folder(tmp_path / "f")
    root = files["run"].parent
    journal = aim(root / "j.jsonl", files["tags"], "symlink")
    before = fingerprint(root)
    app = _app(files, journal)
    async with app.run_test(size=SIZE) as pilot:
        told = record_notifications(app)
        await loaded(pilot)
        await pilot.press("D")
        await pilot.pause()
        await pilot.press("enter")  # draw with the dialog's defaults
        await pilot.pause()
        await wait_until(pilot, lambda: any("it is the tags file" in m for m, _ in told), "the refusal")
        assert any("NOT saved" in m for m, _ in told)
    assert fingerprint(root) == before
