"""The evidence behind a spot-check's number: for each overturned run, what was asked, what
was answered, the required and supplied document IDs with the missing ones marked, and an
excerpt of each missing document's text where it is known (the run's own contexts, or the
`--docs` corpus, through core.runs.corpus)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ...runs.corpus import DocStore, document_text, run_texts

if TYPE_CHECKING:
    from ...review.state import Review

TEXT_LIMIT = 1200  # characters of a question or an answer on a card
EXCERPT_LIMIT = 600  # characters of a missing document's text


@dataclass(frozen=True, slots=True)
class Cut:
    """A text shown on the page, cut to an excerpt when longer than its limit."""

    text: str
    cut: bool = False

    @classmethod
    def of(cls, value: Any, limit: int) -> Cut:
        """`value` as text (a non-string field as its repr), at most `limit` characters."""
        text = value if isinstance(value, str) else ("" if value is None else repr(value))
        if len(text) <= limit:
            return cls(text)
        return cls(text[:limit].rstrip() + " …", True)


@dataclass(frozen=True, slots=True)
class MissingDocument:
    """A required document the run's context lacked, and what it says (or why that is unknown)."""

    id: str
    excerpt: Cut | None
    source: str  # "run", the corpus file, or "" when the text is unknown
    reason: str = ""


@dataclass(frozen=True, slots=True)
class EvidenceCard:
    """One overturned run of a spot-check, as a card of the report."""

    id: str
    question: Cut
    answer: Cut
    required: tuple[str, ...]
    context: tuple[str, ...]
    missing: tuple[str, ...]
    documents: tuple[MissingDocument, ...]
    file_label: bool | None
    label: bool | None


def is_overturned(review: Review, row: int) -> bool:
    """The run's settled label differs from the file's (as `SpotCheckProgress` counts it)."""
    return (
        review.is_reviewed(row)
        and not review.is_conflict(row)
        and review.label(row) != review.file_label(row)
    )


def evidence_card(review: Review, row: int, docs: DocStore | None) -> EvidenceCard:
    """The card of run `row`: its texts, its ID lists and the missing documents' excerpts."""
    store = review.store
    run = store.run_object(row)
    fields = store.fields(row)
    missing = review.missing(row)
    carried = run_texts(store, row) if missing else {}
    documents = []
    for doc_id in missing:
        found = document_text(doc_id, carried, docs)
        excerpt = None if found.text is None else Cut.of(found.text, EXCERPT_LIMIT)
        documents.append(MissingDocument(doc_id, excerpt, found.source, found.reason))
    return EvidenceCard(
        id=store.ids[row],
        question=Cut.of(run.get("question"), TEXT_LIMIT),
        answer=Cut.of(run.get("answer"), TEXT_LIMIT),
        required=tuple(fields.required or ()),
        context=tuple(fields.context or ()),
        missing=missing,
        documents=tuple(documents),
        file_label=review.file_label(row),
        label=review.label(row),
    )


def evidence_cards(
    review: Review, overturned: list[int], docs: DocStore | None, limit: int
) -> tuple[EvidenceCard, ...]:
    """The cards of the first `limit` of the `overturned` rows (valid runs, in sample order)."""
    return tuple(evidence_card(review, row, docs) for row in overturned[:limit])
