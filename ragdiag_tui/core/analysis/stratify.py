"""Stratified draws: a population split by a field, each stratum drawn by the one hash definition.

A run's stratum is the value of `by`:

- `stage`: the stage the file's own labels give it (as the sample views count);
- `tag:KEY`: `KEY` when the run's settled tags hold it, else `not KEY`;
- any other name: the run's field, a dotted path into nested objects as `--map` reads it
  (`meta.source`), its text as the filter shows it; `(none)` where the run lacks it (or it is
  null, or a path meets something that is not an object). An invalid line is `(invalid)`.

Within each stratum the draw is `sampling.draw` (the n_h runs of smallest key): a stratum's
runs are those an unstratified draw of that stratum alone would give, by the one definition
every engine shares: DuckDB and Spark count the strata, size them (`strata_sizes`) and
record them (`stratified_record`) with these same functions.
A field's value is read from each run's own text (a JSON decode a run: about a second a
million runs). The sample's ids are served interleaved (`serving_order`):
after any number of labels, each stratum's share stays within one run of its allocation.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

import msgspec

from ..common.jsonutil import decode, field_text
from ..review.records import Strata, Stratum
from ..review.state import Review
from ..runs.stages import (
    S_GENERATION,
    S_INVALID,
    S_LABEL_ERROR,
    S_PASS,
    S_RETRIEVAL,
    S_UNRESOLVED,
    STAGE_NAMES,
)
from ..runs.store import L_NONE, L_TRUE, RunStore
from .sampling import Sample, SampleError, draw_ids, sample_plan
from .strata import AllocationError, allocate, plan_sizes

ABSENT = "(none)"
INVALID = "(invalid)"
T = TypeVar("T")


def stratum_of(by: str, review: Review) -> Callable[[int], str]:
    """A function of a row giving its stratum's name under `by` (see the module)."""
    store = review.store
    if by == "stage":
        return lambda row: file_stage(store, row)
    if by.startswith("tag:"):
        key = by[4:]
        return lambda row: key if key in review.team.settled_tags(row) else f"not {key}"
    read = field_stratum(by)
    return lambda row: INVALID if row in store.errors else read(store.raw_text(row))


def field_stratum(by: str) -> Callable[[bytes], str]:
    """A function of a run's JSON text giving its stratum under the field `by` (a dotted
    path; see the module), the same for a run file's rows and a dataset's runs. It decodes
    that field alone where it can (msgspec); the whole run (`stratum_text`, numbers as the
    store reads them) for a number, list or object, or a key named like the whole path."""
    keys = tuple(by.split("."))

    def slowly(raw: bytes) -> str:
        return stratum_text(decode(raw.decode("utf-8", "surrogatepass")), by)

    first = _first_key_reader(keys[0])
    texts: dict[bytes, str] = {}

    def value(raw: bytes) -> str:
        if by != keys[0] and by.encode() in raw:  # a key named like the whole path: read exactly
            return slowly(raw)
        try:
            found = first(raw)
        except msgspec.MsgspecError:  # NaN elsewhere in the run, say
            return slowly(raw)
        if found is None:
            return ABSENT
        data = bytes(found)
        text = texts.get(data)
        if text is None:
            leaf = _leaf(msgspec.json.decode(data), keys[1:])
            if not isinstance(leaf, str):  # a number, list or object: as the whole run reads it
                return slowly(raw)
            text = texts[data] = leaf
        return text

    return value


def _leaf(value: Any, keys: Sequence[str]) -> Any:
    """The value down `keys` of nested objects; None where one is absent or not an object."""
    for key in keys:
        if not isinstance(value, dict):
            return None
        value = value.get(key)
    return value


def _first_key_reader(name: str) -> Callable[[bytes], Any]:
    """The raw JSON of a run's top-level field `name` (None when absent), decoding that alone."""
    one_field = msgspec.defstruct(
        "StratumField",
        [("value", msgspec.Raw | msgspec.UnsetType, msgspec.UNSET)],  # type: ignore[arg-type]
        rename={"value": name},
    )
    decode = msgspec.json.Decoder(one_field).decode

    def read(raw: bytes) -> Any:
        found = decode(raw).value
        return None if found is msgspec.UNSET or bytes(found) == b"null" else found

    return read


def file_stage(store: RunStore, row: int) -> str:
    """The stage the file's own labels give a row (a review changes labels, not IDs)."""
    stage = store.stage[row]
    if stage in (S_INVALID, S_UNRESOLVED):
        return STAGE_NAMES[stage]
    label = store.file_label[row]
    if label == L_NONE:
        return STAGE_NAMES[S_LABEL_ERROR]
    if row in store.missing:
        return STAGE_NAMES[S_RETRIEVAL]
    return STAGE_NAMES[S_PASS if label == L_TRUE else S_GENERATION]


def walk(obj: Any, path: str, keys: Sequence[str]) -> Any:
    """The value at a dotted `path` of `obj` (the whole path as one key first, as `--map`
    reads it); None where it is absent, null, or the path meets a non-object."""
    if isinstance(obj, dict) and path in obj:
        return obj[path]
    for key in keys:
        if not isinstance(obj, dict):
            return None
        obj = obj.get(key)
    return obj


def stratum_text(obj: Any, by: str) -> str:
    """The stratum of a run object under a field `by`: its text at the dotted path (`walk`),
    as the filter shows it; ABSENT where there is none."""
    found = walk(obj, by, tuple(by.split(".")))
    return ABSENT if found is None else field_text(found)


def split(rows: Sequence[int], stratum: Callable[[int], str]) -> dict[str, list[int]]:
    """The rows of each stratum in file order; strata in order of first appearance."""
    strata: dict[str, list[int]] = {}
    for row in rows:
        strata.setdefault(stratum(row), []).append(row)
    return strata


def serving_order(drawn: Mapping[str, Sequence[T]]) -> list[T]:
    """The strata's ids interleaved so that after k labels each stratum has had about
    k * n_h / n of them (the stratum furthest behind its share next; ties in strata order)."""
    total = sum(len(ids) for ids in drawn.values())
    taken = dict.fromkeys(drawn, 0)
    order: list[T] = []
    for _ in range(total):
        name = min(
            (name for name, ids in drawn.items() if taken[name] < len(ids)),
            key=lambda name: (taken[name] + 0.5) / len(drawn[name]),
        )
        order.append(drawn[name][taken[name]])
        taken[name] += 1
    return order


@dataclass(frozen=True, slots=True)
class StrataPlan:
    """How to stratify a draw: the field, the allocation, the priors and the margin."""

    by: str
    allocation: str = "proportional"
    priors: Mapping[str, float] | None = None
    margin: float | None = None


def draw_stratified(
    review: Review, view: str, n: int | str, seed: int, plan: StrataPlan, query: str = ""
) -> Sample:
    """A stratified sample of `view` narrowed by `query` (see `strata_sizes`). Raises
    SampleError when it cannot be drawn."""
    store = review.store
    rows, _ = sample_plan(store, review, view, 0, query)
    groups = split(rows, stratum_of(plan.by, review))
    populations = {name: len(members) for name, members in groups.items()}
    sizes = strata_sizes(populations, n, plan)
    drawn = {name: draw_ids(store, members, sizes[name], seed) for name, members in groups.items()}
    record, ids = stratified_record(plan, populations, drawn)
    return Sample(view, query, seed, len(rows), ids, record, plan.margin)


def strata_sizes(populations: Mapping[str, int], n: int | str, plan: StrataPlan) -> dict[str, int]:
    """How many runs to draw from each stratum of these populations: `n` runs allocated over
    them (`strata.allocate`), or with n == "auto" the sizes planned for +-margin on the
    combined interval (`strata.plan_sizes`). Raises SampleError when they cannot be sized."""
    if plan.priors and not set(plan.priors) & set(populations):  # a typo, or another field's strata
        named = ", ".join(repr(name) for name in list(populations)[:8])
        raise SampleError(f"no --prior names a stratum of {plan.by} (its strata: {named})")
    try:
        if n == "auto":
            return plan_sizes(populations, plan.margin or 0.05, plan.allocation, plan.priors)
        if isinstance(n, int) and not isinstance(n, bool) and n >= 0:
            return allocate(populations, min(n, sum(populations.values())), plan.allocation, plan.priors)
        raise SampleError(f"the sample size is a whole number or 'auto', got {n!r}")
    except AllocationError as exc:
        raise SampleError(str(exc)) from exc


def stratified_record(
    plan: StrataPlan, populations: Mapping[str, int], drawn: Mapping[str, Sequence[str]]
) -> tuple[Strata, tuple[str, ...]]:
    """The spot-check's strata (in the order of `populations`: first appearance) and the
    sample's ids as served (`serving_order`), from each stratum's ids drawn in key order."""
    strata = tuple(Stratum(name, populations[name], tuple(drawn.get(name, ()))) for name in populations)
    return Strata(plan.by, plan.allocation, strata), tuple(serving_order(drawn))
