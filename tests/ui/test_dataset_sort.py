"""Sorting the table over a dataset read in place: `>`, `<`, `o` and a click on a title order
the view's runs by the engine, the review's labels laid over it, as the same keys order one
file of the same runs; the header and the filter bar say the order; keys typed in a burst
end in the order and filter they name."""

from __future__ import annotations

from pathlib import Path

import pytest

from ragdiag_tui.core.analysis.filtering import filter_rows
from ragdiag_tui.core.analysis.sorting import ASCENDING, DESCENDING, FILE_ORDER, SORT_COLUMNS, sort_rows
from ragdiag_tui.core.review.state import Review, open_review

from .helpers import burst, loaded, record_notifications, screen_text, table_lines, wait_until
from .test_dataset_review import SIZE, lake_app, write_lake

pytest.importorskip("duckdb")


def labelled(one: Path) -> Review:
    """One file of the lake's runs with the labels the app's keys set below."""
    local = open_review(one, reviewer="ann")
    local.set_label(79, True)  # run-0080: a lucky answer now
    local.set_label(1, False)  # run-0002: the reviewer's now
    return local


def expected_ids(local: Review, view: str, search: str, column: str, direction: int) -> list[str]:
    rows = filter_rows(local.store, local, view, search)
    return [local.store.ids[row] for row in sort_rows(local.store, local, rows, column, direction)]


def sorted_as(screen, column: str, direction: int, want: list[str]):
    """Whether the screen shows `want`, sorted by `column` in `direction`, and says so."""
    said = "sorted by " + (f"{column} {'▲' if direction == ASCENDING else '▼'}" if direction else "")

    def shown() -> bool:
        if (screen.sort_column, screen.sort_direction) != (column, direction) or shown_ids(screen) != want:
            return False
        return (said in screen_text(screen.app)) == bool(direction)

    return shown


def shown_ids(screen) -> list[str]:
    return [screen.store.ids[row] for row in screen.rows]


@pytest.mark.parametrize("kind", ["jsonl", "parquet"])
async def test_every_column_sorts_a_lake_as_one_file_both_ways(tmp_path: Path, kind: str) -> None:
    lake, one = write_lake(tmp_path, kind)
    local = labelled(one)
    app = lake_app(lake, reviewer="ann")
    async with app.run_test(size=SIZE) as pilot:
        screen = await loaded(pilot)
        said = record_notifications(app)
        await pilot.press("end", "y", "home", "down", "n")
        await pilot.press("greater_than_sign")  # from dataset order: the sort column itself, id
        for column in (*SORT_COLUMNS[1:], SORT_COLUMNS[0]):
            for direction in (ASCENDING, DESCENDING):
                want = expected_ids(local, "all", "", column, direction)
                await wait_until(
                    pilot, sorted_as(screen, column, direction, want), f"by {column}, {direction}"
                )
                await pilot.press("o" if direction == ASCENDING else "greater_than_sign")
        await pilot.press("L", "slash", *"HR", "enter")  # the lucky answers naming an HR document, sorted
        column, direction = screen.sort_column, screen.sort_direction
        want = expected_ids(local, "lucky", "HR", column, direction)
        await wait_until(pilot, sorted_as(screen, column, direction, want), "the sorted filter")
        assert 1 < len(want) < len(local.store)
        await pilot.press("less_than_sign")
        want = expected_ids(local, "lucky", "HR", screen.sort_column, ASCENDING)
        await wait_until(pilot, sorted_as(screen, screen.sort_column, ASCENDING, want), "the column before")
        await pilot.press("o", "o")  # descending, then dataset order again
        want = expected_ids(local, "lucky", "HR", screen.sort_column, FILE_ORDER)
        await wait_until(pilot, sorted_as(screen, screen.sort_column, FILE_ORDER, want), "dataset order")
        assert not [text for text, _ in said if "not available" in text or "could not" in text]


@pytest.mark.parametrize("kind", ["jsonl", "parquet"])
async def test_sort_keys_typed_in_a_burst_over_a_lake_end_in_the_order_they_name(
    tmp_path: Path, kind: str
) -> None:
    lake, one = write_lake(tmp_path, kind)
    local = open_review(one, reviewer="ann")
    app = lake_app(lake, reviewer="ann")
    async with app.run_test(size=SIZE) as pilot:
        screen = await loaded(pilot)
        burst(app, "greater_than_sign", "greater_than_sign", "o", "greater_than_sign", "r", "o")
        order = ("retrieval", "label", DESCENDING)
        await wait_until(
            pilot, lambda: (screen.view, screen.sort_column, screen.sort_direction) == order, "the keys"
        )
        want = expected_ids(local, "retrieval", "", "label", DESCENDING)
        await wait_until(pilot, lambda: shown_ids(screen) == want, "the retrieval view by label, descending")
        burst(app, "a", "slash", *"pto", "enter", "greater_than_sign", "o")
        await wait_until(pilot, lambda: screen.sort_column == "from", "the keys")
        want = expected_ids(local, "all", "pto", "from", DESCENDING)
        await wait_until(pilot, lambda: shown_ids(screen) == want, "the filter by where the label comes from")
        assert f"{len(want)} of {len(local.store)} shown" in screen_text(app)


async def test_a_click_on_a_title_sorts_a_lake_by_that_column(tmp_path: Path) -> None:
    lake, one = write_lake(tmp_path, "parquet")
    local = open_review(one, reviewer="ann")
    app = lake_app(lake, reviewer="ann")
    async with app.run_test(size=SIZE) as pilot:
        screen = await loaded(pilot)
        header = table_lines(pilot)[0]
        await pilot.click("#runs", offset=(header.index("miss") + 1, 0))
        want = expected_ids(local, "all", "", "missing", ASCENDING)
        await wait_until(pilot, sorted_as(screen, "missing", ASCENDING, want), "sorted by missing")
        await pilot.click("#runs", offset=(header.index("miss") + 1, 0))
        want = expected_ids(local, "all", "", "missing", DESCENDING)
        await wait_until(pilot, sorted_as(screen, "missing", DESCENDING, want), "missing, descending")
        assert "▼" in table_lines(pilot)[0]  # the header says the order, as over a file
