"""A dataset's most-missed documents by the labels in force (core.analysis.source_missed): the
source's counts by the files' labels with the review's re-diagnosed runs laid over them give the
list a count of every run as it is now gives, documents falling out of the top included."""

from __future__ import annotations

import random
from collections import Counter

from ragdiag_tui.core.analysis.source_missed import missed_change, review_missed
from ragdiag_tui.core.runs.row_source import RowWindow


class Source:
    """The files' missing IDs per row, and how often the engine was asked."""

    def __init__(self, missing: list[tuple[str, ...]]) -> None:
        self.missing = missing
        self.asked = 0

    def counts(self) -> Counter[str]:
        return Counter(doc for ids in self.missing for doc in ids)

    def window(self, start: int, stop: int) -> RowWindow:
        window = RowWindow(start, ids=[str(row) for row in range(start, stop)])
        window.missing = {row: self.missing[row] for row in range(start, stop) if self.missing[row]}
        return window

    def most_missed(self, top: int) -> list[tuple[str, int]]:
        self.asked += 1
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
        change = missed_change(source, changed)
        got = review_missed(source, change, top) if change else source.most_missed(top)
        assert got == expected


def test_runs_the_review_left_as_the_files_say_change_nothing_and_ask_the_engine_nothing() -> None:
    source = Source([("a",), (), ("a", "b")])
    assert not missed_change(source, {0: ("a",), 1: ()})
    assert source.asked == 0
    assert missed_change(source, {1: ("b",), 2: ()}) == Counter({"a": -1})  # b: one more, one fewer
