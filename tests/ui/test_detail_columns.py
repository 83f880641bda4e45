"""The detail pane keeps its columns when a line wraps: a long reviewer line, tag list or note
continues under the text it continues (a hanging indent), never at the pane's left edge
under the field names."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.app import App, ComposeResult
from textual.content import Content
from textual.geometry import Offset
from textual.selection import Selection
from textual.strip import Strip

from ragdiag_tui.core.review.state import open_review
from ragdiag_tui.ui.app import create_app
from ragdiag_tui.ui.widgets.detail.pane_text import PaneText, hanging

from .helpers import loaded, screen_lines, screen_strips

RUN = 4  # run-0005 of the demo file
NOTE = (
    "I checked the refund policy twice and the answer quotes the older version of the document, "
    "which was replaced in March; the retrieved context does include the new one but the model "
    "preferred the stale paragraph, so this is a generation fault even though retrieval looks fine "
    "at first sight to a casual reader of the run.\nSecond paragraph."
)
LONG_NAME = "a-very-long-reviewer-name-from-the-other-team"
LONG_TAGS = [
    "wrong-doc",
    "stale-source-document-version",
    "hallucinated-number-in-answer",
    "missing-citation",
    "partial-answer-only",
]
FIELDS = ("File label", "Reviewer label", "In force", "Reviewers", "Adjudicated", "Reason tags", "ID metrics")
VALUE_COLUMN = 15  # where the pane's values start, beside the field names


@pytest.fixture
def team_demo(demo_path: Path) -> Path:
    """typist and a reviewer with a long name disagree on run-0005, each with tags and a long
    note; boss adjudicated it with a long note."""
    for reviewer, label, tags, note in (
        ("typist", True, ["wrong-doc"], NOTE),
        (LONG_NAME, False, LONG_TAGS, "Short one.\n" + NOTE),
    ):
        review = open_review(demo_path, reviewer=reviewer)
        review.set_label(RUN, label)
        review.set_tags(RUN, tags)
        review.set_note(RUN, note)
        assert review.journal is not None
        review.journal.close()
    review = open_review(demo_path, reviewer="boss", adjudicator=True)
    review.adjudicate(RUN, True, NOTE)
    assert review.journal is not None
    review.journal.close()
    return demo_path


async def labels_rows(path: Path, width: int) -> list[str]:
    """The rows of run-0005's labels block as drawn in the detail pane, from the pane's left."""
    app = create_app(path, reviewer="typist")
    async with app.run_test(size=(width, 90)) as pilot:
        screen = await loaded(pilot)
        await pilot.press(*"j" * RUN)
        detail = screen.detail
        labels = detail.query_one("#run-labels")
        detail.scroll_to_widget(labels, animate=False, top=True)
        await pilot.pause()
        await pilot.pause()
        region = labels.content_region
        rows = screen_lines(app)[region.y : region.bottom]
        return [row[region.x : region.right].rstrip() for row in rows]


def indent(row: str) -> int:
    return len(row) - len(row.lstrip(" "))


def rows_after(rows: list[str], start: str, stop: tuple[str, ...], after: str = "") -> tuple[int, list[str]]:
    """The column after `start` in the first row holding it (below the first row that starts
    with `after`), and that row and the ones after it, up to the first that holds one of `stop`."""
    top = next(n for n, row in enumerate(rows) if row.startswith(after))
    first = next(n for n in range(top, len(rows)) if start in rows[n])
    end = next(n for n in range(first + 1, len(rows)) if any(word in rows[n] for word in stop))
    return rows[first].index(start) + len(start), rows[first:end]


@pytest.mark.parametrize("width", [80, 140])
async def test_every_wrapped_row_of_a_long_note_starts_at_the_notes_text_column(
    team_demo: Path, width: int
) -> None:
    rows = await labels_rows(team_demo, width)
    column, note = rows_after(rows, "note: ", ("Second paragraph.",))
    assert len(note) > 2, rows  # the note wraps
    assert note[0][column:].startswith("I checked")
    for row in note[1:]:
        assert indent(row) == column, "\n".join(rows)


@pytest.mark.parametrize("width", [80, 140])
async def test_wrapped_tags_and_adjudication_notes_keep_their_columns(team_demo: Path, width: int) -> None:
    rows = await labels_rows(team_demo, width)
    column, tags = rows_after(rows, "tags: ", ("note: ",), after=" " * VALUE_COLUMN + "a-very-long")
    assert len(tags) > 1, rows  # the tag list wraps
    assert all(indent(row) == column for row in tags[1:]), "\n".join(rows)
    column, note = rows_after(rows, "note: ", ("Second paragraph.",), after="Adjudicated")
    assert len(note) > 2, rows
    assert all(indent(row) == column for row in note[1:]), "\n".join(rows)
    # Every row down to the ID metrics starts with a field's name or in the value column,
    # never under the names.
    for row in rows[: next(n for n, row in enumerate(rows) if row.startswith("ID metrics"))]:
        if row.strip() and not row.startswith(FIELDS):
            assert indent(row) >= VALUE_COLUMN, "\n".join(rows)


class OnePane(App[None]):
    """A PaneText 40 cells wide."""

    CSS = "PaneText { width: 40; height: auto; }"

    def compose(self) -> ComposeResult:
        yield PaneText(id="pane")


HUNG = Content.assemble(
    "a short line\n",
    hanging(Content.styled("Name:  ", "bold")),
    "a value long enough to wrap twice beside its name, in the value column\n",
    Content.assemble(hanging("Outer "), hanging("inner: "), "text that hangs under the inner label"),
)


def drawn_rows(app: App[Any]) -> list[Strip]:
    pane = app.query_one(PaneText)
    return [row.crop(0, pane.size.width) for row in screen_strips(app)[: pane.size.height]]


async def test_a_hung_line_carries_the_offsets_a_mouse_selection_reads() -> None:
    app = OnePane()
    async with app.run_test(size=(60, 12)) as pilot:
        app.query_one(PaneText).update(HUNG)
        await pilot.pause()
        rows = drawn_rows(app)
        texts = [row.text.rstrip() for row in rows]
        assert texts[1].startswith("Name:  a value") and all(text.startswith(" " * 7) for text in texts[2:4])
        assert texts[4].startswith("Outer inner: text") and texts[5].startswith(" " * 13)
        lines = HUNG.plain.split("\n")
        for row in rows:  # every character drawn says where it is in the text
            for segment in row:
                offset = segment.style.meta.get("offset") if segment.style else None
                if offset is not None and segment.text.strip():
                    x, y = offset
                    assert lines[y][x : x + len(segment.text)] == segment.text


async def test_a_selection_over_a_hung_line_is_drawn_and_read_where_it_is() -> None:
    app = OnePane()
    async with app.run_test(size=(60, 12)) as pilot:
        pane = app.query_one(PaneText)
        pane.update(HUNG)
        await pilot.pause()
        start = HUNG.plain.split("\n")[1].index("enough")
        selection = Selection(Offset(start, 1), Offset(start + len("enough to wrap twice"), 1))
        app.screen.selections = {pane: selection}
        await pilot.pause()
        assert pane.get_selection(selection) == ("enough to wrap twice", "\n")
        rows = drawn_rows(app)
        plain = next(iter(rows[0])).style.bgcolor  # type: ignore[union-attr]
        selected = [
            segment.text
            for row in rows
            for segment in row
            if segment.style is not None and segment.style.bgcolor != plain and segment.text.strip()
        ]
        assert "".join(selected).replace(" ", "") == "enoughtowraptwice"


async def test_a_line_with_too_little_room_beside_its_labels_wraps_from_the_left_edge() -> None:
    app = OnePane()
    async with app.run_test(size=(60, 12)) as pilot:
        pane = app.query_one(PaneText)
        words = "words that wrap at the left edge of this narrow pane"
        pane.update(Content.assemble(hanging(" " * 25), words))  # 15 cells beside the label
        await pilot.pause()
        texts = [row.text.rstrip() for row in drawn_rows(app)]
        assert texts[1] and not texts[1].startswith(" ")
