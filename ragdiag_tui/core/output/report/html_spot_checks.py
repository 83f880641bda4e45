"""The spot-checks of the HTML report: each one's sentence, rates chart and progress among the
figures; its reviewed runs and the evidence cards of its overturned runs in the evidence, after
every chart."""

from __future__ import annotations

import os

from ...analysis.spotcheck import SpotCheckReport
from . import charts
from .evidence import EvidenceCard
from .html_text import esc, esc_lines, figure, label_html, table
from .model import ReportData, ReviewedRun, SpotCheckSection
from .tables import rates, strata_rates, tag_rows


def spot_checks_html(data: ReportData) -> str:
    if not data.spot_checks:
        return (
            '<h2>Spot-checks</h2><p class="muted">No spot-check in the review: draw one with '
            "<code>ragdiag-tui sample</code> or <code>D</code> in the app.</p>"
        )
    return "<h2>Spot-checks</h2>" + "".join(
        _one(section, data, at) for at, section in enumerate(data.spot_checks)
    )


def _one(section: SpotCheckSection, data: ReportData, at: int) -> str:
    report = section.report
    parts = [
        f'<section class="spot-check"><h3>{esc(report.name)}</h3>',
        f'<p class="sentence">{esc(report.sentence())}</p>',
        _progress(report.reviewed, report.in_file),
        f'<p class="muted">{esc(report.noun())}: {report.population:,} in the population when drawn '
        f"(view {esc(report.view)}, seed {report.seed}).</p>",
    ]
    if report.settled:
        chart = charts.rate_chart(f"{at}", rates(report, data.tag_names))
        parts.append(figure(chart, "Estimated rates with 95% intervals"))
        parts.append(_tags_table(report, data))
    if report.strata and report.settled:
        chart = charts.rate_chart(f"strata-{at}", strata_rates(report))
        parts.append(figure(chart, f"Overturned rate per stratum of {report.strata_by}, with 95% intervals"))
    parts.append("</section>")
    return "".join(parts)


def evidence_html(data: ReportData) -> str:
    """Each spot-check's reviewed runs and the cards of its overturned runs."""
    if not data.spot_checks:
        return ""
    return "<h2>Evidence</h2>" + "".join(
        f'<section class="spot-check"><h3>{esc(section.report.name)}: reviewed runs and evidence</h3>'
        + _reviewed_table(section.reviewed, section.reviewed_total)
        + _evidence(section, data.limit)
        + "</section>"
        for section in data.spot_checks
    )


def _progress(reviewed: int, sampled: int) -> str:
    return (
        f'<p><span class="label">Progress</span> <progress value="{reviewed}" max="{max(sampled, 1)}">'
        f"</progress> {reviewed:,} of {sampled:,} sampled runs reviewed</p>"
    )


def _tags_table(report: SpotCheckReport, data: ReportData) -> str:
    rows = tag_rows(report, data.tag_names, esc, lambda key: f'<span class="id">{esc(key)}</span>')
    return table(("reason tag", "key", "runs", "estimate (95% CI)"), rows, numeric=(2,))


def _reviewed_table(runs: tuple[ReviewedRun, ...], total: int) -> str:
    if not runs:
        return '<p class="muted">No run of this spot-check is reviewed yet.</p>'
    rows = []
    for run in runs:
        reviewers = ", ".join(f"{esc(name)}: {label_html(label)}" for name, label in run.reviewers)
        notes = "<br>".join(f"{esc(name)}: {esc(note.text)}" for name, note in run.notes)
        rows.append(
            [
                f'<span class="id{" overturned" if run.overturned else ""}">{esc(run.id)}</span>'
                + (" (overturned)" if run.overturned else ""),
                esc(run.question.text),
                label_html(run.file_label),
                label_html(run.label) + (" (conflict)" if run.source == "conflict" else ""),
                reviewers,
                ", ".join(f'<span class="id">{esc(tag)}</span>' for tag in run.tags),
                notes,
            ]
        )
    head = ("id", "question", "file label", "label in force", "reviewers", "tags", "note")
    shown = f"the first {len(runs):,} of {total:,}" if len(runs) < total else f"{total:,}"
    return f"<h4>Reviewed runs ({shown})</h4>" + table(head, rows)


def _evidence(section: SpotCheckSection, limit: int) -> str:
    overturned = len(section.overturned_ids)
    if not overturned:
        return '<h4>Evidence</h4><p class="muted">No overturned run: nothing to show.</p>'
    shown = len(section.cards)
    told = (
        f"{shown:,} of the {overturned:,} overturned runs (--limit {limit})"
        if shown < overturned
        else f"the {overturned:,} overturned runs"
    )
    return (
        f'<h4>Evidence: {told}</h4><p class="muted">Long texts are cut to an excerpt, '
        "marked with …; the missing documents are marked in red.</p>"
        '<div class="cards">' + "".join(card_html(card) for card in section.cards) + "</div>"
    )


def card_html(card: EvidenceCard) -> str:
    """One overturned run: question, answer, IDs side by side, the missing documents' excerpts."""
    missing = set(card.missing)

    def ids(title: str, values: tuple[str, ...]) -> str:
        items = (
            "".join(
                f'<li class="id{" missing" if value in missing else ""}">{esc(value)}'
                + (" (missing)" if value in missing else "")
                + "</li>"
                for value in values
            )
            or '<li class="muted">none</li>'
        )
        return f'<div><span class="label">{esc(title)}</span><ul>{items}</ul></div>'

    parts = [
        f'<article class="card"><h4 class="id">{esc(card.id)}</h4>',
        f"<p>file label {label_html(card.file_label)} → reviewers {label_html(card.label)}</p>",
        f'<span class="label">Question</span><p class="text">{esc_lines(card.question.text) or "-"}</p>',
        f'<span class="label">Answer</span><p class="text">{esc_lines(card.answer.text) or "-"}</p>',
        '<div class="ids">',
        ids("Required", card.required),
        ids("Supplied (context)", card.context),
        "</div>",
    ]
    for doc in card.documents:
        parts.append(f'<p><span class="label">Missing</span> <span class="id">{esc(doc.id)}</span></p>')
        if doc.excerpt is None:
            parts.append(f'<p class="muted">{esc(doc.reason)}</p>')
        else:
            source = "the run's own contexts" if doc.source == "run" else os.path.basename(doc.source)
            parts.append(f"<blockquote>{esc_lines(doc.excerpt.text)}</blockquote>")
            parts.append(f'<p class="muted">from {esc(source)}</p>')
    parts.append("</article>")
    return "".join(parts)
