"""AdjudicateDialog: set a run's final label over its reviewers' labels, after a look at them.

Dismisses with the chosen label (True, False), "withdraw" to take an adjudication
back, or None (cancelled). Every reviewer's label is shown, so the adjudicator
confirms knowing what they overrule.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, Literal

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from ....core.common.text import visible
from ...typeahead import focus_now
from ...widgets.detail.reviewers import when
from ...widgets.stages import CONFLICT_MARK, label_word
from ...widgets.text_keys import InOrderButton

if TYPE_CHECKING:
    from ....core.review.state import Review
    from .host import ReviewHost
    from .labelling import Labelling

Decision = bool | Literal["withdraw"] | None


class AdjudicateDialog(ModalScreen[Decision]):
    """Ask which label is final: correct, incorrect, (withdraw), or cancel."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel"),
        Binding("y", "decide(True)", "Correct", show=False),
        Binding("n", "decide(False)", "Incorrect", show=False),
    ]

    def __init__(self, question: Content, adjudicated: bool) -> None:
        super().__init__(classes="dialog")
        self.question = question
        self.adjudicated = adjudicated

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog-box"):
            yield Static("Adjudicate: set the final label", classes="dialog-title", markup=False)
            yield Static(self.question, classes="dialog-text", markup=False)
            with Horizontal(classes="dialog-buttons"):
                yield InOrderButton("Correct (y)", variant="success", id="correct")
                yield InOrderButton("Incorrect (n)", variant="error", id="incorrect")
                if self.adjudicated:
                    yield InOrderButton("Withdraw", variant="warning", id="withdraw")
                yield InOrderButton("Cancel", variant="primary", id="cancel")

    def on_mount(self) -> None:
        focus_now(self.query_one("#cancel", Button))

    @on(Button.Pressed, "#correct")
    def _correct(self) -> None:
        self.dismiss(True)

    @on(Button.Pressed, "#incorrect")
    def _incorrect(self) -> None:
        self.dismiss(False)

    @on(Button.Pressed, "#withdraw")
    def _withdraw(self) -> None:
        self.dismiss("withdraw")

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        self.dismiss(None)

    def action_decide(self, label: bool) -> None:
        self.dismiss(label)


def adjudication_question(review: Review, row: int) -> Content:
    """What the adjudicator overrules: every reviewer's label, the file's, and any earlier verdict."""
    store = review.store
    lines = [Content.assemble("Run ", (visible(store.ids[row]) or "(no id)", "bold"))]
    if review.is_conflict(row):
        lines.append(Content(f"{CONFLICT_MARK} Its reviewers disagree:"))
    elif review.reviewers(row):
        lines.append(Content("Its reviewers say:"))
    else:
        lines.append(Content("No reviewer has labelled it yet."))
    for name, state in review.reviewers(row).items():
        if state.label is not None:
            lines.append(Content(f"  {visible(name)}: {label_word(state.label)}  ({when(state.at)})"))
    lines.append(Content(f"The file says: {label_word(review.file_label(row))}"))
    earlier = review.adjudication(row)
    if earlier is not None:
        lines.append(
            Content(
                f"Already adjudicated {label_word(earlier.label)} by {visible(earlier.reviewer)}, "
                f"{when(earlier.at)}."
            )
        )
    lines.append(
        Content(f"\nYour final label is journaled as an adjudication by {visible(review.reviewer)}.")
    )
    return Content("\n").join(lines)


def adjudicate(screen: ReviewHost, labelling: Labelling) -> None:
    """Ask for the final label of the run under the cursor, then journal it (J)."""
    row = labelling.editable_row()
    review = screen.review
    if row is None or review is None:
        return
    if not review.revealed(row):
        screen.tell("Blind mode: label this run yourself before adjudicating it.", severity="warning")
        return

    def decided(decision: Decision) -> None:
        if decision is None or screen.table.cursor_row != row:
            return
        label = None if decision == "withdraw" else decision
        labelling.change_run(lambda review, row: review.adjudicate(row, label))
        run = visible(screen.store.ids[row])
        verdict = "withdrawn" if label is None else label_word(label)
        screen.tell(f"Adjudicated {run}: {verdict}.", title="Adjudication")

    adjudicated = review.adjudication(row) is not None
    screen.app.push_screen(AdjudicateDialog(adjudication_question(review, row), adjudicated), decided)
