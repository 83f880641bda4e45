"""Views and text filters: which rows the table shows, as a list of row numbers.

Filtering never builds widgets; it produces an index in file order. Each step
runs over flat columns in C-level loops (`bytearray.find`, `map`, `compress`),
so a million rows filter in tens of milliseconds.

The filter text may hold terms besides plain text (see `parse_query`):
`is:VIEW` (any view name: `is:unreviewed` in the lucky view is the spot-check's
to-do list; *unreviewed* means not labelled by this reviewer, see progress.py),
`tag:KEY` (a reviewer gave the run that reason tag; in blind mode, before this
reviewer labelled the run, only their own tags count) and
`FIELD:VALUE` over any top-level field of the run's own JSON (`model:gpt-4o`,
`source:eval-2026-11`; `FIELD:=VALUE` for an exact value).
A field's values are read once, on its first use, and kept per store.
"""

from __future__ import annotations

import operator
import re
import weakref
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from itertools import compress, repeat
from typing import Any

import msgspec

from ..common.jsonutil import RawNumber, decode_exact, field_text
from ..review.state import Review
from ..runs.rule import GENERATION, LABEL_ERROR, PASS, RETRIEVAL
from ..runs.stages import STAGE_CODE
from ..runs.store import RunStore
from .lucky import is_lucky_in_file, lucky_view_rows
from .progress import unreviewed_by_me
from .views import VIEW_BY_NAME
from .views import VIEWS as VIEWS  # the views' names are in views.py, offered here too

LABEL_STAGES = frozenset({RETRIEVAL, GENERATION, PASS, LABEL_ERROR})
"""The stages the label in force decides between (a run without required IDs is unresolved,
an invalid line invalid, whatever the label)."""
LABEL_STAGE_CODES = frozenset(STAGE_CODE[name] for name in LABEL_STAGES)
REVEALING_VIEWS = frozenset({*LABEL_STAGES, "lucky", "conflicts"})
"""Views whose rows tell a run's label in force (or that reviewers disagree on it): in blind
mode they list only the runs this reviewer has labelled (`Review.revealed`)."""


def rows_with_stage(stage: bytearray, code: int) -> list[int]:
    """Every row whose stage byte is `code`, found by the C-level `bytearray.find`."""
    rows: list[int] = []
    append, find = rows.append, stage.find
    at = find(code)
    while at != -1:
        append(at)
        at = find(code, at + 1)
    return rows


def view_rows(store: RunStore, review: Review, view: str) -> list[int]:
    """The rows of one view, in file order."""
    rows = _view_rows(store, review, view)
    if review.blind and view in REVEALING_VIEWS:
        revealed = review.revealed
        return [row for row in rows if revealed(row)]
    return rows


def _view_rows(store: RunStore, review: Review, view: str) -> list[int]:
    if view == "all":
        return list(range(len(store)))
    if view in STAGE_CODE:
        return rows_with_stage(store.stage, STAGE_CODE[view])
    if view == "lucky":  # still lucky, and lucky in the file but overturned (see lucky.py)
        return lucky_view_rows(review)
    if view == "reviewed":
        return review.reviewed_rows()
    if view == "unreviewed":  # by this reviewer (see progress.py)
        unreviewed, is_valid = unreviewed_by_me(review), store.is_valid
        return [row for row in range(len(store)) if unreviewed(row) and is_valid(row)]
    if view == "conflicts":
        return sorted(review.conflicts)
    raise ValueError(f"unknown view: {view}")


def match_text(store: RunStore, rows: Iterable[int] | None, query: str) -> list[int]:
    """Rows whose id, question or any document ID contains `query` (case-insensitive)."""
    needle = query.casefold()
    haystack = store.search_text
    if rows is None:
        hits = map(operator.contains, haystack, repeat(needle))
        return list(compress(range(len(haystack)), hits))
    rows = rows if isinstance(rows, (list, range)) else list(rows)
    hits = map(operator.contains, map(haystack.__getitem__, rows), repeat(needle))
    return list(compress(rows, hits))


def row_matches(
    store: RunStore, review: Review, row: int, view: str, query: str = "", missing_doc: str | None = None
) -> bool:
    """Whether one row passes a filter: `filter_rows` for a single row."""
    in_view = in_view_test(store, review, view)(row)
    if in_view and missing_doc is not None:
        in_view = missing_doc in store.missing.get(row, ())
    if in_view and query:
        parsed = parse_query(store, query)
        in_view = all(test(row) for test in parsed.tests(store, review))
        if in_view and parsed.text:
            in_view = parsed.text.casefold() in store.search_text[row]
    return in_view


def in_view_test(store: RunStore, review: Review, view: str) -> Callable[[int], bool]:
    """Whether a row is in `view`, one row at a time."""
    test = _in_view_test(store, review, view)
    if review.blind and view in REVEALING_VIEWS:
        revealed = review.revealed
        return lambda row: test(row) and revealed(row)
    return test


def _in_view_test(store: RunStore, review: Review, view: str) -> Callable[[int], bool]:
    if view in STAGE_CODE:
        code, stage = STAGE_CODE[view], store.stage
        return lambda row: stage[row] == code
    if view == "lucky":
        is_lucky = review.is_lucky
        return lambda row: is_lucky(row) or is_lucky_in_file(store, row)
    if view == "reviewed":
        return review.is_reviewed
    if view == "unreviewed":
        unreviewed = unreviewed_by_me(review)
        return lambda row: store.is_valid(row) and unreviewed(row)
    if view == "conflicts":
        return review.is_conflict
    if view == "all":
        return lambda row: True
    raise ValueError(f"unknown view: {view}")


def missing_doc_rows(store: RunStore, rows: Iterable[int], document: str) -> list[int]:
    missing = store.missing
    return [row for row in rows if document in missing.get(row, ())]


def filter_rows(
    store: RunStore,
    review: Review,
    view: str = "all",
    query: str = "",
    missing_doc: str | None = None,
    within: list[int] | None = None,
) -> list[int]:
    """The table's index: a view, narrowed by the filter text and by a missing document.

    `within` may pass the previous result when the query only grew longer
    (`narrows` says when), so each keystroke scans fewer rows.
    """
    if within is not None:
        rows: list[int] | None = within
    elif view == "all":
        rows = None
    else:
        rows = view_rows(store, review, view)
    if missing_doc is not None:
        base = range(len(store)) if rows is None else rows
        rows = missing_doc_rows(store, base, missing_doc)
    parsed = parse_query(store, query) if query else Query("")
    for test in parsed.tests(store, review):
        rows = list(filter(test, range(len(store)) if rows is None else rows))
    if parsed.text:
        return match_text(store, rows, parsed.text)
    return list(range(len(store))) if rows is None else list(rows)


def narrows(old: str, new: str) -> bool:
    """Whether every row matching `new` also matches `old` (so `new` may search within
    `old`'s result): plain text that only grew longer. Terms are not worth the risk."""
    return bool(old) and new.startswith(old) and ":" not in new


# -- terms of the filter text -------------------------------------------------------------

TERM = re.compile(r'(?:(?<=\s)|^)([A-Za-z_][\w.-]*):(=?)("[^"]*"?|\S*)(?=\s|$)')
KEYWORDS = ("is", "tag")  # term names that are never taken for a run's field


@dataclass(frozen=True, slots=True)
class FieldTerm:
    field: str
    value: str  # case-folded
    exact: bool  # `field:=value`: the whole value, not a part of it

    def matcher(self) -> Callable[[str | None], bool]:
        """Whether a run's field text (`field_values`: case-folded, None where the run lacks
        the field) matches: the whole text with `:=` (`exact_texts`), else containing the
        value; `field:` with no value: the run has the field (null included)."""
        if self.exact:
            return exact_texts(self.value).__contains__
        if self.value:
            return lambda text, value=self.value: value in (text or "\0")
        return lambda text: text is not None


@dataclass(frozen=True, slots=True)
class Query:
    """The filter text, taken apart: plain text, views (`is:`) and field terms."""

    text: str
    views: tuple[str, ...] = ()
    fields: tuple[FieldTerm, ...] = ()
    tags: tuple[str, ...] = ()  # `tag:KEY`: a reviewer gave the run this reason tag

    def tests(self, store: RunStore, review: Review) -> list[Callable[[int], bool]]:
        """One row test per term, cheapest first."""
        tests = [in_view_test(store, review, view) for view in self.views]
        tags_of = shown_tags(review)
        for key in self.tags:
            tests.append(lambda row, key=key: key in (tag.casefold() for tag in tags_of(row)))
        for term in self.fields:
            values, match = field_values(store, term.field), term.matcher()
            tests.append(lambda row, values=values, match=match: match(values[row]))
            if review.blind and term.field == label_field(store):  # `correct:true` would tell
                test = tests.pop()
                tests.append(lambda row, test=test, revealed=review.revealed: revealed(row) and test(row))
        return tests


def shown_tags(review: Review) -> Callable[[int], tuple[str, ...]]:
    """A run's tags as a filter may see them: every reviewer's; in blind mode, before this
    reviewer labelled the run, only their own (another reviewer's would tell their verdict)."""
    if not review.blind:
        return review.tags
    return lambda row: review.tags(row) if review.revealed(row) else review.my_tags(row)


def exact_texts(value: str) -> frozenset[str]:
    """The field texts `FIELD:=value` matches: `value`, and where it is a number, that
    number as `field_text` writes it (`score:=0.90` finds a score written `0.90` or `0.9`)."""
    try:
        number = decode_exact(value)
    except ValueError:
        return frozenset((value,))
    if isinstance(number, bool) or not isinstance(number, (int, float, RawNumber)):
        return frozenset((value,))
    return frozenset((value, field_text(number).casefold()))


def label_field(store: RunStore) -> str:
    """The top-level field of the run that holds the file's label (`correct`, unless mapped)."""
    source = store.field_map.source("correct") if store.field_map else "correct"
    return re.split(r"[.\[]", source, maxsplit=1)[0]


def term_parts(match: re.Match[str]) -> tuple[str, bool, str]:
    """A `NAME:VALUE` term found by `TERM`: (name, exact (`NAME:=VALUE`), value unquoted)."""
    name, exact, value = match.group(1), match.group(2) == "=", match.group(3)
    if value.startswith('"'):
        value = value[1:-1] if len(value) > 1 and value.endswith('"') else value[1:]
    return name, exact, value


def parse_query(store: RunStore, query: str) -> Query:
    """`query` taken apart. `NAME:VALUE` is a term when NAME is `is` (with a view's name)
    or a top-level field of some run in the file; anything else stays plain text, so an
    ID such as `doc:12` is still found by its text. Quotes allow spaces: `source:"a b"`."""
    views: list[str] = []
    fields: list[FieldTerm] = []
    tags: list[str] = []

    def take(match: re.Match[str]) -> str:
        name, exact, value = term_parts(match)
        if name == "is":
            if value in VIEW_BY_NAME:
                views.append(value)
                return ""
            return match.group(0)
        if name == "tag" and value:
            tags.append(value.casefold())
            return ""
        if name in KEYWORDS or not has_field(store, name):
            return match.group(0)
        fields.append(FieldTerm(name, value.casefold(), exact))
        return ""

    text = TERM.sub(take, query) if ":" in query else query
    if views or fields or tags:
        text = " ".join(text.split())
    return Query(text, tuple(views), tuple(fields), tuple(tags))


# -- the values of one top-level field, read once per store -----------------------------

_FIELDS: weakref.WeakKeyDictionary[RunStore, dict[str, list[str | None]]] = weakref.WeakKeyDictionary()
_NAMES: weakref.WeakKeyDictionary[RunStore, dict[str, bool]] = weakref.WeakKeyDictionary()


def has_field(store: RunStore, name: str) -> bool:
    """Whether `"name":` occurs in the file's runs (a C-level search of their text, kept);
    over a dataset read in place, whether its source has that field."""
    if store.in_place:
        return bool(store.source.has_field(name))
    known = _NAMES.setdefault(store, {})
    if name not in known:
        key = msgspec.json.encode(name)
        known[name] = re.search(re.escape(key) + rb"\s*:", store.raw_blob) is not None
    return known[name]


def field_values(store: RunStore, name: str) -> list[str | None]:
    """Each row's value of top-level field `name`, case-folded `field_text` (the text the
    detail and export show), None where the run lacks it. Read once per store: the runs'
    text is decoded for that field alone, by msgspec."""
    cached = _FIELDS.setdefault(store, {})
    values = cached.get(name)
    if values is None or len(values) != len(store):
        values = cached[name] = _read_field(store, name)
    return values


def _read_field(store: RunStore, name: str) -> list[str | None]:
    one_field = msgspec.defstruct(
        "OneField",
        [("value", msgspec.Raw | msgspec.UnsetType, msgspec.UNSET)],  # type: ignore[arg-type]
        rename={"value": name},
    )
    decode = msgspec.json.Decoder(one_field).decode
    text_of = msgspec.json.Decoder(str).decode
    seen: dict[str, str] = {}  # one string per distinct value: a million runs share a few models
    texts: dict[bytes, str] = {}  # a value's JSON as written -> its field_text
    values: list[str | None] = []
    append = values.append
    for row in range(len(store)):
        raw = store.raw_text(row)
        if not raw:
            append(None)
            continue
        try:
            found = decode(raw).value
        except (msgspec.DecodeError, msgspec.ValidationError):
            # NaN or Infinity elsewhere in the run (kept as written): the careful decoder
            obj = _exact(raw.decode("utf-8", "surrogatepass"))
            append(_seen(seen, field_text(obj[name])) if isinstance(obj, dict) and name in obj else None)
            continue
        if found is msgspec.UNSET:
            append(None)
            continue
        data = bytes(found)
        if data[:1] == b'"':
            append(_seen(seen, text_of(data)))
            continue
        text = texts.get(data)
        if text is None:  # a number, label, list or object: as the detail and export write it
            written = data.decode("utf-8", "surrogatepass")
            value = _exact(written)
            text = texts[data] = written if value is _UNREADABLE else field_text(value)
        append(_seen(seen, text))
    return values


_UNREADABLE = object()


def _exact(text: str) -> Any:
    """`decode_exact(text)`, or `_UNREADABLE` (nested past the decoder's depth, say)."""
    try:
        return decode_exact(text)
    except (ValueError, RecursionError):
        return _UNREADABLE


def _seen(seen: dict[str, str], text: str) -> str:
    folded = text.casefold()
    return seen.setdefault(folded, folded)
