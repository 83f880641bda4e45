"""SampleDialog: draw a spot-check from the current view and filter.

Size (a number, or `auto` with a margin), a seed (a fresh random one by default;
the same seed draws the same runs again) and a name. Dismisses with (name, Sample),
or None. The draw is `core.sampling.draw_sample`'s, the very one `ragdiag-tui sample` uses:
the population and size are worked out at once, and the draw itself (a key per run: 0.7 s
over a million runs) runs in a worker thread, the dialog saying so, so the screen never
freezes; escape still cancels.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Set
from typing import ClassVar

from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Static
from textual.worker import Worker, WorkerState

from ...core.analysis.estimate import margin_problem
from ...core.analysis.sampling import (
    NOUNS,
    Sample,
    SampleError,
    default_name,
    draw_ids,
    population,
    sample_plan,
)
from ...core.analysis.spotcheck import earlier_rates
from ...core.analysis.strata import ALLOCATIONS
from ...core.analysis.stratify import StrataPlan, draw_stratified
from ...core.common.text import visible
from ...core.review.state import Review
from ...core.runs.store import RunStore
from ..typeahead import focus_now
from ..widgets.text_keys import InOrderButton, InOrderInput

SEED_RANGE = 1_000_000  # a fresh seed is a number short enough to write down


SHORT_SCREEN = 32  # lines below which the dialog's fields sit closer


class SampleDialog(ModalScreen[tuple[str, Sample] | None]):
    """Size or margin, seed and name of a new spot-check; enter draws, escape cancels."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]
    STRATA_HINT = "none, or a field, stage, tag:KEY"
    """What the Strata box takes (a dataset's takes no tag:KEY)."""

    def __init__(self, store: RunStore, review: Review, view: str, query: str, taken: Set[str]) -> None:
        super().__init__(classes="dialog")
        self.store, self.review, self.view, self.filter_text = store, review, view, query
        self.taken = taken
        self.population = self.count_population()
        self.drawing: tuple[str, int, int] | None = None
        """(name, seed, population) of the draw under way in a worker, if one is."""

    def count_population(self) -> int:
        """How many runs the view and filter hold (the dialog says it)."""
        return len(population(self.store, self.review, self.view, self.filter_text))

    @on(Input.Changed, "#sample-size")
    def _size_changed(self, event: Input.Changed) -> None:
        """The name a blank Name box will get follows the size typed (lucky-9, not lucky-50)."""
        size = event.value.strip()
        if size.isdigit():
            name = self.query_one("#sample-name", Input)
            name.placeholder = default_name(self.view, min(int(size), self.population))

    def compose(self) -> ComposeResult:
        noun = NOUNS.get(self.view, "runs")
        where = f" matching {visible(self.filter_text)!r}" if self.filter_text else ""
        with Vertical(classes="dialog-box", id="sample-box"):
            yield Static("Draw a spot-check", classes="dialog-title", markup=False)
            yield Static(
                f"From the {self.population:,} {noun}{where} (by the file's own labels).",
                classes="dialog-text",
                markup=False,
            )
            with Horizontal(classes="form-row"):
                yield Static("Size", classes="form-label", markup=False)
                yield InOrderInput(str(min(50, self.population)), id="sample-size", compact=True)
            with Horizontal(classes="form-row"):
                yield Static("Margin", classes="form-label", markup=False)
                yield InOrderInput("0.05", id="sample-margin", compact=True)
            with Horizontal(classes="form-row"):
                yield Static("Strata", classes="form-label", markup=False)
                yield InOrderInput(placeholder=self.STRATA_HINT, id="sample-strata", compact=True)
            with Horizontal(classes="form-row"):
                yield Static("Allocation", classes="form-label", markup=False)
                yield InOrderInput("proportional", id="sample-allocation", compact=True)
            with Horizontal(classes="form-row"):
                yield Static("Seed", classes="form-label", markup=False)
                seed = random.SystemRandom().randrange(1, SEED_RANGE)
                yield InOrderInput(str(seed), id="sample-seed", compact=True)
            with Horizontal(classes="form-row"):
                yield Static("Name", classes="form-label", markup=False)
                yield InOrderInput(
                    placeholder=default_name(self.view, min(50, self.population)),
                    id="sample-name",
                    compact=True,
                )
            yield Static(
                "Size: a number, or auto for ±margin at 95%; with strata or auto, the labels may stop "
                "once the anytime interval is within ±margin. Allocation: proportional or neyman. "
                "Enter draws · escape cancels.",
                id="sample-error",
                classes="dialog-hint",
                markup=False,
            )
            with Horizontal(classes="dialog-buttons"):
                yield InOrderButton("Draw", variant="primary", id="draw")
                yield InOrderButton("Cancel", id="cancel")

    def on_mount(self) -> None:
        focus_now(self.query_one("#sample-size", Input))

    def on_resize(self, event: events.Resize) -> None:
        """On a short terminal (80x24) the fields sit closer, so the buttons stay on screen."""
        self.query_one("#sample-box").set_class(event.size.height < SHORT_SCREEN, "-short")

    def _value(self, widget_id: str) -> str:
        return self.query_one(f"#{widget_id}", Input).value.strip()

    def _refuse(self, message: str) -> None:
        error = self.query_one("#sample-error", Static)
        error.update(message)
        error.add_class("-error")

    @on(Input.Submitted)
    @on(Button.Pressed, "#draw")
    def action_draw(self) -> None:
        if self.drawing is not None:
            return  # one draw at a time: a second enter while it runs changes nothing
        size_text = self._value("sample-size").lower()
        size: int | str
        try:
            size = "auto" if size_text == "auto" else int(size_text)
            margin = float(self._value("sample-margin") or "0.05")
            seed = int(self._value("sample-seed"))
        except ValueError:
            self._refuse("Size is a whole number or auto, margin a number such as 0.05, seed a whole number.")
            return
        problem = margin_problem(margin)
        if problem:
            self._refuse(f"{problem[0].upper()}{problem[1:]}.")
            return
        strata = self._value("sample-strata")
        if strata:
            self._start_stratified(size, margin, seed, strata)
            return
        self._start_plain(size, margin, seed)

    def _start_plain(self, size: int | str, margin: float, seed: int) -> None:
        """A draw of `size` runs (or auto for ±`margin`) of the view and filter, by `seed`."""
        try:
            rows, count = sample_plan(self.store, self.review, self.view, size, self.filter_text, margin)
        except SampleError as exc:
            self._refuse(str(exc))
            return
        if count < 0:
            self._refuse(f"The sample size must be 0 or more, got {count}.")
            return
        if not rows or count == 0:
            self._refuse("Nothing to draw: the view and filter hold no runs.")
            return
        name = self._value("sample-name") or default_name(self.view, min(count, len(rows)))
        if name in self.taken:
            self._refuse(f"A spot-check named {visible(name)!r} exists; give this one another name.")
            return
        self._start_draw(name, seed, rows, count, margin if size == "auto" else None)

    def _start_stratified(self, size: int | str, margin: float, seed: int, by: str) -> None:
        """A stratified draw (core.stratify), priors for Neyman from an earlier spot-check of
        the view and field; it may stop at the margin."""
        planned = self._strata_plan(size, margin, by)
        if planned is None:
            return
        name, plan = planned
        review, view, query = self.review, self.view, self.filter_text
        self._begin(name, seed, lambda: draw_stratified(review, view, size, seed, plan, query))

    def _strata_plan(self, size: int | str, margin: float, by: str) -> tuple[str, StrataPlan] | None:
        """The stratified draw's name and plan from the form, or None (the reason shown)."""
        allocation = self._value("sample-allocation").lower() or "proportional"
        if allocation not in ALLOCATIONS:
            self._refuse(f"Allocation is one of {', '.join(ALLOCATIONS)}.")
            return None
        if not self.population:
            self._refuse("Nothing to draw: the view and filter hold no runs.")
            return None
        sizes = f"{size}" if size != "auto" else "auto"
        name = self._value("sample-name") or f"{self.view}-{sizes}-by-{by}"
        if name in self.taken:
            self._refuse(f"A spot-check named {visible(name)!r} exists; give this one another name.")
            return None
        priors = earlier_rates(self.review, self.view, by) if allocation == "neyman" else None
        return name, StrataPlan(by, allocation, priors, margin)

    @property
    def working(self) -> bool:
        """A draw is under way (the keys typed after enter wait for it: ui/typeahead.py)."""
        return self.drawing is not None

    def _start_draw(self, name: str, seed: int, rows: list[int], count: int, margin: float | None) -> None:
        store, view, query, size = self.store, self.view, self.filter_text, len(rows)

        def draw() -> Sample:
            return Sample(view, query, seed, size, tuple(draw_ids(store, rows, count, seed)), margin=margin)

        self._begin(name, seed, draw, f"Drawing {min(count, size):,} of {size:,}… escape cancels.")

    def _begin(self, name: str, seed: int, draw: Callable[[], Sample], told: str = "Drawing…") -> None:
        """The draw under way in a worker thread, the dialog saying so."""
        self.drawing = (name, seed, self.population)
        self.query_one("#draw", Button).disabled = True
        hint = self.query_one("#sample-error", Static)
        hint.remove_class("-error")
        hint.update(told)
        self.run_worker(draw, thread=True, group="draw")

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.worker.group != "draw" or self.drawing is None:
            return
        name = self.drawing[0]
        if event.state == WorkerState.SUCCESS and isinstance(event.worker.result, Sample):
            self.dismiss((name, event.worker.result))
        elif event.state in (WorkerState.ERROR, WorkerState.CANCELLED):
            self.drawing = None
            self.query_one("#draw", Button).disabled = False
            self._refuse(f"The draw failed: {event.worker.error or 'cancelled'}")

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        self.dismiss(None)
