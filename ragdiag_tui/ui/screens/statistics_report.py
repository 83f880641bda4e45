"""The statistics screen's `r`: the report of what the screen shows, written beside the run
file as one HTML page (core.output.report), in a worker; a notice says where, or why not."""

from __future__ import annotations

import contextlib
import os
from typing import TYPE_CHECKING

from ...core.common.text import visible
from ...core.output.report.write import default_report_path

if TYPE_CHECKING:
    from textual.screen import Screen

    from ...core.review.state import Review
    from ...core.review.tags import Tag
    from ...core.runs.corpus import DocsSource, DocStore

DATASET_REPORT = (
    "The report of a dataset reviewed in place is not written from the app: "
    "`ragdiag-tui report DATASET -o OUT.html` writes it with this review's labels."
)


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
        if self.review.store.in_place:  # its figures and evidence would read every run of the dataset
            self._tell(DATASET_REPORT, "warning")
            return
        path = default_report_path(self.review.store.path)
        if folder is not None:
            path = os.path.join(folder, os.path.basename(path))
        self._tell(f"Writing the report to {path}…", "information")
        self.screen.run_worker(
            lambda: self._work(path, tags, source), name="report", group="report", exclusive=True, thread=True
        )

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

    def _tell(self, message: str, severity: str) -> None:
        timeout = 12 if severity != "information" or message.startswith("Report written") else 4
        self.screen.notify(visible(message), severity=severity, timeout=timeout, markup=False)  # type: ignore[arg-type]
