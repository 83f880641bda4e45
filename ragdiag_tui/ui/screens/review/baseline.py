"""The review screen's baseline (`review NEW --baseline OLD`): loading it, its views,
and applying the labels its review offers.

The baseline is loaded in a worker once the runs under review are in; until then
(and without `--baseline`) its keys say so and change nothing. Like `labelling`,
a part of the screen that uses only what `BaselineHost` names.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from textual.message import Message

from ....core.analysis.views import BASELINE_VIEW_BY_NAME
from ....core.common.text import visible
from ....core.review.records import JournalError, utc_now
from ....core.runs.loading import FileError
from .host import WorkerHost

if TYPE_CHECKING:
    from ....core.analysis.baseline import Baseline, Offer


class BaselineLoaded(Message):
    def __init__(self, baseline: Baseline, warnings: list[str]) -> None:
        super().__init__()
        self.baseline = baseline
        self.warnings = warnings


class BaselineFailed(Message):
    def __init__(self, reason: str) -> None:
        super().__init__()
        self.reason = reason


LISTED = 10  # run ids named in the dialog that offers the baseline's labels


def is_baseline_view(view: str) -> bool:
    return view in BASELINE_VIEW_BY_NAME


class BaselineHost(WorkerHost, Protocol):
    """What the baseline uses of the review screen, beyond `WorkerHost`."""

    def show_again(self) -> None:
        """Filter again and show the table, summary and detail anew."""
        ...


class BaselineActions:
    """The review screen's baseline: loading it, its views, applying the labels it offers."""

    def __init__(self, screen: BaselineHost, path: str | None) -> None:
        self.screen = screen
        self.path = path  # `--baseline OLD`, or None
        self.baseline: Baseline | None = None

    def load(self) -> None:
        """Start loading the baseline, if there is one (the runs under review are in)."""
        screen, review = self.screen, self.screen.review
        if self.path is None or review is None:
            return
        from ....core.analysis.baseline import open_baseline  # loaded only with --baseline

        path, store = self.path, screen.store

        def load_in_thread() -> None:
            try:
                opened = open_baseline(path, store, review.is_reviewed, review.label, store.field_map)
            except (FileError, JournalError, OSError) as exc:
                screen.post_message(BaselineFailed(str(exc)))
                return
            screen.post_message(BaselineLoaded(*opened))

        screen.run_worker(load_in_thread, thread=True, exclusive=True, group="baseline")

    def loaded(self, event: BaselineLoaded) -> None:
        screen = self.screen
        baseline = self.baseline = event.baseline
        screen.table.show_was(baseline.was)
        comparison = baseline.comparison
        screen.tell(
            f"{baseline.name}: {comparison.joined} runs joined by id, {len(comparison.fixed)} fixed, "
            f"{len(comparison.regressed)} regressed, {len(comparison.only_new)} new, "
            f"{len(comparison.not_comparable)} not comparable. Views: ~ changed, + fixed, - regressed.",
            title="Baseline",
            timeout=10,
        )
        if baseline.offers:
            runs = "run that is" if len(baseline.offers) == 1 else "runs that are"
            screen.tell(
                f"The baseline's review labelled {len(baseline.offers)} {runs} "
                "unchanged here and not reviewed yet. Press O to see and apply its labels.",
                title="Labels offered",
                timeout=20,
            )
        for warning in event.warnings:
            screen.tell(warning, title="Baseline", severity="warning", timeout=20)
        screen.show_again()

    def failed(self, event: BaselineFailed) -> None:
        self.screen.tell(event.reason, title="Cannot open the baseline", severity="error", timeout=30)

    def content(self, row: int | None) -> Any:
        """The detail's before-and-after block of `row` (None without a baseline)."""
        if self.baseline is None or row is None:
            return None
        from ...widgets.detail.baseline_diff import baseline_diff  # loaded with the baseline

        return baseline_diff(self.baseline, self.screen.store, self.screen.review, row)

    def ready(self, view: str) -> bool:
        """Whether a baseline view can be shown now; says why not."""
        if self.baseline is not None:
            return True
        if self.path is None:
            self.screen.tell(f"The {view} view compares with a baseline: open with --baseline OLD_FILE.")
        else:
            self.screen.tell("Still loading the baseline.")
        return False

    def open_offers(self) -> dict[int, Offer]:
        """The offers still open: for runs nobody has labelled here since."""
        review = self.screen.review
        if self.baseline is None or review is None:
            return {}
        offers = self.baseline.offers.items()
        return {row: offer for row, offer in offers if not review.is_reviewed(row)}

    def apply_offered(self) -> None:
        """Ask, then apply the labels the baseline's review offers."""
        from ..confirm import ConfirmDialog

        if not self.ready("labels offered"):
            return
        offers = self.open_offers()
        if not offers:
            self.screen.tell(
                "No labels offered: no run the baseline's review labelled is unchanged and unlabelled here."
            )
            return
        correct = sum(offer.label for offer in offers.values())
        runs = "run" if len(offers) == 1 else "runs"
        ids = ", ".join(visible(self.screen.store.ids[row]) for row in sorted(offers)[:LISTED])
        more = f" and {len(offers) - LISTED} more" if len(offers) > LISTED else ""

        def answered(apply: bool | None) -> None:
            if apply:
                self._apply(offers)

        self.screen.app.clear_notifications()  # the baseline's notices would sit over the dialog's keys
        self.screen.app.push_screen(
            ConfirmDialog(
                f"The baseline's review labelled {len(offers)} {runs} whose question, answer, required "
                f"and context are unchanged here ({ids}{more}): {correct} correct, "
                f"{len(offers) - correct} incorrect. Apply these labels, with their notes and tags, "
                "under the names of the reviewers who gave them (each is journaled)?",
                yes="Apply them",
                no="Not now",
            ),
            answered,
        )

    def _apply(self, offers: dict[int, Offer]) -> None:
        """Journal each offered review as it was: every reviewer's label, note and tags
        under that reviewer's name, and the adjudication."""
        screen, review = self.screen, self.screen.review
        assert review is not None
        applied, now = 0, utc_now()
        for row, offer in sorted(offers.items()):
            try:
                for entry in offer.records(screen.store.ids[row], review.digest_of(row), now):
                    review.edits.adopt(row, entry)
            except JournalError as exc:
                screen.tell(
                    f"{exc}. {applied} labels applied; the rest were not.",
                    title="NOT SAVED",
                    severity="error",
                    timeout=30,
                )
                break
            applied += 1
        screen.show_again()
        screen.tell(f"Applied {applied} labels from the baseline's review.", title="Labels offered")
