"""How the screens use the room they have: narrow and wide layouts, the help's scroll hint,
the statistics screen's list and bars, the export dialog's progress."""

from __future__ import annotations

from textual.widgets import OptionList, ProgressBar

from ragdiag_tui.ui.app import RagdiagApp, create_app
from ragdiag_tui.ui.screens.export import ExportDialog
from ragdiag_tui.ui.screens.help import HelpScreen
from ragdiag_tui.ui.screens.statistics import StatisticsScreen
from ragdiag_tui.ui.widgets.detail.run_detail import RunDetail
from ragdiag_tui.ui.widgets.stage_bars import BAR_WIDTH, StageBars

from .helpers import LUCKY, loaded, screen_text, table, wait_until


async def test_narrow_table_shrinks_to_a_short_view_and_the_detail_takes_the_rest(demo_path) -> None:
    app = create_app(demo_path)
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await loaded(pilot)
        full = table(pilot).region.height
        assert full <= screen.query_one("#panes").region.height // 2 + 1  # at most half
        await pilot.press("L")  # nine lucky answers
        await pilot.pause()
        assert table(pilot).region.height == 1 + 9  # the header and its runs, no blank lines
        assert screen.detail.region.height > full
        await pilot.press("a")
        await pilot.pause()
        assert table(pilot).region.height == full


async def test_empty_view_still_shows_why_it_is_empty(app: RagdiagApp) -> None:
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await loaded(pilot)
        await pilot.press("slash", *"no such run", "enter")
        await pilot.pause()
        assert screen.rows == []
        assert "No runs match this view and filter." in screen_text(pilot.app)


async def test_question_and_answer_come_before_the_ids_in_the_detail(app: RagdiagApp) -> None:
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await loaded(pilot)
        table(pilot).cursor = LUCKY
        await pilot.pause()
        detail = screen.query_one(RunDetail)
        order = [widget.id for widget in detail.children if widget.display]
        assert order[:5] == ["run-heading", "run-reason", "run-question", "run-answer", "run-ids"]
        answer = detail.query_one("#run-answer").region
        assert answer.bottom <= detail.region.bottom  # visible at 80x24 without scrolling


async def test_help_says_there_is_more_below_until_the_end(app: RagdiagApp) -> None:
    async with app.run_test(size=(80, 24)) as pilot:
        await loaded(pilot)
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        box = app.screen.query_one("#help-box")
        assert "more below" in str(box.border_subtitle)
        assert app.screen.query_one("#help-keys").show_vertical_scrollbar
        await pilot.press("end")
        await wait_until(pilot, lambda: "more below" not in str(box.border_subtitle), "the end of the help")
        assert "Marks in the run table" in screen_text(pilot.app)


async def test_stage_bars_are_shares_of_all_runs() -> None:
    bars = StageBars.bars([1, 0, 1, 0, 0, 0]).plain.splitlines()
    assert bars[0].count("█") == BAR_WIDTH // 2  # half of the runs: half a bar
    assert bars[2].count("█") == BAR_WIDTH // 2


async def test_statistics_list_is_as_tall_as_its_documents_and_the_footer_offers_enter(demo_path) -> None:
    app = create_app(demo_path)
    async with app.run_test(size=(120, 36)) as pilot:
        await loaded(pilot)
        await pilot.press("s")
        await pilot.pause()
        stats = app.screen
        assert isinstance(stats, StatisticsScreen)
        options = stats.query_one(OptionList)
        assert options.region.height == options.option_count == 9
        text = screen_text(pilot.app)
        assert "Most-missed documents (9 documents)" in text  # not "top 9": that is all of them
        assert "Show runs missing it" in text  # in the footer
        await pilot.press("down", "enter")
        await pilot.pause()
        assert app.review_screen.missing_doc == stats.documents[1][0]


async def test_statistics_heading_says_when_the_list_is_cut(demo_path, monkeypatch) -> None:
    monkeypatch.setattr("ragdiag_tui.ui.screens.statistics.TOP_DOCUMENTS", 3)
    app = create_app(demo_path)
    async with app.run_test(size=(120, 36)) as pilot:
        await loaded(pilot)
        await pilot.press("s")
        await pilot.pause()
        assert "Most-missed documents (top 3 of 9)" in screen_text(pilot.app)


async def test_export_shows_its_progress(app: RagdiagApp, runs_path, monkeypatch) -> None:
    seen: list[tuple[float, float | None]] = []
    original = ExportDialog.on_export_progressed

    def spy(self, event) -> None:
        original(self, event)
        bar = self.query_one(ProgressBar)
        seen.append((bar.progress, bar.total))

    monkeypatch.setattr(ExportDialog, "on_export_progressed", spy)
    monkeypatch.setattr("ragdiag_tui.core.output.export.PROGRESS_EVERY", 2)  # a report every two runs
    async with app.run_test(size=(120, 36)) as pilot:
        await loaded(pilot)
        await pilot.press("e")
        await pilot.pause()
        await pilot.click("#export")
        for _ in range(200):
            if not isinstance(app.screen, ExportDialog):
                break
            await pilot.pause(0.01)
    assert any(0 < done < total for done, total in seen if total)  # it moved along the way
    assert seen[-1][0] == seen[-1][1]  # and reached its end
