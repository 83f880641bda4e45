"""SVG snapshots of the main screens at a fixed size, on the sample runs.

Update after a deliberate change with `pytest tests/ui/test_snapshots.py --snapshot-update`,
then look at the SVGs before committing them.
"""

from __future__ import annotations

from ragdiag_tui.ui.app import create_app

from .helpers import loaded, screen_text, table

SNAP_SIZE = (120, 40)
LUCKY_DEMO_ROW = 4  # run-0005 of sample_runs/demo.jsonl: labelled correct, hr-policy-043 missing


def test_main_screen(snap_compare, demo_path) -> None:
    async def ready(pilot) -> None:
        await loaded(pilot)
        text = screen_text(pilot.app)
        assert "reviewed 0/80" in text and "80 of 80 shown" in text and "q Quit" in text

    assert snap_compare(create_app(demo_path, reviewer="snap"), terminal_size=SNAP_SIZE, run_before=ready)


def test_detail_of_a_lucky_answer(snap_compare, demo_path) -> None:
    async def on_lucky_answer(pilot) -> None:
        screen = await loaded(pilot)
        assert screen.review.is_lucky(LUCKY_DEMO_ROW)
        table(pilot).cursor = LUCKY_DEMO_ROW
        await pilot.pause()
        text = screen_text(pilot.app)
        assert "LUCKY ANSWER" in text and "✗ missing  hr-policy-043" in text
        assert "Labelled correct, but hr-policy-043 never reached the model" in text

    assert snap_compare(
        create_app(demo_path, reviewer="snap"), terminal_size=SNAP_SIZE, run_before=on_lucky_answer
    )


def test_statistics_screen(snap_compare, demo_path) -> None:
    async def on_statistics(pilot) -> None:
        await loaded(pilot)
        await pilot.press("s")
        await pilot.pause()
        assert "Runs per stage" in screen_text(pilot.app)
        assert "No spot-checks yet" in screen_text(pilot.app) and "mean recall" in screen_text(pilot.app)

    assert snap_compare(
        create_app(demo_path, reviewer="snap"), terminal_size=SNAP_SIZE, run_before=on_statistics
    )


def test_main_screen_light_theme_at_80x24(snap_compare, runs_path) -> None:
    async def on_lucky(pilot) -> None:
        await loaded(pilot)
        table(pilot).cursor = 2
        await pilot.pause()
        lines = screen_text(pilot.app).splitlines()
        assert "reviewed 0/9" in lines[0] and "q Quit" in lines[-1]  # one summary line; quit shown

    app = create_app(runs_path, reviewer="snap", theme="textual-light")
    assert snap_compare(app, terminal_size=(80, 24), run_before=on_lucky)
