"""RunDetail: everything about the highlighted run, and why the rule diagnosed it so.

Every string from the run is shown literally: text reaches the screen only as
`Content` built from plain strings (after `visible`), never as markup.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from itertools import islice
from typing import TYPE_CHECKING, Any, ClassVar

from textual.app import ComposeResult
from textual.containers import Horizontal, VerticalScroll
from textual.content import Content, Span
from textual.style import Style
from textual.widgets import Static

from ...core.analysis.explain import ABSENT, describe_label, invalid_reason, reason
from ...core.analysis.filtering import LABEL_STAGE_CODES
from ...core.common.text import visible
from ...core.runs.corpus import DocStore, DocText, document_text, run_texts
from ...core.runs.metrics import id_metrics
from ...core.runs.stages import S_INVALID, S_RETRIEVAL
from .reviewers import reviewers_block, team_label
from .stages import LUCKY_MARK, STAGE_STYLE_CLASSES, STAGE_TITLES, label_word, stage_style

if TYPE_CHECKING:
    from ...core.review.state import Review
    from ...core.runs.store import RunStore

TEXT_FIELDS = ("question", "answer")  # shown near the top, each in its own row
SHOWN_ELSEWHERE = ("id", "required", "context", "correct", *TEXT_FIELDS)
BLIND_REASON = (
    "Blind mode: the diagnosis, the file's label and the other reviewers' labels show once you "
    "label this run (y correct, n incorrect)."
)
IN_FORCE = {  # why the label in force is what it is, by `Review.label_source`
    "adjudication": "adjudicated",
    "reviewer": "from the reviewers",
    "conflict": "the file's: the reviewers disagree",
}
MAX_VALUE = 4000  # characters of one field's value (the question and answer too) shown before cutting
MAX_ID = 10_000  # characters of one ID: IDs that differ in one place must show it, but not 10 MB
MAX_IDS = 200  # IDs listed in one column; the rest are counted (a run may have 10,000)
LAST_LACKING = 10  # of a cut list of missing IDs, the last ones listed too: it shows where it ends


def _c(name: str) -> str:
    """The style of a component class, resolved by the Static from this widget."""
    return f".run-detail--{name}"


def multiline(text: str) -> str:
    """Text shown over several lines: each line made safe, line breaks kept."""
    return "\n".join(visible(line) for line in text.splitlines() or [""])


def cut(text: str, limit: int = MAX_VALUE) -> str:
    """`text`, or its first `limit` characters and its full length (exports keep it whole)."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}… ({limit} of {len(text)} characters shown)"


def value_text(value: Any) -> str:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return multiline(cut(text))


def field_line(name: str, value: str | Content, width: int = 15) -> Content:
    """`name` then `value` on one line, names aligned."""
    return Content.assemble((visible(name).ljust(width), _c("key")), value, "\n")


def field_block(name: str, value: str, inline: int = 60) -> Content:
    """A short value beside its name; a long or multi-line one below it."""
    if "\n" not in value and len(value) <= inline:
        return field_line(name, value)
    return Content.assemble((visible(name), _c("key")), "\n", value, "\n\n")


Marking = tuple[str, str, str, str]
"""(mark, word, id style, word style); the mark takes the word's class."""


_STOP_WORDS = """about above after again against all also and any are because been before being below
    between both but can could did does doing down during each few for from further had has
    have having her here hers him his how into its itself just more most much must not now off
    once only other our ours out over own same she should some such than that the their theirs
    them then there these they this those through too under until very was were what when
    where which while who whom why will with would you your yours"""
STOP_WORDS = frozenset(_STOP_WORDS.split())
"""Words too common to mark in a document's text."""
WORD = re.compile(r"[^\W\d_]{3,}")
MAX_DOC = 50_000  # characters of one document's text shown before cutting
DOC_KINDS = {  # how an ID stands, by its column and its mark's word
    "missing": "required · missing (not supplied)",
    "present": "required · supplied",
    "matching": "supplied · required",
    "extra": "supplied · extra (not required)",
}


def question_words(question: object) -> frozenset[str]:
    """The words of the question worth marking in a document: 3+ letters, no stop words, lower case."""
    if not isinstance(question, str):
        return frozenset()
    return frozenset(
        word for word in (w.casefold() for w in WORD.findall(question)) if word not in STOP_WORDS
    )


def marked(text: str, words: frozenset[str], style: str) -> Content:
    """`text` as literal text, the words of `words` (any case) styled `style`."""
    if not words:
        return Content(text)
    spans = [
        Span(match.start(), match.end(), style)
        for match in WORD.finditer(text)
        if match.group().casefold() in words
    ]
    return Content(text, spans)


def listed(lacking: list[str], having: Iterable[str]) -> Iterator[str | int]:
    """The IDs a column lists: the lacking ones first, at most `MAX_IDS` in all.

    When the lacking ones alone are too many, their first and last few are listed and
    an int stands for the ones left out between them; no others are listed then.
    """
    if len(lacking) > MAX_IDS:
        yield from lacking[: MAX_IDS - LAST_LACKING]
        yield len(lacking) - MAX_IDS
        yield from lacking[-LAST_LACKING:]
    else:
        yield from lacking
        yield from islice(having, MAX_IDS - len(lacking))


def id_column(
    title: str,
    ids: list[str] | None,
    other: set[str],
    found: Marking,
    not_found: Marking,
    empty: str,
    current: str | None = None,
) -> Content:
    """A titled list of IDs, each marked by whether the other list has it.

    The IDs the other list lacks (the missing required ones) come first: they are
    what the reviewer needs. Past `MAX_IDS` IDs the rest are only counted, so a run
    with 10,000 IDs draws as fast as one with ten.
    """
    lines = [Content.assemble((title, _c("heading")))]
    if not ids:
        lines.append(Content.assemble((f"  {empty}", _c("muted"))))
        return Content("\n").join(lines)
    lacking = [doc for doc in ids if doc not in other]
    having = (doc for doc in ids if doc in other)
    word_width = max(len(found[1]), len(not_found[1]))
    shown = 0
    highlighted = False
    for doc in listed(lacking, having):
        if isinstance(doc, int):
            lines.append(Content.assemble((f"⋮ {doc} more {not_found[1]}", _c("muted"))))
            continue
        shown += 1
        mark, word, id_style, word_style = found if doc in other else not_found
        # The word before the ID: a long ID may wrap, but never away from its mark and word.
        line = Content.assemble(
            (mark, _c(word)),
            (word.ljust(word_width), _c(word_style)),
            "  ",
            (visible(cut(doc, MAX_ID)), _c(id_style) if id_style else ""),
        )
        if doc == current and not highlighted:  # the document shown below the lists
            highlighted = True
            line = line.stylize(_c("current"))
        lines.append(line)
    if shown < len(ids):
        more = f"… and {len(ids) - shown} more ({len(lacking)} {not_found[1]} in all)"
        lines.append(Content.assemble((more, _c("muted"))))
    return Content("\n").join(lines)


ID_GAP = 2  # columns between the required and supplied lists (see ragdiag.tcss)
ID_INDENT = 4  # the continuation lines of a folded ID


def shown_ids(ids: list[str] | None, other: set[str]) -> list[str]:
    """The IDs `id_column` lists, in its order (the ones a reviewer can move over)."""
    if not ids:
        return []
    lacking = [doc for doc in ids if doc not in other]
    return [doc for doc in listed(lacking, (doc for doc in ids if doc in other)) if isinstance(doc, str)]


def widest_line(content: Content) -> int:
    return max((line.cell_length for line in content.split("\n")), default=0)


def fold(content: Content, width: int, indent: int = ID_INDENT) -> Content:
    """Each line of `content` cut into lines of at most `width` cells, continuations indented."""
    lines: list[Content] = []
    for line in content.split("\n"):
        if line.cell_length <= width or width <= indent + 1:
            lines.append(line)
            continue
        lines.append(line[:width])
        rest = line[width:]
        while rest:
            step = width - indent
            lines.append(Content.assemble(" " * indent, rest[:step]))
            rest = rest[step:]
    return Content("\n").join(lines)


def metric(value: float) -> str:
    """A recall or precision figure; `none` where it is undefined (NaN), never 0."""
    return "none" if value != value else f"{value:.2f}"


def metrics_text(raw: dict[str, Any]) -> str:
    """RAGAS's ID-based context recall and precision of one run (`raw`: the run object)."""
    recall, precision = id_metrics(raw.get("required"), raw.get("context"))
    return f"recall {metric(recall)} · precision {metric(precision)}"


class RunDetail(VerticalScroll, can_focus=True):
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
        yield Static(id="run-heading", markup=False)
        yield Static(id="run-reason", markup=False)
        # Question and answer right under the reason: a reviewer judging a lucky answer
        # needs them first, and a run with thousands of IDs must not push them out of
        # reach. Each is a row, so long text wraps under itself.
        for name in TEXT_FIELDS:
            with Horizontal(id=f"run-{name}", classes="run-text"):
                yield Static(name.capitalize(), classes="run-text-key", markup=False)
                yield Static(id=f"run-{name}-text", classes="run-text-value", markup=False)
        with Horizontal(id="run-ids"):
            yield Static(id="run-required", markup=False)
            yield Static(id="run-supplied", markup=False)
        with VerticalScroll(id="run-document"):  # the highlighted ID's text (`,` and `.`)
            yield Static(id="run-document-text", markup=False)
        yield Static(id="run-baseline", markup=False)  # before and after, with `review --baseline`
        yield Static(id="run-labels", markup=False)
        yield Static(id="run-fields", markup=False)

    def on_mount(self) -> None:
        self._shown: tuple[RunStore, Review | None, int | None] | None = None
        # A label change shows the same run again: its parsed object and its ID lists
        # are kept, not redone (a run may be a 10 MB line, or list 15,000 IDs).
        self._parsed: tuple[RunStore, int, dict[str, Any]] | None = None
        self._ids_of: tuple[RunStore, int] | None = None
        self._id_columns = (Content(""), Content(""))
        self._id_lists: tuple[list[str] | None, list[str] | None] = (None, None)
        # The documents a reviewer moves over (id, its word in DOC_KINDS), and which one
        # is highlighted (None: none, the document panel hidden).
        self._documents: list[tuple[str, str]] = []
        self._document_at: int | None = None
        self._carried: tuple[RunStore, int, dict[str, str]] | None = None
        self.docs: DocStore | None = None
        self.docs_status = ""  # why the corpus has no text to give yet ("opening documents…")
        self._documents_of: tuple[RunStore, int] | None = None
        self._document_shown: tuple[object, ...] | None = None  # what the panel shows, scrolled once
        self._question: frozenset[str] = frozenset()
        self.watch(self.app, "theme", self._theme_changed, init=False)

    def _theme_changed(self) -> None:
        self._ids_of = None  # their colours are baked in
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
        self.query_one(f"#{widget_id}", Static).update(self._bake(content))

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
        self._set("run-heading", Content.assemble(("No run selected", _c("muted"))))
        for widget_id in ("run-reason", "run-required", "run-supplied"):
            self._set(widget_id, "")
        self._set("run-labels", "")
        self._set("run-fields", "")
        self.query_one("#run-ids").display = False
        self._ids_of = None
        self._forget_documents()
        self._show_text_fields({})

    def _heading(self, store: RunStore, row: int, *extra: tuple[str, str], hidden: bool = False) -> Content:
        code = store.stage[row]
        run_id = store.ids[row]
        return Content.assemble(
            (" HIDDEN ", _c("muted")) if hidden else (f" {STAGE_TITLES[code].upper()} ", stage_style(code)),
            *extra,
            "  ",
            (visible(cut(run_id, MAX_ID)), _c("heading")) if run_id else ("(no id)", _c("muted")),
            (f"  line {store.lines[row]}", _c("muted")),
        )

    def _show_invalid(self, store: RunStore, row: int) -> None:
        error = store.errors[row]
        self._set("run-heading", self._heading(store, row))
        self._set("run-reason", invalid_reason(error.line, error.detail))
        self.query_one("#run-ids").display = False
        self._ids_of = None
        self._forget_documents()
        self._show_text_fields({})
        self._set("run-labels", "")
        fields = [field_line("error", error.kind)]
        if error.field:
            fields.append(field_line("field", error.field))
        fields.append(field_line("reason", visible(error.reason)))
        self._set("run-fields", Content("").join(fields).rstrip())

    def _show_valid(self, store: RunStore, review: Review | None, row: int) -> None:
        raw = self._run_object(store, row)
        label = review.label(row) if review is not None else raw.get("correct")
        label = label if isinstance(label, bool) else None
        code = store.stage[row]
        if review is not None and not review.revealed(row):  # blind mode, not labelled yet
            self._set("run-heading", self._heading(store, row, hidden=code in LABEL_STAGE_CODES))
            self._set("run-reason", Content.assemble((BLIND_REASON, _c("muted"))))
        else:
            lucky = code == S_RETRIEVAL and label is True
            extra = (("  ", ""), (f" {LUCKY_MARK} LUCKY ANSWER ", _c("lucky"))) if lucky else ()
            self._set("run-heading", self._heading(store, row, *extra))
            self._set("run-reason", reason(store.diagnosis(row), label, raw.get("correct", ABSENT)))
        self._show_text_fields(raw)
        if self._ids_of is None or self._ids_of[0] is not store or self._ids_of[1] != row:
            self._id_lists = (raw.get("required"), raw.get("context"))
            self._list_documents(store, row)
            self._show_ids()
            self._ids_of = (store, row)
        self._question = question_words(raw.get("question"))
        self._show_document()
        self._set("run-labels", self._labels(raw, review, row))
        self._set("run-fields", self._fields(raw))

    def _run_object(self, store: RunStore, row: int) -> dict[str, Any]:
        """The run's fields, mapped ones under their own names; parsed once while shown."""
        parsed = self._parsed
        if parsed is None or parsed[0] is not store or parsed[1] != row:
            parsed = self._parsed = (store, row, store.run_object(row))
        return parsed[2]

    def _show_ids(self) -> None:
        """Required and supplied IDs side by side, each marked against the other list;
        one above the other when side by side an ID would wrap away from its mark.
        The highlighted document's line is marked in its column."""
        required, context = self._id_lists
        current = self.current_document
        in_required = current is not None and current[1] in ("missing", "present")
        self.query_one("#run-ids").display = True
        required_column = id_column(
            f"Required ({len(required or ())})",
            required,
            set(context or ()),
            found=("✓ ", "present", "", "muted"),
            not_found=("✗ ", "missing", "missing", "missing"),
            empty="none declared",
            current=current[0] if current is not None and in_required else None,
        )
        supplied_column = id_column(
            f"Supplied ({'absent' if context is None else len(context)})",
            context,
            set(required or ()),
            found=("✓ ", "matching", "", "muted"),
            not_found=("+ ", "extra", "extra", "muted"),
            empty="nothing supplied",
            current=current[0] if current is not None and not in_required else None,
        )
        self._id_columns = (required_column, supplied_column)
        self._lay_out_ids()

    def _lay_out_ids(self) -> None:
        """Side by side when both lists fit so; else one above the other, each line
        folded to the width by hand, so an ID too long for any line keeps its start
        beside its mark and word (the renderer would move it to a line of its own)."""
        required, supplied = self._id_columns
        width = self.scrollable_content_region.width
        stacked = width > 0 and widest_line(required) + ID_GAP + widest_line(supplied) > width
        self.query_one("#run-ids").set_class(stacked, "-stacked")
        if stacked:
            required, supplied = fold(required, width), fold(supplied, width)
        self._set("run-required", required)
        self._set("run-supplied", supplied)

    def on_resize(self) -> None:
        if self._ids_of is not None:
            self._lay_out_ids()

    # -- the documents' text (`,` and `.`) -----------------------------------------------

    @property
    def current_document(self) -> tuple[str, str] | None:
        """The highlighted document: (id, its word in DOC_KINDS), or None."""
        at = self._document_at
        return None if at is None else self._documents[at]

    def _list_documents(self, store: RunStore, row: int) -> None:
        """The IDs of the run shown, required then supplied, as the columns list them.
        A new run highlights its first document when one was highlighted before."""
        required, context = self._id_lists
        required_set, context_set = set(required or ()), set(context or ())
        self._documents = [
            (doc, "present" if doc in context_set else "missing") for doc in shown_ids(required, context_set)
        ] + [
            (doc, "matching" if doc in required_set else "extra") for doc in shown_ids(context, required_set)
        ]
        keep = (
            self._documents_of is not None and self._documents_of[0] is store and self._documents_of[1] == row
        )
        self._documents_of = (store, row)
        self._carried = None
        if self._document_at is not None:
            at = self._document_at if keep else 0
            self._document_at = min(at, len(self._documents) - 1) if self._documents else None

    def _forget_documents(self) -> None:
        self._id_lists = (None, None)
        self._documents = []
        self._carried = None
        self.query_one("#run-document").display = False

    def move_document(self, step: int) -> bool:
        """Highlight the next (`step` 1) or previous (-1) document of the run shown, and
        show its text. False when the run has no document IDs."""
        if not self._documents or self._ids_of is None:
            return False
        count = len(self._documents)
        at = self._document_at
        self._document_at = (0 if step > 0 else count - 1) if at is None else (at + step) % count
        self._show_ids()
        self._show_document()
        self.call_after_refresh(self._bring_document_into_view)
        return True

    def _bring_document_into_view(self) -> None:
        panel = self.query_one("#run-document")
        if panel.display:
            self.scroll_to_widget(panel, animate=False, top=False)

    def set_docs(self, docs: DocStore | None, status: str = "") -> None:
        """The corpus (`--docs`) once open, or why there is none yet; the panel shows it anew."""
        self.docs = docs
        self.docs_status = status
        if self._ids_of is not None:
            self._show_document()

    def _run_texts(self) -> dict[str, str]:
        """The texts the run shown carries itself, read once while it is shown."""
        assert self._ids_of is not None
        store, row = self._ids_of
        carried = self._carried
        if carried is None or carried[0] is not store or carried[1] != row:
            carried = self._carried = (store, row, run_texts(store, row))
        return carried[2]

    def _show_document(self) -> None:
        """The highlighted document's id, standing, source and text; hidden when none is."""
        panel = self.query_one("#run-document")
        current = self.current_document
        panel.display = current is not None
        if current is None or self._ids_of is None:
            return
        doc_id, kind = current
        found = document_text(doc_id, self._run_texts(), self.docs)
        if found.text is None and self.docs is None and self.docs_status:
            found = DocText(doc_id, None, "", self.docs_status)
        assert self._document_at is not None
        self._set("run-document-text", self._document_content(found, kind))
        shown = (*self._ids_of, self._document_at)
        if shown != self._document_shown:  # a label change keeps the panel where it was scrolled
            self._document_shown = shown
            panel.scroll_home(animate=False)

    def _document_content(self, found: DocText, kind: str) -> Content:
        at = self._document_at or 0
        parts = [
            Content.assemble(
                (f"Document {at + 1} of {len(self._documents)}", _c("heading")),
                ("  (, previous  . next)", _c("muted")),
                "\n",
            ),
            field_line("ID", visible(cut(found.id, MAX_ID))),
            field_line("Stands", Content.assemble((DOC_KINDS[kind], _c(kind)))),
        ]
        if found.text is not None:
            source = "the run itself" if found.source == "run" else visible(found.source)
            parts.append(field_line("Text from", source))
        if kind == "missing":
            lacked = " Below: what it lacked." if found.text is not None else ""
            parts.append(
                Content.assemble(
                    (f"The answer was given without this document.{lacked}", _c("missing")), "\n"
                )
            )
        if found.text is None:
            parts.append(field_line("Text", Content.assemble((visible(found.reason) or "none", _c("muted")))))
            return Content("").join(parts).rstrip()
        parts.append(Content("\n"))
        parts.append(marked(multiline(cut(found.text, MAX_DOC)), self._question, _c("word")))
        return Content("").join(parts).rstrip()

    def _show_text_fields(self, raw: dict[str, Any]) -> None:
        """The question and answer, each shown only when the run has it."""
        for name in TEXT_FIELDS:
            self.query_one(f"#run-{name}").display = name in raw
            self._set(f"run-{name}-text", value_text(raw[name]) if name in raw else "")

    def _labels(self, raw: dict[str, Any], review: Review | None, row: int) -> Content:
        raw_label = raw.get("correct", ABSENT)
        file_label = raw_label if isinstance(raw_label, bool) else None
        if review is not None and not review.revealed(row):  # blind mode, not labelled yet
            return self._blind_labels(review, row)
        lines = [
            field_line(
                "File label",
                Content.assemble(label_word(file_label), (f"  ({describe_label(raw_label)})", _c("muted"))),
            )
        ]
        if review is None:
            lines.append(field_line("Reviewer label", Content.assemble(("loading…", _c("muted")))))
            return Content("").join(lines).rstrip()
        lines.append(field_line("Reviewer label", team_label(review, row)))
        source = review.label_source(row)
        lines.append(
            field_line(
                "In force",
                Content.assemble(
                    label_word(review.label(row)),
                    (
                        f"  ({IN_FORCE.get(source, f'from the {source}')})" if source else "  (no label)",
                        _c("muted"),
                    ),
                ),
            )
        )
        lines.append(reviewers_block(review, row))
        lines.append(field_line("Reason tags", self._tags(review.tags(row))))
        lines.append(field_line("ID metrics", metrics_text(raw)))
        note = review.note(row)
        if note:
            lines.append(field_block("Note", multiline(note)))
        else:
            lines.append(field_line("Note", Content.assemble(("none  (c to add one)", _c("muted")))))
        if row in review.unsaved:
            lines.append(
                field_line(
                    "Journal",
                    Content.assemble(("NOT SAVED: the last change did not reach the disk", _c("unsaved"))),
                )
            )
        return Content("").join(lines).rstrip()

    def _blind_labels(self, review: Review, row: int) -> Content:
        """Blind mode, before this reviewer labelled the run: only what tells no label."""
        hidden = Content.assemble(("hidden until you label this run (blind mode)", _c("muted")))
        mine = review.state(row)
        lines = [
            field_line("File label", hidden),
            field_line(
                "Your label", Content.assemble(("none  (y correct, n incorrect, space flips)", _c("muted")))
            ),
            reviewers_block(review, row),
        ]
        if mine is not None and mine.note:
            lines.append(field_block("Your note", multiline(mine.note)))
        else:
            lines.append(field_line("Your note", Content.assemble(("none  (c to add one)", _c("muted")))))
        return Content("").join(lines).rstrip()

    def _tags(self, keys: tuple[str, ...]) -> Content:
        """The run's reason tags by number and name, as the tag set in force names them."""
        if not keys:
            return Content.assemble(("none  (1-9 toggle a reason)", _c("muted")))
        by_key = {tag.key: tag for tag in getattr(self.app, "reason_tags", ())}
        names = []
        for key in keys:
            tag = by_key.get(key)
            names.append(f"{tag.number} {tag.name}" if tag else visible(key))
        return Content.assemble((", ".join(names), _c("reviewer")))

    def _fields(self, raw: dict[str, Any]) -> Content:
        lines: list[Content] = []
        for name, value in raw.items():
            if name not in SHOWN_ELSEWHERE:
                lines.append(field_block(name, value_text(value)))
        if not lines:
            return Content.assemble(("no other fields", _c("muted")))
        return Content("").join(lines).rstrip()
