"""A burst through a dialog of several fields: tab moves on in the order typed.

A box takes a printable key itself, at once, while tab (the screen's binding) moved the
focus only once the key had bubbled up to the app, after the keys typed behind it were in
the box: `D` `model` tab `neyman` left the text of the next field in the one before it.
See ui/widgets/text_keys.py.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Input, RadioSet

from ragdiag_tui.ui.app import create_app
from ragdiag_tui.ui.screens.export import ExportDialog
from ragdiag_tui.ui.screens.sample import SampleDialog

from .helpers import SIZE, burst, journal_entries, loaded, wait_until


def field_values(dialog: SampleDialog) -> dict[str, str]:
    fields = ("size", "margin", "strata", "allocation", "name")
    return {field: dialog.query_one(f"#sample-{field}", Input).value for field in fields}


async def test_a_burst_through_the_sample_dialogs_fields_fills_each_field_typed(demo_path: Path) -> None:
    app = create_app(demo_path, reviewer="typist")
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot)
        burst(app, "D", "8", "0", "tab", "0", ".", "2", "5", "tab", *"model", "tab", *"neyman")
        burst(app, "tab", "tab", *"fast", "shift+tab", "shift+tab", "shift+tab", "end", "backspace")
        dialog_up = lambda: isinstance(app.screen, SampleDialog) and app.screen.query("#sample-name")  # noqa: E731
        await wait_until(pilot, dialog_up, "the sample dialog")
        dialog = app.screen
        strata = dialog.query_one("#sample-strata", Input)
        name = dialog.query_one("#sample-name", Input)
        await wait_until(pilot, lambda: app.focused is strata and name.value, "back in Strata")
        await pilot.pause()  # the keys behind the last tab handled
        fields = field_values(dialog)
        assert fields == {
            "size": "80",
            "margin": "0.25",
            "strata": "mode",
            "allocation": "neyman",
            "name": "fast",
        }


async def test_a_burst_through_the_sample_dialog_draws_what_was_typed(demo_path: Path) -> None:
    app = create_app(demo_path, reviewer="typist")
    async with app.run_test(size=SIZE) as pilot:
        screen = await loaded(pilot)
        burst(app, "D", "tab", "tab", *"model", "tab", *"neyman", "tab", "tab", *"burst", "enter")
        await wait_until(pilot, lambda: screen.spot_check is not None, "the spot-check to open")
        assert screen.spot_check == "burst"
        record = journal_entries(demo_path)[-1]
        assert (record["strata_by"], record["allocation"]) == ("model", "neyman")


async def test_keys_typed_after_tab_in_the_export_dialog_reach_the_format(
    demo_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(demo_path.parent)
    app = create_app(demo_path, reviewer="typist")
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot)
        burst(app, "e", *"out", "tab", "right", "space")  # the second format, chosen by keys
        dialog_up = lambda: isinstance(app.screen, ExportDialog) and app.screen.query("#export-format")  # noqa: E731
        await wait_until(pilot, dialog_up, "the export dialog")
        formats = app.screen.query_one("#export-format", RadioSet)
        await wait_until(pilot, lambda: formats.pressed_index == 1, "the second format chosen")
        assert app.screen.query_one("#export-path", Input).value == "out"  # no space: it chose


async def test_keys_typed_after_tab_in_the_note_reach_its_buttons(demo_path: Path) -> None:
    app = create_app(demo_path, reviewer="typist")
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot)
        burst(app, "c", *"abc", "tab", "enter")  # tab to Save, enter saves (not a new line)
        await wait_until(pilot, lambda: journal_entries(demo_path), "the note")
        saved = [(entry["run"], entry["note"], entry["label"]) for entry in journal_entries(demo_path)]
        assert saved == [("run-0001", "abc", None)]


async def test_keys_typed_after_tab_in_the_filter_leave_the_filter(demo_path: Path) -> None:
    app = create_app(demo_path, reviewer="typist")
    async with app.run_test(size=SIZE) as pilot:
        screen = await loaded(pilot)
        burst(app, "slash", *"007", "tab", *"xyz")
        box = screen.filter_bar.query_input
        await wait_until(pilot, lambda: box.value and app.focused is not box, "focus past the filter")
        await pilot.pause()  # the keys behind the tab handled
        assert box.value == "007"


@pytest.mark.parametrize(("typed", "fmt"), [("out.jsonl", "jsonl"), ("out.json", "json"), ("out.csv", "csv")])
async def test_a_path_typed_in_a_burst_chooses_the_format_its_extension_names(
    demo_path: Path, typed: str, fmt: str
) -> None:
    """`out.json` then `l`: the radio set's answer to `.json` came after `.jsonl` had chosen JSON
    Lines, and set the format back to JSON (JSON Lines named, a JSON array written)."""
    from ragdiag_tui.ui.screens.export import FORMATS

    app = create_app(demo_path, reviewer="typist")
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot)
        burst(app, "e", *typed)
        dialog_up = lambda: isinstance(app.screen, ExportDialog) and app.screen.query("#export-format")  # noqa: E731
        await wait_until(pilot, dialog_up, "the export dialog")
        dialog = app.screen
        path = dialog.query_one("#export-path", Input)
        await wait_until(pilot, lambda: path.value == typed, "the path typed")
        await pilot.pause()  # the radio set's answers handled
        formats = dialog.query_one("#export-format", RadioSet)
        assert (dialog.fmt, FORMATS[formats.pressed_index][0]) == (fmt, fmt)
