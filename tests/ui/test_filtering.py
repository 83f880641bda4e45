"""Filtering: the `/` box, one-key views, the match count, and sticky rows."""

from __future__ import annotations

import pytest

from ragdiag_tui.core.analysis.filtering import VIEWS, filter_rows
from ragdiag_tui.ui.app import RagdiagApp
from ragdiag_tui.ui.widgets.filter_bar import FilterBar
from ragdiag_tui.ui.widgets.table.run_table import RunTable

from .helpers import GEN, LUCKY, MARKUP_AB, PASS, RETR, SIZE, loaded, screen_text, table


async def test_slash_focuses_filter_and_typing_narrows_as_you_type(app: RagdiagApp) -> None:
    async with app.run_test(size=SIZE) as pilot:
        screen = await loaded(pilot)
        await pilot.press("slash")
        assert app.focused is screen.query_one(FilterBar).query_input
        await pilot.press("l", "u", "c")
        assert list(screen.rows) == [LUCKY]  # "luc": only lucky-3
        await pilot.press("backspace")
        assert LUCKY in screen.rows and len(screen.rows) > 1
        assert "of 11 shown" in screen_text(pilot.app)


async def test_filter_matches_document_ids_and_questions_case_insensitively(app: RagdiagApp) -> None:
    async with app.run_test(size=SIZE) as pilot:
        screen = await loaded(pilot)
        await pilot.press("slash", *"x9")  # a supplied document of pass-1 only
        assert list(screen.rows) == [PASS]
        await pilot.press("escape", "slash", *"401(K)")
        assert list(screen.rows) == [GEN]


async def test_escape_clears_the_filter_and_returns_to_the_table(app: RagdiagApp) -> None:
    async with app.run_test(size=SIZE) as pilot:
        screen = await loaded(pilot)
        await pilot.press("slash", *"retr")
        assert list(screen.rows) == [RETR]
        await pilot.press("escape")
        assert isinstance(app.focused, RunTable)
        assert screen.query_one(FilterBar).query_input.value == ""
        assert len(screen.rows) == len(screen.store)


async def test_typing_y_in_the_filter_box_labels_nothing(app: RagdiagApp) -> None:
    async with app.run_test(size=SIZE) as pilot:
        screen = await loaded(pilot)
        await pilot.press("slash", "y", "n", "space", "c")
        assert screen.review is not None and screen.review.reviewed == 0
        assert screen.query_one(FilterBar).query_input.value == "yn c"


@pytest.mark.parametrize("view", VIEWS, ids=[v.name for v in VIEWS])
async def test_each_view_key_shows_that_view_and_its_count(app: RagdiagApp, view) -> None:
    async with app.run_test(size=SIZE) as pilot:
        screen = await loaded(pilot)
        await pilot.press("y")  # one reviewed run, so the review views are not empty
        if view.name != "all":
            await pilot.press("a")
        await pilot.press(view.key)
        assert screen.view == view.name
        expected = filter_rows(screen.store, screen.review, view.name)
        assert list(screen.rows) == expected
        text = screen_text(pilot.app)
        assert view.title in text
        assert f"{len(expected)} of 11 shown" in text


async def test_lucky_view_lists_runs_labelled_correct_with_missing_evidence(app: RagdiagApp) -> None:
    async with app.run_test(size=SIZE) as pilot:
        screen = await loaded(pilot)
        await pilot.press("L")
        assert list(screen.rows) == [LUCKY, MARKUP_AB]


async def test_run_changed_under_cursor_stays_until_the_cursor_leaves(app: RagdiagApp) -> None:
    async with app.run_test(size=SIZE) as pilot:
        screen = await loaded(pilot)
        await pilot.press("r")  # retrieval view: lucky-3, retr-4, [/], a[b]c
        assert list(screen.rows)[:2] == [LUCKY, RETR]
        await pilot.press("down")  # retr-4: required D2, D3; context D3, X1; incorrect
        assert table(pilot).cursor_row == RETR
        await pilot.press("y")  # still retrieval (D2 missing): stays, of course
        await pilot.press("slash", *"nolabel", "enter")
        await pilot.press("escape")
        # Now a run whose stage really changes: in the label-error view, label it.
        await pilot.press("l")
        assert list(screen.rows) == [6]
        await pilot.press("n")  # nolabel-6 becomes generation
        assert screen.store.stage[6] == 1
        assert list(screen.rows) == [6]  # still shown while the cursor is on it
        assert table(pilot).cursor_row == 6
        await pilot.press("down")  # nowhere to go, the cursor stays: still there
        assert list(screen.rows) == [6]
        await pilot.press("a", "l")  # the filter changes: now it is gone
        assert list(screen.rows) == []


async def test_changed_run_leaves_the_view_when_the_cursor_moves_on(app: RagdiagApp) -> None:
    async with app.run_test(size=SIZE) as pilot:
        screen = await loaded(pilot)
        await pilot.press("U")  # unreviewed
        before = list(screen.rows)
        await pilot.press("y")  # pass-1 is now reviewed
        assert list(screen.rows) == before
        await pilot.press("down")
        assert list(screen.rows) == before[1:]
        assert table(pilot).cursor_row == before[1]
