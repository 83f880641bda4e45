"""The local path, DuckDB and Spark agree: the same population and sample ids for the same
filter, seed, view and size, and the same stats, on one file and on a dataset of its runs.

The Spark part shares the one local session of `spark_support`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from ragdiag_tui.cli import main
from ragdiag_tui.engines.results import parse_filters

from .conftest import dataset, local_stats, write_parquet
from .spark_support import ONE_SESSION, shared_session

pytestmark = ONE_SESSION  # Spark's shared session: one xdist worker starts it

duckdb_engine = pytest.importorskip("ragdiag_tui.engines.duckdb")

# Field values the app's filter reads in its own way: case folding beyond ASCII (ß, the Kelvin
# sign, Turkish İ), numbers as written (0.90 is 0.9), labels, null, absent, nested values.
VALUES = [
    '"model": "GPT-4o", "name": "Straße", "score": 0.90, "flag": true, "note": null',
    '"model": "gpt-4o-mini", "name": "\\u212aelvin", "score": 0.9, "flag": false, "note": "Null"',
    '"model": "Claude", "name": "İstanbul", "score": 1, "flag": "true", "meta": {"k": "X", "n": 2}',
    '"model": "GPT-4O", "name": "STRASSE", "score": "0.90", "meta": [1, "x"]',
    '"model": null, "name": "kelvin", "score": 0.900, "note": "ß"',
    '"name": "istanbul", "score": 10, "flag": null, "meta": "x y"',
]
FILTERS = [
    "model:gpt",
    "model:=gpt-4o",
    "name:strasse",
    "name:STRASSE",
    "name:kelvin",
    "name:\u212a",
    "name:İst",
    "name:ist",
    "score:=0.90",
    "score:=0.9",
    "score:0.9",
    "score:=1",
    "flag:true",
    "flag:=true",
    "flag:",
    "note:",
    "note:null",
    "note:=null",
    "note:ss",
    "meta:x",
    'meta:"x y"',
    "model: name:s",
    "model:gpt flag:=true",
    "model:=null",
]
SEED, SIZE = 20261202, 5


def _runs(count: int = 60) -> list[str]:
    """Runs in every stage, with the field values above in turn."""
    lines = []
    for i in range(count):
        required = '["a"]' if i % 7 else "[]"
        context = '["a"]' if i % 3 else '["b"]'
        correct = "true" if i % 2 else "false"
        lines.append(
            f'{{"id": "r{i}", "required": {required}, "context": {context}, "correct": {correct}, '
            f"{VALUES[i % len(VALUES)]}}}"
        )
    return lines


def _local_sample(path: Path, view: str, query: str, name: str, capsys: Any) -> tuple[int, list[str]]:
    capsys.readouterr()
    args = ["sample", str(path), "--view", view, "-n", str(SIZE), "--seed", str(SEED), "--json"]
    main([*args, "--name", name, *(["--filter", query] if query else [])])
    out = capsys.readouterr().out
    if not out:
        return 0, []
    drawn = json.loads(out)
    return drawn["population"], drawn["ids"]


def _engine_sample(engine: Any, ds: Any, view: str, query: str, out: Path) -> tuple[int, list[str]]:
    drawn = engine.sample(ds, None, view=view, filters=parse_filters(query), n=SIZE, seed=SEED, out=out)
    return drawn.population, list(drawn.ids)


def _split_jsonl(tmp_path: Path) -> tuple[Path, Any]:
    lines = _runs()
    whole = tmp_path / "runs.jsonl"
    whole.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    half = len(lines) // 2
    (tmp_path / "ds").mkdir()
    (tmp_path / "ds" / "a.jsonl").write_text("".join(line + "\n" for line in lines[:half]), encoding="utf-8")
    (tmp_path / "ds" / "b.jsonl").write_text("".join(line + "\n" for line in lines[half:]), encoding="utf-8")
    return whole, dataset(tmp_path / "ds")


def test_a_filter_finds_the_same_runs_in_the_local_path_and_in_duckdb(tmp_path: Path, capsys: Any) -> None:
    whole, ds = _split_jsonl(tmp_path)
    drawn = set()
    for i, query in enumerate(FILTERS):
        local = _local_sample(whole, "all", query, f"f{i}", capsys)
        assert 0 < local[0] < 60, query  # each filter finds some runs, not all
        assert _engine_sample(duckdb_engine, ds, "all", query, tmp_path / f"d{i}.jsonl") == local, query
        drawn.add(tuple(local[1]))
    assert len(drawn) > 10  # the filters tell the runs apart


def test_a_filter_finds_the_same_runs_in_the_local_path_and_in_spark(tmp_path: Path, capsys: Any) -> None:
    shared_session()
    from ragdiag_tui.engines import spark as spark_engine

    whole, ds = _split_jsonl(tmp_path)
    for i, query in enumerate(FILTERS):
        local = _local_sample(whole, "all", query, f"f{i}", capsys)
        assert _engine_sample(spark_engine, ds, "all", query, tmp_path / f"s{i}.jsonl") == local, query


# -- Parquet: DuckDB reads these files by SQL (string, boolean and integer columns) ------------

PARQUET_FIELDS = ("model", "name")


def _parquet_runs(count: int = 60) -> list[dict[str, Any]]:
    models = ["GPT-4o", "gpt-4o-mini", None, "Straße", "\u212aelvin", "İstanbul", "null"]
    runs = []
    for i in range(count):
        runs.append(
            {
                "id": f"p{i}",
                "required": (["a"] if i % 5 else ["a", "c"]) if i % 7 else [],
                "context": ["a"] if i % 3 else ["b"],
                "correct": bool(i % 2),
                "model": models[i % len(models)],
                "name": f"N{i % 5}",
            }
        )
    return runs


PARQUET_FILTERS = [
    "model:gpt",
    "model:=gpt-4o",
    "model:strasse",
    "model:kelvin",
    "model:İst",
    "model:null",
    "model:=null",
    "model:",
    "name:n1",
    "model:gpt name:=n2",
]


def _split_parquet(tmp_path: Path) -> tuple[Path, Any]:
    runs = _parquet_runs()
    whole = write_parquet(tmp_path / "runs.parquet", runs, PARQUET_FIELDS)
    write_parquet(tmp_path / "pq" / "a.parquet", runs[:25], PARQUET_FIELDS)
    write_parquet(tmp_path / "pq" / "b.parquet", runs[25:], PARQUET_FIELDS)
    return whole, dataset(tmp_path / "pq")


def test_a_filter_on_parquet_is_the_apps_in_duckdbs_sql_and_in_spark(tmp_path: Path, capsys: Any) -> None:
    from ragdiag_tui.engines.duckdb.schema import plan

    whole, ds = _split_parquet(tmp_path)
    assert None not in plan(ds.files, None, PARQUET_FIELDS, filtering=True)  # DuckDB's SQL path
    shared_session()
    from ragdiag_tui.engines import spark as spark_engine

    for i, query in enumerate(PARQUET_FILTERS):
        local = _local_sample(whole, "all", query, f"f{i}", capsys)
        assert local[0] > 0, query
        assert _engine_sample(duckdb_engine, ds, "all", query, tmp_path / f"d{i}.jsonl") == local, query
        assert _engine_sample(spark_engine, ds, "all", query, tmp_path / f"s{i}.jsonl") == local, query


# -- the same sample and stats everywhere -----------------------------------------------------------


@pytest.mark.parametrize("fmt", ["jsonl", "parquet"])
def test_duckdb_spark_and_the_local_path_draw_the_same_sample_and_count_the_same(
    tmp_path: Path, capsys: Any, fmt: str
) -> None:
    whole, ds = _split_jsonl(tmp_path) if fmt == "jsonl" else _split_parquet(tmp_path)
    shared_session()
    from ragdiag_tui.engines import spark as spark_engine

    for i, view in enumerate(["all", "retrieval", "generation", "pass", "lucky", "unresolved"]):
        local = _local_sample(whole, view, "", f"v{i}", capsys)
        assert local[0] > 0, view
        assert _engine_sample(duckdb_engine, ds, view, "", tmp_path / f"d{i}.jsonl") == local, view
        assert _engine_sample(spark_engine, ds, view, "", tmp_path / f"s{i}.jsonl") == local, view
    expected = local_stats(whole, capsys)
    assert duckdb_engine.stats(ds, None) == expected
    assert spark_engine.stats(ds, None) == expected
