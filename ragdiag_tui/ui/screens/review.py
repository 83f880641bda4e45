"""The review screen: summary, filter bar, run table, detail pane, footer.

State is three reactives (`view`, `search`, `missing_doc`); the table's index is
derived from them by the core's `filter_rows`. A run whose stage changes under
the cursor stays in the index (it is *sticky*) until the cursor leaves it or the
filter changes, so a reviewer never loses the run they are looking at.
"""

from __future__ import annotations

import os
from bisect import bisect_left
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Any, ClassVar

from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Horizontal
from textual.content import Content
from textual.reactive import var
from textual.screen import Screen
from textual.widgets import Footer, ProgressBar, Static

from ...core.analysis.baseline import BASELINE_VIEW_BY_NAME
from ...core.analysis.blind import shown_counts
from ...core.analysis.filtering import VIEW_BY_NAME, filter_rows, narrows, row_matches
from ...core.analysis.sorting import FILE_ORDER
from ...core.common.text import visible
from ...core.review.state import Review, ReviewOptions
from ...core.review.tags import DEFAULT_TAGS, Tag
from ...core.runs.corpus import DocsError, DocsSource, DocStore
from ...core.runs.store import STAGE_CODE, RunStore
from ..live import LiveReview, LogStatusChanged, ReviewChangedElsewhere
from ..typeahead import focus_now
from ..widgets.filter_bar import FilterBar
from ..widgets.run_detail import RunDetail
from ..widgets.run_table import RunTable
from ..widgets.stage_summary import StageSummary
from .baseline import BaselineActions, BaselineFailed, BaselineLoaded, is_baseline_view
from .keys import SCREEN_BINDINGS, commands, key_help
from .labelling import Labelling
from .navigation import Navigation, position_of
from .run_loader import LoadFailed, LoadProgressed, RowsArrived, RunsLoaded, load_runs
from .spot_checking import SpotChecking

FOOTER_PALETTE_WIDTH = 100  # columns from which the footer also shows "^p palette"


class ReviewScreen(Screen[None]):
    """Browse, filter and label the runs of one file."""

    BINDINGS: ClassVar[list[BindingType]] = SCREEN_BINDINGS
    HORIZONTAL_BREAKPOINTS: ClassVar[list[tuple[int, str]] | None] = [
        (0, "-narrow"),
        (140, "-wide"),
    ]

    view: var[str] = var("all")
    """The active view (a `filtering.VIEWS` name)."""
    search: var[str] = var("")
    """Text the runs must contain (id, question or any document ID)."""
    missing_doc: var[str | None] = var(None)
    """Only runs missing this document, or None."""
    sort_column: var[str] = var("id")
    """The column the runs are sorted by (a `sorting.SORT_COLUMNS` name)."""
    sort_direction: var[int] = var(FILE_ORDER)
    """`sorting.ASCENDING`, `DESCENDING` or `FILE_ORDER` (then sort_column is unused)."""
    auto_advance: var[bool] = var(False)
    """After a label, move on to the next unreviewed run (always so in a spot-check)."""
    spot_check: var[str | None] = var(None)
    """The spot-check whose runs are shown, in sample order; None: the view's runs."""

    def __init__(self, options: ReviewOptions, baseline: str | os.PathLike[str] | None = None) -> None:
        super().__init__()
        self.options = options
        self.store = RunStore(options.path, options.field_map)
        self.review: Review | None = None
        self.rows: list[int] | range = range(0)
        self._sticky: int | None = None
        self.live: LiveReview | None = None
        self._narrowing: tuple[str, str, str | None] | None = None
        self.labelling = Labelling(self)
        self.navigation = Navigation(self)
        self.spot_checking = SpotChecking(self)
        self.baselines = BaselineActions(self, None if baseline is None else os.fspath(baseline))
        self._docs_state = "closed"  # the --docs corpus: "closed", "opening", "open" or "failed"
        self._docs: DocStore | None = None

    def compose(self) -> ComposeResult:
        yield StageSummary(id="summary")
        yield FilterBar(id="filter-bar")
        with Horizontal(id="load-status"):
            yield Static(f"Loading {os.path.basename(self.store.path)}", id="load-label", markup=False)
            yield ProgressBar(id="load-progress", show_eta=False)
        with Horizontal(id="panes"):
            yield RunTable(empty_message="Loading…", id="runs")
            yield RunDetail(id="detail")
        yield Footer(compact=True)

    def on_resize(self, event: events.Resize) -> None:
        # Under 100 columns the footer's keys need the room of the palette hint (ctrl+p
        # still works, and the help screen lists it).
        wide = event.size.width >= FOOTER_PALETTE_WIDTH
        self.query_one(Footer).show_command_palette = wide
        self._show_in_footer("next_document", wide)

    def _show_in_footer(self, action: str, shown: bool) -> None:
        """Show or hide a binding in the footer (the key works either way): under 100
        columns the footer has no room for `. Docs` (help and palette list it)."""
        for key, bindings in self._bindings.key_to_bindings.items():
            if any(binding.action == action and binding.show != shown for binding in bindings):
                self._bindings.key_to_bindings[key] = [
                    replace(binding, show=shown) if binding.action == action else binding
                    for binding in bindings
                ]
                self.refresh_bindings()

    @property
    def table(self) -> RunTable:
        return self.query_one(RunTable)

    @property
    def detail(self) -> RunDetail:
        return self.query_one(RunDetail)

    def on_mount(self) -> None:
        focus_now(self.table)
        self._show_summary()
        self._show_filter_state()
        self._load()

    # -- loading --------------------------------------------------------------

    @work(thread=True, exclusive=True, group="load")
    def _load(self) -> None:
        from textual.worker import get_current_worker

        worker = get_current_worker()
        load_runs(self.store, self.options, self.post_message, lambda: worker.is_cancelled)

    def on_load_progressed(self, event: LoadProgressed) -> None:
        self.query_one(ProgressBar).update(total=max(event.total, 1), progress=event.done)

    def on_rows_arrived(self, event: RowsArrived) -> None:
        if event.painted is not None:
            self.call_after_refresh(event.painted.set)
        if self.review is not None:
            return
        if self._filter_is_plain():
            cursor = self.table.cursor
            self.rows = range(event.count)
            self.table.show_rows(self.store, None, self.rows, cursor)
        self._show_summary(loading=True)
        self._show_filter_state()

    def on_runs_loaded(self, event: RunsLoaded) -> None:
        review = self.review = event.review
        self.query_one("#load-status").display = False
        self.table.empty_message = "No runs match this view and filter."
        self._refilter()
        self._show_summary()
        self.log.info(f"loaded {len(self.store)} rows in {event.seconds:.2f} s")
        spot_check = getattr(self.app, "spot_check", None)
        if spot_check is not None:
            self.spot_checking.open(spot_check)
        for problem in event.problems:
            self.tell(problem, title="Review journal", severity="error", timeout=20)
        if review.restored:
            runs = "run" if review.restored == 1 else "runs"
            self.tell(f"Restored {review.restored} reviewed {runs} from the journal.", title="Welcome back")
        if review.orphans:
            ids = ", ".join(repr(entry.run) for entry in review.orphans[:5])
            more = f" and {len(review.orphans) - 5} more" if len(review.orphans) > 5 else ""
            self.tell(
                f"{len(review.orphans)} journal entries name runs not in this file "
                f"(kept in the journal, not applied): {ids}{more}.",
                title="Review journal",
                severity="warning",
                timeout=20,
            )
        if review.stale:
            self.tell(
                f"{len(review.stale)} journal entries were made on runs that have changed in the file "
                "since; they are held aside, not applied (S lists them, to re-apply or drop).",
                title="Review journal",
                severity="warning",
                timeout=20,
            )
        for warning in review.warnings:
            self.tell(warning, title="Review journal", severity="warning", timeout=20)
        self.live = LiveReview(self, review)
        greeting = self.live.start()
        if greeting:
            self.tell(greeting, title="Review journal")
        self.live.reserve(self.table.cursor_row)
        self.baselines.load()

    def on_load_failed(self, event: LoadFailed) -> None:
        self.query_one("#load-status").display = False
        self.table.empty_message = event.reason
        self.table.show_rows(self.store, None, range(0))
        self.tell(event.reason, title="Cannot open the run file", severity="error", timeout=30)

    def tell(self, message: str, **options: Any) -> None:
        """Notify, literally: messages carry paths and run ids, never markup."""
        self.notify(visible(message), markup=False, **options)

    # -- showing state ----------------------------------------------------------

    def _show_summary(self, loading: bool = False) -> None:
        review = self.review
        summary = self.query_one(StageSummary)
        if review is None:
            counts = [self.store.stage.count(code) for code in range(len(STAGE_CODE))]
            summary.show_counts(counts, None, None, loading=loading)
            return
        shown = shown_counts(review)  # blind mode: nothing that tells a hidden label
        summary.show_counts(
            shown.counts,
            shown.lucky,
            review.reviewed,
            loading=loading,
            stale=len(review.stale),
            lead=self.summary_lead(),
            flags=["auto-advance"] if self.auto_advance else [],
            conflicts=shown.conflicts,
            hidden=shown.hidden,
        )

    def show_summary(self) -> None:
        self._show_summary()

    def summary_lead(self) -> list[Content]:
        """What the summary shows first: the spot-check's progress, when one is open."""
        return self.spot_checking.summary_lead()

    def in_spot_check(self) -> bool:
        """Whether the screen shows the runs of a spot-check (then a label moves on by itself)."""
        return self.spot_check is not None

    @property
    def reason_tags(self) -> tuple[Tag, ...]:
        """The reason tags in force (the app's `--tags`)."""
        return getattr(self.app, "reason_tags", DEFAULT_TAGS)

    def _show_filter_state(self) -> None:
        view = VIEW_BY_NAME.get(self.view) or BASELINE_VIEW_BY_NAME[self.view]
        pending = self.review is None and not self._filter_is_plain()
        title = view.title
        if self.spot_check is not None:
            title = f"Spot-check {visible(self.spot_check)}" + ("" if self.view == "all" else f" · {title}")
        self.query_one(FilterBar).show_state(
            view.key,
            title,
            self.missing_doc,
            None if pending else len(self.rows),
            len(self.store),
            order=self.navigation.order_text(),
        )

    def _show_detail(self) -> None:
        self.detail.show_run(self.store, self.review, self.table.cursor_row)
        self.detail.show_baseline(self.baselines.content(self.table.cursor_row))

    def _filter_is_plain(self) -> bool:
        return self.view == "all" and not self.search and self.missing_doc is None and self.spot_check is None

    # -- filtering -----------------------------------------------------------------

    def watch_view(self) -> None:
        self._refilter()

    def watch_search(self) -> None:
        self._refilter()

    def watch_missing_doc(self) -> None:
        self._refilter()

    def set_filter(self, view: str, search: str, missing_doc: str | None) -> None:
        """Change the whole filter at once, computing the index only once."""
        self.set_reactive(ReviewScreen.view, view)
        self.set_reactive(ReviewScreen.missing_doc, missing_doc)
        self.set_reactive(ReviewScreen.search, search)
        self.query_one(FilterBar).query_input.value = search
        self._refilter()

    def _refilter(self) -> None:
        if not self.is_mounted:
            return
        review = self.review
        if review is None:  # applied once loading ends
            self._show_filter_state()
            return
        key = (self.view, self.search, self.missing_doc)
        within = None
        previous = self._narrowing
        if (
            previous is not None
            and self._sticky is None
            and previous[0::2] == key[0::2]
            and narrows(previous[1], key[1])
            and isinstance(self.rows, list)
            and self.spot_check is None
        ):
            within = self.rows  # the query only grew longer: search what matched before
        self._narrowing = key
        self._sticky = None
        old_row = self.table.cursor_row
        view, baseline = self.view, self.baselines.baseline
        if is_baseline_view(view) and baseline is not None:  # the baseline's rows, then the rest
            view, within = "all", within if within is not None else baseline.rows(view, self.store.stage)
        if self.spot_check is not None and self.spot_check in review.spot_checks:
            rows = [row for row in self.spot_checking.rows(self.spot_check) if self._matches(row)]
        else:
            rows = filter_rows(self.store, review, view, self.search, self.missing_doc, within=within)
        self.rows = self.navigation.sorted_rows(rows)
        in_file_order = self.navigation.in_file_order
        cursor = 0
        if old_row is not None:
            at = position_of(self.rows, old_row, in_file_order)
            cursor = at if at is not None else bisect_left(self.rows, old_row) if in_file_order else 0
        self.table.show_rows(self.store, review, self.rows, cursor)
        self._show_filter_state()

    def refilter(self) -> None:
        """Compute the index afresh (the order changed, say)."""
        self._refilter()

    def _matches(self, row: int) -> bool:
        """Whether one row passes the current filter (for a run that changed)."""
        assert self.review is not None
        view, baseline = self.view, self.baselines.baseline
        if is_baseline_view(view):
            if baseline is None or not baseline.matches(row, view, self.store.stage):
                return False
            view = "all"
        return row_matches(self.store, self.review, row, view, self.search, self.missing_doc)

    def _release_sticky(self, row_now: int | None) -> None:
        """The cursor left a run that changed: drop it if it no longer matches."""
        sticky, self._sticky = self._sticky, None
        if sticky is None or sticky == row_now or self._matches(sticky):
            return
        assert isinstance(self.rows, list)
        at = position_of(self.rows, sticky, self.navigation.in_file_order)
        if at is not None:
            del self.rows[at]
            cursor = self.table.cursor - (at < self.table.cursor)
            self.table.show_rows(self.store, self.review, self.rows, cursor)
            self._show_filter_state()

    @on(RunTable.CursorMoved)
    def show_run_detail(self, event: RunTable.CursorMoved) -> None:
        if self._sticky is not None and self._sticky != event.row:
            self._release_sticky(event.row)
        self._show_detail()
        if self.live is not None:
            self.live.reserve(event.row)

    def on_review_changed_elsewhere(self, event: ReviewChangedElsewhere) -> None:
        """A teammate's labels, tags or notes arrived: redraw their rows, the detail, the counts."""
        if self.review is not None:
            for notice in self.review.take_notices():  # e.g. the journal was replaced and rewritten
                self.tell(notice, title="Review journal", severity="warning", timeout=20)
        for row in event.rows:
            self.table.refresh_run(row)
        if self.table.cursor_row in event.rows:
            self._show_detail()
        self._show_summary()

    def on_log_status_changed(self, event: LogStatusChanged) -> None:
        """The shared store went away or came back, or who holds which run changed."""
        self.query_one(StageSummary).show_status(event.status)
        self.table.held = event.held
        self.table.refresh()

    @on(FilterBar.QueryChanged)
    def _query_typed(self, event: FilterBar.QueryChanged) -> None:
        self.search = event.query

    @on(FilterBar.Finished)
    def _filter_done(self, event: FilterBar.Finished) -> None:
        focus_now(self.table)

    def action_focus_filter(self) -> None:
        focus_now(self.query_one(FilterBar).query_input)  # the keys typed next are the filter's

    def action_toggle_detail(self) -> None:
        if self.maximized is not None:
            self.minimize()
        else:
            focus_now(self.detail)
            self.maximize(self.detail, container=False)

    def watch_maximized(self, maximized: object) -> None:
        if maximized is None and self.is_mounted:
            focus_now(self.table)  # back from the full-size detail (enter or escape)

    def action_clear_filters(self) -> None:
        if self.search or self.missing_doc is not None:
            self.set_filter(self.view, "", None)
        focus_now(self.table)

    def action_show_view(self, name: str) -> None:
        if is_baseline_view(name) and not self.baselines.ready(name):
            return
        if self.spot_check is not None:  # a view key leaves the spot-check
            self.set_reactive(ReviewScreen.spot_check, None)
            self.set_reactive(ReviewScreen.view, name)
            self._refilter()
            self._show_summary()
        else:
            self.view = name
        focus_now(self.table)

    # -- the baseline (see baseline.py) -------------------------------------------------

    def on_baseline_loaded(self, event: BaselineLoaded) -> None:
        self.baselines.loaded(event)

    def on_baseline_failed(self, event: BaselineFailed) -> None:
        self.baselines.failed(event)

    def action_apply_offered(self) -> None:
        self.baselines.apply_offered()

    def show_again(self) -> None:
        """Filter again, and show the table, summary and detail anew (the baseline came or changed labels)."""
        self._refilter()
        self._show_summary()
        self._show_detail()

    # -- labelling (see labelling.py) ------------------------------------------------

    def action_label_correct(self) -> None:
        self._label_and_move_on(lambda: self.labelling.set_label(True))

    def action_label_incorrect(self) -> None:
        self._label_and_move_on(lambda: self.labelling.set_label(False))

    def action_toggle_label(self) -> None:
        self._label_and_move_on(self.labelling.toggle_label)

    def _label_and_move_on(self, label: Callable[[], None]) -> None:
        row = self.table.cursor_row
        label()
        if row is not None:
            self.navigation.labelled(row)

    def action_clear_label(self) -> None:
        self.labelling.clear_label()

    def action_edit_note(self) -> None:
        self.labelling.edit_note()

    def action_undo(self) -> None:
        self.labelling.undo()

    def action_adjudicate(self) -> None:
        from .adjudicate import adjudicate

        adjudicate(self)

    def show_changed_run(self, row: int) -> None:
        """Redraw a run that just changed; it stays in the view until the cursor leaves it."""
        if self.review is not None:
            for notice in self.review.take_notices():  # e.g. the journal was rewritten
                self.tell(notice, title="Review journal", severity="warning", timeout=20)
        self._sticky = row
        self.table.refresh_run(row)
        self._show_detail()
        self._show_summary()

    def bring_into_view(self, row: int) -> None:
        """Put the cursor on `row`, adding it to the index if the filter hides it."""
        self._release_sticky(row)
        rows = self.rows if isinstance(self.rows, list) else list(self.rows)
        in_file_order = self.navigation.in_file_order
        at = position_of(rows, row, in_file_order)
        if at is None:
            rows.insert(bisect_left(rows, row) if in_file_order else len(rows), row)
            rows = self.navigation.sorted_rows(rows)
            at = position_of(rows, row, in_file_order)
            assert at is not None
        self.rows = rows
        self.table.show_rows(self.store, self.review, rows, at)
        self._show_filter_state()

    # -- sorting and moving (see navigation.py) ------------------------------------------

    def action_sort_cycle(self) -> None:
        self.navigation.cycle_order()

    def action_sort_next_column(self) -> None:
        self.navigation.step_column(1)

    def action_sort_previous_column(self) -> None:
        self.navigation.step_column(-1)

    def on_run_table_header_clicked(self, event: RunTable.HeaderClicked) -> None:
        self.navigation.header_clicked(event.column)

    def action_next_unreviewed(self) -> None:
        self.navigation.jump_unreviewed(1)

    def action_previous_unreviewed(self) -> None:
        self.navigation.jump_unreviewed(-1)

    def action_next_run(self) -> None:
        """j in the full-size detail: the next run, shown at once."""
        self.table.action_cursor_down()

    def action_previous_run(self) -> None:
        self.table.action_cursor_up()

    # -- the documents' text ------------------------------------------------------------

    def action_next_document(self) -> None:
        self._move_document(1)

    def action_previous_document(self) -> None:
        self._move_document(-1)

    def _move_document(self, step: int) -> None:
        """Highlight another document of the run shown; the corpus opens the first time."""
        if not self.detail.move_document(step):
            self.tell("This run lists no required or supplied documents.")
            return
        source = getattr(self.app, "docs", None)
        if source is not None and self._docs_state == "closed":
            self._docs_state = "opening"
            self.detail.set_docs(None, "opening documents…")
            self._open_docs(source)

    @work(thread=True, exclusive=True, group="docs")
    def _open_docs(self, source: DocsSource) -> None:
        """Index the corpus (a million documents take a second or two), once."""
        try:
            docs = source.open()
        except DocsError as exc:
            self.app.call_from_thread(self._docs_failed, str(exc))
        else:
            self.app.call_from_thread(self._docs_opened, docs)

    def _docs_opened(self, docs: DocStore) -> None:
        self._docs_state = "open"
        self._docs = docs
        self.detail.set_docs(docs)
        for warning in docs.warnings[:5]:
            self.tell(warning, title="Documents", severity="warning", timeout=20)

    def _docs_failed(self, reason: str) -> None:
        self._docs_state = "failed"
        self.detail.set_docs(None, f"cannot open the documents: {reason}")
        self.tell(reason, title="Cannot open the documents", severity="error", timeout=30)

    def on_unmount(self) -> None:
        if self._docs is not None:
            self._docs.close()

    def action_toggle_metric_columns(self) -> None:
        shown = self.table.toggle_extra_columns()
        self.tell("Tags, recall and precision columns " + ("shown." if shown else "hidden."))

    def action_toggle_auto_advance(self) -> None:
        self.navigation.toggle_auto_advance()

    # -- spot-checks and reason tags (see spot_checking.py) -------------------------------

    def open_spot_check(self, name: str) -> None:
        """Show the runs of spot-check `name` in sample order, the cursor on the first
        one still to review (so a spot-check reopened the next day goes on where it was)."""
        self.set_reactive(ReviewScreen.spot_check, name)
        self.set_reactive(ReviewScreen.view, "all")
        self.set_reactive(ReviewScreen.missing_doc, None)
        self.set_reactive(ReviewScreen.search, "")
        self.query_one(FilterBar).query_input.value = ""
        self._refilter()
        self._show_summary()
        self.table.cursor = 0
        review = self.review
        if review is not None and self.rows and review.is_reviewed(self.rows[0]):
            found = self.navigation.find_unreviewed(0, 1)
            if found is not None:
                self.table.cursor = found[0]
        focus_now(self.table)

    def action_draw_sample(self) -> None:
        self.spot_checking.draw()

    def action_choose_spot_check(self) -> None:
        self.spot_checking.choose()

    def action_toggle_tag(self, number: int) -> None:
        self.spot_checking.toggle_tag(number)

    # -- other screens --------------------------------------------------------------

    def action_statistics(self) -> None:
        from .statistics import StatisticsScreen

        if self.review is None:
            self.tell("Still loading the runs.")
            return

        def chosen(document: str | None) -> None:
            if document is not None:
                self.set_filter("all", "", document)
                focus_now(self.table)

        self.app.push_screen(StatisticsScreen(self.store, self.review), chosen)

    def action_export(self) -> None:
        from .export import ExportDialog

        if self.review is None:
            self.tell("Still loading the runs.")
            return

        def finished(message: str | None) -> None:
            if message:
                self.tell(message, title="Export")

        self.app.push_screen(
            ExportDialog(self.store, self.review, self.rows, not self._filter_is_plain()),
            finished,
        )

    def action_stale(self) -> None:
        from .stale import StaleEntries

        if self.review is None:
            self.tell("Still loading the runs.")
            return
        if not self.review.stale:
            self.tell("No stale journal entries: every entry matches its run as it is now.")
            return

        def closed(row: int | None) -> None:
            if row is not None:
                self.bring_into_view(row)

        self.app.push_screen(StaleEntries(self.review, self.show_changed_run), closed)

    def action_help(self) -> None:
        from .help import HelpScreen

        self.app.push_screen(HelpScreen(list(self.key_help())))

    def key_help(self) -> Iterator[tuple[str, str, str]]:
        """(section, keys, what they do) for every binding of this screen."""
        return key_help(self.app)

    def commands(self) -> Iterator[tuple[str, str, Callable[[], object]]]:
        """Every action of this screen, for the command palette."""
        return commands(self)
