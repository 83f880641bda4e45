"""Untrusted text as literal Markdown that still reads as plain text.

A Markdown report is read rendered (a pull request) and as plain text (a ticket, a chat, an
e-mail), so it escapes only what would change the rendering, and only where it would: `demo.jsonl`,
`57%` and `(95% CI 39-73%)` stay as they are. Escaped, by GitHub's flavour of CommonMark:

- anywhere: `*` and `` ` `` (emphasis, code), `[` (links and images), `<` (HTML, autolinks),
  `~` (strikethrough), a backslash before punctuation (it would escape it), `&` starting an
  entity (`&amp;`);
- `_` at a word's edge (inside a word, as in `demo_after`, it is no emphasis);
- what GitHub links by itself: the `:` of `scheme://`, a `//`, `www.`, the `@` of an address;
- where a block begins (`md_block`, a quote's lines): a leading `#`, `>`, `-`, `+`, `=`, `1.`;
- a heading's closing `#`s at the end;
- in a table's cell (`md_cell`): `|`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from ...common.text import visible

_INLINE = re.compile(
    r"""[*`\[<~]
    |\\(?=[!-/:-@\[-`{-~])
    |&(?=\#?[0-9A-Za-z]+;)
    |(?<![^\W_])_|_(?![^\W_])
    |:(?=//)|/(?=/)
    |(?<![\w.])[wW]{3}\.
    |(?<=[^\W_])@(?=[^\W_])
    |\#(?=\#*\s*$)
    """,
    re.VERBOSE,
)
_BLOCK_START = re.compile(r"^(\s*)([#>+=-]|\d+(?=[.)]))")
LISTED = 50  # ids listed per list


def _escape(match: re.Match[str]) -> str:
    found = match.group()
    return "\\" + found if len(found) == 1 else found[:-1] + "\\."


def md_line(value: object) -> str:
    """Untrusted text as literal Markdown inside a line (after other words); empty stays empty."""
    return _INLINE.sub(_escape, visible(str(value)))


def md_block(value: object) -> str:
    """Untrusted text as literal Markdown where a block begins (a quote's line): a leading `#`,
    `>`, `-`, `+`, `=` or `1.` escaped too."""
    text = md_line(value)
    start = _BLOCK_START.match(text)
    if start is None:
        return text
    lead, marker = start.groups()
    if marker.isdigit():  # `1.` would start a list: escape its dot
        return text[: start.end()] + "\\" + text[start.end() :]
    return f"{lead}\\{text[len(lead) :]}"


def md(value: object) -> str:
    """Untrusted text as literal Markdown (one line); `-` for an empty one."""
    return md_line(value) or "-"


def md_cell(value: object) -> str:
    """Untrusted text as a table's cell."""
    return md(value).replace("|", "\\|")


def md_code(value: str) -> str:
    """A command (our own words and a file's name) as a code span, copied as it is; escaped
    text instead when the name holds a backtick."""
    return md(value) if "`" in value else f"`{visible(value)}`"


def md_quote(text: str) -> list[str]:
    """A text of several lines as a block quote, each line escaped: it survives a paste."""
    return [f"> {md_block(line)}".rstrip() for line in text.splitlines()] or [">"]


def md_table(head: Sequence[str], rows: Iterable[Sequence[str]]) -> list[str]:
    """A table from cells that are Markdown already (escaped by the caller, `md_cell`)."""
    out = ["| " + " | ".join(head) + " |", "|" + "|".join(" --- " for _ in head) + "|"]
    out += ["| " + " | ".join(row) + " |" for row in rows]
    return [*out, ""]


def md_ids(ids: Sequence[str]) -> str:
    shown = ", ".join(md(one) for one in ids[:LISTED]) or "none"
    more = len(ids) - LISTED
    return shown + (f", … ({more:,} more)" if more > 0 else "")
