"""The Markdown report's evidence: for each overturned run, what was asked and answered, the
required and supplied document IDs, and what each missing document says, as quoted plain text
that survives a paste into a ticket, a chat or an e-mail."""

from __future__ import annotations

import os

from .evidence import EvidenceCard
from .markdown_text import md, md_quote
from .model import ReportData, SpotCheckSection


def label_text(label: bool | None) -> str:
    return "no label" if label is None else "correct" if label else "incorrect"


def evidence(data: ReportData) -> list[str]:
    """The evidence section: each spot-check's overturned runs, a card each."""
    if not data.spot_checks:
        return []
    out = ["## Evidence", ""]
    for section in data.spot_checks:
        out += _section(section, data.limit)
    return out


def _section(section: SpotCheckSection, limit: int) -> list[str]:
    overturned = len(section.overturned_ids)
    name = md(section.report.name)
    if not overturned:
        return [f"### {name}: no overturned run", ""]
    shown = len(section.cards)
    told = (
        f"{shown:,} of the {overturned:,} overturned runs (--limit {limit})"
        if shown < overturned
        else f"the {overturned:,} overturned runs"
    )
    out = [f"### {name}: {told}", "", "Long texts are cut to an excerpt, marked with …", ""]
    for card in section.cards:
        out += card_markdown(card)
    return out


def card_markdown(card: EvidenceCard) -> list[str]:
    """One overturned run as Markdown that reads as plain text."""
    missing = set(card.missing)

    def ids(values: tuple[str, ...]) -> str:
        return ", ".join(md(v) + (" (missing)" if v in missing else "") for v in values) or "none"

    out = [
        f"#### {md(card.id)}",
        "",
        f"The file's label: {label_text(card.file_label)}; after review: {label_text(card.label)}.",
        "",
        "Question:",
        "",
        *md_quote(card.question.text or "-"),
        "",
        "Answer:",
        "",
        *md_quote(card.answer.text or "-"),
        "",
        f"- Required: {ids(card.required)}",
        f"- Supplied (context): {ids(card.context)}",
        "",
    ]
    for doc in card.documents:
        if doc.excerpt is None:
            out += [f"Missing {md(doc.id)}: {md(doc.reason)}", ""]
            continue
        source = "the run's own contexts" if doc.source == "run" else os.path.basename(doc.source)
        out += [f"Missing {md(doc.id)}, from {md(source)}:", "", *md_quote(doc.excerpt.text), ""]
    return out
