"""Text into HTML: every string from a file or a person is escaped here, and nowhere else is
text put into the page. Control characters become visible escapes first (`visible`)."""

from __future__ import annotations

import html
import json
from collections.abc import Iterable, Sequence
from typing import Any

from ...common.text import visible

_JSON_ESCAPES = str.maketrans({"<": "\\u003c", ">": "\\u003e", "&": "\\u0026"})


def esc(value: object) -> str:
    """One line of text, safe as an element's content or a quoted attribute's value."""
    return html.escape(visible(str(value)), quote=True)


def esc_lines(text: str) -> str:
    """Text that keeps its line breaks (shown with `white-space: pre-wrap`)."""
    return "\n".join(html.escape(visible(line), quote=True) for line in text.split("\n"))


def label_html(value: bool | None) -> str:
    """A label as a coloured word: correct, incorrect, or none."""
    word = "none" if value is None else ("correct" if value else "incorrect")
    return f'<span class="{word}">{word}</span>'


def table(head: Sequence[str], rows: Iterable[Sequence[str]], numeric: Sequence[int] = ()) -> str:
    """A table from cells that are HTML already (escaped by the caller); `numeric`: right-aligned columns."""

    def cell(tag: str, at: int, content: str) -> str:
        return f'<{tag} class="num">{content}</{tag}>' if at in numeric else f"<{tag}>{content}</{tag}>"

    header = "".join(cell("th", at, esc(title)) for at, title in enumerate(head))
    body = "".join("<tr>" + "".join(cell("td", at, c) for at, c in enumerate(row)) + "</tr>" for row in rows)
    return f'<div class="scroll"><table><thead><tr>{header}</tr></thead><tbody>{body}</tbody></table></div>'


def id_list(ids: Sequence[str], shown: int = 50) -> str:
    """Run or document ids, comma-separated, the first `shown` of them."""
    if not ids:
        return '<span class="muted">none</span>'
    named = ", ".join(f'<span class="id">{esc(one)}</span>' for one in ids[:shown])
    more = len(ids) - shown
    return named + (f' <span class="muted">… ({more:,} more)</span>' if more > 0 else "")


def figure(svg: str, caption: str) -> str:
    """A chart (an SVG element from charts) with its caption (plain text)."""
    return f"<figure>{svg}<figcaption>{esc(caption)}</figcaption></figure>"


def embedded_json(data: Any) -> str:
    """`data` as JSON that cannot end its <script> element: <, > and & as \\u escapes."""
    text = json.dumps(data, ensure_ascii=False)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate (a legal \\ud800 escape in a run)
        text = json.dumps(data)
    return text.translate(_JSON_ESCAPES)
