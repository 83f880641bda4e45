"""The statistics screen's `r`: the report of what the screen shows, written beside the run
file as one HTML page (core.output.report), in a worker; a notice says where, or why not."""

from __future__ import annotations

import contextlib
import os
from dataclasses import replace
from typing import TYPE_CHECKING

from ...core.common.text import visible
from ...core.output.report.write import default_report_path


def dataset_report_path(root: str) -> str:
    """Beside a dataset's folder: `runs/` -> `runs.report.html` (as its journal is `runs.review.jsonl`)."""
    return f"{os.path.normpath(root)}.report.html"


if TYPE_CHECKING:
    from textual.screen import Screen

    from ...core.review.state import Review
    from ...core.review.tags import Tag
    from ...core.runs.corpus import DocsSource, DocStore


class ReportWriter:
    """Writes a review's report from a screen, off the UI thread, and tells the reviewer."""

    def __init__(self, screen: Screen[object], review: Review, docs: DocStore | None) -> None:
        self.screen = screen
        self.review = review
        self.docs = docs  # the corpus the review screen has open, if any

    def write(self, tags: tuple[Tag, ...], source: DocsSource | None, folder: str | None = None) -> None:
        """Write the report beside the run file, or into `folder` (the app's only export folder,
        when it has one: `serve`), replacing an earlier report of the same name."""
        if self.review.blind:  # the report shows every label: blind mode hides them
            self._tell("No report in blind mode: it would show the labels you are not to see yet.", "warning")
            return
        in_place = self.review.store.in_place
        path = (
            dataset_report_path(self.review.store.path)
            if in_place
            else default_report_path(self.review.store.path)
        )
        if folder is not None:
            path = os.path.join(folder, os.path.basename(path))
        self._tell(f"Writing the report to {path}…", "information")
        work = (
            (lambda: self._work_dataset(path, tags)) if in_place else (lambda: self._work(path, tags, source))
        )
        self.screen.run_worker(work, name="report", group="report", exclusive=True, thread=True)

    def _work(self, path: str, tags: tuple[Tag, ...], source: DocsSource | None) -> None:
        from ... import __version__
        from ...core.common.atomic import WriteRefused
        from ...core.output.report import (
            ChartsUnavailable,
            ReportError,
            ReportOptions,
            build_report,
            write_report,
        )
        from ...core.runs.corpus import DocsError

        review = self.review
        opened = None
        if self.docs is None and source is not None:
            # Without the texts if the corpus cannot be read (the review screen says why).
            with contextlib.suppress(DocsError):
                opened = source.open()
        try:
            options = ReportOptions(docs=self.docs or opened, version=__version__)
            write_report(build_report(review, tags, options), path)
        except (ChartsUnavailable, ReportError, WriteRefused, OSError) as exc:
            self.screen.app.call_from_thread(self._tell, f"Report not written: {exc}", "error")
            return
        finally:
            if opened is not None:
                opened.close()
        self.screen.app.call_from_thread(self._tell, f"Report written to {path}", "information")

    def _work_dataset(self, path: str, tags: tuple[Tag, ...]) -> None:
        """The report of a dataset read in place, as `report DATASET` writes it: the engine's
        counts with the review applied, through a source and a read-only review of their own
        (the screen's keep serving it meanwhile), reading only the review's runs."""
        from ... import __version__
        from ...core.output.report import (
            ReportOptions,
            build_dataset_report,
            dataset_figures,
            hold_reviewed_runs,
            write_report,
        )
        from ...core.output.report.dataset import COUNTED_MISSED
        from ...core.runs.source_store import SourceStore

        opened = self.screen.app.options  # type: ignore[attr-defined]  # how the app opened the review
        source = opened.source.reopened()
        try:
            store = SourceStore(source, opened.field_map, hold_named=True)
            review = replace(opened, source=source).open(store=store, writable=False)
            hold_reviewed_runs(review)
            figures = dataset_figures(source.reviewed_stats(review, COUNTED_MISSED), *source.footprint())
            write_report(
                build_dataset_report(review, tags, ReportOptions(version=__version__), figures), path
            )
        except Exception as exc:  # ChartsUnavailable, WriteRefused, JournalError, any engine's: a notice
            self.screen.app.call_from_thread(self._tell, f"Report not written: {exc}", "error")
            return
        finally:
            source.close()
        self.screen.app.call_from_thread(self._tell, f"Report written to {path}", "information")

    def _tell(self, message: str, severity: str) -> None:
        timeout = 12 if severity != "information" or message.startswith("Report written") else 4
        self.screen.notify(visible(message), severity=severity, timeout=timeout, markup=False)  # type: ignore[arg-type]
