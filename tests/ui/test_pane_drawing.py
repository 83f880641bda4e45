"""What the detail pane's parts draw (issue 22): a text taller than its panel is drawn from
the top down to the last row in view, and what it draws is what a `Static` in a
`VerticalScroll` draws, row for row (text, colours, the offsets a mouse selection reads),
at every scroll position, after a width change and with a selection; the panel's
scrollbar draws as Textual's does and keeps what it drew for a thumb it comes back to."""

from __future__ import annotations

from typing import Any

import pytest
from textual.app import App, ComposeResult
from textual.containers import Horizontal, VerticalScroll
from textual.content import Content, Span
from textual.geometry import Offset
from textual.selection import Selection
from textual.strip import Strip
from textual.visual import Visual
from textual.widget import Widget
from textual.widgets import Static

from ragdiag_tui.ui.widgets.detail.pane_text import PaneText
from ragdiag_tui.ui.widgets.detail.steady_scroll import KeptScrollBar, SteadyScroll

from .helpers import screen_strips

PANEL = 12  # rows of each panel


def tall_text(lines: int = 120) -> Content:
    """Short, wrapping, blank, wide-character and styled lines."""
    parts = []
    for n in range(lines):
        if n % 7 == 3:
            parts.append(f"line {n} is a long one that wraps at its words " * 2)
        elif n % 11 == 5:
            parts.append("")
        elif n % 13 == 8:
            parts.append(f"wide 漢字 characters {n} 漢字漢字漢字漢字漢字漢字漢字漢字漢字漢字")
        else:
            parts.append(f"line {n} marked here")
    plain = "\n".join(parts)
    spans = [Span(at, at + 6, "bold red") for at in range(plain.find("marked"), len(plain), 97)]
    return Content(plain, spans)


class Twins(App[None]):
    """A PaneText in a SteadyScroll on the left, a Static in a VerticalScroll on the right."""

    CSS = f"""
    Horizontal {{ height: {PANEL}; }}
    #left, #right {{ width: 1fr; height: {PANEL}; }}
    PaneText, Static {{ height: auto; }}
    """

    def compose(self) -> ComposeResult:
        with Horizontal():
            with SteadyScroll(id="left"):
                yield PaneText(id="pane")
            with VerticalScroll(id="right"):
                yield Static(id="static", markup=False)

    def show(self, content: Content) -> None:
        self.query_one("#pane", PaneText).update(content)
        self.query_one("#static", Static).update(content)


def halves(app: App[Any]) -> tuple[list[Strip], list[Strip]]:
    """The panels' rows as drawn on screen: the left one's, the right one's."""
    half = app.size.width // 2
    rows = screen_strips(app)[:PANEL]
    return [row.crop(0, half) for row in rows], [row.crop(half, 2 * half) for row in rows]


async def scroll_both(pilot, y: int) -> None:  # type: ignore[no-untyped-def]
    for panel in ("#left", "#right"):
        pilot.app.query_one(panel).scroll_to(y=y, animate=False)
    await pilot.pause()
    await pilot.pause()


@pytest.fixture
def drawn_lines(monkeypatch) -> list[int]:  # type: ignore[no-untyped-def]
    """How many lines of text each drawing of the PaneText was given."""
    counts: list[int] = []
    real = Visual.to_strips.__func__  # type: ignore[attr-defined]

    def to_strips(cls, widget, visual, *args, **options):  # type: ignore[no-untyped-def]
        if isinstance(widget, PaneText):
            counts.append(len(str(visual).split("\n")))
        return real(cls, widget, visual, *args, **options)

    monkeypatch.setattr(Visual, "to_strips", classmethod(to_strips))
    return counts


async def test_a_tall_text_draws_what_a_static_draws_down_to_the_rows_in_view(drawn_lines) -> None:  # type: ignore[no-untyped-def]
    app = Twins()
    async with app.run_test(size=(80, PANEL + 2)) as pilot:
        text = tall_text()
        app.show(text)
        await pilot.pause()
        await pilot.pause()
        left, right = halves(app)
        assert left == right
        assert "line 0 marked" in left[0].text
        # Drawn down to the last row in view, not all 120 lines.
        assert drawn_lines and max(drawn_lines) <= PANEL
        pane = app.query_one("#left")
        for y in (1, 5, 17, 40, pane.max_scroll_y // 2, pane.max_scroll_y - 3, pane.max_scroll_y):
            await scroll_both(pilot, y)
            left, right = halves(app)
            assert left == right, y
        assert "line 119 marked" in halves(app)[0][-1].text  # the last row, scrolled to
        drawn_lines.clear()
        await scroll_both(pilot, 0)  # back up: drawn already
        assert drawn_lines == []
        assert halves(app)[0] == halves(app)[1]


async def test_a_width_change_wraps_the_text_anew() -> None:
    app = Twins()
    async with app.run_test(size=(100, PANEL + 2)) as pilot:
        app.show(tall_text())
        await scroll_both(pilot, 20)
        pane = app.query_one("#pane", PaneText)
        wide_height = pane.size.height
        left, right = halves(app)
        assert left == right
        await pilot.resize_terminal(60, PANEL + 2)
        await pilot.pause()
        await scroll_both(pilot, 20)
        assert pane.size.height > wide_height  # more rows: the long lines wrap at the new width
        assert pane.size.height == app.query_one("#static", Static).size.height
        left, right = halves(app)
        assert left == right


async def test_a_selection_draws_and_reads_as_in_a_static() -> None:
    app = Twins()
    async with app.run_test(size=(80, PANEL + 2)) as pilot:
        text = tall_text()
        app.show(text)
        await pilot.pause()
        pane, static = app.query_one("#pane", PaneText), app.query_one("#static", Static)
        selection = Selection(Offset(3, 2), Offset(5, 30))
        app.screen.selections = {pane: selection, static: selection}
        for y in (0, 4, 25):
            await scroll_both(pilot, y)
            left, right = halves(app)
            assert left == right, y
        assert app.screen.get_selected_text() is not None
        assert pane.get_selection(selection) == static.get_selection(selection)


async def test_the_panel_scrollbar_draws_as_textuals_and_keeps_its_drawings(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    app = Twins()
    async with app.run_test(size=(80, PANEL + 2)) as pilot:
        left = app.query_one("#left", SteadyScroll)
        assert isinstance(left.vertical_scrollbar, KeptScrollBar)
        drawings = []
        real = Widget.render_lines
        monkeypatch.setattr(
            Widget,
            "render_lines",
            lambda self, crop: (
                (drawings.append(crop) if isinstance(self, KeptScrollBar) else None) or real(self, crop)
            ),
        )
        seen = []
        for lines in (60, 64, 60, 64, 60):  # two thumbs, each come back to
            app.show(tall_text(lines))
            await pilot.pause()
            await pilot.pause()
            left_rows, right_rows = halves(app)
            assert left_rows == right_rows, lines  # the scrollbars too
            seen.append(len(drawings))
        assert seen[1] > seen[0] > 0  # each new thumb drawn
        assert seen[2] == seen[3] == seen[4] == seen[1]  # each one met again: kept
        await pilot.hover("#left", offset=(left.outer_size.width - 1, 1))
        await pilot.pause()
        left_rows, right_rows = halves(app)
        assert left_rows != right_rows  # the left bar drawn anew, in its hover colour


class Sized(App[None]):
    """PaneTexts and Statics side by side: one pair as wide as its text, one pair filling the rest."""

    CSS = """
    Horizontal { height: 4; }
    PaneText, Static { height: auto; }
    .fit { width: auto; margin-right: 1; }
    .fill { width: 1fr; }
    """

    def compose(self) -> ComposeResult:
        with Horizontal():
            yield PaneText(id="fit", classes="fit")
            yield PaneText(id="fill", classes="fill")
        with Horizontal():
            yield Static(id="fit-twin", classes="fit", markup=False)
            yield Static(id="fill-twin", classes="fill", markup=False)

    def show(self, fit: str, fill: str) -> None:
        self.query_one("#fit", PaneText).update(fit)
        self.query_one("#fill", PaneText).update(fill)
        self.query_one("#fit-twin", Static).update(fit)
        self.query_one("#fill-twin", Static).update(fill)


async def test_a_text_that_takes_the_same_room_is_drawn_without_a_layout(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """A key that shows another run changes short texts that take the room the old ones took:
    they are drawn anew, with no layout of the screen; a text of another height (or, for one as
    wide as its text, another width) is laid out. Either way each draws what a Static draws."""
    layouts: list[tuple[str | None, bool]] = []
    real = PaneText.refresh

    def refresh(self, *regions, repaint=True, layout=False, recompose=False):  # type: ignore[no-untyped-def]
        layouts.append((self.id, layout))
        return real(self, *regions, repaint=repaint, layout=layout, recompose=recompose)

    monkeypatch.setattr(PaneText, "refresh", refresh)
    app = Sized()
    async with app.run_test(size=(80, 12)) as pilot:

        def rows() -> tuple[list[str], list[str]]:
            lines = [strip.text for strip in screen_strips(app)]
            return lines[:4], lines[4:8]

        async def show(fit: str, fill: str) -> dict[str | None, bool]:
            await pilot.pause()
            layouts.clear()
            app.show(fit, fill)
            await pilot.pause()
            await pilot.pause()
            mine, twins = rows()
            assert mine == twins
            return {name: any(laid for other, laid in layouts if other == name) for name, _ in layouts}

        await show("doc-1\ndoc-2", "the first answer\nits second line")
        asked = await show("doc-3\ndoc-4", "another answer\nand its line")  # same room
        assert asked == {"fit": False, "fill": False}
        assert rows()[0][0].startswith("doc-3 another answer")

        asked = await show("doc-3\ndoc-4", "now\nthree\nlines")  # taller
        assert asked == {"fit": False, "fill": True}
        assert rows()[0][2].strip() == "lines"

        asked = await show("doc-10\ndoc-4", "one\ntwo\nthree")  # the list one cell wider
        assert asked["fit"] is True  # (its neighbour, one cell narrower then, is laid out anew too)
        assert rows()[0][0].startswith("doc-10 one")

        asked = await show("doc-10\ndoc-4", "one line that is far too long to fit beside the list " * 2)
        assert asked == {"fit": False, "fill": True}  # one line, but wrapped to more rows than three
