"""How far the engine's counting of a dataset read in place has come, for the screens that
show its figures: the review screen's summary counts it (review/in_place.py, in a worker),
and the statistics screen, opened meanwhile, says its figures are being counted and fills
them in when they come, instead of showing zeros; its most-missed documents by the labels in
force are found in a worker of its own (`find_documents`)."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from textual.screen import Screen


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


def find_documents(
    screen: Screen[Any], store: Any, top: int, found: Callable[[list[tuple[str, int]]], None]
) -> None:
    """The `top` most-missed documents of a dataset (`store`, counted) by the labels in force
    (core.analysis.source_missed): the engine's at once when the review's labels change what no
    run misses, else asked of the engine again in a worker; `found(documents)` on the main
    thread, or a notice why not."""
    from ...core.analysis.source_missed import missed_change, review_missed

    change = missed_change(store.missing_changed())  # the review's few runs, on the main thread
    if not change:
        found(store.missed_documents().most_common())
        return
    source = store.source

    def work() -> None:
        try:
            documents = review_missed(source, change, top)
        except Exception as exc:  # any engine failure is a notice, not a crash
            with contextlib.suppress(RuntimeError):
                screen.app.call_from_thread(
                    screen.notify, f"The most-missed documents could not be found: {exc}", severity="error",
                    markup=False,
                )  # fmt: skip
            return
        with contextlib.suppress(RuntimeError):  # the app has already gone
            screen.app.call_from_thread(found, documents)

    screen.run_worker(work, name="missed", group="missed", exclusive=True, thread=True)
