"""FilterBar: the active view, the text filter box, and how many runs match."""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.content import Content
from textual.message import Message
from textual.widgets import Input, Static

from ...core.common.text import visible
from .text_keys import InOrderInput


class QueryInput(InOrderInput):
    """The filter box. Enter and escape leave it: the keys typed after them wait until the
    screen has moved focus on, and act on the runs ("/abc" enter "y" filtered by "abcy")."""

    LEAVING_KEYS = ("enter", "escape")
    HOLD_EVERY_KEY = True  # the screen moves focus at once: an arrow after enter moves in the runs


class FilterBar(Horizontal):
    """Shows the filter state it is given; posts what the reviewer types."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "clear", "Clear filter", show=True),
    ]

    class QueryChanged(Message):
        """The reviewer typed in the filter box."""

        def __init__(self, query: str) -> None:
            super().__init__()
            self.query = query

    class Finished(Message):
        """The reviewer left the filter box (cleared it with escape, or pressed enter)."""

        def __init__(self, cleared: bool) -> None:
            super().__init__()
            self.cleared = cleared

    def compose(self) -> ComposeResult:
        yield Static(id="view-key", markup=False)
        yield Static(id="view-name", markup=False)
        yield QueryInput(
            placeholder="/ to filter: text, field:value, is:unreviewed",
            id="query",
            compact=True,
            select_on_focus=False,
        )
        yield Static(id="missing-doc", markup=False)
        yield Static(id="sort-order", markup=False)
        yield Static(id="match-count", markup=False)

    @property
    def query_input(self) -> Input:
        return self.query_one("#query", Input)

    def show_state(
        self,
        view_key: str,
        view_title: str,
        missing_doc: str | None,
        matches: int | None,
        total: int,
        order: str | None = None,
    ) -> None:
        """The view, the missing-document filter, the match count (None: pending) and
        the sort order (None: file order)."""
        _show(self.query_one("#view-key", Static), view_key)
        _show(self.query_one("#view-name", Static), view_title)
        doc = self.query_one("#missing-doc", Static)
        doc.display = missing_doc is not None
        if missing_doc is not None:
            _show(doc, Content.assemble("missing ", (visible(missing_doc), ".filter-bar--doc")))
        sort_order = self.query_one("#sort-order", Static)
        sort_order.display = order is not None
        _show(sort_order, f"sorted by {order}" if order else "")
        count = "…" if matches is None else f"{matches:,}"
        _show(self.query_one("#match-count", Static), f"{count} of {total:,} shown")

    COMPONENT_CLASSES: ClassVar[set[str]] = {"filter-bar--doc"}

    @on(Input.Changed, "#query")
    def _query_changed(self, event: Input.Changed) -> None:
        event.stop()
        self.post_message(self.QueryChanged(event.value))

    @on(Input.Submitted, "#query")
    def _query_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.post_message(self.Finished(cleared=False))

    def action_clear(self) -> None:
        self.query_input.value = ""
        self.post_message(self.Finished(cleared=True))


def _show(static: Static, content: str | Content) -> None:
    """Update `static` only if `content` differs: an update lays the whole screen out again,
    and the state is shown again as each batch of rows arrives while a file loads."""
    if static.content != content:
        static.update(content)
