"""The required and supplied IDs of the run shown, side by side, each marked against the other.

The IDs the other list lacks (the missing required ones) come first: they are what the
reviewer needs. Past `MAX_IDS` IDs the rest are only counted, so a run with 10,000 IDs
draws as fast as one with ten.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from itertools import islice
from typing import TYPE_CHECKING

from textual.content import Content
from textual.widget import Widget

from ....core.common.text import visible
from .detail_text import MAX_ID, cut, detail_class, muted

if TYPE_CHECKING:
    from ....core.runs.store import RunStore

_c = detail_class

MAX_IDS = 200  # IDs listed in one column; the rest are counted (a run may have 10,000)
LAST_LACKING = 10  # of a cut list of missing IDs, the last ones listed too: it shows where it ends
ID_GAP = 2  # columns between the required and supplied lists (see ragdiag.tcss)
ID_INDENT = 4  # the continuation lines of a folded ID

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


def id_line(doc: str, marking: Marking, word_width: int) -> Content:
    """One listed ID after its mark and word: a long ID may wrap, but never away from them."""
    mark, word, id_style, word_style = marking
    return Content.assemble(
        (mark, _c(word)),
        (word.ljust(word_width), _c(word_style)),
        "  ",
        (visible(cut(doc, MAX_ID)), _c(id_style) if id_style else ""),
    )


def id_column(
    title: str,
    ids: list[str] | None,
    other: set[str],
    found: Marking,
    not_found: Marking,
    empty: str,
    current: str | None = None,
) -> Content:
    """A titled list of IDs, each marked by whether the other list has it; the line of
    `current` (the document shown below the lists) highlighted."""
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
        line = id_line(doc, found if doc in other else not_found, word_width)
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
        self._columns = (Content(""), Content(""))

    def is_of(self, store: RunStore, row: int) -> bool:
        return self.of is not None and self.of[0] is store and self.of[1] == row

    def load(self, store: RunStore, row: int, required: list[str] | None, context: list[str] | None) -> None:
        """The lists of run `row`, to be drawn by `show`."""
        self.of = (store, row)
        self.required, self.context = required, context

    def hide(self) -> None:
        """No lists: the run shown is invalid, or there is none."""
        self.box.display = False
        self.of = None
        self.required = self.context = None

    def show(self, current: tuple[str, str] | None, width: int) -> None:
        """Required and supplied IDs side by side, each marked against the other list; one
        above the other when side by side an ID would wrap away from its mark. `current`,
        the highlighted document (id, its word), is marked in its column."""
        required, context = self.required, self.context
        in_required = current is not None and current[1] in ("missing", "present")
        self.box.display = True
        required_column = id_column(
            f"Required ({len(required or ())})",
            required,
            set(context or ()),
            *REQUIRED_MARKS,
            empty="none declared",
            current=current[0] if current is not None and in_required else None,
        )
        supplied_column = id_column(
            f"Supplied ({'absent' if context is None else len(context)})",
            context,
            set(required or ()),
            *SUPPLIED_MARKS,
            empty="nothing supplied",
            current=current[0] if current is not None and not in_required else None,
        )
        self._columns = (required_column, supplied_column)
        self.lay_out(width)

    def lay_out(self, width: int) -> None:
        """Side by side when both lists fit so; else one above the other, each line folded
        to the width by hand, so an ID too long for any line keeps its start beside its
        mark and word (the renderer would move it to a line of its own)."""
        required, supplied = self._columns
        stacked = width > 0 and widest_line(required) + ID_GAP + widest_line(supplied) > width
        self.box.set_class(stacked, "-stacked")
        if stacked:
            required, supplied = fold(required, width), fold(supplied, width)
        self._paint("run-required", required)
        self._paint("run-supplied", supplied)
