"""Sorting by any column, jumping to unreviewed runs, moving on after a label, and the
field and view terms of the filter box."""

from __future__ import annotations

from ragdiag_tui.core.analysis.sorting import ASCENDING, DESCENDING, FILE_ORDER
from ragdiag_tui.ui.app import RagdiagApp
from ragdiag_tui.ui.widgets.detail.run_detail import RunDetail

from .helpers import (
    BAD_CTX,
    BROKEN,
    GEN,
    LUCKY,
    MARKUP_AB,
    MARKUP_CLICK,
    MARKUP_SLASH,
    NOLABEL,
    PASS,
    RETR,
    SIZE,
    UNRES,
    loaded,
    screen_text,
    table,
    table_lines,
)


async def test_o_cycles_ascending_descending_file_order_and_the_header_shows_it(app: RagdiagApp) -> None:
    async with app.run_test(size=SIZE) as pilot:
        screen = await loaded(pilot)
        await pilot.press("o")  # the id column first
        assert (screen.sort_column, screen.sort_direction) == ("id", ASCENDING)
        ids = [screen.store.ids[row] for row in screen.rows]
        assert ids == sorted(ids)
        assert "id▲" in table_lines(pilot)[0]
        assert "sorted by id ▲" in screen_text(pilot.app)
        await pilot.press("o")
        assert screen.sort_direction == DESCENDING
        # Stable: the two invalid lines without an id keep their file order.
        assert [screen.store.ids[row] for row in screen.rows] == sorted(ids, reverse=True)
        assert "id▼" in table_lines(pilot)[0]
        await pilot.press("o")
        assert screen.sort_direction == FILE_ORDER
        assert list(screen.rows) == list(range(len(screen.store)))
        assert "sorted by" not in screen_text(pilot.app)


async def test_greater_than_sorts_by_the_next_column_stably(app: RagdiagApp) -> None:
    async with app.run_test(size=SIZE) as pilot:
        screen = await loaded(pilot)
        await pilot.press("greater_than_sign")  # from id (in file order): id itself, ascending
        await pilot.press("greater_than_sign")  # stage
        assert (screen.sort_column, screen.sort_direction) == ("stage", ASCENDING)
        # retrieval, generation, pass, unresolved, label error, invalid; file order within each
        assert list(screen.rows) == [
            LUCKY, RETR, MARKUP_SLASH, MARKUP_AB, GEN, PASS, MARKUP_CLICK, UNRES, NOLABEL, BROKEN, BAD_CTX,
        ]  # fmt: skip
        await pilot.press("o")  # descending: still file order within a stage
        assert list(screen.rows)[:3] == [BROKEN, BAD_CTX, NOLABEL]
        await pilot.press("less_than_sign")
        assert (screen.sort_column, screen.sort_direction) == ("id", ASCENDING)


async def test_sorting_keeps_the_cursor_on_its_run_and_the_view(app: RagdiagApp) -> None:
    async with app.run_test(size=SIZE) as pilot:
        screen = await loaded(pilot)
        await pilot.press("r")  # retrieval: lucky-3, retr-4, [/], a[b]c
        table(pilot).cursor = 1
        await pilot.pause()
        assert table(pilot).cursor_row == RETR
        await pilot.press("o", "o")  # id, descending
        assert list(screen.rows) == [RETR, LUCKY, MARKUP_AB, MARKUP_SLASH]
        assert table(pilot).cursor_row == RETR
        await pilot.press("y")  # a label on a sorted view: the run stays where it is
        assert list(screen.rows) == [RETR, LUCKY, MARKUP_AB, MARKUP_SLASH]


async def test_clicking_a_title_sorts_by_that_column(app: RagdiagApp) -> None:
    async with app.run_test(size=SIZE) as pilot:
        screen = await loaded(pilot)
        header = table_lines(pilot)[0]
        await pilot.click("#runs", offset=(header.index("miss") + 1, 0))
        assert (screen.sort_column, screen.sort_direction) == ("missing", ASCENDING)
        await pilot.click("#runs", offset=(header.index("miss") + 1, 0))
        assert screen.sort_direction == DESCENDING
        assert list(screen.rows)[:4] == [LUCKY, RETR, MARKUP_SLASH, MARKUP_AB]  # one missing each, file order


async def test_brackets_jump_to_the_next_and_previous_unreviewed_run(app: RagdiagApp) -> None:
    async with app.run_test(size=SIZE) as pilot:
        screen = await loaded(pilot)
        review = screen.review
        review.set_label(GEN, True)
        review.set_label(LUCKY, True)
        await pilot.press("right_square_bracket")  # from pass-1: gen-2 and lucky-3 are reviewed
        assert table(pilot).cursor_row == RETR
        await pilot.press("left_square_bracket")
        assert table(pilot).cursor_row == PASS
        await pilot.press("right_square_bracket", "right_square_bracket")
        assert table(pilot).cursor_row == UNRES
        await pilot.press("right_square_bracket")
        assert table(pilot).cursor_row == NOLABEL  # broken-json is an invalid line: never to review


async def test_j_and_k_move_between_runs_in_the_full_size_detail(app: RagdiagApp) -> None:
    async with app.run_test(size=SIZE) as pilot:
        screen = await loaded(pilot)
        await pilot.press("enter")
        detail = screen.query_one(RunDetail)
        assert screen.maximized is detail
        await pilot.press("j", "j")
        assert table(pilot).cursor_row == LUCKY
        assert "lucky-3" in screen_text(pilot.app)
        await pilot.press("k")
        assert table(pilot).cursor_row == GEN
        assert screen.maximized is detail


async def test_auto_advance_is_off_by_default_and_a_toggles_it(app: RagdiagApp) -> None:
    async with app.run_test(size=SIZE) as pilot:
        screen = await loaded(pilot)
        await pilot.press("y")
        assert table(pilot).cursor_row == PASS  # off: the cursor stays
        await pilot.press("A")
        assert screen.auto_advance
        assert "(auto-advance)" in screen_text(pilot.app)
        await pilot.press("y")  # pass-1 again, now moving on
        assert table(pilot).cursor_row == GEN
        screen.review.set_label(LUCKY, False)
        await pilot.press("n")  # gen-2 labelled: lucky-3 is reviewed, so on to retr-4
        assert table(pilot).cursor_row == RETR
        await pilot.press("A")
        assert not screen.auto_advance
        assert "(auto-advance)" not in screen_text(pilot.app)


async def test_auto_advance_in_the_unreviewed_view_moves_on_and_drops_the_labelled_run(
    app: RagdiagApp,
) -> None:
    async with app.run_test(size=SIZE) as pilot:
        screen = await loaded(pilot)
        await pilot.press("U", "A")
        first, second = list(screen.rows)[:2]
        await pilot.press("y")
        assert table(pilot).cursor_row == second
        assert first not in screen.rows


async def test_field_and_view_terms_in_the_filter_box(app: RagdiagApp) -> None:
    async with app.run_test(size=SIZE) as pilot:
        screen = await loaded(pilot)
        await pilot.press("slash", *"model:m-small")
        assert list(screen.rows) == [PASS, LUCKY]
        await pilot.press("escape", "L", "slash", *"is:unreviewed")
        assert list(screen.rows) == [LUCKY, MARKUP_AB]
        screen.review.set_label(LUCKY, True)
        await pilot.press("space")  # retype: the filter applies afresh
        assert list(screen.rows) == [MARKUP_AB]
        assert "Lucky answers" in screen_text(pilot.app)
