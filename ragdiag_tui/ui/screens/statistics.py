"""StatisticsScreen: runs per stage, lucky answers, the most-missed documents, and
how far the reviewers agree.

Choosing a document dismisses the screen with its ID, and the review screen
filters the table to the runs missing it. The agreement figures sit beside the
rest on a wide terminal; on a narrow one `a` shows them instead of the rest.

Over a dataset read in place, the stage counts and lucky answers are the engine's with the
review's labels over them, as `stats DATASET` gives them, and the most-missed documents the
engine's with the review's changes laid over them (core.analysis.source_missed); until the
engine has found them (`counting`), the screen says so and fills them in when they come.
Nothing here reads every run of a dataset in Python: the spot-checks read their own runs; the
means of recall and precision are left to `stats`.
"""

from __future__ import annotations

import os
from collections import Counter
from typing import ClassVar

from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.screen import Screen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from ...core.analysis.agreement import review_agreement
from ...core.analysis.blind import blind_spot_checks, shown_counts
from ...core.analysis.lucky import LUCKY_IN_FILE, STILL_LUCKY
from ...core.analysis.spotcheck import spot_check_reports
from ...core.analysis.stats import Stats
from ...core.analysis.views import VIEW_BY_NAME
from ...core.common.text import snippet, visible
from ...core.review.state import Review
from ...core.review.tags import DEFAULT_TAGS
from ...core.runs.corpus import DocStore, missed_texts
from ...core.runs.store import RunStore, store_means
from ..typeahead import focus_now
from ..widgets.agreement_panel import AgreementPanel
from ..widgets.key_footer import KeyFooter, wide_footer
from ..widgets.spot_check_panel import SpotCheckPanel
from ..widgets.stage_bars import StageBars
from ..widgets.stages import LUCKY_MARK
from .counting import DatasetCounting, find_documents
from .statistics_report import ReportWriter

TOP_DOCUMENTS = 100
SNIPPET = 48  # characters of a most-missed document's text (documents given as texts) beside its ID
LUCKY_VIEW_KEY = VIEW_BY_NAME["lucky"].key
AGREEMENT_BESIDE = 136  # columns from which the agreement shows beside the stages
DATASET_MEANS = "Means of recall and precision: `ragdiag-tui stats DATASET` gives them."


class StatisticsScreen(Screen[str | None]):
    """Figures over the whole file, with the reviewer's labels in force."""

    BINDINGS: ClassVar[list[BindingType]] = [
        # A priority binding, so the footer shows it although the list has enter too.
        Binding("enter", "show_runs_missing", "Show runs missing it", priority=True),
        Binding("a", "toggle_agreement", "Agreement"),
        Binding("r", "write_report", "Write report"),
        Binding("escape,s", "close", "Back to runs"),
        Binding("q", "close", "Back", show=False),
    ]

    HORIZONTAL_BREAKPOINTS: ClassVar[list[tuple[int, str]] | None] = [
        (0, "-narrow"),
        (AGREEMENT_BESIDE, "-wide"),
    ]

    def __init__(
        self,
        store: RunStore,
        review: Review,
        docs: DocStore | None = None,
        counting: DatasetCounting | None = None,
    ) -> None:
        super().__init__()
        self.store = store
        self.review = review
        self.counting = counting
        """A dataset's counting (None: a file's figures are all in): what is in yet."""
        self.found: list[tuple[str, int]] | None = None
        """A dataset's most-missed documents by the labels in force, once found (`find_documents`)."""
        self.report = ReportWriter(self, review, docs)
        """Writes the report of what the screen shows (`r`)."""
        self._take_figures()

    def _take_figures(self) -> None:
        """The figures shown, from the review and the store as they are now."""
        store, review = self.store, self.review
        missed = store.missed_documents() if self.found is None else Counter(dict(self.found))
        self.missed_count = len(missed)
        """How many documents some run misses; `documents` holds the top ones."""
        self.documents = Stats(missed=missed).top_missed(TOP_DOCUMENTS)
        # A dataset's texts would be read from its runs (only a file's are in hand).
        self.texts = {} if store.in_place else missed_texts(store, [doc for doc, _ in self.documents])
        """The texts of the listed documents given as texts (content IDs), shown beside them."""
        self.shown = shown_counts(review)
        """The counts shown: in blind mode, only those of the runs this reviewer labelled."""
        # Blind mode: the figures would tell the labels the reviewer is not to see yet.
        self.agreement = None if review.blind else review_agreement(review)
        """The agreement figures shown, or None (blind mode)."""

    def compose(self) -> ComposeResult:
        review, store = self.review, self.store
        # Scrolls on a short terminal (80x24: the spot-checks are below the fold), following the
        # focused documents' list, or by its own keys when there is no list.
        with VerticalScroll(id="stats-body"):
            yield Static(Content.assemble(("Statistics", "bold"), self._title()), id="stats-title")
            rule = store.field_map.brief() if store.field_map is not None else None
            if rule is not None:  # what "correct" meant for every figure below
                yield Static(Content.assemble(("read as: ", "dim"), visible(rule)), id="stats-rule")
            yield Static("Runs per stage", classes="stats-heading", markup=False)
            if self._waiting("stages"):
                yield Static(self._waiting("stages"), classes="stats-counting", markup=False)
            else:
                yield from self._stages()
            yield Static("Spot-checks", classes="stats-heading", markup=False)
            tags = getattr(self.app, "reason_tags", DEFAULT_TAGS)
            # Blind mode: a spot-check's conclusion would tell the labels not to be seen yet,
            # until this reviewer has labelled every run of it.
            reports, waiting = (
                blind_spot_checks(review, tags) if review.blind else (spot_check_reports(review, tags), [])
            )
            means = None if store.in_place else store_means(store)  # a dataset's: every run read
            yield SpotCheckPanel(reports, tags, means, waiting=waiting, id="stats-spot-checks")
            if store.in_place:
                yield Static(DATASET_MEANS, classes="stats-counting", markup=False)
            yield Static(self._documents_heading(), classes="stats-heading", markup=False)
            with Vertical(id="missed-box"):  # the rest of the screen; the list only what it needs
                if self._waiting("documents"):
                    yield Static(self._waiting("documents"), classes="stats-counting", markup=False)
                elif self.documents:
                    width = len(f"{self.documents[0][1]:,}")
                    yield OptionList(
                        *(
                            Option(
                                Content.assemble(f"{n:>{width},} runs  ", visible(doc), self._text_of(doc))
                            )
                            for doc, n in self.documents
                        ),
                        id="missed-documents",
                    )
                else:
                    yield Static("No run misses any required document.", markup=False)
        yield AgreementPanel(self.agreement, id="stats-agreement")
        yield KeyFooter(show_command_palette=wide_footer(self.app.size.width))

    def _title(self) -> str:
        store, review = self.store, self.review
        where = visible(os.path.basename(store.path))
        if self._waiting("stages"):  # a dataset's invalid rows are not known before its count
            return f"  {where}  ·  {len(store):,} rows, {review.reviewed:,} reviewed"
        return f"  {where}  ·  {len(store) - review.counts[-1]:,} runs, {review.reviewed:,} reviewed"

    def _stages(self) -> ComposeResult:
        yield StageBars(self.shown.counts, id="stage-bars")
        if self.shown.hidden is not None:
            yield Static(
                f"Blind mode: {self.shown.hidden:,} runs you have not labelled yet are left out "
                "of the stages above and of the lucky answers.",
                classes="stats-blind",
                markup=False,
            )
        yield Static(lucky_content(self.shown.lucky, self.shown.lucky_in_file), id="stats-lucky")

    def _waiting(self, what: str) -> str:
        """What is said instead of a dataset's `what` ("stages" or "documents") while the engine
        counts it, or why it never came; "" once it is in (and always for a file)."""
        counting = self.counting
        if counting is None or (getattr(counting, what) and (what == "stages" or self.found is not None)):
            return ""
        if counting.problem is not None:
            return f"The dataset could not be counted: {counting.problem}"
        if what == "stages":
            return "Being counted over the whole dataset; shown here when counted."
        return "Being found over the whole dataset; listed here when found."

    def _text_of(self, doc: str) -> tuple[str, str] | str:
        text = self.texts.get(doc)
        return "" if text is None else (f"  {snippet(text, SNIPPET)}", "dim")

    def _documents_heading(self) -> str:
        shown, total = len(self.documents), self.missed_count
        if self.store.in_place and shown == TOP_DOCUMENTS:  # the engine found the top ones only
            return f"Most-missed documents (top {shown:,})"
        if shown < total:
            return f"Most-missed documents (top {shown:,} of {total:,})"
        documents = "document" if total == 1 else "documents"
        return f"Most-missed documents ({total:,} {documents})" if total else "Most-missed documents"

    COMPONENT_CLASSES: ClassVar[set[str]] = {"stats-screen--lucky", "stats-screen--muted"}

    def on_mount(self) -> None:
        self._focus_body()
        if self.counting is not None and not self.counting.done:
            self.counting.watch(self._counted)
        elif self.counting is not None and self.counting.documents:
            find_documents(self, self.store, TOP_DOCUMENTS, self._documents_found)

    def on_unmount(self) -> None:
        if self.counting is not None:
            self.counting.unwatch(self._counted)

    def _counted(self) -> None:
        """More of a dataset's figures came in: shown in place of the words that waited for them."""
        assert self.counting is not None
        if self.counting.documents and self.found is None:
            find_documents(self, self.store, TOP_DOCUMENTS, self._documents_found)
        self._take_figures()
        self.refresh(recompose=True)
        self.call_after_refresh(self._focus_body)

    def _documents_found(self, documents: list[tuple[str, int]]) -> None:
        self.found = documents
        self._counted()

    def _focus_body(self) -> None:
        """The documents' list, or the body itself when there is none (its keys scroll it). The
        body stays where it is (at its top on opening): focus does not scroll the list into view."""
        lists = self.query(OptionList)
        self.set_focus(
            lists.first() if lists else self.query_one("#stats-body"),
            scroll_visible=False,
        )

    @on(OptionList.OptionSelected, "#missed-documents")
    def _document_chosen(self, event: OptionList.OptionSelected) -> None:
        if not self.store.in_place:
            self.dismiss(self.documents[event.option_index][0])

    def action_show_runs_missing(self) -> None:
        """Back to the runs, showing only those missing the highlighted document."""
        lists = self.query(OptionList)
        index = lists.first().highlighted if lists else None
        if index is not None:
            self.dismiss(self.documents[index][0])

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "show_runs_missing":
            # Over a dataset the runs missing a document are not a filter the engine finds.
            return bool(self.query(OptionList)) and not self.agreement_only and not self.store.in_place
        if action == "toggle_agreement":
            return self.has_class("-narrow")  # on a wide screen the figures are always shown
        return True

    @property
    def agreement_only(self) -> bool:
        """On a narrow terminal, whether the agreement figures are shown instead of the rest."""
        return self.has_class("-narrow") and self.has_class("-agreement")

    def action_toggle_agreement(self) -> None:
        """Narrow terminal: the agreement figures instead of the stages and documents, or back."""
        self.toggle_class("-agreement")
        if self.agreement_only:
            focus_now(self.query_one(AgreementPanel))
        else:
            self._focus_body()
        self.refresh_bindings()

    def on_resize(self, event: events.Resize) -> None:
        # Under 100 columns the keys need the palette hint's room (esc's was cut short).
        self.query_one(KeyFooter).show_command_palette = wide_footer(event.size.width)
        self.refresh_bindings()  # `a` is offered only on a narrow terminal

    def action_write_report(self) -> None:
        """Write the report of these figures beside the run file (or into the app's export
        folder), and say where."""
        app = self.app
        tags = getattr(app, "reason_tags", DEFAULT_TAGS)
        self.report.write(tags, getattr(app, "docs", None), getattr(app, "export_dir", None))

    def action_close(self) -> None:
        self.dismiss(None)


def lucky_content(still: int, in_file: int | None) -> Content:
    """The two lucky-answer figures, each by its name (core/analysis/lucky.py): in the file
    (not told in blind mode, `in_file` None), then still lucky after review."""
    rows = (
        []
        if in_file is None
        else [(LUCKY_IN_FILE, in_file, "by the file's labels: correct, evidence missing")]
    )
    rows.append((STILL_LUCKY, still, "by the labels in force"))
    name_width = max(len(name) for name, _, _ in rows)
    number_width = max(len(f"{n:,}") for _, n, _ in rows)
    lines = [
        Content.assemble(
            (f"{LUCKY_MARK} ", ".stats-screen--lucky"),
            (f"{name[0].upper()}{name[1:]:<{name_width - 1}}  ", "bold"),
            (f"{n:>{number_width},}", ".stats-screen--lucky"),
            f"  {note}",
        )
        for name, n, note in rows
    ]
    lines.append(
        Content.assemble(
            (
                "  " + f"{LUCKY_VIEW_KEY} on the runs screen lists them (those overturned marked so)",
                ".stats-screen--muted",
            )
        )
    )
    return Content("\n").join(lines)
