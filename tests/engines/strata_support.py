"""The runs, files and checks the stratified-draw tests of both engines share: runs whose
strata are known in advance, the local path's draw, and the hash definition per stratum."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from ragdiag_tui.core.analysis.stratify import StrataPlan, draw_stratified
from ragdiag_tui.core.review.state import open_review

from .conftest import ID_LIST, pa, pq

SOURCES = ["Web", "web", "Straße", "STRASSE", None, "absent", 7, "0.50"]
"""Each run's meta.source: texts differing only in case (one stratum each, never case-folded),
null, absent, a number, and (`"0.50"`) the number 0.50 in JSON Lines (its text `0.5`, as the
filter shows it), the text "0.50" in Parquet."""


def strata_runs(count: int = 96) -> list[tuple[dict[str, Any], str, str]]:
    """(run, its line as written, its expected meta.source stratum) of every stage."""
    made = []
    for i in range(count):
        kind, source = i % 5, SOURCES[(i * 7 + i // 5) % len(SOURCES)]
        run: dict[str, Any] = {"id": f"r{i}", "rank": i % 3, "model": ("m1", "m2")[i % 2]}
        run["required"] = [] if kind == 4 else ["a", "b"]
        run["context"] = ["a"] if kind in (0, 1) else ["a", "b"]
        run["correct"] = None if kind == 3 else kind in (0, 2)
        if source != "absent":
            run["meta"] = {"source": source, "x": 1}
        line = json.dumps(run).replace('"0.50"', "0.50")  # the number, as written
        made.append((run, line, {None: "(none)", "absent": "(none)", 7: "7"}.get(source, source)))
    return made


def write_lines(path: Path, lines: list[str]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path


def write_struct_parquet(path: Path, runs: list[dict[str, Any]]) -> Path:
    """Runs as Parquet SQL reads exactly: meta a struct of a string, rank an integer."""
    meta = pa.struct([("source", pa.string()), ("x", pa.int64())])
    texts = [run.get("meta") if isinstance((run.get("meta") or {}).get("source"), str | None) else
             {"source": str(run["meta"]["source"]), "x": 1} for run in runs]  # fmt: skip
    table = pa.table(
        {
            "id": pa.array([run["id"] for run in runs], pa.string()),
            "required": pa.array([run["required"] for run in runs], ID_LIST),
            "context": pa.array([run["context"] for run in runs], ID_LIST),
            "correct": pa.array([run["correct"] for run in runs], pa.bool_()),
            "model": pa.array([run["model"] for run in runs], pa.string()),
            "rank": pa.array([run["rank"] for run in runs], pa.int64()),
            "meta": pa.array(texts, meta),
        }
    )
    path.parent.mkdir(parents=True, exist_ok=True)
    pq.write_table(table, path, row_group_size=11)
    return path


def key(seed: int, run_id: str) -> str:
    return hashlib.sha256(f"{seed}\x1f{run_id}".encode()).hexdigest()


def local_draw(path: Path, view: str, n: int | str, plan: StrataPlan, query: str = "") -> Any:
    review = open_review(path, None, use_journal=False, writable=False)
    return draw_stratified(review, view, n, 11, plan, query)


def assert_same_draw(local: Any, drawn: Any) -> None:
    assert drawn.strata == local.strata  # strata in order, populations, ids in key order
    assert drawn.ids == local.ids  # served interleaved alike
    assert drawn.population == local.population


def assert_hash_definition(drawn: Any, members: dict[str, list[str]]) -> None:
    """Each stratum's ids are its n_h runs of smallest key, ascending; its population is its own."""
    for stratum in drawn.strata.strata:
        assert stratum.population == len(members[stratum.stratum])
        expected = sorted(members[stratum.stratum], key=lambda run_id: key(11, run_id))[: len(stratum.ids)]
        assert list(stratum.ids) == expected
    assert sorted(drawn.ids) == sorted(run_id for s in drawn.strata.strata for run_id in s.ids)
