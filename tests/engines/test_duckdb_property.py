"""A property: for random runs (astral and private-use characters, repeated IDs, empty,
null and missing lists, labels of any type, odd types and broken lines in JSON Lines),
split over files, the DuckDB engine gives the local path's verdicts and stats."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from .conftest import dataset, local_rows, read_jsonl, same_rows, write_jsonl, write_parquet

engine = pytest.importorskip("ragdiag_tui.engines.duckdb", reason="the duckdb extra is not installed")

CHARS = st.sampled_from(["a", "b", "Z", "é", "\ud7ff", "\ue000", "\uffff", "\U00010000", "\U0001f600", "#"])
DOC = st.text(CHARS, min_size=0, max_size=3)
ID_LIST = st.one_of(st.none(), st.lists(DOC, max_size=5), st.just([]))
LABEL = st.sampled_from([True, False, None, "true", 1, "absent"])


@st.composite
def runs(draw: Any) -> list[dict[str, Any]]:
    count = draw(st.integers(1, 25))
    out = []
    for index in range(count):
        run: dict[str, Any] = {}
        if draw(st.booleans()):
            run["id"] = f"r{index}" + draw(st.text(CHARS, max_size=2))
        for field in ("required", "context"):
            value = draw(st.one_of(ID_LIST, st.just("absent")))
            if value != "absent":
                run[field] = value
        label = draw(LABEL)
        if label != "absent":
            run["correct"] = label
        run["model"] = draw(st.sampled_from(["m1", "m2", None]))
        out.append(run)
    return out


ODD = st.sampled_from([
    "{not json", "[1, 2]", '"text"', "null", '{"required": "d1", "context": [], "correct": true}',
    '{"required": ["d1", 2], "context": [], "correct": true}', '{"id": 5, "required": ["d1"]}',
    '{"required": ["d1"], "context": {"d1": 1}, "correct": false}', "",
    '{"required": ["\\ud800"], "correct": true}',
])  # fmt: skip


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(runs(), st.lists(ODD, max_size=4), st.integers(1, 3))
# Found by Hypothesis: a file of one broken line was a broken document to the local path
# (another parser's message), a broken JSON Lines line to the engines.
@example([{"required": None, "correct": True}], ["{not json", "{not json"], 2)
def test_random_runs_split_over_files_get_the_local_verdicts(
    items: list[dict[str, Any]], odd: list[str], parts: int
) -> None:
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        cut = [items[i::parts] for i in range(parts)]
        for i, part in enumerate(cut):
            write_parquet(root / "pq" / f"part-{i}.parquet", part, extra=("model",))
            write_jsonl(root / "lines" / f"part-{i}.jsonl", [*part, *odd[i::parts]])
        for name in ("pq", "lines"):
            ds = dataset(root / name)
            engine.diagnose(ds, None, root / f"{name}.jsonl")
            assert same_rows(read_jsonl(root / f"{name}.jsonl"), local_rows(ds))


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(runs(), st.integers(1, 4))
def test_the_stats_of_runs_split_over_parquet_files_are_those_of_one_run_file(
    items: list[dict[str, Any]], parts: int
) -> None:
    for index, run in enumerate(items):  # unique ids: one run file has no repeated id
        run["id"] = f"run-{index}"
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        for i in range(parts):
            write_parquet(root / "pq" / f"{i}.parquet", items[i::parts], extra=("model",))
        single = write_jsonl(root / "one.jsonl", [{**run, "correct": run.get("correct")} for run in items])
        expected = _stats_of(single)
        assert engine.stats(dataset(root / "pq"), None) == expected


def _stats_of(path: Path) -> dict[str, Any]:
    import contextlib
    import io
    import json

    from ragdiag_tui.cli import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        main(["stats", str(path), "--json", "--no-journal"])
    figures = json.loads(out.getvalue())
    figures.pop("spot_checks")
    figures.pop("agreement")
    return figures
