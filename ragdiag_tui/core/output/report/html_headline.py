"""The HTML report's headline and its metadata: the answer first (each spot-check's sentence and
what remains to be done, from headline.py), what was reviewed last."""

from __future__ import annotations

from .headline import headline
from .html_text import esc, id_list
from .model import ReportData


def headline_html(data: ReportData) -> str:
    """The block under the title: the conclusions, then what remains to be done and by whom."""
    told = headline(data)
    parts = ['<section class="headline">']
    parts += [f'<p class="sentence">{esc(sentence)}</p>' for sentence in told.conclusions]
    if told.actions:
        items = "".join(
            f"<li>{esc(action.text)} <code>{esc(action.command)}</code>"
            + (f"<br>Runs: {id_list(action.ids)}" if action.ids else "")
            + "</li>"
            for action in told.actions
        )
        parts.append(f'<p class="todo-title">What remains to be done:</p><ul class="todo">{items}</ul>')
    else:
        parts.append(f'<p class="done">{esc(told.done)}</p>')
    parts.append("</section>")
    return "".join(parts)


def metadata_html(data: ReportData) -> str:
    """What was reviewed: the file, its fingerprint, the journal, the reviewers, when and by what."""
    header = data.header
    reviewers = ", ".join(esc(name) for name in header.reviewers) or '<span class="muted">none yet</span>'
    facts = [
        (header.kind, f'<span class="id">{esc(header.title)}</span>'),
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
    return f'<h2>About this report</h2><dl class="facts">{items}</dl>'
