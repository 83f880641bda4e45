"""Export: the runs with the review applied, as JSON Lines, CSV, one JSON array, or Parquet.

Each exported run is the run's own object, every field kept verbatim and in its
order, followed by the review block, always in this order:

    correct, original_correct, label_source, reviewer, reviewed_at, note, tags,
    reviewers, then the diagnosis: stage and missing, or stage alone (unresolved),
    or error

- `id` is the run's name. A run without one gains it (its 1-based position, the
  case file's id, or the mapped id) as its first field; an `id` of null is
  replaced by it, and an own `id` that is not the run's name is kept as
  `original_id`.
- `correct` is the label in force (the reviewer's, else the file's when it is a
  boolean, else null). The file's own label, whatever its type, is
  `original_correct` (null when absent); with a field map it is read from the
  mapped source, which also stays in place under its own name.
- `note` is null when the run has none, never "". `reviewer` and `reviewed_at`
  describe the run's latest review change, and are null when it never had one.
- `label_source` is "reviewer" (the reviewers agree), "adjudication", "conflict"
  (reviewers disagree and nobody adjudicated: `correct` is then the file's label, which
  nobody settled, so a spot-check counts the run in conflict, neither held nor
  overturned, and leaves it out of its estimates), "file", or null.
- `tags` is the reason tags of the run's settled label: those given by each reviewer
  whose own label is the team's (agreed or adjudicated) label, as the spot-check tag
  rates count them (`TeamLabels.settled_tags`); empty on a run in conflict, or that
  nobody labelled, whatever tags reviewers gave (a list; in CSV a JSON array, empty
  when none). Every reviewer's own tags are in `reviewers`, which lists each
  reviewer's own state of the run: `{"reviewer", "label", "tags", "note", "at"}`, in
  the order they first reviewed it.
- Names clash: the review block wins its names. A run's own field called `stage`,
  `note`, `reviewer`, ... (or `correct` when a field map reads the label from
  elsewhere) is kept as `original_stage`, `original_note`, ... (with more
  `original_` prefixes until the name is free), in its place.
- Invalid rows have no run to export and are skipped in every scope, "all"
  included; the count returned is of runs written.
- Numbers keep their values: a number no Python number can hold exactly (1e400,
  1e-400, an integer of over 4,300 digits), and NaN, Infinity and -Infinity, are
  written as their original text (`jsonutil`).
- A JSON export is one run per line for every reader: U+0085, U+2028 and U+2029
  are written as \\u escapes.
- Strings with lone surrogates (legal `\\ud800` escapes) cannot be UTF-8: that
  run's JSON is written with \\u escapes; in CSV they become `\\ud800` text.

CSV has one header row: `id`, the runs' other own field names in first-seen order
(found by a first pass over the runs), then the review block. Cells: strings as they are;
lists of strings joined with ";" when every ID is plain (not empty, no `;`, not
starting with `[`, `'` or a formula character), else a JSON array (`["a;b", "=c"]`),
so every list reads back as it was; null and absent fields empty; booleans `true` /
`false`; numbers as JSON numbers; objects and other lists as JSON text. A text cell
(or a header name) starting with `=`, `+`, `-`, `@`, tab or carriage return, after
any `'`, gets one more leading `'` so no spreadsheet runs it as a formula (OWASP);
the CSV reader removes exactly that `'` (`csv_runs.restore`), so IDs come back
exactly. A number is never a formula, so `-3` stays a number.

Exports load back as they were: loaded with the same `--map`/`--preset`, any format
gives the same runs, ids, labels in force and diagnoses. So with a field map that
reads the label from elsewhere (`--map correct=judge.ok`), the label in force is
also written to that source (when there is one; the file's own value stays in
`original_correct`). In CSV, a mapped source inside nested objects or a list
(`retrieval.docs`, `hits[].id`) also gets a column named exactly as the source,
which the same map reads back. Limits: CSV cannot tell an empty ID from none, nor
hold a lone surrogate.

Parquet (with the `parquet` extra): one column per field, as `parquet_runs` describes.

Every format is written run by run, and atomically: a failed or killed export
leaves the previous file at the path as it was. `-` is standard output; a device
or FIFO is written as a stream; the run file and any review journal are never
written, whatever link leads to them (`atomic.open_output`).
"""

from __future__ import annotations

import csv
import io
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, BinaryIO

from ..common.atomic import WriteRefused, check_output, open_output
from ..common.jsonutil import decode_exact, dumps, field_text, line_bytes
from ..review.journal import journal_path
from ..review.state import Review
from ..runs import parquet_runs
from ..runs.csv_runs import neutralise, plain_id
from ..runs.mapping import SourcePath
from ..runs.store import RunStore

FORMATS = ("jsonl", "csv", "json", "parquet")
REVIEW_FIELDS = (
    "correct",
    "original_correct",
    "label_source",
    "reviewer",
    "reviewed_at",
    "note",
    "tags",
    "reviewers",
    "stage",
    "missing",
    "error",
)
_JSON_CELLS = frozenset({"tags"})  # lists a spreadsheet user reads back as JSON, not ";"-joined
_EXTENSIONS = {"jsonl": ".jsonl", "csv": ".csv", "json": ".json", "parquet": ".parquet"}
PROGRESS_EVERY = 4096  # runs between progress reports

Progress = Callable[[int, int], None]
"""Called as `progress(rows_done, rows_total)` while an export is written."""


class ExportError(OSError):
    """The export could not be written. The message names the path and the reason."""


def format_named_by(path: str | os.PathLike[str]) -> str | None:
    """The format an output path's extension names (.jsonl, .csv, .json, .parquet), if any."""
    extension = os.path.splitext(os.fspath(path))[1].lower()
    return {suffix: fmt for fmt, suffix in _EXTENSIONS.items()}.get(extension)


def format_for_path(path: str | os.PathLike[str]) -> str:
    """The format an output path asks for by its extension: csv, json, parquet, else jsonl."""
    return format_named_by(path) or "jsonl"


def default_export_path(run_path: str | os.PathLike[str], fmt: str) -> str:
    """Beside the run file: `runs.jsonl` -> `runs.reviewed.csv`; never the run file."""
    root = os.path.splitext(os.fspath(run_path))[0]
    return f"{root}.reviewed{_EXTENSIONS[fmt]}"


# -- one run ------------------------------------------------------------------


_CLAIMED = ("id", *REVIEW_FIELDS, "label_rule", "required_ids", "context_ids")  # the export's own names


def _free_name(key: str, taken: dict[str, Any]) -> str:
    name = f"original_{key}"
    while name in taken or name in _CLAIMED:
        name = f"original_{name}"
    return name


def _own_fields(original: dict[str, Any], run_id: str, label_key: str | None) -> dict[str, Any]:
    """The run's own fields, in order, with `id` set and clashing names moved aside.

    `label_key` is the own field that holds the label (dropped: it becomes
    `original_correct`), or None when a field map reads the label from elsewhere.
    """
    keeps_id = "id" in original and original["id"] in (run_id, None)
    fields: dict[str, Any] = {} if keeps_id else {"id": run_id}
    for key, value in original.items():
        if key == "id" and keeps_id:
            fields[key] = run_id
        elif key == label_key:
            continue
        elif key in _CLAIMED:
            fields[_free_name(key, original)] = value
        else:
            fields[key] = value
    return fields


def _original(store: RunStore, row: int) -> dict[str, Any]:
    # Not store.raw(): the stdlib would turn 1e400 into Infinity and reject huge integers.
    # surrogatepass: a case file's run is kept with its lone surrogates as such bytes.
    return decode_exact(store.raw_text(row).decode("utf-8", "surrogatepass"))


def _label_key(store: RunStore) -> str | None:
    field_map = store.field_map
    return None if field_map is not None and "correct" in field_map.sources else "correct"


def _write_mapped_label(run: dict[str, Any], source: str, label: bool) -> None:
    """Put the label in force where the field map reads the label, so the export reloads with it.

    Nothing is written through a list path (`a[].b`) or over a value that is not an
    object on the way, and never into a name the review block claims.
    """
    path = SourcePath.parse(source)
    if path.each is not None or path.head[0] in _CLAIMED or source in _CLAIMED:
        return
    if source in run or len(path.head) == 1:
        run[source] = label
        return
    where = run
    for key in path.head[:-1]:
        inner = where.get(key)
        if inner is None:
            inner = where[key] = {}
        elif not isinstance(inner, dict):
            return
        else:
            inner = where[key] = dict(inner)  # a copy: the run's original object is left as read
        where = inner
    where[path.head[-1]] = label


def exported_run(store: RunStore, review: Review, row: int) -> dict[str, Any]:
    """One valid run as it is exported. Raises ValueError for an invalid row."""
    original = _original(store, row)
    by = review.reviewed_by(row)
    run = _own_fields(original, store.ids[row], _label_key(store))
    # With a field map, the file's label is wherever the map reads it from.
    as_read = original if store.field_map is None else store.field_map.apply(original)
    label = review.label(row)
    field_map = store.field_map
    # A score read by --label-threshold stays the score: `correct` and `label_rule` say the rest.
    mapped = field_map is not None and "correct" in field_map.sources and field_map.label_threshold is None
    if label is not None and mapped:
        _write_mapped_label(run, field_map.sources["correct"], label)  # type: ignore[union-attr]
    run.update(_matching_fields(store, as_read))
    run["correct"] = label
    run["original_correct"] = as_read.get("correct")
    run["label_source"] = review.label_source(row)
    run["reviewer"] = by[0] if by else None
    run["reviewed_at"] = by[1] if by else None
    run["note"] = review.note(row) or None
    run["tags"] = list(review.team.settled_tags(row))
    run["reviewers"] = [
        {
            "reviewer": name,
            "label": state.label,
            "tags": list(state.tags),
            "note": state.note or None,
            "at": state.at,
        }
        for name, state in review.reviewers(row).items()
    ]
    run.update(review.diagnosis(row))
    return run


def matching_fields(store: RunStore) -> tuple[str, ...]:
    """The export's columns that say how the file was read, when it matters: `label_rule`
    under --label-threshold, and `required_ids` and `context_ids` (the content IDs the rule
    compared, beside the texts the run keeps) when documents are given as texts."""
    field_map = store.field_map
    if field_map is None:
        return ()
    names = ("label_rule",) if field_map.label_threshold is not None else ()
    if field_map.text_match is not None or field_map.text_sources:
        names += ("required_ids", "context_ids")
    return names


def _matching_fields(store: RunStore, as_read: dict[str, Any]) -> dict[str, Any]:
    fields: dict[str, Any] = {}
    for name in matching_fields(store):
        if name == "label_rule":
            fields[name] = store.field_map.label_rule()  # type: ignore[union-attr]
        else:
            fields[name] = as_read.get(name.removesuffix("_ids"))
    return fields


# -- JSON -----------------------------------------------------------------------


def _write_jsonl(out: BinaryIO, runs: Iterable[dict[str, Any]]) -> None:
    for run in runs:
        out.write(line_bytes(run) + b"\n")


def _write_json(out: BinaryIO, runs: Iterable[dict[str, Any]]) -> None:
    separator = b"[\n"
    for run in runs:
        out.write(separator + line_bytes(run))
        separator = b",\n"
    out.write(b"[]\n" if separator == b"[\n" else b"\n]\n")


# -- CSV ------------------------------------------------------------------------


def csv_cell(value: Any) -> str:
    """One exported value as CSV cell text."""
    if isinstance(value, str):
        return neutralise(value)
    if value is None:
        return ""
    if isinstance(value, list) and all(isinstance(item, str) and plain_id(item) for item in value):
        return ";".join(value)  # `a;b`: each ID plain, none a formula nor needing JSON
    # Numbers and labels as the filter and the detail show them. A JSON array or object
    # starts with `[` or `{`: never a formula, and an ID keeps its `;`, its leading `[`
    # or `=`, or its emptiness.
    return field_text(value)


def _csv_header(store: RunStore, rows: Sequence[int]) -> list[str]:
    names: dict[str, None] = {"id": None}  # every run has one: the first column
    label_key = _label_key(store)
    for row in _valid(store, rows):
        names.update(dict.fromkeys(_own_fields(_original(store, row), store.ids[row], label_key)))
    label_source = _mapped_label_column(store)
    if label_source is not None:  # a run without it gains it when a reviewer labels it
        names.setdefault(label_source)
    names.update(dict.fromkeys(_nested_sources(store)))
    return [*names, *matching_fields(store), *REVIEW_FIELDS]


def _nested_sources(store: RunStore) -> list[str]:
    """Mapped sources inside nested objects or lists (`retrieval.docs`, `hits[].id`).

    In CSV such a source would be one JSON text cell; the export adds a column named
    exactly as the source, holding the mapped value, which the same map reads back
    (a key spelled as the whole source wins, see `mapping`).
    """
    if store.field_map is None:
        return []
    nested = []
    for source in store.field_map.sources.values():
        path = SourcePath.parse(source)
        if (len(path.head) > 1 or path.each is not None) and source not in _CLAIMED:
            nested.append(source)
    return nested


def _with_flat_sources(runs: Iterable[dict[str, Any]], sources: list[str]) -> Iterator[dict[str, Any]]:
    paths = [SourcePath.parse(source) for source in sources]
    for run in runs:
        for path in paths:
            try:
                value = path.read(run)
            except Exception:  # a path the run does not have the shape for: left out
                continue
            if isinstance(value, (str, bool, list)):
                run[path.source] = value
        yield run


def _mapped_label_column(store: RunStore) -> str | None:
    """The column `_write_mapped_label` may add: the mapped label source's top-level name."""
    source = store.field_map.sources.get("correct") if store.field_map is not None else None
    if source is None:
        return None
    path = SourcePath.parse(source)
    if path.each is not None or path.head[0] in _CLAIMED or source in _CLAIMED:
        return None
    return source if len(path.head) == 1 else path.head[0]


def _write_csv(out: BinaryIO, runs: Iterable[dict[str, Any]], header: list[str]) -> None:
    # Lone surrogates cannot be UTF-8; backslashreplace writes them as `\ud800`.
    text = io.TextIOWrapper(out, encoding="utf-8", errors="backslashreplace", newline="")
    try:
        writer = csv.writer(text, quoting=csv.QUOTE_MINIMAL)
        writer.writerow([neutralise(name) for name in header])
        for run in runs:
            writer.writerow(
                [
                    neutralise(dumps(run[name]))
                    if name in _JSON_CELLS and run.get(name)
                    else csv_cell(run.get(name))
                    for name in header
                ]
            )
    finally:
        text.detach()  # flushes, and leaves `out` open for the atomic writer to finish


# -- export_runs ------------------------------------------------------------------


def _valid(store: RunStore, rows: Iterable[int]) -> Iterator[int]:
    return (row for row in rows if store.is_valid(row))


def protected_paths(store: RunStore, review: Review) -> tuple[str, ...]:
    """The run file and its journal are the review's only copy: never export over them."""
    if not store.path:
        return ()
    journal = getattr(review.journal, "path", None)
    return tuple(path for path in (store.path, journal_path(store.path), journal) if path)


def refuse_sources(out_path: str, store: RunStore, review: Review) -> None:
    """Raise ExportError if `out_path` is the run file, its review journal or any other
    review journal (by any link): they are the review's only copy, never exported over.
    The app asks this before it asks whether to replace an existing file."""
    try:
        check_output(out_path, protected_paths(store, review))
    except WriteRefused as exc:
        raise ExportError(str(exc)) from None


def export_runs(
    store: RunStore,
    review: Review,
    out_path: str | os.PathLike[str],
    fmt: str,
    rows: Iterable[int] | None = None,
    progress: Progress | None = None,
) -> int:
    """Write the runs of `rows` (default: every row, in file order) to `out_path`.

    Invalid rows are skipped. Returns how many runs were written. Raises
    ExportError, naming the path, when the file cannot be written; the previous
    file at `out_path`, if any, is then left as it was.
    """
    if fmt not in FORMATS:
        raise ValueError(f"unknown export format {fmt!r}: expected one of {', '.join(FORMATS)}")
    out_path = os.fspath(out_path)
    order: Sequence[int] = range(len(store)) if rows is None else list(rows)
    refuse_sources(out_path, store, review)
    if fmt == "parquet":
        try:
            parquet_runs.require()
        except parquet_runs.ParquetUnavailable as exc:
            raise ExportError(f"cannot write {out_path}: {exc}") from None
    written = 0

    def runs() -> Iterator[dict[str, Any]]:
        nonlocal written
        for done, row in enumerate(order, start=1):
            if store.is_valid(row):
                yield exported_run(store, review, row)
                written += 1
            if progress is not None and done % PROGRESS_EVERY == 0:
                progress(done, len(order))

    try:
        with open_output(out_path, protect=protected_paths(store, review)) as out:
            if fmt == "csv":
                header = _csv_header(store, order)
                _write_csv(out, _with_flat_sources(runs(), _nested_sources(store)), header)
            elif fmt == "json":
                _write_json(out, runs())
            elif fmt == "parquet":
                parquet_runs.write_runs(out, runs(), lambda value: dumps(value, ascii_only=True))
            else:
                _write_jsonl(out, runs())
    except WriteRefused as exc:
        raise ExportError(str(exc)) from None
    except OSError as exc:
        error = ExportError(f"cannot write {out_path}: {exc.strerror or exc}")
        error.errno = exc.errno
        raise error from exc
    if progress is not None:
        progress(len(order), len(order))
    return written


def export_reviewed(
    review: Review, out_path: str | os.PathLike[str], fmt: str, progress: Progress | None = None
) -> int:
    """Write the runs the review labelled (`Review.reviewed_rows`, in file order) with the review
    applied: `export --reviewed-only` of a file or a dataset (its store read in place, only these
    runs read), and the export dialog's reviewed runs. As `export_runs` otherwise."""
    return export_runs(review.store, review, out_path, fmt, review.reviewed_rows(), progress)
