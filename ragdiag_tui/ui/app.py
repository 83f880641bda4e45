"""The Textual app: one review screen over one run file, and little else."""

from __future__ import annotations

import os
from collections.abc import Iterable
from typing import TYPE_CHECKING

from textual import events
from textual.app import App, SystemCommand
from textual.screen import Screen

from ..core.review.state import ReviewOptions
from ..core.review.tags import DEFAULT_TAGS, Tag
from ..core.runs.mapping import FieldMap
from .screens.review.screen import ReviewScreen
from .typeahead import Typeahead

if TYPE_CHECKING:
    from ..core.runs.corpus import DocsSource  # loaded by the CLI with --docs, not for the first frame
    from ..core.runs.row_source import RowSource


class RagdiagApp(App[int]):
    """Review the diagnoses of the runs in one file."""

    CSS_PATH = "ragdiag.tcss"
    TITLE = "ragdiag"
    reason_tags: tuple[Tag, ...] = DEFAULT_TAGS  # the tag set in force (--tags)
    docs: DocsSource | None = None  # the documents' text (--docs), opened on demand
    spot_check: str | None = None  # the spot-check to open once loaded (--spot-check)

    def __init__(
        self,
        options: ReviewOptions,
        export_dir: str | os.PathLike[str] | None = None,
        baseline: str | os.PathLike[str] | None = None,
    ) -> None:
        super().__init__()
        self.options = options
        # Where exports may go (serve limits each page's app to the run file's folder); None: anywhere.
        self.export_dir = None if export_dir is None else os.path.realpath(export_dir)
        self.path = options.path
        self.baseline = baseline  # `review --baseline OLD`
        self.sub_title = os.path.basename(self.path)
        self.typeahead = Typeahead(self)

    async def on_event(self, event: events.Event) -> None:
        if isinstance(event, events.Key) and not self.screen_stack:
            return  # a key still on its way as the app closes: no screen is left to take it
        if isinstance(event, events.Key) and not event.is_forwarded and self.typeahead.dispatched(event):
            return  # held behind the keys read before it
        await super().on_event(event)

    def on_key(self, event: events.Key) -> None:
        # Runs before App's own key handler, which would apply the bindings.
        self.typeahead.intercept(event)

    def get_default_screen(self) -> Screen:
        return ReviewScreen(self.options, baseline=self.baseline)

    @property
    def review_screen(self) -> ReviewScreen:
        return next(s for s in self.screen_stack if isinstance(s, ReviewScreen))

    def action_command_palette(self) -> None:
        """Show the command palette (Textual's, with enter acting on the text typed before it)."""
        from .screens.command_palette import TypedAheadPalette  # loaded on first use (ctrl+p)

        if self.use_command_palette and not TypedAheadPalette.is_open(self):
            self.push_screen(TypedAheadPalette())

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        for command in super().get_system_commands(screen):
            if isinstance(screen, ReviewScreen) and command.title == "Keys":
                continue  # the screen's own "Keys" lists every binding, views included
            yield command
        if isinstance(screen, ReviewScreen):
            for title, help_text, callback in screen.commands():
                yield SystemCommand(title, help_text, callback)

    async def action_quit(self) -> None:
        """Quit, but ask first if some changes never reached the journal."""
        from .screens.confirm import ConfirmDialog

        review = self.review_screen.review
        unsaved = len(review.unsaved) if review is not None else 0
        if not unsaved:
            self.exit()
            return

        def answered(quit_anyway: bool | None) -> None:
            if quit_anyway:
                self.exit()

        runs = "run was" if unsaved == 1 else "runs were"
        # The dialog says what went wrong; the error toasts would sit over its buttons.
        self.clear_notifications()
        self.push_screen(
            ConfirmDialog(
                f"{unsaved} changed {runs} not saved to the journal (marked !) and will "
                "be lost. Quit anyway?",
                yes="Quit, lose them",
                no="Stay",
            ),
            answered,
        )


def create_app(
    path: str | os.PathLike[str],
    reviewer: str | None = None,
    *,
    field_map: FieldMap | None = None,
    theme: str | None = None,
    journal: str | None = None,
    blind: bool = False,
    adjudicate: bool = False,
    export_dir: str | os.PathLike[str] | None = None,
    tags: tuple[Tag, ...] | None = None,
    docs: DocsSource | None = None,
    spot_check: str | None = None,
    baseline: str | os.PathLike[str] | None = None,
    source: RowSource | None = None,
) -> RagdiagApp:
    """The review app on the run file at `path`. The CLI and the tests both build it here.

    `reviewer` names who labels (default: the login name); `field_map` says where
    the run fields are when the file uses other names; `theme` is a Textual theme;
    `journal` the review log (see `core.journal.open_log`); `blind` hides the file's
    and other reviewers' labels until this reviewer labelled a run; `adjudicate`
    makes this reviewer's labels on runs in conflict the adjudication; `export_dir`,
    when given, is the only folder exports may write into; `tags` the reason tags in
    force (default: core.tags.DEFAULT_TAGS); `docs` where the documents' text is;
    `spot_check` the name of a spot-check whose runs to show once loaded;
    `baseline` an earlier run file to compare with (`review --baseline`); `source` the
    runs of a dataset read in place by an engine (then `path` is the dataset's folder).
    """
    options = ReviewOptions(os.fspath(path), field_map, journal, reviewer, blind, adjudicate, source)
    app = RagdiagApp(options, export_dir, baseline=baseline)
    if tags is not None:
        app.reason_tags = tags
    app.docs = docs
    app.spot_check = spot_check
    if theme is not None:
        app.theme = theme
    return app
