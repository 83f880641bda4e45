"""A stratified, sequential spot-check by keys alone: D, a stratum field, an allocation and a
margin; label until the summary says "you may stop"; the statistics conclude with the anytime
interval and a row per stratum."""

from __future__ import annotations

from textual.widgets import Input

from ragdiag_tui.ui.app import create_app
from ragdiag_tui.ui.screens.sample import SampleDialog
from ragdiag_tui.ui.screens.statistics import StatisticsScreen

from .helpers import SIZE, journal_entries, loaded, screen_text, wait_until


async def test_d_draws_by_strata_and_the_labeller_may_stop_at_the_margin(demo_path) -> None:
    app = create_app(demo_path, reviewer="tester")
    async with app.run_test(size=SIZE) as pilot:
        screen = await loaded(pilot)
        await pilot.press("D")
        await wait_until(pilot, lambda: isinstance(app.screen, SampleDialog), "the sample dialog")
        dialog = app.screen

        async def type_into(field: str, text: str) -> None:
            await wait_until(pilot, lambda: app.focused is dialog.query_one(field, Input), field)
            await pilot.press("end", "ctrl+u", *text)  # Textual's Input: delete all to the left

        await type_into("#sample-size", "80")
        await pilot.press("tab")
        await type_into("#sample-margin", "0.25")
        await pilot.press("tab")
        await type_into("#sample-strata", "model")
        await pilot.press("tab")
        await type_into("#sample-allocation", "neyman")
        values = [
            dialog.query_one(f"#sample-{f}", Input).value for f in ("size", "margin", "strata", "allocation")
        ]
        assert values == ["80", "0.25", "model", "neyman"]
        await pilot.press("enter")
        await wait_until(pilot, lambda: screen.spot_check is not None, "the spot-check to open")
        name = screen.spot_check
        record = journal_entries(demo_path)[-1]
        assert (
            record["strata_by"] == "model" and record["allocation"] == "neyman" and record["margin"] == 0.25
        )
        assert [s["stratum"] for s in record["strata"]] == ["gpt-4o-mini", "llama-3.1-70b-instruct"]
        labels = 0
        while "you may stop" not in screen_text(app):
            assert labels < 80, "the anytime interval never came within the margin"
            await pilot.press("y")
            labels += 1
            told = f"{name}: {labels}/80 reviewed"
            await wait_until(pilot, lambda told=told: told in screen_text(app), "the label")
        assert labels < 80  # stopped early
        assert "valid at any stopping point" in screen_text(app)
        await pilot.press("s")
        await wait_until(pilot, lambda: isinstance(app.screen, StatisticsScreen), "the statistics")
        shown = " ".join(screen_text(app).split())
        assert "(anytime 95% CI" in shown
        assert "stratum runs sample reviewed overturned, 95% CI" in shown  # the strata's table
        assert " gpt-4o-mini 40 " in shown and " llama-3.1-70b-instruct 40 " in shown
        assert "you may stop:" in shown
