"""The spot-check dialog (`D`) over a dataset read in place: the same form as over a run
file, the draw made by the dataset's engine (`sample DATASET`'s, by the one hash
definition, keyed by the dataset's run ids) in a worker, from a view the engine knows
(every run, a stage, the lucky answers) narrowed by `FIELD:VALUE` terms; stratified by a
field or the stage as `sample DATASET --strata` draws it."""

from __future__ import annotations

from collections.abc import Set
from typing import Any

from ...core.analysis.sampling import default_name
from ...core.common.text import visible
from ...core.review.state import Review
from .sample import SampleDialog


class DatasetSampleDialog(SampleDialog):
    """`SampleDialog` whose draw asks the dataset's source (`draw_sample`); `shown` is how many
    runs the table shows for the view and filter (the population is the engine's count)."""

    STRATA_HINT = "none, or a field, stage"

    def __init__(
        self, store: Any, review: Review, view: str, query: str, taken: Set[str], shown: int
    ) -> None:
        self._shown = shown
        super().__init__(store, review, view, query, taken)

    def count_population(self) -> int:
        return self._shown

    def _start_plain(self, size: int | str, margin: float, seed: int) -> None:
        planned = size if isinstance(size, int) else self.population
        name = self._value("sample-name") or default_name(self.view, min(planned, self.population))
        if name in self.taken:
            self._refuse(f"A spot-check named {visible(name)!r} exists; give this one another name.")
            return
        source, view, query = self.store.source, self.view, self.filter_text
        try:
            source.check_draw(view, query, size)
        except ValueError as exc:
            self._refuse(f"{exc}.")
            return
        self._begin(name, seed, lambda: source.draw_sample(view, query, size, margin, seed), "Drawing…")

    def _start_stratified(self, size: int | str, margin: float, seed: int, by: str) -> None:
        """Drawn as `sample DATASET --strata FIELD` draws it (engines' `strata`), sized as the
        form says; `tag:KEY` strata and what the engine cannot draw are refused before the scan."""
        planned = self._strata_plan(size, margin, by)
        if planned is None:
            return
        name, plan = planned
        source, view, query = self.store.source, self.view, self.filter_text
        try:
            source.check_draw(view, query, size, plan)
        except ValueError as exc:
            self._refuse(f"{exc}.")
            return
        draw = lambda: source.draw_stratified(view, query, size, margin, seed, plan)  # noqa: E731
        self._begin(name, seed, draw, "Drawing…")
