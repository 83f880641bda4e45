"""The HTML report: one self-contained page (inline style, inline SVG charts, the figures as
JSON data) that loads nothing and runs no script. Untrusted text is escaped by html_text."""

from __future__ import annotations

from .html_sections import agreement_html, baseline_html, missed_html, stages_html
from .html_spot_checks import spot_checks_html
from .html_text import embedded_json, esc
from .model import ReportData
from .page_style import CSP, STYLE

DATA_ID = "ragdiag-report"


def render_html(data: ReportData) -> str:
    """The whole page."""
    header = data.header
    body = "".join(
        (
            _header_html(data),
            stages_html(data),
            spot_checks_html(data),
            agreement_html(data),
            missed_html(data),
            baseline_html(data),
            f"<footer>ragdiag-tui {esc(header.version)} · the figures as JSON are in the element "
            f"#{DATA_ID} of this page.</footer>",
        )
    )
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f'<meta http-equiv="Content-Security-Policy" content="{CSP}">'
        '<meta name="referrer" content="no-referrer">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>Review report: {esc(header.name)}</title><style>{STYLE}</style></head>\n"
        f"<body>{body}\n"
        f'<script type="application/json" id="{DATA_ID}">{embedded_json(data.data())}</script>\n'
        "</body></html>\n"
    )


def _header_html(data: ReportData) -> str:
    header = data.header
    reviewers = ", ".join(esc(name) for name in header.reviewers) or '<span class="muted">none yet</span>'
    facts = [
        ("run file", f'<span class="id">{esc(header.name)}</span>'),
        ("size", f"{header.size:,} bytes"),
        ("runs", f"{header.runs:,}" + (f" (and {header.invalid:,} invalid lines)" if header.invalid else "")),
        ("fingerprint", f'<span class="id">blake2b-128 {esc(header.fingerprint)}</span>'),
        ("review journal", f'<span class="id">{esc(header.journal)}</span>'),
        *(("read as", esc(line)) for line in header.reading),
        ("reviewers", reviewers),
        ("written", esc(header.written)),
        ("tool", f"ragdiag-tui {esc(header.version)}"),
    ]
    items = "".join(f"<dt>{name}</dt><dd>{value}</dd>" for name, value in facts)
    return (
        f'<header><h1>Review report: <span class="id">{esc(header.name)}</span></h1>'
        f'<dl class="facts">{items}</dl></header>'
    )
