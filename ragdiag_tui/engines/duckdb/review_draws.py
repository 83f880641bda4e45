"""The spot-check draws of the review app over a dataset (`DatasetRows`), drawn as `sample
DATASET` draws them: the same runs, in every engine, by the files' own labels."""

from __future__ import annotations

from ...core.analysis.sampling import Sample
from ...core.analysis.stratify import StrataPlan
from ...core.runs.mapping import FieldMap
from ..dataset import Dataset
from ..results import check_draw, filter_words, parse_filters
from ..strata import check_strata
from .sample import draw_runs
from .stratified import stratified_draw


class DatasetDraws:
    """The draws of a dataset's review (mixed into `DatasetRows`)."""

    ds: Dataset
    field_map: FieldMap | None

    def check_draw(self, view: str, filter_text: str, n: int | str, strata: StrataPlan | None = None) -> None:
        """Raise ValueError for what `draw_sample` (with `strata`, `draw_stratified`) cannot
        draw, before its scan."""
        parse_filters(filter_text)
        check_draw(view, n)
        if strata is not None:
            check_strata(strata)

    def draw_sample(self, view: str, filter_text: str, n: int | str, margin: float, seed: int) -> Sample:
        """A spot-check drawn as `sample DATASET --view VIEW --filter TEXT -n N --seed S` draws
        it (by the files' own labels); ValueError (SampleError for a view) for what a dataset cannot
        draw from."""
        terms = parse_filters(filter_text)
        draw, drawn = draw_runs(
            self.ds, self.field_map, view=view, filters=terms, n=n, margin=margin, seed=seed
        )
        ids = tuple(run_id for _, _, _, run_id, _ in drawn)
        return Sample(
            view, filter_words(terms), seed, draw.population, ids, margin=margin if n == "auto" else None
        )

    def draw_stratified(
        self, view: str, filter_text: str, n: int | str, margin: float, seed: int, strata: StrataPlan
    ) -> Sample:
        """A stratified spot-check drawn as `sample DATASET --strata ...` draws it; SampleError
        for strata a dataset cannot have (`tag:KEY`)."""
        self.check_draw(view, filter_text, n, strata)
        terms = parse_filters(filter_text)
        draw, record, served = stratified_draw(
            self.ds, self.field_map, view=view, filters=terms, n=n, margin=margin, seed=seed, strata=strata
        )
        ids = tuple(candidate[3] for candidate in served)
        return Sample(view, filter_words(terms), seed, draw.population, ids, record, strata.margin)
