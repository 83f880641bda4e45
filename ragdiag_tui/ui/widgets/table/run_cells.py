"""The cells of a run's line in the run table: each one's text and style, read from the
store's columns and the review on demand (the table holds no object per run)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING

from rich.style import Style

from ....core.analysis.filtering import LABEL_STAGE_CODES
from ....core.analysis.lucky import is_lucky_in_file
from ....core.analysis.views import NO_RUN, NOT_COMPARABLE
from ....core.runs.stages import S_INVALID, S_RETRIEVAL, STAGES
from ....core.runs.store import label_value
from ..stages import CONFLICT_MARK, HELD_MARK, LUCKY_MARK, OVERTURNED_MARK, STAGE_TITLES, label_word
from .table_columns import WAS_AT, Cell, shown

if TYPE_CHECKING:
    from ....core.review.state import Review
    from ....core.review.tags import Tag
    from ....core.runs.store import RunStore

# The "from" column: where the label in force comes from, in at most its 8 cells.
SOURCE_WORDS = {"adjudication": "adjudged"}
SOURCE_STYLES = {"reviewer": "reviewer", "adjudication": "reviewer", "conflict": "conflict"}
NONE = Style()
EMPTY: Cell = ("", NONE)


def metric_cell(value: float) -> str:
    """A recall or precision in four cells: `0.50`, `1.00`; `none` where undefined (never 0)."""
    return "none" if value != value else f"{value:.2f}"


def count(n: int) -> str:
    """A count in at most four cells: exact to 9999, then 10k, 999k, 1.2M, 12M, 1.2G (rounded down)."""
    if n < 10_000:
        return str(n)
    if n < 1_000_000:
        return f"{n // 1_000}k"
    unit, size = ("M", 1_000_000) if n < 1_000_000_000 else ("G", 1_000_000_000)
    if n < 10 * size:
        tenths = n * 10 // size
        return f"{tenths // 10}.{tenths % 10}{unit}"
    return f"{n // size}{unit}"  # the store counts in 32 bits: at most 4.2G


def row_mark(review: Review, row: int) -> str:
    """The run's mark: not saved (!), in conflict (≠), reviewed (✓), or none."""
    if row in review.unsaved:
        return "!"
    if review.is_conflict(row):
        return CONFLICT_MARK
    return "✓" if review.is_reviewed(row) else ""


def tag_numbers(review: Review, row: int, reason_tags: Iterable[Tag]) -> str:
    """The run's reason tags as their number keys (`13`); `+` for a tag not in the set."""
    keys = review.tags(row)
    if not keys:
        return ""
    numbers = {tag.key: str(tag.number) for tag in reason_tags}
    return "".join(numbers.get(key, "+") for key in keys)


class RunCells:
    """Makes the cells of one run's line; styles are the table's component classes."""

    def __init__(self, component: Callable[[str], Style]) -> None:
        self._component = component  # a component class's full style, by its name

    def _style(self, name: str) -> Style:
        return self._component(f"run-table--{name}")

    def _stage(self, code: int) -> Cell:
        return STAGE_TITLES[code], self._component(STAGES[code].style_class)

    def line(
        self,
        store: RunStore,
        review: Review | None,
        row: int,
        *,
        held: Mapping[int, str],
        was: bytearray | None,
        reason_tags: Iterable[Tag],
        metrics: bool,
    ) -> list[Cell]:
        """The cells of run `row`: `held` the runs other reviewers are on, `was` each run's
        stage in a baseline (None: no `was` column), `metrics` whether recall and precision show."""
        code = store.stage[row]
        if code == S_INVALID:
            cells = self._invalid(store, row)
        elif review is not None and not review.revealed(row):  # blind mode: nothing that tells a label
            stage = self._stage(code) if code not in LABEL_STAGE_CODES else ("hidden", self._style("muted"))
            cells = self._blind(store, row, stage, held)
        else:
            cells = self._cells(store, review, row, held, reason_tags, metrics)
        if was is not None:
            cells.insert(WAS_AT, self._was(was[row]))
        return cells

    def _invalid(self, store: RunStore, row: int) -> list[Cell]:
        error = store.errors[row]
        run_id = store.ids[row]
        return [
            EMPTY,
            (shown(run_id), NONE) if run_id else ("—", self._style("muted")),
            self._stage(S_INVALID),
            *[EMPTY] * 9,
            (shown(f"line {error.line}: {error.detail}"), self._style("muted")),
        ]

    def _cells(
        self,
        store: RunStore,
        review: Review | None,
        row: int,
        held: Mapping[int, str],
        reason_tags: Iterable[Tag],
        metrics: bool,
    ) -> list[Cell]:
        if review is None:  # still loading: the file's labels
            label = label_value(store.file_label[row])
            source, mark, noted = "file" if label is not None else "", "", ""
        else:
            label = review.label(row)
            source = review.label_source(row) or ""
            mark = row_mark(review, row)
            noted = "✎" if review.note(row) else ""
        code = store.stage[row]
        lucky = label is True and code == S_RETRIEVAL
        label_style = self._style("lucky") if lucky else NONE
        if source == "reviewer":
            label_style = label_style + self._style("reviewer")
        n_missing = len(store.missing.get(row, ()))
        mark_style = {"!": "unsaved", CONFLICT_MARK: "conflict"}.get(mark, "reviewer")
        muted = self._style("muted")
        return [
            ((mark or " ") + noted, self._style(mark_style)),
            (shown(store.ids[row]), NONE),
            self._stage(code),
            (label_word(label), label_style if label is not None else muted),
            (SOURCE_WORDS.get(source, source), self._style(SOURCE_STYLES.get(source, "muted"))),
            (count(n_missing) if n_missing else "·", NONE if n_missing else muted),
            (count(store.n_required[row]), NONE),
            (count(store.n_context[row]), NONE),
            (tag_numbers(review, row, reason_tags) if review is not None else "", self._style("reviewer")),
            *self._metrics(store, review, row, metrics),
            self._lucky_cell(store, review, row, lucky),
            self._question(store, row, held),
        ]

    def _lucky_cell(self, store: RunStore, review: Review | None, row: int, lucky: bool) -> Cell:
        """★ still lucky after review; ☆ lucky in the file, its label overturned."""
        if lucky:
            return LUCKY_MARK, self._style("lucky")
        if review is not None and is_lucky_in_file(store, row):
            return OVERTURNED_MARK, self._style("muted")
        return "", self._style("lucky")

    def _blind(self, store: RunStore, row: int, stage: Cell, held: Mapping[int, str]) -> list[Cell]:
        """A run this reviewer has not labelled yet, in blind mode: no label, no lucky mark,
        no stage or missing count that would tell one."""
        return [
            (" ", NONE),
            (shown(store.ids[row]), NONE),
            stage,
            ("hidden", self._style("muted")),
            EMPTY,
            EMPTY,
            (count(store.n_required[row]), NONE),
            (count(store.n_context[row]), NONE),
            EMPTY,  # tags,
            EMPTY,  # recall and
            EMPTY,  # precision would tell whether a document is missing
            EMPTY,
            self._question(store, row, held),
        ]

    def _metrics(self, store: RunStore, review: Review | None, row: int, shown: bool) -> list[Cell]:
        """Recall and precision, once loaded and only while their columns show."""
        if review is None or not shown:
            return [EMPTY, EMPTY]
        muted = self._style("muted")
        return [
            (metric_cell(value), NONE if value == value else muted)
            for value in (store.recall[row], store.precision[row])
        ]

    def _was(self, code: int) -> Cell:
        """The run's stage in the baseline."""
        if code == NO_RUN:
            return "new", self._style("muted")
        if code == NOT_COMPARABLE:
            return "≠ question", self._style("muted")
        return self._stage(code)

    def _question(self, store: RunStore, row: int, held: Mapping[int, str]) -> Cell:
        """The question; led by who holds the run when another reviewer is on it."""
        question = shown(store.questions[row])
        holder = held.get(row)
        if holder is None:
            return question, NONE
        return f"{HELD_MARK} {shown(holder, 40)}: {question}", self._style("held")
