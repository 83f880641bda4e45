"""The documents' text in the review screen's detail pane (`.` and `,`).

The corpus (`--docs`) opens the first time a document is highlighted: indexing a
million documents takes a second or two, so it runs in a worker, and the detail says
"opening documents…" meanwhile.
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Literal, Protocol

from .host import WorkerHost

if TYPE_CHECKING:
    from ....core.runs.corpus import DocsSource, DocStore
    from ...widgets.detail.run_detail import RunDetail


class DocumentsHost(WorkerHost, Protocol):
    """What the documents use of the review screen, beyond `WorkerHost`."""

    @property
    def detail(self) -> RunDetail:
        """The detail pane, which shows the documents."""
        ...


class Documents:
    """Moves between the documents of the run shown; opens the corpus once."""

    def __init__(self, screen: DocumentsHost) -> None:
        self.screen = screen
        self.state: Literal["closed", "opening", "open", "failed"] = "closed"  # the corpus
        self.docs: DocStore | None = None

    def move(self, step: int) -> None:
        """Highlight another document of the run shown; the corpus opens the first time."""
        screen = self.screen
        if not screen.detail.move_document(step):
            screen.tell("This run lists no required or supplied documents.")
            return
        source = getattr(screen.app, "docs", None)
        if source is not None and self.state == "closed":
            self.state = "opening"
            screen.detail.set_docs(None, "opening documents…")
            screen.run_worker(
                partial(self._open, source), name="open_docs", group="docs", exclusive=True, thread=True
            )

    def read_whole(self) -> None:
        """The whole text the detail cuts (`t`): the highlighted document, else the run's notes."""
        from ..whole_text import WholeText

        texts = self.screen.detail.whole_texts()
        if not texts:
            self.screen.tell("Nothing to read whole: highlight a document with . or add a note with c.")
            return
        self.screen.app.push_screen(WholeText(texts))

    def _open(self, source: DocsSource) -> None:
        """Index the corpus, in a worker's thread; the result is shown on the main thread."""
        from ....core.runs.corpus import DocsError  # loaded already: `source` is its DocsSource

        try:
            docs = source.open()
        except DocsError as exc:
            self.screen.app.call_from_thread(self._failed, str(exc))
        else:
            self.screen.app.call_from_thread(self._opened, docs)

    def _opened(self, docs: DocStore) -> None:
        self.state = "open"
        self.docs = docs
        self.screen.detail.set_docs(docs)
        for warning in docs.warnings[:5]:
            self.screen.tell(warning, title="Documents", severity="warning", timeout=20)

    def _failed(self, reason: str) -> None:
        self.state = "failed"
        self.screen.detail.set_docs(None, f"cannot open the documents: {reason}")
        self.screen.tell(reason, title="Cannot open the documents", severity="error", timeout=30)

    def close(self) -> None:
        """Close the corpus, if it was opened (the screen goes)."""
        if self.docs is not None:
            self.docs.close()
