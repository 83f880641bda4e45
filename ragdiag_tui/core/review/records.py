"""The review's records, as every review store reads and writes them.

One JSON object per journal line (existing v1 lines stay valid):

    {"v":1,"run":ID,"label":true|false|null,"note":"...","tags":[...],"reviewer":"alice",
     "at":"2026-11-30T15:00:00.000000Z","digest":"<blake2b-8 of the run's raw text>"}

- `kind` absent (or "label"): that reviewer's WHOLE state of that run after a change
  (label, note, tags). The latest such record per (run, reviewer) BY `at` is that
  reviewer's state (ties: the later one in file order), wherever it sits in the file
  (a merged older journal puts nothing older back in force); other reviewers' records
  never overwrite it. `at` must be an ISO-8601 timestamp with a zone, else the line
  is refused.
- `"kind":"adjudication"`: the final label of a run whose reviewers disagree, set by
  `reviewer` (the adjudicator); label null withdraws it. The latest by `at` is in force.
- `"kind":"dismiss"`: `reviewer` dropped the stale records of `run` made against `digest`.
- `"kind":"spot-check"`: a named sample (name, view, filter, seed, population, size,
  ids, reviewer, at; no run). The latest record of a name wins.

The journal file (`core.review.journal`) and the PostgreSQL store
(`core.review.pgjournal`) both store these lines; `JournalError` is what either
raises when it cannot.
"""

from __future__ import annotations

import getpass
import hashlib
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from ..common.jsonutil import decode_standard, line_bytes
from ..common.text import plural

FORMAT_VERSION = 1

LABEL, ADJUDICATION, DISMISS, SPOT_CHECK = "label", "adjudication", "dismiss", "spot-check"
ENTRY_KINDS = (LABEL, ADJUDICATION, DISMISS)


class JournalError(Exception):
    """A journal could not be written or opened. The message names the file.

    `row` is set when a review change was kept in memory but not saved.
    """

    row: int | None = None


def default_reviewer() -> str:
    """The login name, the reviewer's name when none is given."""
    try:
        return getpass.getuser()
    except Exception:  # no login name in some containers
        return "reviewer"


def digest(raw_text: bytes) -> str:
    """A short fingerprint of a run's text, to notice runs changed since review."""
    return hashlib.blake2b(raw_text, digest_size=8).hexdigest()


def utc_now() -> str:
    """Now, as the journal writes times: `2026-11-30T15:00:00.000000Z`."""
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


_EARLIEST = datetime.min.replace(tzinfo=UTC)


def moment(at: str) -> datetime:
    """A record's `at` as a time to compare. Raises ValueError unless it is an ISO-8601
    timestamp with a zone (`2026-11-30T15:00:00Z`, `...+01:00`)."""
    try:
        when = datetime.fromisoformat(at)
    except (TypeError, ValueError):
        raise ValueError("at is not an ISO-8601 timestamp with a zone") from None
    if when.tzinfo is None:
        raise ValueError("at is not an ISO-8601 timestamp with a zone (it has none)")
    return when


def when_written(at: str) -> datetime:
    """`moment(at)`, or the earliest time for a record built in memory without a valid one
    (records read from a file always have one: `parse_record` refuses the others)."""
    try:
        return moment(at)
    except ValueError:
        return _EARLIEST


def later_than(latest: datetime | None) -> str:
    """Now, as `utc_now` writes it, or just after `latest` when that is not earlier than now
    (a clock behind another machine's): a new edit is always the latest record."""
    now = datetime.now(UTC)
    if latest is not None and now <= latest:
        now = latest + timedelta(microseconds=1)
    return now.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def _line(data: dict[str, Any]) -> bytes:
    # One line: line breaks and lone surrogates (legal \ud800 escapes) as \u escapes.
    return line_bytes(data) + b"\n"


@dataclass(slots=True)
class Entry:
    """A journal record about one run: a reviewer's label state, an adjudication, or a dismissal.

    - kind "label": `reviewer`'s whole state of the run after a change. `label` None:
      that reviewer set no label (a note or tags alone, or the label was cleared).
    - kind "adjudication": the final label (None withdraws the adjudication).
    - kind "dismiss": the stale records of `run` made against `digest` are dropped.
    `digest` is the run's digest when the record was written ("" in old lines: not checked).
    `line` is where the record was read from (0 when not read from a file), for messages.
    """

    run: str
    label: bool | None
    note: str
    reviewer: str
    at: str
    digest: str = ""
    line: int = 0
    tags: tuple[str, ...] = ()
    kind: str = LABEL

    def key(self) -> tuple[Any, ...]:
        """What makes two records the same record (the line they were read from aside)."""
        return (self.kind, self.run, self.label, self.note, self.tags, self.reviewer, self.at, self.digest)

    def to_json(self) -> bytes:
        """The record as one journal line, newline included."""
        data: dict[str, Any] = {"v": FORMAT_VERSION}
        if self.kind != LABEL:
            data["kind"] = self.kind
        data["run"] = self.run
        if self.kind != DISMISS:
            data["label"] = self.label
            data["note"] = self.note
        if self.kind == LABEL:
            data["tags"] = list(self.tags)
        data["reviewer"] = self.reviewer
        data["at"] = self.at
        data["digest"] = self.digest
        return _line(data)


@dataclass(slots=True)
class SpotCheck:
    """A named sample of runs drawn from a view (and text filter) with a seed.

    `population` is how many runs the view held when drawn, `size` how many were
    asked for, `ids` the run ids drawn, in sample order. The latest record of a name wins.
    `reading` says how the file was read when drawn, where it departs from IDs and boolean
    labels (`FieldMap.reading`: a score's threshold, documents as texts), so a conclusion
    always says what "correct" meant.
    A sample is a set: an id repeated (a hand-edited or merged record) is one run
    (`runs`), and `doubts` says so, as it does a `size` its ids disagree with.
    """

    name: str
    view: str
    filter: str
    seed: int
    population: int
    size: int
    ids: tuple[str, ...]
    reviewer: str
    at: str
    line: int = 0
    reading: tuple[str, ...] = ()
    kind: str = field(default=SPOT_CHECK, init=False)
    strata: Strata | None = None  # a stratified spot-check: its field, allocation and strata
    margin: float | None = None  # the +-margin it was planned for, and may stop at (sequential mode)

    @property
    def runs(self) -> tuple[str, ...]:
        """The ids drawn, each once, in sample order: what every count of the sample counts."""
        return tuple(dict.fromkeys(self.ids))

    def doubts(self) -> list[str]:
        """What the record itself gets wrong: repeated ids, a size its distinct ids disagree with."""
        runs = len(self.runs)
        repeated = len(self.ids) - runs
        out = []
        if repeated:
            out.append(f"{repeated} repeated {plural(repeated, 'id', 'ids')} counted once")
        if self.size != runs:
            named = f"{runs} distinct {plural(runs, 'run', 'runs')}"
            out.append(f"its size says {self.size} but it names {named}")
        return out

    def key(self) -> tuple[Any, ...]:
        """What makes two records the same record (the line they were read from aside)."""
        sample = (self.name, self.view, self.filter, self.seed, self.population, self.size, self.ids)
        return (SPOT_CHECK, *sample, self.reviewer, self.at, self.strata, self.margin)

    def to_json(self) -> bytes:
        """The record as one journal line, newline included."""
        return _line(
            {
                "v": FORMAT_VERSION,
                "kind": SPOT_CHECK,
                "name": self.name,
                "view": self.view,
                "filter": self.filter,
                "seed": self.seed,
                "population": self.population,
                "size": self.size,
                "ids": list(self.ids),
                "reviewer": self.reviewer,
                "at": self.at,
                **({"reading": list(self.reading)} if self.reading else {}),
            }
            | ({} if self.margin is None else {"margin": self.margin})
            | ({} if self.strata is None else self.strata.to_json())
        )


@dataclass(frozen=True, slots=True)
class Stratum:
    """One stratum of a stratified spot-check: its value, population and the ids drawn from it
    (in key order)."""

    stratum: str
    population: int
    ids: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {"stratum": self.stratum, "population": self.population, "size": len(self.ids),
                "ids": list(self.ids)}  # fmt: skip


@dataclass(frozen=True, slots=True)
class Strata:
    """How a spot-check was stratified: the field (`stage`, a dotted path, `tag:KEY`), the
    allocation and each stratum."""

    by: str
    allocation: str
    strata: tuple[Stratum, ...]

    def to_json(self) -> dict[str, Any]:
        """The spot-check line's extra fields."""
        return {"strata_by": self.by, "allocation": self.allocation,
                "strata": [stratum.to_json() for stratum in self.strata]}  # fmt: skip


def _margin(data: dict[str, Any]) -> float | None:
    margin = data.get("margin")
    if margin is not None and (not isinstance(margin, int | float) or isinstance(margin, bool)):
        raise ValueError("margin is not a number")
    return margin


def _strata(data: dict[str, Any]) -> Strata | None:
    """A spot-check line's strata, None when it has none; ValueError naming a wrong field."""
    if data.get("strata") is None:
        return None
    items = data["strata"]
    if not isinstance(items, list) or not all(isinstance(item, dict) for item in items):
        raise ValueError("strata is not a list of objects")
    strata = tuple(
        Stratum(_text(item, "stratum"), _count(item, "population"), _strings(item, "ids")) for item in items
    )
    return Strata(_text(data, "strata_by"), _text(data, "allocation"), strata)


Record = Entry | SpotCheck


def _text(data: dict[str, Any], name: str, required: bool = False) -> str:
    value = data.get(name)
    if value is None and not required:
        return ""
    if not isinstance(value, str):
        raise ValueError(f"{name} is not a string")
    return value


def _strings(data: dict[str, Any], name: str) -> tuple[str, ...]:
    value = data.get(name)
    if value is None:
        return ()
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise ValueError(f"{name} is not a list of strings")
    return tuple(value)


def _count(data: dict[str, Any], name: str) -> int:
    value = data.get(name)
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise ValueError(f"{name} is not a whole number")
    return value


def parse_record(text: str, line: int = 0) -> Record:
    """One journal line as a record. Raises ValueError naming the field that is wrong."""
    data = decode_standard(text)
    if not isinstance(data, dict):
        raise ValueError("not a journal entry")
    kind = data.get("kind", LABEL)
    reviewer = str(data.get("reviewer") or "")
    at = data.get("at")
    if kind == SPOT_CHECK:
        seed = data.get("seed")
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise ValueError("seed is not an integer")
        spot_check = SpotCheck(
            _text(data, "name", required=True),
            _text(data, "view"),
            _text(data, "filter"),
            seed,
            _count(data, "population"),
            _count(data, "size"),
            _strings(data, "ids"),
            reviewer,
            at,
            line,
            _strings(data, "reading"),
        )
        spot_check.strata, spot_check.margin = _strata(data), _margin(data)
        moment(at)  # refused unless a timestamp with a zone
        return spot_check
    if kind not in ENTRY_KINDS:
        raise ValueError(f"unknown kind {kind!r}")
    if not isinstance(data.get("run"), str):
        raise ValueError(
            "not a journal entry" if kind == LABEL and "run" not in data else "run is not a string"
        )
    label = data.get("label")
    if label is not None and not isinstance(label, bool):
        raise ValueError("label is not true, false or null")
    entry = Entry(
        data["run"],
        label,
        _text(data, "note"),
        reviewer,
        at,
        str(data.get("digest") or ""),
        line,
        _strings(data, "tags"),
        kind,
    )
    moment(at)  # refused unless a timestamp with a zone: it decides which record is in force
    return entry
