"""StaleEntries: the journal entries held aside because their run changed since.

An entry carries the digest of the run's text when it was made. When the run's
text is different now (edited, another run at the same position, the file a
symlink to another file), the entry is not applied; it is listed here, and the
reviewer re-applies it to the run as it is now (`a`) or drops it (`d`). Both are
journaled, so the next start agrees.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from ...core.common.text import visible
from ...core.review.records import ADJUDICATION, Entry, JournalError
from ...core.review.state import Review
from ..typeahead import focus_now
from ..widgets.stages import label_word


def describe(entry: Entry) -> Content:
    """One stale entry on one line: run, what it set, who and when; every part literal."""
    what = "adjudicated " if entry.kind == ADJUDICATION else ""
    parts = [
        (visible(entry.run), "bold"),
        f"  {what}{label_word(entry.label)}",
    ]
    if entry.tags:
        parts.append(f"  tags {visible(', '.join(entry.tags))}")
    if entry.note:
        note = visible(entry.note.replace("\n", " "))
        parts.append(f"  note “{note[:40]}{'…' if len(note) > 40 else ''}”")
    made = visible(entry.at[:16].replace("T", " "))
    parts.append((f"  by {visible(entry.reviewer) or '?'}, {made}", "dim"))
    return Content.assemble(*parts)


class StaleEntries(ModalScreen[int | None]):
    """Lists the stale entries; dismisses with the row of the last run changed, or None."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("a", "reapply", "Re-apply", tooltip="Apply the entry to the run as it is now"),
        Binding("d", "drop", "Drop", tooltip="Drop the run's stale entries (journaled)"),
        Binding("escape,q", "close", "Back"),
    ]

    def __init__(self, review: Review, changed: Callable[[int], None]) -> None:
        super().__init__(classes="dialog")
        self.review = review
        self.changed = changed  # told each row whose review changed here
        self.last_row: int | None = None

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog-box", id="stale-box"):
            yield Static("Stale review entries", classes="dialog-title", markup=False)
            yield Static(
                "These entries were made on an earlier version of their run: the run's text "
                "in the file has changed since, so they are not applied.",
                classes="dialog-text",
                markup=False,
            )
            yield OptionList(id="stale-list", markup=False)
            yield Static(
                "a re-apply to the run as it is now · d drop · esc back", classes="dialog-hint", markup=False
            )

    def on_mount(self) -> None:
        self._fill()
        focus_now(self.query_one(OptionList))

    def _fill(self, highlight: int = 0) -> None:
        entries = self.review.stale
        options = self.query_one(OptionList)
        options.clear_options()
        if not entries:
            options.add_option(Option(Content("No stale entries."), disabled=True))
            return
        options.add_options(Option(describe(entry)) for entry in entries)
        options.highlighted = min(highlight, len(entries) - 1)

    def _entry(self) -> tuple[int, Entry] | None:
        index = self.query_one(OptionList).highlighted
        entries = self.review.stale
        if index is None or not 0 <= index < len(entries):
            return None
        return index, entries[index]

    def _done(self, index: int, row: int | None) -> None:
        self._fill(index)
        if row is not None:
            self.last_row = row
            self.changed(row)

    def action_reapply(self) -> None:
        chosen = self._entry()
        if chosen is None:
            return
        index, entry = chosen
        row = self.review.store.row_of.get(entry.run)
        try:
            row = self.review.apply_stale(entry)
        except JournalError as exc:
            self._not_saved(f"{exc}. Applied on screen, marked ! (not saved).")
        self._done(index, row)

    def action_drop(self) -> None:
        chosen = self._entry()
        if chosen is None:
            return
        index, entry = chosen
        try:
            self.review.dismiss_stale(entry.run)
        except JournalError as exc:
            self._not_saved(f"{exc}. The entries will be back next time.")
        self._done(index, self.review.store.row_of.get(entry.run))

    def _not_saved(self, message: str) -> None:
        self.notify(visible(message), title="NOT SAVED", severity="error", timeout=30, markup=False)

    def action_close(self) -> None:
        self.dismiss(self.last_row)
