"""Issue 9, class 7: exports load back as they were.

An export in any format, loaded back with the same options (`--map`), gives the same
runs, the same ids, the labels in force and the same diagnoses, whatever the ID text
(`;`, `[a]`, formula starts, tabs, quotes, markup) and whichever label a reviewer gave.
With a map that reads the label elsewhere (`correct=judge.ok`), the label in force is
written there, so reloading does not bring the file's old label back.

CSV limit (documented in core/output/export.py): an empty ID cannot be told from none, so
the IDs here are never empty. A nested mapped source gets its own CSV column.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import example, given, settings
from hypothesis import strategies as st

from ragdiag_tui.core.output.export import FORMATS, export_runs
from ragdiag_tui.core.review.state import Review
from ragdiag_tui.core.runs.mapping import FieldMap
from ragdiag_tui.core.runs.store import RunStore

IDS = st.text(min_size=1, max_size=8) | st.sampled_from(
    ["a;b", "[a]", "=1+1", "+x", "-2", "@cmd", "\tx", "'=x", "''+y", '"q"', "[/]", " sp ", "a\nb", "x\r"]
)
FILE_LABELS = st.sampled_from([True, False, None, "yes", 1])
REVIEWER_LABELS = st.sampled_from([None, None, True, False])

# Where each run field lives in the file, per shape: the rule's own names, or a map.
NESTED_MAP = FieldMap(
    {"id": "meta.name", "required": "gold", "context": "retrieval.docs", "correct": "judge.ok"}
)
FLAT_MAP = FieldMap({"id": "name", "required": "gold", "context": "docs", "correct": "judge_ok"})


def _file_run(shape: str, run_id: str, required: list[str], context: list[str], label: Any) -> dict[str, Any]:
    if shape == "own":
        run: dict[str, Any] = {"id": run_id, "required": required, "context": context, "question": run_id}
        if label is not None:
            run["correct"] = label
        return run
    if shape == "nested":
        run = {"meta": {"name": run_id}, "gold": required, "retrieval": {"docs": context}}
        run["judge"] = {"ok": label} if label is not None else {}
        return run
    run = {"name": run_id, "gold": required, "docs": context, "correct": "not the label"}
    if label is not None:
        run["judge_ok"] = label
    return run


def _seen(store: RunStore, review: Review) -> list[tuple[str, Any, dict[str, Any]]]:
    rows = [row for row in range(len(store)) if store.is_valid(row)]
    return [(store.ids[row], review.label(row), review.diagnosis(row)) for row in rows]


def _check_round_trip(
    folder: Path, shape: str, fmt: str, runs: list[dict[str, Any]], labels: list[Any]
) -> None:
    field_map = {"own": None, "nested": NESTED_MAP, "flat": FLAT_MAP}[shape]
    path = folder / "runs.jsonl"
    path.write_text("".join(json.dumps(run) + "\n" for run in runs), encoding="utf-8")
    store = RunStore.load(path, field_map=field_map)
    review = Review(store, reviewer="alice")
    for row, label in enumerate(labels):
        if label is not None and row < len(store) and store.is_valid(row):
            review.set_label(row, label)
    before = _seen(store, review)
    out = folder / f"out.{fmt}"
    export_runs(store, review, out, fmt)
    again = RunStore.load(out, field_map=field_map)
    assert not again.errors, [error.detail for error in again.errors.values()]
    assert _seen(again, Review(again, reviewer="bob")) == before


@settings(max_examples=120, deadline=None)
@given(
    data=st.lists(
        st.tuples(
            IDS,
            st.lists(IDS, max_size=3),
            st.lists(IDS, max_size=3),
            FILE_LABELS,
            REVIEWER_LABELS,
        ),
        min_size=1,
        max_size=4,
        unique_by=lambda item: item[0],
    ),
    fmt=st.sampled_from(FORMATS),
    shape=st.sampled_from(["own", "nested", "flat"]),
)
@example(
    data=[("a;b", ["a;b", "[a]"], ["[a]"], True, None), ("=x", ["=x", "@y", "\tz"], ["@y"], False, True)],
    fmt="csv",
    shape="own",
)
@example(data=[("r1", ["D1"], ["D1"], True, False)], fmt="jsonl", shape="nested")
@example(
    data=[("r1", ["D1", "a;b"], ["D1"], None, True), ("=r2", [], [], "x", None)], fmt="csv", shape="nested"
)
@example(data=[("r1", ["D1"], ["D1"], False, True)], fmt="csv", shape="flat")
def test_an_export_loads_back_with_the_same_runs_ids_labels_and_diagnoses(
    data: list[tuple[str, list[str], list[str], Any, Any]], fmt: str, shape: str
) -> None:
    runs = [_file_run(shape, run_id, req, ctx, label) for run_id, req, ctx, label, _ in data]
    with tempfile.TemporaryDirectory() as folder:
        _check_round_trip(Path(folder), shape, fmt, runs, [item[4] for item in data])
