"""A dataset reviewed in place (`core.runs.source_store.SourceStore`): its counts and its
views, found by the engine in a worker while the rows already shown stay on screen, and
what the screen cannot do over it, said plainly instead of reading ten million rows.

The table shows every run of the dataset in its order (file, then row), or a view: a stage,
the lucky answers (the engine's, the review's labels laid over them), the reviewed runs or
the conflicts (the review's own), narrowed by the filter's text, FIELD:VALUE and is: terms
(found by the engine too), in dataset order or sorted by a column (ordered by the engine, the
review's labels laid over it: `find_order`). The statistics (`s`) show the engine's counts
with the review's labels over them once counted (ui/screens/counting.py), and their report
(`r`, as `report DATASET`: ui/screens/statistics_report.py); the export (`e`) writes the reviewed
runs. The document filter and tag: terms need every run in hand, so over a dataset they are
refused with a notice naming the command that does the same from the shell (`sample`; see
docs/guide/datasets.md).
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from textual.worker import get_current_worker

from ....core.analysis.source_sorting import finish_order, plan_order
from ....core.analysis.source_views import (
    REVIEW_VIEWS,
    SourceQuery,
    filtered_rows,
    found_rows,
    review_view_rows,
    with_review,
)
from .host import ReviewHost, WorkerHost

if TYPE_CHECKING:
    from ....core.runs.row_source import SourceTally

NOTICE_SECONDS = 12
SETTLE_SECONDS = 0.25  # a filter typed over a dataset waits this long for the next key before its scan
MOST_MISSED = 100  # documents found once a dataset is counted (the statistics screen lists them)
INSTEAD = {
    "filter": "the table shows the view's runs filtered by text, FIELD:VALUE and is: terms, sorted by "
    "any column; `ragdiag-tui sample DATASET --filter ... -o FILE` draws runs to a file",
    "blind": "R lists the runs you labelled",
}
"""What the reviewer can do instead of each thing the screen cannot do over a dataset."""

WHAT = {
    "filter": "The missing-document filter, tag: terms and the review's own views with a filter",
    "blind": "In blind mode, the views that tell labels",
}


@dataclass(frozen=True)
class SourceCounted:
    """The engine counted the dataset's runs (its own labels): `tally`, or `problem` saying why not."""

    tally: SourceTally | None
    problem: str | None = None
    most_missed: tuple[tuple[str, int], ...] = ()


def _unless_cancelled(ask: Callable[[], Any]) -> Any:
    """`ask()`'s answer, asked in a thread of its own; None if the worker is cancelled first
    (the app is quitting: its worker threads are waited for, the count's scan is not, and the
    engine stops it as the command exits)."""
    worker = get_current_worker()
    answer: list[Any] = []
    failed: list[BaseException] = []
    done = threading.Event()

    def run() -> None:
        try:
            answer.append(ask())
        except BaseException as exc:  # told by the worker, in its own thread
            failed.append(exc)
        finally:
            done.set()

    threading.Thread(target=run, name="source-count", daemon=True).start()
    while not done.wait(0.05):
        if worker.is_cancelled:
            return None
    if failed:
        raise failed[0]
    return answer[0]


def _replaced(settle: float, done: threading.Event) -> bool:
    """Whether the worker was cancelled (an exclusive newer one started) within `settle` seconds,
    or before `done` was set (the reviewer pressed enter: no key is coming)."""
    worker = get_current_worker()
    deadline = time.monotonic() + settle
    while time.monotonic() < deadline and not worker.is_cancelled and not done.wait(0.02):
        pass
    return worker.is_cancelled


def refused(screen: ReviewHost, what: str) -> bool:
    """Whether `what` (an `INSTEAD` key) cannot be done because the runs are read in place;
    the reviewer is told so, and what to do instead."""
    if not screen.store.in_place:
        return False
    screen.tell(
        f"{WHAT[what]}: not available while reviewing a dataset in place; {INSTEAD[what]}.",
        title="Reviewing a dataset",
        severity="warning",
        timeout=NOTICE_SECONDS,
    )
    return True


def count_source(screen: WorkerHost, counted: Callable[[SourceCounted], None]) -> None:
    """Count the dataset's runs in a worker; `counted` is called with the outcome on the main thread."""
    store = screen.store

    def work() -> None:
        try:
            tally = _unless_cancelled(store.tally)  # type: ignore[attr-defined]
            if tally is None:
                return
            tell(SourceCounted(tally))
            tell(SourceCounted(None, most_missed=tuple(store.most_missed(MOST_MISSED))))  # type: ignore[attr-defined]
        except Exception as exc:  # any engine failure is a notice, not a crash
            tell(SourceCounted(None, f"{exc}"))

    def tell(outcome: SourceCounted) -> None:
        with contextlib.suppress(RuntimeError):  # the app has already gone
            screen.app.call_from_thread(counted, outcome)

    screen.run_worker(work, name="count", group="count", exclusive=True, thread=True)


def find_view(screen: WorkerHost, view: str, found: Callable[[str, Sequence[int]], None]) -> None:
    """The rows of a dataset's `view`: the review's own at once, a stage view from the engine in
    a worker, the review's labels laid over it on the main thread; `found(view, rows)` shows them."""
    store, review = screen.store, screen.review
    assert review is not None
    if view in REVIEW_VIEWS:
        found(view, review_view_rows(review, view))
        return

    def shown(positions: Sequence[int]) -> None:
        found(view, with_review(store, review, view, found_rows(positions)))

    _ask_source(screen, lambda: store.source.view_positions(view), shown, "view")  # type: ignore[attr-defined]


def find_filter(
    screen: WorkerHost,
    query: SourceQuery,
    found: Callable[[Sequence[int]], None],
    done: threading.Event | None = None,
) -> None:
    """The rows of a filter over a dataset (`source_views.SourceQuery`), found by the engine in a
    worker, the review's labels laid over them on the main thread; `found(rows)` shows them.
    The scan waits `SETTLE_SECONDS` for the next key, or until `done` is set (enter)."""
    store, review = screen.store, screen.review
    assert review is not None

    def shown(positions: Sequence[int]) -> None:
        found(filtered_rows(store, review, query, positions))

    _ask_source(screen, lambda: store.source.filter_positions(query), shown, "filter", SETTLE_SECONDS, done)  # type: ignore[attr-defined]


def find_order(
    screen: WorkerHost,
    rows: Sequence[int],
    column: str,
    direction: int,
    found: Callable[[Sequence[int]], None],
) -> None:
    """`rows` of a dataset (a view's, in dataset order) sorted by `column` as one file's are
    (`source_sorting`): planned here (the review read once), ordered by the engine in a worker,
    the runs the review touched put in there too; `found(rows)` shows them."""
    store, review = screen.store, screen.review
    assert review is not None
    plan = plan_order(store, review, rows, column, direction)

    def work() -> Sequence[int]:
        order = None if plan.request is None else store.source.order_positions(plan.request)  # type: ignore[attr-defined]
        return finish_order(plan, order)

    _ask_source(screen, work, found, "order")


def _ask_source(
    screen: WorkerHost,
    ask: Callable[[], Any],
    shown: Callable[[Any], None],
    what: str,
    settle: float = 0.0,
    done: threading.Event | None = None,
) -> None:
    """`ask` the source in a worker; `shown` its answer on the main thread, or the failure told.
    With `settle`, the worker first waits that long (or until `done` is set) and asks nothing if
    a newer question has replaced it meanwhile (a filter being typed: one scan of the dataset,
    not one a key)."""

    def work() -> None:
        if settle and (get_current_worker().is_cancelled or _replaced(settle, done or threading.Event())):
            return
        try:
            positions = ask()
        except Exception as exc:  # any engine failure is a notice, not a crash
            with contextlib.suppress(RuntimeError):
                screen.app.call_from_thread(
                    screen.tell, f"The {what} could not be found: {exc}", severity="error"
                )
            return
        with contextlib.suppress(RuntimeError):  # the app has already gone
            screen.app.call_from_thread(shown, positions)

    screen.run_worker(work, name="view", group="view", exclusive=True, thread=True)


def plain_again(screen: Any) -> None:
    """Every run again (the review screen's view and filter; its order stays), without
    filtering anew: what a dataset shows when a view or filter is refused."""
    kind = type(screen)
    for name, value in (("view", "all"), ("missing_doc", None), ("search", "")):
        screen.set_reactive(getattr(kind, name), value)
    screen.filter_bar.query_input.value = ""
