"""Records a review holds aside instead of applying: stale and orphan records.

A record written against another version of its run (its digest differs from the
run's text now) is *stale*: never applied silently, it waits until the reviewer
re-applies or drops it. A record naming a run that is not (or no longer validly)
in the file is an *orphan*: kept, so it is written back with the review, never
applied. Both are held as the latest record per (kind, run, reviewer), by `at`
(ties: the one held later).
"""

from __future__ import annotations

from .records import Entry, when_written

Key = tuple[str, str, str]  # (kind, run, reviewer)


def key(entry: Entry) -> Key:
    """What a later record of the same kind, run and reviewer replaces."""
    return entry.kind, entry.run, entry.reviewer


class HeldRecords:
    """The stale and the orphan records of one review, latest per (kind, run, reviewer)."""

    def __init__(self) -> None:
        self._stale: dict[Key, Entry] = {}
        self._orphans: dict[Key, Entry] = {}

    @property
    def stale(self) -> list[Entry]:
        """The stale records held."""
        return list(self._stale.values())

    @property
    def orphans(self) -> list[Entry]:
        """The orphan records held."""
        return list(self._orphans.values())

    def stale_rows(self, row_of: dict[str, int]) -> list[int]:
        """The rows that have stale records, in file order."""
        return sorted({row_of[entry.run] for entry in self._stale.values() if entry.run in row_of})

    def stale_digests(self, run: str) -> list[str]:
        """The digests a run's stale records were made against, each once."""
        return list(dict.fromkeys(entry.digest for entry in self._stale.values() if entry.run == run))

    def hold_stale(self, entry: Entry) -> None:
        _keep_latest(self._stale, entry)

    def hold_orphan(self, entry: Entry) -> None:
        _keep_latest(self._orphans, entry)

    def release(self, entry: Entry) -> None:
        """Forget the stale record `entry` supersedes (a current one no older, or itself re-applied)."""
        held = self._stale.get(key(entry))
        if held is not None and when_written(held.at) <= when_written(entry.at):
            del self._stale[key(entry)]

    def drop(self, run: str, run_digest: str) -> None:
        """Forget the stale records of `run` made against `run_digest`."""
        for held, entry in list(self._stale.items()):
            if entry.run == run and entry.digest == run_digest:
                del self._stale[held]

    def records(self) -> list[Entry]:
        """Every record held: the stale, then the orphans."""
        return [*self._stale.values(), *self._orphans.values()]


def _keep_latest(held: dict[Key, Entry], entry: Entry) -> None:
    """Hold `entry` unless the record held for its key is later (by `at`)."""
    old = held.get(key(entry))
    if old is None or when_written(old.at) <= when_written(entry.at):
        held[key(entry)] = entry
