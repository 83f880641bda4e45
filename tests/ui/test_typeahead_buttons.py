"""Keys typed after enter on a dialog's button, in the same burst, reach what has focus once
the button has acted (the dialog closed): `D` tab… enter on Draw, then `y`, labels the first
run of the spot-check; they used to reach the button (still focused while the dialog closed)
and were lost. See ui/widgets/text_keys.py `InOrderButton`."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import Button

from ragdiag_tui.ui.app import create_app
from ragdiag_tui.ui.screens.confirm import ConfirmDialog
from ragdiag_tui.ui.screens.sample import SampleDialog

from .helpers import SIZE, burst, journal_entries, loaded, wait_until


def tabs_to(screen: object, button_id: str) -> int:
    """How many tabs move the focus from the focused widget to the button `button_id`."""
    chain = screen.focus_chain  # type: ignore[attr-defined]
    here = chain.index(screen.focused)  # type: ignore[attr-defined]
    there = next(at for at, widget in enumerate(chain) if widget.id == button_id)
    return (there - here) % len(chain)


async def open_sample_dialog(pilot: Pilot) -> SampleDialog:
    """`D`, and the sample dialog once its first field has focus."""
    app = pilot.app
    burst(app, "D")
    await wait_until(pilot, lambda: isinstance(app.screen, SampleDialog) and app.focused, "the sample dialog")
    assert isinstance(app.screen, SampleDialog)
    return app.screen


async def test_keys_typed_after_enter_on_the_draw_button_label_the_drawn_runs(demo_path: Path) -> None:
    app = create_app(demo_path, reviewer="typist")
    async with app.run_test(size=SIZE) as pilot:
        screen = await loaded(pilot)
        await open_sample_dialog(pilot)
        burst(app, *["tab"] * tabs_to(app.screen, "draw"), "enter", "y", "n")
        await wait_until(pilot, lambda: screen.spot_check is not None, "the spot-check to open")
        await wait_until(pilot, lambda: screen.review.reviewed == 2, "two labels", seconds=10)
        labels = [entry["label"] for entry in journal_entries(demo_path) if "label" in entry]
        assert labels == [True, False]
        assert isinstance(app.focused, type(screen.table))


async def test_keys_typed_after_enter_on_a_confirm_button_go_to_the_screen_beneath(demo_path: Path) -> None:
    app = create_app(demo_path, reviewer="typist")
    async with app.run_test(size=SIZE) as pilot:
        screen = await loaded(pilot)
        answers: list[bool | None] = []
        app.push_screen(ConfirmDialog("Go on?", yes="Yes", no="No"), answers.append)
        await wait_until(pilot, lambda: isinstance(app.focused, Button), "the confirm dialog")
        burst(app, "enter", "y")  # enter on No (focused first), then y: the run's label
        await wait_until(pilot, lambda: screen.review.reviewed == 1, "the label")
        assert answers == [False]
        assert not isinstance(app.screen, ConfirmDialog)


async def test_a_key_after_enter_on_a_button_that_keeps_its_dialog_open_acts_in_the_dialog(
    demo_path: Path,
) -> None:
    app = create_app(demo_path, reviewer="typist")
    async with app.run_test(size=SIZE) as pilot:
        screen = await loaded(pilot)
        await open_sample_dialog(pilot)
        dialog = app.screen
        burst(app, "backspace", "backspace", "backspace", "backspace", "x")  # a size the dialog refuses
        # Enter on Draw: refused, the focus stays; the tab and enter after it are the dialog's
        # after all (the tab to Cancel, the enter on it), not held for ever.
        burst(app, *["tab"] * tabs_to(dialog, "draw"), "enter", "tab", "enter")
        await wait_until(pilot, lambda: app.screen is not dialog, "Cancel to close the dialog")
        assert screen.spot_check is None and screen.review.reviewed == 0


@pytest.mark.parametrize("size", [(80, 24), (140, 40)])
async def test_the_sample_dialogs_buttons_are_on_screen(demo_path: Path, size: tuple[int, int]) -> None:
    """At 80x24 the six fields, the hint and the buttons used to need more lines than the
    screen had: Draw and Cancel were cut off below. The fields now sit closer there."""
    app = create_app(demo_path, reviewer="typist")
    async with app.run_test(size=size) as pilot:
        await loaded(pilot)
        await open_sample_dialog(pilot)
        await pilot.pause()
        for name in ("draw", "cancel"):
            region = app.screen.query_one(f"#{name}", Button).region
            assert region.height and region.bottom <= size[1], (name, region)
        assert app.screen.query_one("#sample-allocation").region.height == 1
