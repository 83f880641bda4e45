"""A burst through the command palette: enter runs the top match for the text typed before
it (once that search has finished), and the keys typed after enter act on the runs.

The palette searches in a worker: `ctrl+p` `correct` enter `j` `y` in one burst picked what
the search before had highlighted (it opened the adjudication dialog) and typed "jy" into
the palette. See ui/screens/command_palette.py.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from textual.command import CommandInput, CommandList, CommandPalette, Hits
from textual.system_commands import SystemCommandsProvider

from ragdiag_tui.ui.app import create_app
from ragdiag_tui.ui.screens.command_palette import TypedAheadPalette

from .helpers import SIZE, burst, journal_entries, loaded, wait_until


@pytest.fixture
def searched(monkeypatch: pytest.MonkeyPatch) -> asyncio.Event:
    """Every search of the palette waits until this is set."""
    done = asyncio.Event()
    textual_search = SystemCommandsProvider.search

    async def slow_search(provider: SystemCommandsProvider, query: str) -> Hits:
        await done.wait()
        async for hit in textual_search(provider, query):
            yield hit

    monkeypatch.setattr(SystemCommandsProvider, "search", slow_search)
    return done


def labels(run_path: Path) -> list[tuple[str, bool | None]]:
    return [(entry["run"], entry["label"]) for entry in journal_entries(run_path)]


async def test_enter_in_the_palette_runs_the_command_typed_and_the_keys_after_act_on_the_runs(
    demo_path: Path,
) -> None:
    app = create_app(demo_path, reviewer="typist")
    async with app.run_test(size=SIZE) as pilot:
        screen = await loaded(pilot)
        burst(app, "ctrl+p", *"correct", "enter", "j", "n")
        await wait_until(pilot, lambda: len(journal_entries(demo_path)) >= 2, "two labels")
        assert labels(demo_path) == [("run-0001", True), ("run-0002", False)]
        assert app.screen is screen  # no dialog (the adjudication one opened)
        assert screen.focused is screen.table


async def test_enter_waits_for_the_search_for_the_text_typed_before_it(
    demo_path: Path, searched: asyncio.Event
) -> None:
    app = create_app(demo_path, reviewer="typist")
    async with app.run_test(size=SIZE) as pilot:
        screen = await loaded(pilot)
        burst(app, "ctrl+p", *"incorrect", "enter", "j", "y")
        await wait_until(
            pilot, lambda: [key.key for key in app.typeahead.held] == ["j", "y"], "the keys after enter held"
        )
        palette = app.screen
        assert isinstance(palette, TypedAheadPalette) and palette.working
        assert palette.query_one(CommandInput).value == "incorrect"
        assert journal_entries(demo_path) == []  # the list still shows what an empty box offers
        searched.set()
        await wait_until(pilot, lambda: len(journal_entries(demo_path)) >= 2, "two labels")
        assert labels(demo_path) == [("run-0001", False), ("run-0002", True)]
        assert app.screen is screen


async def test_an_enter_that_finds_nothing_leaves_the_palette_open_and_the_keys_in_its_box(
    demo_path: Path,
) -> None:
    app = create_app(demo_path, reviewer="typist")
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot)
        burst(app, "ctrl+p", *"zqzq", "enter", "x", "y")
        await wait_until(pilot, lambda: isinstance(app.screen, CommandPalette), "the palette")
        palette = app.screen
        assert isinstance(palette, TypedAheadPalette)
        box = palette.query_one(CommandInput)
        await wait_until(pilot, lambda: box.value == "zqzqxy", "the keys after enter in the box")
        assert app.screen is palette and not palette.working
        assert journal_entries(demo_path) == []


async def test_the_arrows_in_the_palette_move_through_its_list(demo_path: Path) -> None:
    app = create_app(demo_path, reviewer="typist")
    async with app.run_test(size=SIZE) as pilot:
        screen = await loaded(pilot)
        await pilot.press("ctrl+p", *"view")
        palette = app.screen
        searching = lambda: any(w.node is palette and not w.is_finished for w in app.workers)  # noqa: E731
        await wait_until(
            pilot,
            lambda: palette.query_one(CommandList).option_count > 3 and not searching(),
            "the views listed",
        )
        await pilot.press("down", "down", "up", "down", "enter")  # the box's own (scrolling) arrows decline
        await wait_until(pilot, lambda: app.screen is screen, "the palette closed")
        assert screen.view == "generation"  # the third view listed


async def test_a_move_in_the_list_waits_for_the_search_for_the_text_typed_before_it(
    demo_path: Path, searched: asyncio.Event
) -> None:
    app = create_app(demo_path, reviewer="typist")
    async with app.run_test(size=SIZE) as pilot:
        screen = await loaded(pilot)
        # "correct" finds Correct, then Incorrect: down picks the second.
        burst(app, "ctrl+p", *"correct", "down", "enter", "j", "y")
        await wait_until(
            pilot,
            lambda: [key.key for key in app.typeahead.held] == ["down", "enter", "j", "y"],
            "the move and the keys after it held",
        )
        assert journal_entries(demo_path) == []
        searched.set()
        await wait_until(pilot, lambda: len(journal_entries(demo_path)) >= 2, "two labels")
        assert labels(demo_path) == [("run-0001", False), ("run-0002", True)]
        assert app.screen is screen


async def test_a_move_typed_between_the_text_and_enter_picks_the_match_it_moved_to(demo_path: Path) -> None:
    app = create_app(demo_path, reviewer="typist")
    async with app.run_test(size=SIZE) as pilot:
        screen = await loaded(pilot)
        burst(app, "ctrl+p", *"correct", "down", "enter", "j", "y")
        await wait_until(pilot, lambda: len(journal_entries(demo_path)) >= 2, "two labels")
        assert labels(demo_path) == [("run-0001", False), ("run-0002", True)]
        assert app.screen is screen
