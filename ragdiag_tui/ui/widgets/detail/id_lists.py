"""The required and supplied IDs of the run shown, side by side, each marked against the other.

The IDs the other list lacks (the missing required ones) come first: they are what the
reviewer needs. Past `MAX_IDS` IDs the rest are only counted, so a run with 10,000 IDs
draws as fast as one with ten.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from itertools import islice
from typing import TYPE_CHECKING

from textual.content import Content
from textual.widget import Widget

from ....core.common.text import snippet, visible
from .detail_text import MAX_ID, cut, detail_class, muted

if TYPE_CHECKING:
    from ....core.runs.store import RunStore

_c = detail_class

MAX_IDS = 200  # IDs listed in one column; the rest are counted (a run may have 10,000)
LAST_LACKING = 10  # of a cut list of missing IDs, the last ones listed too: it shows where it ends
ID_GAP = 2  # columns between the required and supplied lists (see ragdiag.tcss)
ID_INDENT = 4  # the continuation lines of a folded ID
MIN_SNIPPET = 8  # characters of a document's text worth showing beside its content ID
SNIPPET_GAP = "  "

Marking = tuple[str, str, str, str]
"""(mark, word, id style, word style); the mark takes the word's class."""

REQUIRED_MARKS = (("✓ ", "present", "", "muted"), ("✗ ", "missing", "missing", "missing"))
SUPPLIED_MARKS = (("✓ ", "matching", "", "muted"), ("+ ", "extra", "extra", "muted"))
"""(found in the other list, not found) of each column."""


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


def id_line(doc: str, marking: Marking, word_width: int, text: str | None = None, width: int = 0) -> Content:
    """One listed ID after its mark and word: a long ID may wrap, but never away from them.
    `text`, the document's text when the run carries it (documents given as texts): its
    start follows the ID, cut to end the line within `width` cells, so the list says which
    passage each ID is (left out where fewer than `MIN_SNIPPET` characters would fit)."""
    mark, word, id_style, word_style = marking
    line = Content.assemble(
        (mark, _c(word)),
        (word.ljust(word_width), _c(word_style)),
        "  ",
        (visible(cut(doc, MAX_ID)), _c(id_style) if id_style else ""),
    )
    room = width - line.cell_length - len(SNIPPET_GAP)
    if text is None or room < MIN_SNIPPET:
        return line
    return Content.assemble(line, (SNIPPET_GAP + snippet(text, room), _c("muted")))


def id_column(
    title: str,
    ids: list[str] | None,
    other: set[str],
    found: Marking,
    not_found: Marking,
    empty: str,
    current: str | None = None,
    texts: Mapping[str, str] | None = None,
    width: int = 0,
) -> Content:
    """A titled list of IDs, each marked by whether the other list has it; the line of
    `current` (the document shown below the lists) highlighted; `texts`, the documents'
    texts the run carries (by content ID), each one's start beside its ID, within `width`."""
    lines = [Content.assemble((title, _c("heading")))]
    if not ids:
        lines.append(muted(f"  {empty}"))
        return Content("\n").join(lines)
    lacking = [doc for doc in ids if doc not in other]
    having = (doc for doc in ids if doc in other)
    word_width = max(len(found[1]), len(not_found[1]))
    shown = 0
    highlighted = False
    for doc in listed(lacking, having):
        if isinstance(doc, int):
            lines.append(muted(f"⋮ {doc} more {not_found[1]}"))
            continue
        shown += 1
        text = texts.get(doc) if texts else None
        line = id_line(doc, found if doc in other else not_found, word_width, text, width)
        if doc == current and not highlighted:
            highlighted = True
            line = line.stylize(_c("current"))
        lines.append(line)
    if shown < len(ids):
        lines.append(muted(f"… and {len(ids) - shown} more ({len(lacking)} {not_found[1]} in all)"))
    return Content("\n").join(lines)


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


def carried_texts(
    store: RunStore, row: int, required: list[str] | None, context: list[str] | None
) -> dict[str, str]:
    """The texts of run `row`'s documents when they are given as texts (content IDs), by ID;
    empty for a run of plain IDs (its text, if any, is the document panel's to show)."""
    from ....core.runs.texts import is_content_id

    if not any(is_content_id(doc) for doc in (*(required or ())[:1], *(context or ())[:1])):
        return {}
    from ....core.runs.corpus import run_texts

    return run_texts(store, row)


class IdLists:
    """The two ID columns of the detail pane (`#run-ids`): built once per run, laid out
    again on each resize. A label change shows the same run again and keeps them (a run
    may list 15,000 IDs)."""

    def __init__(self, box: Widget, paint: Callable[[str, Content], None]) -> None:
        self.box = box
        """The container of the two columns (`#run-ids`)."""
        self._paint = paint  # sets a Static of the pane, by id
        self.of: tuple[RunStore, int] | None = None
        """The run whose lists are drawn (store, row); None when none is."""
        self.required: list[str] | None = None
        self.context: list[str] | None = None
        self.texts: dict[str, str] = {}
        """The texts of the run's content IDs (documents given as texts), shown beside them."""
        self._columns = (Content(""), Content(""))  # the IDs alone: they decide the layout
        self._current: tuple[str, str] | None = None

    def is_of(self, store: RunStore, row: int) -> bool:
        return self.of is not None and self.of[0] is store and self.of[1] == row

    def load(self, store: RunStore, row: int, required: list[str] | None, context: list[str] | None) -> None:
        """The lists of run `row`, to be drawn by `show`."""
        self.of = (store, row)
        self.required, self.context = required, context
        self.texts = carried_texts(store, row, required, context)

    def hide(self) -> None:
        """No lists: the run shown is invalid, or there is none."""
        self.box.display = False
        self.of = None
        self.required = self.context = None
        self.texts = {}

    def show(self, current: tuple[str, str] | None, width: int) -> None:
        """Required and supplied IDs side by side, each marked against the other list; one
        above the other when side by side an ID would wrap away from its mark. `current`,
        the highlighted document (id, its word), is marked in its column."""
        self.box.display = True
        self._current = current
        self._columns = self._column_pair(None)
        self.lay_out(width)

    def _column_pair(self, widths: tuple[int, int] | None) -> tuple[Content, Content]:
        """The two columns; with `widths`, each content ID followed by its text's start,
        cut to its column's width (None: the IDs alone)."""
        required, context, current = self.required, self.context, self._current
        in_required = current is not None and current[1] in ("missing", "present")
        texts = self.texts if widths is not None else None
        required_column = id_column(
            f"Required ({len(required or ())})",
            required,
            set(context or ()),
            *REQUIRED_MARKS,
            empty="none declared",
            current=current[0] if current is not None and in_required else None,
            texts=texts,
            width=widths[0] if widths is not None else 0,
        )
        supplied_column = id_column(
            f"Supplied ({'absent' if context is None else len(context)})",
            context,
            set(required or ()),
            *SUPPLIED_MARKS,
            empty="nothing supplied",
            current=current[0] if current is not None and not in_required else None,
            texts=texts,
            width=widths[1] if widths is not None else 0,
        )
        return required_column, supplied_column

    def lay_out(self, width: int) -> None:
        """Side by side when both lists of IDs fit so; else one above the other, each line
        folded to the width by hand, so an ID too long for any line keeps its start beside
        its mark and word (the renderer would move it to a line of its own). The texts'
        starts (documents given as texts) take the room left, never a line of their own."""
        required, supplied = self._columns
        wide_required, wide_supplied = widest_line(required), widest_line(supplied)
        stacked = width > 0 and wide_required + ID_GAP + wide_supplied > width
        self.box.set_class(stacked, "-stacked")
        if self.texts and width > 0:
            spare = width - wide_required - ID_GAP - wide_supplied
            half = spare // 2
            widths = (width, width) if stacked else (wide_required + half, wide_supplied + spare - half)
            required, supplied = self._column_pair(widths)
        if stacked:
            required, supplied = fold(required, width), fold(supplied, width)
        self._paint("run-required", required)
        self._paint("run-supplied", supplied)
