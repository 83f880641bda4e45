"""Spot-check samples: a population of runs, and a seeded draw from it.

The population of a view is its rows in file order, narrowed by the filter text
(the table's filter: plain text over the id, question and document IDs, `is:VIEW`,
`FIELD:VALUE` over a top-level field of the run). The stage views and
**lucky** are taken from the *file's own labels* (the diagnosis the file gives
before any review), so a population does not shrink or grow as reviewers overturn
labels: a lucky answer a reviewer relabels incorrect is still one of the lucky
answers sampled from. `reviewed` and `unreviewed` are, by their nature, the
review's state when the sample is drawn.

The draw is exactly

    random.Random(seed).sample(population_ids_in_file_order, n)

with `n` capped at the population, so the same file, view, filter, n and seed give
the same run ids, in the same order, on any machine and Python 3 version (the
sampling algorithm of `random.sample` and the Mersenne Twister seeded from an int
are stable across versions).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..review.state import Review
from ..runs.store import L_FALSE, L_NONE, L_TRUE, S_INVALID, S_UNRESOLVED, RunStore
from .estimate import auto_size
from .filtering import VIEW_BY_NAME, filter_rows, rows_with_stage, view_rows

SAMPLE_VIEWS = tuple(name for name in VIEW_BY_NAME if name != "conflicts")
"""The view names a sample may be drawn from, as the command line spells them. Not the
conflicts view: a conflict is settled by adjudication, every one of them, not sampled."""

NOUNS = {
    "all": "runs",
    "retrieval": "retrieval failures",
    "generation": "generation failures",
    "pass": "passing runs",
    "unresolved": "unresolved runs",
    "answer-label": "runs without a label",
    "invalid": "invalid lines",
    "lucky": "lucky answers",
    "unreviewed": "unreviewed runs",
    "reviewed": "reviewed runs",
}
"""How a sentence names the runs of each view ("... of lucky answers")."""


class SampleError(ValueError):
    """A sample that cannot be drawn (an unknown view, a bad size). The message says why."""


def _file_stage_rows(store: RunStore, view: str) -> list[int]:
    """The rows the file's own labels put in a stage view (or lucky), in file order.

    A review only ever changes a run's label, and the rule's missing IDs do not depend
    on a boolean label, so the file's stage follows from its label byte, the required
    count and whether IDs are missing.
    """
    label, missing, n_required = store.file_label, store.missing, store.n_required
    if view == "lucky":
        return sorted(row for row in missing if label[row] == L_TRUE)
    if view == "retrieval":
        return sorted(row for row in missing if label[row] != L_NONE)
    if view in ("generation", "pass"):
        code = L_FALSE if view == "generation" else L_TRUE
        return [row for row in rows_with_stage(label, code) if n_required[row] and row not in missing]
    if view == "answer-label":
        stage = store.stage
        return [row for row in rows_with_stage(label, L_NONE) if n_required[row] and stage[row] != S_INVALID]
    if view == "unresolved":  # the rule says unresolved before it reads a label
        return rows_with_stage(store.stage, S_UNRESOLVED)
    raise SampleError(f"unknown view: {view}")


def population(store: RunStore, review: Review, view: str, query: str = "") -> list[int]:
    """The rows a sample of `view` is drawn from, in file order, narrowed by `query`.

    Stage views and lucky by the file's labels (see the module's docstring);
    `all`, `invalid`, `reviewed` and `unreviewed` as the app's views give them.
    `query` is the app's filter text (`filtering.parse_query`): plain text over the
    id, question and document IDs, `is:VIEW` and `FIELD:VALUE` terms.
    """
    if view not in VIEW_BY_NAME:
        raise SampleError(f"unknown view '{view}'; choose one of {', '.join(SAMPLE_VIEWS)}")
    if view == "all":
        return filter_rows(store, review, "all", query)
    if view in ("invalid", "reviewed", "unreviewed"):
        rows = view_rows(store, review, view)
    else:
        rows = _file_stage_rows(store, view)
    return filter_rows(store, review, "all", query, within=rows) if query else rows


def population_ids(store: RunStore, rows: Sequence[int]) -> list[str]:
    """The run ids of population rows. An invalid line is not a run: it is named
    `line N` (its id, if any, may be a valid run's, as with a repeated id)."""
    ids, errors, lines = store.ids, store.errors, store.lines
    return [f"line {lines[row]}" if row in errors else ids[row] for row in rows]


def draw(population_ids: Sequence[str], n: int, seed: int) -> list[str]:
    """`random.Random(seed).sample(population_ids, n)`; the whole population, shuffled
    the same way, when `n` is larger than it."""
    if n < 0:
        raise SampleError(f"the sample size must be 0 or more, got {n}")
    return random.Random(seed).sample(population_ids, min(n, len(population_ids)))


def draw_ids(store: RunStore, rows: Sequence[int], n: int, seed: int) -> list[str]:
    """`draw(population_ids(store, rows), n, seed)` without building every id first.

    `random.sample` chooses positions from the population's length and the generator
    alone, so drawing rows and naming the drawn rows gives the very same ids.
    """
    return population_ids(store, draw(rows, n, seed))  # type: ignore[arg-type]


def default_name(view: str, size: int) -> str:
    """A spot-check's name when none is given: `lucky-50`."""
    return f"{view}-{size}"


@dataclass(frozen=True, slots=True)
class Sample:
    """A drawn sample: what it was drawn from, with what seed, and the run ids in draw order."""

    view: str
    filter: str
    seed: int
    population: int
    ids: tuple[str, ...]

    def recorded_as(self, spot_check: Any) -> bool:
        """Whether a journaled spot-check (journal.SpotCheck) holds this very sample."""
        recorded = (spot_check.view, spot_check.filter, spot_check.seed, spot_check.population)
        return (
            recorded == (self.view, self.filter, self.seed, self.population)
            and tuple(spot_check.ids) == self.ids
        )


def draw_sample(
    store: RunStore,
    review: Review,
    view: str,
    n: int | str,
    seed: int,
    query: str = "",
    margin: float = 0.05,
) -> Sample:
    """Draw from the population of `view` narrowed by `query` (see `population`):
    `n` runs, or with n == "auto" the size `estimate.auto_size(population, margin)`.
    Raises SampleError for an unknown view or size."""
    rows = population(store, review, view, query)
    if n == "auto":
        size = auto_size(len(rows), margin)
    elif isinstance(n, int) and not isinstance(n, bool):
        size = n
    else:
        raise SampleError(f"the sample size is a whole number or 'auto', got {n!r}")
    return Sample(view, query, seed, len(rows), tuple(draw_ids(store, rows, size, seed)))
