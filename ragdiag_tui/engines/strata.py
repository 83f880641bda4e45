"""A stratified draw from a dataset (`sample --strata FIELD`), the same in both engines and
the same as the local path's (`core.analysis.stratify`), on the same runs.

A run's stratum is its stage word (`stage`) or its field's text read from the run's JSON
text by the local path's own function (`stratify.field_stratum`: a dotted path, `(none)`
where absent or null), never case-folded as `--filter` reads it. An invalid run is never in a
dataset's population, so no stratum is `(invalid)`; `tag:KEY` needs a review journal.

The engine gathers, per stratum, its population, where it first appears (file, line:
the strata in order of first appearance, as the local path lists them in file order)
and its candidates, the runs of smallest (key, file, line), at most `first_cap` of them.
The core sizes the strata (`stratify.strata_sizes`); each stratum's draw is its n_h
smallest keys (the one definition, `results.sample_key`), and the sample is served
interleaved (`stratify.stratified_record`). Only when `-n auto` plans a stratum larger
than the first cap does the engine read again for that stratum (`short`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..core.analysis.sampling import SampleError
from ..core.analysis.strata import MIN_PER_STRATUM
from ..core.analysis.stratify import (
    StrataPlan,
    field_stratum,
    serving_order,
    strata_sizes,
    stratified_record,
)
from ..core.review.records import Strata
from .results import MANY_RUNS, draw_size

STAGE = "stage"
TRIM_SLACK = 64
"""Candidates a stratum holds beyond twice its cap before they are cut back (amortised); small,
or many small strata would hold their whole populations."""


def check_strata(plan: StrataPlan) -> None:
    """Raise SampleError for strata a dataset cannot have: `tag:KEY` (no review journal)."""
    if plan.by.startswith("tag:"):
        raise SampleError(f"--strata {plan.by}: tag: strata need a run file and its review journal")


def stratum_reader(by: str) -> Callable[[str, bytes], str]:
    """A function of a run's (stage word, JSON text) giving its stratum: the stage, or the
    field's stratum read from the text as a run file's row is (`stratify.field_stratum`)."""
    if by == STAGE:
        return lambda stage, raw: stage
    read = field_stratum(by)
    return lambda stage, raw: read(raw)


def first_cap(n: int | str, margin: float) -> int:
    """The most runs any stratum can draw, known before counting: max(n, the per-stratum
    minimum) for a size; for `auto`, the unstratified plan's size, a first guess (`short`)."""
    if n == "auto":
        return draw_size("auto", MANY_RUNS, margin)
    return max(int(n), MIN_PER_STRATUM)


@dataclass
class StrataTally:
    """Per stratum: its population, its first (file, line), and its smallest candidates
    (tuples whose first three items are key, file, line)."""

    cap: int
    population: dict[str, int] = field(default_factory=dict)
    first: dict[str, tuple[Any, int]] = field(default_factory=dict)
    candidates: dict[str, list[Any]] = field(default_factory=dict)
    caps: dict[str, int] = field(default_factory=dict)  # a stratum read again for more than `cap`

    def cap_of(self, stratum: str) -> int:
        return self.caps.get(stratum, self.cap)

    def count(self, stratum: str, population: int, first: tuple[Any, int]) -> None:
        """`population` runs of `stratum`, the first of them at `first`."""
        self.population[stratum] = self.population.get(stratum, 0) + population
        if stratum not in self.first or first < self.first[stratum]:
            self.first[stratum] = first

    def add(self, stratum: str, candidate: Sequence[Any]) -> None:
        """One run of the population (counted) and its candidate."""
        self.count(stratum, 1, (candidate[1], candidate[2]))
        self.offer(stratum, [candidate])

    def offer(self, stratum: str, candidates: Sequence[Any]) -> None:
        """Candidates of `stratum`, kept when among its `cap_of` smallest."""
        held = self.candidates.setdefault(stratum, [])
        held.extend(candidates)
        if len(held) >= 2 * self.cap_of(stratum) + TRIM_SLACK:
            self.candidates[stratum] = self.smallest(stratum)

    def smallest(self, stratum: str, size: int | None = None) -> list[Any]:
        held = sorted(self.candidates.get(stratum, ()), key=lambda candidate: tuple(candidate[:3]))
        return held[: self.cap_of(stratum) if size is None else size]

    def populations(self) -> dict[str, int]:
        """Each stratum's population, in order of first appearance."""
        order = sorted(self.population, key=lambda stratum: self.first[stratum])
        return {stratum: self.population[stratum] for stratum in order}

    def sizes(self, n: int | str, plan: StrataPlan) -> dict[str, int]:
        """Each stratum's n_h, by the core (`stratify.strata_sizes`)."""
        return strata_sizes(self.populations(), n, plan)

    def short(self, sizes: dict[str, int]) -> dict[str, int]:
        """The strata planned larger than the candidates held (their caps set to the sizes):
        the engine reads them again, their candidates cleared."""
        short = {
            stratum: size
            for stratum, size in sizes.items()
            if size > self.cap_of(stratum) and self.population[stratum] > self.cap_of(stratum)
        }
        for stratum in short:
            self.candidates[stratum] = []
        self.caps.update(short)
        return short

    def drawn(self, sizes: dict[str, int], plan: StrataPlan) -> tuple[Strata, list[Any]]:
        """The strata record and the drawn candidates (key, file, line, run id, ...) as served,
        interleaved (`stratify.serving_order`)."""
        populations = self.populations()
        chosen = {stratum: self.smallest(stratum, sizes[stratum]) for stratum in populations}
        ids = {stratum: [candidate[3] for candidate in found] for stratum, found in chosen.items()}
        record, _ = stratified_record(plan, populations, ids)
        return record, serving_order(chosen)
