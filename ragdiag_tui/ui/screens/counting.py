"""How far the engine's counting of a dataset read in place has come, for the screens that
show its figures: the review screen's summary counts it (review/in_place.py, in a worker),
and the statistics screen, opened meanwhile, says its figures are being counted and fills
them in when they come, instead of showing zeros."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field


@dataclass
class DatasetCounting:
    """The dataset's stage counts and lucky answers (`stages`), then its most-missed documents
    (`documents`): whether each is in, or the `problem` that stopped the count. Each watcher is
    called on the main thread when something comes in."""

    stages: bool = False
    documents: bool = False
    problem: str | None = None
    watchers: list[Callable[[], None]] = field(default_factory=list)

    @property
    def done(self) -> bool:
        """Nothing more will come: every figure is in, or the count failed."""
        return self.problem is not None or (self.stages and self.documents)

    def came(self, *, stages: bool = False, documents: bool = False, problem: str | None = None) -> None:
        """What just came in; the watchers are told."""
        self.stages = self.stages or stages
        self.documents = self.documents or documents
        self.problem = self.problem or problem
        for watcher in list(self.watchers):
            watcher()

    def watch(self, watcher: Callable[[], None]) -> None:
        self.watchers.append(watcher)

    def unwatch(self, watcher: Callable[[], None]) -> None:
        if watcher in self.watchers:
            self.watchers.remove(watcher)
