"""The statistics screen's `r`: the report of what it shows, written beside the run file, and a
notice that names the path; never in blind mode."""

from __future__ import annotations

import json
from html.parser import HTMLParser
from pathlib import Path

from textual.pilot import Pilot

from ragdiag_tui.ui.app import create_app
from ragdiag_tui.ui.screens.statistics import StatisticsScreen

from ..core.report_files import reviewed_demo
from .helpers import SIZE, loaded, record_notifications, wait_until


class _Data(HTMLParser):
    """The JSON the report embeds."""

    def __init__(self) -> None:
        super().__init__()
        self.json = ""
        self._inside = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._inside = ("id", "ragdiag-report") in attrs

    def handle_data(self, data: str) -> None:
        if self._inside:
            self.json += data


async def press_r_on_the_statistics_screen(pilot: Pilot) -> list[tuple[str, str]]:
    """Open the statistics screen once the runs are in, press `r`; the notices from then on."""
    await loaded(pilot)
    told = record_notifications(pilot.app)
    await pilot.press("s")
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, StatisticsScreen), "the statistics screen")
    await pilot.press("r")
    return told


async def test_r_on_the_statistics_screen_writes_the_report_and_says_where(tmp_path: Path) -> None:
    path, _ = reviewed_demo(tmp_path)
    report = tmp_path / "demo.report.html"
    app = create_app(path, reviewer="cleo")
    async with app.run_test(size=SIZE) as pilot:
        told = await press_r_on_the_statistics_screen(pilot)
        await wait_until(pilot, lambda: any("Report written" in m for m, _ in told), "the notice", 60)
        assert (f"Report written to {report}", "information") in told
        assert isinstance(app.screen, StatisticsScreen)  # the figures stay on screen
    parser = _Data()
    parser.feed(report.read_text(encoding="utf-8"))
    figures = json.loads(parser.json)
    assert figures["stats"]["spot_checks"][0]["overturned"] == 3
    assert figures["stats"]["reviewed"] == 5


async def test_r_in_blind_mode_writes_nothing(tmp_path: Path) -> None:
    path, _ = reviewed_demo(tmp_path)
    app = create_app(path, reviewer="cleo", blind=True)
    async with app.run_test(size=SIZE) as pilot:
        told = await press_r_on_the_statistics_screen(pilot)
        await wait_until(pilot, lambda: told, "a notice")
    assert "No report in blind mode" in told[0][0]
    assert not (tmp_path / "demo.report.html").exists()


async def test_with_an_export_folder_the_report_goes_there(tmp_path: Path) -> None:
    path, _ = reviewed_demo(tmp_path)
    exports = tmp_path / "exports"
    exports.mkdir()
    app = create_app(path, reviewer="cleo", export_dir=exports)
    async with app.run_test(size=SIZE) as pilot:
        told = await press_r_on_the_statistics_screen(pilot)
        await wait_until(pilot, lambda: any("Report written" in m for m, _ in told), "the notice", 60)
    assert (exports / "demo.report.html").is_file()
    assert not (tmp_path / "demo.report.html").exists()
