"""StageSummary: runs per stage, lucky answers, invalid lines and review progress."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from textual import events
from textual.content import Content
from textual.widgets import Static

from ...core.common.text import visible
from ...core.runs.stages import S_INVALID
from .stages import CONFLICT_MARK, LUCKY_MARK, STAGE_STYLE_CLASSES, STAGE_TITLES, stage_style

GAP = "  "
MAX_REVIEWER = 24  # cells of the reviewer's name shown at most
MAX_RULE = 74  # cells of the label rule shown at most: with its mark, one line of 80 columns


SHORT_TITLES = ("retr", "gen", "pass", "unres", "label", "inv")  # by stage code, for narrow terminals
assert len(SHORT_TITLES) == len(STAGE_TITLES)


class StageSummary(Static):
    """Live counts on one line. On a narrow terminal the words shorten and numbers compact
    until it fits; only when nothing fits does it wrap, between items, never inside one.

    `lead` items (a spot-check's progress) come first and are never dropped, and neither
    are the stage counts: when both do not fit one line, the counts go on the next."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "stage-summary--count",
        "stage-summary--muted",
        "stage-summary--lucky",
        "stage-summary--stale",
        "stage-summary--lead",
        "stage-summary--conflict",
        "stage-summary--status",
        "stage-summary--reviewer",
        "stage-summary--rule",
        *STAGE_STYLE_CLASSES,
    }

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, markup=False)
        self._forms: list[tuple[str, list[Content]]] = []
        self._wrapped: tuple[list[Content], Content, list[Content], list[Content]] = ([], Content(), [], [])
        self._line_count = 0
        self._status: list[Content] = []
        self._rule: list[Content] = []
        self._rule_text: str | None = None

    def show_counts(
        self,
        counts: Sequence[int],
        lucky: int | None,
        reviewed: int | None,
        loading: bool = False,
        lead: Sequence[Content] = (),
        flags: Sequence[str] = (),
        stale: int = 0,
        *,
        conflicts: int = 0,
        hidden: int | None = None,
        lucky_in_file: int | None = None,
        reviewer: str | None = None,
    ) -> None:
        """Counts per stage code; lucky and reviewed are None until the review is ready.

        `lead`: items shown first (a spot-check's progress); `flags`: modes in force
        (auto-advance), shown last; `stale` journal entries held aside (shown only when
        there are some); `conflicts` runs whose reviewers disagree (shown when there are
        some); `hidden`, in blind mode, the runs whose stage is not told until labelled;
        `lucky`: still lucky after review, `lucky_in_file` by the file's labels (not told in
        blind mode); `reviewer`, who labels (shown last, with blind mode)."""
        runs = sum(counts) - counts[S_INVALID] + (hidden or 0)
        tail, tail_short = _tail(stale, conflicts, hidden, reviewer)
        ends = [_muted(f"({flag})") for flag in flags] + ([_muted("(loading…)")] if loading else [])
        tail, tail_short = tail + ends, tail_short + ends
        full, short = _stage_items(counts)
        review_full, review_short = _review_items(lucky, lucky_in_file, reviewed, runs)
        lead = list(lead)
        spaced, tight = Content(" · ").join(short), Content("·").join(short)
        self._forms = [
            (GAP, lead + full + review_full + tail),
            (GAP, lead + short + review_full + tail),
            (" ", [*lead, spaced, *review_short, *tail_short]),
            (" ", [*lead, tight, *review_short, *tail_short]),  # the narrowest line: wraps after this
        ]
        self._wrapped = (lead, tight, short, review_short + tail_short)
        self._lay_out()

    def show_status(self, status: str | None) -> None:
        """A word about the review store (e.g. PostgreSQL offline), shown last in every form."""
        self._status = (
            [] if status is None else [Content.assemble(SEPARATOR, (status, ".stage-summary--status"))]
        )
        self._lay_out()

    def show_rule(self, rule: str | None) -> None:
        """The reading in force (`FieldMap.brief`: a score's threshold, documents as texts),
        shown after the counts in every form, so every figure says what "correct" meant."""
        if rule == self._rule_text:
            return
        self._rule_text = rule
        if rule is None:
            self._rule = []
        else:
            shown = visible(rule if len(rule) <= MAX_RULE else rule[: MAX_RULE - 1] + "…")
            self._rule = [Content.assemble(SEPARATOR, (shown, ".stage-summary--rule"))]
        self._lay_out()

    def on_resize(self, event: events.Resize) -> None:
        self._lay_out()

    def _lay_out(self) -> None:
        if not self._forms:
            return
        # Before its first layout (the runs may come first) it will span the screen.
        width = self.content_region.width or max(self.app.size.width - self.styles.gutter.width, 1)
        for gap, form in self._forms:
            items = form + self._rule + self._status
            if sum(item.cell_length for item in items) + len(gap) * (len(items) - 1) <= width:
                self._show(Content(gap).join(items), 1)
                return
        lead, stages, apart, rest = self._wrapped
        # The stage counts stay: on a line after the lead, together when they fit one, else apart.
        items = [*([stages] if stages.cell_length <= width else apart), *rest, *self._rule, *self._status]
        lines = [*_wrap(lead, width), *_wrap(items, width)]
        self._show(Content("\n").join(Content(GAP).join(line) for line in lines), len(lines))

    def _show(self, content: Content, line_count: int) -> None:
        # Laid out again only when the number of lines changes: the counts change
        # with every batch of rows while a file loads.
        same_height = line_count == self._line_count
        self._line_count = line_count
        if not same_height:
            # Its height is the lines laid out here, set rather than measured again: a
            # text shown before the screen's first layout could leave a stale measure.
            self.styles.height = line_count
        self.update(content, layout=not same_height)


SEPARATOR = ("│ ", ".stage-summary--muted")


def _wrap(items: Sequence[Content], width: int) -> list[list[Content]]:
    """The items on lines of `width` cells, GAP between them, broken only between items."""
    lines: list[list[Content]] = []
    used = 0
    for item in items:
        need = item.cell_length + len(GAP)
        if not lines or used + need > width:
            lines.append([])
            used, need = 0, item.cell_length
        lines[-1].append(item)
        used += need
    return lines


def _muted(text: str) -> Content:
    return Content.assemble((text, ".stage-summary--muted"))


def _tail(
    stale: int, conflicts: int, hidden: int | None, reviewer: str | None
) -> tuple[list[Content], list[Content]]:
    """The stale journal entries, the conflicts and the hidden runs, each when there are some,
    then who reviews (and in blind mode how many runs are hidden): in full and short."""
    full: list[Content] = []
    short: list[Content] = []
    if stale:
        stale_count = (f"{stale:,}", ".stage-summary--stale")
        full.append(
            Content.assemble(
                SEPARATOR, ("stale ", ".stage-summary--stale"), stale_count, (" (S)", ".stage-summary--muted")
            )
        )
        short.append(Content.assemble(SEPARATOR, ("stale ", ".stage-summary--stale"), stale_count))
    if conflicts:
        mark = (f"{CONFLICT_MARK} ", ".stage-summary--conflict")
        number = (f"{conflicts:,}", ".stage-summary--conflict")
        full.append(Content.assemble(SEPARATOR, mark, "conflicts ", number))
        short.append(Content.assemble(SEPARATOR, mark, number))
    who = (
        (
            visible(reviewer if len(reviewer) <= MAX_REVIEWER else reviewer[: MAX_REVIEWER - 1] + "…"),
            ".stage-summary--reviewer",
        )
        if reviewer
        else None
    )
    hidden_count = (f"{hidden:,}", ".stage-summary--count") if hidden is not None else None
    if who is not None and hidden_count is not None:
        full.append(
            Content.assemble(SEPARATOR, who, ", blind: ", hidden_count, (" hidden", ".stage-summary--muted"))
        )
        short.append(
            Content.assemble(SEPARATOR, who, ": ", hidden_count, (" hidden", ".stage-summary--muted"))
        )
    elif hidden_count is not None:
        item = Content.assemble(SEPARATOR, "blind ", hidden_count, (" hidden", ".stage-summary--muted"))
        full.append(item)
        short.append(item)
    elif who is not None:
        full.append(Content.assemble(SEPARATOR, who))
        short.append(Content.assemble(SEPARATOR, who))
    return full, short


def _stage_items(counts: Sequence[int]) -> tuple[list[Content], list[Content]]:
    """The count of each stage, in full and short (the invalid one only when there are some)."""
    full = [
        Content.assemble(
            ("● ", stage_style(code)), f"{title} ", (f"{counts[code]:,}", ".stage-summary--count")
        )
        for code, title in enumerate(STAGE_TITLES)
    ]
    short = [
        Content.assemble(f"{title} ", (_compact(counts[code]), stage_style(code)))
        for code, title in enumerate(SHORT_TITLES)
        if counts[code] or code != S_INVALID
    ]
    return full, short


def _review_items(
    lucky: int | None, in_file: int | None, reviewed: int | None, runs: int
) -> tuple[list[Content], list[Content]]:
    """The lucky answers and the review's progress, in full and short. Once a review changed
    what is lucky, `still lucky 3 of 9`: still lucky after review, of the lucky answers in
    the file (core/analysis/lucky.py); `in_file` is None in blind mode (not told)."""
    lucky_style = ".stage-summary--lucky"
    if in_file is None or lucky is None or lucky == in_file:
        words, number, compact = "lucky ", _number(lucky), _short(lucky)
    else:
        words, number = "still lucky ", f"{lucky:,} of {in_file:,}"
        compact = f"{_compact(lucky)}/{_compact(in_file)}"
    full = [
        Content.assemble(SEPARATOR, (f"{LUCKY_MARK} ", lucky_style), words, (number, lucky_style)),
        Content.assemble(SEPARATOR, "reviewed ", (f"{_number(reviewed)}/{runs:,}", ".stage-summary--count")),
    ]
    short = [
        Content.assemble(SEPARATOR, (f"{LUCKY_MARK} {compact}", lucky_style)),
        Content.assemble(
            SEPARATOR, "reviewed ", (f"{_short(reviewed)}/{_compact(runs)}", ".stage-summary--count")
        ),
    ]
    return full, short


def _number(value: int | None) -> str:
    return "…" if value is None else f"{value:,}"


def _compact(value: int) -> str:
    """Exact to 9,999, then 12k, 1.2M: the narrow form."""
    if value < 10_000:
        return str(value)
    if value < 1_000_000:
        return f"{value // 1000}k"
    return f"{value / 1_000_000:.1f}M"


def _short(value: int | None) -> str:
    return "…" if value is None else _compact(value)
