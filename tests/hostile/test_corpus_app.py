"""Every hostile case through the review app: open, scroll, show every run, filter, browse.

The app must survive every case (an exception anywhere fails `run_test`), draw nothing
raw from the data (no control character, lone surrogate or bidi override reaches the
terminal), show markup-looking text literally, and never run an action named in it.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from textual.content import Content
from textual.pilot import Pilot

from ragdiag_tui.core.analysis.filtering import filter_rows
from ragdiag_tui.core.common.text import visible
from ragdiag_tui.core.review.state import Review
from ragdiag_tui.core.runs.store import RunStore
from ragdiag_tui.ui.app import create_app
from ragdiag_tui.ui.screens.review.screen import ReviewScreen
from ragdiag_tui.ui.screens.statistics import StatisticsScreen

from ..ui.helpers import (
    actions_on_screen,
    detail_text,
    record_notifications,
    screen_lines,
    screen_text,
    settled,
    shown_soon,
    wait_until,
)
from .corpus import FILE_ERROR_WORDS, FILES, GENERATED, Case, is_safe_for_terminal, ten_thousand_ids

SIZE = (100, 30)  # a cramped terminal: hostile text must not break the layout

REFUSED = [name for name, spec in GENERATED.items() if spec["expect"] == "file-error"]


def assert_refusal_shown(screen: ReviewScreen, notes: list[tuple[str, str]], word: str) -> None:
    """The reason the file is refused is in the empty table and in an error notification."""
    assert screen.review is None
    assert word.lower() in screen.table.empty_message.lower()
    assert any(word.lower() in message.lower() and severity == "error" for message, severity in notes), notes


def _filter_word(screen: ReviewScreen) -> str:
    """A few characters of the first run's id: a filter that matches something."""
    store = screen.store
    for row in range(len(store)):
        if store.is_valid(row) and store.ids[row]:
            return store.ids[row][:3]
    return "D1"


@pytest.mark.parametrize("case", FILES, indirect=True)
async def test_app_shows_every_run_of_the_case_and_filters(case: Case) -> None:
    app = create_app(case.path, reviewer="hostile")
    notes = record_notifications(app)
    async with app.run_test(size=SIZE) as pilot:
        screen = await settled(pilot)
        if case.expect == "file-error":
            assert_refusal_shown(screen, notes, FILE_ERROR_WORDS[case.name])
            reason = screen.table.empty_message  # the table says why, naming the file
            assert reason.startswith(str(case.path)) and reason in screen_text(app).replace("\n", "")
            assert (reason, "error") in notes
            await browse_with_keys(pilot)
            return
        store, review = screen.store, screen.review
        assert review is not None
        assert len(store) == case.runs + len(case.invalid_lines)
        assert len(screen.rows) == len(store)
        for index, row in enumerate(screen.rows):
            screen.table.cursor = index
            # What the cursor's message does a moment later, done now to read it at once.
            screen.detail.show_run(store, review, row)
            shown = detail_text(screen.app)
            if store.is_valid(row):
                assert visible(store.ids[row]) in shown, f"line {store.lines[row]}"
            else:
                assert f"Line {store.lines[row]} is not a run the rule can evaluate" in shown
            drawn = screen_text(app)
            assert is_safe_for_terminal(drawn), f"raw text from line {store.lines[row]} reached the screen"
            assert not actions_on_screen(app)
        await pilot.press("end")
        assert screen.table.cursor == len(screen.rows) - 1
        await pilot.press("home")
        assert screen.table.cursor == 0
        word = _filter_word(screen)
        screen.search = word  # what typing in the filter box sets
        await pilot.pause(0)
        assert list(screen.rows) == filter_rows(store, review, "all", word)
        await pilot.press("r")
        assert screen.view == "retrieval"
        assert list(screen.rows) == filter_rows(store, review, "retrieval", word)
        shown = await shown_soon(pilot, "Retrieval")  # the view it is on, once laid out again
        assert is_safe_for_terminal(shown)
        screen.search = ""
        await pilot.press("a")  # every run again, to browse with the keys
        assert len(screen.rows) == len(store)
        await browse_with_keys(pilot)


async def browse_with_keys(pilot: Pilot[object]) -> None:
    """To the end and back, a page down, then the lucky answers', the invalid lines' and every
    run's views: the app survives each key and draws nothing raw."""
    for key in ("end", "home", "pagedown", "L", "i", "a"):
        await pilot.press(key)
    text = screen_text(pilot.app)
    assert "\x1b" not in text and "\x07" not in text
    assert is_safe_for_terminal(text)
    assert pilot.app.is_running


@pytest.mark.parametrize("case", REFUSED, indirect=True)
async def test_app_says_why_a_refused_file_cannot_be_opened(case: Case) -> None:
    app = create_app(case.path)
    notes = record_notifications(app)
    async with app.run_test(size=SIZE) as pilot:
        screen = await settled(pilot)
        assert_refusal_shown(screen, notes, FILE_ERROR_WORDS[case.name])
        await shown_soon(pilot, "0 of 0 shown")
        await pilot.press("down", "y", "e", "s")  # nothing to act on: nothing breaks
        assert app.is_running
        assert isinstance(app.screen, ReviewScreen)


# -- markup shows literally and runs nothing ---------------------------------------------------


@pytest.mark.parametrize("case", ["markup_ids.jsonl"], indirect=True)
async def test_markup_ids_show_literally_in_table_detail_and_statistics(case: Case) -> None:
    app = create_app(case.path)
    async with app.run_test(size=SIZE) as pilot:
        screen = await settled(pilot)
        store = screen.store
        lines = screen_lines(app)
        # The id column may cut it in its middle; both its ends show, as text.
        assert any(
            (first := line.split()[0]).startswith("[@click") and first.endswith("x[/]")
            for line in lines
            if line.strip()
        )
        assert any(line.split()[:2] == ["[/]", "pass"] for line in lines if line.strip())
        for run_id in (
            "[@click=app.quit]x[/]",
            "[link=file:///etc/passwd]x[/link]",
            "[/]",
            "[@click=app.bell]ring[/]",
            "a[b]c",
        ):
            row = store.ids.index(run_id)
            screen.table.cursor = screen.rows.index(row)

            # The detail shows the run a few messages after the cursor moves: wait for it to be drawn.
            def shown(run_id: str = run_id) -> bool:
                return run_id in detail_text(app) and run_id in screen_text(app)

            await wait_until(pilot, shown, f"{run_id} in the detail")
            assert run_id in detail_text(screen.app)
            assert run_id in screen_text(app)
            assert not actions_on_screen(app)
        await pilot.press("s")
        assert isinstance(app.screen, StatisticsScreen)
        assert "[bold red]alarm[/bold red]" in screen_text(app)
        assert not actions_on_screen(app)
        await pilot.press("escape")
        assert isinstance(app.screen, ReviewScreen)


@pytest.mark.parametrize("case", ["markup_ids.jsonl"], indirect=True)
async def test_clicking_an_action_id_runs_nothing(case: Case) -> None:
    app = create_app(case.path)
    async with app.run_test(size=SIZE) as pilot:
        screen = await settled(pilot)
        row = screen.store.ids.index("[@click=app.quit]x[/]")
        screen.table.cursor = screen.rows.index(row)

        # The detail shows the run a few messages after the cursor moves: wait for it to be drawn.
        def both_drawn() -> bool:
            return sum("[@click=app.quit]x" in line for line in screen_lines(app)) >= 2

        await wait_until(pilot, both_drawn, "the run in the table and the detail heading")
        lines = screen_lines(app)
        clicked = 0
        for y, line in enumerate(lines):
            x = line.find("[@click=app.quit]x")
            if x >= 0:
                await pilot.click(offset=(x + len("[@click=app.quit]"), y))  # on the "x"
                clicked += 1
        assert clicked >= 2  # in the table and in the detail heading
        assert any("[@click=app.quit]x[/]" in line for line in lines)
        assert app.is_running
        assert isinstance(app.screen, ReviewScreen)


@pytest.mark.parametrize("case", ["markup_ids.jsonl"], indirect=True)
async def test_filter_typed_as_markup_matches_literally(case: Case) -> None:
    app = create_app(case.path)
    async with app.run_test(size=SIZE) as pilot:
        screen = await settled(pilot)
        await pilot.press("slash", *"[/]", "enter")
        assert screen.search == "[/]"
        expected = [row for row in range(len(screen.store)) if "[/]" in screen.store.search_text[row]]
        assert list(screen.rows) == expected
        assert "[/]" in screen_text(app)
        assert app.is_running


@pytest.mark.parametrize("case", ["lone_surrogates.jsonl"], indirect=True)
async def test_lone_surrogates_can_be_labelled_and_come_back(case: Case) -> None:
    """A run id with a lone surrogate: shown escaped, labelled, journaled, restored."""
    app = create_app(case.path)
    async with app.run_test(size=SIZE) as pilot:
        screen = await settled(pilot)
        row = screen.store.ids.index("lone-high-\ud800")
        screen.table.cursor = screen.rows.index(row)
        await pilot.press("n")
        assert screen.review is not None
        assert screen.review.reviewer_label(row) is False
        assert row not in screen.review.unsaved
        assert "lone-high-\\ud800" in screen_text(app)
    store = RunStore.load(case.path)
    from ragdiag_tui.core.review.journal import Journal, journal_path

    review = Review(store, Journal(journal_path(case.path)))
    assert review.warnings == []
    assert review.reviewer_label(store.row_of["lone-high-\ud800"]) is False


# -- the generated giants ---------------------------------------------------------------------------


@pytest.mark.parametrize("case", ["huge_line_10mb.jsonl"], indirect=True)
async def test_app_shows_a_10mb_line_and_labels_it(case: Case) -> None:
    app = create_app(case.path)
    async with app.run_test(size=SIZE) as pilot:
        screen = await settled(pilot)
        assert len(screen.store) == 3
        await pilot.press("down")
        assert screen.table.cursor_row == 1
        shown = detail_text(screen.app)
        assert "Q[/]xxxx" in shown  # the question starts literally...
        assert len(shown) < 100_000  # ...and is cut for the screen
        await pilot.press("y")
        assert screen.review is not None and screen.review.reviewer_label(1) is True
        await pilot.press("end", "slash", "Q", "enter")
        assert list(screen.rows) == [1]
        assert app.is_running


TEN_K = "ten_thousand_required.jsonl"


@pytest.mark.parametrize("case", [TEN_K], indirect=True)
async def test_app_shows_a_run_with_10000_required_ids(case: Case) -> None:
    app = create_app(case.path)
    async with app.run_test(size=SIZE) as pilot:
        screen = await settled(pilot)
        line = next(line for line in screen_lines(app) if "ten-thousand" in line)
        assert line.split()[1:5] == ["retrieval", "correct", "file", "5000"]
        shown = detail_text(screen.app)
        assert "LUCKY ANSWER" in shown
        assert "Required (10000)" in shown
        assert "Supplied (5000)" in shown
        assert "✗ missing  \U0001f600doc-9989" in shown
        assert app.is_running


@pytest.mark.parametrize("case", ["markup_ids.jsonl"], indirect=True)
async def test_detail_of_a_run_with_10000_ids_draws_a_bounded_list(case: Case, tmp_path: Path) -> None:
    required, context = ten_thousand_ids()
    big = tmp_path / "ten.jsonl"
    run = {"id": "ten", "required": required, "context": context, "correct": True}
    big.write_text(json.dumps(run, ensure_ascii=False) + "\n", encoding="utf-8")
    store = RunStore.load(big)
    review = Review(store)
    app = create_app(case.path)
    async with app.run_test(size=SIZE) as pilot:
        screen = await settled(pilot)
        screen.detail.show_run(store, review, 0)
        for widget_id in ("#run-required", "#run-supplied"):
            visual = screen.detail.query_one(widget_id).visual
            assert isinstance(visual, Content)
            assert len(visual.plain.splitlines()) <= 1_000, widget_id


async def test_app_shows_and_relabels_a_run_nested_to_the_limit(tmp_path: Path) -> None:
    """The deepest nesting the loader accepts is parsed again on screen and on relabel."""
    path = tmp_path / "nested.jsonl"
    deep = "[" * 499 + "]" * 499  # with the run's own braces: 500 levels
    path.write_text(
        '{"id": "deep", "required": ["D1"], "context": ["D1"], "correct": true, "x": ' + deep + "}\n",
        encoding="utf-8",
    )
    app = create_app(path)
    async with app.run_test(size=SIZE) as pilot:
        screen = await settled(pilot)
        assert screen.store.is_valid(0)
        assert "[[[[" in detail_text(screen.app)
        await pilot.press("n")
        assert screen.review is not None and screen.review.diagnosis(0)["stage"] == "generation"
        assert app.is_running
