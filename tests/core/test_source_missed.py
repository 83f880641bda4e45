"""A dataset's most-missed documents by the labels in force (core.analysis.source_missed): the
source's counts by the files' labels with the review's re-diagnosed runs laid over them give the
list a count of every run as it is now gives, documents falling out of the top included."""

from __future__ import annotations

import random
from collections import Counter

from ragdiag_tui.core.analysis.source_missed import missed_change, review_missed


class Source:
    """The files' missing IDs per row, as an engine counts them."""

    def __init__(self, missing: list[tuple[str, ...]]) -> None:
        self.missing = missing

    def counts(self) -> Counter[str]:
        return Counter(doc for ids in self.missing for doc in ids)

    def most_missed(self, top: int) -> list[tuple[str, int]]:
        return sorted(self.counts().items(), key=lambda item: (-item[1], item[0]))[:top]

    def missed_counts(self, docs: list[str]) -> dict[str, int]:
        counts = self.counts()
        return {doc: counts[doc] for doc in docs if counts[doc]}


def test_the_review_moves_the_most_missed_as_counting_every_run_now_does() -> None:
    rng = random.Random(41)
    docs = [f"doc-{n:02}" for n in range(30)]
    for _trial in range(200):
        files = [tuple(sorted(rng.sample(docs, rng.randint(0, 3)))) for _ in range(120)]
        source = Source(files)
        changed = {
            row: tuple(sorted(rng.sample(docs, rng.randint(0, 3)))) if rng.random() < 0.5 else files[row]
            for row in rng.sample(range(len(files)), 15)
        }
        now = [changed.get(row, ids) for row, ids in enumerate(files)]
        top = rng.choice([1, 3, 10])
        expected = Source(now).most_missed(top)
        change = missed_change((files[row], ids) for row, ids in changed.items())
        got = review_missed(source, change, top) if change else source.most_missed(top)
        assert got == expected


def test_a_change_is_what_the_runs_miss_now_less_what_the_files_say_they_miss() -> None:
    assert not missed_change([(("a",), ("a",)), ((), ())])
    assert missed_change([((), ("b",)), (("a", "b"), ())]) == Counter({"a": -1})  # b: one more, one fewer
