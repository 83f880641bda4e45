"""ExportDialog: where, in which format, and which runs to export.

The export runs in a thread while the dialog stays open (so no label changes
during the write), showing its progress; the dialog dismisses with a message
saying what was written.

Over a dataset read in place, the reviewed runs are what it writes, with the review
applied, as `export DATASET --reviewed-only` writes them (the rows of
`core.output.export.export_reviewed`, through the same writer); every run or a view's
would read the whole dataset here, so the dialog names the shell's command instead.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, ProgressBar, RadioButton, RadioSet, Static

from ...core.common.paths import is_within
from ...core.common.text import visible
from ...core.output.export import (
    ExportError,
    default_export_path,
    export_runs,
    format_named_by,
    refuse_sources,
)
from ...core.review.state import Review
from ...core.runs.store import RunStore
from ..typeahead import focus_now
from ..widgets.text_keys import InOrderButton, InOrderInput
from .confirm import ConfirmDialog

FORMATS = (("jsonl", "JSON Lines"), ("csv", "CSV"), ("json", "JSON"), ("parquet", "Parquet"))
SCOPES = ("all", "filter", "reviewed")
DATASET_NOTE = (
    "Over a dataset only the reviewed runs export here, with the review applied. Every run, by the "
    "files' labels: `ragdiag-tui diagnose DATASET -o OUT`. Invalid lines are never exported."
)


class ExportProgressed(Message):
    """`done` of `total` runs written (posted from the export thread)."""

    def __init__(self, done: int, total: int) -> None:
        super().__init__()
        self.done = done
        self.total = total


class ExportDialog(ModalScreen[str | None]):
    """Dismisses with a message about the written file, or None when cancelled."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, store: RunStore, review: Review, shown: Sequence[int], filtered: bool) -> None:
        super().__init__(classes="dialog")
        self.store = store
        self.review = review
        self.shown = list(shown)
        self.filtered = filtered
        self.fmt = "jsonl"

    def reviewed_rows(self) -> list[int]:
        return self.review.reviewed_rows()

    def compose(self) -> ComposeResult:
        in_place = self.store.in_place  # a dataset: its reviewed runs only (see the module's docstring)
        with Vertical(classes="dialog-box", id="export-box"):
            yield Static("Export runs", classes="dialog-title", markup=False)
            with Horizontal(classes="form-row"):
                yield Label("File", classes="form-label")
                path = default_export_path(self.store.path, self.fmt)
                yield InOrderInput(path, id="export-path", compact=True)
            with Horizontal(classes="form-row"):
                yield Label("Format", classes="form-label")
                with RadioSet(id="export-format", compact=True):
                    for index, (_, title) in enumerate(FORMATS):
                        yield RadioButton(title, value=index == 0, compact=True)
            with Horizontal(classes="form-row"):
                yield Label("Runs", classes="form-label")
                with RadioSet(id="export-scope", compact=True):
                    if not in_place:  # a dataset's every run or view would be read whole here
                        yield RadioButton(f"All runs ({self._valid_runs():,})", value=True, compact=True)
                        yield RadioButton(
                            f"The current view and filter ({len(self.shown):,})",
                            disabled=not self.filtered,
                            compact=True,
                        )
                    yield RadioButton(
                        f"Reviewed only ({self.review.reviewed:,})", value=in_place, compact=True
                    )
            note = DATASET_NOTE if in_place else "Invalid lines are never exported."
            yield Static(note, id="export-error", markup=False)
            yield ProgressBar(id="export-progress", show_eta=False)
            with Horizontal(classes="dialog-buttons"):
                yield InOrderButton("Export", variant="primary", id="export")
                yield InOrderButton("Cancel", id="cancel")

    def _valid_runs(self) -> int:
        return len(self.store) - len(self.store.errors)

    def on_mount(self) -> None:
        focus_now(self.query_one("#export-path", Input))

    named: str | None = None
    """The format a typed extension chose, until the radio set has answered with it: an answer
    for an earlier extension (`.json` on the way to `.jsonl`) arrives late and is not a choice."""

    @on(RadioSet.Changed, "#export-format")
    def _format_changed(self, event: RadioSet.Changed) -> None:
        if self.named is not None:
            if FORMATS[event.index][0] != self.named:
                # Overtaken: the path names another format now. Pressed after this message, whose
                # handling the radio set keeps from sending a button's change.
                self.call_after_refresh(self._press, self.named)
                return
            self.named = None
        path_input = self.query_one("#export-path", Input)
        old_default = default_export_path(self.store.path, self.fmt)
        self.fmt = FORMATS[event.index][0]
        if path_input.value == old_default:
            path_input.value = default_export_path(self.store.path, self.fmt)

    @on(Input.Changed, "#export-path")
    def _path_changed(self, event: Input.Changed) -> None:
        """A typed extension picks the format, as the CLI's `-o` does."""
        fmt = format_named_by(event.value.strip())
        if fmt is None or fmt == self.fmt:
            return
        self.fmt = self.named = fmt  # now, so an export started before the radio set answers writes it
        self._press(fmt)

    def _press(self, fmt: str) -> None:
        index = [name for name, _ in FORMATS].index(fmt)
        self.query_one("#export-format", RadioSet).query(RadioButton)[index].value = True

    @property
    def scope(self) -> str:
        if self.store.in_place:  # its one choice
            return "reviewed"
        return SCOPES[self.query_one("#export-scope", RadioSet).pressed_index]

    @on(Input.Submitted, "#export-path")
    @on(Button.Pressed, "#export")
    def action_export(self) -> None:
        path = os.path.expanduser(self.query_one("#export-path", Input).value.strip())
        if not path:
            self._error("Give a file to write to.")
            return
        if os.path.isdir(path):
            self._error(f"{visible(path)} is a folder; give a file name.")
            return
        allowed = getattr(self.app, "export_dir", None)
        if allowed is not None and not is_within(path, allowed):
            self._error(f"Exports go only into {visible(allowed)} here; choose a file there.")
            return
        try:  # the run file and its journal: refused before any "Replace it?"
            refuse_sources(path, self.store, self.review)
        except ExportError as exc:
            self._error(f"Not exported: {visible(str(exc))}")
            return
        if os.path.exists(path):

            def answered(overwrite: bool | None) -> None:
                if overwrite:
                    self._start(path)

            self.app.push_screen(
                ConfirmDialog(f"{visible(path)} exists. Replace it?", yes="Replace", no="Keep it"),
                answered,
            )
            return
        self._start(path)

    working = False
    """An export is being written (the keys typed after enter wait for it: ui/typeahead.py)."""

    def _start(self, path: str) -> None:
        self.working = True
        # The reviewed runs as `export --reviewed-only` writes them (`export_reviewed`), taken now.
        rows = {"all": None, "filter": self.shown, "reviewed": self.reviewed_rows()}[self.scope]
        self.query_one("#export-error", Static).update(f"Writing {visible(os.path.basename(path))}…")
        bar = self.query_one("#export-progress", ProgressBar)
        bar.update(total=len(self.store) if rows is None else max(len(rows), 1), progress=0)
        bar.display = True
        for button in self.query(Button):
            button.disabled = True
        self._write(path, self.fmt, rows)

    def on_export_progressed(self, event: ExportProgressed) -> None:
        self.query_one("#export-progress", ProgressBar).update(total=max(event.total, 1), progress=event.done)

    @work(thread=True, exclusive=True, group="export")
    def _write(self, path: str, fmt: str, rows: list[int] | None) -> None:
        def progress(done: int, total: int) -> None:
            self.post_message(ExportProgressed(done, total))  # thread-safe; the bar moves on the UI thread

        try:
            count = export_runs(self.store, self.review, path, fmt, rows, progress=progress)
        except (OSError, ValueError) as exc:
            self.app.call_from_thread(self._failed, str(exc))
            return
        runs = "run" if count == 1 else "runs"
        self.app.call_from_thread(self.dismiss, f"Exported {count:,} {runs} to {visible(path)}")

    def _failed(self, reason: str) -> None:
        self.working = False
        self.query_one("#export-progress").display = False
        for button in self.query(Button):
            button.disabled = False
        self._error(f"Not exported: {visible(reason)}")

    def _error(self, message: str) -> None:
        self.query_one("#export-error", Static).update(message)
        self.query_one("#export-error").add_class("-error")

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        self.dismiss(None)
