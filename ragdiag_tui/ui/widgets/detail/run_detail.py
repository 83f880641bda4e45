"""RunDetail: everything about the highlighted run, and why the rule diagnosed it so.

Every string from the run is shown literally: text reaches the screen only as
`Content` built from plain strings (after `visible`), never as markup. The pane
is composed of parts built elsewhere: the heading and reason (`run_heading`),
the ID lists (`id_lists.IdLists`), the highlighted document (`document_panel.DocumentPanel`)
and the labels, reviewers and other fields (`run_labels`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from textual.app import ComposeResult
from textual.containers import Horizontal, VerticalScroll
from textual.content import Content, Span
from textual.style import Style
from textual.widgets import Static

from ....core.analysis.explain import invalid_reason
from ....core.runs.stages import S_INVALID
from ..stages import STAGE_STYLE_CLASSES
from .detail_text import multiline, muted, value_text
from .document_panel import DocumentPanel, question_words
from .id_lists import IdLists
from .pane_text import PaneText
from .run_heading import error_fields, heading, valid_heading
from .run_labels import TEXT_FIELDS, fields_content, labels_content, notes_text
from .steady_scroll import SteadyScroll

if TYPE_CHECKING:
    from ....core.review.state import Review
    from ....core.runs.corpus import DocStore
    from ....core.runs.store import RunStore

MIN_DOCUMENT_LINES = 5  # the document panel's fewest lines beside the run's IDs
MAX_DOCUMENT_LINES = 20  # and its most, unless the pane is maximized


class RunDetail(SteadyScroll, can_focus=True):
    """The detail pane of one run."""

    ALLOW_MAXIMIZE = True  # enter shows it full screen, for long answers on a small terminal

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "run-detail--key",
        "run-detail--muted",
        "run-detail--heading",
        "run-detail--present",
        "run-detail--missing",
        "run-detail--matching",
        "run-detail--extra",
        "run-detail--lucky",
        "run-detail--reviewer",
        "run-detail--unsaved",
        "run-detail--conflict",
        "run-detail--current",
        "run-detail--word",
        *STAGE_STYLE_CLASSES,
    }

    def compose(self) -> ComposeResult:
        yield PaneText(id="run-heading")
        yield PaneText(id="run-reason")
        # Question and answer right under the reason: a reviewer judging a lucky answer
        # needs them first, and a run with thousands of IDs must not push them out of
        # reach. Each is a row, so long text wraps under itself.
        for name in TEXT_FIELDS:
            with Horizontal(id=f"run-{name}", classes="run-text"):
                yield Static(name.capitalize(), classes="run-text-key", markup=False)
                yield PaneText(id=f"run-{name}-text", classes="run-text-value")
        with Horizontal(id="run-ids"):
            yield PaneText(id="run-required")
            yield PaneText(id="run-supplied")
        with SteadyScroll(id="run-document"):  # the highlighted ID's text (`,` and `.`)
            yield PaneText(id="run-document-text")
        yield PaneText(id="run-baseline")  # before and after, with `review --baseline`
        yield PaneText(id="run-labels")
        yield PaneText(id="run-fields")

    def on_mount(self) -> None:
        self._shown: tuple[RunStore, Review | None, int | None] | None = None
        # A label change shows the same run again: its parsed object and its ID lists
        # are kept, not redone (a run may be a 10 MB line, or list 15,000 IDs).
        self._parsed: tuple[RunStore, int, dict[str, Any]] | None = None
        self._ids = IdLists(self.query_one("#run-ids"), self._set)
        self._documents = DocumentPanel(self.query_one("#run-document", VerticalScroll), self._set)
        self.watch(self.app, "theme", self._theme_changed, init=False)

    def _theme_changed(self) -> None:
        self._ids.of = None  # their colours are baked in
        if self._shown is not None:
            self.call_after_refresh(self.show_run, *self._shown, keep_scroll=True)

    def _bake(self, content: Content) -> Content:
        """Resolve `.run-detail--x` spans to styles now.

        Textual resolves such spans itself, but drops their background
        (`get_visual_style(partial=True)` in Textual 8.2), and the missing IDs
        and stage chips need theirs.
        """
        spans = [
            Span(span.start, span.end, self._component(span.style[1:]))
            if isinstance(span.style, str) and span.style.startswith(".")
            else span
            for span in content.spans
        ]
        return Content(content.plain, spans, strip_control_codes=False)

    def _component(self, name: str) -> Style:
        # The full style: a partial one cannot resolve "auto" colours ($text-muted).
        return Style.from_rich_style(self.get_component_rich_style(name))

    def _set(self, widget_id: str, content: Content | str) -> None:
        if isinstance(content, str):
            content = Content(content)
        widget = self.query_one(f"#{widget_id}", Static)
        baked = self._bake(content)
        shown = widget.content
        # A key changes a part or two of the pane: the others keep what they drew, with no
        # layout or drawing again (most keys show the same run again).
        if not (isinstance(shown, Content) and shown.is_same(baked)):
            widget.update(baked)

    # -- the run shown ----------------------------------------------------------------

    def show_run(
        self,
        store: RunStore,
        review: Review | None,
        row: int | None,
        keep_scroll: bool = False,
    ) -> None:
        """Show run `row` of the store (None: nothing to show)."""
        self._shown = (store, review, row)
        if not keep_scroll:
            self.scroll_home(animate=False)
        if row is None:
            self._show_nothing()
        elif store.stage[row] == S_INVALID:
            self._show_invalid(store, row)
        else:
            self._show_valid(store, review, row)

    def show_baseline(self, content: Content | None) -> None:
        """The before-and-after block of the run shown (None: no baseline)."""
        widget = self.query_one("#run-baseline", Static)
        widget.display = content is not None
        if content is not None:
            self._set("run-baseline", content)

    def _show_nothing(self) -> None:
        self._set("run-heading", muted("No run selected"))
        for widget_id in ("run-reason", "run-required", "run-supplied", "run-labels", "run-fields"):
            self._set(widget_id, "")
        self._forget_run()

    def _show_invalid(self, store: RunStore, row: int) -> None:
        error = store.errors[row]
        self._set("run-heading", heading(store, row))
        self._set("run-reason", invalid_reason(error.line, error.detail))
        self._forget_run()
        self._set("run-labels", "")
        self._set("run-fields", error_fields(error))

    def _forget_run(self) -> None:
        """No ID lists, no documents, no question or answer: the run shown is not a valid one."""
        self._ids.hide()
        self._documents.forget()
        self._show_text_fields({})

    def _show_valid(self, store: RunStore, review: Review | None, row: int) -> None:
        raw = self._run_object(store, row)
        reason_tags = getattr(self.app, "reason_tags", ())
        run_heading, run_reason = valid_heading(store, review, row, raw, reason_tags)
        self._set("run-heading", run_heading)
        self._set("run-reason", run_reason)
        self._show_text_fields(raw)
        if not self._ids.is_of(store, row):
            self._ids.load(store, row, raw.get("required"), raw.get("context"))
            self._documents.load(store, row, self._ids.required, self._ids.context)
            self._show_ids()
        self._documents.question = question_words(raw.get("question"))
        self._documents.show(self._ids.of)
        rule = store.field_map.brief() if store.field_map is not None else None
        self._set("run-labels", labels_content(raw, review, row, reason_tags, rule))
        self._set("run-fields", fields_content(raw))

    def _run_object(self, store: RunStore, row: int) -> dict[str, Any]:
        """The run's fields, mapped ones under their own names; parsed once while shown."""
        parsed = self._parsed
        if parsed is None or parsed[0] is not store or parsed[1] != row:
            parsed = self._parsed = (store, row, store.run_object(row))
        return parsed[2]

    def _show_text_fields(self, raw: dict[str, Any]) -> None:
        """The question and answer, each shown only when the run has it."""
        for name in TEXT_FIELDS:
            self.query_one(f"#run-{name}").display = name in raw
            self._set(f"run-{name}-text", value_text(raw[name]) if name in raw else "")

    def _show_ids(self) -> None:
        self._ids.show(self._documents.current, self.scrollable_content_region.width)

    def on_resize(self) -> None:
        if self._ids.of is not None:
            self._ids.lay_out(self.scrollable_content_region.width)

    # -- the documents' text (`,` and `.`) -----------------------------------------------

    @property
    def current_document(self) -> tuple[str, str] | None:
        """The highlighted document: (id, its word in `document_panel.DOC_KINDS`), or None."""
        return self._documents.current

    @property
    def docs(self) -> DocStore | None:
        """The corpus (`--docs`), once open."""
        return self._documents.docs

    @property
    def docs_status(self) -> str:
        """Why the corpus has no text to give yet ("opening documents…"), or ""."""
        return self._documents.docs_status

    def move_document(self, step: int) -> bool:
        """Highlight the next (`step` 1) or previous (-1) document of the run shown, and
        show its text. False when the run has no document IDs."""
        if self._ids.of is None or not self._documents.move(step):
            return False
        self._show_ids()
        self._documents.show(self._ids.of)
        self.call_after_refresh(self._bring_document_into_view)
        return True

    def _bring_document_into_view(self) -> None:
        """Show the document panel under the run's IDs, both in view: the panel gets the
        lines the IDs leave (it scrolls within), down to MIN_DOCUMENT_LINES on a short pane."""
        panel = self.query_one("#run-document")
        if not panel.display:
            return
        ids = self.query_one("#run-ids")
        room = self.scrollable_content_region.height - ids.outer_size.height - panel.styles.margin.top
        if room >= MIN_DOCUMENT_LINES:
            panel.styles.max_height = room if self.has_class("-maximized") else min(room, MAX_DOCUMENT_LINES)
            self.call_after_refresh(self.scroll_to_widget, ids, animate=False, top=True)
        else:  # too many IDs to keep with it: the panel at its own height
            panel.styles.max_height = None
            self.call_after_refresh(self.scroll_to_widget, panel, animate=False, top=False)

    def whole_texts(self) -> list[tuple[str, str]]:
        """(title, text made safe) of what `t` reads whole: the highlighted document's text,
        then the notes on the run shown; empty when there is neither."""
        texts = []
        found = self._documents.found
        if self._documents.current is not None and found is not None and found.text is not None:
            texts.append((f"Document {found.id}", multiline(found.text)))
        if self._shown is not None:
            store, review, row = self._shown
            if review is not None and row is not None and store.stage[row] != S_INVALID:
                notes = notes_text(review, row)
                if notes:
                    texts.append((f"Notes on run {store.ids[row]}", notes))
        return texts

    def set_docs(self, docs: DocStore | None, status: str = "") -> None:
        """The corpus (`--docs`) once open, or why there is none yet; the panel shows it anew."""
        self._documents.docs = docs
        self._documents.docs_status = status
        if self._ids.of is not None:
            self._documents.show(self._ids.of)
