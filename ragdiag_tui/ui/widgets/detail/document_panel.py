"""The document panel of the detail pane: the text of the highlighted document (`,` and `.`).

The reviewer moves over the run's IDs, required then supplied, as the ID lists show them;
the panel shows the highlighted one's standing, where its text comes from and the text,
the question's words marked in it. Only the highlighted ID is looked up.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING

from textual.containers import VerticalScroll
from textual.content import Content, Span

from ....core.common.text import visible
from .detail_text import MAX_ID, cut, detail_class, field_line, joined, muted, shown_lines
from .id_lists import shown_ids

if TYPE_CHECKING:
    from ....core.runs.corpus import DocStore, DocText
    from ....core.runs.store import RunStore
    from ....core.runs.texts import Nearest

# The documents' module (core.runs.corpus) is loaded when a document is first highlighted:
# the first frame highlights none.

_c = detail_class

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
MAX_DOC_LINES = 50  # and its lines (the panel shows 20): `t` reads the whole text, drawn as it scrolls
DOC_KINDS = {  # how an ID stands, by its column and its mark's word
    "missing": "required · missing (not supplied)",
    "present": "required · supplied",
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


MAX_CLOSEST = 6  # lines of the closest supplied text shown under a required text not supplied as it is
MAX_CLOSEST_CHARS = 600  # and its characters


def closest_lines(nearest: Nearest) -> list[Content]:
    """A required text's best match among the supplied texts: its similarity and its first lines."""
    if nearest.closest is None:
        return [field_line("Closest", muted("nothing was supplied"))]
    shown = shown_lines(nearest.closest, MAX_CLOSEST, MAX_CLOSEST_CHARS, "it goes on")
    return [
        field_line("Closest", f"similarity {nearest.similarity:.3f} (RAGAS's), the supplied text:"),
        Content.assemble(("\n".join(shown), _c("muted")), "\n"),
    ]


def document_content(
    found: DocText, kind: str, at: int, count: int, question: frozenset[str], nearest: Nearest | None = None
) -> Content:
    """The panel's text: document `at` (0-based) of `count`, standing as `kind` (a DOC_KINDS key);
    `nearest`: a required text's closest supplied text, when documents are given as texts."""
    parts = [
        Content.assemble(
            (f"Document {at + 1} of {count}", _c("heading")),
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
            Content.assemble((f"The answer was given without this document.{lacked}", _c("missing")), "\n")
        )
    if nearest is not None:
        parts.extend(closest_lines(nearest))
    if found.text is None:
        parts.append(field_line("Text", muted(visible(found.reason) or "none")))
        return joined(parts)
    parts.append(Content("\n"))
    shown = shown_lines(found.text, MAX_DOC_LINES, MAX_DOC, "t shows the whole document")
    parts.append(marked("\n".join(shown), question, _c("word")))
    return joined(parts)


class DocumentPanel:
    """Which document of the run shown is highlighted, and the panel (`#run-document`) that
    shows its text; hidden while none is."""

    def __init__(self, panel: VerticalScroll, paint: Callable[[str, Content], None]) -> None:
        self.panel = panel
        self._paint = paint  # sets a Static of the pane, by id
        self.docs: DocStore | None = None
        self.docs_status = ""  # why the corpus has no text to give yet ("opening documents…")
        self.question: frozenset[str] = frozenset()
        """The words of the run's question, marked in the text."""
        # The documents a reviewer moves over (id, its word in DOC_KINDS), and which one
        # is highlighted (None: none, the panel hidden).
        self._documents: list[tuple[str, str]] = []
        self._at: int | None = None
        self._of: tuple[RunStore, int] | None = None  # the run they are of
        self._carried: tuple[RunStore, int, dict[str, str]] | None = None
        self._shown: tuple[object, ...] | None = None  # what the panel shows, scrolled once
        # What was painted last: a label change shows the run again, and a document of
        # 25,000 lines must not be looked up and drawn again for it.
        self._painted: tuple[object, ...] | None = None
        self.found: DocText | None = None
        """The highlighted document's text as last shown (`t` shows it whole)."""

    @property
    def current(self) -> tuple[str, str] | None:
        """The highlighted document: (id, its word in DOC_KINDS), or None."""
        return None if self._at is None else self._documents[self._at]

    def load(self, store: RunStore, row: int, required: list[str] | None, context: list[str] | None) -> None:
        """The IDs of run `row`, required then supplied, as the ID lists show them. A new
        run highlights its first document when one was highlighted before."""
        context_set = set(context or ())
        # A document both required and supplied is one document: listed once, as required
        # (and present); an ID listed twice is one document too.
        kinds = {
            doc: "present" if doc in context_set else "missing" for doc in shown_ids(required, context_set)
        }
        for doc in shown_ids(context, set(required or ())):
            kinds.setdefault(doc, "extra")
        self._documents = list(kinds.items())
        keep = self._of is not None and self._of[0] is store and self._of[1] == row
        self._of = (store, row)
        self._carried = None
        self._painted = None
        if self._at is not None:
            at = self._at if keep else 0
            self._at = min(at, len(self._documents) - 1) if self._documents else None

    def forget(self) -> None:
        """No documents: the run shown has no ID lists."""
        self._documents = []
        self._carried = None
        self._painted = None
        self.found = None
        self.panel.display = False

    def move(self, step: int) -> bool:
        """Highlight the next (`step` 1) or previous (-1) document; False when there is none."""
        if not self._documents:
            return False
        count = len(self._documents)
        at = self._at
        self._at = (0 if step > 0 else count - 1) if at is None else (at + step) % count
        return True

    def _run_texts(self, store: RunStore, row: int) -> dict[str, str]:
        """The texts run `row` carries itself, read once while it is shown."""
        from ....core.runs.corpus import run_texts

        carried = self._carried
        if carried is None or carried[0] is not store or carried[1] != row:
            carried = self._carried = (store, row, run_texts(store, row))
        return carried[2]

    def show(self, run: tuple[RunStore, int] | None) -> None:
        """The highlighted document of `run` (the one whose ID lists are drawn), or the panel
        hidden when none is highlighted."""
        current = self.current
        self.panel.display = current is not None
        if current is None or run is None:
            return
        painted = (*run, self._at, self.docs, self.docs_status, self.question)
        if painted == self._painted:
            return
        from ....core.runs.corpus import DocText, document_text, nearest_supplied

        self._painted = painted
        doc_id, kind = current
        found = self.found = document_text(doc_id, self._run_texts(*run), self.docs)
        if found.text is None and self.docs is None and self.docs_status:
            found = DocText(doc_id, None, "", self.docs_status)
        assert self._at is not None
        required = kind in ("missing", "present") and found.text is not None
        nearest = nearest_supplied(*run, found.text) if required and found.text is not None else None
        content = document_content(found, kind, self._at, len(self._documents), self.question, nearest)
        self._paint("run-document-text", content)
        shown = (*run, self._at)
        if shown != self._shown:  # a label change keeps the panel where it was scrolled
            self._shown = shown
            self.panel.scroll_home(animate=False)
