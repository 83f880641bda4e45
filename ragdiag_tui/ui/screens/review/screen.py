"""The review screen: summary, filter bar, run table, detail pane, footer.

State is a few reactives (`view`, `search`, `missing_doc`, the order, the spot-check);
the rows the table shows are derived from them (run_index.py). What the screen does is
in plain parts it builds and hands itself to: loading, the run index, labelling,
navigation, spot-checks, the baseline, the documents, the screens it opens and the
team's updates. Each part names what it uses of the screen in a protocol
(review_host.py) and none imports the screen; the screen holds the state, the widgets
and the keys, and passes its messages and actions on to the parts.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from typing import Any, ClassVar

from textual import events, on
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Horizontal
from textual.reactive import var
from textual.worker import Worker

from ....core.analysis.sorting import FILE_ORDER
from ....core.common.text import visible
from ....core.review.state import Review, ReviewOptions
from ...live import LiveReview, LogStatusChanged, ReviewChangedElsewhere
from ...typeahead import focus_now
from ...widgets.detail.run_detail import RunDetail
from ...widgets.filter_bar import FilterBar
from ...widgets.key_footer import KeyFooter, wide_footer
from ...widgets.stage_summary import StageSummary
from ...widgets.table.run_table import RunTable
from ..styled_once import StyledOnce
from .baseline import BaselineActions, BaselineFailed, BaselineLoaded, is_baseline_view
from .dialogs import Dialogs
from .documents import Documents
from .footer_keys import fit_footer
from .keys import SCREEN_BINDINGS, commands, key_help
from .labelling import Labelling
from .load_gate import wake_after
from .loading import Loading
from .navigation import Navigation
from .run_index import RunIndex
from .run_loader import LoadFailed, LoadProgressed, RowsArrived, RunsLoaded
from .showing import Showing
from .spot_checking import SpotChecking
from .team_updates import TeamUpdates


class ReviewScreen(StyledOnce[None]):
    """Browse, filter and label the runs of one file."""

    BINDINGS: ClassVar[list[BindingType]] = SCREEN_BINDINGS
    HORIZONTAL_BREAKPOINTS: ClassVar[list[tuple[int, str]] | None] = [(0, "-narrow"), (140, "-wide")]

    view: var[str] = var("all")
    """The active view (a `views.VIEWS` name)."""
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
        self.store = options.new_store()
        self.review: Review | None = None
        self.team = TeamUpdates(self)
        self.baselines = BaselineActions(self, None if baseline is None else os.fspath(baseline))
        self.index = RunIndex(self, self.baselines)
        self.showing = Showing(self, self.index, self.baselines)
        self.navigation = Navigation(self, self.index, self.showing, self.team.held)
        self.labelling = Labelling(self, self.index, self.showing, self.navigation.labelled)
        self.spot_checking = SpotChecking(self, self.labelling, self.navigation, self.showing)
        self.documents = Documents(self)
        self.dialogs = Dialogs(self, self.index, self.showing)
        self.loader = Loading(self, options, self.index, self.showing, self.spot_checking.open)
        self.key_gate = self.loader.gate  # keys typed while the runs load wait for them (load_gate.py)
        fit_footer(self._bindings.key_to_bindings, None, self.app.size.width)  # its first keys

    def compose(self) -> ComposeResult:
        yield StageSummary(id="summary")
        yield FilterBar(id="filter-bar")
        yield self.loader.status
        with Horizontal(id="panes"):
            yield RunTable(empty_message="Loading…", id="runs")
            yield RunDetail(id="detail")
        yield KeyFooter(compact=True, show_command_palette=wide_footer(self.app.size.width))

    def on_resize(self, event: events.Resize) -> None:
        if fit_footer(self._bindings.key_to_bindings, self.query_one(KeyFooter), event.size.width):
            self.refresh_bindings()  # the footer rebuilds its keys

    @property
    def table(self) -> RunTable:
        return self.query_one(RunTable)

    @property
    def detail(self) -> RunDetail:
        return self.query_one(RunDetail)

    @property
    def summary(self) -> StageSummary:
        return self.query_one(StageSummary)

    @property
    def filter_bar(self) -> FilterBar:
        return self.query_one(FilterBar)

    @property
    def rows(self) -> list[int] | range:
        """The rows the table shows, in its order (see run_index.py)."""
        return self.index.rows

    async def on_mount(self) -> None:
        focus_now(self.table)
        self.showing.counts()
        self.index.show_state()
        await self.loader.start()

    # -- loading (see loading.py) ----------------------------------------------------

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        wake_after(event, self.app)  # a dataset's rows found: the keys typed for them go on

    def on_load_progressed(self, event: LoadProgressed) -> None:
        self.loader.progressed(event)

    def on_rows_arrived(self, event: RowsArrived) -> None:
        self.loader.arrived(event)

    def on_runs_loaded(self, event: RunsLoaded) -> None:
        review = self.review = event.review
        self.loader.loaded(event)
        self.team.start(LiveReview(self, review))
        self.baselines.load()

    def on_load_failed(self, event: LoadFailed) -> None:
        self.loader.failed(event)

    def tell(self, message: str, **options: Any) -> None:
        """Notify, literally: messages carry paths and run ids, never markup."""
        self.notify(visible(message), markup=False, **options)

    # -- showing state (see showing.py) --------------------------------------------------

    def show_again(self) -> None:
        """Filter again, and show the table, summary and detail anew (the baseline came or changed labels)."""
        self.showing.again()

    # -- filtering (see run_index.py) -----------------------------------------------------

    def watch_view(self) -> None:
        self.index.refilter()

    def watch_search(self) -> None:
        self.index.refilter()

    def watch_missing_doc(self) -> None:
        self.index.refilter()

    def set_filter(self, view: str, search: str, missing_doc: str | None) -> None:
        """Change the whole filter at once, computing the index only once."""
        self.set_reactive(ReviewScreen.view, view)
        self.set_reactive(ReviewScreen.missing_doc, missing_doc)
        self.set_reactive(ReviewScreen.search, search)
        self.filter_bar.query_input.value = search
        self.index.refilter()

    def show_spot_check(self, name: str) -> None:
        """Show the runs of spot-check `name` in sample order: no view, no filter (see spot_checking.py)."""
        self.set_reactive(ReviewScreen.spot_check, name)
        self.set_filter("all", "", None)

    @on(RunTable.CursorMoved)
    def show_run_detail(self, event: RunTable.CursorMoved) -> None:
        self.index.cursor_moved(event.row)
        self.showing.run()
        self.team.cursor_moved(event.row)

    @on(FilterBar.QueryChanged)
    def _query_typed(self, event: FilterBar.QueryChanged) -> None:
        self.search = event.query

    @on(FilterBar.Finished)
    def _filter_done(self, event: FilterBar.Finished) -> None:
        self.index.filter_typed()
        focus_now(self.table)

    def action_focus_filter(self) -> None:
        focus_now(self.filter_bar.query_input)  # the keys typed next are the filter's

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
            self.index.refilter()
            self.showing.counts()
        else:
            self.view = name
        focus_now(self.table)

    def action_toggle_detail(self) -> None:
        if self.maximized is not None:
            self.minimize()
        else:
            focus_now(self.detail)
            self.maximize(self.detail, container=False)

    def watch_maximized(self, maximized: object) -> None:
        if maximized is None and self.is_mounted:
            focus_now(self.table)  # back from the full-size detail (enter or escape)

    # -- the team's updates (see team_updates.py) and the baseline (see baseline.py) ------

    def on_review_changed_elsewhere(self, event: ReviewChangedElsewhere) -> None:
        self.showing.changed_elsewhere(event.rows)

    def on_log_status_changed(self, event: LogStatusChanged) -> None:
        self.team.status_changed(event)

    def on_baseline_loaded(self, event: BaselineLoaded) -> None:
        self.baselines.loaded(event)

    def on_baseline_failed(self, event: BaselineFailed) -> None:
        self.baselines.failed(event)

    def action_apply_offered(self) -> None:
        self.baselines.apply_offered()

    # -- labelling (see labelling.py) ---------------------------------------------------

    def action_label_correct(self) -> None:
        self.labelling.set_label(True)

    def action_label_incorrect(self) -> None:
        self.labelling.set_label(False)

    def action_toggle_label(self) -> None:
        self.labelling.toggle_label()

    def action_clear_label(self) -> None:
        self.labelling.clear_label()

    def action_edit_note(self) -> None:
        self.labelling.edit_note()

    def action_undo(self) -> None:
        self.labelling.undo()

    def action_adjudicate(self) -> None:
        from .adjudicate import adjudicate  # a dialog: loaded on first use

        adjudicate(self, self.labelling)

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

    def action_toggle_auto_advance(self) -> None:
        self.navigation.toggle_auto_advance()

    # -- the documents' text (see documents.py) and the table's columns ---------------------

    def action_move_document(self, step: int) -> None:
        self.documents.move(step)

    def action_whole_text(self) -> None:
        self.documents.read_whole()

    def on_unmount(self) -> None:
        self.documents.close()
        self.team.stop()  # the app is exiting: a shared store gives the reservation back now

    def action_toggle_metric_columns(self) -> None:
        shown = self.table.toggle_extra_columns()
        self.tell("Tags, recall and precision columns " + ("shown." if shown else "hidden."))

    # -- spot-checks and reason tags (see spot_checking.py) -------------------------------

    def action_draw_sample(self) -> None:
        self.spot_checking.draw()

    def action_choose_spot_check(self) -> None:
        self.spot_checking.choose()

    def action_toggle_tag(self, number: int) -> None:
        self.spot_checking.toggle_tag(number)

    # -- other screens (see dialogs.py) ------------------------------------------------------

    def action_statistics(self) -> None:
        self.dialogs.statistics()

    def action_export(self) -> None:
        self.dialogs.export()

    def action_stale(self) -> None:
        self.dialogs.stale()

    def action_help(self) -> None:
        self.dialogs.help()

    def key_help(self) -> Iterator[tuple[str, str, str]]:
        """(section, keys, what they do) for every binding of this screen."""
        return key_help(self.app)

    def commands(self) -> Iterator[tuple[str, str, Callable[[], object]]]:
        """Every action of this screen, for the command palette."""
        return commands(self)
