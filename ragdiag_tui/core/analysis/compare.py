"""Compare two run files: which runs moved between stages, and where to.

The rule isolates a stage only when the rest is held still, so a run of OLD is
paired with a run of NEW that asks the same question:

- by `id` (the default): the runs of the same id. A pair whose questions differ
  is *not comparable* (its stage change says nothing about the pipeline): it is
  counted and listed, and left out of every other figure.
- by question text: runs with the same question, and the same `source` when both
  runs have one. Runs that repeat a question pair in file order (the first with
  the first, and so on). A run without a question joins nothing.

Everything works on the columns of two `RunStore`s (stage bytes, ids, questions,
missing IDs), with the label in force of each file's review: no object per run.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from itertools import chain, compress, filterfalse, repeat
from operator import add, is_, is_not, mul, ne
from typing import Any

import msgspec

from ..common.text import visible
from ..review.journal import journal_path
from ..review.labels import ReviewerState
from ..review.records import Entry
from ..review.state import journal_applied, open_review
from ..runs.mapping import FieldMap
from ..runs.stages import S_GENERATION, S_INVALID, S_PASS, S_RETRIEVAL, STAGE_NAMES
from ..runs.store import RunStore, label_value

BY_ID, BY_QUESTION = "id", "question"
TOP_DOCUMENTS = 10

LabelOf = Callable[[int], bool | None]
"""The label in force of a row (a `Review`'s `label`)."""
ReviewedRun = tuple[bool, dict[str, ReviewerState], Entry | None]
"""A row's review: the label it puts on the run, every reviewer's state, the adjudication."""


@dataclass
class Comparison:
    """What moved between OLD and NEW. Pairs are (old row, new row)."""

    by: str
    old: RunStore
    new: RunStore
    pairs: list[tuple[int, int]] = field(default_factory=list)  # comparable, in NEW's file order
    not_comparable: list[tuple[int, int]] = field(default_factory=list)
    only_old: list[int] = field(default_factory=list)
    only_new: list[int] = field(default_factory=list)
    transitions: Counter[tuple[int, int]] = field(default_factory=Counter)  # (old code, new code)
    fixed: list[tuple[int, int]] = field(default_factory=list)
    regressed: list[tuple[int, int]] = field(default_factory=list)
    new_lucky: list[tuple[int, int]] = field(default_factory=list)
    resolved_lucky: list[tuple[int, int]] = field(default_factory=list)
    documents: list[tuple[str, int, int]] = field(default_factory=list)  # (id, missed old, missed new)

    @property
    def joined(self) -> int:
        """The runs joined: the comparable pairs and those whose question changed (one
        definition for `compare` and `review --baseline`)."""
        return len(self.pairs) + len(self.not_comparable)

    def old_row_of(self) -> dict[int, int]:
        """NEW row -> its comparable OLD row (for the review app's baseline)."""
        return {new: old for old, new in self.pairs}

    def to_json(self) -> dict[str, Any]:
        """The `compare --json` object; the runs of the lists are named by their NEW id."""
        new_ids, old_ids = self.new.ids, self.old.ids
        codes = list(enumerate(STAGE_NAMES))

        def ids(pairs: Sequence[tuple[int, int]]) -> list[str]:
            return [new_ids[new] for _, new in pairs]

        return {
            "by": self.by,
            "joined": self.joined,
            "only_old": len(self.only_old),
            "only_new": len(self.only_new),
            "not_comparable": [
                {"old": old_ids[old], "new": new_ids[new]} for old, new in self.not_comparable
            ],
            "transitions": {
                old_name: {new_name: self.transitions.get((old, new), 0) for new, new_name in codes}
                for old, old_name in codes
            },
            "fixed": ids(self.fixed),
            "regressed": ids(self.regressed),
            "new_lucky": ids(self.new_lucky),
            "resolved_lucky": ids(self.resolved_lucky),
            "documents": [
                {"id": doc, "missed_old": old, "missed_new": new} for doc, old, new in self.documents
            ],
        }


class _Source(msgspec.Struct):
    source: Any = None


_source_decode = msgspec.json.Decoder(_Source).decode


def _source_of(store: RunStore, row: int) -> Any:
    """The run's `source` field, or None (read from the run's text, only for --by question)."""
    text = store.raw_text(row)
    if not text:
        return None
    try:
        return _source_decode(text).source
    except (msgspec.DecodeError, msgspec.ValidationError, RecursionError):
        return store.raw(row).get("source") if text.startswith(b"{") else None


def _id_index(store: RunStore) -> tuple[dict[str, int], set[int]]:
    """Each id's row, and the rows that join nothing.

    A valid run's id wins over an invalid line that repeats it; an invalid line
    with no id, or repeating an id, joins nothing. (Built by C-level loops: the
    loader already made every repeated id but the first an invalid line.)
    """
    ids, errors = store.ids, store.errors
    index = dict(zip(reversed(ids), range(len(ids) - 1, -1, -1), strict=True))  # each id's first row
    if not errors:
        return index, set()
    # Ids whose first row is an invalid line: a later valid run of the id wins.
    doubtful = {ids[row] for row in errors if index.get(ids[row]) == row}
    if doubtful:
        for row, run_id in enumerate(ids):
            if run_id in doubtful and row not in errors:
                index[run_id] = row
                doubtful.discard(run_id)
    if index.get("") in errors:
        del index[""]
    return index, {row for row in errors if index.get(ids[row]) != row}


def _join_by_id(old: RunStore, new: RunStore) -> tuple[list[int | None], set[int]]:
    """For each NEW row, its OLD row or None; and the OLD rows joined."""
    index, _ = _id_index(old)
    _, unjoinable = _id_index(new) if new.errors else ({}, set())  # only invalid lines join nothing
    matched: list[int | None] = list(map(index.get, new.ids))
    for row in unjoinable:
        matched[row] = None
    return matched, set(matched) - {None}  # type: ignore[return-value]


def _join_by_question(old: RunStore, new: RunStore) -> tuple[list[int | None], set[int]]:
    """Same question, and the same source when both runs have one; repeats in file order."""
    waiting: dict[str, list[int]] = {}
    for row, question in enumerate(old.questions):
        if question:
            waiting.setdefault(question, []).append(row)
    matched: list[int | None] = [None] * len(new)
    used: set[int] = set()
    for row, question in enumerate(new.questions):
        candidates = waiting.get(question) if question else None
        if not candidates:
            continue
        source = _source_of(new, row)
        for at, old_row in enumerate(candidates):
            old_source = _source_of(old, old_row) if source is not None else None
            if old_source is not None and old_source != source:
                continue
            matched[row] = old_row
            used.add(old_row)
            del candidates[at]
            break
    return matched, used


def compare_stores(
    old: RunStore,
    new: RunStore,
    by: str = BY_ID,
    old_label: LabelOf | None = None,
    new_label: LabelOf | None = None,
    top: int = TOP_DOCUMENTS,
) -> Comparison:
    """Join the runs of two stores and count what moved.

    The stores' stage bytes and missing IDs are read as they stand (a `Review`
    keeps them diagnosed with the label in force); `old_label` and `new_label`
    give the label in force for the lucky answers (default: the file's label).
    """
    if by not in (BY_ID, BY_QUESTION):
        raise ValueError(f"unknown join: {by}")
    old_label = old_label or _file_label(old)
    new_label = new_label or _file_label(new)
    matched, used = (_join_by_id if by == BY_ID else _join_by_question)(old, new)
    result = Comparison(by, old, new)
    # Only in OLD or NEW: runs, not invalid lines that joined nothing.
    result.only_old = _runs_alone(old, filterfalse(used.__contains__, range(len(old))))
    # Column at a time: the joined rows, then their stages and questions side by side.
    new_rows = list(compress(range(len(matched)), map(is_not, matched, repeat(None))))
    old_rows: list[int] = list(map(matched.__getitem__, new_rows))  # type: ignore[arg-type]
    result.only_new = _runs_alone(new, compress(range(len(matched)), map(is_, matched, repeat(None))))
    old_stages = bytes(map(old.stage.__getitem__, old_rows))
    new_stages = bytes(map(new.stage.__getitem__, new_rows))
    asked_again = map(ne, map(old.questions.__getitem__, old_rows), map(new.questions.__getitem__, new_rows))
    apart = {
        at
        for at in compress(range(len(new_rows)), asked_again)
        if old_stages[at] != S_INVALID and new_stages[at] != S_INVALID
    }
    result.not_comparable = [(old_rows[at], new_rows[at]) for at in sorted(apart)]
    if apart:
        keep = [at for at in range(len(new_rows)) if at not in apart]
        old_rows = list(map(old_rows.__getitem__, keep))
        new_rows = list(map(new_rows.__getitem__, keep))
        old_stages = bytes(map(old_stages.__getitem__, keep))
        new_stages = bytes(map(new_stages.__getitem__, keep))
    pairs = result.pairs = list(zip(old_rows, new_rows, strict=True))
    # One byte per pair: OLD stage * 8 + NEW stage.
    moves = bytes(map(add, map(mul, old_stages, repeat(8)), new_stages))
    codes = [old_code * 8 + new_code for old_code in range(8) for new_code in range(8)]
    result.transitions = Counter({divmod(code, 8): moves.count(code) for code in codes if code in moves})
    failed = (S_RETRIEVAL, S_GENERATION)
    result.fixed = _pairs_moving(pairs, moves, [(code, S_PASS) for code in failed])
    result.regressed = _pairs_moving(pairs, moves, [(S_PASS, code) for code in failed])
    # Lucky answers are retrieval runs labelled correct: only retrieval rows are asked.
    old_missing, new_missing = old.missing, new.missing
    old_lucky = {o for o in old_missing if old_label(o) is True}
    new_lucky = {n for n in new_missing if new_label(n) is True}
    retrieval = _pairs_moving(pairs, moves, [(S_RETRIEVAL, code) for code in range(len(STAGE_NAMES))])
    retrieval_now = _pairs_moving(pairs, moves, [(code, S_RETRIEVAL) for code in range(len(STAGE_NAMES))])
    result.new_lucky = [(o, n) for o, n in retrieval_now if n in new_lucky and o not in old_lucky]
    result.resolved_lucky = [(o, n) for o, n in retrieval if o in old_lucky and n not in new_lucky]
    result.documents = _documents(old_rows, new_rows, old_missing, new_missing, top)
    return result


def _runs_alone(store: RunStore, unjoined: Iterable[int]) -> list[int]:
    """The rows that joined nothing and are runs: an invalid line is never only in OLD or NEW."""
    errors = store.errors
    return list(filterfalse(errors.__contains__, unjoined)) if errors else list(unjoined)


def _pairs_moving(
    pairs: list[tuple[int, int]], moves: bytes, wanted: list[tuple[int, int]]
) -> list[tuple[int, int]]:
    """The pairs whose (OLD stage, NEW stage) is one of `wanted`, in order."""
    table = bytearray(256)
    for old, new in wanted:
        table[old * 8 + new] = 1
    hits = moves.translate(table)
    found: list[tuple[int, int]] = []
    at = hits.find(1)
    while at != -1:
        found.append(pairs[at])
        at = hits.find(1, at + 1)
    return found


def _file_label(store: RunStore) -> LabelOf:
    labels = store.file_label
    return lambda row: label_value(labels[row])


def _documents(
    old_rows: list[int],
    new_rows: list[int],
    old_missing: dict[int, tuple[str, ...]],
    new_missing: dict[int, tuple[str, ...]],
    top: int,
) -> list[tuple[str, int, int]]:
    """The documents whose missed count over the comparable pairs changed most."""
    missed_old = Counter(chain.from_iterable(map(old_missing.get, old_rows, repeat(()))))
    missed_new = Counter(chain.from_iterable(map(new_missing.get, new_rows, repeat(()))))
    changed = [
        (doc, missed_old[doc], missed_new[doc])
        for doc in missed_old.keys() | missed_new.keys()
        if missed_old[doc] != missed_new[doc]
    ]
    # The biggest change first, ties by id so the list is stable from run to run.
    changed.sort(key=lambda item: (-abs(item[2] - item[1]), item[0]))
    return changed[:top]


# -- two files ------------------------------------------------------------------------


@dataclass
class Opened:
    """One side of a comparison: its store, the label in force of each row, its
    review's labels (row -> the review's label, every reviewer's state, the
    adjudication), and what it took from its review log (`applied`)."""

    store: RunStore
    label: LabelOf
    warnings: list[str]
    reviewer_labels: dict[int, ReviewedRun] = field(default_factory=dict)
    applied: str = ""


def open_side(
    path: str, field_map: FieldMap | None = None, journal: bool = True, journal_spec: str | None = None
) -> Opened:
    """Load a run file with its review journal applied (unless `journal` is False);
    `journal_spec` as `journal.open_log` takes it (a database URL serves both sides).

    The review log is only read. Raises loading.FileError when the file cannot be
    read, journal.JournalError when its log cannot.
    """
    review = open_review(path, field_map, journal_spec, use_journal=journal, writable=False)
    store = review.store
    if not journal:
        return Opened(store, _file_label(store), [])
    warnings = list(review.warnings)
    name = review.journal.name if review.journal is not None else journal_path(path)
    if review.orphans:
        warnings.append(f"{name}: {len(review.orphans)} entries name runs no longer in the file")
    if review.stale:
        warnings.append(f"{name}: {len(review.stale)} entries left out: their runs changed in the file since")
    labels: dict[int, ReviewedRun] = {}
    for row in review.reviewed_rows():
        label = review.reviewer_label(row)
        if label is not None:
            labels[row] = (label, review.reviewers(row), review.adjudication(row))
    return Opened(store, review.label, warnings, labels, journal_applied(review))


def compare_files(
    old_path: str,
    new_path: str,
    by: str = BY_ID,
    field_map: FieldMap | None = None,
    journals: bool = True,
    journal_spec: str | None = None,
) -> tuple[Comparison, list[str]]:
    """Compare two run files, each with its own review journal applied; and the warnings."""
    old = open_side(old_path, field_map, journals, journal_spec)
    new = open_side(new_path, field_map, journals, journal_spec)
    result = compare_stores(old.store, new.store, by, old.label, new.label)
    said = [old.applied, *old.warnings, new.applied, *new.warnings]
    return result, [line for line in said if line]


# -- as text ------------------------------------------------------------------------

LISTED = 10  # ids shown per list in the text report


def _id_list(ids: Sequence[str]) -> str:
    shown = ", ".join(visible(run_id) for run_id in ids[:LISTED])
    more = len(ids) - LISTED
    return shown + (f", ... ({more} more)" if more > 0 else "")


def format_comparison(result: Comparison, old_name: str, new_name: str) -> str:
    """The comparison as a plain-text report for the terminal."""
    data = result.to_json()
    out = [f"OLD {visible(old_name)}", f"NEW {visible(new_name)}", ""]
    out.append(
        f"  joined by {result.by}: {data['joined']}    only in OLD: {data['only_old']}    "
        f"only in NEW: {data['only_new']}    not comparable: {len(result.not_comparable)}"
    )
    out.append("")
    counts = max(len(str(max(result.transitions.values(), default=0))), 3)
    widths = [max(len(name), counts) + 2 for name in STAGE_NAMES]
    out.append("  stage transitions: OLD stage (rows) by NEW stage (columns)")
    out.append("  " + " " * 14 + "".join(f"{name:>{w}}" for name, w in zip(STAGE_NAMES, widths, strict=True)))
    for old_stage in STAGE_NAMES:
        row = data["transitions"][old_stage]
        cells = "".join(f"{row[new] or '.'!s:>{w}}" for new, w in zip(STAGE_NAMES, widths, strict=True))
        out.append(f"  {old_stage:<14}{cells}")
    out.append("")
    for key, title in (
        ("fixed", "fixed (retrieval or generation -> pass)"),
        ("regressed", "regressed (pass -> retrieval or generation)"),
        ("new_lucky", "new lucky answers"),
        ("resolved_lucky", "lucky answers resolved"),
    ):
        ids = data[key]
        out.append(f"  {title}: {len(ids)}" + (f"\n    {_id_list(ids)}" if ids else ""))
    if result.not_comparable:
        pairs = [
            f"{visible(result.old.ids[o])}"
            + ("" if result.old.ids[o] == result.new.ids[n] else "/" + visible(result.new.ids[n]))
            for o, n in result.not_comparable[:LISTED]
        ]
        more = len(result.not_comparable) - LISTED
        out.append(
            f"  not comparable (same id, different question): {len(result.not_comparable)}\n    "
            + ", ".join(pairs)
            + (f", ... ({more} more)" if more > 0 else "")
        )
    out.append("")
    if result.documents:
        out.append("  documents whose missed count changed most")
        shown = [(visible(doc), old, new) for doc, old, new in result.documents]
        doc_width = min(max(len(doc) for doc, _, _ in shown), 60)
        out.append(f"    {'document':<{doc_width}}  {'OLD':>{counts}}  {'NEW':>{counts}}  change")
        for doc, old, new in shown:
            out.append(f"    {doc:<{doc_width}}  {old:>{counts}}  {new:>{counts}}  {new - old:+d}")
    else:
        out.append("  no document's missed count changed")
    return "\n".join(out)
