"""Spot-check samples: a population of runs, and a seeded draw from it.

The population of a view is its rows in file order, narrowed by the filter text
(the table's filter: plain text over the id, question and document IDs, `is:VIEW`,
`FIELD:VALUE` over a top-level field of the run). The stage views and
**lucky** are taken from the *file's own labels* (the diagnosis the file gives
before any review), so a population does not shrink or grow as reviewers overturn
labels: a lucky answer a reviewer relabels incorrect is still one of the lucky
answers sampled from. `reviewed` and `unreviewed` are, by their nature, the
review's state when the sample is drawn.

The draw is one definition, the same in every engine (the local path here, DuckDB,
Spark): each run of the population gets the key

    sha256(UTF-8 of str(seed) + "\x1f" + run id), as lowercase hex  (`sample_key`)

and the sample of size n is the n runs with the smallest keys, in ascending key order
(the whole population, in key order, when n is larger than it). A run keeps its key
whatever else is in the population and wherever it sits in the file, so the same
seed gives the same ids on any machine, in any file order, and the first k runs of a
sample of n are the sample of k. Two runs with one id (a repeated id) have one key:
the earlier in the file comes first. An invalid line is keyed by its name, `line N`.
A lone surrogate in an id (which UTF-8 cannot encode) is encoded as its three bytes,
as Python's `surrogatepass` does.

A spot-check already recorded keeps the ids it was recorded with: nothing is
re-drawn (earlier versions drew `random.Random(seed).sample(ids_in_file_order, n)`).
"""

from __future__ import annotations

import hashlib
import heapq
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import count
from typing import Any

from ..review.state import Review
from ..runs.store import L_FALSE, L_NONE, L_TRUE, S_INVALID, S_UNRESOLVED, RunStore
from .estimate import auto_size
from .filtering import filter_rows, rows_with_stage, view_rows
from .views import SAMPLE_VIEWS, VIEW_BY_NAME

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


def sample_key(seed: int, run_id: str) -> str:
    """A run's key in the draw of `seed`: `sha256(UTF-8 of str(seed) + "\x1f" + run_id)`,
    lowercase hex. The sample of size n is the n runs with the smallest keys."""
    return hashlib.sha256(_key_bytes(f"{seed}\x1f{run_id}")).hexdigest()


def _key_bytes(text: str) -> bytes:
    return text.encode("utf-8", "surrogatepass")


def _smallest(ids: Sequence[str], places: Iterable[int], n: int, seed: int) -> list[int]:
    """The indexes in `ids` of the n smallest keys, in key order; a tie (one id twice) goes
    to the smaller place in the file. Raw digests order as their lowercase hex does, and
    cost less to make and compare."""
    if n < 0:
        raise SampleError(f"the sample size must be 0 or more, got {n}")
    start = hashlib.sha256(_key_bytes(f"{seed}\x1f"))

    def digest(run_id: str, fresh: Any = start.copy) -> bytes:
        key = fresh()
        key.update(_key_bytes(run_id))
        return key.digest()

    keyed = zip(map(digest, ids), places, count())
    return [index for _, _, index in heapq.nsmallest(n, keyed)]


def draw(population_ids: Sequence[str], n: int, seed: int) -> list[str]:
    """The `n` ids with the smallest `sample_key(seed, id)`, in ascending key order (a
    repeated id: the earlier one first); the whole population, in key order, when `n` is
    larger than it."""
    return [population_ids[index] for index in _smallest(population_ids, count(), n, seed)]


def draw_ids(store: RunStore, rows: Sequence[int], n: int, seed: int) -> list[str]:
    """`draw(population_ids(store, rows), n, seed)`, a tie broken by the rows' places in
    the file whatever the order of `rows`."""
    ids = population_ids(store, rows)
    return [ids[index] for index in _smallest(ids, rows, n, seed)]


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
    strata: Any = None  # a stratified draw: its records.Strata (ids within `ids`, served interleaved)
    margin: float | None = None  # the +-margin planned for: sequential mode may stop there

    def recorded_as(self, spot_check: Any) -> bool:
        """Whether a journaled spot-check (journal.SpotCheck) holds this very sample."""
        recorded = (spot_check.view, spot_check.filter, spot_check.seed, spot_check.population)
        return (
            recorded == (self.view, self.filter, self.seed, self.population)
            and tuple(spot_check.ids) == self.ids
            and (spot_check.strata, spot_check.margin) == (self.strata, self.margin)
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
    rows, size = sample_plan(store, review, view, n, query, margin)
    return Sample(view, query, seed, len(rows), tuple(draw_ids(store, rows, size, seed)))


def sample_plan(
    store: RunStore, review: Review, view: str, n: int | str, query: str = "", margin: float = 0.05
) -> tuple[list[int], int]:
    """What `draw_sample` draws from and how many: the population's rows (`population`)
    and the size asked (`n`, or with n == "auto" `estimate.auto_size(population, margin)`).
    The draw itself (`draw_ids`) reads only the store's ids, so it can run off the UI's
    thread. Raises SampleError for an unknown view or size."""
    rows = population(store, review, view, query)
    if n == "auto":
        return rows, auto_size(len(rows), margin)
    if isinstance(n, int) and not isinstance(n, bool):
        return rows, n
    raise SampleError(f"the sample size is a whole number or 'auto', got {n!r}")
