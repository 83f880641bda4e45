"""Which Parquet files the SQL path reads, and the SQL that reads their run fields.

The SQL path reads a file whose mapped fields have the types the rule needs: the id a
string, required and context lists of strings (a null item in them makes the run
invalid, as the local loader says), the label any type (only a boolean is a label),
and the group-by and filter fields strings, booleans, integers or dates. A key, a
dotted path through structs and a `list[].field` path are followed as the field map
follows them in a run (`core.runs.mapping`): a null or absent step is a null field.

Any other file (an id stored as a number, IDs as text or as numbers, a column written
as JSON text by `export --format parquet`, a path through something that is not a
struct) goes to the exact path (`pyrows`): the local loader decides each row there, as
`ragdiag-tui diagnose FILE.parquet` would. So does a file whose text is not all valid
UTF-8: there a row with such a cell is an invalid run naming its field, as everywhere,
where DuckDB would refuse the whole scan. The text columns SQL does not read are checked
by pyarrow first (`check_text`); a bad cell in one SQL reads stops the scan
(`is_bad_text`), and the command runs again with the files that hold one read
exactly (`read_exactly`, `bad_text_files`): no cost until a file is bad.
Documents given as texts (`--match text`) are matched in SQL by their content IDs, made as
`core.runs.texts.content_id` makes them (`sha256(nfc_normalize(text))`), and a score under
`--label-threshold` is compared in SQL; `--match similarity` and a preset's per-run choice
of text columns go to the exact path.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from ...core.runs.mapping import FieldMap, SourcePath
from ...core.runs.parquet_runs import JSON_COLUMNS_KEY
from ...core.runs.texts import CONTENT_ID_HEX, EXACT


class Unclean(Exception):
    """The file's columns are not read exactly by SQL: use the exact path."""


def ident(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def literal(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


@dataclass(frozen=True)
class FieldSql:
    """The SQL expressions of a file's run fields (NULL where absent)."""

    id: str
    required: str
    context: str
    label: str
    values: tuple[str, ...]  # the text of each group-by or filter field
    columns: str = ""  # the file's columns and their types: DuckDB scans files of one schema together

    @property
    def key(self) -> tuple[str, ...]:
        """Files with equal expressions and columns are read by one scan."""
        return (self.id, self.required, self.context, self.label, *self.values, self.columns)


def _is_string(kind: pa.DataType) -> bool:
    if pa.types.is_dictionary(kind):
        kind = kind.value_type
    return pa.types.is_string(kind) or pa.types.is_large_string(kind) or _is_view(kind)


def is_string_type(kind: pa.DataType) -> bool:
    """Whether a column of type `kind` holds strings (plain, large, a view, or dictionary-encoded)."""
    return _is_string(kind)


def _is_view(kind: pa.DataType) -> bool:
    return getattr(pa.types, "is_string_view", lambda _: False)(kind)


def _is_list(kind: pa.DataType) -> bool:
    return pa.types.is_list(kind) or pa.types.is_large_list(kind)


def _walk(expr: str, kind: pa.DataType, keys: Sequence[str]) -> tuple[str, pa.DataType | None]:
    """Follow `keys` down structs; (expression, type), type None when a key is absent."""
    for key in keys:
        if not pa.types.is_struct(kind):
            raise Unclean(f"a path goes through {kind}")
        index = kind.get_field_index(key)
        if index < 0:
            return "NULL", None
        expr, kind = f"struct_extract({expr}, {literal(key)})", kind.field(index).type
    return expr, kind


def _source(schema: pa.Schema, source: str) -> tuple[str, pa.DataType | None]:
    """A SOURCE's expression and type in a file of `schema` (type None: always absent)."""
    if source in schema.names:
        return ident(source), schema.field(source).type
    path = SourcePath.parse(source)
    head, *rest = path.head
    if head not in schema.names:
        return "NULL", None
    expr, kind = _walk(ident(head), schema.field(head).type, rest)
    if path.each is None or kind is None:
        return expr, kind
    if not _is_list(kind) or not pa.types.is_struct(kind.value_type):
        raise Unclean(f"{source}: not a list of structs")
    item, leaf = _walk("__item", kind.value_type, path.each)
    if leaf is None:
        raise Unclean(f"{source}: an item has no {'.'.join(path.each)}")
    return f"list_transform({expr}, lambda __item: {item})", pa.list_(leaf)


def content_ids(texts: str) -> str:
    """A list of texts as their content IDs: 't:' and 16 hex digits of the SHA-256 of the NFC text."""
    content_id = f"'t:' || substr(sha256(nfc_normalize(__t)), 1, {CONTENT_ID_HEX})"
    return f"list_transform({texts}, lambda __t: {content_id})"


def _label(schema: pa.Schema, source: str, threshold: float | None) -> str:
    """The label: a boolean column; under --label-threshold, a number >= the threshold (NaN: none)."""
    label, kind = _source(schema, source)
    if kind is not None and pa.types.is_boolean(kind):
        return label
    if (
        threshold is not None
        and kind is not None
        and (pa.types.is_integer(kind) or pa.types.is_floating(kind))
    ):
        score = f"CAST({label} AS DOUBLE)"
        return f"CASE WHEN isnan({score}) THEN NULL ELSE {score} >= {float(threshold)!r} END"
    if threshold is not None and kind is not None and pa.types.is_decimal(kind):
        raise Unclean(f"{source} is {kind}")  # the local loader reads it as Python does
    return "CAST(NULL AS BOOLEAN)"


def _id_list(schema: pa.Schema, source: str) -> str:
    expr, kind = _source(schema, source)
    if kind is None or pa.types.is_null(kind):
        return "CAST(NULL AS VARCHAR[])"
    if _is_list(kind) and (_is_string(kind.value_type) or pa.types.is_null(kind.value_type)):
        return f"CAST({expr} AS VARCHAR[])"
    raise Unclean(f"{source} is {kind}")


def _text(schema: pa.Schema, name: str, filtering: bool = False) -> str:
    """A top-level field's text, as `results.value_text` gives it; `filtering`: as
    `results.filter_text` gives it before case folding (a null value 'null')."""
    if name not in schema.names:
        return "CAST(NULL AS VARCHAR)"
    if filtering:
        return f"coalesce({_text(schema, name)}, 'null')"
    column, kind = ident(name), schema.field(name).type
    if _is_string(kind):
        return f"CAST({column} AS VARCHAR)"
    if pa.types.is_boolean(kind):
        return f"CASE WHEN {column} THEN 'true' WHEN NOT {column} THEN 'false' END"
    if pa.types.is_integer(kind) or pa.types.is_date32(kind) or pa.types.is_null(kind):
        return f"CAST({column} AS VARCHAR)"
    raise Unclean(f"{name} is {kind}")


def stratum_sql(schema: pa.Schema, by: str) -> str:
    """A run's stratum under the field `by` (`stratify.stratum_text`): the text at the dotted
    path (the whole path as one column first), a string as it is, a boolean `true`/`false`,
    an integer its digits; `(none)` where absent or null. Raises Unclean for any other type."""
    absent = "'(none)'"
    if by in schema.names:
        expr, kind = ident(by), schema.field(by).type
    else:
        head, *rest = by.split(".")
        if head not in schema.names:
            return absent
        expr, kind = _walk(ident(head), schema.field(head).type, rest)
    if kind is None or pa.types.is_null(kind):
        return absent
    if _is_string(kind) or pa.types.is_integer(kind):
        text = f"CAST({expr} AS VARCHAR)"
    elif pa.types.is_boolean(kind):
        text = f"CASE WHEN {expr} THEN 'true' WHEN NOT {expr} THEN 'false' END"
    else:
        raise Unclean(f"--strata {by} is {kind}")
    return f"coalesce({text}, {absent})"


def _holds_text(kind: pa.DataType) -> bool:
    """Whether values of `kind` hold strings anywhere (lists, structs and maps followed)."""
    if pa.types.is_dictionary(kind):
        return _holds_text(kind.value_type)
    if _is_string(kind):
        return True
    return any(_holds_text(kind.field(i).type) for i in range(kind.num_fields))


BAD_TEXT = "Invalid string encoding"  # how DuckDB refuses a Parquet string that is not UTF-8
_EXACT: ContextVar[frozenset[Path]] = ContextVar("read_exactly", default=frozenset())


def is_bad_text(error: BaseException) -> bool:
    """Whether DuckDB stopped at a Parquet string that is not valid UTF-8."""
    return BAD_TEXT in str(error)


@contextmanager
def read_exactly(files: Iterable[Path]) -> Iterator[None]:
    """While in the block, `field_sql` sends `files` to the exact path."""
    token = _EXACT.set(frozenset(files))
    try:
        yield
    finally:
        _EXACT.reset(token)


def bad_text_files(files: Sequence[Path]) -> list[Path]:
    """The Parquet files holding a string that is not valid UTF-8 (every text column read)."""
    bad = []
    for path in files:
        try:
            check_text(path, pq.read_schema(path))
        except (Unclean, pa.ArrowException, OSError):
            bad.append(path)
    return bad


def check_text(path: Path, schema: pa.Schema, skip: frozenset[str] = frozenset()) -> None:
    """Raise Unclean when a string of the file's text columns (but `skip`) is not valid UTF-8
    (pyarrow checks it, a batch at a time): the exact path makes each such row one invalid run.
    A column found clean is not read again while the file is unchanged (`_CLEAN`)."""
    columns = [field.name for field in schema if field.name not in skip and _holds_text(field.type)]
    if not columns:
        return
    try:
        stat = path.stat()
    except OSError as exc:
        raise Unclean(str(exc)) from None
    version = (str(path), stat.st_dev, stat.st_ino, stat.st_size, stat.st_mtime_ns)
    with _CLEAN_LOCK:
        columns = [name for name in columns if name not in _CLEAN.get(version, ())]
    if not columns:
        return
    try:
        for batch in pq.ParquetFile(path).iter_batches(columns=columns, batch_size=65_536):
            batch.validate(full=True)
    except (pa.ArrowException, OSError, ValueError) as exc:
        raise Unclean(str(exc)) from None
    with _CLEAN_LOCK:
        _CLEAN.setdefault(version, set()).update(columns)


_CLEAN: dict[tuple[Any, ...], set[str]] = {}
"""The text columns `check_text` found valid UTF-8, per version of a file (its path, device,
inode, size and change time): the review app plans its files again for each view and filter,
and a scan of every text column of ten million runs takes seconds."""
_CLEAN_LOCK = threading.Lock()


def field_sql(
    path: Path,
    field_map: FieldMap | None,
    fields: Sequence[str],
    filtering: bool = False,
    whole_row: bool = False,
    stratum: str | None = None,
) -> FieldSql:
    """The SQL reading `path`'s run fields. Raises Unclean for a file SQL cannot read exactly.
    `whole_row`: SQL reads every column (a sample's drawn rows), else only the run fields'.
    `stratum`: a field whose `stratum_sql` follows the fields' texts in `values`."""
    if path in _EXACT.get():
        raise Unclean("a string that is not valid UTF-8")
    try:
        schema = pq.read_schema(path)
    except (pa.ArrowException, OSError) as exc:
        raise Unclean(str(exc)) from None
    mapping = field_map or FieldMap()
    texts = mapping.text_match is not None
    if mapping.text_sources or (texts and mapping.text_match.mode != EXACT):  # type: ignore[union-attr]
        # A preset's per-run choice of columns, and RAGAS's similarity: the local loader decides.
        raise Unclean("documents given as texts matched by similarity, or a preset's text columns")
    sources = {name: mapping.source(name) for name in ("id", "required", "context", "correct")}
    as_json = set(json.loads((schema.metadata or {}).get(JSON_COLUMNS_KEY, b"[]")))
    touched = {source.split(".")[0].removesuffix("[]") for source in sources.values()} | set(fields)
    if stratum is not None:
        touched |= {stratum, stratum.split(".")[0]}
    if as_json & (touched | set(sources.values())):
        raise Unclean("a column is stored as JSON text")
    id_expr, id_kind = _source(schema, sources["id"])
    if id_kind is None or pa.types.is_null(id_kind):
        id_expr = "CAST(NULL AS VARCHAR)"
    elif not _is_string(id_kind):
        raise Unclean(f"the id is {id_kind}")
    required, context = _id_list(schema, sources["required"]), _id_list(schema, sources["context"])
    if texts:  # the content IDs, as `core.runs.texts.content_id` makes them
        required, context = content_ids(required), content_ids(context)
    label = _label(schema, sources["correct"], mapping.label_threshold)
    values = tuple(_text(schema, name, filtering) for name in fields)
    if stratum is not None:
        values += (stratum_sql(schema, stratum),)
    if not whole_row:  # last: a file the checks above send to the exact path is not read twice
        check_text(path, schema, skip=frozenset(touched | set(sources.values())))
    return FieldSql(
        f"CAST({id_expr} AS VARCHAR)",
        required,
        context,
        label,
        values,
        str(schema.remove_metadata()),
    )


def plan(
    files: Sequence[Path],
    field_map: FieldMap | None,
    fields: Sequence[str],
    filtering: bool = False,
    whole_row: bool = False,
    stratum: str | None = None,
) -> list[Any]:
    """For each file, its FieldSql, or None for the exact path. `filtering`: the fields'
    texts for `--filter` (see `_text`); `whole_row`: SQL reads every column; `stratum`: a
    field's stratum last in `values` (`stratum_sql`)."""
    plans: list[Any] = []
    for path in files:
        try:
            plans.append(field_sql(path, field_map, fields, filtering, whole_row, stratum))
        except Unclean:
            plans.append(None)
    return plans
