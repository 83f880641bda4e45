"""Where a dataset's sample may be written (`sample DATASET -o SAMPLE`).

A dataset's sample is a JSON Lines run file with its spot-checks recorded in the journal
beside it. Writing one may replace only what it can account for:

- a file not there yet;
- a *sample file*: a run file whose every run is named by a spot-check recorded beside
  it (what an earlier `sample -o` wrote), and only when the new draw still holds every
  run those spot-checks name. Rewriting it with fewer runs would orphan them (their
  labels would name runs no longer in the file), so the draw is refused naming them.

Anything else there (a reviewed run file, a copy of the demo) is refused, `--replace`
or not: `--replace` replaces a spot-check's record, never a file that is not a sample.
The output is JSON Lines whatever it is named, so a name promising another format
(`.parquet`, `.csv`, `.json`) is refused too.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence

from ..review.records import SpotCheck
from ..review.state import open_review
from ..runs.mapping import FieldMap

OTHER_FORMATS = (".parquet", ".csv", ".tsv", ".json")


class SampleFileError(ValueError):
    """The sample may not be written to this path; the message names it and says why."""


def earlier_spot_checks(
    path: str, field_map: FieldMap | None = None, journal_spec: str | None = None
) -> dict[str, SpotCheck]:
    """The spot-checks recorded beside the sample file at `path` ({} when nothing is there).

    Raises SampleFileError when `path` names another format or holds a file that is not
    a sample file; loading.FileError or JournalError when the file or its journal cannot
    be read (going on could replace what cannot be accounted for).
    """
    suffix = os.path.splitext(path)[1].lower()
    if suffix in OTHER_FORMATS:
        raise SampleFileError(
            f"cannot write {path}: a sample is written as JSON Lines, not {suffix[1:]}; name a .jsonl file"
        )
    if not os.path.lexists(path):
        return {}
    review = open_review(path, field_map, journal_spec, writable=False)
    store, checks = review.store, review.spot_checks
    named = {run_id for check in checks.values() for run_id in check.runs}
    others = sum(1 for run_id in store.row_of if run_id not in named) + len(store.errors)
    if not checks or others:
        why = (
            "no spot-check is recorded beside it"
            if not checks
            else f"{others} of its runs are in no spot-check"
        )
        raise SampleFileError(
            f"cannot write {path}: it is not a sample file ({why}); choose another -o, a sample "
            "file is written only over a sample file"
        )
    return checks


def recorded_spot_checks(
    path: str, field_map: FieldMap | None = None, journal_spec: str | None = None
) -> dict[str, SpotCheck]:
    """The spot-checks the journal `journal_spec` holds, read beside the run file at `path`
    (a sample not yet published, when `--journal` names a journal that is already there)."""
    return open_review(path, field_map, journal_spec, writable=False).spot_checks


def orphaned(earlier: Mapping[str, SpotCheck], drawn: Sequence[str]) -> list[str]:
    """The earlier spot-checks (as `'name' (k of its n runs)`) whose runs `drawn` leaves out."""
    keep = set(drawn)
    lost = []
    for name, check in earlier.items():
        missing = sum(1 for run_id in check.runs if run_id not in keep)
        if missing:
            lost.append(f"'{name}' ({missing} of its {len(check.runs)} runs)")
    return lost
