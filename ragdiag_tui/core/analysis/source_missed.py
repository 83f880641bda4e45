"""The most-missed documents of a dataset read in place (`core.runs.source_store`), by the
labels in force.

The engine counts the runs missing each document by the files' own labels. A label can change
what a run misses: the rule gives missing IDs before it looks at the label, except to a run
whose file has no boolean label (a label error), which a reviewer's label turns into a
retrieval failure missing its documents (or the reverse, a label taken back). So the review's
few re-diagnosed runs are compared with what the files say of them (kept by the store as each
was first changed), and only when that changes something is the engine asked again: for the counts of
the documents that changed, and for as many more of its top documents as could fall out of
the list. Each call asks the source, which reads every run: a worker's or the command's work.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any


def missed_change(changed: Iterable[tuple[Sequence[str], Sequence[str]]]) -> Counter[str]:
    """How many more (or fewer, negative) runs miss each document by the labels in force than
    by the files' own, from the runs a review re-diagnosed: (missing IDs by the files, by the
    labels in force) each (`SourceStore.missing_changed`)."""
    change: Counter[str] = Counter()
    for before, now in changed:
        change.subtract(before)
        change.update(now)
    return Counter({doc: runs for doc, runs in change.items() if runs})


def review_missed(source: Any, change: Counter[str], top: int) -> list[tuple[str, int]]:
    """The `top` documents most runs miss (id, runs), most first and ties by id, with `change`
    (`missed_change`) laid over the source's counts."""
    falling = sum(runs < 0 for runs in change.values())  # each may leave the top for the next one
    counts = dict(source.most_missed(top + falling))
    counts.update(source.missed_counts([doc for doc in change if doc not in counts]))
    for doc, runs in change.items():
        counts[doc] = counts.get(doc, 0) + runs
    return sorted(
        ((doc, runs) for doc, runs in counts.items() if runs > 0), key=lambda item: (-item[1], item[0])
    )[:top]
